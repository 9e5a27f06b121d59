import { describe, expect, it } from 'vitest';
import { normalisePath, routingPath } from './routing-path';

describe('routingPath', () => {
  it('regression: `//api/index.php` (site URL with a trailing slash) was a plain-text 404', () => {
    expect(normalisePath('//api/index.php')).toBe('/api/index.php');
    expect(normalisePath('///api//index.php/')).toBe('/api/index.php');
    expect(normalisePath('/api/v2/')).toBe('/api/v2');
    expect(normalisePath('//api/v2//')).toBe('/api/v2');
    expect(routingPath(new Request('http://x//api/index.php?a=1'))).toBe('/api/index.php');
  });

  it('leaves every other path as Hono routes it', () => {
    expect(normalisePath('/api/orders/')).toBe('/api/orders/');
    expect(normalisePath('/login')).toBe('/login');
    expect(normalisePath('/api/v2x/')).toBe('/api/v2x/');
    expect(routingPath(new Request('http://x/api/orders/%41?q=1'))).toBe('/api/orders/A');
  });
});

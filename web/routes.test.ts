import { describe, expect, it } from 'vitest';
import type { RouteConfigEntry } from '@react-router/dev/routes';
import { CATEGORIES } from '../shared/categories';
import { ALL_PATTERNS, isKnownPath } from '../shared/routes';
import routes from './routes';

function paths(entries: RouteConfigEntry[], prefix = ''): string[] {
  return entries.flatMap((e) => {
    const here = e.index ? prefix || '/' : e.path ? `${prefix}/${e.path}` : prefix;
    return [
      ...(e.path || e.index ? [here] : []),
      ...paths(e.children ?? [], here === '/' ? '' : here),
    ];
  });
}

describe('route table', () => {
  it('the web routes and the server list agree (so unknown paths get a real 404)', () => {
    const web = paths(routes).filter((p) => p !== '/*');
    const server = ALL_PATTERNS.filter(
      (p) => !p.startsWith('/placeorder') && p !== '/addfunds' && p !== '/orderhistory',
    );
    expect(new Set(web)).toEqual(new Set(server));
  });

  it('matches patterns with parameters and nothing else', () => {
    expect(isKnownPath('/nosotros/7')).toBe(true);
    expect(isKnownPath('/nosotros/7/x')).toBe(false);
    expect(isKnownPath('/dashboard/')).toBe(true);
    expect(isKnownPath('/DASHBOARD')).toBe(false);
    for (const c of CATEGORIES) expect(isKnownPath(`/placeorder/${c.slug}`)).toBe(true);
    expect(isKnownPath('/placeorder/otra')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { sameOriginPath } from './safe-redirect';

const APP = 'http://localhost:3000';

describe('sameOriginPath (open-redirect regression)', () => {
  it('returns paths of the app origin, relative or absolute, as path + query + hash', () => {
    expect(sameOriginPath('/verify-email', APP, null)).toBe('/verify-email');
    expect(sameOriginPath('/verify-email?a=1#b', APP, null)).toBe('/verify-email?a=1#b');
    expect(sameOriginPath(`${APP}/dashboard?x=1`, APP, null)).toBe('/dashboard?x=1');
    // Encoded slashes are a path on this origin, not another host.
    expect(sameOriginPath('/%2F%2Fevil.example', APP, null)).toBe('/%2F%2Fevil.example');
  });

  it('refuses every target a browser would take to another origin', () => {
    for (const target of [
      '//evil.example/x',
      '/\\evil.example/x',
      '\\/evil.example/x',
      '/\t/evil.example/x',
      '/\n/evil.example/x',
      ' //evil.example/x',
      '/.//evil.example/x',
      '/a/..//evil.example',
      `${APP}//evil.example/x`,
      'https://evil.example/',
      'http://localhost:3000@evil.example/',
      'http://localhost:3001/',
      'javascript:alert(1)',
      'data:text/html,hi',
    ]) {
      expect(sameOriginPath(target, APP, '/fallback'), JSON.stringify(target)).toBe('/fallback');
    }
    expect(sameOriginPath(undefined, APP, '/fallback')).toBe('/fallback');
    expect(sameOriginPath('', APP, '/fallback')).toBe('/fallback');
    expect(sameOriginPath(42, APP, null)).toBeNull();
  });
});

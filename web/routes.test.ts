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
    // One page serves the seven category paths; the sections of /nosotros/:id have a page each.
    const expanded = web.flatMap((p) =>
      p === '/placeorder/:category'
        ? CATEGORIES.map((c) => `/placeorder/${c.slug}`)
        : /^\/nosotros\/\d+$/.test(p)
          ? ['/nosotros/:id']
          : [p],
    );
    expect(new Set(expanded)).toEqual(new Set(ALL_PATTERNS));
  });

  it('matches patterns with parameters and nothing else', () => {
    expect(isKnownPath('/nosotros/7')).toBe(true);
    expect(isKnownPath('/nosotros/7/x')).toBe(false);
    expect(isKnownPath('/dashboard/')).toBe(true);
    expect(isKnownPath('/DASHBOARD')).toBe(false);
    expect(isKnownPath('/admin/pagos')).toBe(true);
    expect(isKnownPath('/admin/servicios')).toBe(true);
    expect(isKnownPath('/admin/proveedores')).toBe(true);
    expect(isKnownPath('/admin')).toBe(true);
    expect(isKnownPath('/admin/nada')).toBe(false);
  });
});

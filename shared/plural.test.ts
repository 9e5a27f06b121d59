import { describe, expect, it } from 'vitest';
import { plural, pluralWord } from './plural';

describe('plural', () => {
  it('uses the singular for one and the plural for every other count, zero included', () => {
    expect(plural(1, 'recarga pendiente', 'recargas pendientes')).toBe('1 recarga pendiente');
    expect(plural(3, 'orden creada', 'órdenes creadas')).toBe('3 órdenes creadas');
    expect(plural(0, 'orden', 'órdenes')).toBe('0 órdenes');
    expect(pluralWord(-1, 'día', 'días')).toBe('día');
    expect(pluralWord(2, 'día', 'días')).toBe('días');
  });
});

import { describe, expect, it } from 'vitest';
import { isCommonPassword } from './passwords';

describe('common passwords (shipped list, no network)', () => {
  it('refuses the most common ones, in any case', () => {
    for (const p of ['password', '12345678', 'qwertyuiop', 'PassWord1', 'iloveyou', 'contraseña'])
      expect(isCommonPassword(p), p).toBe(true);
  });
  it('accepts an uncommon one', () => {
    expect(isCommonPassword('Cielo-Azul-2026!')).toBe(false);
  });
});

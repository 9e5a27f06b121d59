import { describe, expect, it } from 'vitest';
import { backupCodesText, cleanCode, groupedKey, secretOf } from './key';

describe('two-factor key helpers', () => {
  it('reads the secret of an otpauth URI', () => {
    expect(
      secretOf('otpauth://totp/Cometa:ana%40example.com?secret=jbswy3dpehpk3pxp&issuer=Cometa'),
    ).toBe('JBSWY3DPEHPK3PXP');
    expect(secretOf('otpauth://totp/Cometa:ana?issuer=Cometa')).toBeNull();
    expect(secretOf('no es una URI')).toBeNull();
  });

  it('groups the manual key in blocks of 4', () => {
    expect(groupedKey('JBSWY3DPEHPK3PXPAB')).toBe('JBSW Y3DP EHPK 3PXP AB');
    expect(groupedKey('')).toBe('');
  });

  it('writes the backup codes file with every code on its own line', () => {
    const text = backupCodesText(['aaaa-1111', 'bbbb-2222'], 'ana@example.com', 'Cometa');
    expect(text).toContain('Cuenta: ana@example.com');
    expect(text.split('\n')).toContain('aaaa-1111');
    expect(text.split('\n')).toContain('bbbb-2222');
  });

  it('cleans a typed code', () => {
    expect(cleanCode(' 123 456 ')).toBe('123456');
    expect(cleanCode('123-456')).toBe('123456');
  });
});

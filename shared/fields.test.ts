import { describe, expect, it } from 'vitest';
import {
  completeUrl,
  duplicateFieldKey,
  luhnValid,
  normaliseImei,
  serviceFieldListSchema,
  serviceFieldSchema,
  validateField,
  validateOrderFields,
} from './fields';
import type { ServiceField } from './schemas/catalogue';

const imei: ServiceField = { key: 'imei', label: 'IMEI', type: 'imei', required: true };

function field(partial: Partial<ServiceField> & Pick<ServiceField, 'type'>): ServiceField {
  return { key: 'f', label: 'Campo', required: true, ...partial };
}

describe('luhnValid', () => {
  it('accepts a real IMEI and refuses placeholders with a wrong check digit', () => {
    expect(luhnValid('359702373699048')).toBe(true);
    expect(luhnValid('490154203237518')).toBe(true);
    expect(luhnValid('111111111111116')).toBe(false);
    expect(luhnValid('111199122222005')).toBe(false);
    expect(luhnValid('359702373699047')).toBe(false);
  });

  it('refuses anything that is not 15 digits', () => {
    expect(luhnValid('35970237369904')).toBe(false);
    expect(luhnValid('3597023736990480')).toBe(false);
    expect(luhnValid('35970237369904a')).toBe(false);
  });
});

describe('IMEIs as people write them were refused (issue 20)', () => {
  it('strips spaces, dashes, dots and slashes before the length and Luhn checks', () => {
    for (const typed of [
      '35-970237-369904-8',
      '35 970237 369904 8',
      '35.970237.369904.8',
      '35/970237/369904/8',
      '35–970237–369904–8',
      '\t35 970237-369904/8 ',
    ])
      expect(validateField(imei, typed), typed).toEqual({ ok: true, value: '359702373699048' });
    expect(normaliseImei('35 332211 000066')).toBe('35332211000066');
  });

  it('«35 332211 000066…» is judged on its digits, not its spaces', () => {
    expect(validateField(imei, '35 332211 000066 9')).toEqual({
      ok: true,
      value: '353322110000669',
    });
    expect(validateField(imei, '35\u00a0332211\u00a0000066\u00a09').ok).toBe(true);
    // «35 332211 000066» as quoted in the issue has 14 digits: the length message is right.
    expect(validateField(imei, '35 332211 000066')).toEqual({
      ok: false,
      message: 'El IMEI debe tener 15 dígitos.',
    });
    expect(validateField(imei, '35 332211 0000660')).toEqual({
      ok: false,
      message: 'El IMEI no es válido: revisa el último dígito (control).',
    });
  });

  it('letters are still refused', () => {
    expect(validateField(imei, '35-97O237-369904-8')).toEqual({
      ok: false,
      message: 'El IMEI solo puede contener números.',
    });
  });
});

describe('links without a scheme were refused (issue 20)', () => {
  const url = field({ type: 'url' });

  it('completes them to https://', () => {
    expect(validateField(url, 'instagram.com/tienda')).toEqual({
      ok: true,
      value: 'https://instagram.com/tienda',
    });
    expect(validateField(url, ' www.tiktok.com/@tienda ')).toEqual({
      ok: true,
      value: 'https://www.tiktok.com/@tienda',
    });
    expect(validateField(url, '//youtu.be/abc')).toEqual({
      ok: true,
      value: 'https://youtu.be/abc',
    });
    expect(validateField(url, 'tienda.com.mx:8080/x?y=1').ok).toBe(true);
    expect(completeUrl('instagram.com')).toBe('https://instagram.com');
    expect(completeUrl('http://instagram.com/a')).toBe('http://instagram.com/a');
  });

  it('leaves other schemes and non-hosts alone, and refuses them', () => {
    for (const bad of [
      'mailto:ana@correo.com',
      'javascript:alert(1)',
      'tienda',
      'ana@instagram.com',
      'ftp://x.com',
      'localhost:3000/x',
    ])
      expect(validateField(url, bad).ok, bad).toBe(false);
    expect(validateField(url, 'tienda')).toEqual({
      ok: false,
      message: 'Escribe un enlace válido (por ejemplo instagram.com/tu_cuenta).',
    });
  });
});

describe('validateField: imei', () => {
  it('accepts a valid IMEI and removes spaces', () => {
    expect(validateField(imei, '359702373699048')).toEqual({ ok: true, value: '359702373699048' });
    expect(validateField(imei, '  35 970237 369904 8 ')).toEqual({
      ok: true,
      value: '359702373699048',
    });
  });

  it('refuses 14 and 16 digits', () => {
    const expected = { ok: false, message: 'El IMEI debe tener 15 dígitos.' };
    expect(validateField(imei, '35970237369904')).toEqual(expected);
    expect(validateField(imei, '3597023736990481')).toEqual(expected);
  });

  it('refuses letters and a wrong check digit', () => {
    expect(validateField(imei, '35970237369904A')).toEqual({
      ok: false,
      message: 'El IMEI solo puede contener números.',
    });
    expect(validateField(imei, '111111111111116')).toEqual({
      ok: false,
      message: 'El IMEI no es válido: revisa el último dígito (control).',
    });
  });

  it('handles required and optional emptiness', () => {
    expect(validateField(imei, '   ')).toEqual({
      ok: false,
      message: 'Este campo es obligatorio.',
    });
    expect(validateField(imei, undefined)).toEqual({
      ok: false,
      message: 'Este campo es obligatorio.',
    });
    expect(validateField({ ...imei, required: false }, '')).toEqual({ ok: true, value: '' });
    expect(validateField(imei, { imei: 1 })).toEqual({
      ok: false,
      message: 'El valor no es válido.',
    });
  });
});

describe('validateField: other types', () => {
  it('serial: letters and digits by default, uppercased, length 8..24', () => {
    const serial = field({ type: 'serial' });
    expect(validateField(serial, ' f2lxk0abcd12 ')).toEqual({ ok: true, value: 'F2LXK0ABCD12' });
    expect(validateField(serial, 'ABC1234')).toEqual({
      ok: false,
      message: 'El número de serie debe tener entre 8 y 24 caracteres.',
    });
    expect(validateField(serial, 'A'.repeat(25)).ok).toBe(false);
    expect(validateField(serial, 'F2LX-K0AB')).toEqual({
      ok: false,
      message: 'El número de serie solo puede contener letras y números.',
    });
  });

  it('serial: digits only when letters are not allowed; custom lengths', () => {
    const digits = field({ type: 'serial', allowLetters: false, minLength: 11, maxLength: 12 });
    expect(validateField(digits, '12345678901')).toEqual({ ok: true, value: '12345678901' });
    expect(validateField(digits, '1234567890A')).toEqual({
      ok: false,
      message: 'El número de serie solo puede contener números.',
    });
    expect(validateField(digits, '1234567890')).toEqual({
      ok: false,
      message: 'El número de serie debe tener entre 11 y 12 caracteres.',
    });
  });

  it('email: trimmed, lowercased, must look like an address', () => {
    const email = field({ type: 'email' });
    expect(validateField(email, '  Ana.Perez@Correo.COM ')).toEqual({
      ok: true,
      value: 'ana.perez@correo.com',
    });
    expect(validateField(email, 'ana@correo').ok).toBe(false);
    expect(validateField(email, 'ana perez@correo.com').ok).toBe(false);
    expect(validateField(email, 'sin-arroba.com').ok).toBe(false);
  });

  it('username: leading @ removed, no spaces, max length', () => {
    const username = field({ type: 'username' });
    expect(validateField(username, ' @cometa_oficial ')).toEqual({
      ok: true,
      value: 'cometa_oficial',
    });
    expect(validateField(username, 'dos palabras')).toEqual({
      ok: false,
      message: 'El nombre de usuario no puede contener espacios.',
    });
    expect(validateField(username, 'a'.repeat(65)).ok).toBe(false);
    expect(validateField(field({ type: 'username', maxLength: 5 }), 'abcdef').ok).toBe(false);
    expect(validateField(username, '@').ok).toBe(false);
  });

  it('url: http or https with a host, at most 2048 characters', () => {
    const url = field({ type: 'url' });
    expect(validateField(url, ' https://instagram.com/cometa ')).toEqual({
      ok: true,
      value: 'https://instagram.com/cometa',
    });
    expect(validateField(url, 'http://youtu.be/abc').ok).toBe(true);
    expect(validateField(url, 'ftp://example.com/x').ok).toBe(false);
    expect(validateField(url, 'javascript:alert(1)').ok).toBe(false);
    expect(validateField(url, 'instagram').ok).toBe(false);
    expect(validateField(url, `https://example.com/${'a'.repeat(2048)}`)).toEqual({
      ok: false,
      message: 'El enlace es demasiado largo (máximo 2048 caracteres).',
    });
  });

  it('number: integer within min..max', () => {
    const n = field({ type: 'number', min: 1, max: 100 });
    expect(validateField(n, ' 42 ')).toEqual({ ok: true, value: '42' });
    expect(validateField(n, 42)).toEqual({ ok: true, value: '42' });
    expect(validateField(n, '4.5')).toEqual({ ok: false, message: 'Escribe un número entero.' });
    expect(validateField(n, '0')).toEqual({
      ok: false,
      message: 'El número debe estar entre 1 y 100.',
    });
    expect(validateField(n, '101').ok).toBe(false);
    expect(validateField(n, '1e3').ok).toBe(false);
  });

  it('text: trimmed, 1..maxLength (500 by default)', () => {
    const text = field({ type: 'text' });
    expect(validateField(text, '  Hola  ')).toEqual({ ok: true, value: 'Hola' });
    expect(validateField(text, 'x'.repeat(501))).toEqual({
      ok: false,
      message: 'El texto es demasiado largo (máximo 500 caracteres).',
    });
    expect(validateField(field({ type: 'text', maxLength: 3 }), 'abcd').ok).toBe(false);
  });

  it('select: must be one of the options', () => {
    const select = field({ type: 'select', options: ['iPhone', 'Samsung Galaxy'] });
    expect(validateField(select, 'iPhone')).toEqual({ ok: true, value: 'iPhone' });
    expect(validateField(select, 'Nokia')).toEqual({
      ok: false,
      message: 'Elige una de las opciones disponibles.',
    });
  });
});

describe('validateOrderFields', () => {
  const model = field({ key: 'modelo', type: 'select', options: ['iPhone'] });
  const note = field({ key: 'nota', type: 'text', required: false });

  it('returns the values, ignores unknown keys and picks the imei as identifier', () => {
    const result = validateOrderFields([imei, model, note], {
      imei: '359702373699048',
      modelo: 'iPhone',
      precio: '0.01',
      __proto__: 'x',
    });
    expect(result).toEqual({
      ok: true,
      values: { imei: '359702373699048', modelo: 'iPhone' },
      identifier: '359702373699048',
    });
  });

  it('prefers the field marked as identifier', () => {
    const link = field({ key: 'link', type: 'url', identifier: true });
    const result = validateOrderFields([imei, link], {
      imei: '359702373699048',
      link: 'https://tiktok.com/@a/video/1',
    });
    expect(result).toMatchObject({ ok: true, identifier: 'https://tiktok.com/@a/video/1' });
  });

  it('gives null when there is no identifier or it was left empty', () => {
    expect(validateOrderFields([model], { modelo: 'iPhone' })).toMatchObject({
      ok: true,
      identifier: null,
    });
    const optionalImei = { ...imei, required: false };
    expect(validateOrderFields([optionalImei], {})).toEqual({
      ok: true,
      values: {},
      identifier: null,
    });
  });

  it('reports every invalid field by key', () => {
    expect(validateOrderFields([imei, model], { imei: '123' })).toEqual({
      ok: false,
      errors: { imei: 'El IMEI debe tener 15 dígitos.', modelo: 'Este campo es obligatorio.' },
    });
  });
});

describe('serviceFieldSchema', () => {
  it('accepts a valid definition and defaults required to true', () => {
    const parsed = serviceFieldSchema.parse({ key: 'imei', label: 'IMEI', type: 'imei' });
    expect(parsed).toEqual({ key: 'imei', label: 'IMEI', type: 'imei', required: true });
  });

  it('refuses bad keys, labels, types and a select without options', () => {
    expect(
      serviceFieldSchema.safeParse({ key: '1imei', label: 'IMEI', type: 'imei' }).success,
    ).toBe(false);
    expect(serviceFieldSchema.safeParse({ key: 'Imei', label: 'IMEI', type: 'imei' }).success).toBe(
      false,
    );
    expect(
      serviceFieldSchema.safeParse({ key: 'a'.repeat(33), label: 'x', type: 'text' }).success,
    ).toBe(false);
    expect(serviceFieldSchema.safeParse({ key: 'a', label: ' ', type: 'text' }).success).toBe(
      false,
    );
    expect(
      serviceFieldSchema.safeParse({ key: 'a', label: 'x'.repeat(81), type: 'text' }).success,
    ).toBe(false);
    expect(serviceFieldSchema.safeParse({ key: 'a', label: 'A', type: 'fecha' }).success).toBe(
      false,
    );
    const select = serviceFieldSchema.safeParse({ key: 'm', label: 'Modelo', type: 'select' });
    expect(select.success).toBe(false);
    expect(select.error?.issues[0]?.message).toBe(
      'Una lista de opciones necesita al menos una opción.',
    );
  });

  it('allows at most ten fields and finds duplicate keys', () => {
    const many = Array.from({ length: 11 }, (_, i) => ({ key: `f${i}`, label: 'x', type: 'text' }));
    expect(serviceFieldListSchema.safeParse(many).success).toBe(false);
    expect(serviceFieldListSchema.safeParse(many.slice(0, 10)).success).toBe(true);
    expect(duplicateFieldKey([{ key: 'a' }, { key: 'b' }, { key: 'a' }])).toBe('a');
    expect(duplicateFieldKey([{ key: 'a' }, { key: 'b' }])).toBeNull();
  });
});

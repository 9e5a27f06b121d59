import { describe, expect, it } from 'vitest';
import { BulkCompleteSchema, parseResultLines, parseReference } from './bulk-results';

describe('parseReference', () => {
  it('reads #123 and short numbers as order numbers, anything else as an identifier', () => {
    expect(parseReference('#123')).toEqual({ kind: 'number', number: 123 });
    expect(parseReference('45')).toEqual({ kind: 'number', number: 45 });
    expect(parseReference('359702373699048')).toEqual({
      kind: 'identifier',
      value: '359702373699048',
    });
    expect(parseReference('F2LXK0ABCDEF')).toEqual({ kind: 'identifier', value: 'F2LXK0ABCDEF' });
    expect(parseReference('#12a')).toBeNull();
  });
});

describe('parseResultLines', () => {
  it('accepts the shapes suppliers hand back: tab, pipe, colon, semicolon, comma, space', () => {
    const text = [
      '#101\tNCK: 1234567890',
      '359702373699048 | Operador: Telcel · Sin bloqueo',
      '#102: Código 55, válido',
      '103; listo',
      'F2LXK0ABCDEF, Limpio',
      '490154203237518 Liberado por operador',
    ].join('\n');
    expect(parseResultLines(text)).toEqual([
      expect.objectContaining({
        line: 1,
        ok: true,
        ref: { kind: 'number', number: 101 },
        result: 'NCK: 1234567890',
      }),
      expect.objectContaining({
        line: 2,
        ok: true,
        ref: { kind: 'identifier', value: '359702373699048' },
        result: 'Operador: Telcel · Sin bloqueo',
      }),
      expect.objectContaining({ line: 3, ok: true, result: 'Código 55, válido' }),
      expect.objectContaining({
        line: 4,
        ok: true,
        ref: { kind: 'number', number: 103 },
        result: 'listo',
      }),
      expect.objectContaining({ line: 5, ok: true, result: 'Limpio' }),
      expect.objectContaining({ line: 6, ok: true, result: 'Liberado por operador' }),
    ]);
  });

  it('answers each bad line on its own, numbered as pasted, and skips blank lines', () => {
    const text = ['#101 listo', '', '   ', '#102', '¿qué?', '#101 otra vez', '#1x2 nada'].join(
      '\r\n',
    );
    const lines = parseResultLines(text);
    expect(lines.map((l) => [l.line, l.ok])).toEqual([
      [1, true],
      [4, false],
      [5, false],
      [6, false],
      [7, false],
    ]);
    expect(lines[1]).toMatchObject({ message: 'Falta el resultado después de la referencia.' });
    expect(lines[2]).toMatchObject({
      message: 'Empieza la línea con el número de orden (#123) o el IMEI.',
    });
    expect(lines[3]).toMatchObject({ message: 'Esta orden ya aparece en la línea 1.' });
  });

  it('treats the same identifier in other letter case as a repeated line', () => {
    const lines = parseResultLines('abc123xyz uno\nABC123XYZ dos');
    expect(lines[1]).toMatchObject({ ok: false, message: 'Esta orden ya aparece en la línea 1.' });
  });

  it('refuses an empty paste and more than 500 lines', () => {
    expect(BulkCompleteSchema.safeParse({ text: '  \n ' }).success).toBe(false);
    const many = Array.from({ length: 501 }, (_, i) => `#${i + 1} ok`).join('\n');
    const res = BulkCompleteSchema.safeParse({ text: many });
    expect(res.success).toBe(false);
    expect(res.error?.issues[0]?.message).toBe('Como máximo 500 líneas a la vez.');
    expect(
      BulkCompleteSchema.safeParse({ text: many.split('\n').slice(0, 500).join('\n') }).success,
    ).toBe(true);
  });
});

describe('IMEIs as people write them in pasted results (issue 20)', () => {
  it('reads an IMEI with spaces, dashes, dots or slashes as its 15 digits', () => {
    const text = [
      '35 970237 369904 8 | Liberado',
      '35-332211-000066-9\tNCK 1234',
      '49015420.323751.8 Listo',
      '35/970237/369904/8: otro',
    ].join('\n');
    const parsed = parseResultLines(text);
    expect(parsed.map((l) => (l.ok ? [l.ref, l.result] : l.message))).toEqual([
      [{ kind: 'identifier', value: '359702373699048' }, 'Liberado'],
      [{ kind: 'identifier', value: '353322110000669' }, 'NCK 1234'],
      [{ kind: 'identifier', value: '490154203237518' }, 'Listo'],
      expect.stringMatching(/^Esta orden ya aparece en la línea 1\./),
    ]);
  });

  it('a grouped IMEI with a wrong check digit is refused, never read as an order number', () => {
    expect(parseResultLines('35 970237 369904 9 Liberado')).toEqual([
      expect.objectContaining({
        ok: false,
        message: '35 970237 369904 9 parece un IMEI, pero no es válido: revisa el último dígito.',
      }),
    ]);
  });

  it('other digit groups stay an order number and its result', () => {
    expect(parseResultLines('101 123456789012')).toEqual([
      expect.objectContaining({
        ok: true,
        ref: { kind: 'number', number: 101 },
        result: '123456789012',
      }),
    ]);
  });
});

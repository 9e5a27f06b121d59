import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatAmount } from './money';
import { parseAmountInput, parseIntegerInput } from './number-input';

function amount(text: string): string | null {
  const r = parseAmountInput(text);
  return r.ok ? r.amount : null;
}

describe('decimal comma: amounts typed with a comma were refused (issue 20)', () => {
  it('takes «25,50», «120,00» and «4,90» as people write them', () => {
    expect(amount('25,50')).toBe('25.50');
    expect(amount('120,00')).toBe('120.00');
    expect(amount('4,90')).toBe('4.90');
    expect(amount('4,9')).toBe('4.90');
    expect(amount('0,5')).toBe('0.50');
    expect(amount(',50')).toBe('0.50');
  });

  it('still takes the point and plain whole numbers', () => {
    expect(amount('25.50')).toBe('25.50');
    expect(amount(' 25 ')).toBe('25.00');
    expect(amount('007')).toBe('7.00');
    expect(amount('$25,50')).toBe('25.50');
    expect(amount('US$ 25.50')).toBe('25.50');
    expect(amount('25,50 USD')).toBe('25.50');
  });

  it('ignores thousands separators where they cannot be decimals', () => {
    expect(amount('1.234,50')).toBe('1234.50');
    expect(amount('1,234.50')).toBe('1234.50');
    expect(amount('1.234.567,89')).toBe('1234567.89');
    expect(amount('1,234,567.89')).toBe('1234567.89');
    expect(amount('1.234.567')).toBe('1234567.00');
    expect(amount('1 234,50')).toBe('1234.50');
    expect(amount('1\u00a0234.50')).toBe('1234.50');
    expect(amount('12 345 678')).toBe('12345678.00');
  });

  it('asks, in Spanish, when one separator before three digits could be either', () => {
    for (const text of ['1.000', '1,000', '12.500', '123,456']) {
      const r = parseAmountInput(text);
      expect(r.ok, text).toBe(false);
      if (!r.ok) expect(r.message).toMatch(/^No queda claro si «.+» es \d+ o /);
    }
    const r = parseAmountInput('1.500');
    expect(r).toEqual({
      ok: false,
      message:
        'No queda claro si «1.500» es 1500 o 1,5. Escribe 1500 sin separador de miles, o los centavos con dos cifras (por ejemplo 1,50).',
    });
  });

  it('refuses what is not an amount, never guessing', () => {
    for (const bad of [
      'abc',
      '1e3',
      '25.',
      '25,',
      '1.2.3',
      '1,23,4',
      '12,50.00',
      '1.234,5,6',
      '0x10',
      'NaN',
      '--1',
      '1 23',
      '1.23.456',
      '0.500',
    ]) {
      expect(parseAmountInput(bad).ok, bad).toBe(false);
    }
    expect(parseAmountInput('')).toEqual({ ok: false, message: 'Escribe un importe.' });
    expect(parseAmountInput('2,505 5')).toMatchObject({ ok: false });
    expect(parseAmountInput('1234,567')).toEqual({
      ok: false,
      message: 'El importe puede tener como máximo dos decimales.',
    });
    expect(parseAmountInput('1234567890123')).toEqual({
      ok: false,
      message: 'El importe es demasiado grande.',
    });
  });

  it('keeps the sign for adjustments', () => {
    expect(amount('-2,00')).toBe('-2.00');
    expect(amount('- 1.234,5')).toBe('-1234.50');
    expect(amount('+5')).toBe('5.00');
  });

  it('reads back every amount written with a comma, a point or Spanish thousands', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 13n }), (cents) => {
        const plain = formatAmount(cents);
        const [whole = '', fraction = ''] = plain.split('.');
        const spanish = `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, '.')},${fraction}`;
        const english = `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction}`;
        return (
          amount(plain) === plain &&
          amount(plain.replace('.', ',')) === plain &&
          amount(spanish) === plain &&
          amount(english) === plain
        );
      }),
    );
  });
});

describe('quantities typed as «1.000» were refused (issue 20)', () => {
  it('takes thousands separators in whole numbers', () => {
    expect(parseIntegerInput('1.000')).toEqual({ ok: true, value: 1000 });
    expect(parseIntegerInput('1,000')).toEqual({ ok: true, value: 1000 });
    expect(parseIntegerInput('10.000.000')).toEqual({ ok: true, value: 10_000_000 });
    expect(parseIntegerInput('2 500')).toEqual({ ok: true, value: 2500 });
    expect(parseIntegerInput(' 500 ')).toEqual({ ok: true, value: 500 });
    expect(parseIntegerInput('-3')).toEqual({ ok: true, value: -3 });
  });

  it('refuses decimals and anything else, naming what is asked', () => {
    for (const bad of ['1,5', '1.50', '', 'mil', '1.00.000', '1e3', '0.500'])
      expect(parseIntegerInput(bad, 'La cantidad'), bad).toEqual({
        ok: false,
        message: 'La cantidad debe ser un número entero.',
      });
    expect(parseIntegerInput('99999999999999999999')).toEqual({
      ok: false,
      message: 'El número es demasiado grande.',
    });
  });
});

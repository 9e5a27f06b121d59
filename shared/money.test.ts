import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chargeCents, formatAmount, formatUsd, parseAmount } from './money';

describe('money', () => {
  it('parses decimal strings into cents without floats', () => {
    expect(parseAmount('12.5')).toBe(1250n);
    expect(parseAmount('12.50')).toBe(1250n);
    expect(parseAmount('0.01')).toBe(1n);
    expect(parseAmount('-3')).toBe(-300n);
    expect(parseAmount(' 7 ')).toBe(700n);
    for (const bad of ['', '1.234', '1e3', 'abc', '1,50', '.5', '--1', 'NaN'])
      expect(parseAmount(bad), bad).toBeNull();
  });

  it('formats cents as plain and as dollar strings', () => {
    expect(formatAmount(0n)).toBe('0.00');
    expect(formatAmount(5n)).toBe('0.05');
    expect(formatAmount(-1250n)).toBe('-12.50');
    expect(formatUsd('1234567.5')).toBe('$1,234,567.50');
    expect(formatUsd(0n)).toBe('$0.00');
    expect(formatUsd(-99n)).toBe('-$0.99');
  });

  it('round-trips every amount', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 13n), max: 10n ** 13n }),
        (cents) => parseAmount(formatAmount(cents)) === cents,
      ),
    );
  });

  it('rounds charges up to the cent', () => {
    expect(chargeCents(150n, 1000n, 1000n)).toBe(150n);
    expect(chargeCents(150n, 1n, 1000n)).toBe(1n);
    expect(chargeCents(199n, 500n, 1000n)).toBe(100n);
    expect(() => chargeCents(1n, 1n, 0n)).toThrow(RangeError);
  });
});

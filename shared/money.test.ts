import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  chargeCents,
  formatAmount,
  formatUsd,
  formatUsdPrecise,
  markupPriceCents,
  microsToCentsCeil,
  parseAmount,
  partialRefundCents,
} from './money';

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
    expect(formatUsd('1234567.5')).toBe('US$1,234,567.50');
    expect(formatUsd(0n)).toBe('US$0.00');
    expect(formatUsd(-99n)).toBe('-US$0.99');
    expect(formatUsd('-5')).toBe('-US$5.00');
    expect(formatUsd('abc')).toBe('US$0.00');
  });

  it('keeps the decimals a supplier cost needs, with the same US$ and separators', () => {
    expect(formatUsdPrecise('0.0125')).toBe('US$0.0125');
    expect(formatUsdPrecise('0.5')).toBe('US$0.50');
    expect(formatUsdPrecise('16.410000')).toBe('US$16.41');
    expect(formatUsdPrecise('1234.5')).toBe('US$1,234.50');
    expect(formatUsdPrecise('-0.000001')).toBe('-US$0.000001');
    expect(formatUsdPrecise('-0.00')).toBe('US$0.00');
    expect(formatUsdPrecise('n/a')).toBe('n/a');
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

describe('supplier prices and partial refunds', () => {
  it('prices a cost with a markup, rounding up to the cent', () => {
    expect(markupPriceCents(500_000n, 2000)).toBe(60n); // US$0.50 + 20 % = US$0.60
    expect(markupPriceCents(278_190n, 2000)).toBe(34n); // US$0.27819 × 1.2 = US$0.333828 → US$0.34
    expect(markupPriceCents(1_000_000n, 0)).toBe(100n);
    expect(markupPriceCents(1n, 0)).toBe(1n); // never below one cent
    expect(markupPriceCents(0n, 5000)).toBe(1n);
    expect(markupPriceCents(333_333n, 1250)).toBe(38n); // 0.374999… → 0.38
  });

  it('never prices below cost × (1 + markup)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.integer({ min: 0, max: 100_000 }),
        (cost, bp) => {
          const cents = markupPriceCents(cost, bp);
          // cents × 10 000 (micros) ≥ cost × (1 + bp/10 000), and less than one cent above it.
          const exact = cost * BigInt(10_000 + bp); // in micros × 10 000
          expect(cents * 10_000n * 10_000n >= exact).toBe(true);
          if (cents > 1n) expect((cents - 1n) * 10_000n * 10_000n < exact).toBe(true);
        },
      ),
    );
  });

  it('rounds micro-units up to cents', () => {
    expect(microsToCentsCeil(500_000n)).toBe(50n);
    expect(microsToCentsCeil(500_001n)).toBe(51n);
    expect(microsToCentsCeil(0n)).toBe(0n);
  });

  it('refunds the undelivered share, rounded down, clamping remains to [0, quantity]', () => {
    expect(partialRefundCents(1000n, 100, 1000)).toBe(100n);
    expect(partialRefundCents(101n, 1, 3)).toBe(33n); // 33.67 → 33
    expect(partialRefundCents(1000n, -2, 1000)).toBe(0n); // over-delivered
    expect(partialRefundCents(1000n, 5000, 1000)).toBe(1000n); // never more than the price
    expect(partialRefundCents(1000n, 0, 1000)).toBe(0n);
  });

  it('never refunds more than the price nor less than zero', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 9n }),
        fc.integer({ min: -(10 ** 7), max: 10 ** 7 }),
        fc.integer({ min: 1, max: 10 ** 7 }),
        (price, remains, quantity) => {
          const refund = partialRefundCents(price, remains, quantity);
          expect(refund >= 0n && refund <= price).toBe(true);
        },
      ),
    );
  });
});

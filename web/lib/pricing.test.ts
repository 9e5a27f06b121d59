import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { markupPrice, parseCostMicros, parseMarkup, percentToBp } from './pricing';

describe('pricing', () => {
  it('reads supplier costs with up to six decimals, exactly', () => {
    expect(parseCostMicros('0.80')).toBe(800_000n);
    expect(parseCostMicros('0.27819')).toBe(278_190n);
    expect(parseCostMicros(' 16.41 ')).toBe(16_410_000n);
    expect(parseCostMicros('8')).toBe(8_000_000n);
    expect(parseCostMicros('0.000001')).toBe(1n);
    expect(parseCostMicros('0.0000001')).toBeNull();
    expect(parseCostMicros('-1.00')).toBeNull();
    expect(parseCostMicros('1e3')).toBeNull();
    expect(parseCostMicros('')).toBeNull();
  });

  it('prices cost × (1 + margin), rounded up to the cent', () => {
    expect(markupPrice('0.80', 2000)).toBe('0.96');
    expect(markupPrice('16.41', 2000)).toBe('19.70');
    expect(markupPrice('0.27819', 1250)).toBe('0.32');
    expect(markupPrice('1.000001', 0)).toBe('1.01');
    expect(markupPrice('10.00', 0)).toBe('10.00');
    expect(markupPrice('2.50', 100_000)).toBe('27.50');
    // Never below one cent, even for a free service.
    expect(markupPrice('0', 2000)).toBe('0.01');
    expect(markupPrice('abc', 2000)).toBeNull();
    expect(markupPrice('1.00', -1)).toBeNull();
  });

  it('never sells below cost × margin and is at most one cent above it', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10_000_000_000n }),
        fc.integer({ min: 0, max: 100_000 }),
        (micros, bp) => {
          const whole = micros / 1_000_000n;
          const fraction = (micros % 1_000_000n).toString().padStart(6, '0');
          const price = markupPrice(`${whole}.${fraction}`, bp);
          const cents = BigInt((price ?? '0').replace('.', ''));
          // exact = micros × (10000 + bp) / 10^8 cents
          const exact = micros * BigInt(10_000 + bp);
          const per = 100_000_000n;
          return cents * per >= exact && (cents - 1n) * per < exact;
        },
      ),
    );
  });

  it('reads margins like the API: 0 to 1000, two decimals at most', () => {
    expect(parseMarkup('20')).toEqual({ ok: true, value: 20, bp: 2000 });
    expect(parseMarkup(' 12,5 % ')).toEqual({ ok: true, value: 12.5, bp: 1250 });
    expect(parseMarkup('0')).toEqual({ ok: true, value: 0, bp: 0 });
    expect(parseMarkup('')).toEqual({ ok: false, message: 'Escribe el margen (por ejemplo 20).' });
    expect(parseMarkup('-5')).toEqual({ ok: false, message: 'El margen no puede ser negativo.' });
    expect(parseMarkup('1001')).toEqual({
      ok: false,
      message: 'El margen no puede pasar de 1000 %.',
    });
    expect(parseMarkup('1.234')).toEqual({
      ok: false,
      message: 'El margen admite como máximo dos decimales.',
    });
    expect(parseMarkup('veinte').ok).toBe(false);
    expect(percentToBp(12.35)).toBe(1235);
    expect(percentToBp(0.07)).toBe(7);
  });
});

import { describe, expect, it } from 'vitest';
import { chargeCents } from './money';
import { belowCost, discounted, effectivePrice, formatPercent, parsePercent } from './pricing';

describe('effectivePrice: the precedence', () => {
  const base = 1000n; // US$10.00
  const all = {
    base,
    special: 700n,
    serviceOverride: { discountBp: 2000 },
    categoryOverride: { price: 900n },
    groupDiscountBp: 500,
  };

  it('a special price wins over everything', () => {
    expect(effectivePrice(all)).toEqual({ price: 700n, source: 'special', fixed: true });
  });

  it('then the group service override (discount)', () => {
    expect(effectivePrice({ ...all, special: null })).toEqual({
      price: 800n,
      source: 'service',
      fixed: false,
    });
  });

  it('then the group service override (fixed price)', () => {
    expect(effectivePrice({ ...all, special: null, serviceOverride: { price: 333n } })).toEqual({
      price: 333n,
      source: 'service',
      fixed: true,
    });
  });

  it('then the group category override', () => {
    expect(effectivePrice({ ...all, special: null, serviceOverride: null })).toEqual({
      price: 900n,
      source: 'category',
      fixed: true,
    });
    expect(
      effectivePrice({
        base,
        categoryOverride: { discountBp: 1250 },
        groupDiscountBp: 500,
      }),
    ).toEqual({ price: 875n, source: 'category', fixed: false });
  });

  it('then the group discount', () => {
    expect(effectivePrice({ base, groupDiscountBp: 500 })).toEqual({
      price: 950n,
      source: 'group',
      fixed: false,
    });
  });

  it('then the base price', () => {
    expect(effectivePrice({ base })).toEqual({ price: 1000n, source: 'base', fixed: false });
    expect(effectivePrice({ base, groupDiscountBp: 0 })).toEqual({
      price: 1000n,
      source: 'base',
      fixed: false,
    });
  });

  it('a zero-percent override still stops the rule (the base price, from the override)', () => {
    expect(
      effectivePrice({ base, serviceOverride: { discountBp: 0 }, groupDiscountBp: 500 }),
    ).toEqual({ price: 1000n, source: 'service', fixed: false });
  });
});

describe('discounted: rounds up to the cent', () => {
  it('exact results stay exact', () => {
    expect(discounted(1000n, 1250)).toBe(875n);
    expect(discounted(1000n, 0)).toBe(1000n);
  });

  it('a fraction of a cent rounds up', () => {
    // 1.99 − 12.5 % = 1.74125 → 1.75
    expect(discounted(199n, 1250)).toBe(175n);
    // 0.01 − 33.33 % = 0.006667 → 0.01
    expect(discounted(1n, 3333)).toBe(1n);
    // 3.33 − 10 % = 2.997 → 3.00
    expect(discounted(333n, 1000)).toBe(300n);
  });

  it('never goes below 1 cent', () => {
    expect(discounted(5n, 9999)).toBe(1n);
    expect(discounted(1n, 10_000)).toBe(1n);
  });

  it('refuses a discount outside 0–100 %', () => {
    expect(() => discounted(100n, -1)).toThrow(RangeError);
    expect(() => discounted(100n, 10_001)).toThrow(RangeError);
    expect(() => discounted(100n, 1.5)).toThrow(RangeError);
  });
});

describe('per 1000 units', () => {
  it('the rule gives the per-1000 price; the order rounds up its quantity share', () => {
    // US$1.99 per 1000, 12.5 % off → 1.75 per 1000; 1500 units → 2.625 → 2.63.
    const per1000 = effectivePrice({ base: 199n, groupDiscountBp: 1250 }).price;
    expect(per1000).toBe(175n);
    expect(chargeCents(per1000, 1500n, 1000n)).toBe(263n);
    // A special per-1000 price is used as it is.
    const special = effectivePrice({ base: 199n, special: 120n, groupDiscountBp: 1250 }).price;
    expect(chargeCents(special, 2500n, 1000n)).toBe(300n);
  });
});

describe('percent text', () => {
  it('round-trips exactly', () => {
    for (const text of ['12.5', '0', '7.25', '99.99', '0.05', '12', '50'])
      expect(formatPercent(parsePercent(text) ?? -1)).toBe(text);
  });

  it('reads trailing zeros as the same percentage', () => {
    expect(parsePercent('12.50')).toBe(1250);
    expect(parsePercent(' 3 ')).toBe(300);
  });

  it('refuses anything else', () => {
    for (const text of ['100', '-1', '1e2', '12.345', '', 'abc', '12,5', '1000'])
      expect(parsePercent(text)).toBeNull();
  });
});

describe('belowCost', () => {
  it('compares cents with the micro-unit cost', () => {
    expect(belowCost(100n, 1_000_001n)).toBe(true);
    expect(belowCost(100n, 1_000_000n)).toBe(false);
    expect(belowCost(100n, null)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import {
  chargedIn,
  convertCents,
  feeFor,
  formatPercent,
  formatPercentEs,
  parsePercent,
  parseRate,
  quote,
} from './fees';

describe('fees', () => {
  it('adds the percentage rounded up to the cent and the fixed part', () => {
    expect(feeFor(2500n, { feePercentBp: 290, feeFixed: 30n })).toBe(73n + 30n); // 72.5 → 73
    expect(feeFor(1000n, { feePercentBp: 500, feeFixed: 0n })).toBe(50n);
    expect(feeFor(1000n, { feePercentBp: 0, feeFixed: 0n })).toBe(0n);
    expect(quote(2500n, { feePercentBp: 290, feeFixed: 30n })).toEqual({
      amount: 2500n,
      fee: 103n,
      total: 2603n,
    });
  });

  it('reads and writes percentages', () => {
    expect(parsePercent('2.9')).toBe(290);
    expect(parsePercent('0')).toBe(0);
    expect(parsePercent('50')).toBe(5000);
    expect(parsePercent('50.01')).toBeNull();
    expect(parsePercent('-1')).toBeNull();
    expect(parsePercent('2.999')).toBeNull();
    expect(formatPercent(290)).toBe('2.90');
    expect(formatPercentEs(290)).toBe('2,90 %');
    expect(formatPercentEs(500)).toBe('5 %');
  });

  it('converts at an exchange rate, rounding the charge up', () => {
    expect(parseRate('1045.5')).toBe(1_045_500_000n);
    expect(parseRate('0')).toBeNull();
    expect(parseRate('1e3')).toBeNull();
    // US$10.00 at 1045.5 ARS per dollar = ARS 10,455.00
    expect(convertCents(1000n, 1_045_500_000n)).toBe(1_045_500n);
    // US$0.01 at 17.123456 → 0.17123456 → 18 cents (up)
    expect(convertCents(1n, 17_123_456n)).toBe(18n);
  });

  it('charges currencies without cents in whole units, rounded up', () => {
    // US$10.30 at 950.5 CLP per dollar = 9790.15 CLP → 9791 CLP; in ARS the cents stay.
    expect(chargedIn('CLP', 1030n, 950_500_000n)).toBe(979_100n);
    expect(chargedIn('ARS', 1030n, 950_500_000n)).toBe(979_015n);
    expect(chargedIn('PYG', 1000n, 7_000_000_000n)).toBe(7_000_000n);
  });
});

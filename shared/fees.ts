// The fee a customer pays on top of a top-up (docs/domain.md "Payment gateways"), written once
// for the server (what is charged) and the screens (what the customer sees before paying).
// Percentages are kept in hundredths of a percent (290 = 2.90 %); amounts in integer cents.

import { type Cents } from './money';

export type FeeTerms = { feePercentBp: number; feeFixed: Cents };

/**
 * The fee on `amount` (the credit the customer asked for): the percentage rounded up to the
 * cent, plus the fixed part. Rounding up keeps the shop whole on every provider charge.
 */
export function feeFor(amount: Cents, terms: FeeTerms): Cents {
  if (amount <= 0n) return 0n;
  const numerator = amount * BigInt(terms.feePercentBp);
  const percent = numerator % 10_000n === 0n ? numerator / 10_000n : numerator / 10_000n + 1n;
  return percent + terms.feeFixed;
}

export type Quote = { amount: Cents; fee: Cents; total: Cents };

/** What the customer gets (`amount`), the fee, and what they pay (`total`). */
export function quote(amount: Cents, terms: FeeTerms): Quote {
  const fee = feeFor(amount, terms);
  return { amount, fee, total: amount + fee };
}

const PERCENT_PATTERN = /^(\d{1,2})(?:\.(\d{1,2}))?$/;

/** "2.9" or "2.90" → 290; null for anything else (at most 50.00 %). */
export function parsePercent(input: string): number | null {
  const match = PERCENT_PATTERN.exec(input.trim());
  if (!match) return null;
  const [, whole = '0', fraction = ''] = match;
  const bp = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return bp <= 5000 ? bp : null;
}

/** 290 → "2.90" (the API's form of a percentage). */
export function formatPercent(bp: number): string {
  return `${Math.floor(bp / 100)}.${String(bp % 100).padStart(2, '0')}`;
}

/** 290 → "2,90 %" (people's form, Spanish decimal comma). */
export function formatPercentEs(bp: number): string {
  const [whole, fraction] = formatPercent(bp).split('.');
  return fraction === '00' ? `${whole} %` : `${whole},${fraction} %`;
}

const RATE_PATTERN = /^(\d{1,9})(?:\.(\d{1,6}))?$/;

/** An exchange rate ("1045.5": units of a currency per US dollar) as millionths; null if invalid or zero. */
export function parseRate(input: string): bigint | null {
  const match = RATE_PATTERN.exec(input.trim());
  if (!match) return null;
  const [, whole = '0', fraction = ''] = match;
  const micros = BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, '0'));
  return micros > 0n ? micros : null;
}

/**
 * USD cents converted at `rateMicros` (units per dollar, in millionths) into the other currency's
 * cents, rounded up (a charge).
 */
export function convertCents(usdCents: Cents, rateMicros: bigint): Cents {
  const numerator = usdCents * rateMicros;
  return numerator % 1_000_000n === 0n ? numerator / 1_000_000n : numerator / 1_000_000n + 1n;
}

/** Currencies charged in whole units only (no cents): the charge is rounded up to one. */
const ZERO_DECIMAL_CURRENCIES: ReadonlySet<string> = new Set(['CLP', 'PYG']);

/**
 * What is charged in `currency` (its minor units) for `usdCents` at `rateMicros`: rounded up to
 * the cent, and to a whole unit for currencies without decimals. The server charges it and the
 * screen shows it before paying: one rule for both.
 */
export function chargedIn(currency: string, usdCents: Cents, rateMicros: bigint): Cents {
  const cents = convertCents(usdCents, rateMicros);
  if (!ZERO_DECIMAL_CURRENCIES.has(currency) || cents % 100n === 0n) return cents;
  return (cents / 100n + 1n) * 100n;
}

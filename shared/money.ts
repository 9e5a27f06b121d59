// All money is integer cents (bigint). JSON carries amounts as decimal strings ("12.50").
// Rounding rule, written once: charges round up to the cent; refunds never exceed the charge.

export type Cents = bigint;

const AMOUNT_PATTERN = /^(-)?(\d{1,12})(?:\.(\d{1,2}))?$/;

/** Parses "12.5", "12.50" or "-3" into cents. Returns null for anything else (no floats, no exponents). */
export function parseAmount(input: string): Cents | null {
  const match = AMOUNT_PATTERN.exec(input.trim());
  if (!match) return null;
  const [, sign, whole = '0', fraction = ''] = match;
  const cents = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
  return sign ? -cents : cents;
}

/** Formats cents as a plain decimal string with two places: 1250n → "12.50". */
export function formatAmount(cents: Cents): string {
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  const whole = abs / 100n;
  const fraction = (abs % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}${whole.toString()}.${fraction}`;
}

/** Formats a decimal amount string for people: "1234.5" → "$1,234.50" (US dollars, Spanish text around it). */
export function formatUsd(amount: string | Cents): string {
  const cents = typeof amount === 'bigint' ? amount : parseAmount(amount);
  if (cents === null) return '$0.00';
  const plain = formatAmount(cents < 0n ? -cents : cents);
  const [whole = '0', fraction = '00'] = plain.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${cents < 0n ? '-' : ''}$${grouped}.${fraction}`;
}

/** Multiplies a price in micro-units by a quantity and divides, rounding up to the cent (charges). */
export function chargeCents(priceCents: Cents, quantity: bigint, per: bigint): Cents {
  if (per <= 0n) throw new RangeError('per must be positive');
  const numerator = priceCents * quantity;
  return numerator % per === 0n ? numerator / per : numerator / per + 1n;
}

/** Millionths of a currency unit: supplier costs and balances carry up to six decimals. */
export type Micros = bigint;

/**
 * Our price for a supplier cost with a markup in basis points (12.5 % = 1250):
 * cost × (1 + markup), rounded UP to the cent (never sell below cost × markup), at least 1 cent.
 */
export function markupPriceCents(costMicros: Micros, markupBp: number): Cents {
  if (!Number.isInteger(markupBp) || markupBp < 0) throw new RangeError('markup must be ≥ 0 bp');
  if (costMicros < 0n) throw new RangeError('cost must be ≥ 0');
  // micros → cents is ÷ 10 000; the markup factor is (10 000 + bp) ÷ 10 000.
  const numerator = costMicros * (10_000n + BigInt(markupBp));
  const per = 10_000n * 10_000n;
  const cents = numerator % per === 0n ? numerator / per : numerator / per + 1n;
  return cents < 1n ? 1n : cents;
}

/** A cost in micro-units as cents, rounded up (what selling at cost at least takes). */
export function microsToCentsCeil(micros: Micros): Cents {
  return micros % 10_000n === 0n ? micros / 10_000n : micros / 10_000n + (micros > 0n ? 1n : 0n);
}

/**
 * The refund of a partially delivered order: the undelivered share of its price,
 * ⌊price × remains ÷ quantity⌋, with `remains` clamped to [0, quantity] (suppliers report
 * negative remains when they over-deliver). Never more than the price.
 */
export function partialRefundCents(price: Cents, remains: number, quantity: number): Cents {
  if (!Number.isInteger(quantity) || quantity <= 0) throw new RangeError('quantity must be > 0');
  const clamped = Math.min(Math.max(Math.trunc(remains), 0), quantity);
  return (price * BigInt(clamped)) / BigInt(quantity);
}

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

/** Thousands separated by commas: "1234567" → "1,234,567". */
function groupThousands(whole: string): string {
  return whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * THE money text for people, everywhere (screens, e-mails, messages): "1234.5" → "US$1,234.50",
 * negative "-US$5.00". `US$`, never a bare `$` (pesos to a Mexican shop), and never "USD" after
 * the number. API amounts stay plain "12.50"; CSV files keep plain numbers.
 */
export function formatUsd(amount: string | Cents): string {
  const cents = typeof amount === 'bigint' ? amount : parseAmount(amount);
  if (cents === null) return 'US$0.00';
  const plain = formatAmount(cents < 0n ? -cents : cents);
  const [whole = '0', fraction = '00'] = plain.split('.');
  return `${cents < 0n ? '-' : ''}US$${groupThousands(whole)}.${fraction}`;
}

const PRECISE_PATTERN = /^(-)?(\d{1,15})(?:\.(\d{1,6}))?$/;

/**
 * A supplier cost or balance with up to six decimals ("0.0125", "16.41"), as `formatUsd` writes
 * it but keeping the decimals it needs (at least two): "0.0125" → "US$0.0125",
 * "1234.5" → "US$1,234.50". Anything unreadable is shown as it came, so nothing is hidden.
 */
export function formatUsdPrecise(amount: string): string {
  const match = PRECISE_PATTERN.exec(amount.trim());
  if (!match) return amount;
  const [, sign, whole = '0', raw = ''] = match;
  let fraction = raw.padEnd(2, '0');
  while (fraction.length > 2 && fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  const zero = /^0+$/.test(whole) && /^0+$/.test(fraction);
  return `${sign && !zero ? '-' : ''}US$${groupThousands(BigInt(whole).toString())}.${fraction}`;
}

/**
 * A supplier's cost or balance in its currency: US dollars (or no currency given) as
 * `formatUsdPrecise`; any other currency as the number with its code ("12.5 EUR"), never a `US$`.
 */
export function formatSupplierMoney(amount: string, currency: string | null | undefined): string {
  const code = (currency ?? '').trim().toUpperCase();
  if (code === '' || code === 'USD' || code === 'US$' || code === '$')
    return formatUsdPrecise(amount);
  return `${amount} ${code}`;
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

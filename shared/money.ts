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

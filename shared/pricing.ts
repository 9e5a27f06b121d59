// THE pricing rule, written once (docs/domain.md "Price groups"): what a customer pays for a
// service. Pure integer math on cents; percentages are basis points (12.5 % = 1250).
//
// special price → group service override → group category override → group discount → base price.
// A percentage is taken off the base price and the result rounded UP to the cent (at least 1
// cent). For a service sold per 1000 units the rule gives the price per 1000; the order's amount
// is then `chargeCents(price, quantity, 1000)` as for any per-1000 service.

export type Cents = bigint;

/** A group override: a discount in basis points, or a fixed price in cents. */
export type PriceRule =
  { discountBp: number; price?: undefined } | { price: Cents; discountBp?: undefined };

export type PriceInputs = {
  /** The service's own price (per order, or per 1000 units). */
  base: Cents;
  /** The customer's special price for this service, if any. */
  special?: Cents | null | undefined;
  /** The customer's group's override for this service, if any. */
  serviceOverride?: PriceRule | null | undefined;
  /** The customer's group's override for the service's category, if any. */
  categoryOverride?: PriceRule | null | undefined;
  /** The customer's group's default discount in basis points (0 when none). */
  groupDiscountBp?: number | undefined;
};

/** Which step of the rule set the price. */
export type PriceSource = 'special' | 'service' | 'category' | 'group' | 'base';

export type EffectivePrice = {
  price: Cents;
  source: PriceSource;
  /** The price is fixed (special price or fixed override), not derived from the base price. */
  fixed: boolean;
};

/** The largest discount a group may give: 100 % would make the price zero. */
export const MAX_DISCOUNT_BP = 9_999;

/** `base` minus `bp` basis points, rounded up to the cent, at least 1 cent. */
export function discounted(base: Cents, bp: number): Cents {
  if (!Number.isInteger(bp) || bp < 0 || bp > 10_000)
    throw new RangeError('discount must be 0–10000 bp');
  if (base <= 0n) return base;
  const numerator = base * BigInt(10_000 - bp);
  const cents = numerator % 10_000n === 0n ? numerator / 10_000n : numerator / 10_000n + 1n;
  return cents < 1n ? 1n : cents;
}

function applyRule(base: Cents, rule: PriceRule): Cents {
  return rule.price !== undefined ? rule.price : discounted(base, rule.discountBp);
}

/** The price a customer pays for one service (per order, or per 1000 units). */
export function effectivePrice(input: PriceInputs): EffectivePrice {
  if (input.special !== null && input.special !== undefined)
    return { price: input.special, source: 'special', fixed: true };
  if (input.serviceOverride)
    return {
      price: applyRule(input.base, input.serviceOverride),
      source: 'service',
      fixed: input.serviceOverride.price !== undefined,
    };
  if (input.categoryOverride)
    return {
      price: applyRule(input.base, input.categoryOverride),
      source: 'category',
      fixed: input.categoryOverride.price !== undefined,
    };
  const bp = input.groupDiscountBp ?? 0;
  if (bp > 0) return { price: discounted(input.base, bp), source: 'group', fixed: false };
  return { price: input.base, source: 'base', fixed: false };
}

const PERCENT_PATTERN = /^(\d{1,3})(?:\.(\d{1,2}))?$/;

/**
 * A percentage as people and the API write it ("12.5", "0", "7.25") → basis points; null for
 * anything else (more than two decimals, negative, 100 or more, exponents).
 */
export function parsePercent(input: string): number | null {
  const match = PERCENT_PATTERN.exec(input.trim());
  if (!match) return null;
  const [, whole = '0', fraction = ''] = match;
  const bp = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return bp <= MAX_DISCOUNT_BP ? bp : null;
}

/** Basis points → the shortest percentage text: 1250 → "12.5", 1200 → "12", 5 → "0.05". */
export function formatPercent(bp: number): string {
  const whole = Math.trunc(bp / 100);
  const fraction = String(bp % 100)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}

/**
 * A fixed price below what the supplier charges us: `priceCents` under the primary route's cost
 * (micro-units, for the same unit: per order or per 1000). Null cost: nothing to compare.
 */
export function belowCost(priceCents: Cents, costMicros: bigint | null | undefined): boolean {
  if (costMicros === null || costMicros === undefined) return false;
  return priceCents * 10_000n < costMicros;
}

// A customer's prices: one query loads their group (or the default), its overrides and their
// special prices; shared/pricing.ts turns them into the price of each service. Every place that
// shows or charges a price goes through here (catalogue, order page, REST, DHRU, SMM, orders).
import { sql } from 'drizzle-orm';
import { effectivePrice, type PriceRule } from '../../../shared/pricing';
import { queryRows, type Db, type Tx } from '../../db/client';

export type CustomerPricing = {
  group: { id: string; name: string; discountBp: number; isDefault: boolean } | null;
  byService: Map<string, PriceRule>;
  byCategory: Map<string, PriceRule>;
  special: Map<string, bigint>;
};

type Row = {
  kind: 'g' | 's' | 'c' | 'p';
  key: string;
  name: string | null;
  bp: number | null;
  price: string | null;
  is_default: boolean | null;
};

function ruleOf(row: Row): PriceRule {
  return row.price !== null ? { price: BigInt(row.price) } : { discountBp: Number(row.bp ?? 0) };
}

/**
 * The customer's group, overrides and special prices in one query. `only` narrows it to one
 * service (the order path loads just what that order needs).
 */
export async function loadCustomerPricing(
  db: Db | Tx,
  userId: string,
  only?: { serviceId: string; category: string },
): Promise<CustomerPricing> {
  const overrideFilter = only
    ? sql`AND (o.service_id = ${only.serviceId}::uuid OR o.category = ${only.category})`
    : sql``;
  const specialFilter = only ? sql`AND sp.service_id = ${only.serviceId}::uuid` : sql``;
  const rows = await queryRows<Row>(
    db,
    sql`WITH g AS (
          SELECT pg.id, pg.name, pg.discount_bp, pg.is_default FROM price_group pg
          WHERE pg.id = COALESCE(
            (SELECT c.group_id FROM customer_price_group c WHERE c.user_id = ${userId}),
            (SELECT d.id FROM price_group d WHERE d.is_default))
        )
        SELECT 'g' AS kind, g.id::text AS key, g.name AS name, g.discount_bp AS bp,
               NULL::text AS price, g.is_default AS is_default
          FROM g
        UNION ALL
        SELECT CASE WHEN o.service_id IS NULL THEN 'c' ELSE 's' END,
               COALESCE(o.service_id::text, o.category), NULL, o.discount_bp, o.price::text, NULL
          FROM price_group_override o JOIN g ON o.group_id = g.id
         WHERE TRUE ${overrideFilter}
        UNION ALL
        SELECT 'p', sp.service_id::text, NULL, NULL, sp.price::text, NULL
          FROM special_price sp
         WHERE sp.user_id = ${userId} ${specialFilter}`,
  );
  const pricing: CustomerPricing = {
    group: null,
    byService: new Map(),
    byCategory: new Map(),
    special: new Map(),
  };
  for (const r of rows) {
    if (r.kind === 'g')
      pricing.group = {
        id: r.key,
        name: r.name ?? '',
        discountBp: Number(r.bp ?? 0),
        isDefault: r.is_default === true,
      };
    else if (r.kind === 's') pricing.byService.set(r.key, ruleOf(r));
    else if (r.kind === 'c') pricing.byCategory.set(r.key, ruleOf(r));
    else if (r.price !== null) pricing.special.set(r.key, BigInt(r.price));
  }
  return pricing;
}

/** The price this customer pays for one service (per order, or per 1000 units). */
export function customerPrice(
  pricing: CustomerPricing,
  svc: { id: string; category: string; price: bigint },
): bigint {
  return effectivePrice({
    base: svc.price,
    special: pricing.special.get(svc.id),
    serviceOverride: pricing.byService.get(svc.id),
    categoryOverride: pricing.byCategory.get(svc.category),
    groupDiscountBp: pricing.group?.discountBp ?? 0,
  }).price;
}

/** These services with `price` replaced by what this customer pays (one query for all). */
export async function withCustomerPrices<T extends { id: string; category: string; price: bigint }>(
  db: Db | Tx,
  userId: string,
  rows: T[],
): Promise<T[]> {
  if (rows.length === 0) return rows;
  const pricing = await loadCustomerPricing(
    db,
    userId,
    rows.length === 1 && rows[0]
      ? { serviceId: rows[0].id, category: rows[0].category }
      : undefined,
  );
  return rows.map((r) => ({ ...r, price: customerPrice(pricing, r) }));
}

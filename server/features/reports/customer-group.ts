// The one place reports learn customers' price groups (`by=group`): each customer is reported
// under their current group (`customer_price_group`), or the default group (`price_group.
// is_default`) when they have no row.
import { eq, inArray, sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client';
import { customerPriceGroup, priceGroup } from '../../db/schema/prices';

/** The key of customers with no group at all (only when no group is the default). */
export const NO_GROUP_KEY = 'none';
export const NO_GROUP_LABEL = 'Sin grupo';

export type CustomerGroup = { key: string; label: string };

/** The price group (key: its id, label: its name) each of these customers is in now. */
export async function groupsOfCustomers(
  db: Db,
  userIds: string[],
): Promise<Map<string, CustomerGroup>> {
  const out = new Map<string, CustomerGroup>();
  if (userIds.length === 0) return out;
  const [fallback] = await queryRows<{ key: string; label: string }>(
    db,
    sql`SELECT id::text AS key, name AS label FROM price_group WHERE is_default LIMIT 1`,
  );
  const none = fallback ?? { key: NO_GROUP_KEY, label: NO_GROUP_LABEL };
  for (const id of userIds) out.set(id, none);
  const rows = await db
    .select({ userId: customerPriceGroup.userId, key: priceGroup.id, label: priceGroup.name })
    .from(customerPriceGroup)
    .innerJoin(priceGroup, eq(priceGroup.id, customerPriceGroup.groupId))
    .where(inArray(customerPriceGroup.userId, userIds));
  for (const r of rows) out.set(r.userId, { key: r.key, label: r.label });
  return out;
}

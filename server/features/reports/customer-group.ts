// The one place reports learn customers' price groups (`by=group`). Price groups live in their
// own feature; until `user.price_group_id` exists on this branch every customer is reported under
// one «Sin grupo» key.
import type { Db } from '../../db/client';

/** The key every customer without a group is reported under. */
export const NO_GROUP_KEY = 'none';
export const NO_GROUP_LABEL = 'Sin grupo';

export type CustomerGroup = { key: string; label: string };

/**
 * The price group (key and name) of each of these customers; customers without one are under
 * NO_GROUP_KEY.
 * TODO(price groups): once `user.price_group_id` and `price_group` exist, read them here:
 *   SELECT u.id, g.id::text AS key, g.name AS label FROM "user" u
 *   JOIN price_group g ON g.id = u.price_group_id WHERE u.id = ANY(userIds)
 */
export async function groupsOfCustomers(
  _db: Db,
  userIds: string[],
): Promise<Map<string, CustomerGroup>> {
  const none = { key: NO_GROUP_KEY, label: NO_GROUP_LABEL };
  return new Map(userIds.map((id) => [id, none]));
}

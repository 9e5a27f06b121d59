import { sql } from 'drizzle-orm';
import {
  bigserial,
  check,
  index,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { user } from './auth';
import { order, service } from './catalogue';

/**
 * One item of a stock service (a licence key, a gift card, an account): sealed at rest with the
 * supplier keys' AES-256-GCM box (context `stock:<id>`), found again for duplicates by a keyed
 * hash (HMAC-SHA-256 under a key derived from AUTH_SECRET), shown to staff by its last 4
 * characters only. Sold to one order in the transaction that places it (decision 0023).
 */
export const stockItem = pgTable(
  'stock_item',
  {
    id: uuid('id').primaryKey(),
    /** Upload order: items are sold first in, first out. */
    position: bigserial('position', { mode: 'number' }).notNull(),
    serviceId: uuid('service_id')
      .notNull()
      .references(() => service.id),
    sealed: text('sealed').notNull(),
    /** HMAC-SHA-256 of the item (hex): duplicates are refused per service without decrypting. */
    hash: text('hash').notNull(),
    last4: text('last4').notNull(),
    /** available → sold (to `orderId`) → bad (replaced; kept with its order). */
    state: text('state').notNull().default('available'),
    orderId: uuid('order_id').references(() => order.id),
    uploadedBy: text('uploaded_by').references(() => user.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    soldAt: timestamp('sold_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('stock_item_hash_uq').on(t.serviceId, t.hash),
    // The claim takes the oldest available item of a service.
    index('stock_item_available_idx')
      .on(t.serviceId, t.position)
      .where(sql`${t.state} = 'available'`),
    // One sold item per order at most (a replaced one is 'bad').
    uniqueIndex('stock_item_sold_order_uq')
      .on(t.orderId)
      .where(sql`${t.state} = 'sold'`),
    index('stock_item_order_idx').on(t.orderId),
    index('stock_item_service_state_idx').on(t.serviceId, t.state),
    check('stock_item_state_valid', sql`${t.state} IN ('available', 'sold', 'bad')`),
    check(
      'stock_item_order_matches_state',
      sql`(${t.state} = 'available') = (${t.orderId} IS NULL AND ${t.soldAt} IS NULL)`,
    ),
  ],
);

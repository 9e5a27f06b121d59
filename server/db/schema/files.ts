import { sql } from 'drizzle-orm';
import {
  check,
  customType,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { user } from './auth';
import { order, service } from './catalogue';

/** Raw bytes. PGlite reads bytea as a Uint8Array, node-postgres as a Buffer: both become a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
  toDriver: (value) => value,
});

/**
 * A file a customer gave for a service's file field (docs/domain.md §4), kept in the database
 * because instances share no disk. Uploaded first (for one service and field, within that
 * field's limits), then taken by exactly one order; one not taken within a day is deleted.
 */
export const orderFile = pgTable(
  'order_file',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id),
    serviceId: uuid('service_id')
      .notNull()
      .references(() => service.id),
    fieldKey: text('field_key').notNull(),
    /** The order that took it; null while it waits to be used. */
    orderId: uuid('order_id').references(() => order.id),
    /** The name as given, cleaned (shared/files.ts cleanFileName). */
    name: text('name').notNull(),
    /** What the bytes are, when recognised (never the type the client declared). */
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    data: bytea('data').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    attachedAt: timestamp('attached_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('order_file_order_field_uq')
      .on(t.orderId, t.fieldKey)
      .where(sql`${t.orderId} IS NOT NULL`),
    index('order_file_pending_idx')
      .on(t.userId, t.createdAt)
      .where(sql`${t.orderId} IS NULL`),
    check('order_file_size_valid', sql`${t.size} > 0 AND ${t.size} = octet_length(${t.data})`),
    check('order_file_attached', sql`(${t.orderId} IS NULL) = (${t.attachedAt} IS NULL)`),
  ],
);

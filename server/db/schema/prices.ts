// Price groups and special prices (docs/domain.md "Price groups"). The rule that turns them into
// a customer's price is shared/pricing.ts.
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { user } from './auth';
import { service } from './catalogue';

/** A price group: a default discount off the base price, and its overrides. One is the default. */
export const priceGroup = pgTable(
  'price_group',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    /** Discount off the base price, in basis points (12.5 % = 1250). */
    discountBp: integer('discount_bp').notNull().default(0),
    /** The group of every customer without one (exactly one row). */
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('price_group_name_uq').on(sql`lower(${t.name})`),
    uniqueIndex('price_group_default_uq')
      .on(t.isDefault)
      .where(sql`${t.isDefault}`),
    check('price_group_discount_valid', sql`${t.discountBp} BETWEEN 0 AND 9999`),
  ],
);

/** A group's price for one category or one service: a discount, or a fixed price in cents. */
export const priceGroupOverride = pgTable(
  'price_group_override',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    groupId: uuid('group_id')
      .notNull()
      .references(() => priceGroup.id, { onDelete: 'cascade' }),
    category: text('category'),
    serviceId: uuid('service_id').references(() => service.id, { onDelete: 'cascade' }),
    discountBp: integer('discount_bp'),
    price: bigint('price', { mode: 'bigint' }),
  },
  (t) => [
    uniqueIndex('price_group_override_category_uq')
      .on(t.groupId, t.category)
      .where(sql`${t.category} IS NOT NULL`),
    uniqueIndex('price_group_override_service_uq')
      .on(t.groupId, t.serviceId)
      .where(sql`${t.serviceId} IS NOT NULL`),
    check('price_group_override_target', sql`(${t.category} IS NULL) <> (${t.serviceId} IS NULL)`),
    check('price_group_override_kind', sql`(${t.discountBp} IS NULL) <> (${t.price} IS NULL)`),
    check(
      'price_group_override_values',
      sql`(${t.discountBp} IS NULL OR ${t.discountBp} BETWEEN 0 AND 9999) AND (${t.price} IS NULL OR ${t.price} > 0)`,
    ),
  ],
);

/** The group a customer is in; no row: the default group. Deleting a group removes its rows. */
export const customerPriceGroup = pgTable(
  'customer_price_group',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => user.id, { onDelete: 'cascade' }),
    groupId: uuid('group_id')
      .notNull()
      .references(() => priceGroup.id, { onDelete: 'cascade' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('customer_price_group_group_idx').on(t.groupId)],
);

/** A customer's own price for one service, above any group rule. */
export const specialPrice = pgTable(
  'special_price',
  {
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    serviceId: uuid('service_id')
      .notNull()
      .references(() => service.id, { onDelete: 'cascade' }),
    price: bigint('price', { mode: 'bigint' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.serviceId] }),
    check('special_price_positive', sql`${t.price} > 0`),
  ],
);

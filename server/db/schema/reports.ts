// Daily report summaries (docs/decisions/0021-report-summaries.md): the figures of the orders
// settled on one UTC day, added up per dimension and key, so a report over months reads a few
// thousand rows instead of every order. A day is summarised only once it is finished (and a
// margin has passed); `report_day` says which days are; a change to a settled order of a
// summarised day deletes its `report_day` row (trigger `order_report_day_reopen`), and the next
// report summarises it again.
import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  date,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';

/** A finished UTC day whose orders are in `order_day_summary`. */
export const reportDay = pgTable('report_day', {
  day: date('day', { mode: 'string' }).primaryKey(),
  closedAt: timestamp('closed_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One day's figures for one key of one dimension (`category`, `service`, `supplier`,
 * `customer`): integer cents, as the report computes them from the orders.
 */
export const orderDaySummary = pgTable(
  'order_day_summary',
  {
    dimension: text('dimension').notNull(),
    day: date('day', { mode: 'string' })
      .notNull()
      .references(() => reportDay.day, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    revenue: bigint('revenue', { mode: 'bigint' }).notNull(),
    cost: bigint('cost', { mode: 'bigint' }).notNull(),
    refunds: bigint('refunds', { mode: 'bigint' }).notNull(),
    orders: integer('orders').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.dimension, t.day, t.key] }),
    check(
      'order_day_summary_dimension',
      sql`${t.dimension} IN ('category', 'service', 'supplier', 'customer')`,
    ),
  ],
);

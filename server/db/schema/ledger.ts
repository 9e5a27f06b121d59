import { sql } from 'drizzle-orm';
import { bigint, check, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { user } from './auth';

/**
 * Ledger accounts (DESIGN.md §4). Customer accounts belong to a user and can never go below
 * zero; system accounts (funding, revenue, adjustments) have no user and may be negative.
 * Balances are integer cents and change only through the ledger's transfer service.
 */
export const ledgerAccount = pgTable(
  'ledger_account',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id').references(() => user.id, { onDelete: 'restrict' }),
    kind: text('kind').notNull(),
    currency: text('currency').notNull().default('USD'),
    balance: bigint('balance', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ledger_account_user_kind_uq').on(t.userId, t.kind),
    uniqueIndex('ledger_account_system_kind_uq')
      .on(t.kind)
      .where(sql`${t.userId} IS NULL`),
    check('ledger_account_customer_non_negative', sql`${t.userId} IS NULL OR ${t.balance} >= 0`),
    check(
      'ledger_account_kind_valid',
      sql`(${t.userId} IS NOT NULL AND ${t.kind} IN ('available', 'held')) OR (${t.userId} IS NULL AND ${t.kind} NOT IN ('available', 'held'))`,
    ),
  ],
);

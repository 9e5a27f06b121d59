import { sql } from 'drizzle-orm';
import {
  bigint,
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

/**
 * Ledger accounts (docs/domain.md §3). Customer accounts ('available', 'held') belong to a
 * user: 'held' never goes below zero, 'available' may be debited down to minus its
 * `credit_limit` (0 unless an admin gives the customer credit) and no further; system accounts
 * (funding per method, revenue, adjustments) have no user and may be negative. Balances are
 * integer cents and change only through transfer().
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
    /** How far below zero a debit may take this account, in cents ('available' only). */
    creditLimit: bigint('credit_limit', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ledger_account_user_kind_uq').on(t.userId, t.kind),
    uniqueIndex('ledger_account_system_kind_uq')
      .on(t.kind)
      .where(sql`${t.userId} IS NULL`),
    // 'held' is never negative; a debit past an 'available' account's limit is refused by
    // cometa_transfer and backed by the trigger ledger_account_credit_floor (a lowered limit
    // leaves an older, larger debt in place, which a CHECK on the row could not allow).
    check(
      'ledger_account_held_non_negative',
      sql`${t.userId} IS NULL OR ${t.kind} = 'available' OR ${t.balance} >= 0`,
    ),
    check(
      'ledger_account_credit_limit_valid',
      sql`${t.creditLimit} >= 0 AND (${t.creditLimit} = 0 OR (${t.userId} IS NOT NULL AND ${t.kind} = 'available'))`,
    ),
    check(
      'ledger_account_kind_valid',
      sql`(${t.userId} IS NOT NULL AND ${t.kind} IN ('available', 'held')) OR (${t.userId} IS NULL AND ${t.kind} NOT IN ('available', 'held'))`,
    ),
  ],
);

/** One movement of money between two accounts. Append-only (a trigger refuses UPDATE/DELETE). */
export const ledgerTransfer = pgTable(
  'ledger_transfer',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    debitAccountId: uuid('debit_account_id')
      .notNull()
      .references(() => ledgerAccount.id),
    creditAccountId: uuid('credit_account_id')
      .notNull()
      .references(() => ledgerAccount.id),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    referenceType: text('reference_type').notNull(),
    referenceId: text('reference_id').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    description: text('description').notNull(),
    actorId: text('actor_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ledger_transfer_idempotency_uq').on(t.idempotencyKey),
    index('ledger_transfer_reference_idx').on(t.referenceType, t.referenceId),
    // Reports read movements of a kind (top-ups, captures) over a range of time.
    index('ledger_transfer_kind_created_idx').on(t.kind, t.createdAt),
    check('ledger_transfer_amount_positive', sql`${t.amount} > 0`),
    check('ledger_transfer_distinct_accounts', sql`${t.debitAccountId} <> ${t.creditAccountId}`),
  ],
);

/** The two sides of every transfer, with the account's balance after it (for statements). */
export const ledgerEntry = pgTable(
  'ledger_entry',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    transferId: uuid('transfer_id')
      .notNull()
      .references(() => ledgerTransfer.id),
    accountId: uuid('account_id')
      .notNull()
      .references(() => ledgerAccount.id),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    balanceAfter: bigint('balance_after', { mode: 'bigint' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('ledger_entry_account_id_idx').on(t.accountId, t.id),
    uniqueIndex('ledger_entry_transfer_account_uq').on(t.transferId, t.accountId),
    check('ledger_entry_amount_nonzero', sql`${t.amount} <> 0`),
  ],
);

/**
 * Every change of a customer's credit limit (append-only). The limit applies to the debit
 * entries of the account with an id above `after_entry_id` (the account's last entry when it
 * was set, read under the account's row lock), until the next change: ledger:verify checks each
 * debit against the limit in force when it was made, so lowering a limit below a debt is not a
 * fault but going past the limit then in force is.
 */
export const ledgerCreditLimit = pgTable(
  'ledger_credit_limit',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => ledgerAccount.id),
    creditLimit: bigint('credit_limit', { mode: 'bigint' }).notNull(),
    afterEntryId: bigint('after_entry_id', { mode: 'bigint' }).notNull(),
    actorId: text('actor_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('ledger_credit_limit_account_idx').on(t.accountId, t.afterEntryId),
    check('ledger_credit_limit_non_negative', sql`${t.creditLimit} >= 0`),
  ],
);

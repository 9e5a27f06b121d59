import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { user } from './auth';
import { ledgerTransfer } from './ledger';

/** Manual payment methods (bank transfer, PayPal, crypto…) set by the admin. */
export const manualMethod = pgTable(
  'manual_method',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    instructions: text('instructions').notNull(),
    minAmount: bigint('min_amount', { mode: 'bigint' }).notNull(),
    maxAmount: bigint('max_amount', { mode: 'bigint' }).notNull(),
    active: boolean('active').notNull().default(true),
    sortOrder: integer('sort_order').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('manual_method_limits', sql`${t.minAmount} > 0 AND ${t.maxAmount} >= ${t.minAmount}`),
  ],
);

/**
 * A top-up: a card payment through Stripe Checkout, a declared manual transfer, or a voucher
 * redemption. Completed at most once (conditional status change + the transfer's unique key).
 */
export const payment = pgTable(
  'payment',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id),
    method: text('method').notNull(),
    manualMethodId: uuid('manual_method_id').references(() => manualMethod.id),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    status: text('status').notNull().default('pending'),
    /** The customer's payment reference (manual) or the voucher code's id. */
    reference: text('reference'),
    /** The provider's id: Stripe Checkout Session id. */
    providerRef: text('provider_ref'),
    receiptPath: text('receipt_path'),
    receiptMime: text('receipt_mime'),
    rejectReason: text('reject_reason'),
    reviewedBy: text('reviewed_by').references(() => user.id),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    transferId: uuid('transfer_id').references(() => ledgerTransfer.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('payment_user_created_idx').on(t.userId, t.createdAt),
    index('payment_status_idx').on(t.status, t.createdAt),
    uniqueIndex('payment_provider_ref_uq').on(t.method, t.providerRef),
    check('payment_amount_positive', sql`${t.amount} > 0`),
    check('payment_method_valid', sql`${t.method} IN ('stripe', 'manual', 'voucher')`),
    check(
      'payment_status_valid',
      sql`${t.status} IN ('pending', 'completed', 'rejected', 'expired')`,
    ),
  ],
);

/** Provider events already processed; recorded in the same transaction as the credit. */
export const processedEvent = pgTable('processed_event', {
  provider: text('provider').notNull(),
  eventId: text('event_id').primaryKey(),
  paymentId: uuid('payment_id').references(() => payment.id),
  processedAt: timestamp('processed_at', { withTimezone: true }).notNull().defaultNow(),
});

export const voucherBatch = pgTable(
  'voucher_batch',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    count: integer('count').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    note: text('note'),
    createdBy: text('created_by')
      .notNull()
      .references(() => user.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('voucher_batch_valid', sql`${t.amount} > 0 AND ${t.count} > 0`)],
);

export const voucher = pgTable(
  'voucher',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    batchId: uuid('batch_id')
      .notNull()
      .references(() => voucherBatch.id),
    code: text('code').notNull(),
    redeemedBy: text('redeemed_by').references(() => user.id),
    redeemedAt: timestamp('redeemed_at', { withTimezone: true }),
    paymentId: uuid('payment_id').references(() => payment.id),
  },
  (t) => [uniqueIndex('voucher_code_uq').on(t.code), index('voucher_batch_idx').on(t.batchId)],
);

/** Every admin action: who, what, when, before/after. Append-only. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Null for the system's own changes (price sync). */
    actorId: text('actor_id').references(() => user.id),
    /** The actor's role when they acted (admin, support, finance); null for the system's changes. */
    actorRole: text('actor_role'),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    ipAddress: text('ip_address'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('audit_log_target_idx').on(t.targetType, t.targetId),
    index('audit_log_created_idx').on(t.createdAt),
    index('audit_log_actor_idx').on(t.actorId, t.createdAt),
  ],
);

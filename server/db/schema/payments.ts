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
    /** The customer's fee on top of the amount: hundredths of a percent (290 = 2.90 %) + fixed cents. */
    feePercentBp: integer('fee_percent_bp').notNull().default(0),
    feeFixed: bigint('fee_fixed', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('manual_method_limits', sql`${t.minAmount} > 0 AND ${t.maxAmount} >= ${t.minAmount}`),
    check(
      'manual_method_fee_valid',
      sql`${t.feePercentBp} BETWEEN 0 AND 5000 AND ${t.feeFixed} >= 0`,
    ),
  ],
);

/**
 * A top-up: a card payment through Stripe Checkout, PayPal, crypto (NOWPayments) or Mercado
 * Pago, a declared manual transfer, or a voucher redemption. `amount` is what the customer's
 * balance receives (USD cents); `fee` is what they pay on top (so they pay amount + fee).
 * Completed at most once (conditional status change + the transfer's unique key). A completed
 * top-up may later be reversed (refund, chargeback): `reversed_amount` is what was debited back.
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
    /**
     * The provider's id: Stripe Checkout Session id, PayPal order id, NOWPayments invoice id,
     * Mercado Pago preference id.
     */
    providerRef: text('provider_ref'),
    /** The provider's id of the money movement once paid (PayPal capture, NOWPayments payment, MP payment). */
    providerPaymentId: text('provider_payment_id'),
    /** The provider's last status we read (e.g. COMPLETED, partially_paid, approved). */
    providerStatus: text('provider_status'),
    /** Where the customer pays (PayPal approve link, NOWPayments invoice, MP init point). */
    checkoutUrl: text('checkout_url'),
    /** The fee the customer pays on top of `amount`, in USD cents. */
    fee: bigint('fee', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    /** What is charged, in the charge currency's minor units (Mercado Pago: ARS, MXN…); null = amount + fee in USD. */
    chargedAmount: bigint('charged_amount', { mode: 'bigint' }),
    chargedCurrency: text('charged_currency'),
    /** Units of the charge currency per US dollar used for this top-up (decimal string). */
    exchangeRate: text('exchange_rate'),
    /** A line the customer sees about how it was credited (e.g. a partial crypto payment). */
    note: text('note'),
    /** Why a paid top-up waits for finance ('review'): e.g. the first card top-up over the limit. */
    holdReason: text('hold_reason'),
    /** USD cents debited back by refunds and chargebacks. */
    reversedAmount: bigint('reversed_amount', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
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
    index('payment_provider_payment_idx').on(t.method, t.providerPaymentId),
    check(
      'payment_method_valid',
      sql`${t.method} IN ('stripe', 'manual', 'voucher', 'paypal', 'crypto', 'mercadopago')`,
    ),
    check(
      'payment_status_valid',
      sql`${t.status} IN ('pending', 'review', 'completed', 'reversed', 'rejected', 'expired')`,
    ),
    check('payment_fee_valid', sql`${t.fee} >= 0 AND ${t.reversedAmount} >= 0`),
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

/**
 * The fee and limits of each automatic method (Stripe, PayPal, crypto, Mercado Pago), set by the
 * admin. A method without a row uses its defaults (no fee; limits from the environment).
 */
export const gatewaySetting = pgTable(
  'gateway_setting',
  {
    method: text('method').primaryKey(),
    feePercentBp: integer('fee_percent_bp').notNull().default(0),
    feeFixed: bigint('fee_fixed', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    minAmount: bigint('min_amount', { mode: 'bigint' }).notNull(),
    maxAmount: bigint('max_amount', { mode: 'bigint' }).notNull(),
    updatedBy: text('updated_by').references(() => user.id),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'gateway_setting_method_valid',
      sql`${t.method} IN ('stripe', 'paypal', 'crypto', 'mercadopago')`,
    ),
    check(
      'gateway_setting_fee_valid',
      sql`${t.feePercentBp} BETWEEN 0 AND 5000 AND ${t.feeFixed} >= 0`,
    ),
    check('gateway_setting_limits', sql`${t.minAmount} > 0 AND ${t.maxAmount} >= ${t.minAmount}`),
  ],
);

/**
 * The shop's payment settings (one row, id 1): the fraud hold, the Mercado Pago exchange rate
 * and the details printed on receipts.
 */
export const paymentSettings = pgTable(
  'payment_settings',
  {
    id: integer('id').primaryKey().default(1),
    /** First card/PayPal top-ups of an account above this (USD cents) wait for finance; null = off. */
    holdThreshold: bigint('hold_threshold', { mode: 'bigint' }),
    /** Units of MERCADOPAGO_CURRENCY per US dollar (decimal string, up to 6 decimals); null = not set. */
    mercadopagoRate: text('mercadopago_rate'),
    mercadopagoRateUpdatedAt: timestamp('mercadopago_rate_updated_at', { withTimezone: true }),
    shopName: text('shop_name').notNull().default(''),
    shopTaxId: text('shop_tax_id').notNull().default(''),
    shopAddress: text('shop_address').notNull().default(''),
    updatedBy: text('updated_by').references(() => user.id),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('payment_settings_single', sql`${t.id} = 1`),
    check(
      'payment_settings_hold_valid',
      sql`${t.holdThreshold} IS NULL OR ${t.holdThreshold} >= 0`,
    ),
  ],
);

/** The last receipt number issued per year: taken in the crediting transaction, so no gaps. */
export const receiptCounter = pgTable(
  'receipt_counter',
  {
    year: integer('year').primaryKey(),
    last: integer('last').notNull(),
  },
  (t) => [check('receipt_counter_positive', sql`${t.last} > 0`)],
);

/**
 * A numbered receipt (R-2026-000123) for one credit of a top-up, with the shop's and the
 * customer's details as they were when it was issued. Append-only.
 */
export const receipt = pgTable(
  'receipt',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    number: text('number').notNull(),
    year: integer('year').notNull(),
    seq: integer('seq').notNull(),
    paymentId: uuid('payment_id')
      .notNull()
      .references(() => payment.id),
    transferId: uuid('transfer_id')
      .notNull()
      .references(() => ledgerTransfer.id),
    userId: text('user_id')
      .notNull()
      .references(() => user.id),
    method: text('method').notNull(),
    /** Credited to the balance, USD cents. */
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    /** The fee paid on top, USD cents. */
    fee: bigint('fee', { mode: 'bigint' }).notNull(),
    chargedAmount: bigint('charged_amount', { mode: 'bigint' }),
    chargedCurrency: text('charged_currency'),
    description: text('description').notNull(),
    /** { name, email } of the customer when issued. */
    customer: jsonb('customer').notNull(),
    /** { name, taxId, address } of the shop when issued. */
    shop: jsonb('shop').notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('receipt_number_uq').on(t.number),
    uniqueIndex('receipt_year_seq_uq').on(t.year, t.seq),
    uniqueIndex('receipt_transfer_uq').on(t.transferId),
    index('receipt_user_idx').on(t.userId, t.issuedAt),
    index('receipt_issued_idx').on(t.issuedAt),
    index('receipt_payment_idx').on(t.paymentId),
  ],
);

/**
 * A customer blocked from ordering because a top-up was reversed after it was credited (their
 * balance may be negative). Finance sees the open flags and clears them.
 */
export const accountFlag = pgTable(
  'account_flag',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id),
    paymentId: uuid('payment_id').references(() => payment.id),
    reason: text('reason').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    clearedAt: timestamp('cleared_at', { withTimezone: true }),
    clearedBy: text('cleared_by').references(() => user.id),
  },
  (t) => [
    uniqueIndex('account_flag_open_uq')
      .on(t.userId)
      .where(sql`${t.clearedAt} IS NULL`),
    index('account_flag_created_idx').on(t.createdAt),
  ],
);

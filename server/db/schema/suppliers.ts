import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { CatalogueIssue, RemoteField, SupplierSettings } from '../../suppliers/types';
import { order, service } from './catalogue';

/**
 * An upstream supplier we forward orders to (docs/protocols.md §4.2). The API key is sealed
 * (AES-256-GCM, server/suppliers/secret-box.ts) and never leaves the server.
 */
export const supplier = pgTable(
  'supplier',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    protocol: text('protocol').notNull(),
    url: text('url').notNull(),
    username: text('username'),
    apiKeySealed: text('api_key_sealed').notNull(),
    /** The key's last four characters, so an admin can tell keys apart. */
    apiKeyHint: text('api_key_hint').notNull(),
    /** activo (active), fallando (failing: its last calls failed), desactivado (disabled by an admin). */
    state: text('state').notNull().default('active'),
    balanceMicros: bigint('balance_micros', { mode: 'bigint' }),
    currency: text('currency'),
    /** E-mail the admins once when the balance falls below this (micro-units); null = no alert. */
    lowBalanceMicros: bigint('low_balance_micros', { mode: 'bigint' }),
    /** Set when the alert was sent; cleared when the balance is back above the threshold. */
    lowBalanceAlertedAt: timestamp('low_balance_alerted_at', { withTimezone: true }),
    lastError: text('last_error'),
    lastCheckedAt: timestamp('last_checked_at', { withTimezone: true }),
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    settings: jsonb('settings').$type<SupplierSettings>().notNull().default({}),
    catalogueFetchedAt: timestamp('catalogue_fetched_at', { withTimezone: true }),
    /**
     * What the last catalogue read could not use: entries skipped (no usable id, repeated,
     * unreadable) and services whose cost cannot be used; at most CATALOGUE_ISSUES_KEPT.
     */
    catalogueIssues: jsonb('catalogue_issues').$type<CatalogueIssue[]>().notNull().default([]),
    /** How many there were in all (the list above keeps the first ones). */
    catalogueIssueCount: integer('catalogue_issue_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('supplier_name_uq').on(sql`lower(${t.name})`),
    check('supplier_protocol_valid', sql`${t.protocol} IN ('dhru', 'smm')`),
    check('supplier_state_valid', sql`${t.state} IN ('active', 'failing', 'disabled')`),
  ],
);

/** The last catalogue read from a supplier, normalised (server/suppliers/types.ts RemoteService). */
export const supplierService = pgTable(
  'supplier_service',
  {
    supplierId: uuid('supplier_id')
      .notNull()
      .references(() => supplier.id),
    remoteId: text('remote_id').notNull(),
    name: text('name').notNull(),
    groupName: text('group_name').notNull(),
    type: text('type').notNull(),
    unit: text('unit').notNull(),
    /** The last cost that could be used: kept when a new one cannot (see costProblem). */
    costMicros: bigint('cost_micros', { mode: 'bigint' }).notNull(),
    /** Why the supplier's current cost cannot be used (unreadable, zero, negative…); null when it can. */
    costProblem: text('cost_problem'),
    minQuantity: integer('min_quantity'),
    maxQuantity: integer('max_quantity'),
    deliveryTime: text('delivery_time').notNull(),
    info: text('info').notNull(),
    fields: jsonb('fields').$type<RemoteField[]>().notNull(),
    importable: boolean('importable').notNull(),
    reason: text('reason'),
    /** SMM: the supplier offers refills, cancels and drip-feed for this service. */
    refill: boolean('refill').notNull().default(false),
    cancel: boolean('cancel').notNull().default(false),
    dripfeed: boolean('dripfeed').notNull().default(false),
    /** When the supplier stopped listing it (null while listed). */
    missingSince: timestamp('missing_since', { withTimezone: true }),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.supplierId, t.remoteId] }),
    check('supplier_service_unit_valid', sql`${t.unit} IN ('order', '1000')`),
  ],
);

/**
 * Where a catalogue service is bought: its routes in order (position 0 is the primary, the others
 * fallbacks). `fieldMap` says which supplier parameter each of our field keys goes to.
 */
export const serviceRoute = pgTable(
  'service_route',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    serviceId: uuid('service_id')
      .notNull()
      .references(() => service.id),
    supplierId: uuid('supplier_id')
      .notNull()
      .references(() => supplier.id),
    remoteId: text('remote_id').notNull(),
    position: integer('position').notNull(),
    fieldMap: jsonb('field_map').$type<Record<string, string>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('service_route_position_uq').on(t.serviceId, t.position),
    uniqueIndex('service_route_remote_uq').on(t.serviceId, t.supplierId, t.remoteId),
    index('service_route_supplier_idx').on(t.supplierId, t.remoteId),
    check('service_route_position_valid', sql`${t.position} >= 0`),
  ],
);

/**
 * The forwarding of one order (docs/protocols.md §4.1). `sending` is committed before the HTTP
 * call, so a crash or an unclear answer leaves a row an admin must decide on (`review`), never a
 * second send.
 */
export const orderDispatch = pgTable(
  'order_dispatch',
  {
    orderId: uuid('order_id')
      .primaryKey()
      .references(() => order.id),
    state: text('state').notNull().default('queued'),
    /** The route being tried (index into the service's routes, by position order). */
    routeIndex: integer('route_index').notNull().default(0),
    supplierId: uuid('supplier_id').references(() => supplier.id),
    remoteId: text('remote_id'),
    /** The supplier's order id once it accepted. */
    reference: text('reference'),
    /** Calls made to place this order (each claim is one). */
    attempts: integer('attempts').notNull().default(0),
    /** Times every route was tried and the order had to wait. */
    rounds: integer('rounds').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    /** The instance (app_instance.id) that claimed the send; dead, the send goes to review. */
    claimedBy: uuid('claimed_by'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    lastPolledAt: timestamp('last_polled_at', { withTimezone: true }),
    polls: integer('polls').notNull().default(0),
    /** The supplier's own last status text (for admins). */
    remoteStatus: text('remote_status'),
    lastError: text('last_error'),
    reviewReason: text('review_reason'),
    /**
     * A customer's cancel of the sent order: requested (to send to the supplier), sent (the
     * supplier took it: the order is refunded when it reports the order cancelled), refused.
     */
    cancelState: text('cancel_state'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('order_dispatch_due_idx').on(t.state, t.nextAttemptAt),
    index('order_dispatch_cancel_idx')
      .on(t.cancelState)
      .where(sql`${t.cancelState} = 'requested'`),
    check(
      'order_dispatch_cancel_state_valid',
      sql`${t.cancelState} IS NULL OR ${t.cancelState} IN ('requested', 'sent', 'refused')`,
    ),
    index('order_dispatch_poll_idx').on(t.supplierId, t.state, t.lastPolledAt),
    // One supplier order belongs to one of ours: a typed reference cannot settle two orders.
    uniqueIndex('order_dispatch_reference_uq')
      .on(t.supplierId, t.reference)
      .where(sql`${t.reference} IS NOT NULL`),
    check(
      'order_dispatch_state_valid',
      sql`${t.state} IN ('queued', 'sending', 'sent', 'waiting', 'review', 'done')`,
    ),
  ],
);

/** Every request to a supplier and its answer (keys redacted), kept for admins. */
export const supplierLog = pgTable(
  'supplier_log',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    supplierId: uuid('supplier_id')
      .notNull()
      .references(() => supplier.id),
    /** The orders the call was about (one for a send, up to 100 for a status batch). */
    orderIds: uuid('order_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    action: text('action').notNull(),
    request: jsonb('request').$type<Record<string, string>>().notNull(),
    httpStatus: integer('http_status'),
    response: text('response'),
    error: text('error'),
    /** ok, refused-order, refused-supplier, retry-later, not-sent, ambiguous. */
    outcome: text('outcome').notNull(),
    ms: integer('ms').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('supplier_log_supplier_idx').on(t.supplierId, t.id),
    index('supplier_log_orders_idx').using('gin', t.orderIds),
    index('supplier_log_created_idx').on(t.createdAt),
  ],
);

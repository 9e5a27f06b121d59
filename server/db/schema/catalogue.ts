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
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { ServiceField } from '../../../shared/schemas/catalogue';
import { user } from './auth';

/** A service customers can order (docs/domain.md §4). Prices are integer cents. */
export const service = pgTable(
  'service',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Stable number: the service's id in the DHRU (SERVICEID) and SMM (`service`) APIs. */
    number: bigserial('number', { mode: 'number' }).notNull(),
    category: text('category').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    deliveryTime: text('delivery_time').notNull(),
    /** Flat price per order ('order'), or price per 1000 units ('1000'). */
    price: bigint('price', { mode: 'bigint' }).notNull(),
    unit: text('unit').notNull().default('order'),
    minQuantity: integer('min_quantity'),
    maxQuantity: integer('max_quantity'),
    fields: jsonb('fields').$type<ServiceField[]>().notNull(),
    active: boolean('active').notNull().default(true),
    sortOrder: integer('sort_order').notNull().default(0),
    /** When false, the same identifier cannot be ordered again while an order is in flight. */
    allowRecheck: boolean('allow_recheck').notNull().default(false),
    /**
     * Price follows the primary route's cost: cost × (1 + markup), in basis points (12.5 % =
     * 1250). Null: the price is fixed by an admin.
     */
    markupBp: integer('markup_bp'),
    /**
     * The SMM order type it is sold as (shared/smm-types.ts: Default, Package, Custom Comments…);
     * its fields are that type's inputs. Null: not an SMM-typed service.
     */
    smmType: text('smm_type'),
    /** Orders may be drip-fed (runs × quantity, one run every interval). */
    dripfeed: boolean('dripfeed').notNull().default(false),
    /** Days after completion a customer may ask for a refill; null: no refill. */
    refillDays: integer('refill_days'),
    /** A customer may ask to cancel an order already in progress (forwarded to the supplier). */
    cancelable: boolean('cancelable').notNull().default(false),
    /**
     * How its orders are fulfilled (shared/schemas/stock.ts): 'supplier' (forwarded by its routes
     * when it has any, otherwise by hand), 'manual' (always by hand, routes ignored), 'stock' (an
     * item taken from stock at once; out of stock, its routes as 'supplier').
     */
    delivery: text('delivery').notNull().default('supplier'),
    /** Stock services: the low-stock alert fires when available items drop to this many. */
    lowStockThreshold: integer('low_stock_threshold').notNull().default(5),
    /** The low-stock alert was sent for the current crossing (reset when stock is added). */
    lowStockAlerted: boolean('low_stock_alerted').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('service_category_idx').on(t.category, t.active, t.sortOrder),
    check(
      'service_refill_days_valid',
      sql`${t.refillDays} IS NULL OR ${t.refillDays} BETWEEN 1 AND 3650`,
    ),
    uniqueIndex('service_number_uq').on(t.number),
    check('service_price_positive', sql`${t.price} > 0`),
    check('service_delivery_valid', sql`${t.delivery} IN ('manual', 'supplier', 'stock')`),
    check('service_low_stock_threshold_valid', sql`${t.lowStockThreshold} >= 0`),
    check('service_markup_valid', sql`${t.markupBp} IS NULL OR ${t.markupBp} >= 0`),
    check('service_unit_valid', sql`${t.unit} IN ('order', '1000')`),
    check(
      'service_quantity_valid',
      sql`(${t.unit} = 'order') OR (${t.minQuantity} IS NOT NULL AND ${t.maxQuantity} IS NOT NULL AND ${t.minQuantity} > 0 AND ${t.maxQuantity} >= ${t.minQuantity})`,
    ),
    check(
      'service_category_valid',
      sql`${t.category} IN ('IMEI', 'unlock', 'licenses', 'streaming', 'gaming', 'social', 'cleanimei')`,
    ),
  ],
);

/**
 * An order. Its price is held from the customer's available balance when it is placed
 * (available → held, same transaction); completion captures it (held → revenue); rejection or
 * cancellation releases it (held → available) exactly once.
 */
export const order = pgTable(
  'order',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    number: bigserial('number', { mode: 'number' }).notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id),
    serviceId: uuid('service_id')
      .notNull()
      .references(() => service.id),
    category: text('category').notNull(),
    serviceName: text('service_name').notNull(),
    quantity: integer('quantity').notNull().default(1),
    fields: jsonb('fields').$type<Record<string, string>>().notNull(),
    /** The identifier the duplicate rule looks at (the IMEI, serial, link…), when there is one. */
    identifier: text('identifier'),
    /** Set while in flight for services without re-check: a unique index refuses a duplicate. */
    inflightKey: text('inflight_key'),
    price: bigint('price', { mode: 'bigint' }).notNull(),
    status: text('status').notNull().default('pending'),
    result: text('result'),
    rejectReason: text('reject_reason'),
    idempotencyKey: text('idempotency_key'),
    requestHash: text('request_hash'),
    supplierRef: text('supplier_ref'),
    /** Units the supplier did not deliver (partial orders), clamped to [0, quantity]. */
    remains: integer('remains'),
    /** Drip-feed: runs, and minutes between them; `quantity` is the total (per run × runs). */
    runs: integer('runs'),
    runInterval: integer('run_interval'),
    /** The count the supplier saw when it started (SMM `start_count`), as it reported it. */
    startCount: integer('start_count'),
    /** The customer asked to cancel it while in progress (forwarded to the supplier). */
    cancelRequestedAt: timestamp('cancel_requested_at', { withTimezone: true }),
    /** Where it was placed: the web app, the REST API (a key), or a DHRU or SMM client. */
    source: text('source').notNull().default('web'),
    /**
     * What the order costs us, integer cents (docs/domain.md, Cost, margin and reports): the
     * supplier's price when it is sent (its SMM `charge` once reported), or what the admin who
     * completed it by hand typed; reduced with the price on a partial delivery, 0 when it ends
     * rejected or cancelled. Null: unknown. Never shown to customers or to support.
     */
    cost: bigint('cost', { mode: 'bigint' }),
    /** The supplier it was sent to (the last route tried); null when fulfilled by hand. */
    supplierId: uuid('supplier_id'),
    /** Delivered from stock: its result is the item, shown masked to staff (decision 0023). */
    fromStock: boolean('from_stock').notNull().default(false),
    /** When it finished (completed, partial, rejected, cancelled): the ledger's capture time. */
    settledAt: timestamp('settled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('order_number_uq').on(t.number),
    // Reports read finished orders by the time they were settled.
    index('order_settled_idx')
      .on(t.settledAt)
      .where(sql`${t.settledAt} IS NOT NULL`),
    check('order_cost_non_negative', sql`${t.cost} IS NULL OR ${t.cost} >= 0`),
    uniqueIndex('order_idempotency_uq').on(t.userId, t.idempotencyKey),
    uniqueIndex('order_inflight_uq').on(t.inflightKey),
    index('order_user_created_idx').on(t.userId, t.createdAt, t.id),
    index('order_user_status_idx').on(t.userId, t.status),
    index('order_status_created_idx').on(t.status, t.createdAt),
    index('order_user_identifier_idx').on(t.userId, t.identifier),
    // Admin search and pasted results look orders up by identifier across all customers.
    index('order_identifier_idx').on(t.identifier),
    check('order_price_positive', sql`${t.price} > 0`),
    check('order_quantity_positive', sql`${t.quantity} > 0`),
    check(
      'order_dripfeed_valid',
      sql`(${t.runs} IS NULL AND ${t.runInterval} IS NULL) OR (${t.runs} >= 2 AND ${t.runInterval} >= 1)`,
    ),
    check('order_source_valid', sql`${t.source} IN ('web', 'api', 'dhru', 'smm')`),
    check(
      'order_status_valid',
      sql`${t.status} IN ('pending', 'processing', 'completed', 'rejected', 'cancelled', 'partial')`,
    ),
  ],
);

/** Every change of an order, with time and actor. Append-only. */
export const orderEvent = pgTable(
  'order_event',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => order.id),
    status: text('status').notNull(),
    /** 'status' (a change of status), 'refill' (a refill asked for or finished), 'cancel' (a cancel request). */
    kind: text('kind').notNull().default('status'),
    note: text('note'),
    actorId: text('actor_id'),
    actorRole: text('actor_role').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('order_event_order_idx').on(t.orderId, t.id)],
);

/**
 * A refill a customer asked for on a completed order (SMM `refill`): one at a time per order,
 * within the service's refill window. Sent to the supplier that fulfilled the order when it
 * offers refills (and followed with `refill_status`), otherwise handled by an admin.
 */
export const orderRefill = pgTable(
  'order_refill',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Stable number: the refill's id in the SMM API (`refill`). */
    number: bigserial('number', { mode: 'number' }).notNull(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => order.id),
    userId: text('user_id')
      .notNull()
      .references(() => user.id),
    /** pending (waiting to be sent or for an admin), sent (the supplier took it), completed, rejected. */
    state: text('state').notNull().default('pending'),
    /** Routed: the supplier it goes to, and the refill's id there once accepted. */
    supplierId: uuid('supplier_id'),
    supplierRef: text('supplier_ref'),
    /** Why it was rejected, or what the supplier last said. */
    note: text('note'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastPolledAt: timestamp('last_polled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('order_refill_number_uq').on(t.number),
    // One refill at a time per order.
    uniqueIndex('order_refill_open_uq')
      .on(t.orderId)
      .where(sql`${t.state} IN ('pending', 'sent')`),
    index('order_refill_order_idx').on(t.orderId, t.createdAt),
    index('order_refill_user_idx').on(t.userId, t.number),
    index('order_refill_due_idx').on(t.state, t.nextAttemptAt),
    check(
      'order_refill_state_valid',
      sql`${t.state} IN ('pending', 'sent', 'completed', 'rejected')`,
    ),
  ],
);

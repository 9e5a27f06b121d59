import { sql } from 'drizzle-orm';
import {
  bigserial,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { user } from './auth';
import { order } from './catalogue';

/**
 * A customer's personal API key (the reseller API: REST with `Authorization: Bearer`, DHRU Fusion
 * and SMM v2). Only a SHA-256 of the key is stored; the key is shown once, when created.
 */
export const apiKey = pgTable(
  'api_key',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id),
    name: text('name').notNull(),
    /** The key's first characters ("cmt_AbCd1234"), to tell keys apart. */
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull(),
    /** Addresses (or CIDR ranges) the key may be used from; empty: any. */
    allowedIps: text('allowed_ips')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('api_key_hash_uq').on(t.keyHash),
    index('api_key_user_idx').on(t.userId, t.createdAt),
  ],
);

/** Where a customer wants order updates POSTed, signed with the endpoint's secret. */
export const webhookEndpoint = pgTable(
  'webhook_endpoint',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id),
    url: text('url').notNull(),
    /** The signing secret, sealed (AES-256-GCM, like supplier keys): it must be read to sign. */
    secretSealed: text('secret_sealed').notNull(),
    state: text('state').notNull().default('active'),
    /** Attempts that failed in a row (reset by a delivery that succeeds). */
    failures: integer('failures').notNull().default(0),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    disabledReason: text('disabled_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    index('webhook_endpoint_user_idx').on(t.userId, t.state),
    check('webhook_endpoint_state_valid', sql`${t.state} IN ('active', 'disabled')`),
  ],
);

/** One event for one endpoint, until it is delivered or given up (after 3 days of tries). */
export const webhookDelivery = pgTable(
  'webhook_delivery',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoint.id),
    /** The event's id: the same for every endpoint it goes to. */
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    orderId: uuid('order_id').references(() => order.id),
    /** The exact JSON body sent (its bytes are what the signature covers). */
    body: text('body').notNull(),
    state: text('state').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** Tries stop after this (3 days after the event, or after a resend). */
    retryUntil: timestamp('retry_until', { withTimezone: true })
      .notNull()
      .default(sql`now() + interval '3 days'`),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('webhook_delivery_endpoint_idx').on(t.endpointId, t.createdAt),
    index('webhook_delivery_due_idx').on(t.state, t.nextAttemptAt),
    check('webhook_delivery_state_valid', sql`${t.state} IN ('pending', 'delivered', 'failed')`),
  ],
);

/** Every attempt to deliver, with what the endpoint answered. */
export const webhookAttempt = pgTable(
  'webhook_attempt',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDelivery.id),
    httpStatus: integer('http_status'),
    error: text('error'),
    /** No longer written (customers see a status and a short reason); kept for older rows. */
    response: text('response'),
    ms: integer('ms').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhook_attempt_delivery_idx').on(t.deliveryId, t.id)],
);

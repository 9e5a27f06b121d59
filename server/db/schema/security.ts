import { bigint, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Fixed-window counters shared by every instance (sign-in, sign-up, reset, contact…). */
export const rateLimit = pgTable('rate_limit', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  windowStartMs: bigint('window_start_ms', { mode: 'number' }).notNull(),
});

/** E-mail verification links are signed tokens; this makes each one usable once. */
export const consumedToken = pgTable('consumed_token', {
  tokenHash: text('token_hash').primaryKey(),
  purpose: text('purpose').notNull(),
  consumedAt: timestamp('consumed_at', { withTimezone: true }).notNull().defaultNow(),
});

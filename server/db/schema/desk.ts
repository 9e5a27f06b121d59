import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Texts staff save to reuse: reasons to reject an order and templates of a completion's result
 * (the order queue), replies to support tickets (the desk). Shared by every admin; `position` orders each kind's list.
 */
export const adminSnippet = pgTable(
  'admin_snippets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** 'reject_reason', 'result_template' or 'ticket_reply' (support desk answers). */
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    position: integer('position').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('admin_snippets_kind_position_idx').on(t.kind, t.position),
    check(
      'admin_snippets_kind_valid',
      sql`${t.kind} IN ('reject_reason', 'result_template', 'ticket_reply')`,
    ),
  ],
);

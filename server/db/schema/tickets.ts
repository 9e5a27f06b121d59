import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  customType,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { user } from './auth';
import { order } from './catalogue';

/** Raw bytes (as in files.ts): PGlite reads a Uint8Array, node-postgres a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
  toDriver: (value) => value,
});

/**
 * A support ticket between a customer and the shop (docs/domain.md, "Support desk"). States
 * and categories are the identifiers of shared/schemas/tickets.ts (CHECKs in the migration).
 * The timestamps carry the unread counts (a side's last public message against its reader's
 * `*_read_at`), the auto-close (`last_staff_message_at`) and the desk's times.
 */
export const ticket = pgTable(
  'ticket',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The readable number (#1042), from its own sequence. */
    number: bigserial('number', { mode: 'number' }).notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id),
    subject: text('subject').notNull(),
    category: text('category').notNull(),
    state: text('state').notNull().default('open'),
    assigneeId: text('assignee_id').references(() => user.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** The last public message (customer, staff or system). */
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull().defaultNow(),
    lastCustomerMessageAt: timestamp('last_customer_message_at', { withTimezone: true }),
    /** The last public staff answer: what the customer has unread, and the auto-close's clock. */
    lastStaffMessageAt: timestamp('last_staff_message_at', { withTimezone: true }),
    firstResponseAt: timestamp('first_response_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    customerReadAt: timestamp('customer_read_at', { withTimezone: true }),
    staffReadAt: timestamp('staff_read_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('ticket_number_uq').on(t.number),
    index('ticket_user_idx').on(t.userId, t.lastMessageAt),
    index('ticket_state_idx').on(t.state, t.lastMessageAt),
    index('ticket_assignee_idx').on(t.assigneeId, t.lastMessageAt),
    index('ticket_category_idx').on(t.category, t.lastMessageAt),
    index('ticket_last_message_idx').on(t.lastMessageAt),
    check('ticket_closed_at', sql`(${t.state} = 'closed') = (${t.closedAt} IS NOT NULL)`),
  ],
);

/** The orders a ticket is about (the customer's own). */
export const ticketOrder = pgTable(
  'ticket_order',
  {
    ticketId: uuid('ticket_id')
      .notNull()
      .references(() => ticket.id, { onDelete: 'cascade' }),
    orderId: uuid('order_id')
      .notNull()
      .references(() => order.id),
  },
  (t) => [
    primaryKey({ columns: [t.ticketId, t.orderId] }),
    index('ticket_order_order_idx').on(t.orderId),
  ],
);

/**
 * A message in a ticket: the customer's, a staff member's (public or an internal note the
 * customer never sees) or the system's (auto-close).
 */
export const ticketMessage = pgTable(
  'ticket_message',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ticketId: uuid('ticket_id')
      .notNull()
      .references(() => ticket.id, { onDelete: 'cascade' }),
    /** 'customer', 'staff' or 'system'. */
    authorKind: text('author_kind').notNull(),
    authorId: text('author_id').references(() => user.id),
    body: text('body').notNull(),
    internal: boolean('internal').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('ticket_message_ticket_idx').on(t.ticketId, t.createdAt),
    check(
      'ticket_message_author_kind_valid',
      sql`${t.authorKind} IN ('customer', 'staff', 'system')`,
    ),
    check('ticket_message_internal_staff', sql`NOT ${t.internal} OR ${t.authorKind} = 'staff'`),
    check('ticket_message_author', sql`(${t.authorKind} = 'system') = (${t.authorId} IS NULL)`),
  ],
);

/** A file attached to a message: an image or a PDF, judged from its bytes, kept in the database. */
export const ticketAttachment = pgTable(
  'ticket_attachment',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ticketId: uuid('ticket_id')
      .notNull()
      .references(() => ticket.id, { onDelete: 'cascade' }),
    messageId: uuid('message_id')
      .notNull()
      .references(() => ticketMessage.id, { onDelete: 'cascade' }),
    /** The name as given, cleaned (shared/files.ts cleanFileName). */
    name: text('name').notNull(),
    /** What the bytes are (never the type the client declared). */
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    data: bytea('data').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('ticket_attachment_message_idx').on(t.messageId),
    index('ticket_attachment_ticket_idx').on(t.ticketId),
    check(
      'ticket_attachment_size_valid',
      sql`${t.size} > 0 AND ${t.size} <= 5242880 AND ${t.size} = octet_length(${t.data})`,
    ),
    check(
      'ticket_attachment_type_valid',
      sql`${t.contentType} IN ('image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf')`,
    ),
  ],
);

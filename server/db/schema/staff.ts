import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { user } from './auth';

/**
 * An invitation to join the staff with a role, sent by e-mail. Only a SHA-256 of the link's token
 * is stored; accepting it once sets `acceptedAt` (a second use, or one after `expiresAt`, is
 * refused). A new invitation to the same address replaces the pending one.
 */
export const staffInvitation = pgTable(
  'staff_invitation',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    role: text('role').notNull(),
    tokenHash: text('token_hash').notNull(),
    invitedBy: text('invited_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    acceptedBy: text('accepted_by').references(() => user.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('staff_invitation_token_idx').on(t.tokenHash),
    index('staff_invitation_email_idx').on(t.email),
  ],
);

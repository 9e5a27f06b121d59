// Announcements to customers (docs/domain.md "Announcements"): the announcement, the price groups
// it goes to, who read it, and who was sent it by e-mail (one row per customer: the e-mail is
// queued once, whatever retries or instances do).
import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { user } from './auth';
import { priceGroup } from './prices';

export const announcement = pgTable(
  'announcement',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: text('title').notNull(),
    /** The short format of shared/announcement-format.ts. */
    body: text('body').notNull(),
    /** To every customer; false: to the customers of its `announcement_group` rows only. */
    forEveryone: boolean('for_everyone').notNull().default(true),
    pinned: boolean('pinned').notNull().default(false),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull().defaultNow(),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    /** Also by e-mail to its audience, once it has started. */
    email: boolean('email').notNull().default(false),
    /** The e-mail reached its whole audience (a later change of audience or e-mail clears it). */
    emailDoneAt: timestamp('email_done_at', { withTimezone: true }),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** Deleted by an admin: hidden everywhere, no more e-mails. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    index('announcement_live_idx')
      .on(t.startsAt)
      .where(sql`${t.deletedAt} IS NULL`),
  ],
);

/** The price groups an announcement goes to (only when it is not for everyone). */
export const announcementGroup = pgTable(
  'announcement_group',
  {
    announcementId: uuid('announcement_id')
      .notNull()
      .references(() => announcement.id, { onDelete: 'cascade' }),
    groupId: uuid('group_id')
      .notNull()
      .references(() => priceGroup.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.announcementId, t.groupId] }),
    index('announcement_group_group_idx').on(t.groupId),
  ],
);

/** A customer dismissed (read) an announcement. */
export const announcementRead = pgTable(
  'announcement_read',
  {
    announcementId: uuid('announcement_id')
      .notNull()
      .references(() => announcement.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    readAt: timestamp('read_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.announcementId, t.userId] }),
    index('announcement_read_user_idx').on(t.userId),
  ],
);

/** The announcement's e-mail was queued for this customer (exactly once). */
export const announcementEmail = pgTable(
  'announcement_email',
  {
    announcementId: uuid('announcement_id')
      .notNull()
      .references(() => announcement.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    queuedAt: timestamp('queued_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.announcementId, t.userId] })],
);

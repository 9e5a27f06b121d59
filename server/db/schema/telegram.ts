import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
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

/**
 * A person's Telegram chat with the shop's bot (one per account). `active` turns false when the
 * person blocks the bot (or the chat is gone): nothing more is sent until they link again.
 */
export const telegramLink = pgTable(
  'telegram_link',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** Telegram's chat id (a private chat's id is the person's user id), as text. */
    chatId: text('chat_id').notNull(),
    username: text('username'),
    active: boolean('active').notNull().default(true),
    linkedAt: timestamp('linked_at', { withTimezone: true }).notNull().defaultNow(),
    deactivatedAt: timestamp('deactivated_at', { withTimezone: true }),
  },
  (t) => [index('telegram_link_chat_idx').on(t.chatId)],
);

/** A one-time code to link an account (`/start <code>`): only its SHA-256 is stored. */
export const telegramLinkCode = pgTable(
  'telegram_link_code',
  {
    codeHash: text('code_hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('telegram_link_code_user_idx').on(t.userId)],
);

/** What a person chose to receive by Telegram (kinds of shared/schemas/notifications.ts). */
export const notificationPreference = pgTable('notification_preference', {
  userId: text('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  telegramKinds: text('telegram_kinds')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One message to one chat (the outbox). `eventKey` + `recipient` is unique: a `notify` job that
 * runs again finds its rows written and queues nothing more. The row is the truth, the
 * `telegram-send` job only a trigger: a send job for a row no longer `pending` does nothing.
 */
export const telegramMessage = pgTable(
  'telegram_message',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The event (`notify:<job id>`, `credit.limit:<user>:<hour>`, `update:<update id>`). */
    eventKey: text('event_key').notNull(),
    /** The account, or `chat:<id>` for a reply to a chat that is not linked. */
    recipient: text('recipient').notNull(),
    userId: text('user_id').references(() => user.id, { onDelete: 'cascade' }),
    chatId: text('chat_id').notNull(),
    kind: text('kind').notNull(),
    /** HTML (parse_mode HTML), every value escaped. */
    text: text('text').notNull(),
    state: text('state').notNull().default('pending'),
    /** Sends that failed for a passing reason (429 waits are not counted). */
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('telegram_message_event_recipient_uq').on(t.eventKey, t.recipient),
    index('telegram_message_chat_state_idx').on(t.chatId, t.state),
    check('telegram_message_state', sql`${t.state} IN ('pending', 'sent', 'dropped', 'failed')`),
  ],
);

/** Updates already handled (Telegram may deliver one again): kept a few days. */
export const telegramUpdate = pgTable('telegram_update', {
  updateId: bigint('update_id', { mode: 'number' }).primaryKey(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The next free sending slot, per chat (`chat:<id>`, 1 s apart) and for the whole bot
 * (`bot`, 40 ms apart): reserved atomically, so every instance paces with the others.
 */
export const telegramPace = pgTable('telegram_pace', {
  key: text('key').primaryKey(),
  nextAt: timestamp('next_at', { withTimezone: true }).notNull(),
});

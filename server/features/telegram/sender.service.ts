// The `telegram-send` worker: one telegram_message row → one sendMessage. The row is the truth:
// a job for a row no longer `pending` does nothing. Telegram's limits are kept with slots
// reserved in the database (telegram_pace), so every instance paces with the others:
// one message a second per chat, 25 a second for the whole bot (docs/decisions/0022).
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/client';
import { telegramLink, telegramMessage } from '../../db/schema/telegram';
import type { Env } from '../../env';
import type { JobQueue } from '../../jobs/queue';
import type { Logger } from '../../lib/logger';
import { sendMessage } from './telegram.client';
import { dropPending } from './telegram.service';

export type SenderDeps = { db: Db; env: Env; jobs: JobQueue; logger: Logger };

/** Gap between two messages to one chat, and between two messages of the bot, in ms. */
export const CHAT_GAP_MS = 1000;
export const BOT_GAP_MS = 40;
/** A slot further away than this is not waited for in the worker: the job is rescheduled. */
const MAX_WAIT_MS = 3000;

/** Reserves the next slot of `key` (at least `gapMs` after the previous one); ms to wait for it. */
async function reserve(db: Db, key: string, gapMs: number): Promise<number> {
  const [row] = await queryRows<{ wait_ms: string | number }>(
    db,
    sql`INSERT INTO telegram_pace (key, next_at)
        VALUES (${key}, clock_timestamp() + make_interval(secs => ${gapMs / 1000}))
        ON CONFLICT (key) DO UPDATE
          SET next_at = GREATEST(telegram_pace.next_at, clock_timestamp())
                        + make_interval(secs => ${gapMs / 1000})
        RETURNING GREATEST(0, EXTRACT(EPOCH FROM (next_at - clock_timestamp())) * 1000 - ${gapMs})
                  AS wait_ms`,
  );
  return Math.max(0, Math.ceil(Number(row?.wait_ms ?? 0)));
}

/** Pushes a chat's next slot `seconds` ahead (after a 429). */
async function holdChat(db: Db, chatId: string, seconds: number): Promise<void> {
  await db.execute(
    sql`INSERT INTO telegram_pace (key, next_at)
        VALUES (${`chat:${chatId}`}, clock_timestamp() + make_interval(secs => ${seconds}))
        ON CONFLICT (key) DO UPDATE SET next_at = GREATEST(telegram_pace.next_at,
          clock_timestamp() + make_interval(secs => ${seconds}))`,
  );
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export type SendResult = 'sent' | 'nothing-to-do' | 'rescheduled' | 'dropped' | 'failed';

/**
 * Sends one message. Throws on a passing failure (network, 5xx) so pg-boss retries the job;
 * never throws for a chat that cannot be written to (its link turns inactive instead).
 */
export async function sendTelegram(deps: SenderDeps, messageId: string): Promise<SendResult> {
  const config = deps.env.telegram;
  const [m] = await deps.db.select().from(telegramMessage).where(eq(telegramMessage.id, messageId));
  if (!m || m.state !== 'pending') return 'nothing-to-do';
  if (!config) {
    await deps.db
      .update(telegramMessage)
      .set({ state: 'dropped', lastError: 'Telegram is off' })
      .where(eq(telegramMessage.id, m.id));
    return 'dropped';
  }
  // The chat's slot first, then the bot's (a bot slot is never held while waiting for a chat).
  const chatWait = await reserve(deps.db, `chat:${m.chatId}`, CHAT_GAP_MS);
  if (chatWait > MAX_WAIT_MS) return reschedule(deps, m.id, chatWait);
  if (chatWait > 0) await sleep(chatWait);
  const botWait = await reserve(deps.db, 'bot', BOT_GAP_MS);
  if (botWait > MAX_WAIT_MS) return reschedule(deps, m.id, botWait);
  if (botWait > 0) await sleep(botWait);

  const outcome = await sendMessage(config, m.chatId, m.text);
  switch (outcome.kind) {
    case 'sent':
      await deps.db
        .update(telegramMessage)
        .set({ state: 'sent', sentAt: new Date(), lastError: null })
        .where(eq(telegramMessage.id, m.id));
      return 'sent';
    case 'rate-limited':
      // Telegram said when: wait that long (not a failure, not counted).
      await holdChat(deps.db, m.chatId, outcome.retryAfter);
      return reschedule(deps, m.id, outcome.retryAfter * 1000);
    case 'unreachable':
      // Blocked, or the chat is gone: the link turns inactive and its pending messages go.
      await deps.db.transaction(async (tx) => {
        await tx
          .update(telegramLink)
          .set({ active: false, deactivatedAt: new Date() })
          .where(and(eq(telegramLink.chatId, m.chatId), eq(telegramLink.active, true)));
        await dropPending(tx, { chatId: m.chatId });
        await tx
          .update(telegramMessage)
          .set({ lastError: outcome.description.slice(0, 500) })
          .where(eq(telegramMessage.id, m.id));
      });
      deps.logger.info({ messageId: m.id }, 'telegram chat unreachable: link deactivated');
      return 'dropped';
    case 'refused':
      await deps.db
        .update(telegramMessage)
        .set({ state: 'failed', lastError: outcome.description.slice(0, 500) })
        .where(eq(telegramMessage.id, m.id));
      deps.logger.warn({ messageId: m.id, description: outcome.description }, 'telegram refused');
      return 'failed';
    case 'failed':
      await deps.db
        .update(telegramMessage)
        .set({
          attempts: sql`${telegramMessage.attempts} + 1`,
          lastError: outcome.description.slice(0, 500),
        })
        .where(eq(telegramMessage.id, m.id));
      throw new Error(`telegram send failed: ${outcome.description}`);
  }
}

async function reschedule(deps: SenderDeps, messageId: string, ms: number): Promise<SendResult> {
  await deps.jobs.send(
    'telegram-send',
    { messageId },
    { startAfterSeconds: Math.max(1, Math.ceil(ms / 1000)) },
  );
  return 'rescheduled';
}

// Linking a Telegram chat to an account, the account's choice of notifications, and the bot's
// webhook (/start <code>, /start, /stop, the person blocking the bot). Replies to the chat go
// through the same outbox and queue as notifications (telegram_message + telegram-send).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  CUSTOMER_NOTIFICATION_KINDS,
  STAFF_NOTIFICATION_KINDS,
  type NotificationKind,
  type NotificationSettings,
  type TelegramLink,
} from '../../../shared/schemas/notifications';
import { isStaffRole, staffCan, type StaffArea } from '../../../shared/roles';
import type { Db, Tx } from '../../db/client';
import { user } from '../../db/schema/auth';
import {
  notificationPreference,
  telegramLink,
  telegramLinkCode,
  telegramMessage,
  telegramUpdate,
} from '../../db/schema/telegram';
import type { Env } from '../../env';
import { sendInTx } from '../../jobs/queue';
import { AppError } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import { botUsername, type TelegramConfig } from './telegram.client';

/** A link code is valid this long. */
export const LINK_CODE_MINUTES = 15;

/** Which back-office area a staff kind belongs to (shared/roles.ts STAFF_AREAS). */
export const KIND_AREA: Record<(typeof STAFF_NOTIFICATION_KINDS)[number], StaffArea> = {
  'ticket.new': 'tickets',
  'ticket.reply': 'tickets',
  'order.review': 'orders',
  'supplier.failing': 'suppliers',
  'payment.pending': 'money',
  'credit.limit': 'money',
  'stock.low': 'catalogue',
};

/** The kinds an account may choose: staff by their areas, customers their own orders and tickets. */
export function availableKinds(role: string): NotificationKind[] {
  if (isStaffRole(role))
    return STAFF_NOTIFICATION_KINDS.filter((k) => staffCan(role, KIND_AREA[k]));
  return [...CUSTOMER_NOTIFICATION_KINDS];
}

const DISABLED = 'Las notificaciones por Telegram no están disponibles en esta tienda.';

function requireTelegram(env: Env): TelegramConfig {
  if (!env.telegram) throw new AppError('NOT_FOUND', DISABLED);
  return env.telegram;
}

function hashCode(code: string): string {
  return createHash('sha256').update(code).digest('hex');
}

type Who = { id: string; role: string };

export async function getSettings(db: Db, env: Env, who: Who): Promise<NotificationSettings> {
  const available = availableKinds(who.role);
  const [pref] = await db
    .select({ kinds: notificationPreference.telegramKinds })
    .from(notificationPreference)
    .where(eq(notificationPreference.userId, who.id));
  const [link] = await db.select().from(telegramLink).where(eq(telegramLink.userId, who.id));
  return {
    // A kind the role no longer has (a staff member moved to another role) is not shown.
    telegram: (pref?.kinds ?? []).filter((k): k is NotificationKind =>
      (available as string[]).includes(k),
    ),
    available,
    telegramLink: link
      ? { username: link.username, linkedAt: link.linkedAt.toISOString(), active: link.active }
      : null,
    telegramEnabled: env.telegram !== null,
  };
}

/** PUT /api/me/notifications: a kind the role may not receive is refused (400). */
export async function updatePreferences(
  db: Db,
  env: Env,
  who: Who,
  kinds: NotificationKind[],
): Promise<NotificationSettings> {
  const available = availableKinds(who.role);
  const refused = kinds.filter((k) => !available.includes(k));
  if (refused.length)
    throw new AppError('VALIDATION_FAILED', undefined, {
      telegram: `Esta cuenta no puede recibir: ${refused.join(', ')}. Puede elegir: ${available.join(', ')}.`,
    });
  await db
    .insert(notificationPreference)
    .values({ userId: who.id, telegramKinds: kinds })
    .onConflictDoUpdate({
      target: notificationPreference.userId,
      set: { telegramKinds: kinds, updatedAt: new Date() },
    });
  return getSettings(db, env, who);
}

/** POST /api/me/telegram/link: a new one-time code (earlier unused ones are dropped). */
export async function createLinkCode(db: Db, env: Env, who: Who): Promise<TelegramLink> {
  const config = requireTelegram(env);
  let bot: string;
  try {
    bot = await botUsername(config);
  } catch {
    throw new AppError(
      'CONFLICT',
      'No pudimos contactar con el bot de Telegram de la tienda. Inténtalo de nuevo en unos minutos.',
    );
  }
  // 20 characters of [A-Za-z0-9_-]: what a /start parameter may carry (up to 64).
  const code = randomBytes(15).toString('base64url');
  const expiresAt = new Date(Date.now() + LINK_CODE_MINUTES * 60_000);
  await db.transaction(async (tx) => {
    await tx
      .delete(telegramLinkCode)
      .where(and(eq(telegramLinkCode.userId, who.id), isNull(telegramLinkCode.usedAt)));
    await tx
      .insert(telegramLinkCode)
      .values({ codeHash: hashCode(code), userId: who.id, expiresAt });
  });
  return {
    code,
    url: `https://t.me/${bot}?start=${code}`,
    expiresAt: expiresAt.toISOString(),
  };
}

/** DELETE /api/me/telegram: the link and its pending messages go. */
export async function unlink(db: Db, env: Env, who: Who): Promise<NotificationSettings> {
  await db.transaction(async (tx) => {
    await tx.delete(telegramLink).where(eq(telegramLink.userId, who.id));
    await dropPending(tx, { userId: who.id });
  });
  return getSettings(db, env, who);
}

/** Account deletion: the chat, the codes, the choices and the messages of `userId` go. */
export async function forgetTelegramOf(tx: Tx, userId: string): Promise<void> {
  await tx.delete(telegramLink).where(eq(telegramLink.userId, userId));
  await tx.delete(telegramLinkCode).where(eq(telegramLinkCode.userId, userId));
  await tx.delete(notificationPreference).where(eq(notificationPreference.userId, userId));
  await tx.delete(telegramMessage).where(eq(telegramMessage.userId, userId));
}

/** Marks pending messages dropped (a send job that finds them later does nothing). */
export async function dropPending(
  tx: Tx | Db,
  where: { userId: string } | { chatId: string },
): Promise<void> {
  await tx
    .update(telegramMessage)
    .set({ state: 'dropped' })
    .where(
      and(
        eq(telegramMessage.state, 'pending'),
        'userId' in where
          ? eq(telegramMessage.userId, where.userId)
          : eq(telegramMessage.chatId, where.chatId),
      ),
    );
}

/** Compares the header with the secret in constant time (hashes of equal length). */
export function webhookSecretMatches(config: TelegramConfig, header: string | undefined): boolean {
  // Without a secret nothing can prove an update comes from Telegram: every one is refused.
  if (config.webhookSecret === null) return false;
  const given = createHash('sha256')
    .update(header ?? '')
    .digest();
  const expected = createHash('sha256').update(config.webhookSecret).digest();
  return timingSafeEqual(given, expected) && header !== undefined;
}

/** The parts of an Update Cometa reads; anything else is accepted and ignored. */
const ChatSchema = z.object({ id: z.union([z.number(), z.string()]), type: z.string().optional() });
const FromSchema = z.object({ id: z.number().optional(), username: z.string().optional() });
export const TelegramUpdateSchema = z
  .object({
    update_id: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    message: z
      .object({
        chat: ChatSchema,
        from: FromSchema.optional(),
        text: z.string().max(4096).optional(),
      })
      .loose()
      .optional(),
    my_chat_member: z
      .object({
        chat: ChatSchema,
        new_chat_member: z.object({ status: z.string() }).loose(),
      })
      .loose()
      .optional(),
  })
  .loose();
export type TelegramUpdate = z.infer<typeof TelegramUpdateSchema>;

export type WebhookDeps = { db: Db; env: Env; logger: Logger };

/** Queues one reply to a chat, keyed by the update (a redelivered update adds nothing). */
async function reply(
  tx: Tx,
  updateId: number,
  chatId: string,
  userId: string | null,
  html: string,
): Promise<void> {
  const [row] = await tx
    .insert(telegramMessage)
    .values({
      eventKey: `update:${updateId}`,
      recipient: userId ?? `chat:${chatId}`,
      userId,
      chatId,
      kind: 'reply',
      text: html,
    })
    .onConflictDoNothing()
    .returning({ id: telegramMessage.id });
  if (row) await sendInTx(tx, 'telegram-send', { messageId: row.id });
}

const START_HELP =
  'Hola. Para recibir avisos de la tienda, abre <b>Mi perfil</b> en la web, pulsa «Vincular Telegram» y sigue el enlace que te damos (o envía aquí <code>/start</code> seguido del código).';
const CODE_REFUSED =
  'Ese código no es válido o ya caducó (dura 15 minutos y sirve una sola vez). Pide uno nuevo en <b>Mi perfil</b> → «Vincular Telegram».';

/**
 * One update from Telegram. Returns true when it was new (false: already handled). Every
 * change and the replies it queues commit together with the update's id.
 */
export async function handleUpdate(
  deps: WebhookDeps,
  update: TelegramUpdate,
): Promise<{ handled: boolean }> {
  return deps.db.transaction(async (tx) => {
    const [fresh] = await tx
      .insert(telegramUpdate)
      .values({ updateId: update.update_id })
      .onConflictDoNothing()
      .returning({ id: telegramUpdate.updateId });
    if (!fresh) return { handled: false };

    const member = update.my_chat_member;
    if (member) {
      const chatId = String(member.chat.id);
      const status = member.new_chat_member.status;
      if (status === 'kicked' || status === 'left') {
        // The person blocked the bot: the link stays, inactive, until they link again.
        await tx
          .update(telegramLink)
          .set({ active: false, deactivatedAt: new Date() })
          .where(and(eq(telegramLink.chatId, chatId), eq(telegramLink.active, true)));
        await dropPending(tx, { chatId });
      }
      return { handled: true };
    }

    const message = update.message;
    const text = message?.text?.trim();
    if (!message || !text || (message.chat.type && message.chat.type !== 'private'))
      return { handled: true };
    const chatId = String(message.chat.id);
    const command = /^\/(start|stop)(?:@\w+)?(?:\s+(\S+))?\s*$/i.exec(text);
    if (!command) {
      await reply(tx, update.update_id, chatId, null, START_HELP);
      return { handled: true };
    }
    const [, name = '', argument] = command;
    if (name.toLowerCase() === 'stop') {
      const removed = await tx
        .delete(telegramLink)
        .where(eq(telegramLink.chatId, chatId))
        .returning({ userId: telegramLink.userId });
      await dropPending(tx, { chatId });
      await reply(
        tx,
        update.update_id,
        chatId,
        null,
        removed.length
          ? 'Listo: desvinculamos este chat de tu cuenta. No te enviaremos más avisos aquí.'
          : 'Este chat no está vinculado a ninguna cuenta.',
      );
      return { handled: true };
    }
    if (!argument) {
      await reply(tx, update.update_id, chatId, null, START_HELP);
      return { handled: true };
    }
    const [claimed] = await tx
      .update(telegramLinkCode)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(telegramLinkCode.codeHash, hashCode(argument)),
          isNull(telegramLinkCode.usedAt),
          gt(telegramLinkCode.expiresAt, new Date()),
        ),
      )
      .returning({ userId: telegramLinkCode.userId });
    if (!claimed) {
      await reply(tx, update.update_id, chatId, null, CODE_REFUSED);
      return { handled: true };
    }
    const userId = claimed.userId;
    const username = message.from?.username ?? null;
    // A chat belongs to one account: linking it here unlinks it from any other.
    await tx
      .delete(telegramLink)
      .where(and(eq(telegramLink.chatId, chatId), sql`${telegramLink.userId} <> ${userId}`));
    await tx
      .insert(telegramLink)
      .values({ userId, chatId, username, active: true })
      .onConflictDoUpdate({
        target: telegramLink.userId,
        set: { chatId, username, active: true, linkedAt: new Date(), deactivatedAt: null },
      });
    // The first link chooses every kind available (documented in docs/domain.md); a person who
    // already chose keeps their choice.
    const [account] = await tx.select({ role: user.role }).from(user).where(eq(user.id, userId));
    const defaults = availableKinds(account?.role ?? 'customer');
    await tx
      .insert(notificationPreference)
      .values({ userId, telegramKinds: defaults })
      .onConflictDoNothing();
    await reply(
      tx,
      update.update_id,
      chatId,
      userId,
      'Listo: tu cuenta quedó vinculada. Te avisaremos aquí de lo que elegiste en <b>Mi perfil</b>. Envía /stop para dejar de recibir avisos.',
    );
    return { handled: true };
  });
}

/**
 * Forgets handled update ids and spent codes older than a week (Telegram keeps updates 24 hours),
 * and messages sent or dropped more than 30 days ago.
 */
export async function pruneTelegram(db: Db): Promise<void> {
  const weekAgo = new Date(Date.now() - 7 * 24 * 3600 * 1000);
  const monthAgo = new Date(Date.now() - 30 * 24 * 3600 * 1000);
  await db.delete(telegramUpdate).where(lt(telegramUpdate.receivedAt, weekAgo));
  await db.delete(telegramLinkCode).where(lt(telegramLinkCode.expiresAt, weekAgo));
  await db
    .delete(telegramMessage)
    .where(
      and(
        lt(telegramMessage.createdAt, monthAgo),
        sql`${telegramMessage.state} IN ('sent', 'dropped', 'failed')`,
      ),
    );
}

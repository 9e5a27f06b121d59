// The `notify` worker: one domain event (server/features/notifications/events.ts) → who receives
import { PAYMENT_METHOD_LABELS, type PaymentMethod } from '../../../shared/schemas/wallet';
// it → one telegram_message row per recipient (unique per event and recipient) and one
// `telegram-send` job per row, in one transaction. A `notify` job run again (pg-boss retries it
// with the same id) finds its rows written and queues nothing more.
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { formatSupplierMoney, formatUsd } from '../../../shared/money';
import { STAFF_AREAS } from '../../../shared/roles';
import type { NotificationKind } from '../../../shared/schemas/notifications';
import type { Db, Tx } from '../../db/client';
import { user } from '../../db/schema/auth';
import { order, service } from '../../db/schema/catalogue';
import { payment } from '../../db/schema/payments';
import { orderDispatch, supplier } from '../../db/schema/suppliers';
import { notificationPreference, telegramLink, telegramMessage } from '../../db/schema/telegram';
import { ticket, ticketMessage } from '../../db/schema/tickets';
import type { Env } from '../../env';
import { sendInTx } from '../../jobs/queue';
import { formatMicros } from '../../suppliers/decimal';
import type { NotificationEvent } from '../notifications/events';
import { KIND_AREA } from './telegram.service';

export type NotifyDeps = { db: Db; env: Env };

/** Text for HTML parse mode: <, > and & escaped (and quotes, for attribute values). */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** The first lines of a text, at most `max` characters (Telegram's limit is 4096). */
export function firstLines(text: string, lines = 4, max = 400): string {
  const kept = text.trim().split(/\r?\n/).slice(0, lines).join('\n');
  return kept.length > max ? `${kept.slice(0, max - 1)}…` : kept;
}

type Recipient = { userId: string; chatId: string };

/** Staff whose role has the kind's area, who chose it and whose Telegram is linked and active. */
async function staffRecipients(
  tx: Tx,
  kind: keyof typeof KIND_AREA,
  only?: string,
): Promise<Recipient[]> {
  const roles = [...STAFF_AREAS[KIND_AREA[kind]]];
  return tx
    .select({ userId: user.id, chatId: telegramLink.chatId })
    .from(user)
    .innerJoin(telegramLink, eq(telegramLink.userId, user.id))
    .innerJoin(notificationPreference, eq(notificationPreference.userId, user.id))
    .where(
      and(
        inArray(user.role, roles),
        isNull(user.deletedAt),
        sql`${user.banned} IS NOT TRUE`,
        eq(telegramLink.active, true),
        sql`${kind} = ANY(${notificationPreference.telegramKinds})`,
        only ? eq(user.id, only) : undefined,
      ),
    )
    .orderBy(asc(user.id));
}

/** The customer concerned, when they chose the kind and their Telegram is linked and active. */
async function customerRecipient(
  tx: Tx,
  kind: NotificationKind,
  userId: string,
): Promise<Recipient[]> {
  return tx
    .select({ userId: user.id, chatId: telegramLink.chatId })
    .from(user)
    .innerJoin(telegramLink, eq(telegramLink.userId, user.id))
    .innerJoin(notificationPreference, eq(notificationPreference.userId, user.id))
    .where(
      and(
        eq(user.id, userId),
        isNull(user.deletedAt),
        sql`${user.banned} IS NOT TRUE`,
        eq(telegramLink.active, true),
        sql`${kind} = ANY(${notificationPreference.telegramKinds})`,
      ),
    );
}

type Plan = { recipients: Recipient[]; text: string; eventKey?: string };

const link = (env: Env, path: string) => `\n\n${escapeHtml(`${env.APP_URL}${path}`)}`;

async function planTicket(
  tx: Tx,
  env: Env,
  event: Extract<NotificationEvent, { kind: 'ticket.new' | 'ticket.reply' }>,
): Promise<Plan | null> {
  const [t] = await tx.select().from(ticket).where(eq(ticket.id, event.ticketId));
  if (!t) return null;
  const [m] =
    event.kind === 'ticket.reply'
      ? await tx.select().from(ticketMessage).where(eq(ticketMessage.id, event.messageId))
      : await tx
          .select()
          .from(ticketMessage)
          .where(and(eq(ticketMessage.ticketId, t.id), eq(ticketMessage.internal, false)))
          .orderBy(asc(ticketMessage.createdAt))
          .limit(1);
  // Internal notes never leave the back office.
  if (m && (m.internal || m.ticketId !== t.id)) return null;
  const excerpt = m ? `\n\n${escapeHtml(firstLines(m.body))}` : '';
  const subject = escapeHtml(t.subject);
  if (event.kind === 'ticket.new')
    return {
      recipients: await staffRecipients(tx, 'ticket.new'),
      text: `🎫 <b>Ticket nuevo #${t.number}</b>: ${subject}${excerpt}${link(env, `/admin/soporte/${t.id}`)}`,
    };
  if (!m) return null;
  if (m.authorKind === 'customer')
    return {
      // The assignee alone when the ticket has one; otherwise everyone on the desk who chose it.
      recipients: await staffRecipients(tx, 'ticket.reply', t.assigneeId ?? undefined),
      text: `💬 <b>El cliente respondió en el ticket #${t.number}</b>: ${subject}${excerpt}${link(env, `/admin/soporte/${t.id}`)}`,
    };
  if (m.authorKind === 'staff')
    return {
      recipients: await customerRecipient(tx, 'ticket.reply', t.userId),
      text: `💬 <b>Te respondimos en tu ticket #${t.number}</b>: ${subject}${excerpt}${link(env, `/soporte/${t.id}`)}`,
    };
  return null;
}

/** What the event says, and to whom; null when its subject is gone or nobody should hear. */
async function plan(tx: Tx, env: Env, event: NotificationEvent): Promise<Plan | null> {
  switch (event.kind) {
    case 'ticket.new':
    case 'ticket.reply':
      return planTicket(tx, env, event);
    case 'order.review': {
      const [o] = await tx
        .select({
          number: order.number,
          serviceName: order.serviceName,
          reason: orderDispatch.reviewReason,
        })
        .from(order)
        .leftJoin(orderDispatch, eq(orderDispatch.orderId, order.id))
        .where(eq(order.id, event.orderId));
      if (!o) return null;
      const why = o.reason ? `\n${escapeHtml(firstLines(o.reason, 3))}` : '';
      return {
        recipients: await staffRecipients(tx, 'order.review'),
        text: `⚠️ <b>Orden #${o.number} en «Revisar»</b>: ${escapeHtml(o.serviceName)}${why}${link(env, `/admin/ordenes?dispatch=review&q=${o.number}`)}`,
      };
    }
    case 'supplier.failing': {
      const [s] = await tx.select().from(supplier).where(eq(supplier.id, event.supplierId));
      if (!s) return null;
      const detail =
        event.reason === 'low_balance'
          ? `Su saldo bajó a ${formatSupplierMoney(micros(s.balanceMicros), s.currency)}, por debajo del aviso de ${formatSupplierMoney(micros(s.lowBalanceMicros), s.currency)}.`
          : `Falla al conectarse${s.lastError ? `: ${firstLines(s.lastError, 2, 200)}` : '.'}`;
      return {
        recipients: await staffRecipients(tx, 'supplier.failing'),
        text: `🔴 <b>Proveedor ${escapeHtml(s.name)}</b>: ${escapeHtml(detail)}${link(env, '/admin/proveedores')}`,
      };
    }
    case 'payment.pending': {
      const [p] = await tx
        .select({
          amount: payment.amount,
          status: payment.status,
          method: payment.method,
          name: user.name,
          email: user.email,
        })
        .from(payment)
        .innerJoin(user, eq(user.id, payment.userId))
        .where(eq(payment.id, event.paymentId));
      if (!p) return null;
      // A paid top-up held by the fraud rule says so, with its method.
      const held =
        p.status === 'review'
          ? ` (${PAYMENT_METHOD_LABELS[p.method as PaymentMethod] ?? p.method}, en revisión)`
          : '';
      return {
        recipients: await staffRecipients(tx, 'payment.pending'),
        text: `💵 <b>Pago esperando aprobación</b>: ${formatUsd(p.amount)} de ${escapeHtml(p.name)} (${escapeHtml(p.email)})${held}${link(env, '/admin/pagos')}`,
      };
    }
    case 'credit.limit': {
      const [c] = await tx
        .select({ name: user.name, email: user.email })
        .from(user)
        .where(eq(user.id, event.userId));
      if (!c) return null;
      return {
        recipients: await staffRecipients(tx, 'credit.limit'),
        text: `📉 <b>Cliente en su límite de crédito</b>: ${escapeHtml(c.name)} (${escapeHtml(c.email)})${link(env, `/admin/clientes/${event.userId}`)}`,
        // At most one message per customer and hour, however many orders they try.
        eventKey: `credit.limit:${event.userId}:${new Date().toISOString().slice(0, 13)}`,
      };
    }
    case 'stock.low': {
      const [svc] = await tx
        .select({
          name: service.name,
          threshold: service.lowStockThreshold,
          available: sql<number>`(SELECT count(*)::int FROM stock_item i WHERE i.service_id = ${service.id} AND i.state = 'available')`,
        })
        .from(service)
        .where(eq(service.id, event.serviceId));
      if (!svc) return null;
      return {
        recipients: await staffRecipients(tx, 'stock.low'),
        text: `📦 <b>Poco stock</b>: ${escapeHtml(svc.name)}: ${svc.available === 1 ? 'queda 1 artículo' : `quedan ${svc.available} artículos`} (aviso en ${svc.threshold})${link(env, '/admin/servicios')}`,
      };
    }
    case 'order.completed':
    case 'order.rejected': {
      const [o] = await tx.select().from(order).where(eq(order.id, event.orderId));
      if (!o) return null;
      const head =
        event.kind === 'order.completed'
          ? `✅ <b>Orden #${o.number} completada</b>: ${escapeHtml(o.serviceName)}`
          : `❌ <b>Orden #${o.number} rechazada</b>: ${escapeHtml(o.serviceName)}`;
      const detail =
        event.kind === 'order.completed'
          ? o.fromStock
            ? '\n\nTu artículo está listo: míralo en la orden (por seguridad no lo enviamos por aquí).'
            : o.result
              ? `\n\nResultado:\n${escapeHtml(firstLines(o.result, 10, 1500))}`
              : ''
          : `\n\nMotivo: ${escapeHtml(firstLines(o.rejectReason ?? 'sin motivo indicado', 5, 600))}\nEl importe volvió a tu saldo.`;
      return {
        recipients: await customerRecipient(tx, event.kind, o.userId),
        text: `${head}${detail}${link(env, `/orderhistory?orden=${o.id}`)}`,
      };
    }
  }
}

function micros(value: bigint | null): string {
  return formatMicros(value ?? 0n);
}

/**
 * Runs one `notify` job: writes the messages of the event and queues their sends. Returns how
 * many were queued now (0 for a job run again). Nothing happens while Telegram is off.
 */
export async function runNotify(
  deps: NotifyDeps,
  jobId: string,
  event: NotificationEvent,
): Promise<number> {
  if (!deps.env.telegram) return 0;
  return deps.db.transaction(async (tx) => {
    const p = await plan(tx, deps.env, event);
    if (!p || p.recipients.length === 0) return 0;
    const rows = await tx
      .insert(telegramMessage)
      .values(
        p.recipients.map((r) => ({
          eventKey: p.eventKey ?? `notify:${jobId}`,
          recipient: r.userId,
          userId: r.userId,
          chatId: r.chatId,
          kind: event.kind,
          text: p.text,
        })),
      )
      .onConflictDoNothing()
      .returning({ id: telegramMessage.id });
    for (const row of rows) await sendInTx(tx, 'telegram-send', { messageId: row.id });
    return rows.length;
  });
}

// The support desk (docs/domain.md, "Support desk"): tickets between a customer and the shop.
// A customer sees only their own tickets (another's answers 404) and never internal notes or
// their files; staff of the desk (STAFF_AREAS.tickets) see every ticket. Every change is one
// transaction: the ticket, its message, its files, its audit rows and its `notify` job commit
// together; the e-mail to the other side leaves after the commit (mailAfterCommit).
import { and, asc, desc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { STAFF_AREAS, staffCan } from '../../../shared/roles';
import {
  TICKET_AUTO_CLOSE_DAYS,
  type BulkCloseTicketsResult,
  type CreatedTicket,
  type StaffTicketDetail,
  type StaffTicketList,
  type StaffTicketQuery,
  type StaffTicketSummary,
  type TicketAssigneeList,
  type TicketAttachmentDto,
  type TicketCategory,
  type TicketDetail,
  type TicketList,
  type TicketMessageDto,
  type TicketState,
  type TicketSummary,
} from '../../../shared/schemas/tickets';
import type { Db, Tx } from '../../db/client';
import { user } from '../../db/schema/auth';
import { order } from '../../db/schema/catalogue';
import { ticket, ticketAttachment, ticketMessage, ticketOrder } from '../../db/schema/tickets';
import type { Env } from '../../env';
import { AppError } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import type { Mailer } from '../../lib/mail';
import { mailAfterCommit } from '../../lib/notify';
import { recordAudit } from '../audit/audit.service';
import { queueNotification } from '../notifications/events';
import { ticketAnsweredEmail, ticketFromCustomerEmail } from './tickets.emails';
import type { CheckedTicketFile } from './tickets.files';

export type TicketDeps = { db: Db; env: Env; mailer: Mailer; logger: Logger };
type Viewer = 'customer' | 'staff';

const NOT_FOUND = 'El ticket no existe.';
const PAGE_SIZE = 25;

// ─── Reading ────────────────────────────────────────────────────────────────────────────────

/**
 * Messages of the other side the viewer has not read yet (a correlated count). The outer
 * columns are written qualified: Drizzle leaves them bare in a one-table select, where they
 * would name the inner table's.
 */
function unreadCount(viewer: Viewer): SQL<number> {
  return viewer === 'customer'
    ? sql<number>`(SELECT count(*)::int FROM ${ticketMessage} m
        WHERE m.ticket_id = "ticket"."id" AND m.author_kind = 'staff' AND NOT m.internal
          AND m.created_at > COALESCE("ticket"."customer_read_at", '-infinity'::timestamptz))`
    : sql<number>`(SELECT count(*)::int FROM ${ticketMessage} m
        WHERE m.ticket_id = "ticket"."id" AND m.author_kind = 'customer'
          AND m.created_at > COALESCE("ticket"."staff_read_at", '-infinity'::timestamptz))`;
}

/** The keyset of the lists: last activity (microseconds since the epoch), then id. */
const cursorKey = sql<string>`(extract(epoch from ${ticket.lastMessageAt}) * 1000000)::bigint::text`;

function encodeCursor(key: string, id: string): string {
  return `${key}_${id}`;
}

function afterCursor(cursor: string | undefined): SQL | undefined {
  if (!cursor) return undefined;
  const match = /^(\d{1,19})_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/.exec(
    cursor,
  );
  if (!match)
    throw new AppError('VALIDATION_FAILED', 'El cursor de la página no es válido.', {
      cursor: 'El cursor de la página no es válido.',
    });
  return sql`((extract(epoch from ${ticket.lastMessageAt}) * 1000000)::bigint, ${ticket.id}) < (${match[1]}::bigint, ${match[2]}::uuid)`;
}

const summaryColumns = {
  id: ticket.id,
  number: ticket.number,
  subject: ticket.subject,
  category: ticket.category,
  state: ticket.state,
  lastMessageAt: ticket.lastMessageAt,
  createdAt: ticket.createdAt,
  closedAt: ticket.closedAt,
  cursorKey,
};

type SummaryRow = {
  id: string;
  number: number;
  subject: string;
  category: string;
  state: string;
  lastMessageAt: Date;
  createdAt: Date;
  closedAt: Date | null;
  unread: number;
};

function toSummary(r: SummaryRow): TicketSummary {
  return {
    id: r.id,
    number: r.number,
    subject: r.subject,
    category: r.category as TicketCategory,
    state: r.state as TicketState,
    unread: Number(r.unread),
    lastMessageAt: r.lastMessageAt.toISOString(),
    createdAt: r.createdAt.toISOString(),
    closedAt: r.closedAt?.toISOString() ?? null,
  };
}

const assignee = alias(user, 'assignee');

const staffColumns = {
  ...summaryColumns,
  unread: unreadCount('staff'),
  customerId: user.id,
  customerEmail: user.email,
  customerName: user.name,
  assigneeId: assignee.id,
  assigneeName: assignee.name,
  firstResponseSeconds: sql<
    number | null
  >`floor(extract(epoch from (${ticket.firstResponseAt} - ${ticket.createdAt})))::int`,
  resolutionSeconds: sql<
    number | null
  >`floor(extract(epoch from (${ticket.closedAt} - ${ticket.createdAt})))::int`,
};

type StaffRow = SummaryRow & {
  customerId: string;
  customerEmail: string;
  customerName: string;
  assigneeId: string | null;
  assigneeName: string | null;
  firstResponseSeconds: number | null;
  resolutionSeconds: number | null;
};

function toStaffSummary(r: StaffRow): StaffTicketSummary {
  return {
    ...toSummary(r),
    customer: { id: r.customerId, email: r.customerEmail, name: r.customerName },
    assignee:
      r.assigneeId === null ? null : { id: r.assigneeId, name: r.assigneeName ?? r.assigneeId },
    firstResponseSeconds: r.firstResponseSeconds === null ? null : Number(r.firstResponseSeconds),
    resolutionSeconds: r.resolutionSeconds === null ? null : Number(r.resolutionSeconds),
  };
}

function staffQuery(db: Db | Tx) {
  return db
    .select(staffColumns)
    .from(ticket)
    .innerJoin(user, eq(user.id, ticket.userId))
    .leftJoin(assignee, eq(assignee.id, ticket.assigneeId));
}

/** `%text%` for ILIKE, its wildcards taken literally. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function numberOf(text: string): number | null {
  const match = /^#?(\d{1,15})$/.exec(text.trim());
  return match ? Number(match[1]) : null;
}

/** The customer's own tickets, most recent activity first. */
export async function listMyTickets(
  db: Db,
  userId: string,
  query: { state?: TicketState; cursor?: string; limit?: number },
): Promise<TicketList> {
  const limit = query.limit ?? PAGE_SIZE;
  const rows = await db
    .select({ ...summaryColumns, unread: unreadCount('customer') })
    .from(ticket)
    .where(
      and(
        eq(ticket.userId, userId),
        query.state ? eq(ticket.state, query.state) : undefined,
        afterCursor(query.cursor),
      ),
    )
    .orderBy(desc(ticket.lastMessageAt), desc(ticket.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map(toSummary),
    nextCursor: rows.length > limit && last ? encodeCursor(last.cursorKey, last.id) : null,
  };
}

/** The desk's list with its filters, most recent activity first. */
export async function listStaffTickets(
  db: Db,
  staffId: string,
  query: StaffTicketQuery,
): Promise<StaffTicketList> {
  const limit = query.limit ?? PAGE_SIZE;
  const conditions: (SQL | undefined)[] = [afterCursor(query.cursor)];
  if (query.state) conditions.push(eq(ticket.state, query.state));
  if (query.category) conditions.push(eq(ticket.category, query.category));
  if (query.assignee === 'me') conditions.push(eq(ticket.assigneeId, staffId));
  else if (query.assignee === 'none') conditions.push(isNull(ticket.assigneeId));
  else if (query.assignee) conditions.push(eq(ticket.assigneeId, query.assignee));
  if (query.customer) {
    const pattern = likePattern(query.customer);
    conditions.push(
      or(
        eq(user.id, query.customer),
        sql`${user.email} ILIKE ${pattern}`,
        sql`${user.name} ILIKE ${pattern}`,
      ),
    );
  }
  if (query.order) {
    const n = numberOf(query.order);
    const match = UUID.test(query.order)
      ? sql`o.id = ${query.order}::uuid`
      : n !== null
        ? sql`o.number = ${n}`
        : sql`false`;
    conditions.push(
      sql`EXISTS (SELECT 1 FROM ${ticketOrder} t_o JOIN ${order} o ON o.id = t_o.order_id
        WHERE t_o.ticket_id = ${ticket.id} AND ${match})`,
    );
  }
  if (query.q) {
    const n = numberOf(query.q);
    conditions.push(
      or(
        sql`${ticket.subject} ILIKE ${likePattern(query.q)}`,
        n !== null ? eq(ticket.number, n) : undefined,
      ),
    );
  }
  const rows = await staffQuery(db)
    .where(and(...conditions))
    .orderBy(desc(ticket.lastMessageAt), desc(ticket.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map(toStaffSummary),
    nextCursor: rows.length > limit && last ? encodeCursor(last.cursorKey, last.id) : null,
  };
}

function attachmentUrl(viewer: Viewer, ticketId: string, id: string): string {
  return viewer === 'customer'
    ? `/api/tickets/${ticketId}/attachments/${id}`
    : `/api/admin/tickets/${ticketId}/attachments/${id}`;
}

/** The ticket's messages in order, with their files; the customer's view has no internal notes. */
async function messagesOf(db: Db | Tx, ticketId: string, viewer: Viewer) {
  const author = alias(user, 'author');
  const rows = await db
    .select({
      id: ticketMessage.id,
      authorKind: ticketMessage.authorKind,
      authorName: author.name,
      body: ticketMessage.body,
      internal: ticketMessage.internal,
      createdAt: ticketMessage.createdAt,
    })
    .from(ticketMessage)
    .leftJoin(author, eq(author.id, ticketMessage.authorId))
    .where(
      and(
        eq(ticketMessage.ticketId, ticketId),
        viewer === 'customer' ? eq(ticketMessage.internal, false) : undefined,
      ),
    )
    .orderBy(asc(ticketMessage.createdAt), asc(ticketMessage.id));
  const files = rows.length
    ? await db
        .select({
          id: ticketAttachment.id,
          messageId: ticketAttachment.messageId,
          name: ticketAttachment.name,
          contentType: ticketAttachment.contentType,
          size: ticketAttachment.size,
        })
        .from(ticketAttachment)
        .where(
          inArray(
            ticketAttachment.messageId,
            rows.map((r) => r.id),
          ),
        )
        .orderBy(asc(ticketAttachment.createdAt), asc(ticketAttachment.id))
    : [];
  const byMessage = new Map<string, TicketAttachmentDto[]>();
  for (const f of files) {
    const dto: TicketAttachmentDto = {
      id: f.id,
      name: f.name,
      contentType: f.contentType,
      size: f.size,
      url: attachmentUrl(viewer, ticketId, f.id),
    };
    byMessage.set(f.messageId, [...(byMessage.get(f.messageId) ?? []), dto]);
  }
  return rows.map((r): TicketMessageDto => ({
    id: r.id,
    authorKind: r.authorKind as TicketMessageDto['authorKind'],
    authorName: r.authorName ?? 'Sistema',
    body: r.body,
    internal: r.internal,
    attachments: byMessage.get(r.id) ?? [],
    createdAt: r.createdAt.toISOString(),
  }));
}

/** The orders a ticket links (number, service, status: never what they cost). */
async function ordersOf(db: Db | Tx, ticketId: string) {
  const rows = await db
    .select({
      id: order.id,
      number: order.number,
      serviceName: order.serviceName,
      status: order.status,
    })
    .from(ticketOrder)
    .innerJoin(order, eq(order.id, ticketOrder.orderId))
    .where(eq(ticketOrder.ticketId, ticketId))
    .orderBy(asc(order.number));
  return rows.map((r) => ({ ...r, number: Number(r.number) }));
}

/** The customer's ticket with its public messages; reading it marks the answers read. */
export async function getMyTicket(db: Db, userId: string, id: string): Promise<TicketDetail> {
  const [marked] = await db
    .update(ticket)
    .set({ customerReadAt: sql`now()` })
    .where(and(eq(ticket.id, id), eq(ticket.userId, userId)))
    .returning({ id: ticket.id });
  // Another customer's ticket answers like one that does not exist.
  if (!marked) throw new AppError('NOT_FOUND', NOT_FOUND);
  const [row] = await db
    .select({ ...summaryColumns, unread: unreadCount('customer') })
    .from(ticket)
    .where(eq(ticket.id, id));
  if (!row) throw new AppError('NOT_FOUND', NOT_FOUND);
  return {
    ...toSummary(row),
    orders: await ordersOf(db, id),
    messages: await messagesOf(db, id, 'customer'),
  };
}

async function staffSummary(db: Db | Tx, id: string): Promise<StaffTicketSummary> {
  const [row] = await staffQuery(db).where(eq(ticket.id, id));
  if (!row) throw new AppError('NOT_FOUND', NOT_FOUND);
  return toStaffSummary(row);
}

/** Any ticket for the desk, internal notes included; reading it marks the customer's messages read. */
export async function getStaffTicket(db: Db, id: string): Promise<StaffTicketDetail> {
  const [marked] = await db
    .update(ticket)
    .set({ staffReadAt: sql`now()` })
    .where(eq(ticket.id, id))
    .returning({ id: ticket.id });
  if (!marked) throw new AppError('NOT_FOUND', NOT_FOUND);
  return {
    ...(await staffSummary(db, id)),
    orders: await ordersOf(db, id),
    messages: await messagesOf(db, id, 'staff'),
  };
}

/** Tickets with staff answers the customer has not read (the header's badge). */
export async function customerUnreadTickets(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(ticket)
    .where(
      and(
        eq(ticket.userId, userId),
        sql`${ticket.lastStaffMessageAt} IS NOT NULL`,
        sql`(${ticket.customerReadAt} IS NULL OR ${ticket.lastStaffMessageAt} > ${ticket.customerReadAt})`,
      ),
    );
  return Number(row?.n ?? 0);
}

/** Tickets waiting for the shop (state open). */
export async function openTicketCount(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(ticket)
    .where(eq(ticket.state, 'open'));
  return Number(row?.n ?? 0);
}

/** The header's badge for anyone: a customer's unread answers, the desk's open tickets, or null. */
export async function unreadTicketsFor(db: Db, who: { id: string; role: string }) {
  if (who.role === 'customer') return customerUnreadTickets(db, who.id);
  return staffCan(who.role, 'tickets') ? openTicketCount(db) : null;
}

/** The desk's staff (admin and support), by name: who a ticket can be assigned to. */
export async function listAssignees(db: Db): Promise<TicketAssigneeList> {
  const rows = await db
    .select({ id: user.id, name: user.name })
    .from(user)
    .where(and(inArray(user.role, [...STAFF_AREAS.tickets]), isNull(user.deletedAt)))
    .orderBy(asc(user.name), asc(user.id));
  return { items: rows };
}

// ─── Writing ────────────────────────────────────────────────────────────────────────────────

async function insertMessage(
  tx: Tx,
  input: {
    ticketId: string;
    authorKind: 'customer' | 'staff' | 'system';
    authorId: string | null;
    body: string;
    internal?: boolean;
    files?: CheckedTicketFile[];
  },
): Promise<string> {
  const [message] = await tx
    .insert(ticketMessage)
    .values({
      ticketId: input.ticketId,
      authorKind: input.authorKind,
      authorId: input.authorId,
      body: input.body,
      internal: input.internal ?? false,
    })
    .returning({ id: ticketMessage.id });
  if (!message) throw new Error('ticket_message insert returned nothing');
  // The files keep the order they were given in: one millisecond apart.
  const base = Date.now();
  if (input.files?.length)
    await tx.insert(ticketAttachment).values(
      input.files.map((f, i) => ({
        ticketId: input.ticketId,
        messageId: message.id,
        name: f.name,
        contentType: f.contentType,
        size: f.size,
        sha256: f.sha256,
        data: f.data,
        createdAt: new Date(base + i),
      })),
    );
  return message.id;
}

/** The ticket locked for a change; a customer's view (`userId`) finds only their own. */
async function lockTicket(tx: Tx, id: string, userId: string | null) {
  const [row] = await tx
    .select({
      id: ticket.id,
      number: ticket.number,
      userId: ticket.userId,
      subject: ticket.subject,
      category: ticket.category,
      state: ticket.state,
      assigneeId: ticket.assigneeId,
    })
    .from(ticket)
    .where(and(eq(ticket.id, id), userId ? eq(ticket.userId, userId) : undefined))
    .for('update');
  if (!row) throw new AppError('NOT_FOUND', NOT_FOUND);
  return { ...row, number: Number(row.number), state: row.state as TicketState };
}

/** Where a customer's message goes by e-mail: the assignee, or the shop's inbox. */
async function staffRecipient(deps: TicketDeps, assigneeId: string | null): Promise<string | null> {
  if (assigneeId) {
    const [row] = await deps.db
      .select({ email: user.email })
      .from(user)
      .where(eq(user.id, assigneeId));
    if (row) return row.email;
  }
  return deps.env.CONTACT_EMAIL ?? deps.env.ADMIN_EMAIL ?? null;
}

function mailStaff(
  deps: TicketDeps,
  input: {
    isNew: boolean;
    ticket: { id: string; number: number; subject: string; category: string };
    assigneeId: string | null;
    customer: { name: string; email: string };
    body: string;
    attachments: number;
  },
): void {
  mailAfterCommit(deps, 'ticket to staff', { ticketId: input.ticket.id }, async () => {
    const to = await staffRecipient(deps, input.assigneeId);
    if (!to) {
      deps.logger.warn(
        { ticketId: input.ticket.id },
        'ticket message stored; no assignee, CONTACT_EMAIL or ADMIN_EMAIL to notify',
      );
      return null;
    }
    return ticketFromCustomerEmail({
      appName: deps.env.APP_NAME,
      appUrl: deps.env.APP_URL,
      to,
      ticket: input.ticket,
      body: input.body,
      attachments: input.attachments,
      isNew: input.isNew,
      customer: input.customer,
      category: input.ticket.category as TicketCategory,
    });
  });
}

/** The linked orders must be the customer's own; 404 names the first that is not. */
async function checkOwnOrders(tx: Tx, userId: string, orderIds: string[]): Promise<string[]> {
  const ids = [...new Set(orderIds)];
  if (ids.length === 0) return ids;
  const rows = await tx
    .select({ id: order.id })
    .from(order)
    .where(and(inArray(order.id, ids), eq(order.userId, userId)));
  const own = new Set(rows.map((r) => r.id));
  const missing = ids.find((id) => !own.has(id));
  if (missing) {
    const message = 'Alguna de las órdenes vinculadas no existe o no es tuya.';
    throw new AppError('VALIDATION_FAILED', message, { orderIds: message });
  }
  return ids;
}

/** A customer opens a ticket: the ticket, its first message and files, one `notify` job. */
export async function createTicket(
  deps: TicketDeps,
  customer: { id: string; name: string; email: string },
  input: { subject: string; category: TicketCategory; orderIds?: string[]; message: string },
  files: CheckedTicketFile[],
): Promise<CreatedTicket> {
  const created = await deps.db.transaction(async (tx) => {
    const orderIds = await checkOwnOrders(tx, customer.id, input.orderIds ?? []);
    const [row] = await tx
      .insert(ticket)
      .values({
        userId: customer.id,
        subject: input.subject,
        category: input.category,
        state: 'open',
        lastMessageAt: sql`now()`,
        lastCustomerMessageAt: sql`now()`,
        customerReadAt: sql`now()`,
      })
      .returning({ id: ticket.id, number: ticket.number, state: ticket.state });
    if (!row) throw new Error('ticket insert returned nothing');
    if (orderIds.length)
      await tx
        .insert(ticketOrder)
        .values(orderIds.map((orderId) => ({ ticketId: row.id, orderId })));
    await insertMessage(tx, {
      ticketId: row.id,
      authorKind: 'customer',
      authorId: customer.id,
      body: input.message,
      files,
    });
    await queueNotification(tx, { kind: 'ticket.new', ticketId: row.id });
    return { id: row.id, number: Number(row.number), state: row.state as TicketState };
  });
  mailStaff(deps, {
    isNew: true,
    ticket: { ...created, subject: input.subject, category: input.category },
    assigneeId: null,
    customer,
    body: input.message,
    attachments: files.length,
  });
  return created;
}

/**
 * The customer writes in their ticket: it goes back to «open» (the shop's turn). A closed ticket
 * must be reopened first (409).
 */
export async function customerReply(
  deps: TicketDeps,
  customer: { id: string; name: string; email: string },
  id: string,
  body: string,
  files: CheckedTicketFile[],
): Promise<TicketMessageDto> {
  const { t, messageId } = await deps.db.transaction(async (tx) => {
    const t = await lockTicket(tx, id, customer.id);
    if (t.state === 'closed')
      throw new AppError('CONFLICT', 'El ticket está cerrado. Reábrelo para escribir de nuevo.');
    const messageId = await insertMessage(tx, {
      ticketId: t.id,
      authorKind: 'customer',
      authorId: customer.id,
      body,
      files,
    });
    await tx
      .update(ticket)
      .set({
        state: 'open',
        lastMessageAt: sql`now()`,
        lastCustomerMessageAt: sql`now()`,
        customerReadAt: sql`now()`,
        updatedAt: sql`now()`,
      })
      .where(eq(ticket.id, t.id));
    await queueNotification(tx, { kind: 'ticket.reply', ticketId: t.id, messageId });
    return { t, messageId };
  });
  mailStaff(deps, {
    isNew: false,
    ticket: t,
    assigneeId: t.assigneeId,
    customer,
    body,
    attachments: files.length,
  });
  return messageDto(deps.db, t.id, messageId, 'customer');
}

async function messageDto(
  db: Db,
  ticketId: string,
  messageId: string,
  viewer: Viewer,
): Promise<TicketMessageDto> {
  const found = (await messagesOf(db, ticketId, viewer)).find((m) => m.id === messageId);
  if (!found) throw new AppError('INTERNAL');
  return found;
}

function stateChange(state: TicketState) {
  return state === 'closed'
    ? { state, closedAt: sql`COALESCE(${ticket.closedAt}, now())` }
    : { state, closedAt: null };
}

/** The customer closes their ticket (409 when it is closed already). */
export async function customerClose(db: Db, userId: string, id: string): Promise<TicketDetail> {
  await db.transaction(async (tx) => {
    const t = await lockTicket(tx, id, userId);
    if (t.state === 'closed') throw new AppError('CONFLICT', 'El ticket ya está cerrado.');
    await tx
      .update(ticket)
      .set({ ...stateChange('closed'), updatedAt: sql`now()` })
      .where(eq(ticket.id, t.id));
  });
  return getMyTicket(db, userId, id);
}

/** The customer reopens their closed ticket: it waits for the shop again (409 when open). */
export async function customerReopen(db: Db, userId: string, id: string): Promise<TicketDetail> {
  await db.transaction(async (tx) => {
    const t = await lockTicket(tx, id, userId);
    if (t.state !== 'closed') throw new AppError('CONFLICT', 'El ticket no está cerrado.');
    await tx
      .update(ticket)
      .set({ ...stateChange('open'), updatedAt: sql`now()` })
      .where(eq(ticket.id, t.id));
  });
  return getMyTicket(db, userId, id);
}

/**
 * Staff write in a ticket. An internal note changes nothing else (no state, no e-mail, no
 * notification; audited). A public answer sets the state (`answered` unless `state` says
 * otherwise), the first-response time, notifies and e-mails the customer.
 */
export async function staffReply(
  deps: TicketDeps,
  staff: { id: string; name: string },
  id: string,
  input: { body: string; internal: boolean; state?: TicketState },
  files: CheckedTicketFile[],
  ip: string | null,
): Promise<TicketMessageDto> {
  if (!input.internal && input.state === 'open') {
    const message =
      'Tras una respuesta el ticket queda respondido, esperando al cliente o cerrado.';
    throw new AppError('VALIDATION_FAILED', message, { state: message });
  }
  const { t, messageId } = await deps.db.transaction(async (tx) => {
    const t = await lockTicket(tx, id, null);
    const messageId = await insertMessage(tx, {
      ticketId: t.id,
      authorKind: 'staff',
      authorId: staff.id,
      body: input.body,
      internal: input.internal,
      files,
    });
    if (input.internal) {
      await tx
        .update(ticket)
        .set({ staffReadAt: sql`now()`, updatedAt: sql`now()` })
        .where(eq(ticket.id, t.id));
      await recordAudit(tx, {
        actorId: staff.id,
        action: 'ticket.note',
        targetType: 'ticket',
        targetId: t.id,
        after: { messageId, attachments: files.length },
        ipAddress: ip,
      });
      return { t, messageId };
    }
    const state = input.state ?? 'answered';
    await tx
      .update(ticket)
      .set({
        ...stateChange(state),
        lastMessageAt: sql`now()`,
        lastStaffMessageAt: sql`now()`,
        firstResponseAt: sql`COALESCE(${ticket.firstResponseAt}, now())`,
        staffReadAt: sql`now()`,
        updatedAt: sql`now()`,
      })
      .where(eq(ticket.id, t.id));
    if (state !== t.state && (input.state !== undefined || t.state === 'closed'))
      await recordAudit(tx, {
        actorId: staff.id,
        action: 'ticket.state',
        targetType: 'ticket',
        targetId: t.id,
        before: { state: t.state },
        after: { state, messageId },
        ipAddress: ip,
      });
    await queueNotification(tx, { kind: 'ticket.reply', ticketId: t.id, messageId });
    return { t, messageId };
  });
  if (!input.internal) {
    mailAfterCommit(deps, 'ticket answer', { ticketId: t.id }, async () => {
      const [customer] = await deps.db
        .select({ email: user.email, name: user.name })
        .from(user)
        .where(eq(user.id, t.userId));
      if (!customer) return null;
      return ticketAnsweredEmail({
        appName: deps.env.APP_NAME,
        appUrl: deps.env.APP_URL,
        to: customer.email,
        ticket: t,
        body: input.body,
        attachments: files.length,
        customerName: customer.name,
        staffName: staff.name,
      });
    });
  }
  return messageDto(deps.db, t.id, messageId, 'staff');
}

/** Staff change the state or the assignee (someone of the desk, or nobody); audited. */
export async function updateTicket(
  db: Db,
  staffId: string,
  id: string,
  input: { state?: TicketState; assigneeId?: string | null },
  ip: string | null,
): Promise<StaffTicketSummary> {
  await db.transaction(async (tx) => {
    const t = await lockTicket(tx, id, null);
    if (input.assigneeId) {
      const [member] = await tx
        .select({ role: user.role })
        .from(user)
        .where(and(eq(user.id, input.assigneeId), isNull(user.deletedAt)));
      if (!member || !staffCan(member.role, 'tickets')) {
        const message = 'Esa persona no atiende el soporte: elige a alguien del equipo de soporte.';
        throw new AppError('VALIDATION_FAILED', message, { assigneeId: message });
      }
    }
    const changes: Record<string, unknown> = {};
    const before: Record<string, unknown> = {};
    if (input.state !== undefined && input.state !== t.state) {
      Object.assign(changes, stateChange(input.state));
      before.state = t.state;
    }
    if (input.assigneeId !== undefined && input.assigneeId !== t.assigneeId) {
      changes.assigneeId = input.assigneeId;
      before.assigneeId = t.assigneeId;
    }
    if (Object.keys(before).length === 0) return;
    await tx
      .update(ticket)
      .set({ ...changes, updatedAt: sql`now()` })
      .where(eq(ticket.id, t.id));
    const after: Record<string, unknown> = {};
    if ('state' in before) after.state = input.state;
    if ('assigneeId' in before) after.assigneeId = input.assigneeId;
    await recordAudit(tx, {
      actorId: staffId,
      action: 'assigneeId' in before && !('state' in before) ? 'ticket.assign' : 'ticket.update',
      targetType: 'ticket',
      targetId: t.id,
      before,
      after,
      ipAddress: ip,
    });
  });
  return staffSummary(db, id);
}

/** Closes the chosen tickets that are not closed yet, one audit row each. */
export async function bulkCloseTickets(
  db: Db,
  staffId: string,
  ids: string[],
  ip: string | null,
): Promise<BulkCloseTicketsResult> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(ticket)
      .set({ ...stateChange('closed'), updatedAt: sql`now()` })
      .where(and(inArray(ticket.id, [...new Set(ids)]), sql`${ticket.state} <> 'closed'`))
      .returning({ id: ticket.id });
    const closed = rows.map((r) => r.id);
    for (const targetId of closed)
      await recordAudit(tx, {
        actorId: staffId,
        action: 'ticket.bulk_close',
        targetType: 'ticket',
        targetId,
        after: { state: 'closed' },
        ipAddress: ip,
      });
    return { closed: closed.length, ids: closed };
  });
}

export const AUTO_CLOSE_MESSAGE = `Cerramos este ticket automáticamente porque no tuvimos noticias tuyas en ${TICKET_AUTO_CLOSE_DAYS} días desde nuestra última respuesta. Si aún necesitas ayuda, puedes reabrirlo.`;

/**
 * The periodic sweep: answered or waiting tickets idle `days` after the last staff answer close
 * themselves, with a system message. Returns how many it closed.
 */
export async function autoCloseTickets(
  db: Db,
  days = TICKET_AUTO_CLOSE_DAYS,
  batch = 200,
): Promise<number> {
  let total = 0;
  for (;;) {
    const closed = await db.transaction(async (tx) => {
      const rows = await tx
        .select({ id: ticket.id })
        .from(ticket)
        .where(
          and(
            inArray(ticket.state, ['answered', 'waiting_customer']),
            sql`${ticket.lastStaffMessageAt} < now() - make_interval(days => ${days})`,
          ),
        )
        .orderBy(asc(ticket.lastStaffMessageAt))
        .limit(batch)
        .for('update', { skipLocked: true });
      for (const { id } of rows) {
        await insertMessage(tx, {
          ticketId: id,
          authorKind: 'system',
          authorId: null,
          body: AUTO_CLOSE_MESSAGE,
        });
        await tx
          .update(ticket)
          .set({ ...stateChange('closed'), lastMessageAt: sql`now()`, updatedAt: sql`now()` })
          .where(eq(ticket.id, id));
        await recordAudit(tx, {
          actorId: null,
          action: 'ticket.auto_close',
          targetType: 'ticket',
          targetId: id,
          after: { state: 'closed', days },
        });
      }
      return rows.length;
    });
    total += closed;
    if (closed < batch) return total;
  }
}

/** An attachment's bytes, for the people in the ticket; anything else answers 404. */
export async function ticketAttachmentForDownload(
  db: Db,
  ticketId: string,
  attachmentId: string,
  customerId: string | null,
): Promise<{ name: string; contentType: string; size: number; data: Buffer }> {
  const [row] = await db
    .select({
      name: ticketAttachment.name,
      contentType: ticketAttachment.contentType,
      size: ticketAttachment.size,
      data: ticketAttachment.data,
    })
    .from(ticketAttachment)
    .innerJoin(ticket, eq(ticket.id, ticketAttachment.ticketId))
    .innerJoin(ticketMessage, eq(ticketMessage.id, ticketAttachment.messageId))
    .where(
      and(
        eq(ticketAttachment.id, attachmentId),
        eq(ticketAttachment.ticketId, ticketId),
        // A customer: only their own ticket's files, never those of internal notes.
        customerId ? eq(ticket.userId, customerId) : undefined,
        customerId ? eq(ticketMessage.internal, false) : undefined,
      ),
    );
  if (!row) throw new AppError('NOT_FOUND', 'El archivo no existe.');
  return row;
}

// ─── The customer's own data (export, account deletion) ────────────────────────────────────

/** The customer's tickets for their data export: public messages, files described. */
export async function exportTicketsOf(db: Db, userId: string) {
  const rows = await db
    .select({
      id: ticket.id,
      number: ticket.number,
      subject: ticket.subject,
      category: ticket.category,
      state: ticket.state,
      createdAt: ticket.createdAt,
      closedAt: ticket.closedAt,
    })
    .from(ticket)
    .where(eq(ticket.userId, userId))
    .orderBy(asc(ticket.createdAt));
  const out = [];
  for (const r of rows) {
    const messages = await messagesOf(db, r.id, 'customer');
    out.push({
      number: Number(r.number),
      subject: r.subject,
      category: r.category,
      state: r.state,
      createdAt: r.createdAt.toISOString(),
      closedAt: r.closedAt?.toISOString() ?? null,
      messages: messages.map((m) => ({
        from: m.authorKind,
        body: m.body,
        createdAt: m.createdAt,
        files: m.attachments.map((a) => ({
          name: a.name,
          contentType: a.contentType,
          size: a.size,
        })),
      })),
    });
  }
  return out;
}

/**
 * A deleted account's tickets go with it (messages, files and links cascade): they are the
 * person's own words and files, not accounting records.
 */
export async function deleteTicketsOf(tx: Tx, userId: string): Promise<void> {
  await tx.delete(ticket).where(eq(ticket.userId, userId));
}

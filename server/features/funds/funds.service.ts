import { staffCan } from '../../../shared/roles';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import { feeFor, formatPercent, parsePercent } from '../../../shared/fees';
import { formatAmount, formatUsd, parseAmount } from '../../../shared/money';
import { PAYMENT_METHOD_LABELS, type PaymentDto } from '../../../shared/schemas/wallet';
import type { Db, Tx } from '../../db/client';
import { user } from '../../db/schema/auth';
import { manualMethod, payment } from '../../db/schema/payments';
import { AppError } from '../../lib/errors';
import { mailAfterCommit } from '../../lib/notify';
import type { Logger } from '../../lib/logger';
import type { MailMessage, Mailer } from '../../lib/mail';
import { recordAudit } from '../audit/audit.service';
import { balances } from '../ledger/ledger.service';
import {
  completePayment,
  paymentDto,
  rejectPayment,
  toPaymentDto,
  type PaymentRow,
} from '../payments/payments.service';
import { topUpApprovedEmail, topUpRejectedEmail, type TopUpMailInput } from './funds.emails';
import {
  MAX_PENDING_REQUESTS,
  MIN_OVER_MAX_MESSAGE,
  type AdminRequestDto,
  type AdminRequestStatus,
  type ApproveResult,
  type MethodDto,
  type PublicMethodDto,
  type RejectResult,
  type CreateMethodInput,
  type ManualRequestInput,
  type UpdateMethodInput,
} from '../../../shared/schemas/funds';
import {
  checkReceipt,
  openReceipt,
  removeReceipt,
  storeReceipt,
  type ReceiptUpload,
} from './receipts';
import { queueNotification } from '../notifications/events';

type MethodRow = typeof manualMethod.$inferSelect;

/** Where the review e-mails go from; optional so the service can be used without mail. */
export type ReviewNotifier = {
  mailer: Mailer;
  logger: Logger;
  appName: string;
  appUrl: string;
};

export type Requester = { id: string; role: string };

const METHOD_UNAVAILABLE = 'Ese método de pago no está disponible.';
const METHOD_NOT_FOUND = 'Ese método de pago no existe.';
const REQUEST_NOT_FOUND = 'Esa solicitud no existe.';
const OWN_REQUEST = 'No puedes revisar una solicitud tuya.';
const LIST_LIMIT = 200;
const MANUAL_LABEL = PAYMENT_METHOD_LABELS.manual;

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The method id of a declaration reaches SQL only in uuid shape: anything else is simply "not
 * available", never a 500. (Ids in paths are checked by the route's `idParams`.)
 */
function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}

function cents(amount: string): bigint {
  const value = parseAmount(amount);
  if (value === null)
    throw new AppError('VALIDATION_FAILED', undefined, { amount: 'Escribe un importe válido.' });
  return value;
}

/** A percentage the schema already checked, as hundredths of a percent. */
function percentBp(text: string, field: string): number {
  const bp = parsePercent(text);
  if (bp === null)
    throw new AppError('VALIDATION_FAILED', undefined, {
      [field]: 'Escribe un porcentaje válido.',
    });
  return bp;
}

/** A fixed fee the schema already checked (zero allowed), as cents. */
function feeCents(text: string): bigint {
  const value = parseAmount(text);
  if (value === null || value < 0n)
    throw new AppError('VALIDATION_FAILED', undefined, {
      feeFixed: 'Escribe una comisión fija válida.',
    });
  return value;
}

function toMethodDto(row: MethodRow): MethodDto {
  return {
    id: row.id,
    name: row.name,
    instructions: row.instructions,
    minAmount: formatAmount(row.minAmount),
    maxAmount: formatAmount(row.maxAmount),
    fee: { percent: formatPercent(row.feePercentBp), fixed: formatAmount(row.feeFixed) },
    active: row.active,
    sortOrder: row.sortOrder,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toPublicMethodDto(method: MethodDto): PublicMethodDto {
  return {
    id: method.id,
    name: method.name,
    instructions: method.instructions,
    minAmount: method.minAmount,
    maxAmount: method.maxAmount,
    fee: method.fee,
  };
}

/** The PaymentDto of a manual request whose method name is already known (lists, no N+1). */
function toRequestDto(row: PaymentRow, methodName: string): PaymentDto {
  // Requests in these lists are not credited yet: they have no receipts.
  return paymentDto(row, methodName, []);
}

// ─── Methods (admin) ─────────────────────────────────────────────────────────────────────────

export async function listMethods(db: Db, options: { activeOnly: boolean }): Promise<MethodDto[]> {
  const rows = await db
    .select()
    .from(manualMethod)
    .where(options.activeOnly ? eq(manualMethod.active, true) : undefined)
    .orderBy(asc(manualMethod.sortOrder), asc(manualMethod.name), asc(manualMethod.id));
  return rows.map(toMethodDto);
}

export async function createMethod(
  db: Db,
  adminId: string,
  input: CreateMethodInput,
  ip: string,
): Promise<MethodDto> {
  const minAmount = cents(input.minAmount);
  const maxAmount = cents(input.maxAmount);
  if (minAmount > maxAmount) {
    throw new AppError('VALIDATION_FAILED', undefined, { maxAmount: MIN_OVER_MAX_MESSAGE });
  }
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(manualMethod)
      .values({
        name: input.name,
        instructions: input.instructions,
        minAmount,
        maxAmount,
        active: input.active,
        sortOrder: input.sortOrder,
        feePercentBp: percentBp(input.feePercent, 'feePercent'),
        feeFixed: feeCents(input.feeFixed),
      })
      .returning();
    if (!row) throw new Error('manual_method insert returned no row');
    const dto = toMethodDto(row);
    await recordAudit(tx, {
      actorId: adminId,
      action: 'manual_method.create',
      targetType: 'manual_method',
      targetId: row.id,
      before: null,
      after: dto,
      ipAddress: ip,
    });
    return dto;
  });
}

export async function updateMethod(
  db: Db,
  adminId: string,
  id: string,
  input: UpdateMethodInput,
  ip: string,
): Promise<MethodDto> {
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(manualMethod)
      .where(eq(manualMethod.id, id))
      .for('update');
    if (!current) throw new AppError('NOT_FOUND', METHOD_NOT_FOUND);
    const minAmount = input.minAmount === undefined ? current.minAmount : cents(input.minAmount);
    const maxAmount = input.maxAmount === undefined ? current.maxAmount : cents(input.maxAmount);
    if (minAmount > maxAmount) {
      const field = input.maxAmount === undefined ? 'minAmount' : 'maxAmount';
      throw new AppError('VALIDATION_FAILED', undefined, { [field]: MIN_OVER_MAX_MESSAGE });
    }
    const [row] = await tx
      .update(manualMethod)
      .set({
        ...(input.name === undefined ? {} : { name: input.name }),
        ...(input.instructions === undefined ? {} : { instructions: input.instructions }),
        ...(input.active === undefined ? {} : { active: input.active }),
        ...(input.sortOrder === undefined ? {} : { sortOrder: input.sortOrder }),
        ...(input.feePercent === undefined
          ? {}
          : { feePercentBp: percentBp(input.feePercent, 'feePercent') }),
        ...(input.feeFixed === undefined ? {} : { feeFixed: feeCents(input.feeFixed) }),
        minAmount,
        maxAmount,
        updatedAt: new Date(),
      })
      .where(eq(manualMethod.id, id))
      .returning();
    if (!row) throw new Error('manual_method update returned no row');
    const after = toMethodDto(row);
    await recordAudit(tx, {
      actorId: adminId,
      action: 'manual_method.update',
      targetType: 'manual_method',
      targetId: id,
      before: toMethodDto(current),
      after,
      ipAddress: ip,
    });
    return after;
  });
}

// ─── Customer requests ───────────────────────────────────────────────────────────────────────

/**
 * Records a declared manual payment as a pending request (no money moves until an admin
 * approves it). The pending-count check and the insert run under a per-customer lock, so
 * concurrent requests cannot get past the limit. The receipt file is written (temp name, then
 * rename) inside that transaction and deleted again if the transaction does not commit.
 */
export async function createRequest(
  db: Db,
  userId: string,
  input: ManualRequestInput,
  receipt: ReceiptUpload | null | undefined,
  dataDir: string,
): Promise<PaymentDto> {
  if (!isUuid(input.methodId)) throw new AppError('NOT_FOUND', METHOD_UNAVAILABLE);
  const [method] = await db
    .select()
    .from(manualMethod)
    .where(and(eq(manualMethod.id, input.methodId), eq(manualMethod.active, true)));
  if (!method) throw new AppError('NOT_FOUND', METHOD_UNAVAILABLE);
  const amount = cents(input.amount);
  if (amount < method.minAmount) {
    throw new AppError('VALIDATION_FAILED', undefined, {
      amount: `El mínimo para ${method.name} es ${formatUsd(method.minAmount)}.`,
    });
  }
  if (amount > method.maxAmount) {
    throw new AppError('VALIDATION_FAILED', undefined, {
      amount: `El máximo para ${method.name} es ${formatUsd(method.maxAmount)}.`,
    });
  }
  const checked = receipt ? checkReceipt(receipt) : null;
  const id = randomUUID();
  const stored: { path?: string } = {};
  try {
    const row = await db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`manual-request:${userId}`}))`);
      const [pending] = await tx
        .select({ n: count() })
        .from(payment)
        .where(
          and(
            eq(payment.userId, userId),
            eq(payment.method, 'manual'),
            eq(payment.status, 'pending'),
          ),
        );
      if ((pending?.n ?? 0) >= MAX_PENDING_REQUESTS) {
        throw new AppError(
          'CONFLICT',
          `Ya tienes ${MAX_PENDING_REQUESTS} solicitudes pendientes de revisión.`,
        );
      }
      if (checked) stored.path = await storeReceipt(dataDir, id, checked);
      const [inserted] = await tx
        .insert(payment)
        .values({
          id,
          userId,
          method: 'manual',
          manualMethodId: method.id,
          amount,
          // The customer declares what their balance receives and sends it plus the fee.
          fee: feeFor(amount, { feePercentBp: method.feePercentBp, feeFixed: method.feeFixed }),
          status: 'pending',
          reference: input.reference,
          receiptPath: stored.path ?? null,
          receiptMime: checked?.kind.mime ?? null,
        })
        .returning();
      if (!inserted) throw new Error('payment insert returned no row');
      await queueNotification(tx, { kind: 'payment.pending', paymentId: inserted.id });
      return inserted;
    });
    return toRequestDto(row, method.name);
  } catch (err) {
    if (stored.path) await removeReceipt(dataDir, stored.path);
    throw err;
  }
}

/** The customer's own manual requests, newest first. */
export async function listRequests(db: Db, userId: string): Promise<PaymentDto[]> {
  const rows = await db
    .select({ payment, methodName: manualMethod.name })
    .from(payment)
    .leftJoin(manualMethod, eq(manualMethod.id, payment.manualMethodId))
    .where(and(eq(payment.userId, userId), eq(payment.method, 'manual')))
    .orderBy(desc(payment.createdAt), desc(payment.id))
    .limit(LIST_LIMIT);
  return rows.map((r) => toRequestDto(r.payment, r.methodName ?? MANUAL_LABEL));
}

// ─── Admin review ────────────────────────────────────────────────────────────────────────────

/** Manual requests in one status with their customer; pending ones oldest first (a queue). */
export async function listRequestsByStatus(
  db: Db,
  status: AdminRequestStatus,
): Promise<AdminRequestDto[]> {
  const rows = await db
    .select({
      payment,
      methodName: manualMethod.name,
      customer: { id: user.id, name: user.name, email: user.email },
    })
    .from(payment)
    .innerJoin(user, eq(user.id, payment.userId))
    .leftJoin(manualMethod, eq(manualMethod.id, payment.manualMethodId))
    .where(and(eq(payment.method, 'manual'), eq(payment.status, status)))
    .orderBy(
      status === 'pending' ? asc(payment.createdAt) : desc(payment.createdAt),
      asc(payment.id),
    )
    .limit(LIST_LIMIT);
  return rows.map((r) => ({
    ...toRequestDto(r.payment, r.methodName ?? MANUAL_LABEL),
    customer: r.customer,
    methodId: r.payment.manualMethodId,
  }));
}

export function listPending(db: Db): Promise<AdminRequestDto[]> {
  return listRequestsByStatus(db, 'pending');
}

/** Loads a manual request for review inside `tx`: 404 if it is not one, 403 if it is the admin's own. */
async function requestForReview(tx: Tx, adminId: string, paymentId: string): Promise<PaymentRow> {
  const [row] = await tx
    .select()
    .from(payment)
    .where(and(eq(payment.id, paymentId), eq(payment.method, 'manual')));
  if (!row) throw new AppError('NOT_FOUND', REQUEST_NOT_FOUND);
  if (row.userId === adminId) throw new AppError('FORBIDDEN', OWN_REQUEST);
  return row;
}

function notPendingError(status: string, action: 'approve' | 'reject'): AppError {
  if (status === 'completed') {
    return new AppError(
      'CONFLICT',
      action === 'approve'
        ? 'Esta solicitud ya fue aprobada.'
        : 'Esta solicitud ya fue aprobada y no se puede rechazar.',
    );
  }
  if (status === 'rejected') {
    return new AppError(
      'CONFLICT',
      action === 'reject'
        ? 'Esta solicitud ya fue rechazada.'
        : 'Esta solicitud ya fue rechazada y no se puede aprobar.',
    );
  }
  return new AppError('CONFLICT', 'Esta solicitud ya no está pendiente.');
}

async function customerOf(db: Db, userId: string): Promise<{ name: string; email: string }> {
  const [row] = await db
    .select({ name: user.name, email: user.email })
    .from(user)
    .where(eq(user.id, userId));
  if (!row) throw new Error(`payment owner ${userId} not found`);
  return row;
}

async function methodNameOf(db: Db, row: PaymentRow): Promise<string> {
  if (!row.manualMethodId) return MANUAL_LABEL;
  const [m] = await db
    .select({ name: manualMethod.name })
    .from(manualMethod)
    .where(eq(manualMethod.id, row.manualMethodId));
  return m?.name ?? MANUAL_LABEL;
}

/** Sends a review e-mail after the commit; a failure is logged and never undoes the review. */
function notifyCustomer(
  db: Db,
  notify: ReviewNotifier | undefined,
  row: PaymentRow,
  build: (base: TopUpMailInput) => MailMessage,
): void {
  if (!notify) return;
  mailAfterCommit(notify, 'top-up review', { paymentId: row.id }, async () => {
    const customer = await customerOf(db, row.userId);
    return build({
      appName: notify.appName,
      appUrl: notify.appUrl,
      to: customer.email,
      name: customer.name,
      amount: row.amount,
      methodName: await methodNameOf(db, row),
      reference: row.reference,
    });
  });
}

/**
 * Approves a pending manual request: completePayment (the only code that credits, exactly once)
 * and the audit row commit together. Concurrent or repeated approvals find it no longer pending
 * and get 409 without moving money.
 */
export async function approve(
  db: Db,
  adminId: string,
  paymentId: string,
  ip: string,
  notify?: ReviewNotifier,
): Promise<ApproveResult> {
  const outcome = await db.transaction(async (tx) => {
    const current = await requestForReview(tx, adminId, paymentId);
    if (current.status !== 'pending') throw notPendingError(current.status, 'approve');
    const result = await completePayment(tx, paymentId, { actorId: adminId });
    if (!result.credited) throw notPendingError(result.payment.status, 'approve');
    await recordAudit(tx, {
      actorId: adminId,
      action: 'payment.approve',
      targetType: 'payment',
      targetId: paymentId,
      before: { status: current.status, amount: formatAmount(current.amount) },
      after: {
        status: result.payment.status,
        amount: formatAmount(result.payment.amount),
        userId: result.payment.userId,
        transferId: result.payment.transferId,
      },
      ipAddress: ip,
    });
    const after = await balances(tx, result.payment.userId);
    return { row: result.payment, available: after.available };
  });
  notifyCustomer(db, notify, outcome.row, (base) =>
    topUpApprovedEmail({ ...base, balance: outcome.available }),
  );
  return {
    payment: await toPaymentDto(db, outcome.row),
    balance: formatAmount(outcome.available),
  };
}

/** Rejects a pending manual request with a reason (no money moves), audited. */
export async function reject(
  db: Db,
  adminId: string,
  paymentId: string,
  reason: string,
  ip: string,
  notify?: ReviewNotifier,
): Promise<RejectResult> {
  const row = await db.transaction(async (tx) => {
    const current = await requestForReview(tx, adminId, paymentId);
    if (current.status !== 'pending') throw notPendingError(current.status, 'reject');
    const result = await rejectPayment(tx, paymentId, reason, adminId);
    if (!result.rejected) throw notPendingError(result.payment.status, 'reject');
    await recordAudit(tx, {
      actorId: adminId,
      action: 'payment.reject',
      targetType: 'payment',
      targetId: paymentId,
      before: { status: current.status, amount: formatAmount(current.amount) },
      after: { status: result.payment.status, reason, userId: result.payment.userId },
      ipAddress: ip,
    });
    return result.payment;
  });
  notifyCustomer(db, notify, row, (base) => topUpRejectedEmail({ ...base, reason }));
  return { payment: await toPaymentDto(db, row) };
}

export type ReceiptFile = {
  stream: ReadableStream<Uint8Array>;
  size: number;
  mime: string;
  fileName: string;
};

/**
 * A request's receipt, for an admin or the customer who sent it. Anyone else, a request
 * without a receipt, or a file gone from disk: 404 (no hint that the request exists).
 */
export async function receiptFile(
  db: Db,
  requester: Requester,
  paymentId: string,
  dataDir: string,
): Promise<ReceiptFile> {
  const notFound = new AppError('NOT_FOUND', 'Ese comprobante no existe.');
  const [row] = await db
    .select({
      userId: payment.userId,
      receiptPath: payment.receiptPath,
      receiptMime: payment.receiptMime,
    })
    .from(payment)
    .where(and(eq(payment.id, paymentId), eq(payment.method, 'manual')));
  if (!row || !row.receiptPath || !row.receiptMime) throw notFound;
  // Staff who handle payments (admin, finance) read any receipt; support reads none.
  if (!staffCan(requester.role, 'money') && requester.id !== row.userId) throw notFound;
  const opened = await openReceipt(dataDir, row.receiptPath);
  if (!opened) throw notFound;
  const ext = row.receiptPath.slice(row.receiptPath.lastIndexOf('.') + 1);
  return {
    stream: Readable.toWeb(opened.handle.createReadStream()) as ReadableStream<Uint8Array>,
    size: opened.size,
    mime: row.receiptMime,
    fileName: `comprobante-${paymentId}.${ext}`,
  };
}

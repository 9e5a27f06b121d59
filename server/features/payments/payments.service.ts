import { and, asc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { formatAmount, formatUsd } from '../../../shared/money';
import type { PaymentDto, PaymentMethod, PaymentStatus } from '../../../shared/schemas/wallet';
import { PAYMENT_METHOD_LABELS } from '../../../shared/schemas/wallet';
import type { Db, Tx } from '../../db/client';
import {
  accountFlag,
  manualMethod,
  payment,
  paymentSettings,
  receipt,
} from '../../db/schema/payments';
import { AppError } from '../../lib/errors';
import { issueReceipt } from '../receipts/receipt-number';
import { queueNotification } from '../notifications/events';
import {
  balances,
  customerAccounts,
  systemAccount,
  transfer,
  type SystemAccount,
  type TransferKind,
} from '../ledger/ledger.service';

export type PaymentRow = typeof payment.$inferSelect;

const FUNDING: Record<PaymentMethod, { account: SystemAccount; kind: TransferKind; text: string }> =
  {
    stripe: { account: 'funding:stripe', kind: 'topup_stripe', text: 'Recarga con tarjeta' },
    paypal: { account: 'funding:paypal', kind: 'topup_paypal', text: 'Recarga con PayPal' },
    crypto: {
      account: 'funding:crypto',
      kind: 'topup_crypto',
      text: 'Recarga con criptomonedas',
    },
    mercadopago: {
      account: 'funding:mercadopago',
      kind: 'topup_mercadopago',
      text: 'Recarga con Mercado Pago',
    },
    manual: { account: 'funding:manual', kind: 'topup_manual', text: 'Recarga por pago manual' },
    voucher: { account: 'funding:voucher', kind: 'topup_voucher', text: 'Recarga con código' },
  };

/** The funding account and statement text of a method (reports and reversals read it too). */
export function fundingOf(method: PaymentMethod) {
  return FUNDING[method];
}

/**
 * Credits a pending (or held, when finance approves it) payment exactly once: the conditional
 * status change and the ledger transfer (idempotency key `payment:<id>`) commit together in
 * `tx`, with the top-up's numbered receipt. A second call, concurrent or later, finds the
 * payment no longer in those states and credits nothing.
 *
 * `credit` overrides the amount credited (a crypto invoice paid partly or over): the payment's
 * `amount` becomes what was credited.
 */
export async function completePayment(
  tx: Tx,
  paymentId: string,
  options: {
    actorId?: string | null;
    from?: readonly PaymentStatus[];
    credit?: bigint;
    note?: string | null;
  } = {},
): Promise<{ credited: boolean; payment: PaymentRow }> {
  const from = options.from ?? ['pending'];
  if (options.credit !== undefined && options.credit <= 0n)
    throw new Error('a credit must be positive');
  const [claimed] = await tx
    .update(payment)
    .set({
      status: 'completed',
      updatedAt: new Date(),
      ...(options.credit !== undefined ? { amount: options.credit } : {}),
      ...(options.note !== undefined ? { note: options.note } : {}),
      ...(options.actorId ? { reviewedBy: options.actorId, reviewedAt: new Date() } : {}),
    })
    .where(and(eq(payment.id, paymentId), inArray(payment.status, [...from])))
    .returning();
  if (!claimed) {
    const [current] = await tx.select().from(payment).where(eq(payment.id, paymentId));
    if (!current) throw new AppError('NOT_FOUND', 'El pago no existe.');
    return { credited: false, payment: current };
  }
  const method = claimed.method as PaymentMethod;
  const funding = FUNDING[method];
  const accounts = await customerAccounts(tx, claimed.userId);
  const result = await transfer(tx, {
    from: await systemAccount(tx, funding.account),
    to: accounts.available,
    amount: claimed.amount,
    kind: funding.kind,
    reference: { type: 'payment', id: claimed.id },
    idempotencyKey: `payment:${claimed.id}`,
    description: funding.text,
    actorId: options.actorId ?? null,
  });
  const [updated] = await tx
    .update(payment)
    .set({ transferId: result.transferId })
    .where(eq(payment.id, claimed.id))
    .returning();
  if (!result.replayed) {
    await issueReceipt(tx, {
      paymentId: claimed.id,
      transferId: result.transferId,
      userId: claimed.userId,
      method,
      amount: claimed.amount,
      fee: claimed.fee,
      chargedAmount: claimed.chargedAmount,
      chargedCurrency: claimed.chargedCurrency,
      description: funding.text,
    });
  }
  return { credited: true, payment: updated ?? claimed };
}

/** Rejects a pending (or held) payment: no money moves. Returns false when it was not. */
export async function rejectPayment(
  tx: Tx,
  paymentId: string,
  reason: string,
  actorId: string,
  from: readonly PaymentStatus[] = ['pending'],
): Promise<{ rejected: boolean; payment: PaymentRow }> {
  const [row] = await tx
    .update(payment)
    .set({
      status: 'rejected',
      rejectReason: reason,
      reviewedBy: actorId,
      reviewedAt: new Date(),
      updatedAt: new Date(),
    })
    .where(and(eq(payment.id, paymentId), inArray(payment.status, [...from])))
    .returning();
  if (row) return { rejected: true, payment: row };
  const [current] = await tx.select().from(payment).where(eq(payment.id, paymentId));
  if (!current) throw new AppError('NOT_FOUND', 'El pago no existe.');
  return { rejected: false, payment: current };
}

/** The methods whose first top-ups above the threshold wait for finance. */
const HELD_METHODS: readonly PaymentMethod[] = ['stripe', 'paypal'];

/** Why a paid top-up must wait for finance, or null when it may be credited now. */
export async function holdReasonFor(tx: Db | Tx, row: PaymentRow): Promise<string | null> {
  if (!HELD_METHODS.includes(row.method as PaymentMethod)) return null;
  const [settings] = await tx
    .select({ holdThreshold: paymentSettings.holdThreshold })
    .from(paymentSettings)
    .where(eq(paymentSettings.id, 1));
  const threshold = settings?.holdThreshold ?? null;
  if (threshold === null || row.amount <= threshold) return null;
  // "First": the account has never had a card or PayPal top-up credited.
  const [earlier] = await tx
    .select({ id: payment.id })
    .from(payment)
    .where(
      and(
        eq(payment.userId, row.userId),
        inArray(payment.method, [...HELD_METHODS]),
        inArray(payment.status, ['completed', 'reversed']),
        ne(payment.id, row.id),
      ),
    )
    .limit(1);
  if (earlier) return null;
  const label = row.method === 'stripe' ? 'tarjeta' : 'PayPal';
  return `Primera recarga con ${label} por encima de ${formatUsd(threshold)}: la revisamos antes de acreditarla.`;
}

export type SettleOutcome =
  | { kind: 'credited'; payment: PaymentRow }
  | { kind: 'held'; payment: PaymentRow }
  | { kind: 'not-pending'; payment: PaymentRow };

/**
 * A gateway confirmed that a pending top-up was paid (a verified notification or the capture's
 * answer): credit it now, or hold it for finance («En revisión») when the fraud rule applies.
 * Exactly once: the payment leaves 'pending' in this transaction, and any later confirmation
 * finds it gone ('not-pending').
 */
export async function settleTopup(
  tx: Tx,
  paymentId: string,
  options: {
    credit?: bigint;
    note?: string | null;
    providerPaymentId?: string | null;
    providerStatus?: string | null;
  } = {},
): Promise<SettleOutcome> {
  // Lock the row: the hold decision and the credit see one state. FOR NO KEY UPDATE (what the
  // UPDATE takes anyway) does not conflict with the KEY SHARE lock a concurrent delivery's
  // processed_event row takes through its foreign key, so deliveries queue instead of deadlocking.
  const [row] = await tx
    .select()
    .from(payment)
    .where(eq(payment.id, paymentId))
    .for('no key update');
  if (!row) throw new AppError('NOT_FOUND', 'El pago no existe.');
  if (row.status !== 'pending') return { kind: 'not-pending', payment: row };
  const provider = {
    ...(options.providerPaymentId !== undefined
      ? { providerPaymentId: options.providerPaymentId }
      : {}),
    ...(options.providerStatus !== undefined ? { providerStatus: options.providerStatus } : {}),
  };
  if (Object.keys(provider).length > 0)
    await tx.update(payment).set(provider).where(eq(payment.id, paymentId));
  const reason = await holdReasonFor(tx, {
    ...row,
    amount: options.credit ?? row.amount,
  });
  if (reason) {
    const [held] = await tx
      .update(payment)
      .set({
        status: 'review',
        holdReason: reason,
        updatedAt: new Date(),
        ...(options.credit !== undefined ? { amount: options.credit } : {}),
        ...(options.note !== undefined ? { note: options.note } : {}),
      })
      .where(and(eq(payment.id, paymentId), eq(payment.status, 'pending')))
      .returning();
    if (!held) throw new Error(`payment ${paymentId} changed under its lock`);
    // Finance hears of it (Telegram «Pago esperando aprobación»), in this same transaction.
    await queueNotification(tx, { kind: 'payment.pending', paymentId });
    return { kind: 'held', payment: held };
  }
  const result = await completePayment(tx, paymentId, {
    ...(options.credit !== undefined ? { credit: options.credit } : {}),
    ...(options.note !== undefined ? { note: options.note } : {}),
  });
  return result.credited
    ? { kind: 'credited', payment: result.payment }
    : { kind: 'not-pending', payment: result.payment };
}

/**
 * Credits more to a top-up already credited (a crypto invoice that received more after a
 * partial payment): one transfer per `key`, with its own receipt; the payment's amount grows.
 */
export async function supplementTopup(
  tx: Tx,
  paymentId: string,
  extra: bigint,
  key: string,
  note: string | null,
): Promise<{ credited: boolean; payment: PaymentRow }> {
  if (extra <= 0n) throw new Error('a supplement must be positive');
  const [row] = await tx
    .select()
    .from(payment)
    .where(eq(payment.id, paymentId))
    .for('no key update');
  if (!row) throw new AppError('NOT_FOUND', 'El pago no existe.');
  if (row.status !== 'completed') return { credited: false, payment: row };
  const method = row.method as PaymentMethod;
  const funding = FUNDING[method];
  const accounts = await customerAccounts(tx, row.userId);
  const result = await transfer(tx, {
    from: await systemAccount(tx, funding.account),
    to: accounts.available,
    amount: extra,
    kind: funding.kind,
    reference: { type: 'payment', id: row.id },
    idempotencyKey: `payment:${row.id}:${key}`,
    description: funding.text,
  });
  if (result.replayed) return { credited: false, payment: row };
  const [updated] = await tx
    .update(payment)
    .set({ amount: row.amount + extra, note, updatedAt: new Date() })
    .where(eq(payment.id, row.id))
    .returning();
  await issueReceipt(tx, {
    paymentId: row.id,
    transferId: result.transferId,
    userId: row.userId,
    method,
    amount: extra,
    fee: 0n,
    chargedAmount: null,
    chargedCurrency: null,
    description: `${funding.text} (pago adicional)`,
  });
  return { credited: true, payment: updated ?? row };
}

export type ReverseOutcome =
  | { kind: 'debited'; debited: bigint; flagged: boolean; payment: PaymentRow }
  | { kind: 'cancelled'; payment: PaymentRow }
  | { kind: 'nothing'; payment: PaymentRow };

/**
 * A refund or chargeback of a top-up (docs/domain.md "Payment gateways"). A credited top-up is
 * debited back, up to what it credited and not yet reversed, even past zero: the money has left
 * the shop. When that leaves the balance below zero (or below the credit line) the account is
 * flagged: blocked from ordering until finance clears it. A top-up not credited yet (pending,
 * held) is just closed as reversed. `key` is the provider's id of this refund (one debit each).
 * `amount` null = everything still credited.
 */
export async function reverseTopup(
  tx: Tx,
  paymentId: string,
  options: { amount: bigint | null; key: string; reason: string },
): Promise<ReverseOutcome> {
  const [row] = await tx
    .select()
    .from(payment)
    .where(eq(payment.id, paymentId))
    .for('no key update');
  if (!row) throw new AppError('NOT_FOUND', 'El pago no existe.');
  if (row.status === 'pending' || row.status === 'review') {
    const [closed] = await tx
      .update(payment)
      .set({ status: 'reversed', rejectReason: options.reason, updatedAt: new Date() })
      .where(eq(payment.id, row.id))
      .returning();
    return { kind: 'cancelled', payment: closed ?? row };
  }
  if (row.status !== 'completed' && row.status !== 'reversed')
    return { kind: 'nothing', payment: row };
  const remaining = row.amount - row.reversedAmount;
  const wanted = options.amount === null ? remaining : options.amount;
  const debit = wanted < remaining ? wanted : remaining;
  if (debit <= 0n) return { kind: 'nothing', payment: row };
  const method = row.method as PaymentMethod;
  const accounts = await customerAccounts(tx, row.userId);
  const result = await transfer(tx, {
    from: accounts.available,
    to: await systemAccount(tx, FUNDING[method].account),
    amount: debit,
    kind: 'topup_reversal',
    reference: { type: 'payment', id: row.id },
    idempotencyKey: `reversal:${row.id}:${options.key}`,
    description: `Reversión de recarga: ${options.reason}`,
  });
  if (result.replayed) return { kind: 'nothing', payment: row };
  const reversedAmount = row.reversedAmount + debit;
  const [updated] = await tx
    .update(payment)
    .set({
      reversedAmount,
      status: reversedAmount >= row.amount ? 'reversed' : 'completed',
      rejectReason: options.reason,
      updatedAt: new Date(),
    })
    .where(eq(payment.id, row.id))
    .returning();
  const { available } = await balances(tx, row.userId);
  let flagged = false;
  if (available < 0n) {
    const inserted = await tx
      .insert(accountFlag)
      .values({ userId: row.userId, paymentId: row.id, reason: options.reason })
      .onConflictDoNothing()
      .returning({ id: accountFlag.id });
    flagged = inserted.length > 0;
  }
  return { kind: 'debited', debited: debit, flagged, payment: updated ?? row };
}

/** The open flag that blocks the customer from ordering, or null. */
export async function openAccountFlag(
  db: Db | Tx,
  userId: string,
): Promise<{ id: string; reason: string } | null> {
  const [flag] = await db
    .select({ id: accountFlag.id, reason: accountFlag.reason })
    .from(accountFlag)
    .where(and(eq(accountFlag.userId, userId), isNull(accountFlag.clearedAt)))
    .limit(1);
  return flag ?? null;
}

/** The receipts issued for each payment (for PaymentDto), in one query. */
export async function receiptsOf(
  db: Db | Tx,
  paymentIds: readonly string[],
): Promise<Map<string, { id: string; number: string }[]>> {
  const found = new Map<string, { id: string; number: string }[]>();
  if (paymentIds.length === 0) return found;
  const rows = await db
    .select({ id: receipt.id, number: receipt.number, paymentId: receipt.paymentId })
    .from(receipt)
    .where(inArray(receipt.paymentId, [...paymentIds]))
    .orderBy(asc(receipt.issuedAt), asc(sql`${receipt.seq}`));
  for (const r of rows) {
    const list = found.get(r.paymentId) ?? [];
    list.push({ id: r.id, number: r.number });
    found.set(r.paymentId, list);
  }
  return found;
}

/** The DTO of a payment whose method name and receipts are already known (lists, no N+1). */
export function paymentDto(
  row: PaymentRow,
  methodName: string,
  receipts: { id: string; number: string }[],
): PaymentDto {
  return {
    id: row.id,
    method: row.method as PaymentMethod,
    methodName,
    amount: formatAmount(row.amount),
    fee: formatAmount(row.fee),
    status: row.status as PaymentStatus,
    reference: row.reference,
    rejectReason: row.rejectReason,
    note: row.note ?? (row.status === 'review' ? row.holdReason : null),
    hasReceipt: row.receiptPath !== null,
    receipts,
    createdAt: row.createdAt.toISOString(),
    reviewedAt: row.reviewedAt?.toISOString() ?? null,
  };
}

export async function toPaymentDto(db: Db | Tx, row: PaymentRow): Promise<PaymentDto> {
  let methodName: string = PAYMENT_METHOD_LABELS[row.method as PaymentMethod];
  if (row.manualMethodId) {
    const [m] = await db
      .select({ name: manualMethod.name })
      .from(manualMethod)
      .where(eq(manualMethod.id, row.manualMethodId));
    if (m) methodName = m.name;
  }
  const receipts = await receiptsOf(db, [row.id]);
  return paymentDto(row, methodName, receipts.get(row.id) ?? []);
}

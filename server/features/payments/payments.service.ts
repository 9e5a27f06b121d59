import { and, eq } from 'drizzle-orm';
import { formatAmount } from '../../../shared/money';
import type { PaymentDto, PaymentMethod, PaymentStatus } from '../../../shared/schemas/wallet';
import { PAYMENT_METHOD_LABELS } from '../../../shared/schemas/wallet';
import type { Db, Tx } from '../../db/client';
import { manualMethod, payment } from '../../db/schema/payments';
import { AppError } from '../../lib/errors';
import {
  customerAccounts,
  systemAccount,
  transfer,
  type TransferKind,
} from '../ledger/ledger.service';

export type PaymentRow = typeof payment.$inferSelect;

const FUNDING: Record<
  PaymentMethod,
  {
    account: 'funding:stripe' | 'funding:manual' | 'funding:voucher';
    kind: TransferKind;
    text: string;
  }
> = {
  stripe: { account: 'funding:stripe', kind: 'topup_stripe', text: 'Recarga con tarjeta' },
  manual: { account: 'funding:manual', kind: 'topup_manual', text: 'Recarga por pago manual' },
  voucher: { account: 'funding:voucher', kind: 'topup_voucher', text: 'Recarga con código' },
};

/**
 * Credits a pending payment exactly once: the conditional status change (pending → completed)
 * and the ledger transfer (idempotency key `payment:<id>`) commit together in `tx`. A second
 * call, concurrent or later, finds the payment no longer pending and credits nothing.
 */
export async function completePayment(
  tx: Tx,
  paymentId: string,
  options: { actorId?: string | null } = {},
): Promise<{ credited: boolean; payment: PaymentRow }> {
  const [claimed] = await tx
    .update(payment)
    .set({
      status: 'completed',
      updatedAt: new Date(),
      ...(options.actorId ? { reviewedBy: options.actorId, reviewedAt: new Date() } : {}),
    })
    .where(and(eq(payment.id, paymentId), eq(payment.status, 'pending')))
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
  return { credited: true, payment: updated ?? claimed };
}

/** Rejects a pending payment (no money moves). Returns false when it was not pending. */
export async function rejectPayment(
  tx: Tx,
  paymentId: string,
  reason: string,
  actorId: string,
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
    .where(and(eq(payment.id, paymentId), eq(payment.status, 'pending')))
    .returning();
  if (row) return { rejected: true, payment: row };
  const [current] = await tx.select().from(payment).where(eq(payment.id, paymentId));
  if (!current) throw new AppError('NOT_FOUND', 'El pago no existe.');
  return { rejected: false, payment: current };
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
  return {
    id: row.id,
    method: row.method as PaymentMethod,
    methodName,
    amount: formatAmount(row.amount),
    status: row.status as PaymentStatus,
    reference: row.reference,
    rejectReason: row.rejectReason,
    hasReceipt: row.receiptPath !== null,
    createdAt: row.createdAt.toISOString(),
    reviewedAt: row.reviewedAt?.toISOString() ?? null,
  };
}

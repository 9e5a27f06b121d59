// Following orders sent to suppliers: status polls in batches (SMM up to 100 ids a call, DHRU
// getimeiorderbulk), each answer settled through the same conditional order functions an admin
// uses, so a repeated or late answer changes nothing (docs/protocols.md §4.1 rules 5–7).
import { and, asc, eq, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm';
import { microsToCentsCeil } from '../../../shared/money';
import { clipText } from '../../../shared/text';
import type { Tx } from '../../db/client';
import { order } from '../../db/schema/catalogue';
import { orderDispatch, supplier } from '../../db/schema/suppliers';
import { safeError } from '../../jobs/safe-error';
import type { RemoteStatus } from '../../suppliers/types';
import { notifyCustomers } from '../orders/orders.notify';
import {
  cancelOrderTx,
  completeOrderTx,
  partialOrderTx,
  rejectOrderTx,
  SYSTEM,
} from '../orders/orders.service';
import type { OrderRow } from '../orders/order-dto';
import { adapterOfRow, logExchanges, type SupplierRow } from './connection';
import { failureMessage, recordHealth, type SupplierDeps } from './suppliers.service';
import { queueNotification } from '../notifications/events';

/** Ids per status call (the SMM limit; DHRU bulk answers are split the same way). */
export const POLL_BATCH = 100;
/** Orders polled per supplier per tick at most (the oldest-polled first). */
export const POLL_LIMIT = 5000;
/** "Unknown order" answers in a row before an admin must look. */
export const NOT_FOUND_LIMIT = 3;

const REASON_MAX = 500;

function clip(text: string, max = REASON_MAX): string {
  return clipText(text, max);
}

export type PollSummary = { polled: number; settled: number; failedCalls: number };

type Sent = {
  orderId: string;
  reference: string;
  polls: number;
  remoteStatus: string | null;
  /** The customer asked to cancel it: a cancellation by the supplier settles it as cancelled. */
  cancelRequested: boolean;
  quantity: number;
  startCount: number | null;
  remains: number | null;
};

/** The progress an order in progress shows (SMM start count and remains), when it changed. */
async function recordProgress(
  deps: SupplierDeps,
  sent: Sent,
  status: Extract<RemoteStatus, { state: 'processing' }>,
): Promise<void> {
  const startCount = status.startCount ?? sent.startCount;
  // What remains is within what was ordered.
  const remains =
    status.remains === undefined ? sent.remains : Math.min(status.remains, sent.quantity);
  if (startCount === sent.startCount && remains === sent.remains) return;
  await deps.db
    .update(order)
    .set({ startCount, remains, updatedAt: new Date() })
    .where(and(eq(order.id, sent.orderId), eq(order.status, 'processing')));
}

/**
 * The supplier's own charge for an order still in flight (SMM `charge`) becomes its cost, for
 * the whole order (a partial delivery then reduces it with the price).
 */
async function recordCharge(tx: Tx, orderId: string, chargeMicros: bigint | undefined) {
  if (chargeMicros === undefined) return;
  await tx
    .update(order)
    .set({ cost: microsToCentsCeil(chargeMicros) })
    .where(and(eq(order.id, orderId), inArray(order.status, ['pending', 'processing'])));
}

/** Settles one order from its supplier's answer; returns the finished order, if it finished. */
async function applyStatus(
  deps: SupplierDeps,
  sup: SupplierRow,
  sent: Sent,
  status: RemoteStatus,
): Promise<{ row: OrderRow; kind: 'completed' | 'rejected' | 'partial' | 'cancelled' } | null> {
  switch (status.state) {
    case 'processing':
      await recordProgress(deps, sent, status);
      return null;
    case 'completed': {
      const row = await deps.db.transaction(async (tx) => {
        await recordCharge(tx, sent.orderId, status.chargeMicros);
        return completeOrderTx(
          tx,
          sent.orderId,
          clip(status.result, 5000) || 'Completada.',
          SYSTEM,
        );
      });
      return row ? { row, kind: 'completed' } : null;
    }
    case 'rejected': {
      const row = await deps.db.transaction((tx) =>
        rejectOrderTx(
          tx,
          sent.orderId,
          clip(`Rechazada por el proveedor: ${status.reason}`),
          SYSTEM,
        ),
      );
      return row ? { row, kind: 'rejected' } : null;
    }
    case 'cancelled': {
      if (sent.cancelRequested) {
        // What the customer asked for: cancelled, the whole price back, exactly once.
        const row = await deps.db.transaction((tx) =>
          cancelOrderTx(
            tx,
            sent.orderId,
            'Cancelada a petición del cliente: el proveedor confirmó la cancelación.',
            SYSTEM,
          ),
        );
        return row ? { row, kind: 'cancelled' } : null;
      }
      const reason = status.reason
        ? `El proveedor canceló la orden: ${status.reason}`
        : 'El proveedor canceló la orden.';
      const row = await deps.db.transaction((tx) =>
        rejectOrderTx(tx, sent.orderId, clip(reason), SYSTEM),
      );
      return row ? { row, kind: 'rejected' } : null;
    }
    case 'partial': {
      const row = await deps.db.transaction(async (tx) => {
        await recordCharge(tx, sent.orderId, status.chargeMicros);
        return partialOrderTx(tx, sent.orderId, status.remains, SYSTEM);
      });
      return row ? { row, kind: 'partial' } : null;
    }
    case 'not-found': {
      // A supplier that "does not know" an order it accepted: a few answers in a row, then review.
      const misses = sent.remoteStatus?.startsWith('not-found:')
        ? Number(sent.remoteStatus.slice('not-found:'.length)) + 1
        : 1;
      const toReview = misses >= NOT_FOUND_LIMIT;
      await deps.db.transaction(async (tx) => {
        const [changed] = await tx
          .update(orderDispatch)
          .set(
            toReview
              ? {
                  state: 'review',
                  remoteStatus: `not-found:${misses}`,
                  reviewReason: clip(
                    `${sup.name} dice que no conoce la referencia ${sent.reference} (${status.detail}). Compruébalo en su panel.`,
                  ),
                  updatedAt: new Date(),
                }
              : {
                  remoteStatus: `not-found:${misses}`,
                  lastError: clip(status.detail),
                  updatedAt: new Date(),
                },
          )
          .where(and(eq(orderDispatch.orderId, sent.orderId), eq(orderDispatch.state, 'sent')))
          .returning({ orderId: orderDispatch.orderId });
        if (changed && toReview)
          await queueNotification(tx, { kind: 'order.review', orderId: changed.orderId });
      });
      return null;
    }
    case 'unknown':
      // Never settled on a guess: still in progress, and admins see what the supplier said.
      await deps.db
        .update(orderDispatch)
        .set({
          remoteStatus: clip(status.detail, 200),
          lastError: clip(`Estado desconocido de ${sup.name}: ${status.detail}`),
          updatedAt: new Date(),
        })
        .where(and(eq(orderDispatch.orderId, sent.orderId), eq(orderDispatch.state, 'sent')));
      return null;
  }
}

/** Polls one supplier's sent orders that are due, oldest-polled first. */
export async function pollSupplier(
  deps: SupplierDeps,
  sup: SupplierRow,
  options: { dueSeconds?: number } = {},
): Promise<PollSummary> {
  const summary: PollSummary = { polled: 0, settled: 0, failedCalls: 0 };
  const due = options.dueSeconds ?? deps.env.SUPPLIER_POLL_SECONDS;
  const rows = await deps.db
    .select({
      orderId: orderDispatch.orderId,
      reference: orderDispatch.reference,
      polls: orderDispatch.polls,
      remoteStatus: orderDispatch.remoteStatus,
      cancelRequestedAt: order.cancelRequestedAt,
      quantity: order.quantity,
      startCount: order.startCount,
      remains: order.remains,
    })
    .from(orderDispatch)
    .innerJoin(order, eq(order.id, orderDispatch.orderId))
    .where(
      and(
        eq(orderDispatch.supplierId, sup.id),
        eq(orderDispatch.state, 'sent'),
        or(
          isNull(orderDispatch.lastPolledAt),
          // A little slack, so a tick that runs a moment early still polls.
          lt(orderDispatch.lastPolledAt, sql`now() - make_interval(secs => ${due * 0.8})`),
        ),
      ),
    )
    .orderBy(sql`${orderDispatch.lastPolledAt} ASC NULLS FIRST`, asc(orderDispatch.orderId))
    .limit(POLL_LIMIT);
  const sent: Sent[] = rows.flatMap(({ cancelRequestedAt, ...r }) =>
    r.reference === null
      ? []
      : [{ ...r, reference: r.reference, cancelRequested: cancelRequestedAt !== null }],
  );
  if (sent.length === 0) return summary;
  const built = adapterOfRow(deps, sup);
  if (!built.ok) {
    await recordHealth(deps.db, sup.id, { ok: false, message: built.message });
    return { ...summary, failedCalls: 1 };
  }
  const finished: {
    row: OrderRow;
    kind: 'completed' | 'rejected' | 'partial' | 'cancelled';
  }[] = [];
  for (let i = 0; i < sent.length; i += POLL_BATCH) {
    const batch = sent.slice(i, i + POLL_BATCH);
    const byRef = new Map(batch.map((s) => [s.reference, s]));
    const outcome = await built.adapter.status(batch.map((s) => s.reference));
    await logExchanges(
      deps.db,
      sup.id,
      batch.map((s) => s.orderId),
      outcome,
    );
    if (!outcome.ok) {
      summary.failedCalls += 1;
      await recordHealth(deps.db, sup.id, { ok: false, message: failureMessage(outcome) });
      continue;
    }
    await recordHealth(deps.db, sup.id, { ok: true });
    const answered = [...outcome.value.keys()].flatMap((ref) => {
      const s = byRef.get(ref);
      return s ? [s.orderId] : [];
    });
    if (answered.length) {
      await deps.db
        .update(orderDispatch)
        .set({
          lastPolledAt: new Date(),
          polls: sql`${orderDispatch.polls} + 1`,
        })
        .where(inArray(orderDispatch.orderId, answered));
    }
    summary.polled += answered.length;
    for (const [ref, status] of outcome.value) {
      const s = byRef.get(ref);
      if (!s) continue;
      try {
        const done = await applyStatus(deps, sup, s, status);
        if (done) {
          finished.push(done);
          summary.settled += 1;
        }
      } catch (err) {
        // One order that cannot be settled must not stop the others: it is polled again.
        deps.logger.error({ err: safeError(err), orderId: s.orderId }, 'could not apply a status');
      }
    }
  }
  // A cancel the customer asked for needs no e-mail: they see it on the order.
  // One e-mail per customer: a summary when several of their orders finished in this round.
  notifyCustomers(
    deps,
    finished.flatMap((f) => (f.kind === 'cancelled' ? [] : [{ row: f.row, kind: f.kind }])),
  );
  return summary;
}

/** Polls every supplier (not disabled) that has orders to follow; suppliers run side by side. */
export async function pollAll(
  deps: SupplierDeps,
  options: { dueSeconds?: number } = {},
): Promise<PollSummary> {
  const suppliers = await deps.db
    .select()
    .from(supplier)
    .where(
      and(
        ne(supplier.state, 'disabled'),
        sql`EXISTS (SELECT 1 FROM ${orderDispatch} WHERE ${orderDispatch.supplierId} = ${supplier.id} AND ${orderDispatch.state} = 'sent')`,
      ),
    );
  const empty: PollSummary = { polled: 0, settled: 0, failedCalls: 0 };
  // Suppliers side by side; one supplier's failure is that supplier's only.
  const results = await Promise.all(
    suppliers.map((s) =>
      pollSupplier(deps, s, options).catch((err: unknown) => {
        deps.logger.error({ err: safeError(err), supplierId: s.id }, 'polling a supplier failed');
        return { ...empty, failedCalls: 1 };
      }),
    ),
  );
  return results.reduce(
    (a, b) => ({
      polled: a.polled + b.polled,
      settled: a.settled + b.settled,
      failedCalls: a.failedCalls + b.failedCalls,
    }),
    empty,
  );
}

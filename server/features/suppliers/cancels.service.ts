// A customer's cancel of an order in progress at a supplier, forwarded to it (SMM `cancel`). The
// dispatch's cancel state is the truth: `requested` until the supplier answers, then `sent` (it
// took the cancel) or `refused`. No money moves here: the order is refunded only when a status
// poll finds it cancelled at the supplier (poll.service.ts). A cancel asked twice upstream is
// harmless, so one that could not be delivered is tried again a few times; one whose answer we
// could not read is taken as `sent` and left to the supplier's status, never repeated.
import { and, eq, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import { clipText } from '../../../shared/text';
import type { Tx } from '../../db/client';
import { order } from '../../db/schema/catalogue';
import { orderDispatch, supplier } from '../../db/schema/suppliers';
import { safeError } from '../../jobs/safe-error';
import type { CallOutcome, RemoteCancel } from '../../suppliers/types';
import { resolveCancelTx } from '../orders/lifecycle.service';
import { adapterOfRow, logExchanges, type SupplierRow } from './connection';
import { waitSeconds } from './dispatch.service';
import { recordHealth, type SupplierDeps } from './suppliers.service';

/** Tries of one cancel by its jobs (the first included) before it is given up as refused. */
export const MAX_CANCEL_ATTEMPTS = 5;
/**
 * A cancel still `requested` this long after the customer asked lost its jobs (they end within
 * about 15 minutes): the tick tries it one last time.
 */
export const LOST_CANCEL_SECONDS = 1800;
/** Orders per `cancel` call (the SMM limit). */
export const CANCEL_BATCH = 100;

const NOTE_MAX = 500;

function clip(text: string): string {
  return clipText(text, NOTE_MAX, { flatten: true });
}

type CancelTarget = { orderId: string; reference: string; supplier: SupplierRow };

/** Requested cancels of orders still in flight at a supplier, optionally only some orders or old ones. */
async function requestedCancels(
  deps: SupplierDeps,
  filter: { orderId?: string; olderThanSeconds?: number; limit?: number },
): Promise<CancelTarget[]> {
  const rows = await deps.db
    .select({ orderId: orderDispatch.orderId, reference: orderDispatch.reference, supplier })
    .from(orderDispatch)
    .innerJoin(order, eq(order.id, orderDispatch.orderId))
    .innerJoin(supplier, eq(supplier.id, orderDispatch.supplierId))
    .where(
      and(
        eq(orderDispatch.cancelState, 'requested'),
        eq(orderDispatch.state, 'sent'),
        isNotNull(orderDispatch.reference),
        inArray(order.status, ['pending', 'processing']),
        filter.orderId ? eq(orderDispatch.orderId, filter.orderId) : undefined,
        filter.olderThanSeconds !== undefined
          ? lt(
              order.cancelRequestedAt,
              sql`now() - make_interval(secs => ${filter.olderThanSeconds})`,
            )
          : undefined,
      ),
    )
    .limit(filter.limit ?? 1000);
  return rows.flatMap((r) =>
    r.reference === null
      ? []
      : [{ orderId: r.orderId, reference: r.reference, supplier: r.supplier }],
  );
}

export type CancelSummary = { sent: number; refused: number; retried: number; failedCalls: number };

/** Locks the order row first (the lock order of every order change), then answers its cancel. */
async function resolveLocked(
  tx: Tx,
  orderId: string,
  outcome: 'sent' | 'refused',
  note: string | null,
): Promise<boolean> {
  await tx.select({ id: order.id }).from(order).where(eq(order.id, orderId)).for('no key update');
  return resolveCancelTx(tx, orderId, outcome, note);
}

/**
 * Sends the cancels of one supplier's orders in one call (at most CANCEL_BATCH) and records each
 * answer. Not delivered (not sent, refused for now, not answered): another job in a while, or,
 * on the last attempt, refused with a note (the customer may ask again).
 */
async function sendCancels(
  deps: SupplierDeps,
  sup: SupplierRow,
  targets: CancelTarget[],
  attempt: number,
): Promise<CancelSummary> {
  const summary: CancelSummary = { sent: 0, refused: 0, retried: 0, failedCalls: 0 };
  let outcome: CallOutcome<Map<string, RemoteCancel>>;
  if (sup.state === 'disabled') {
    outcome = {
      ok: false,
      kind: 'not-sent',
      message: `${sup.name} está desactivado.`,
      exchanges: [],
    };
  } else {
    const built = adapterOfRow(deps, sup);
    outcome = built.ok
      ? await built.adapter.cancel(targets.map((t) => t.reference))
      : { ok: false, kind: 'not-sent', message: built.message, exchanges: [] };
  }
  await logExchanges(
    deps.db,
    sup.id,
    targets.map((t) => t.orderId),
    outcome,
  );
  if (!outcome.ok) summary.failedCalls += 1;
  const final = attempt >= MAX_CANCEL_ATTEMPTS;
  for (const target of targets) {
    try {
      await deps.db.transaction(async (tx) => {
        const answer = outcome.ok ? outcome.value.get(target.reference) : undefined;
        if (answer?.accepted) {
          if (await resolveLocked(tx, target.orderId, 'sent', null)) summary.sent += 1;
          return;
        }
        if (answer) {
          if (await resolveLocked(tx, target.orderId, 'refused', clip(answer.reason)))
            summary.refused += 1;
          return;
        }
        if (!outcome.ok && outcome.kind === 'ambiguous') {
          // It may have arrived: never asked again; the supplier's status decides.
          if (await resolveLocked(tx, target.orderId, 'sent', null)) {
            await tx
              .update(orderDispatch)
              .set({
                lastError: clip(
                  `Respuesta dudosa de ${sup.name} a la cancelación (${outcome.message}): se sigue su estado.`,
                ),
                updatedAt: new Date(),
              })
              .where(eq(orderDispatch.orderId, target.orderId));
            summary.sent += 1;
          }
          return;
        }
        if (!outcome.ok && outcome.kind === 'refused-order') {
          if (await resolveLocked(tx, target.orderId, 'refused', clip(outcome.message)))
            summary.refused += 1;
          return;
        }
        const why = outcome.ok ? 'el proveedor no respondió por esta orden' : outcome.message;
        if (final) {
          const note = clip(`no llegó a recibirla (${why}). Puedes pedirla de nuevo más tarde.`);
          if (await resolveLocked(tx, target.orderId, 'refused', note)) summary.refused += 1;
          return;
        }
        await deps.jobs.send(
          'supplier-cancel',
          { orderId: target.orderId, attempt: attempt + 1 },
          { tx, startAfterSeconds: waitSeconds(attempt) },
        );
        summary.retried += 1;
      });
    } catch (err) {
      // One order that cannot be recorded must not stop the others: the tick tries it again.
      deps.logger.error(
        { err: safeError(err), orderId: target.orderId },
        'could not record a cancel answer',
      );
    }
  }
  if (outcome.exchanges.length > 0) {
    await recordHealth(
      deps.db,
      sup.id,
      outcome.ok || outcome.kind === 'refused-order' || outcome.kind === 'retry-later'
        ? { ok: true }
        : { ok: false, message: outcome.message },
    );
  }
  return summary;
}

/** One `supplier-cancel` job: the order's requested cancel, sent once and its answer recorded. */
export async function sendCancel(
  deps: SupplierDeps,
  orderId: string,
  attempt = 1,
): Promise<CancelSummary> {
  const [target] = await requestedCancels(deps, { orderId });
  if (!target) return { sent: 0, refused: 0, retried: 0, failedCalls: 0 };
  return sendCancels(deps, target.supplier, [target], attempt);
}

/**
 * The tick's share of cancels: those still requested long after the customer asked (their
 * jobs were lost) are sent one last time, grouped per supplier. Never throws.
 */
export async function cancelTick(
  deps: SupplierDeps,
  options: { olderThanSeconds?: number } = {},
): Promise<CancelSummary> {
  const total: CancelSummary = { sent: 0, refused: 0, retried: 0, failedCalls: 0 };
  try {
    const lost = await requestedCancels(deps, {
      olderThanSeconds: options.olderThanSeconds ?? LOST_CANCEL_SECONDS,
    });
    const bySupplier = new Map<string, CancelTarget[]>();
    for (const t of lost)
      bySupplier.set(t.supplier.id, [...(bySupplier.get(t.supplier.id) ?? []), t]);
    for (const targets of bySupplier.values()) {
      for (let i = 0; i < targets.length; i += CANCEL_BATCH) {
        const group = targets.slice(i, i + CANCEL_BATCH);
        const sup = group[0]?.supplier;
        if (!sup) continue;
        try {
          const s = await sendCancels(deps, sup, group, MAX_CANCEL_ATTEMPTS);
          total.sent += s.sent;
          total.refused += s.refused;
          total.retried += s.retried;
          total.failedCalls += s.failedCalls;
        } catch (err) {
          deps.logger.error({ err: safeError(err), supplierId: sup.id }, 'sending cancels failed');
          total.failedCalls += 1;
        }
      }
    }
  } catch (err) {
    deps.logger.error({ err: safeError(err) }, 'the cancel tick failed');
  }
  return total;
}

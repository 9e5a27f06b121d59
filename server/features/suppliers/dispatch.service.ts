// Forwarding orders to suppliers (docs/protocols.md §4.1): claim before send, one call, every
// answer classified, nothing ambiguous ever resent without an admin's decision.
//
// Lock order, everywhere: the order row first, then its dispatch row (cancel, completion and
// rejection take the order row first too), so no two of them can deadlock.
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import { ConfirmDispatchSchema } from '../../../shared/schemas/suppliers';
import { clipText } from '../../../shared/text';
import type { Tx } from '../../db/client';
import { order } from '../../db/schema/catalogue';
import { orderDispatch, serviceRoute, supplier, supplierService } from '../../db/schema/suppliers';
import { AppError } from '../../lib/errors';
import type { CallOutcome } from '../../suppliers/types';
import { recordAudit } from '../audit/audit.service';
import { notifyCustomerSoon } from '../orders/orders.notify';
import type { OrderRow } from '../orders/order-dto';
import { rejectOrderTx, startProcessingTx, SYSTEM } from '../orders/orders.service';
import { adapterOfRow, logExchanges, type SupplierRow } from './connection';
import { withFileData } from './dispatch-files';
import { recordHealth, routeCostCents, type SupplierDeps } from './suppliers.service';
import { queueNotification } from '../notifications/events';

/** Rounds of "every route refused for now" before an admin must look. */
export const MAX_ROUNDS = 8;

/** The wait before round `round` (1-based): 1, 2, 4… minutes, at most an hour. */
export function waitSeconds(round: number): number {
  return Math.min(60 * 2 ** Math.max(round - 1, 0), 3600);
}

/**
 * A send still `sending` after this long was interrupted (the process stopped, or the call
 * hung far past its time-out): it goes to review, never back to the queue.
 */
export function staleSendSeconds(timeoutSeconds: number): number {
  return timeoutSeconds * 3 + 300;
}

/** Why a send whose process stopped (or that hung far too long) waits for an admin. */
export const INTERRUPTED_REASON =
  'El envío al proveedor se interrumpió (el proceso se detuvo o no terminó a tiempo). Puede que tenga la orden: compruébalo en su panel antes de decidir.';

/** A queued or waiting dispatch this overdue lost its job: the tick enqueues it again. */
export const OVERDUE_SECONDS = 300;

const REASON_MAX = 500;

/** A one-line reason or note, as long as an order's rejection reason may be. */
function clip(text: string): string {
  return clipText(text, REASON_MAX, { flatten: true });
}

type RouteChoice = {
  index: number;
  supplier: SupplierRow;
  remoteId: string;
  /** The remote service's type as its catalogue lists it (SMM: the parameters `add` takes). */
  remoteType: string | null;
  fieldMap: Record<string, string>;
};

type LockedOrder = Pick<
  OrderRow,
  | 'id'
  | 'number'
  | 'status'
  | 'serviceId'
  | 'fields'
  | 'quantity'
  | 'price'
  | 'runs'
  | 'runInterval'
>;

async function lockOrder(tx: Tx, orderId: string): Promise<LockedOrder | null> {
  const [row] = await tx
    .select({
      id: order.id,
      number: order.number,
      status: order.status,
      serviceId: order.serviceId,
      fields: order.fields,
      quantity: order.quantity,
      price: order.price,
      runs: order.runs,
      runInterval: order.runInterval,
    })
    .from(order)
    .where(eq(order.id, orderId))
    .for('no key update');
  return row ?? null;
}

async function lockDispatch(tx: Tx, orderId: string) {
  const [row] = await tx
    .select()
    .from(orderDispatch)
    .where(eq(orderDispatch.orderId, orderId))
    .for('update');
  return row ?? null;
}

type Candidate = RouteChoice & {
  usable: boolean;
  why: string | null;
  /** What this route charges for the order now, in cents (null: no usable cost). */
  costCents: bigint | null;
};

/** The service's routes in order, each with whether it can take this order now, and why not. */
async function routeCandidates(tx: Tx, o: LockedOrder): Promise<Candidate[]> {
  const rows = await tx
    .select({
      route: serviceRoute,
      supplier,
      costMicros: supplierService.costMicros,
      costProblem: supplierService.costProblem,
      unit: supplierService.unit,
      type: supplierService.type,
      dripfeed: supplierService.dripfeed,
      missingSince: supplierService.missingSince,
    })
    .from(serviceRoute)
    .innerJoin(supplier, eq(supplier.id, serviceRoute.supplierId))
    .leftJoin(
      supplierService,
      and(
        eq(supplierService.supplierId, serviceRoute.supplierId),
        eq(supplierService.remoteId, serviceRoute.remoteId),
      ),
    )
    .where(eq(serviceRoute.serviceId, o.serviceId))
    .orderBy(asc(serviceRoute.position));
  return rows.map((r, index) => {
    let why: string | null = null;
    if (r.supplier.state === 'disabled') why = `${r.supplier.name} está desactivado`;
    else if (r.costMicros === null || r.unit === null || r.missingSince !== null)
      why = `${r.supplier.name} ya no ofrece el servicio ${r.route.remoteId}`;
    else if (r.costProblem !== null)
      // A cost we cannot read says nothing about the margin: never sent on a guess.
      why = `${r.supplier.name}: el costo no es válido (${r.costProblem})`;
    else if (routeCostCents(r.costMicros, r.unit, o.quantity) > o.price)
      why = `${r.supplier.name} cuesta más que el precio de la orden`;
    else if (o.runs !== null && !r.dripfeed)
      why = `${r.supplier.name} no admite goteo en el servicio ${r.route.remoteId}`;
    return {
      index,
      supplier: r.supplier,
      remoteId: r.route.remoteId,
      remoteType: r.type,
      fieldMap: r.route.fieldMap,
      usable: why === null,
      why,
      costCents:
        r.costMicros !== null && r.unit !== null && r.costProblem === null
          ? routeCostCents(r.costMicros, r.unit, o.quantity)
          : null,
    };
  });
}

export type Claim = {
  orderId: string;
  orderNumber: number;
  attempt: number;
  routeIndex: number;
  supplier: SupplierRow;
  remoteId: string;
  remoteType: string | null;
  params: Record<string, string>;
  /** Units in all; drip-fed orders are sent as quantity ÷ runs per run. */
  quantity: number;
  dripfeed: { runs: number; interval: number } | null;
};

async function endRound(
  tx: Tx,
  deps: SupplierDeps,
  d: NonNullable<Awaited<ReturnType<typeof lockDispatch>>>,
  why: string,
): Promise<void> {
  const rounds = d.rounds + 1;
  if (rounds > MAX_ROUNDS) {
    await tx
      .update(orderDispatch)
      .set({
        state: 'review',
        reviewReason: clip(`Ningún proveedor aceptó la orden tras ${MAX_ROUNDS} rondas: ${why}`),
        lastError: clip(why),
        rounds,
        updatedAt: new Date(),
      })
      .where(eq(orderDispatch.orderId, d.orderId));
    await queueNotification(tx, { kind: 'order.review', orderId: d.orderId });
    return;
  }
  const wait = waitSeconds(rounds);
  await tx
    .update(orderDispatch)
    .set({
      state: 'waiting',
      routeIndex: 0,
      rounds,
      lastError: clip(why),
      nextAttemptAt: sql`now() + make_interval(secs => ${wait})`,
      updatedAt: new Date(),
    })
    .where(eq(orderDispatch.orderId, d.orderId));
  await deps.jobs.send(
    'supplier-dispatch',
    { orderId: d.orderId },
    { tx, startAfterSeconds: wait },
  );
}

/**
 * Step 1: claims the order for sending and commits that before any call. Only a `queued` or
 * due `waiting` dispatch of an order still in flight is claimed; the order becomes
 * `processing` (the customer can no longer cancel it). Returns null when there is nothing to
 * send (already claimed, finished, not due yet, or no usable route: then it waits or goes to
 * review).
 */
export async function claimDispatch(deps: SupplierDeps, orderId: string): Promise<Claim | null> {
  return deps.db.transaction(async (tx) => {
    const o = await lockOrder(tx, orderId);
    if (!o) return null;
    const d = await lockDispatch(tx, orderId);
    if (!d || (d.state !== 'queued' && d.state !== 'waiting')) return null;
    if (d.nextAttemptAt.getTime() > Date.now()) return null;
    if (o.status !== 'pending' && o.status !== 'processing') {
      await tx
        .update(orderDispatch)
        .set({ state: 'done', updatedAt: new Date() })
        .where(eq(orderDispatch.orderId, orderId));
      return null;
    }
    const candidates = await routeCandidates(tx, o);
    const pick = candidates.find((c) => c.index >= d.routeIndex && c.usable);
    if (!pick) {
      const reasons = candidates.filter((c) => c.why).map((c) => c.why);
      const why = reasons.length ? `${reasons.join('; ')}.` : 'el servicio no tiene proveedores.';
      if (d.routeIndex === 0 && d.rounds === 0) {
        await tx
          .update(orderDispatch)
          .set({
            state: 'review',
            reviewReason: clip(`No hay proveedor disponible: ${why}`),
            updatedAt: new Date(),
          })
          .where(eq(orderDispatch.orderId, orderId));
        await queueNotification(tx, { kind: 'order.review', orderId });
      } else {
        await endRound(tx, deps, d, why);
      }
      return null;
    }
    if (o.status === 'pending') await startProcessingTx(tx, orderId, SYSTEM);
    const attempt = d.attempts + 1;
    await tx
      .update(orderDispatch)
      .set({
        state: 'sending',
        routeIndex: pick.index,
        supplierId: pick.supplier.id,
        remoteId: pick.remoteId,
        attempts: attempt,
        claimedAt: new Date(),
        // Should this instance die mid-send, the others see whose claim it was at once.
        claimedBy: deps.instanceId ?? null,
        reviewReason: null,
        updatedAt: new Date(),
      })
      .where(eq(orderDispatch.orderId, orderId));
    // Its cost is this supplier's price for the service now (a later route, or the supplier's
    // own charge once reported, replaces it).
    await tx
      .update(order)
      .set({ cost: pick.costCents, supplierId: pick.supplier.id })
      .where(eq(order.id, orderId));
    const params: Record<string, string> = {};
    for (const [key, param] of Object.entries(pick.fieldMap)) {
      const value = o.fields[key];
      if (value !== undefined && value !== '') params[param] = value;
    }
    return {
      orderId,
      orderNumber: o.number,
      attempt,
      routeIndex: pick.index,
      supplier: pick.supplier,
      remoteId: pick.remoteId,
      remoteType: pick.remoteType,
      params,
      quantity: o.quantity,
      dripfeed:
        o.runs !== null && o.runInterval !== null
          ? { runs: o.runs, interval: o.runInterval }
          : null,
    };
  });
}

/** Step 2: the one call that places the order upstream. */
export async function sendClaimed(
  deps: SupplierDeps,
  claim: Claim,
): Promise<CallOutcome<{ reference: string }>> {
  const built = adapterOfRow(deps, claim.supplier);
  if (!built.ok) return { ok: false, kind: 'not-sent', message: built.message, exchanges: [] };
  return built.adapter.place({
    remoteId: claim.remoteId,
    // A file field's upload id becomes the file itself (FILENAME, FILEDATA).
    params: await withFileData(deps.db, claim.orderId, claim.params),
    quantity: claim.quantity,
    ...(claim.remoteType !== null ? { type: claim.remoteType } : {}),
    dripfeed: claim.dripfeed,
  });
}

export type DispatchResult =
  'sent' | 'next-route' | 'rejected' | 'waiting' | 'review' | 'nothing-to-do' | 'superseded';

/**
 * Step 3: records what the supplier answered, in one transaction with the log of the exchange.
 * A send that an admin or the stale-send check already moved on is only noted.
 */
export async function recordOutcome(
  deps: SupplierDeps,
  claim: Claim,
  outcome: CallOutcome<{ reference: string }>,
): Promise<DispatchResult> {
  let rejected: OrderRow | null = null;
  let requeued = false;
  const result = await deps.db.transaction(async (tx): Promise<DispatchResult> => {
    const o = await lockOrder(tx, claim.orderId);
    const d = await lockDispatch(tx, claim.orderId);
    await logExchanges(tx, claim.supplier.id, [claim.orderId], outcome);
    if (!o || !d || d.state !== 'sending' || d.attempts !== claim.attempt) {
      if (d && outcome.ok) {
        await tx
          .update(orderDispatch)
          .set({
            lastError: clip(
              `${claim.supplier.name} aceptó la orden con la referencia ${outcome.value.reference} cuando ya no se esperaba su respuesta.`,
            ),
            updatedAt: new Date(),
          })
          .where(eq(orderDispatch.orderId, claim.orderId));
      }
      return 'superseded';
    }
    const now = new Date();
    if (outcome.ok) {
      const reference = outcome.value.reference;
      const [taken] = await tx
        .select({ orderId: orderDispatch.orderId })
        .from(orderDispatch)
        .where(
          and(
            eq(orderDispatch.supplierId, claim.supplier.id),
            eq(orderDispatch.reference, reference),
          ),
        );
      if (taken) {
        await tx
          .update(orderDispatch)
          .set({
            state: 'review',
            reviewReason: clip(
              `${claim.supplier.name} devolvió la referencia ${reference}, que ya es de otra orden. Compruébalo en su panel.`,
            ),
            updatedAt: now,
          })
          .where(eq(orderDispatch.orderId, claim.orderId));
        await queueNotification(tx, { kind: 'order.review', orderId: claim.orderId });
        return 'review';
      }
      await tx
        .update(orderDispatch)
        .set({ state: 'sent', reference, sentAt: now, lastError: null, updatedAt: now })
        .where(eq(orderDispatch.orderId, claim.orderId));
      await tx
        .update(order)
        .set({ supplierRef: reference, updatedAt: now })
        .where(eq(order.id, claim.orderId));
      return 'sent';
    }
    const why = clip(`${claim.supplier.name}: ${outcome.message}`);
    if (outcome.kind === 'ambiguous') {
      await tx
        .update(orderDispatch)
        .set({
          state: 'review',
          lastError: why,
          reviewReason: clip(
            `Respuesta dudosa de ${claim.supplier.name} (${outcome.message}). Puede que tenga la orden: compruébalo en su panel antes de decidir.`,
          ),
          updatedAt: now,
        })
        .where(eq(orderDispatch.orderId, claim.orderId));
      await queueNotification(tx, { kind: 'order.review', orderId: claim.orderId });
      return 'review';
    }
    // Certainly not placed: another route, or the end of the line for this order.
    const candidates = await routeCandidates(tx, o);
    const next = candidates.find((c) => c.index > claim.routeIndex && c.usable);
    if (next) {
      await tx
        .update(orderDispatch)
        .set({
          state: 'queued',
          routeIndex: next.index,
          lastError: why,
          nextAttemptAt: now,
          updatedAt: now,
        })
        .where(eq(orderDispatch.orderId, claim.orderId));
      await deps.jobs.send('supplier-dispatch', { orderId: claim.orderId }, { tx });
      requeued = true;
      return 'next-route';
    }
    if (outcome.kind === 'refused-order') {
      rejected = await rejectOrderTx(
        tx,
        claim.orderId,
        clip(`Rechazada por el proveedor: ${outcome.message}`),
        SYSTEM,
      );
      return 'rejected';
    }
    await endRound(tx, deps, d, why);
    const [after] = await tx
      .select({ state: orderDispatch.state })
      .from(orderDispatch)
      .where(eq(orderDispatch.orderId, claim.orderId));
    return after?.state === 'review' ? 'review' : 'waiting';
  });
  // The supplier's health, outside the order's transaction (busy suppliers: one short update).
  if (outcome.ok || outcome.kind === 'refused-order' || outcome.kind === 'retry-later') {
    await recordHealth(deps.db, claim.supplier.id, { ok: true });
  } else {
    await recordHealth(deps.db, claim.supplier.id, { ok: false, message: outcome.message });
  }
  if (rejected) notifyCustomerSoon(deps, rejected, 'rejected');
  if (requeued) deps.jobs.wake('supplier-dispatch');
  return result;
}

/** One dispatch job: claim, send once, record. */
export async function runDispatch(deps: SupplierDeps, orderId: string): Promise<DispatchResult> {
  const claim = await claimDispatch(deps, orderId);
  if (!claim) return 'nothing-to-do';
  const outcome = await sendClaimed(deps, claim);
  return recordOutcome(deps, claim, outcome);
}

/** Sends still `sending` long after any call could have ended: interrupted, so review. */
export async function reviewStaleSends(
  deps: SupplierDeps,
  olderThanSeconds?: number,
): Promise<number> {
  const seconds = olderThanSeconds ?? staleSendSeconds(deps.env.SUPPLIER_TIMEOUT_SECONDS);
  const rows = await deps.db.transaction(async (tx) => {
    const reviewed = await tx
      .update(orderDispatch)
      .set({
        state: 'review',
        reviewReason: INTERRUPTED_REASON,
        updatedAt: new Date(),
      })
      .where(
        and(
          eq(orderDispatch.state, 'sending'),
          sql`${orderDispatch.claimedAt} < now() - make_interval(secs => ${seconds})`,
        ),
      )
      .returning({ orderId: orderDispatch.orderId });
    for (const r of reviewed)
      await queueNotification(tx, { kind: 'order.review', orderId: r.orderId });
    return reviewed;
  });
  return rows.length;
}

/** Queued or waiting dispatches long overdue (their job was lost): enqueue them again. */
export async function requeueOverdue(
  deps: SupplierDeps,
  olderThanSeconds = OVERDUE_SECONDS,
): Promise<number> {
  const rows = await deps.db
    .select({ orderId: orderDispatch.orderId })
    .from(orderDispatch)
    .where(
      and(
        inArray(orderDispatch.state, ['queued', 'waiting']),
        lte(orderDispatch.nextAttemptAt, sql`now() - make_interval(secs => ${olderThanSeconds})`),
      ),
    )
    .limit(1000);
  for (const r of rows) await deps.jobs.send('supplier-dispatch', { orderId: r.orderId });
  if (rows.length) deps.jobs.wake('supplier-dispatch');
  return rows.length;
}

// ─── Admin decisions on orders in review ─────────────────────────────────────────────────────

async function lockForDecision(tx: Tx, orderId: string) {
  const o = await lockOrder(tx, orderId);
  if (!o) throw new AppError('NOT_FOUND', 'La orden no existe.');
  const d = await lockDispatch(tx, orderId);
  if (!d) throw new AppError('CONFLICT', 'Esta orden no se envía a ningún proveedor.');
  if (o.status !== 'pending' && o.status !== 'processing')
    throw new AppError('CONFLICT', 'La orden ya está completada, rechazada o cancelada.');
  return { o, d };
}

/** "El proveedor la tiene, referencia X": the order is followed under that reference. */
export async function confirmDispatch(
  deps: SupplierDeps,
  adminId: string,
  orderId: string,
  input: { reference: string },
  ipAddress: string | null,
): Promise<void> {
  const reference = ConfirmDispatchSchema.parse(input).reference;
  await deps.db.transaction(async (tx) => {
    const { d } = await lockForDecision(tx, orderId);
    if (d.state !== 'review' && d.state !== 'waiting')
      throw new AppError('CONFLICT', 'Esta orden no está esperando una decisión.');
    if (!d.supplierId)
      throw new AppError(
        'CONFLICT',
        'Esta orden no llegó a enviarse a ningún proveedor: usa «Enviar de nuevo» o recházala.',
      );
    const [taken] = await tx
      .select({ number: order.number })
      .from(orderDispatch)
      .innerJoin(order, eq(order.id, orderDispatch.orderId))
      .where(
        and(eq(orderDispatch.supplierId, d.supplierId), eq(orderDispatch.reference, reference)),
      );
    if (taken)
      throw new AppError('VALIDATION_FAILED', undefined, {
        reference: `Esa referencia ya es de la orden #${taken.number}.`,
      });
    const now = new Date();
    await tx
      .update(orderDispatch)
      .set({
        state: 'sent',
        reference,
        sentAt: now,
        reviewReason: null,
        lastError: null,
        updatedAt: now,
      })
      .where(eq(orderDispatch.orderId, orderId));
    await tx
      .update(order)
      .set({ supplierRef: reference, updatedAt: now })
      .where(eq(order.id, orderId));
    await recordAudit(tx, {
      actorId: adminId,
      action: 'order.dispatch_confirm',
      targetType: 'order',
      targetId: orderId,
      before: { state: d.state, reference: d.reference },
      after: { state: 'sent', reference },
      ipAddress,
    });
  });
}

/** "Enviar de nuevo": an admin decided the supplier does not have it; it is sent once more. */
export async function resendDispatch(
  deps: SupplierDeps,
  adminId: string,
  orderId: string,
  ipAddress: string | null,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const { d } = await lockForDecision(tx, orderId);
    if (d.state !== 'review' && d.state !== 'waiting')
      throw new AppError('CONFLICT', 'Esta orden no está esperando una decisión.');
    await tx
      .update(orderDispatch)
      .set({
        state: 'queued',
        nextAttemptAt: new Date(),
        reviewReason: null,
        rounds: 0,
        updatedAt: new Date(),
      })
      .where(eq(orderDispatch.orderId, orderId));
    await deps.jobs.send('supplier-dispatch', { orderId }, { tx });
    await recordAudit(tx, {
      actorId: adminId,
      action: 'order.dispatch_resend',
      targetType: 'order',
      targetId: orderId,
      before: { state: d.state, supplierId: d.supplierId, reviewReason: d.reviewReason },
      after: { state: 'queued' },
      ipAddress,
    });
  });
  deps.jobs.wake('supplier-dispatch');
}

// Refills of completed orders sent to the supplier that fulfilled them (SMM `refill`), and
// followed with `refill_status` until the supplier completes or rejects them. The refill row is
// the truth, the job only a trigger: a send is claimed (committed, with its next try already
// scheduled) before the call, so two workers never send one refill at once. A refill asked twice
// upstream costs nothing, so an answer we could not read is tried again later, a few times.
import { and, asc, eq, inArray, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { clipText } from '../../../shared/text';
import { orderRefill } from '../../db/schema/catalogue';
import { orderDispatch, supplier } from '../../db/schema/suppliers';
import { safeError } from '../../jobs/safe-error';
import type { CallOutcome, RemoteRefillStatus } from '../../suppliers/types';
import { finishRefillTx, markRefillSentTx, type RefillRow } from '../orders/lifecycle.service';
import { SYSTEM } from '../orders/orders.service';
import { adapterOfRow, logExchanges, type SupplierRow } from './connection';
import { recordHealth, type SupplierDeps } from './suppliers.service';

/** Sends of one refill (the first included) before it is rejected. */
export const MAX_REFILL_ATTEMPTS = 5;
/** Refills sent or polled per tick at most. */
export const REFILL_TICK_LIMIT = 500;
/** Ids per `refill_status` call (the SMM limit). */
export const REFILL_POLL_BATCH = 100;

const NOTE_MAX = 500;

function clip(text: string): string {
  return clipText(text, NOTE_MAX, { flatten: true });
}

export type RefillSendResult =
  'sent' | 'rejected' | 'retry' | 'gave-up' | 'nothing-to-do' | 'superseded';

type ClaimedRefill = {
  refill: RefillRow;
  supplier: SupplierRow;
  /** The order's reference at the supplier. */
  reference: string;
};

/**
 * Claims a pending routed refill that is due: one more attempt, and its next try already
 * scheduled (the back-off), committed before any call. Otherwise what happened instead.
 */
async function claimRefill(
  deps: SupplierDeps,
  refillId: string,
): Promise<ClaimedRefill | RefillSendResult> {
  return deps.db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(orderRefill)
      .set({
        attempts: sql`${orderRefill.attempts} + 1`,
        // The next try 1, 2, 4… minutes after this one, at most an hour (every SET reads the row
        // as it was: attempts is the number of sends before this one).
        nextAttemptAt: sql`now() + make_interval(secs => LEAST(60 * power(2, LEAST(${orderRefill.attempts}, 6)), 3600))`,
        updatedAt: new Date(),
      })
      .where(
        and(
          eq(orderRefill.id, refillId),
          eq(orderRefill.state, 'pending'),
          isNotNull(orderRefill.supplierId),
          lte(orderRefill.nextAttemptAt, sql`now()`),
        ),
      )
      .returning();
    if (!claimed?.supplierId) return 'nothing-to-do';
    const [row] = await tx
      .select({ supplier, reference: orderDispatch.reference })
      .from(orderDispatch)
      .innerJoin(supplier, eq(supplier.id, orderDispatch.supplierId))
      .where(
        and(
          eq(orderDispatch.orderId, claimed.orderId),
          eq(orderDispatch.supplierId, claimed.supplierId),
        ),
      );
    if (!row?.reference) {
      await finishRefillTx(
        tx,
        claimed.id,
        'rejected',
        'La orden no tiene referencia en el proveedor: no se puede pedir la reposición.',
        SYSTEM,
      );
      return 'rejected';
    }
    return { refill: claimed, supplier: row.supplier, reference: row.reference };
  });
}

/**
 * One `supplier-refill` job: claim the refill, ask the supplier once, record the answer. Refused
 * for this order: rejected with the supplier's words. Accepted: `sent` with its refill id there.
 * Anything else stays pending for a later try (a job is scheduled, and the tick picks up what a
 * lost job left); after MAX_REFILL_ATTEMPTS sends it is rejected with a note.
 */
export async function sendRefill(deps: SupplierDeps, refillId: string): Promise<RefillSendResult> {
  const claim = await claimRefill(deps, refillId);
  if (typeof claim === 'string') return claim;
  const { refill, reference } = claim;
  const sup = claim.supplier;
  let outcome: CallOutcome<{ refillRef: string }>;
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
      ? await built.adapter.refill(reference)
      : { ok: false, kind: 'not-sent', message: built.message, exchanges: [] };
  }
  let retryIn: number | null = null;
  const result = await deps.db.transaction(async (tx): Promise<RefillSendResult> => {
    await logExchanges(tx, sup.id, [refill.orderId], outcome);
    if (outcome.ok) {
      const sent = await markRefillSentTx(tx, refill.id, outcome.value.refillRef);
      return sent ? 'sent' : 'superseded';
    }
    if (outcome.kind === 'refused-order') {
      const done = await finishRefillTx(
        tx,
        refill.id,
        'rejected',
        clip(`El proveedor respondió: ${outcome.message}`),
        SYSTEM,
      );
      return done ? 'rejected' : 'superseded';
    }
    if (refill.attempts >= MAX_REFILL_ATTEMPTS) {
      const done = await finishRefillTx(
        tx,
        refill.id,
        'rejected',
        clip(
          `No pudimos enviar la reposición al proveedor tras ${MAX_REFILL_ATTEMPTS} intentos (${outcome.message}).`,
        ),
        SYSTEM,
      );
      return done ? 'gave-up' : 'superseded';
    }
    // Not sent, refused for now, or an answer we could not read: asked again later.
    const [kept] = await tx
      .update(orderRefill)
      .set({ note: clip(`Reintento pendiente: ${outcome.message}`), updatedAt: new Date() })
      .where(and(eq(orderRefill.id, refill.id), eq(orderRefill.state, 'pending')))
      .returning({ nextAttemptAt: orderRefill.nextAttemptAt });
    if (!kept) return 'superseded';
    retryIn = Math.max(1, Math.ceil((kept.nextAttemptAt.getTime() - Date.now()) / 1000));
    await deps.jobs.send(
      'supplier-refill',
      { refillId: refill.id },
      { tx, startAfterSeconds: retryIn },
    );
    return 'retry';
  });
  if (outcome.exchanges.length > 0) {
    await recordHealth(
      deps.db,
      sup.id,
      outcome.ok || outcome.kind === 'refused-order' || outcome.kind === 'retry-later'
        ? { ok: true }
        : { ok: false, message: outcome.message },
    );
  }
  return result;
}

/** The refill row's answer from `refill_status`; true when it finished the refill. */
async function applyRefillStatus(
  deps: SupplierDeps,
  refillId: string,
  status: RemoteRefillStatus,
): Promise<boolean> {
  switch (status.state) {
    case 'pending':
      return false;
    case 'completed':
      return deps.db.transaction(
        async (tx) => (await finishRefillTx(tx, refillId, 'completed', null, SYSTEM)) !== null,
      );
    case 'rejected':
      return deps.db.transaction(
        async (tx) =>
          (await finishRefillTx(
            tx,
            refillId,
            'rejected',
            clip(
              status.reason
                ? `El proveedor respondió: ${status.reason}`
                : 'El proveedor la rechazó.',
            ),
            SYSTEM,
          )) !== null,
      );
    case 'not-found':
    case 'unknown':
      // Never finished on a guess: kept in progress, with what the supplier said for admins.
      await deps.db
        .update(orderRefill)
        .set({ note: clip(`El proveedor respondió: ${status.detail}`), updatedAt: new Date() })
        .where(and(eq(orderRefill.id, refillId), eq(orderRefill.state, 'sent')));
      return false;
  }
}

export type RefillPollSummary = { polled: number; finished: number; failedCalls: number };

/** Polls one supplier's sent refills that are due, oldest-polled first, 100 ids a call. */
async function pollSupplierRefills(
  deps: SupplierDeps,
  sup: SupplierRow,
  dueSeconds: number,
): Promise<RefillPollSummary> {
  const summary: RefillPollSummary = { polled: 0, finished: 0, failedCalls: 0 };
  const rows = await deps.db
    .select({
      id: orderRefill.id,
      orderId: orderRefill.orderId,
      supplierRef: orderRefill.supplierRef,
    })
    .from(orderRefill)
    .where(
      and(
        eq(orderRefill.supplierId, sup.id),
        eq(orderRefill.state, 'sent'),
        isNotNull(orderRefill.supplierRef),
        or(
          isNull(orderRefill.lastPolledAt),
          lt(orderRefill.lastPolledAt, sql`now() - make_interval(secs => ${dueSeconds * 0.8})`),
        ),
      ),
    )
    .orderBy(sql`${orderRefill.lastPolledAt} ASC NULLS FIRST`, asc(orderRefill.id))
    .limit(REFILL_TICK_LIMIT);
  if (rows.length === 0) return summary;
  const built = adapterOfRow(deps, sup);
  if (!built.ok) {
    await recordHealth(deps.db, sup.id, { ok: false, message: built.message });
    return { ...summary, failedCalls: 1 };
  }
  for (let i = 0; i < rows.length; i += REFILL_POLL_BATCH) {
    const batch = rows.slice(i, i + REFILL_POLL_BATCH);
    const byRef = new Map(batch.map((r) => [r.supplierRef ?? '', r]));
    const outcome = await built.adapter.refillStatus([...byRef.keys()]);
    await logExchanges(deps.db, sup.id, [...new Set(batch.map((r) => r.orderId))], outcome);
    if (!outcome.ok) {
      summary.failedCalls += 1;
      continue;
    }
    const answered = [...outcome.value.keys()].flatMap((ref) => {
      const r = byRef.get(ref);
      return r ? [r.id] : [];
    });
    if (answered.length) {
      await deps.db
        .update(orderRefill)
        .set({ lastPolledAt: new Date() })
        .where(inArray(orderRefill.id, answered));
    }
    summary.polled += answered.length;
    for (const [ref, status] of outcome.value) {
      const r = byRef.get(ref);
      if (!r) continue;
      try {
        if (await applyRefillStatus(deps, r.id, status)) summary.finished += 1;
      } catch (err) {
        // One refill that cannot be recorded must not stop the others: it is polled again.
        deps.logger.error(
          { err: safeError(err), refillId: r.id },
          'could not apply a refill status',
        );
      }
    }
  }
  return summary;
}

export type RefillTickSummary = {
  /** Pending routed refills found due (lost or retried jobs) and sent. */
  refillsSent: number;
  refillsPolled: number;
  refillsFinished: number;
  refillCallsFailed: number;
};

/**
 * The tick's share of refills: sends the pending routed refills that are due (a lost job, or a
 * retry whose job did not run), then polls the refills suppliers have. Never throws.
 */
export async function refillTick(
  deps: SupplierDeps,
  options: { dueSeconds?: number } = {},
): Promise<RefillTickSummary> {
  const summary: RefillTickSummary = {
    refillsSent: 0,
    refillsPolled: 0,
    refillsFinished: 0,
    refillCallsFailed: 0,
  };
  try {
    const due = await deps.db
      .select({ id: orderRefill.id })
      .from(orderRefill)
      .where(
        and(
          eq(orderRefill.state, 'pending'),
          isNotNull(orderRefill.supplierId),
          lte(orderRefill.nextAttemptAt, sql`now()`),
        ),
      )
      .orderBy(asc(orderRefill.nextAttemptAt))
      .limit(REFILL_TICK_LIMIT);
    for (const r of due) {
      try {
        if ((await sendRefill(deps, r.id)) === 'sent') summary.refillsSent += 1;
      } catch (err) {
        deps.logger.error({ err: safeError(err), refillId: r.id }, 'sending a refill failed');
      }
    }
    const suppliers = await deps.db
      .select()
      .from(supplier)
      .where(
        and(
          sql`${supplier.state} <> 'disabled'`,
          sql`EXISTS (SELECT 1 FROM ${orderRefill} WHERE ${orderRefill.supplierId} = ${supplier.id} AND ${orderRefill.state} = 'sent')`,
        ),
      );
    const dueSeconds = options.dueSeconds ?? deps.env.SUPPLIER_POLL_SECONDS;
    const results = await Promise.all(
      suppliers.map((s) =>
        pollSupplierRefills(deps, s, dueSeconds).catch((err: unknown) => {
          deps.logger.error({ err: safeError(err), supplierId: s.id }, 'polling refills failed');
          return { polled: 0, finished: 0, failedCalls: 1 };
        }),
      ),
    );
    for (const r of results) {
      summary.refillsPolled += r.polled;
      summary.refillsFinished += r.finished;
      summary.refillCallsFailed += r.failedCalls;
    }
  } catch (err) {
    deps.logger.error({ err: safeError(err) }, 'the refill tick failed');
  }
  return summary;
}

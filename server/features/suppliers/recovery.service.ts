// Taking over after a process died (docs/decisions/0017-crash-recovery.md): within seconds of
// noticing a dead instance, another one (or the restarted process) moves the sends it had
// claimed to review — they may have reached the supplier, so they are never sent again —,
// gives the orders whose dispatch job it held a new job, and ends the periodic job it was
// running, so polling goes on. All in one transaction with the removal of the dead instance's
// row: whoever removes it does all of this, once.
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../db/client';
import { appInstance } from '../../db/schema/instances';
import { orderDispatch } from '../../db/schema/suppliers';
import {
  jobsOfEarlierProcesses,
  orphanedJobs,
  reapDeadInstances,
  type Instance,
} from '../../jobs/instances';
import {
  endJobsInTx,
  insertInTx,
  JOB_SCHEMA,
  QUEUES,
  sendInTx,
  type QueueName,
} from '../../jobs/queue';
import { INTERRUPTED_REASON } from './dispatch.service';
import type { SupplierDeps } from './suppliers.service';
import { queueNotification } from '../notifications/events';

/** Orders given a new dispatch job per pass at most (the time-based net catches the rest). */
export const REQUEUE_LIMIT = 5000;

const PERIODIC: QueueName[] = [
  'supplier-tick',
  'supplier-sync',
  'reports-close',
  'announcement-tick',
];

export type RecoverySummary = {
  /** Instances found dead and taken over. */
  deadInstances: number;
  /** Sends they had claimed, now in review. */
  reviewed: number;
  /** Queued or waiting orders given a new dispatch job. */
  requeued: number;
  /** Periodic jobs (tick, sync) a dead process held, ended. */
  periodicEnded: number;
  /** Other jobs an earlier process held (PGlite only), failed so they run again. */
  jobsRetried: number;
};

/** Sends claimed by an instance that is no longer here (dead, or stopped mid-send). */
async function reviewOrphanedSends(tx: Tx): Promise<number> {
  const rows = await tx
    .update(orderDispatch)
    .set({ state: 'review', reviewReason: INTERRUPTED_REASON, updatedAt: new Date() })
    .where(
      and(
        eq(orderDispatch.state, 'sending'),
        isNotNull(orderDispatch.claimedBy),
        sql`NOT EXISTS (SELECT 1 FROM ${appInstance} WHERE ${appInstance.id} = ${orderDispatch.claimedBy})`,
      ),
    )
    .returning({ orderId: orderDispatch.orderId });
  for (const r of rows) await queueNotification(tx, { kind: 'order.review', orderId: r.orderId });
  return rows.length;
}

/**
 * Queued or waiting orders without a dispatch job waiting to run: their job was running in a
 * dead process. A new one is written (not before the order is due); one too many does nothing,
 * the dispatch row decides.
 */
async function requeueLostDispatches(tx: Tx): Promise<number> {
  const job = sql.raw(`${JOB_SCHEMA}.job`);
  const rows = await queryRows<{ order_id: string; next_attempt_at: string | Date }>(
    tx,
    sql`SELECT d.order_id, d.next_attempt_at FROM ${orderDispatch} d
        WHERE d.state IN ('queued', 'waiting')
          AND NOT EXISTS (
            SELECT 1 FROM ${job} j
            WHERE j.name = 'supplier-dispatch' AND j.state IN ('created', 'retry')
              AND j.data->>'orderId' = d.order_id::text)
        ORDER BY d.next_attempt_at
        LIMIT ${REQUEUE_LIMIT}`,
  );
  const now = Date.now();
  await insertInTx(
    tx,
    'supplier-dispatch',
    rows.map((r) => {
      const due = new Date(r.next_attempt_at);
      return { data: { orderId: r.order_id }, ...(due.getTime() > now ? { startAfter: due } : {}) };
    }),
  );
  return rows.length;
}

/**
 * One pass: dead instances found and taken over. Cheap when nobody died (a delete and an
 * update that find nothing, and a look at the periodic queues).
 */
export async function recoverInterrupted(
  deps: SupplierDeps,
  self: Instance,
): Promise<RecoverySummary> {
  return deps.db.transaction(async (tx) => {
    const dead = await reapDeadInstances(tx, self);
    const reviewed = await reviewOrphanedSends(tx);
    const requeued = dead.length > 0 ? await requeueLostDispatches(tx) : 0;
    // The periodic job a dead process was running keeps its queue's one place until it is
    // ended; a new tick is written at once so polling resumes now, not at the next period.
    const held = new Set(dead.flatMap((d) => d.heldJobs));
    const orphans = new Set((await orphanedJobs(tx, self, PERIODIC)).map((o) => o.id));
    for (const id of held) orphans.add(id);
    // The ids alone: cancelling a job of another queue, or one already finished, changes nothing.
    for (const name of PERIODIC) await endJobsInTx(tx, name, [...orphans], 'cancel');
    if (orphans.size > 0 || dead.length > 0) await sendInTx(tx, 'supplier-tick', {});
    // PGlite: whatever an earlier process was running is over. Dispatch jobs were replaced
    // above; the others run again as their queue retries them (as pg-boss would on expiry).
    let jobsRetried = 0;
    if (dead.length > 0) {
      const others = (Object.keys(QUEUES) as QueueName[]).filter((q) => !PERIODIC.includes(q));
      const earlier = await jobsOfEarlierProcesses(tx, self, others);
      for (const name of others) {
        const ids = earlier.filter((o) => o.name === name).map((o) => o.id);
        await endJobsInTx(tx, name, ids, name === 'supplier-dispatch' ? 'cancel' : 'fail');
      }
      jobsRetried = earlier.filter((o) => o.name !== 'supplier-dispatch').length;
    }
    return {
      deadInstances: dead.length,
      reviewed,
      requeued,
      periodicEnded: orphans.size,
      jobsRetried,
    };
  });
}

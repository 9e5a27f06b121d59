// The background workers of one instance: supplier dispatch, the periodic tick (status polls,
// interrupted sends, overdue retries) and the catalogue/price sync. Every instance runs them;
// pg-boss hands each job to one worker, and the periodic jobs are throttled to one per period
// across all instances.
import type { SupplierDeps } from '../features/suppliers/suppliers.service';
import {
  requeueOverdue,
  reviewStaleSends,
  runDispatch,
} from '../features/suppliers/dispatch.service';
import { pollAll } from '../features/suppliers/poll.service';
import { syncAll } from '../features/suppliers/sync.service';
import { deliver } from '../features/webhooks/webhooks.service';

export type WorkerOptions = {
  /** Dispatch workers in this process (each takes a batch of jobs at a time). */
  dispatchWorkers?: number;
  /** Jobs per dispatch batch, handled side by side (each supplier still has its own limit). */
  dispatchBatch?: number;
  /** Queue polling interval when idle, in seconds (jobs sent by this process wake it at once). */
  pollingIntervalSeconds?: number;
  /** Start the periodic timers (tick and sync); off in tests that drive them by hand. */
  timers?: boolean;
};

export type Workers = { stop: () => Promise<void> };

/** One periodic tick: what must happen every SUPPLIER_POLL_SECONDS. */
export async function runTick(deps: SupplierDeps) {
  const reviewed = await reviewStaleSends(deps);
  const requeued = await requeueOverdue(deps);
  const polled = await pollAll(deps);
  return { reviewed, requeued, ...polled };
}

export async function startWorkers(
  deps: SupplierDeps,
  options: WorkerOptions = {},
): Promise<Workers> {
  const { jobs, logger, env } = deps;
  const pollingIntervalSeconds = options.pollingIntervalSeconds ?? 2;
  const batchSize = options.dispatchBatch ?? 16;
  for (let i = 0; i < (options.dispatchWorkers ?? 2); i += 1) {
    await jobs.work<{ orderId: string }>(
      'supplier-dispatch',
      { batchSize, pollingIntervalSeconds },
      async (batch) => {
        const failures: unknown[] = [];
        await Promise.all(
          batch.map(async (job) => {
            try {
              await runDispatch(deps, job.data.orderId);
            } catch (err) {
              logger.error({ err, orderId: job.data.orderId }, 'dispatch failed');
              failures.push(err);
            }
          }),
        );
        // pg-boss retries the batch; a repeated job finds already-claimed orders and does nothing.
        if (failures.length) throw new Error(`${failures.length} dispatch job(s) failed`);
      },
    );
  }
  await jobs.work<{ deliveryId: string }>(
    'webhook-deliver',
    { batchSize: 8, pollingIntervalSeconds },
    async (batch) => {
      const failures: unknown[] = [];
      await Promise.all(
        batch.map(async (job) => {
          try {
            await deliver(deps, job.data.deliveryId);
          } catch (err) {
            logger.error({ err, deliveryId: job.data.deliveryId }, 'webhook delivery failed');
            failures.push(err);
          }
        }),
      );
      // A repeated job finds a delivery already sent, or not due yet, and does nothing.
      if (failures.length) throw new Error(`${failures.length} webhook job(s) failed`);
    },
  );
  await jobs.work('supplier-tick', { batchSize: 1, pollingIntervalSeconds }, async () => {
    const summary = await runTick(deps);
    if (summary.reviewed || summary.requeued || summary.settled || summary.failedCalls)
      logger.info(summary, 'supplier tick');
  });
  await jobs.work('supplier-sync', { batchSize: 1, pollingIntervalSeconds }, async () => {
    const summary = await syncAll(deps);
    logger.info(
      {
        suppliers: summary.suppliers,
        failed: summary.failed,
        repriced: summary.repriced,
        deactivated: summary.deactivated.length,
      },
      'supplier sync',
    );
  });

  const timers: NodeJS.Timeout[] = [];
  if (options.timers ?? true) {
    const pollSeconds = env.SUPPLIER_POLL_SECONDS;
    const syncSeconds = env.SUPPLIER_SYNC_MINUTES * 60;
    const enqueue = (name: 'supplier-tick' | 'supplier-sync', seconds: number) => () => {
      jobs
        .sendThrottled(name, {}, seconds)
        .then((id) => {
          if (id) jobs.wake(name);
        })
        .catch((err: unknown) => logger.warn({ err, queue: name }, 'could not enqueue'));
    };
    // Twice per period, so no period is missed; the throttle keeps one job per period.
    const tick = enqueue('supplier-tick', pollSeconds);
    const sync = enqueue('supplier-sync', syncSeconds);
    timers.push(setInterval(tick, Math.max(500, (pollSeconds * 1000) / 2)));
    timers.push(setInterval(sync, Math.min(60_000, (syncSeconds * 1000) / 2)));
    for (const t of timers) t.unref();
    tick();
    sync();
  }
  return {
    async stop() {
      for (const t of timers) clearInterval(t);
    },
  };
}

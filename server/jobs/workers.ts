// The background workers of one instance: supplier dispatch, refills and cancels, the periodic
// tick (status polls, interrupted sends, overdue retries, lost refills and cancels) and the
// catalogue/price sync. Every instance runs them;
// pg-boss hands each job to one worker, and the periodic jobs are throttled to one per period
// across all instances. Each instance also writes a heartbeat and takes over the work of
// instances that died (docs/decisions/0017-crash-recovery.md).
import type { SupplierDeps } from '../features/suppliers/suppliers.service';
import { cancelTick, sendCancel } from '../features/suppliers/cancels.service';
import {
  requeueOverdue,
  reviewStaleSends,
  runDispatch,
} from '../features/suppliers/dispatch.service';
import { pollAll } from '../features/suppliers/poll.service';
import { recoverInterrupted } from '../features/suppliers/recovery.service';
import { refillTick, sendRefill } from '../features/suppliers/refills.service';
import { syncAll } from '../features/suppliers/sync.service';
import { closeFinishedDays } from '../features/reports/reports.service';
import { autoCloseTickets } from '../features/tickets/tickets.service';
import {
  dueAnnouncementEmails,
  sendAnnouncementEmailBatch,
} from '../features/announcements/announcements.service';
import { deliver } from '../features/webhooks/webhooks.service';
import { runPaypalCapture } from '../features/payments/paypal/paypal.service';
import type { NotificationEvent } from '../features/notifications/events';
import { runNotify } from '../features/telegram/notify.service';
import { sendTelegram } from '../features/telegram/sender.service';
import { joinInstances, type Instance } from './instances';
import type { Job } from './queue';
import { safeError } from './safe-error';

export type WorkerOptions = {
  /** Dispatch workers in this process (each takes a batch of jobs at a time). */
  dispatchWorkers?: number;
  /** Jobs per dispatch batch, handled side by side (each supplier still has its own limit). */
  dispatchBatch?: number;
  /** Queue polling interval when idle, in seconds (jobs sent by this process wake it at once). */
  pollingIntervalSeconds?: number;
  /** Start the periodic timers (tick and sync); off in tests that drive them by hand. */
  timers?: boolean;
  /**
   * This process's instance. The server joins it before any worker of any queue starts (on
   * PGlite, jobs running when it joined are an earlier process's); without it one is joined
   * here, as an instance among others.
   */
  instance?: Instance;
  /** Heartbeat and dead-instance period of an instance joined here (tests shorten them). */
  heartbeatSeconds?: number;
  deadAfterSeconds?: number;
};

export type Workers = {
  instance: Instance;
  /** Stops the timers (heartbeat included). */
  stop: () => Promise<void>;
  /** Removes the instance's row: after the queue stopped, so nothing it runs is taken over. */
  leave: () => Promise<void>;
};

/** One periodic tick: what must happen every SUPPLIER_POLL_SECONDS. */
export async function runTick(deps: SupplierDeps) {
  const reviewed = await reviewStaleSends(deps);
  const requeued = await requeueOverdue(deps);
  const polled = await pollAll(deps);
  // Refills and cancels catch their own failures: they never stop the tick.
  const refills = await refillTick(deps);
  const cancels = await cancelTick(deps);
  return {
    reviewed,
    requeued,
    ...polled,
    ...refills,
    cancelsSent: cancels.sent,
    cancelsRefused: cancels.refused,
  };
}

export async function startWorkers(
  base: SupplierDeps,
  options: WorkerOptions = {},
): Promise<Workers> {
  const instance =
    options.instance ??
    (await joinInstances(base.db, {
      sole: false,
      ...(options.heartbeatSeconds ? { heartbeatSeconds: options.heartbeatSeconds } : {}),
      ...(options.deadAfterSeconds ? { deadAfterSeconds: options.deadAfterSeconds } : {}),
    }));
  // Claims made by these workers carry the instance's id.
  const deps: SupplierDeps = { ...base, instanceId: instance.id };
  const { jobs, logger, env } = deps;

  /** Takes over what dead instances left; logged only when it found something. */
  async function recover(): Promise<void> {
    const summary = await recoverInterrupted(deps, instance);
    if (Object.values(summary).some((n) => n > 0)) {
      logger.warn(summary, 'took over the work of a stopped instance');
      jobs.wake('supplier-dispatch');
      jobs.wake('supplier-tick');
    }
  }
  // Before any worker runs: a restarted process first settles what it left behind.
  await recover().catch((err: unknown) =>
    logger.error({ err: safeError(err) }, 'recovering interrupted work failed'),
  );

  /** A periodic job is recorded as held while it runs, so a dead holder is recognised. */
  async function holding(batch: Job<unknown>[], run: () => Promise<void>): Promise<void> {
    for (const job of batch) await instance.hold(job.id);
    try {
      await run();
    } finally {
      for (const job of batch)
        await instance
          .release(job.id)
          .catch((err: unknown) => logger.warn({ err: safeError(err) }, 'could not release a job'));
    }
  }

  const pollingIntervalSeconds = options.pollingIntervalSeconds ?? 2;
  const batchSize = options.dispatchBatch ?? 16;
  for (let i = 0; i < (options.dispatchWorkers ?? 2); i += 1) {
    await jobs.work<{ orderId: string }>(
      'supplier-dispatch',
      { batchSize, pollingIntervalSeconds },
      async (batch) => {
        // pg-boss retries the batch; a repeated job finds already-claimed orders and does nothing.
        await settleEach(
          batch,
          (data) => runDispatch(deps, data.orderId),
          (err, data) =>
            logger.error({ err: safeError(err), orderId: data.orderId }, 'dispatch failed'),
          'dispatch job(s) failed',
        );
      },
    );
  }
  await jobs.work<{ deliveryId: string }>(
    'webhook-deliver',
    { batchSize: 8, pollingIntervalSeconds },
    async (batch) => {
      // A repeated job finds a delivery already sent, or not due yet, and does nothing.
      await settleEach(
        batch,
        (data) => deliver(deps, data.deliveryId),
        (err, data) =>
          logger.error(
            { err: safeError(err), deliveryId: data.deliveryId },
            'webhook delivery failed',
          ),
        'webhook job(s) failed',
      );
    },
  );
  await jobs.work<{ refillId: string }>(
    'supplier-refill',
    { batchSize: 8, pollingIntervalSeconds },
    async (batch) => {
      // A repeated job finds the refill claimed (not due) or finished, and does nothing.
      await settleEach(
        batch,
        (data) => sendRefill(deps, data.refillId),
        (err, data) =>
          logger.error({ err: safeError(err), refillId: data.refillId }, 'refill failed'),
        'refill job(s) failed',
      );
    },
  );
  await jobs.work<{ orderId: string; attempt?: number }>(
    'supplier-cancel',
    { batchSize: 8, pollingIntervalSeconds },
    async (batch) => {
      // A repeated job finds the cancel answered and does nothing (a second cancel is harmless).
      await settleEach(
        batch,
        (data) => sendCancel(deps, data.orderId, data.attempt ?? 1),
        (err, data) =>
          logger.error({ err: safeError(err), orderId: data.orderId }, 'cancel failed'),
        'cancel job(s) failed',
      );
    },
  );
  await jobs.work<{ paymentId: string }>(
    'paypal-capture',
    { batchSize: 4, pollingIntervalSeconds },
    async (batch) => {
      // A repeated job finds the payment settled (no PayPal call), or PayPal answers the capture
      // again by its request id.
      await settleEach(
        batch,
        (data) => runPaypalCapture(deps, data.paymentId),
        (err, data) =>
          logger.warn(
            { err: safeError(err), paymentId: data.paymentId },
            'paypal capture job failed',
          ),
        'paypal capture job(s) failed',
      );
    },
  );
  await jobs.work<NotificationEvent>(
    'notify',
    { batchSize: 8, pollingIntervalSeconds },
    async (batch) => {
      let queued = 0;
      // One after the other: each event is its own transaction, keyed by its job.
      for (const job of batch) queued += await runNotify(deps, job.id, job.data);
      if (queued) jobs.wake('telegram-send');
    },
  );
  await jobs.work<{ messageId: string }>(
    'telegram-send',
    { batchSize: 8, pollingIntervalSeconds },
    async (batch) => {
      // Side by side: the pacing slots in the database keep Telegram's limits.
      // A repeated job finds its message sent (or dropped) and does nothing.
      await settleEach(
        batch,
        (data) => sendTelegram(deps, data.messageId),
        (err, data) =>
          logger.warn({ err: safeError(err), messageId: data.messageId }, 'telegram send failed'),
        'telegram send(s) failed',
      );
    },
  );
  await jobs.work('supplier-tick', { batchSize: 1, pollingIntervalSeconds }, (batch) =>
    holding(batch, async () => {
      try {
        const summary = await runTick(deps);
        if (
          summary.reviewed ||
          summary.requeued ||
          summary.settled ||
          summary.failedCalls ||
          summary.refillsSent ||
          summary.refillsFinished ||
          summary.refillCallsFailed ||
          summary.cancelsSent ||
          summary.cancelsRefused
        )
          logger.info(summary, 'supplier tick');
      } catch (err) {
        logger.error({ err: safeError(err) }, 'supplier tick failed');
        throw err;
      }
    }),
  );
  await jobs.work<{ announcementId: string }>(
    'announcement-email',
    { batchSize: 1, pollingIntervalSeconds },
    async ([job]) => {
      if (!job) return;
      try {
        const { queued, more } = await sendAnnouncementEmailBatch(deps, job.data.announcementId);
        if (queued > 0) jobs.wake('mail');
        if (more) jobs.wake('announcement-email');
      } catch (err) {
        logger.error(
          { err: safeError(err), announcementId: job.data.announcementId },
          'announcement e-mail batch failed',
        );
        // Retried: the customers this batch claimed rolled back with it.
        throw err;
      }
    },
  );
  await jobs.work('announcement-tick', { batchSize: 1, pollingIntervalSeconds }, (batch) =>
    holding(batch, async () => {
      const due = await dueAnnouncementEmails(deps.db);
      for (const announcementId of due) await jobs.send('announcement-email', { announcementId });
      if (due.length) jobs.wake('announcement-email');
    }),
  );
  await jobs.work('reports-close', { batchSize: 1, pollingIntervalSeconds }, (batch) =>
    holding(batch, async () => {
      try {
        const days = await closeFinishedDays(deps.db);
        if (days.length) logger.info({ days: days.length }, 'report days summarised');
      } catch (err) {
        logger.error({ err: safeError(err) }, 'report days summary failed');
        throw err;
      }
    }),
  );
  await jobs.work('tickets-auto-close', { batchSize: 1, pollingIntervalSeconds }, (batch) =>
    holding(batch, async () => {
      try {
        const closed = await autoCloseTickets(deps.db);
        if (closed) logger.info({ closed }, 'idle support tickets closed');
      } catch (err) {
        logger.error({ err: safeError(err) }, 'support tickets auto-close failed');
        throw err;
      }
    }),
  );
  await jobs.work('supplier-sync', { batchSize: 1, pollingIntervalSeconds }, (batch) =>
    holding(batch, async () => {
      try {
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
      } catch (err) {
        logger.error({ err: safeError(err) }, 'supplier sync failed');
        throw err;
      }
    }),
  );

  const timers: NodeJS.Timeout[] = [];
  if (options.timers ?? true) {
    const pollSeconds = env.SUPPLIER_POLL_SECONDS;
    const syncSeconds = env.SUPPLIER_SYNC_MINUTES * 60;
    const enqueue =
      (
        name:
          | 'supplier-tick'
          | 'supplier-sync'
          | 'reports-close'
          | 'tickets-auto-close'
          | 'announcement-tick',
        seconds: number,
      ) =>
      () => {
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
    const close = enqueue('reports-close', 3600);
    const ticketsClose = enqueue('tickets-auto-close', 3600);
    // Announcements whose start came (or whose first e-mail job was lost) start their e-mail.
    const announcements = enqueue('announcement-tick', 60);
    timers.push(setInterval(tick, Math.max(500, (pollSeconds * 1000) / 2)));
    timers.push(setInterval(sync, Math.min(60_000, (syncSeconds * 1000) / 2)));
    timers.push(setInterval(close, 30 * 60_000));
    timers.push(setInterval(ticketsClose, 30 * 60_000));
    timers.push(setInterval(announcements, 30_000));
    for (const t of timers) t.unref();
    tick();
    sync();
    close();
    ticketsClose();
    announcements();
  }
  // The heartbeat, then a look for dead instances: a dead one is taken over within
  // deadAfterSeconds + heartbeatSeconds of its last beat.
  let beating = false;
  const heartbeat = setInterval(() => {
    if (beating) return;
    beating = true;
    instance
      .beat()
      .then(recover)
      .catch((err: unknown) => logger.warn({ err: safeError(err) }, 'heartbeat failed'))
      .finally(() => {
        beating = false;
      });
  }, instance.heartbeatSeconds * 1000);
  heartbeat.unref();
  timers.push(heartbeat);
  return {
    instance,
    async stop() {
      for (const t of timers) clearInterval(t);
    },
    async leave() {
      await instance.leave();
    },
  };
}

/**
 * Runs every job of a batch side by side; each failure is logged, and the batch then fails (so
 * pg-boss retries it) once all have finished. Every worker that uses it is safe to repeat: a
 * repeated job finds its row done and does nothing.
 */
async function settleEach<T>(
  batch: readonly { data: T }[],
  run: (data: T) => Promise<unknown>,
  onError: (err: unknown, data: T) => void,
  what: string,
): Promise<void> {
  let failed = 0;
  await Promise.all(
    batch.map(async (job) => {
      try {
        await run(job.data);
      } catch (err) {
        onError(err, job.data);
        failed += 1;
      }
    }),
  );
  if (failed) throw new Error(`${failed} ${what}`);
}

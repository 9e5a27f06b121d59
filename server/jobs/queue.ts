// The durable job queue: pg-boss 10 in the same database, on PostgreSQL and on the embedded
// PGlite alike. pg-boss is given our own SQL executor (Database.executeSql) instead of opening
// connections itself, so on PGlite every statement goes through PGlite's own lock and never runs
// inside a transaction of ours; and a job can be inserted inside one of our transactions
// (send(..., { tx })), so it commits or rolls back with the change that asked for it.
import PgBoss from 'pg-boss';
import { executeSqlIn, type ExecuteSql, type Tx } from '../db/client';
import { safeError } from './safe-error';

export const JOB_SCHEMA = 'pgboss';

type QueueSpec = {
  policy: 'standard' | 'stately';
  retryLimit: number;
  retryDelay: number;
  retryBackoff: boolean;
  /** A job not finished in this time is failed (and retried): longer than the work it does. */
  expireInSeconds: number;
};

/** Every queue, created with the schema. */
export const QUEUES = {
  /** One outgoing e-mail: retried with back-off when the mail server fails. */
  mail: {
    policy: 'standard',
    retryLimit: 8,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 120,
  },
  /** One sign-in code by SMS: a few quick retries (the code expires in 10 minutes). */
  sms: {
    policy: 'standard',
    retryLimit: 3,
    retryDelay: 15,
    retryBackoff: true,
    expireInSeconds: 60,
  },
  /**
   * Forward one order to its supplier. Retrying the job is safe: the order's dispatch row is
   * claimed before any call, so a repeated job finds nothing to do.
   */
  'supplier-dispatch': {
    policy: 'standard',
    retryLimit: 5,
    retryDelay: 10,
    retryBackoff: true,
    expireInSeconds: 300,
  },
  /** Status polling, stuck sends, delayed retries: at most one waiting and one running. */
  'supplier-tick': {
    policy: 'stately',
    retryLimit: 0,
    retryDelay: 0,
    retryBackoff: false,
    expireInSeconds: 900,
  },
  /**
   * Send one refill to the supplier that fulfilled its order (SMM `refill`). The refill row is
   * the truth: a repeated job finds it already sent and does nothing; a refill asked twice
   * upstream costs nothing.
   */
  'supplier-refill': {
    policy: 'standard',
    retryLimit: 5,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 300,
  },
  /**
   * Forward one customer's cancel of an order in progress to its supplier (SMM `cancel`). The
   * dispatch's cancel state is the truth; the money moves only when the supplier reports the
   * order cancelled.
   */
  'supplier-cancel': {
    policy: 'standard',
    retryLimit: 5,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 300,
  },
  /** One webhook delivery attempt (retries are scheduled by the delivery itself). */
  'webhook-deliver': {
    policy: 'standard',
    retryLimit: 3,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 120,
  },
  /**
   * One domain event to notify (server/features/notifications/events.ts): the worker finds who
   * receives it and queues their messages. Retrying is safe: messages are keyed by event.
   */
  notify: {
    policy: 'standard',
    retryLimit: 5,
    retryDelay: 15,
    retryBackoff: true,
    expireInSeconds: 120,
  },
  /**
   * One Telegram message (a telegram_message row): the row is the truth, so a repeated job finds
   * it sent and does nothing. A 429 reschedules the row's job after `retry_after` without
   * counting as a failure; network and 5xx errors are retried here with back-off.
   */
  'telegram-send': {
    policy: 'standard',
    retryLimit: 6,
    retryDelay: 10,
    retryBackoff: true,
    expireInSeconds: 60,
  },
  /**
   * One batch of an announcement's e-mail (server/features/announcements/): queues the e-mails of
   * up to 200 customers not sent it yet and, when the batch was full, the next batch. Retrying
   * is safe: each customer's send is a row claimed with their e-mail job, in one transaction.
   */
  'announcement-email': {
    policy: 'standard',
    retryLimit: 5,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 300,
  },
  /** Starts the e-mail of announcements whose start has come (every minute). */
  'announcement-tick': {
    policy: 'stately',
    retryLimit: 0,
    retryDelay: 0,
    retryBackoff: false,
    expireInSeconds: 300,
  },
  /** Summarising the finished days for reports (docs/decisions/0021), hourly. */
  'reports-close': {
    policy: 'stately',
    retryLimit: 1,
    retryDelay: 300,
    retryBackoff: false,
    expireInSeconds: 1800,
  },
  /** Closing support tickets idle since the last staff answer (docs/domain.md, "Support desk"), hourly. */
  'tickets-auto-close': {
    policy: 'stately',
    retryLimit: 1,
    retryDelay: 300,
    retryBackoff: false,
    expireInSeconds: 600,
  },
  /**
   * Capture one approved PayPal order (CHECKOUT.ORDER.APPROVED), for a customer who approved and
   * never came back. One waiting and one running per order (singleton key = order id); a
   * repeated job finds the payment settled, or PayPal answers the capture again by its request id.
   */
  'paypal-capture': {
    policy: 'stately',
    retryLimit: 8,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 120,
  },
  /** Re-reading every supplier's catalogue and prices. */
  'supplier-sync': {
    policy: 'stately',
    retryLimit: 1,
    retryDelay: 60,
    retryBackoff: false,
    expireInSeconds: 1800,
  },
} as const satisfies Record<string, QueueSpec>;

export type QueueName = keyof typeof QUEUES;

export type JobOptions = {
  /** Insert the job inside this transaction of ours. */
  tx?: Tx;
  startAfterSeconds?: number;
  singletonKey?: string;
};

export type Job<T> = { id: string; data: T };

export type JobQueue = {
  send(name: QueueName, data: object, options?: JobOptions): Promise<string | null>;
  /** At most one job of `name` per window of `seconds` (across every instance). */
  sendThrottled(name: QueueName, data: object, seconds: number): Promise<string | null>;
  work<T>(
    name: QueueName,
    options: { batchSize: number; pollingIntervalSeconds: number },
    handler: (jobs: Job<T>[]) => Promise<void>,
  ): Promise<string>;
  /** Wakes this process's workers of a queue (a job was just sent). */
  wake(name: QueueName): void;
  /** Jobs waiting or running, per queue. */
  depth(): Promise<Record<QueueName, number>>;
  start(): Promise<void>;
  stop(): Promise<void>;
};

/**
 * Writes a job inside one of our transactions without a started queue (pg-boss only builds the
 * insert; the statement runs on the transaction's connection). For code that has a transaction
 * but no queue at hand, such as an order's status change queueing its webhooks.
 */
const writer = new PgBoss({
  db: {
    executeSql: () => Promise.reject(new Error('the job writer only writes inside a transaction')),
  },
  schema: JOB_SCHEMA,
});

export function sendInTx(
  tx: Tx,
  name: QueueName,
  data: object,
  options: { startAfterSeconds?: number; singletonKey?: string } = {},
): Promise<string | null> {
  return writer.send(name, data, {
    db: { executeSql: executeSqlIn(tx) },
    ...(options.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {}),
    ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
  });
}

/** Writes many jobs of one queue inside one of our transactions, in one statement. */
export async function insertInTx(
  tx: Tx,
  name: QueueName,
  jobs: { data: object; startAfter?: Date }[],
): Promise<void> {
  if (jobs.length === 0) return;
  await writer.insert(
    jobs.map((j) => ({
      name,
      data: j.data,
      ...(j.startAfter ? { startAfter: j.startAfter.toISOString() } : {}),
    })),
    { db: { executeSql: executeSqlIn(tx) } },
  );
}

/**
 * Ends jobs a dead process held, inside one of our transactions: `cancel` frees their place
 * (a periodic queue runs one at a time), `fail` retries them as their queue says.
 */
export async function endJobsInTx(
  tx: Tx,
  name: QueueName,
  ids: string[],
  how: 'cancel' | 'fail',
): Promise<void> {
  if (ids.length === 0) return;
  const db = { executeSql: executeSqlIn(tx) };
  if (how === 'cancel') await writer.cancel(name, ids, { db });
  else await writer.fail(name, ids, { db });
}

/**
 * How often pg-boss's maintenance runs (one instance per interval): it fails jobs past their
 * `expireInSeconds`, the last safety net for a job whose process died. pg-boss's default is
 * two minutes.
 */
export const MAINTENANCE_SECONDS = 30;

function bossFor(executeSql: ExecuteSql, options: { supervise: boolean }): PgBoss {
  return new PgBoss({
    db: { executeSql: (text, values) => executeSql(text, values) },
    schema: JOB_SCHEMA,
    migrate: true,
    supervise: options.supervise,
    maintenanceIntervalSeconds: MAINTENANCE_SECONDS,
    // Timers of our own enqueue the periodic jobs (the cron timekeeper has a one-minute grain).
    schedule: false,
    archiveCompletedAfterSeconds: 3600,
    deleteAfterDays: 7,
  });
}

/**
 * Creates pg-boss's schema and our queues (idempotent; part of the database migrations, so a
 * fresh database is ready before any instance starts its workers).
 */
export async function ensureJobSchema(executeSql: ExecuteSql): Promise<void> {
  const boss = bossFor(executeSql, { supervise: false });
  await boss.start();
  for (const [name, spec] of Object.entries(QUEUES)) {
    const existing = await boss.getQueue(name);
    if (existing) {
      await boss.updateQueue(name, { name, ...spec });
      continue;
    }
    try {
      await boss.createQueue(name, { name, ...spec });
    } catch (err) {
      // Another instance created it between the read and the insert.
      if (!(await boss.getQueue(name))) throw err;
    }
  }
  await boss.stop({ graceful: false, close: false });
}

export function createJobQueue(
  executeSql: ExecuteSql,
  options: { onError: (err: unknown) => void },
): JobQueue {
  const boss = bossFor(executeSql, { supervise: true });
  boss.on('error', options.onError);
  const workers = new Map<QueueName, string[]>();
  let started = false;

  return {
    async send(name, data, opts = {}) {
      if (opts.tx) return sendInTx(opts.tx, name, data, opts);
      return boss.send(name, data, {
        ...(opts.startAfterSeconds ? { startAfter: opts.startAfterSeconds } : {}),
        ...(opts.singletonKey ? { singletonKey: opts.singletonKey } : {}),
      });
    },
    sendThrottled(name, data, seconds) {
      return boss.sendThrottled(name, data, {}, seconds, name);
    },
    async work<T>(
      name: QueueName,
      opts: { batchSize: number; pollingIntervalSeconds: number },
      handler: (jobs: Job<T>[]) => Promise<void>,
    ) {
      const id = await boss.work<T>(name, opts, async (jobs) => {
        try {
          await handler(jobs.map((j) => ({ id: j.id, data: j.data })));
        } catch (err) {
          // pg-boss writes the error into the job row without awaiting the write: it must be
          // an error that can be written (server/jobs/safe-error.ts).
          throw safeError(err);
        }
        // A full batch means more may be waiting: fetch again at once instead of sleeping.
        if (jobs.length === opts.batchSize) boss.notifyWorker(id);
      });
      workers.set(name, [...(workers.get(name) ?? []), id]);
      return id;
    },
    wake(name) {
      for (const id of workers.get(name) ?? []) boss.notifyWorker(id);
    },
    async depth() {
      const entries = await Promise.all(
        (Object.keys(QUEUES) as QueueName[]).map(
          async (name) => [name, await boss.getQueueSize(name)] as const,
        ),
      );
      return Object.fromEntries(entries) as Record<QueueName, number>;
    },
    async start() {
      if (started) return;
      await boss.start();
      started = true;
    },
    async stop() {
      if (!started) return;
      started = false;
      await boss.stop({ graceful: true, timeout: 10_000, close: false });
    },
  };
}

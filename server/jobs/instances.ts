// The server processes using this database, and how one notices that another died
// (docs/decisions/0017-crash-recovery.md). Every instance has an id and a heartbeat row; an
// instance whose heartbeat is older than `deadAfterSeconds`, or whose row is gone, is dead. On
// the embedded database (PGlite) only one process can open the data at a time, so a process
// that starts is the only one alive: every instance before it is dead at once.
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { and, eq, lt, ne, sql } from 'drizzle-orm';
import { queryRows, type Db, type Tx } from '../db/client';
import { appInstance } from '../db/schema/instances';
import { JOB_SCHEMA, type QueueName } from './queue';

/** How often an instance writes its heartbeat (and looks for dead ones). */
export const HEARTBEAT_SECONDS = 5;
/** A heartbeat this old means the instance is dead: several missed beats, never one slow one. */
export const DEAD_AFTER_SECONDS = 20;

export type InstanceOptions = {
  /** No other process can use this database (PGlite): every other instance is dead. */
  sole: boolean;
  heartbeatSeconds?: number;
  deadAfterSeconds?: number;
};

export type Instance = {
  readonly id: string;
  readonly sole: boolean;
  readonly heartbeatSeconds: number;
  readonly deadAfterSeconds: number;
  /** Writes the heartbeat (the row again if another instance took this one for dead). */
  beat: () => Promise<void>;
  /** Records that this instance runs a job of a periodic queue, and forgets it after. */
  hold: (jobId: string) => Promise<void>;
  release: (jobId: string) => Promise<void>;
  /** Removes the row when the process stops: what it held is taken over at once. */
  leave: () => Promise<void>;
};

/** Registers this process as a new instance, before it takes any job. */
export async function joinInstances(db: Db, options: InstanceOptions): Promise<Instance> {
  const id = randomUUID();
  const row = { id, host: os.hostname().slice(0, 200), pid: process.pid };
  await db.insert(appInstance).values(row);
  return {
    id,
    sole: options.sole,
    heartbeatSeconds: options.heartbeatSeconds ?? HEARTBEAT_SECONDS,
    deadAfterSeconds: options.deadAfterSeconds ?? DEAD_AFTER_SECONDS,
    async beat() {
      await db
        .insert(appInstance)
        .values(row)
        .onConflictDoUpdate({ target: appInstance.id, set: { seenAt: sql`now()` } });
    },
    async hold(jobId) {
      await db
        .insert(appInstance)
        .values({ ...row, heldJobs: [jobId] })
        .onConflictDoUpdate({
          target: appInstance.id,
          set: { heldJobs: sql`array_append(${appInstance.heldJobs}, ${jobId}::uuid)` },
        });
    },
    async release(jobId) {
      await db
        .update(appInstance)
        .set({ heldJobs: sql`array_remove(${appInstance.heldJobs}, ${jobId}::uuid)` })
        .where(eq(appInstance.id, id));
    },
    async leave() {
      await db.delete(appInstance).where(eq(appInstance.id, id));
    },
  };
}

/**
 * Removes the rows of dead instances and returns them (with the periodic jobs they held):
 * whoever removes a row takes over what that instance left (two instances looking at once
 * cannot both remove it).
 */
export async function reapDeadInstances(
  tx: Tx,
  self: Instance,
): Promise<{ id: string; heldJobs: string[] }[]> {
  return tx
    .delete(appInstance)
    .where(
      and(
        ne(appInstance.id, self.id),
        self.sole
          ? undefined
          : lt(appInstance.seenAt, sql`now() - make_interval(secs => ${self.deadAfterSeconds})`),
      ),
    )
    .returning({ id: appInstance.id, heldJobs: appInstance.heldJobs });
}

/**
 * Running jobs of the periodic `queues` that no instance holds: their process died. A job
 * fetched a moment ago may not be recorded as held yet, so only those started
 * `deadAfterSeconds` ago count — or, when this process is the only one (PGlite), every one
 * started before it.
 */
export async function orphanedJobs(
  tx: Tx,
  self: Instance,
  queues: QueueName[],
): Promise<{ id: string; name: QueueName }[]> {
  const beforeSelf = self.sole ? sql`OR j.started_on < (${startedAt(self)})` : sql``;
  return queryRows<{ id: string; name: QueueName }>(
    tx,
    sql`SELECT j.id, j.name FROM ${JOB_TABLE} j
        WHERE j.name IN (${names(queues)}) AND j.state = 'active'
          AND NOT EXISTS (SELECT 1 FROM ${appInstance} i WHERE j.id = ANY(i.held_jobs))
          AND (j.started_on < now() - make_interval(secs => ${self.deadAfterSeconds}) ${beforeSelf})`,
  );
}

/**
 * Running jobs of `queues` started before this process (PGlite only: no other process can have
 * started them, so the one that did is dead).
 */
export async function jobsOfEarlierProcesses(
  tx: Tx,
  self: Instance,
  queues: QueueName[],
): Promise<{ id: string; name: QueueName }[]> {
  if (!self.sole) return [];
  return queryRows<{ id: string; name: QueueName }>(
    tx,
    sql`SELECT j.id, j.name FROM ${JOB_TABLE} j
        WHERE j.name IN (${names(queues)}) AND j.state = 'active'
          AND j.started_on < (${startedAt(self)})`,
  );
}

const JOB_TABLE = sql.raw(`${JOB_SCHEMA}.job`);

function names(queues: QueueName[]) {
  return sql.join(
    queues.map((q) => sql`${q}`),
    sql`, `,
  );
}

function startedAt(self: Instance) {
  return sql`SELECT started_at FROM ${appInstance} WHERE id = ${self.id}`;
}

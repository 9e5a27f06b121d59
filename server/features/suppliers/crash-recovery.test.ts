// After a crash, back within seconds, not minutes (issue 19). A process killed while forwarding
// orders leaves a send claimed but never recorded, a dispatch job and a `supplier-tick` job
// running in a process that no longer exists, and orders sent upstream that nobody polls. The
// restarted process (or, with two instances, the survivor) must put the interrupted send in
// review — never send it again —, send the order whose job was lost exactly once, and poll
// again so sent orders settle: well within 60 s, with the ledger exact.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminServiceDto } from '../../../shared/schemas/catalogue';
import { queryRows } from '../../db/client';
import { appInstance } from '../../db/schema/instances';
import { order } from '../../db/schema/catalogue';
import { imeiFor } from '../../../tests/setup/imei';
import {
  connectDhru,
  dispatchRow,
  expectLedgerClean,
  fundedCustomer,
  importServices,
  supplierKit,
  placeOrder,
  type Kit,
} from '../../../tests/setup/suppliers';
import { dbTargets, type DbTarget } from '../../../tests/setup/test-db';
import { joinInstances, type Instance } from '../../jobs/instances';
import { JOB_SCHEMA } from '../../jobs/queue';
import { claimDispatch, INTERRUPTED_REASON, recordOutcome, sendClaimed } from './dispatch.service';

let seed = 31_000;
function nextImei(): string {
  seed += 1;
  return imeiFor(`${Date.now() % 100_000}${seed}`);
}

async function until<T>(
  what: string,
  read: () => Promise<T>,
  done: (v: T) => boolean,
  ms: number,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

type Crash = {
  dead: Instance;
  /** Claimed and sent by the dead process, its answer never recorded. */
  interrupted: { id: string; imei: string };
  /** Queued, its dispatch job running in the dead process. */
  lost: { id: string; imei: string };
  /** Sent upstream; only a tick would settle it, and the dead process held the tick. */
  sent: { id: string; imei: string };
  tickJobId: string;
};

/** The state a `kill -9` leaves behind, built by hand: see the file's header. */
async function crashedInstance(kit: Kit, svc: AdminServiceDto): Promise<Crash> {
  const db = kit.t.database.db;
  const dead = await joinInstances(db, { sole: false });
  const deadDeps = { ...kit.t.deps, instanceId: dead.id };
  const customer = await fundedCustomer(kit, '200.00');
  const place = async () => {
    const imei = nextImei();
    const o = await placeOrder(customer.client, svc.id, { imei });
    return { id: o.id, imei };
  };
  const interrupted = await place();
  const lost = await place();
  const sent = await place();

  // Sent and recorded: followed by polls from now on.
  const sentClaim = await claimDispatch(deadDeps, sent.id);
  if (!sentClaim) throw new Error('no claim');
  expect(await recordOutcome(deadDeps, sentClaim, await sendClaimed(deadDeps, sentClaim))).toBe(
    'sent',
  );
  // Claimed and sent, then the process died before recording the answer.
  const claim = await claimDispatch(deadDeps, interrupted.id);
  if (!claim) throw new Error('no claim');
  const outcome = await sendClaimed(deadDeps, claim);
  expect(outcome.ok).toBe(true);

  // Its jobs: the dispatch jobs were running in the dead process (a sent order's is finished).
  const job = sql.raw(`${JOB_SCHEMA}.job`);
  await kit.t.database.db.execute(
    sql`UPDATE ${job} SET state = 'active', started_on = now() - interval '2 seconds'
        WHERE name = 'supplier-dispatch' AND data->>'orderId' IN (${interrupted.id}, ${lost.id})`,
  );
  await kit.t.database.db.execute(
    sql`UPDATE ${job} SET state = 'completed', completed_on = now()
        WHERE name = 'supplier-dispatch' AND data->>'orderId' = ${sent.id}`,
  );
  // And the periodic tick: running, held by the dead process, blocking every other tick.
  const tickJobId = await kit.t.deps.jobs.send('supplier-tick', {});
  if (!tickJobId) throw new Error('no tick job');
  await kit.t.database.db.execute(
    sql`UPDATE ${job} SET state = 'active', started_on = now() - interval '2 seconds'
        WHERE name = 'supplier-tick' AND id = ${tickJobId}`,
  );
  await dead.hold(tickJobId);
  return { dead, interrupted, lost, sent, tickJobId };
}

async function jobState(kit: Kit, name: string, id: string): Promise<string | undefined> {
  const job = sql.raw(`${JOB_SCHEMA}.job`);
  const [row] = await queryRows<{ state: string }>(
    kit.t.database.db,
    sql`SELECT state FROM ${job} WHERE name = ${name} AND id = ${id}`,
  );
  return row?.state;
}

async function statusOf(kit: Kit, orderId: string): Promise<string | undefined> {
  const [row] = await kit.t.database.db
    .select({ status: order.status })
    .from(order)
    .where(eq(order.id, orderId));
  return row?.status;
}

/** What every crash test checks once the work was taken over. */
async function expectTakenOver(kit: Kit, crash: Crash, startedAt: number): Promise<void> {
  // The send that may have reached the supplier waits for an admin, never sent again.
  const review = await until(
    'the interrupted send to go to review',
    () => dispatchRow(kit, crash.interrupted.id),
    (d) => d?.state === 'review',
    30_000,
  );
  expect(review?.reviewReason).toBe(INTERRUPTED_REASON);
  // The order whose job died with the process is sent once and, like the sent one, settles:
  // polling is back.
  for (const o of [crash.lost, crash.sent]) {
    await until(
      'the order to complete',
      () => statusOf(kit, o.id),
      (s) => s === 'completed',
      30_000,
    );
  }
  const seconds = (Date.now() - startedAt) / 1000;
  expect(seconds).toBeLessThan(60);
  for (const o of [crash.interrupted, crash.lost, crash.sent])
    expect(kit.fake.placedCount({ imei: o.imei }), o.imei).toBe(1);
  expect(await statusOf(kit, crash.interrupted.id)).toBe('processing');
  // The dead instance is gone, and the tick it held was ended.
  expect(
    await kit.t.database.db.select().from(appInstance).where(eq(appInstance.id, crash.dead.id)),
  ).toEqual([]);
  expect(await jobState(kit, 'supplier-tick', crash.tickJobId)).toBe('cancelled');
  await expectLedgerClean(kit);
}

async function crashKit(target: DbTarget): Promise<{ kit: Kit; svc: AdminServiceDto }> {
  const kit = await supplierKit(target, {
    SUPPLIER_CONNECT_TIMEOUT_SECONDS: '5',
    SUPPLIER_TIMEOUT_SECONDS: '10',
  });
  const sup = await connectDhru(kit);
  const [svc] = await importServices(kit, sup.id, ['1382'], 'IMEI', 20);
  if (!svc) throw new Error('import failed');
  kit.fake.when({ action: 'placeimeiorder' }, { completeAfterPolls: 1, code: 'Clean' });
  return { kit, svc };
}

describe.each(dbTargets())('a restart after kill -9 on %s', (target) => {
  let kit: Kit;
  let svc: AdminServiceDto;

  beforeAll(async () => {
    ({ kit, svc } = await crashKit(target));
  });
  afterAll(async () => {
    await kit?.close();
  });

  it('regression: the interrupted send goes to review, the lost job is sent once and polling resumes within seconds, not 5–15 minutes', async () => {
    const crash = await crashedInstance(kit, svc);
    const startedAt = Date.now();
    if (target === 'pglite') {
      // One process per embedded database: the restarted one knows at once that every
      // instance before it is dead, even with a heartbeat a second old.
      const instance = await joinInstances(kit.t.database.db, { sole: true });
      await kit.t.startWorkers({ instance, timers: true });
      // Taken over before the workers started.
      expect((await dispatchRow(kit, crash.interrupted.id))?.state).toBe('review');
    } else {
      // PostgreSQL: the dead instance is recognised once its heartbeat is old.
      await kit.t.startWorkers({ timers: true, heartbeatSeconds: 1, deadAfterSeconds: 3 });
    }
    await expectTakenOver(kit, crash, startedAt);
  });
});

describe.runIf(dbTargets().includes('postgres'))('two instances on PostgreSQL, one killed', () => {
  let kit: Kit;
  let svc: AdminServiceDto;

  beforeAll(async () => {
    ({ kit, svc } = await crashKit('postgres'));
  });
  afterAll(async () => {
    await kit?.close();
  });

  it('the survivor leaves a live instance alone, then takes over its work once it stops beating', async () => {
    const crash = await crashedInstance(kit, svc);
    // The other instance was alive a moment ago: its heartbeat is fresh.
    await crash.dead.beat();
    const startedAt = Date.now();
    await kit.t.startWorkers({ timers: true, heartbeatSeconds: 1, deadAfterSeconds: 4 });
    // While its heartbeat is recent, nothing of it is touched.
    await new Promise((r) => setTimeout(r, 1500));
    expect((await dispatchRow(kit, crash.interrupted.id))?.state).toBe('sending');
    expect(await jobState(kit, 'supplier-tick', crash.tickJobId)).toBe('active');
    expect(
      await kit.t.database.db
        .select({ id: appInstance.id })
        .from(appInstance)
        .where(and(eq(appInstance.id, crash.dead.id))),
    ).toHaveLength(1);
    await expectTakenOver(kit, crash, startedAt);
    // Within a few heartbeats of its last one.
    expect((Date.now() - startedAt) / 1000).toBeLessThan(20);
  });
});

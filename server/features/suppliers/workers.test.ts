// The real job workers (pg-boss on this database) fulfilling orders with nobody at the keyboard:
// an order is forwarded by a worker, followed by the periodic tick and completed; 200 orders
// placed at once, with every job duplicated on purpose, are each sent exactly once.
import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderDto } from '../../../shared/schemas/orders';
import { queryRows } from '../../db/client';
import { orderDispatch } from '../../db/schema/suppliers';
import { imeiFor } from '../../../tests/setup/imei';
import {
  connectDhru,
  expectLedgerClean,
  fundedCustomer,
  importServices,
  json,
  placeOrder,
  supplierKit,
  type Kit,
} from '../../../tests/setup/suppliers';
import { dbTargets } from '../../../tests/setup/test-db';

async function until<T>(
  what: string,
  read: () => Promise<T>,
  done: (v: T) => boolean,
  ms = 30_000,
) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.each(dbTargets())('supplier workers on %s', (target) => {
  let kit: Kit;

  beforeAll(async () => {
    // Generous time-outs: the fake supplier shares this process (and, on PGlite, its thread)
    // with the app under load, so a 1 s connect time-out would fire on a busy event loop.
    kit = await supplierKit(target, {
      SUPPLIER_CONNECT_TIMEOUT_SECONDS: '10',
      SUPPLIER_TIMEOUT_SECONDS: '30',
    });
    await kit.t.startWorkers({ dispatchWorkers: 3, dispatchBatch: 8, timers: true });
  });
  afterAll(async () => {
    await kit?.close();
  });

  it('forwards an order, follows it and completes it with nobody at the keyboard', async () => {
    const sup = await connectDhru(kit);
    const [svc] = await importServices(kit, sup.id, ['1382'], 'IMEI', 20);
    if (!svc) throw new Error('import failed');
    kit.fake.when(
      { action: 'placeimeiorder' },
      { completeAfterPolls: 1, code: 'FMI: OFF<br>Blacklist: clean' },
    );
    const customer = await fundedCustomer(kit, '5.00');
    const order = await placeOrder(customer.client, svc.id, { imei: imeiFor(424242) });
    const done = await until(
      'the order to complete',
      async () => json<OrderDto>(await customer.client.get(`/api/orders/${order.id}`), 200),
      (o) => o.status === 'completed',
    );
    expect(done.result).toBe('FMI: OFF\nBlacklist: clean');
    expect(done.events?.map((e) => e.status)).toEqual(['pending', 'processing', 'completed']);
    await kit.t.waitForMail(customer.email, /completada/);
    await expectLedgerClean(kit);
  });

  it('sends 200 orders placed at once exactly once each, even with every job duplicated', async () => {
    kit.fake.reset();
    const sup = await connectDhru(kit);
    const [svc] = await importServices(kit, sup.id, ['2210'], 'unlock', 0); // 16.41 each
    if (!svc) throw new Error('import failed');
    kit.fake.dhru.balance = '1000000.00';
    const customers = await Promise.all(
      Array.from({ length: 4 }, () => fundedCustomer(kit, '1000.00')),
    );
    const base = Date.now() % 1_000_000;
    const imeis = Array.from({ length: 200 }, (_, i) =>
      imeiFor(`${base}${String(i).padStart(3, '0')}`),
    );
    const orders = await Promise.all(
      imeis.map((imei, i) => placeOrder(customers[i % 4]!.client, svc.id, { imei })),
    );
    const ids = orders.map((o) => o.id);

    // Every job twice: a retried or duplicated job must find the order already claimed.
    for (const id of ids) await kit.t.deps.jobs.send('supplier-dispatch', { orderId: id });
    kit.t.deps.jobs.wake('supplier-dispatch');
    await until(
      'every order to be sent',
      async () =>
        queryRows<{ n: string }>(
          kit.t.database.db,
          sql`SELECT count(*) AS n FROM order_dispatch WHERE state IN ('sent', 'done') AND order_id IN ${ids}`,
        ),
      (rows) => Number(rows[0]?.n) === 200,
      // On PGlite under a loaded CI machine, 200 sends through one connection take a while.
      150_000,
    );
    const places = kit.fake.calls.filter((c) => c.action === 'placeimeiorder');
    const sentImeis = places.map((c) => c.params.IMEI);
    expect(sentImeis.filter((i) => imeis.includes(i ?? ''))).toHaveLength(200);
    expect(new Set(sentImeis).size).toBe(sentImeis.length);
    for (const imei of imeis) expect(kit.fake.placedCount({ imei })).toBe(1);
    const rows = await kit.t.database.db
      .select({ attempts: orderDispatch.attempts })
      .from(orderDispatch)
      .where(inArray(orderDispatch.orderId, ids));
    expect(rows).toHaveLength(200);
    expect(rows.every((r) => r.attempts === 1)).toBe(true);
    await expectLedgerClean(kit);
  }, 240_000);
});

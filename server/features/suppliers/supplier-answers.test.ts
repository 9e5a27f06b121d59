// Suppliers that answer badly, by accident or on purpose: every value read from a supplier is
// parsed into its range before it touches the database, a job never hands pg-boss an error it
// cannot store, and a cost that cannot be read never becomes a price. Each test is named after
// the finding it guards; the jobs run through the real queue, as in production.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_QUANTITY } from '../../../shared/schemas/catalogue';
import type { OrderDto } from '../../../shared/schemas/orders';
import type { SupplierDto } from '../../../shared/schemas/suppliers';
import { queryRows } from '../../db/client';
import { service } from '../../db/schema/catalogue';
import { orderDispatch, supplierService } from '../../db/schema/suppliers';
import type { QueueName } from '../../jobs/queue';
import { imeiFor } from '../../../tests/setup/imei';
import {
  connectDhru,
  connectSmm,
  expectLedgerClean,
  fundedCustomer,
  importServices,
  json,
  placeOrder,
  supplierKit,
  type Kit,
} from '../../../tests/setup/suppliers';
import { dbTargets } from '../../../tests/setup/test-db';

/** Sends one job through the real queue and waits until a worker has finished it. */
async function runJob(kit: Kit, name: QueueName): Promise<{ state: string; output: unknown }> {
  const id = await kit.t.deps.jobs.send(name, {});
  if (!id) throw new Error(`no ${name} job was created`);
  kit.t.deps.jobs.wake(name);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const rows = await queryRows<{ state: string; output: unknown }>(
      kit.t.database.db,
      sql`SELECT state, output FROM pgboss.job WHERE id = ${id}
          UNION ALL SELECT state, output FROM pgboss.archive WHERE id = ${id}`,
    );
    const row = rows[0];
    if (row && ['completed', 'failed', 'cancelled'].includes(row.state)) return row;
    if (Date.now() > deadline) throw new Error(`${name} job stuck in ${row?.state ?? 'nowhere'}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function remoteRow(kit: Kit, supplierId: string, remoteId: string) {
  const [row] = await kit.t.database.db
    .select()
    .from(supplierService)
    .where(and(eq(supplierService.supplierId, supplierId), eq(supplierService.remoteId, remoteId)));
  return row;
}

async function serviceRow(kit: Kit, id: string) {
  const [row] = await kit.t.database.db.select().from(service).where(eq(service.id, id));
  return row;
}

type DispatchRow = typeof orderDispatch.$inferSelect;

/** Waits until the order's dispatch row satisfies `done`. */
async function until(
  kit: Kit,
  orderId: string,
  done: (d: DispatchRow) => boolean,
): Promise<DispatchRow> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const [d] = await kit.t.database.db
      .select()
      .from(orderDispatch)
      .where(eq(orderDispatch.orderId, orderId));
    if (d && done(d)) return d;
    if (Date.now() > deadline) throw new Error(`dispatch stuck: ${JSON.stringify(d)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until a worker has sent the order and its reference is known. */
function sentDispatch(kit: Kit, orderId: string): Promise<DispatchRow> {
  return until(kit, orderId, (d) => d.state === 'sent' && d.reference !== null);
}

describe.each(dbTargets())('suppliers that answer badly on %s', (target) => {
  let kit: Kit;

  beforeAll(async () => {
    kit = await supplierKit(target, {
      SUPPLIER_CONNECT_TIMEOUT_SECONDS: '10',
      SUPPLIER_TIMEOUT_SECONDS: '30',
    });
    await kit.t.startWorkers({ timers: false });
  });
  afterAll(async () => {
    await kit?.close();
  });
  beforeEach(() => {
    kit.fake.reset();
  });

  it('regression: an SMM `max` of "3000000000" made the supplier-sync job crash the process', async () => {
    const sup = await connectSmm(kit);
    kit.fake.smm.services.push({
      service: 10,
      name: 'TikTok Views',
      type: 'Default',
      category: 'TikTok',
      rate: '0.01',
      min: 100,
      max: '3000000000',
    });
    const job = await runJob(kit, 'supplier-sync');
    expect(job.state).toBe('completed');
    const row = await remoteRow(kit, sup.id, '10');
    // Above our own largest quantity: read as our largest, still importable.
    expect(row).toMatchObject({ minQuantity: 100, maxQuantity: MAX_QUANTITY, importable: true });
  });

  it('regression: a DHRU CREDIT of "99999999999999" made the supplier-sync job crash the process', async () => {
    const sup = await connectDhru(kit);
    const [imported] = await importServices(kit, sup.id, ['1382'], 'IMEI', 20);
    if (!imported) throw new Error('import failed');
    expect(imported.price).toBe('0.96');
    kit.fake.dhru.services.find((s) => s.id === '1382')!.credit = '99999999999999';
    kit.fake.dhru.services.push({
      id: '8800',
      name: 'Absurd price',
      group: 'Unlocks',
      groupType: 'IMEI',
      credit: '99999999999999',
      time: '1 day',
    });
    kit.fake.dhru.balance = '99999999999999';
    const job = await runJob(kit, 'supplier-sync');
    expect(job.state).toBe('completed');
    // The routed service keeps its last good price and is switched off.
    expect(await serviceRow(kit, imported.id)).toMatchObject({ price: 96n, active: false });
    expect(await remoteRow(kit, sup.id, '1382')).toMatchObject({
      costMicros: 800_000n,
      importable: false,
    });
    expect((await remoteRow(kit, sup.id, '8800'))?.importable).toBe(false);
    const after = await json<SupplierDto>(
      await kit.admin.client.get(`/api/admin/suppliers/${sup.id}`),
      200,
    );
    // An absurd balance is not stored; the last one read stays.
    expect(after.balance).toBe('100.00');
    expect(after.catalogueIssues.map((i) => i.remoteId)).toEqual(
      expect.arrayContaining(['1382', '8800']),
    );
    await kit.t.waitForMail(kit.admin.email, /desactivados por cambio de costo/);
  });

  it('regression: a NUL in a DHRU status CODE made the supplier-tick job crash the process', async () => {
    const sup = await connectDhru(kit);
    const [svc] = await importServices(kit, sup.id, ['2210'], 'unlock', 0);
    if (!svc) throw new Error('import failed');
    const customer = await fundedCustomer(kit, '20.00');
    const order = await placeOrder(customer.client, svc.id, { imei: imeiFor(880011) });
    const sent = await sentDispatch(kit, order.id);
    kit.fake.complete(sent.reference!, 'Code: 1234\u0000\u0007 5678<br>Carrier:\u202e AT&amp;T');
    await kit.t.database.db
      .update(orderDispatch)
      .set({ lastPolledAt: null })
      .where(eq(orderDispatch.orderId, order.id));
    const job = await runJob(kit, 'supplier-tick');
    expect(job.state).toBe('completed');
    const done = await json<OrderDto>(await customer.client.get(`/api/orders/${order.id}`), 200);
    expect(done.status).toBe('completed');
    expect(done.result).toBe('Code: 1234 5678\nCarrier: AT&T');
    await expectLedgerClean(kit);
  });

  it('regression: a DHRU REFERENCEID with NUL failed the dispatch job on every retry', async () => {
    const sup = await connectDhru(kit);
    const [svc] = await importServices(kit, sup.id, ['2210'], 'unlock', 0);
    if (!svc) throw new Error('import failed');
    kit.fake.when(
      { action: 'placeimeiorder' },
      {
        http: 200,
        create: true,
        body: '{"SUCCESS":[{"MESSAGE":"Order received","REFERENCEID":"12\\u000034"}],"apiversion":"6.1"}',
      },
    );
    const customer = await fundedCustomer(kit, '20.00');
    const order = await placeOrder(customer.client, svc.id, { imei: imeiFor(880022) });
    // Accepted upstream with a reference we cannot keep: an admin decides, nothing is resent.
    const review = await until(kit, order.id, (d) => d.state === 'review');
    expect(review.reviewReason).toMatch(/referencia/i);
    expect(kit.fake.placedCount()).toBe(1);
    await expectLedgerClean(kit);
  });

  it('regression: an unreadable, zero or negative supplier cost repriced a service to US$0.01', async () => {
    const bad = ['1,50', '-5', 'abc', '0'];
    const ids = bad.map((_, i) => String(9100 + i));
    for (const id of ids) {
      kit.fake.dhru.services.push({
        id,
        name: `Check ${id}`,
        group: 'Checks',
        groupType: 'IMEI',
        credit: '1.00',
        time: 'Instant',
      });
    }
    kit.fake.smm.services.push({
      service: 11,
      name: 'YouTube Views',
      type: 'Default',
      category: 'YouTube',
      rate: '1.00',
      min: 100,
      max: 10000,
    });
    const dhru = await connectDhru(kit);
    const smm = await connectSmm(kit);
    const imported = await importServices(kit, dhru.id, ids, 'IMEI', 20);
    const [views] = await importServices(kit, smm.id, ['11'], 'social', 20);
    if (!views || imported.length !== bad.length) throw new Error('import failed');
    expect(imported.map((s) => s.price)).toEqual(['1.20', '1.20', '1.20', '1.20']);
    bad.forEach((credit, i) => {
      kit.fake.dhru.services.find((s) => s.id === ids[i])!.credit = credit;
    });
    kit.fake.smm.services.find((s) => s.service === 11)!.rate = '-5';

    const job = await runJob(kit, 'supplier-sync');
    expect(job.state).toBe('completed');
    for (const svc of [...imported, views]) {
      expect(await serviceRow(kit, svc.id)).toMatchObject({ price: 120n, active: false });
    }
    const mail = await expect
      .poll(async () =>
        (await kit.t.outbox()).find(
          (m) => m.to === kit.admin.email && m.text.includes('Check 9100'),
        ),
      )
      .toBeDefined()
      .then(async () =>
        (await kit.t.outbox()).find(
          (m) => m.to === kit.admin.email && m.text.includes('Check 9100'),
        ),
      );
    if (!mail) throw new Error('no e-mail about the deactivated services');
    expect(mail.subject).toMatch(/desactivados por cambio de costo/);
    expect(mail.text).toContain('YouTube Views');
    expect(mail.text).toMatch(/costo .*no se puede leer|no es válido/);
    // The cost the services were last sold at is what the catalogue still shows.
    expect(await remoteRow(kit, dhru.id, '9100')).toMatchObject({ costMicros: 1_000_000n });

    // An order for a service whose cost cannot be read is never sent at a made-up margin.
    await kit.t.database.db.update(service).set({ active: true }).where(eq(service.id, views.id));
    const customer = await fundedCustomer(kit, '20.00');
    const order = await placeOrder(
      customer.client,
      views.id,
      { link: 'https://youtube.com/watch?v=abc' },
      1000,
    );
    await until(kit, order.id, (d) => d.state !== 'queued' && d.state !== 'sending');
    expect(kit.fake.placedCount({ link: 'https://youtube.com/watch?v=abc' })).toBe(0);
    await expectLedgerClean(kit);
  });
});

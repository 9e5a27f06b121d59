// The whole SMM order lifecycle on the supplier side (issue 18), through the real job workers and
// the fake supplier, on both databases: every SMM type imported and forwarded with its
// parameters, drip-feed, the supplier's start count and remains while in progress, refills sent
// and followed to the end, and cancels forwarded and refunded only when the supplier reports the
// order cancelled. The periodic tick is driven by hand (runTick), so each poll is a step.
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SMM_TYPE_SPECS, SMM_TYPES, type SmmType } from '../../../shared/smm-types';
import type { AdminServiceDto } from '../../../shared/schemas/catalogue';
import type { OrderDto, RefillDto } from '../../../shared/schemas/orders';
import type { SupplierDto } from '../../../shared/schemas/suppliers';
import { order, orderRefill } from '../../db/schema/catalogue';
import { orderDispatch } from '../../db/schema/suppliers';
import { runTick } from '../../jobs/workers';
import {
  connectSmm,
  dispatchRow,
  expectLedgerClean,
  fundedCustomer,
  json,
  supplierKit,
  transfersOf,
  type Kit,
} from '../../../tests/setup/suppliers';
import type { TestClient } from '../../../tests/setup/test-app';
import { dbTargets } from '../../../tests/setup/test-db';
import { balances } from '../ledger/ledger.service';
import { MAX_REFILL_ATTEMPTS } from './refills.service';

async function until<T>(
  what: string,
  read: () => Promise<T>,
  done: (v: T) => boolean,
  ms = 20_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The fake's remote id of each type (docs: fake-supplier.ts defaultSmm). */
const REMOTE_OF: Record<SmmType, string> = {
  Default: '1',
  Package: '4',
  'Custom Comments': '3',
  'Custom Comments Package': '30',
  'Mentions with Hashtags': '31',
  'Mentions Custom List': '32',
  'Mentions Hashtag': '33',
  'Mentions User Followers': '34',
  'Mentions Media Likers': '35',
  'Comment Likes': '36',
  Poll: '37',
  Subscriptions: '38',
};

const COMMENTS = Array.from({ length: 12 }, (_, i) => `¡Qué bonito! ${i + 1}`);

/** An order of each type, as a customer sends it, and what the supplier must receive. */
function orderOf(
  type: SmmType,
  n: number,
): {
  body: Record<string, unknown>;
  sent: Record<string, string>;
} {
  const link = `https://instagram.com/p/cometa${n}`;
  switch (type) {
    case 'Default':
      return { body: { quantity: 100, fields: { link } }, sent: { link, quantity: '100' } };
    case 'Package':
      return { body: { fields: { link } }, sent: { link } };
    case 'Custom Comments':
      return {
        body: { fields: { link, comments: COMMENTS.join('\r\n') } },
        sent: { link, comments: COMMENTS.join('\n') },
      };
    case 'Custom Comments Package':
      return {
        body: { fields: { link, comments: 'Uno\nDos' } },
        sent: { link, comments: 'Uno\nDos' },
      };
    case 'Mentions with Hashtags':
      return {
        body: { quantity: 200, fields: { link, usernames: 'ana\nluis', hashtags: 'sol\nmar' } },
        sent: { link, usernames: 'ana\nluis', hashtags: 'sol\nmar', quantity: '200' },
      };
    case 'Mentions Custom List':
      return {
        body: { fields: { link, usernames: 'ana\nluis\nmarta' } },
        sent: { link, usernames: 'ana\nluis\nmarta' },
      };
    case 'Mentions Hashtag':
      return {
        body: { quantity: 150, fields: { link, hashtag: 'verano' } },
        sent: { link, hashtag: 'verano', quantity: '150' },
      };
    case 'Mentions User Followers':
      return {
        body: { quantity: 120, fields: { link, username: 'cometa' } },
        sent: { link, username: 'cometa', quantity: '120' },
      };
    case 'Mentions Media Likers':
      return {
        body: { quantity: 110, fields: { link, media: 'https://instagram.com/p/otra' } },
        sent: { link, media: 'https://instagram.com/p/otra', quantity: '110' },
      };
    case 'Comment Likes':
      return {
        body: { quantity: 40, fields: { link, username: 'autora' } },
        sent: { link, username: 'autora', quantity: '40' },
      };
    case 'Poll':
      return {
        body: { quantity: 60, fields: { link, answer_number: 2 } },
        sent: { link, answer_number: '2', quantity: '60' },
      };
    case 'Subscriptions':
      return {
        body: {
          fields: {
            username: `cuenta${n}`,
            min: 60,
            max: 80,
            posts: 3,
            delay: '30',
            expiry: '2099-12-31',
          },
        },
        sent: {
          username: `cuenta${n}`,
          min: '60',
          max: '80',
          posts: '3',
          delay: '30',
          expiry: '31/12/2099',
        },
      };
  }
}

describe.each(dbTargets())('the SMM order lifecycle with suppliers on %s', (target) => {
  let kit: Kit;
  let sup: SupplierDto;
  let services: Map<SmmType, AdminServiceDto>;

  beforeAll(async () => {
    // Generous time-outs: the fake shares this process (and, on PGlite, its thread) with the app.
    kit = await supplierKit(target, {
      SUPPLIER_CONNECT_TIMEOUT_SECONDS: '10',
      SUPPLIER_TIMEOUT_SECONDS: '30',
    });
    // Real workers for dispatch, refills and cancels; the tick is run by hand.
    await kit.t.startWorkers({ timers: false, pollingIntervalSeconds: 1 });
    sup = await connectSmm(kit);
    const items = await json<{ items: AdminServiceDto[] }>(
      await kit.admin.client.post(`/api/admin/suppliers/${sup.id}/import`, {
        remoteIds: SMM_TYPES.map((t) => REMOTE_OF[t]),
        category: 'social',
        markupPercent: 20,
      }),
      200,
    );
    services = new Map(items.items.map((s) => [s.smmType as SmmType, s]));
  });
  afterAll(async () => {
    await kit?.close();
  });
  beforeEach(() => {
    // Rules and the call log start afresh; the fake's orders and numbering go on (a reset would
    // hand out references this supplier already gave).
    kit.fake.rules.length = 0;
    kit.fake.calls.length = 0;
    delete kit.fake.smm.maintenance;
    for (const s of kit.fake.smm.services) if (s.service === 1) s.cancel = true;
    kit.fake.smm.balance = '1000.00';
  });
  afterEach(async () => {
    await expectLedgerClean(kit);
  });

  function serviceOf(type: SmmType): AdminServiceDto {
    const svc = services.get(type);
    if (!svc) throw new Error(`${type} was not imported`);
    return svc;
  }

  /** Runs the periodic tick with every sent order and refill due for a poll. */
  async function tick() {
    await kit.t.database.db.update(orderDispatch).set({ lastPolledAt: null });
    await kit.t.database.db.update(orderRefill).set({ lastPolledAt: null });
    return runTick(kit.t.deps);
  }

  async function getOrder(client: TestClient, id: string): Promise<OrderDto> {
    return json<OrderDto>(await client.get(`/api/orders/${id}`), 200);
  }

  /** Places an order and waits until a worker has forwarded it: its reference at the supplier. */
  async function placeAndSend(
    client: TestClient,
    type: SmmType,
    body: Record<string, unknown>,
  ): Promise<{ order: OrderDto; reference: string }> {
    const placed = await json<OrderDto>(
      await client.post('/api/orders', { serviceId: serviceOf(type).id, ...body }),
      201,
    );
    const d = await until(
      `order ${placed.number} to be sent`,
      () => dispatchRow(kit, placed.id),
      (row) => row?.state === 'sent' || row?.state === 'review' || row?.state === 'done',
    );
    expect(d?.state, d?.reviewReason ?? d?.lastError ?? '').toBe('sent');
    return { order: placed, reference: d?.reference ?? '' };
  }

  it('imports every SMM type with its fields, drip-feed, refill window and cancel', async () => {
    for (const type of SMM_TYPES) {
      const svc = serviceOf(type);
      const spec = SMM_TYPE_SPECS[type];
      expect(svc.unit, type).toBe(spec.unit);
      expect(
        svc.fields.map((f) => [f.key, f.type]),
        type,
      ).toEqual(spec.fields.map((f) => [f.key, f.type]));
      expect(svc.routes, type).toEqual([
        expect.objectContaining({ supplierId: sup.id, remoteId: REMOTE_OF[type] }),
      ]);
    }
    // The supplier's flags: service 1 refills, cancels and drips; 4 (a package) does none.
    expect(serviceOf('Default')).toMatchObject({
      dripfeed: true,
      refillDays: 30,
      cancelable: true,
      minQuantity: 50,
      maxQuantity: 10000,
    });
    expect(serviceOf('Package')).toMatchObject({
      dripfeed: false,
      refillDays: null,
      cancelable: false,
    });
    expect(serviceOf('Custom Comments')).toMatchObject({
      dripfeed: false,
      refillDays: null,
      cancelable: true,
    });
    expect(serviceOf('Subscriptions')).toMatchObject({ minQuantity: 50, maxQuantity: 2000 });
    // A type we do not sell yet is refused with its reason.
    const refused = await json<{ fields: { remoteIds: string } }>(
      await kit.admin.client.post(`/api/admin/suppliers/${sup.id}/import`, {
        remoteIds: ['39'],
        category: 'social',
        markupPercent: 20,
      }),
      400,
    );
    expect(refused.fields.remoteIds).toContain(
      'El tipo «Comment Replies» todavía no se puede importar.',
    );
    // A route must be of the service's own type.
    const mismatch = await json<{ fields: Record<string, string> }>(
      await kit.admin.client.request(
        'PUT',
        `/api/admin/services/${serviceOf('Mentions Hashtag').id}/routes`,
        {
          routes: [{ supplierId: sup.id, remoteId: REMOTE_OF['Comment Likes'] }],
          markupPercent: null,
        },
      ),
      400,
    );
    expect(mismatch.fields['routes.0']).toMatch(/es del tipo «.+» y este servicio del tipo/);
    const unknown = await json<{ fields: Record<string, string> }>(
      await kit.admin.client.request(
        'PUT',
        `/api/admin/services/${serviceOf('Package').id}/routes`,
        {
          routes: [{ supplierId: sup.id, remoteId: '39' }],
          markupPercent: null,
        },
      ),
      400,
    );
    expect(unknown.fields['routes.0']).toBe(
      '«Instagram comment replies» es del tipo «Comment Replies», que todavía no se puede vender.',
    );
  });

  it('forwards an order of every type with exactly its parameters', async () => {
    const customer = await fundedCustomer(kit, '200.00');
    const sent = new Map<string, Record<string, string>>();
    for (const [n, type] of SMM_TYPES.entries()) {
      const { body, sent: expected } = orderOf(type, n);
      const { reference } = await placeAndSend(customer.client, type, body);
      sent.set(reference, { service: REMOTE_OF[type], ...expected });
    }
    const adds = kit.fake.calls.filter((c) => c.action === 'add');
    expect(adds).toHaveLength(SMM_TYPES.length);
    for (const [reference, expected] of sent) {
      const upstream = kit.fake.orders.get(reference);
      expect(upstream?.params, `order ${reference}`).toEqual(expected);
    }
    // Each order was sent once, and what the fake counted matches what we charged for.
    const byService = new Map([...kit.fake.orders.values()].map((o) => [o.serviceId, o]));
    expect(byService.get(REMOTE_OF['Custom Comments'])?.quantity).toBe(COMMENTS.length);
    expect(byService.get(REMOTE_OF['Mentions Custom List'])?.quantity).toBe(3);
    expect(byService.get(REMOTE_OF.Subscriptions)?.quantity).toBe(240);
    expect(byService.get(REMOTE_OF.Package)?.quantity).toBe(1);
  });

  it('a drip-fed order is sent as runs × quantity per run, and charged for the total', async () => {
    const customer = await fundedCustomer(kit, '20.00');
    const link = 'https://instagram.com/goteo';
    const { order: placed, reference } = await placeAndSend(customer.client, 'Default', {
      quantity: 500,
      runs: 4,
      interval: 30,
      fields: { link },
    });
    // 2000 units at 1.08 per 1000 (0.90 + 20 %).
    expect(placed).toMatchObject({ quantity: 2000, runs: 4, runInterval: 30, price: '2.16' });
    expect(kit.fake.orders.get(reference)?.params).toEqual({
      service: '1',
      link,
      quantity: '500',
      runs: '4',
      interval: '30',
    });
    expect(kit.fake.orders.get(reference)).toMatchObject({
      quantity: 2000,
      runs: 4,
      interval: 30,
      charge: '1.80',
    });
    kit.fake.complete(reference);
    await tick();
    expect((await getOrder(customer.client, placed.id)).status).toBe('completed');
    expect(await balances(kit.t.database.db, customer.id)).toEqual({
      available: 2000n - 216n,
      held: 0n,
    });
  });

  it('shows the start count and what remains while the supplier works on it', async () => {
    const customer = await fundedCustomer(kit, '5.00');
    const { order: placed, reference } = await placeAndSend(customer.client, 'Default', {
      quantity: 1000,
      fields: { link: 'https://instagram.com/progreso' },
    });
    kit.fake.progress(reference, 640, 3572);
    await tick();
    expect(await getOrder(customer.client, placed.id)).toMatchObject({
      status: 'processing',
      startCount: 3572,
      remains: 640,
    });
    // Over-delivery while in progress is nothing left to deliver.
    kit.fake.progress(reference, -20);
    await tick();
    expect(await getOrder(customer.client, placed.id)).toMatchObject({
      startCount: 3572,
      remains: 0,
    });
    kit.fake.complete(reference);
    await tick();
    expect(await getOrder(customer.client, placed.id)).toMatchObject({
      status: 'completed',
      startCount: 3572,
    });
  });

  async function completedOrder(customer: { client: TestClient }, link: string) {
    const sent = await placeAndSend(customer.client, 'Default', {
      quantity: 100,
      fields: { link },
    });
    kit.fake.complete(sent.reference);
    await tick();
    expect((await getOrder(customer.client, sent.order.id)).status).toBe('completed');
    return sent;
  }

  async function refillRow(refillId: string) {
    const [row] = await kit.t.database.db
      .select()
      .from(orderRefill)
      .where(eq(orderRefill.id, refillId));
    return row;
  }

  it('sends a refill of a completed order to its supplier and follows it until it completes or is rejected', async () => {
    const customer = await fundedCustomer(kit, '5.00');
    const { order: placed, reference } = await completedOrder(
      customer,
      'https://instagram.com/reposicion',
    );
    const refill = await json<RefillDto>(
      await customer.client.post(`/api/orders/${placed.id}/refill`, {}),
      201,
    );
    const sent = await until(
      'the refill to be sent',
      () => refillRow(refill.id),
      (r) => r?.state !== 'pending',
    );
    expect(sent).toMatchObject({ state: 'sent', attempts: 1 });
    const refillRef = sent?.supplierRef ?? '';
    expect(kit.fake.refills.get(refillRef)).toMatchObject({ order: reference });
    expect(kit.fake.calls.filter((c) => c.action === 'refill').map((c) => c.params)).toEqual([
      { order: reference },
    ]);
    // Still pending at the supplier: nothing changes.
    await tick();
    expect((await refillRow(refill.id))?.state).toBe('sent');
    kit.fake.refillComplete(refillRef);
    await tick();
    expect((await refillRow(refill.id))?.state).toBe('completed');
    const detail = await getOrder(customer.client, placed.id);
    expect(detail.refills?.map((r) => [r.number, r.status])).toEqual([
      [refill.number, 'completed'],
    ]);
    expect(detail.events?.filter((e) => e.kind === 'refill').map((e) => [e.actor, e.note])).toEqual(
      [
        ['customer', `Reposición n.º ${refill.number} solicitada.`],
        ['system', `Reposición n.º ${refill.number} completada.`],
      ],
    );
    // A second refill, rejected by the supplier with its reason.
    const again = await json<RefillDto>(
      await customer.client.post(`/api/orders/${placed.id}/refill`, {}),
      201,
    );
    const second = await until(
      'the second refill to be sent',
      () => refillRow(again.id),
      (r) => r?.state === 'sent',
    );
    kit.fake.refillReject(second?.supplierRef ?? '', 'Drop is too small');
    await tick();
    const after = await getOrder(customer.client, placed.id);
    expect(after.refills?.map((r) => [r.status, r.note])).toEqual([
      ['completed', null],
      ['rejected', 'El proveedor respondió: Drop is too small'],
    ]);
    expect(after.events?.at(-1)).toMatchObject({
      kind: 'refill',
      status: 'completed',
      actor: 'system',
      note: `Reposición n.º ${again.number} rechazada: El proveedor respondió: Drop is too small`,
    });
    // Refills move no money.
    expect(await transfersOf(kit, placed.id, 'order_release')).toHaveLength(0);
  });

  it('a refill the supplier refuses is rejected with its words; one it cannot take yet is tried again, then given up', async () => {
    const customer = await fundedCustomer(kit, '5.00');
    const first = await completedOrder(customer, 'https://instagram.com/rechazo');
    kit.fake.when({ action: 'refill' }, { refuse: 'Refill is not available for this order' });
    const refused = await json<RefillDto>(
      await customer.client.post(`/api/orders/${first.order.id}/refill`, {}),
      201,
    );
    expect(
      await until(
        'the refusal',
        () => refillRow(refused.id),
        (r) => r?.state !== 'pending',
      ),
    ).toMatchObject({
      state: 'rejected',
      note: 'El proveedor respondió: Refill is not available for this order',
    });

    kit.fake.rules.length = 0;
    const second = await completedOrder(customer, 'https://instagram.com/mantenimiento');
    kit.fake.smm.maintenance = 'Service under maintenance';
    const waiting = await json<RefillDto>(
      await customer.client.post(`/api/orders/${second.order.id}/refill`, {}),
      201,
    );
    // The attempt is counted when it is claimed, before the supplier is asked: wait for its answer.
    const retried = await until(
      'the first try',
      () => refillRow(waiting.id),
      (r) => (r?.attempts ?? 0) >= 1 && r?.note != null,
    );
    expect(retried).toMatchObject({ state: 'pending', attempts: 1 });
    expect(retried?.note).toContain('Service under maintenance');
    expect(retried?.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 30_000);
    // Not due yet: the tick leaves it alone. Due (its job lost): the tick sends it.
    await tick();
    expect((await refillRow(waiting.id))?.attempts).toBe(1);
    delete kit.fake.smm.maintenance;
    await kit.t.database.db
      .update(orderRefill)
      .set({ nextAttemptAt: sql`now() - interval '1 second'` })
      .where(eq(orderRefill.id, waiting.id));
    expect((await tick()).refillsSent).toBe(1);
    expect(await refillRow(waiting.id)).toMatchObject({ state: 'sent', attempts: 2 });

    // A supplier that never takes it: rejected after the last attempt, with a clear note.
    const third = await completedOrder(customer, 'https://instagram.com/nunca');
    kit.fake.smm.maintenance = 'Service under maintenance';
    const hopeless = await json<RefillDto>(
      await customer.client.post(`/api/orders/${third.order.id}/refill`, {}),
      201,
    );
    await until(
      'the first try',
      () => refillRow(hopeless.id),
      (r) => (r?.attempts ?? 0) >= 1,
    );
    await kit.t.database.db
      .update(orderRefill)
      .set({ attempts: MAX_REFILL_ATTEMPTS - 1, nextAttemptAt: sql`now() - interval '1 second'` })
      .where(eq(orderRefill.id, hopeless.id));
    await tick();
    expect(await refillRow(hopeless.id)).toMatchObject({
      state: 'rejected',
      attempts: MAX_REFILL_ATTEMPTS,
      note: `No pudimos enviar la reposición al proveedor tras ${MAX_REFILL_ATTEMPTS} intentos (Service under maintenance).`,
    });
    delete kit.fake.smm.maintenance;
  });

  it('forwards a cancel and refunds the order once, only when the supplier reports it cancelled', async () => {
    const customer = await fundedCustomer(kit, '5.00');
    const { order: placed, reference } = await placeAndSend(customer.client, 'Default', {
      quantity: 1000,
      fields: { link: 'https://instagram.com/cancelar' },
    });
    const asked = await json<OrderDto>(
      await customer.client.post(`/api/orders/${placed.id}/cancel`, {}),
      200,
    );
    expect(asked).toMatchObject({ status: 'processing', cancelRequested: true });
    await until(
      'the cancel to be sent',
      () => dispatchRow(kit, placed.id),
      (d) => d?.cancelState !== 'requested',
    );
    expect((await dispatchRow(kit, placed.id))?.cancelState).toBe('sent');
    expect(kit.fake.calls.filter((c) => c.action === 'cancel').map((c) => c.params)).toEqual([
      { orders: reference },
    ]);
    // Accepted, but nothing is refunded until the supplier's status says so.
    expect(await getOrder(customer.client, placed.id)).toMatchObject({ status: 'processing' });
    expect(await transfersOf(kit, placed.id, 'order_release')).toHaveLength(0);
    expect(await balances(kit.t.database.db, customer.id)).toEqual({
      available: 500n - 108n,
      held: 108n,
    });
    await tick();
    await tick();
    const done = await getOrder(customer.client, placed.id);
    expect(done).toMatchObject({ status: 'cancelled', cancelRequested: true });
    expect(done.events?.map((e) => [e.kind, e.status])).toEqual([
      ['status', 'pending'],
      ['status', 'processing'],
      ['cancel', 'processing'],
      ['status', 'cancelled'],
    ]);
    expect(await transfersOf(kit, placed.id, 'order_release')).toHaveLength(1);
    expect(await transfersOf(kit, placed.id, 'order_capture')).toHaveLength(0);
    expect(await balances(kit.t.database.db, customer.id)).toEqual({ available: 500n, held: 0n });
  });

  it('a refused cancel leaves the order running, and it is charged when it completes', async () => {
    const customer = await fundedCustomer(kit, '5.00');
    const { order: placed, reference } = await placeAndSend(customer.client, 'Default', {
      quantity: 1000,
      fields: { link: 'https://instagram.com/no-cancelar' },
    });
    // The supplier stopped taking cancels for this service since we imported it.
    const followers = kit.fake.smm.services.find((s) => s.service === 1);
    if (!followers) throw new Error('no service 1');
    followers.cancel = false;
    await json<OrderDto>(await customer.client.post(`/api/orders/${placed.id}/cancel`, {}), 200);
    await until(
      'the cancel to be answered',
      () => dispatchRow(kit, placed.id),
      (d) => d?.cancelState !== 'requested',
    );
    expect((await dispatchRow(kit, placed.id))?.cancelState).toBe('refused');
    const running = await getOrder(customer.client, placed.id);
    expect(running).toMatchObject({ status: 'processing', cancelRequested: false });
    expect(running.events?.at(-1)).toMatchObject({
      kind: 'cancel',
      actor: 'system',
      note: 'El proveedor no aceptó la cancelación: Cancel is not allowed',
    });
    await tick();
    expect(await transfersOf(kit, placed.id, 'order_release')).toHaveLength(0);
    kit.fake.complete(reference);
    await tick();
    expect((await getOrder(customer.client, placed.id)).status).toBe('completed');
    expect(await transfersOf(kit, placed.id, 'order_release')).toHaveLength(0);
    expect(await transfersOf(kit, placed.id, 'order_capture')).toHaveLength(1);
  });

  it('the tick sends cancels whose jobs were lost, and gives up on a supplier that cannot take them', async () => {
    const customer = await fundedCustomer(kit, '10.00');
    const lost = await placeAndSend(customer.client, 'Default', {
      quantity: 1000,
      fields: { link: 'https://instagram.com/perdida' },
    });
    const unreachable = await placeAndSend(customer.client, 'Default', {
      quantity: 1000,
      fields: { link: 'https://instagram.com/inalcanzable' },
    });
    // Requested long ago, and no job to send them (as after a lost job).
    for (const o of [lost.order, unreachable.order]) {
      await kit.t.database.db
        .update(order)
        .set({ cancelRequestedAt: sql`now() - interval '2 hours'` })
        .where(eq(order.id, o.id));
      await kit.t.database.db
        .update(orderDispatch)
        .set({ cancelState: 'requested' })
        .where(eq(orderDispatch.orderId, o.id));
    }
    kit.fake.when({ action: 'cancel', link: 'https://instagram.com/inalcanzable' }, { http: 503 });
    const summary = await tick();
    // One call for both: the fake answers 503 to it (the rule matches one of its orders).
    expect(kit.fake.calls.filter((c) => c.action === 'cancel')).toHaveLength(1);
    expect(summary).toMatchObject({ cancelsSent: 2 });
    // A 503 may have arrived: taken as sent, never asked again; the supplier's status decides.
    expect((await dispatchRow(kit, lost.order.id))?.cancelState).toBe('sent');
    expect((await dispatchRow(kit, unreachable.order.id))?.cancelState).toBe('sent');
    kit.fake.complete(lost.reference);
    kit.fake.complete(unreachable.reference);
    await tick();
    expect((await getOrder(customer.client, lost.order.id)).status).toBe('completed');

    // A supplier under maintenance on the last try: refused, and the customer may ask again.
    const third = await placeAndSend(customer.client, 'Default', {
      quantity: 1000,
      fields: { link: 'https://instagram.com/mantenimiento-cancel' },
    });
    await kit.t.database.db
      .update(order)
      .set({ cancelRequestedAt: sql`now() - interval '2 hours'` })
      .where(eq(order.id, third.order.id));
    await kit.t.database.db
      .update(orderDispatch)
      .set({ cancelState: 'requested' })
      .where(eq(orderDispatch.orderId, third.order.id));
    kit.fake.smm.maintenance = 'Service under maintenance';
    await tick();
    delete kit.fake.smm.maintenance;
    expect((await dispatchRow(kit, third.order.id))?.cancelState).toBe('refused');
    const refused = await getOrder(customer.client, third.order.id);
    expect(refused.events?.at(-1)?.note).toBe(
      'El proveedor no aceptó la cancelación: no llegó a recibirla (Service under maintenance). Puedes pedirla de nuevo más tarde.',
    );
    expect(refused.cancelRequestable).toBe(true);
    // Asked again: sent by its job this time, then cancelled and refunded once.
    await json<OrderDto>(
      await customer.client.post(`/api/orders/${third.order.id}/cancel`, {}),
      200,
    );
    await until(
      'the cancel to be sent',
      () => dispatchRow(kit, third.order.id),
      (d) => d?.cancelState === 'sent',
    );
    await tick();
    expect((await getOrder(customer.client, third.order.id)).status).toBe('cancelled');
    expect(await transfersOf(kit, third.order.id, 'order_release')).toHaveLength(1);
  });
});

// Forwarding orders to suppliers and following them, step by step (the workers are not running
// here: each test drives the dispatch and the polls itself), against the fake supplier on both
// databases. Every mapping of docs/protocols.md §4.1, the failover, the review queue and its
// three decisions, and the races that made real panels send twice or refund twice.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AdminServiceDto } from '../../../shared/schemas/catalogue';
import type { OrderDto } from '../../../shared/schemas/orders';
import type {
  AdminOrderDto,
  AdminOrdersPage,
  SupplierDto,
} from '../../../shared/schemas/suppliers';
import { queryRows } from '../../db/client';
import { orderEvent } from '../../db/schema/catalogue';
import { orderDispatch, supplier } from '../../db/schema/suppliers';
import { imeiFor } from '../../../tests/setup/imei';
import {
  adminOrder,
  connectDhru,
  connectSmm,
  dispatchRow,
  expectLedgerClean,
  fundedCustomer,
  importServices,
  json,
  makeDue,
  placeOrder,
  supplierKit,
  transfersOf,
  type Kit,
} from '../../../tests/setup/suppliers';
import { dbTargets } from '../../../tests/setup/test-db';
import { balances } from '../ledger/ledger.service';
import {
  claimDispatch,
  MAX_ROUNDS,
  recordOutcome,
  reviewStaleSends,
  runDispatch,
  sendClaimed,
} from './dispatch.service';
import { pollAll, pollSupplier } from './poll.service';

const RESULT_HTML = 'Unlock code: 12345678<br>Carrier: AT&amp;T';
const RESULT_TEXT = 'Unlock code: 12345678\nCarrier: AT&T';

let seed = 7_000;
function nextImei(): string {
  seed += 1;
  return imeiFor(`${Date.now() % 100_000}${seed}`);
}

describe.each(dbTargets())('dispatch to suppliers on %s', (target) => {
  let kit: Kit;

  beforeAll(async () => {
    kit = await supplierKit(target);
  });
  afterAll(async () => {
    await kit?.close();
  });
  beforeEach(() => {
    kit.fake.reset();
  });
  afterEach(async () => {
    await expectLedgerClean(kit);
  });

  /** A new supplier and one imported IMEI service (0.80 at the supplier, 0.96 for us). */
  async function routedImei(): Promise<{ sup: SupplierDto; svc: AdminServiceDto }> {
    const sup = await connectDhru(kit);
    const [svc] = await importServices(kit, sup.id, ['1382'], 'IMEI', 20);
    if (!svc) throw new Error('import failed');
    return { sup, svc };
  }

  async function customerOrder(svcId: string, fields?: Record<string, string>) {
    const customer = await fundedCustomer(kit, '20.00');
    const imei = nextImei();
    const order = await placeOrder(customer.client, svcId, fields ?? { imei });
    return { customer, order, imei };
  }

  function placeCalls(imei?: string) {
    return kit.fake.calls.filter(
      (c) =>
        (c.action === 'placeimeiorder' || c.action === 'add') &&
        (imei === undefined || c.params.IMEI === imei),
    );
  }

  it('queues the dispatch with the held money, sends it once, and completes with the supplier result as text', async () => {
    const { sup, svc } = await routedImei();
    const { customer, order, imei } = await customerOrder(svc.id);
    expect(order).toMatchObject({ status: 'pending', price: '0.96' });
    const queued = await dispatchRow(kit, order.id);
    expect(queued?.state).toBe('queued');
    // Its job was written in the transaction that held the money.
    const jobs = await queryRows<{ id: string }>(
      kit.t.database.db,
      sql`SELECT id FROM pgboss.job WHERE name = 'supplier-dispatch' AND data->>'orderId' = ${order.id}`,
    );
    expect(jobs).toHaveLength(1);
    expect(placeCalls()).toHaveLength(0);

    expect(await runDispatch(kit.t.deps, order.id)).toBe('sent');
    expect(await runDispatch(kit.t.deps, order.id)).toBe('nothing-to-do');
    expect(kit.fake.placedCount({ imei })).toBe(1);
    const [call] = placeCalls(imei);
    expect(call?.params).toMatchObject({ ID: '1382', IMEI: imei });
    expect(call?.fields.parameters?.startsWith('<PARAMETERS>')).toBe(true);

    const sent = await dispatchRow(kit, order.id);
    expect(sent).toMatchObject({ state: 'sent', supplierId: sup.id, attempts: 1 });
    const reference = sent?.reference ?? '';
    expect(kit.fake.orders.has(reference)).toBe(true);
    const seen = await json<OrderDto>(await customer.client.get(`/api/orders/${order.id}`), 200);
    expect(seen).toMatchObject({
      status: 'processing',
      statusLabel: 'En proceso',
      cancellable: false,
    });
    const cancel = await customer.client.post(`/api/orders/${order.id}/cancel`);
    expect(cancel.status).toBe(409);
    const admin = await adminOrder(kit, order.id);
    expect(admin.dispatch).toMatchObject({
      supplierId: sup.id,
      supplierName: sup.name,
      reference,
      state: 'sent',
      stateLabel: 'Enviada al proveedor',
    });

    kit.fake.complete(reference, RESULT_HTML);
    const polled = await pollAll(kit.t.deps, { dueSeconds: 0 });
    expect(polled.settled).toBe(1);
    const done = await json<OrderDto>(await customer.client.get(`/api/orders/${order.id}`), 200);
    expect(done).toMatchObject({ status: 'completed', result: RESULT_TEXT });
    expect(done.events?.map((e) => [e.status, e.actor])).toEqual([
      ['pending', 'customer'],
      ['processing', 'system'],
      ['completed', 'system'],
    ]);
    // The customer never sees the supplier, its reference or its cost.
    const customerText = JSON.stringify(done);
    expect(customerText).not.toContain(sup.name);
    expect(customerText).not.toContain(reference);
    expect(customerText).not.toContain('0.80');
    expect(await transfersOf(kit, order.id, 'order_capture')).toHaveLength(1);
    expect(await transfersOf(kit, order.id, 'order_release')).toHaveLength(0);
    expect((await dispatchRow(kit, order.id))?.state).toBe('done');
    const mail = await kit.t.waitForMail(customer.email, /completada/);
    expect(mail.text).toContain('Carrier: AT&T');
    // A late, repeated answer changes nothing.
    expect((await pollAll(kit.t.deps, { dueSeconds: 0 })).settled).toBe(0);
  });

  it('sends custom fields in both DHRU parameter dialects', async () => {
    const sup = await connectDhru(kit);
    const [office] = await importServices(kit, sup.id, ['4100'], 'licenses', 10);
    if (!office) throw new Error('import failed');
    expect(office.fields.map((f) => [f.key, f.type])).toEqual([
      ['email', 'email'],
      ['plan', 'select'],
      ['auto_renew', 'select'],
    ]);
    const customer = await fundedCustomer(kit, '20.00');
    const fields = { email: 'ana@example.com', plan: 'Family', auto_renew: 'No' };
    const first = await placeOrder(customer.client, office.id, fields);
    expect(await runDispatch(kit.t.deps, first.id)).toBe('sent');
    await json<SupplierDto>(
      await kit.admin.client.patch(`/api/admin/suppliers/${sup.id}`, {
        settings: { dhruParameters: 'json' },
      }),
      200,
    );
    const second = await placeOrder(customer.client, office.id, fields);
    expect(await runDispatch(kit.t.deps, second.id)).toBe('sent');
    const [xml, b64] = placeCalls();
    expect(xml?.fields.parameters?.startsWith('<PARAMETERS>')).toBe(true);
    expect(b64?.fields.parameters?.startsWith('<')).toBe(false);
    for (const call of [xml, b64]) {
      expect(call?.params.ID).toBe('4100');
      expect(JSON.parse(call?.params.CUSTOMFIELD ?? '{}')).toEqual({
        Email: 'ana@example.com',
        Plan: 'Family',
        'Auto renew': 'No',
      });
    }
  });

  it('fails over to the next route when the first refuses the order, and rejects with the reason when none is left', async () => {
    const { sup: a, svc } = await routedImei();
    const b = await connectDhru(kit);
    await json<AdminServiceDto>(
      await kit.admin.client.request('PUT', `/api/admin/services/${svc.id}/routes`, {
        routes: [
          { supplierId: a.id, remoteId: '1382' },
          { supplierId: b.id, remoteId: '1382' },
        ],
        markupPercent: 20,
      }),
      200,
    );
    kit.fake.when({ action: 'placeimeiorder', times: 1 }, { refuse: 'Model not supported' });
    const { order, imei } = await customerOrder(svc.id);
    expect(await runDispatch(kit.t.deps, order.id)).toBe('next-route');
    expect((await dispatchRow(kit, order.id))?.lastError).toContain('Model not supported');
    expect(await runDispatch(kit.t.deps, order.id)).toBe('sent');
    expect(await dispatchRow(kit, order.id)).toMatchObject({ state: 'sent', supplierId: b.id });
    expect(kit.fake.placedCount({ imei })).toBe(1);
    // An order refusal is not the supplier's fault: it stays active.
    expect(
      (await json<SupplierDto>(await kit.admin.client.get(`/api/admin/suppliers/${a.id}`), 200))
        .state,
    ).toBe('activo');

    kit.fake.when({ action: 'placeimeiorder', times: 2 }, { refuse: 'Invalid IMEI' });
    const second = await customerOrder(svc.id);
    expect(await runDispatch(kit.t.deps, second.order.id)).toBe('next-route');
    expect(await runDispatch(kit.t.deps, second.order.id)).toBe('rejected');
    const rejected = await json<OrderDto>(
      await second.customer.client.get(`/api/orders/${second.order.id}`),
      200,
    );
    expect(rejected).toMatchObject({
      status: 'rejected',
      rejectReason: 'Rechazada por el proveedor: Invalid IMEI',
    });
    expect(await transfersOf(kit, second.order.id, 'order_release')).toHaveLength(1);
    expect(await balances(kit.t.database.db, second.customer.id)).toEqual({
      available: 2000n,
      held: 0n,
    });
    await kit.t.waitForMail(second.customer.email, /rechazada/);
    expect(kit.fake.placedCount({ imei: second.imei })).toBe(0);
  });

  it('regression: a bulk order refused by the supplier line by line sent one e-mail per line — now one summary', async () => {
    const { svc } = await routedImei();
    const customer = await fundedCustomer(kit, '20.00');
    const imeis = [nextImei(), nextImei(), nextImei()];
    const orders = [];
    for (const imei of imeis) orders.push(await placeOrder(customer.client, svc.id, { imei }));
    kit.fake.when({ action: 'placeimeiorder', times: 3 }, { refuse: 'Invalid IMEI' });
    for (const o of orders) expect(await runDispatch(kit.t.deps, o.id)).toBe('rejected');
    const summary = await kit.t.waitForMail(customer.email, /rechazad/, 10_000);
    for (const o of orders) expect(summary.text).toContain(`#${o.number}`);
    for (const imei of imeis) expect(summary.text).toContain(imei);
    // Whatever was still to come has come: one e-mail for the three refusals.
    await new Promise((r) => setTimeout(r, 500));
    const mails = (await kit.t.outbox()).filter((m) => m.to === customer.email);
    expect(mails.filter((m) => /rechazad/i.test(m.subject))).toHaveLength(1);
  });

  it('moves on when a supplier refuses for itself, marks it failing, waits when no route is left, then sends', async () => {
    const { sup: a, svc } = await routedImei();
    const b = await connectDhru(kit);
    await json(
      await kit.admin.client.request('PUT', `/api/admin/services/${svc.id}/routes`, {
        routes: [
          { supplierId: a.id, remoteId: '1382' },
          { supplierId: b.id, remoteId: '1382' },
        ],
        markupPercent: 20,
      }),
      200,
    );
    kit.fake.dhru.maintenance = 'Server under maintenance, try again later';
    const { customer, order, imei } = await customerOrder(svc.id);
    expect(await runDispatch(kit.t.deps, order.id)).toBe('next-route');
    expect(await runDispatch(kit.t.deps, order.id)).toBe('waiting');
    const waiting = await dispatchRow(kit, order.id);
    expect(waiting).toMatchObject({ state: 'waiting', rounds: 1, routeIndex: 0 });
    expect(waiting!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 50_000);
    const state = async (id: string) =>
      (await json<SupplierDto>(await kit.admin.client.get(`/api/admin/suppliers/${id}`), 200))
        .state;
    expect(await state(a.id)).toBe('fallando');
    expect(await state(b.id)).toBe('fallando');
    // Not due yet: nothing happens; the customer sees it in progress and cannot cancel.
    expect(await runDispatch(kit.t.deps, order.id)).toBe('nothing-to-do');
    expect((await adminOrder(kit, order.id)).dispatch?.stateLabel).toBe('En espera del proveedor');
    expect((await customer.client.post(`/api/orders/${order.id}/cancel`)).status).toBe(409);
    delete kit.fake.dhru.maintenance;
    await makeDue(kit, order.id);
    expect(await runDispatch(kit.t.deps, order.id)).toBe('sent');
    expect(await dispatchRow(kit, order.id)).toMatchObject({ state: 'sent', supplierId: a.id });
    expect(await state(a.id)).toBe('activo');
    expect(kit.fake.placedCount({ imei })).toBe(1);

    // "Not enough credits" is the supplier's problem too; after the last round, review.
    kit.fake.dhru.balance = '0.10';
    const poor = await customerOrder(svc.id);
    await kit.t.database.db
      .update(orderDispatch)
      .set({ rounds: MAX_ROUNDS })
      .where(eq(orderDispatch.orderId, poor.order.id));
    expect(await runDispatch(kit.t.deps, poor.order.id)).toBe('next-route');
    expect(await runDispatch(kit.t.deps, poor.order.id)).toBe('review');
    const review = await dispatchRow(kit, poor.order.id);
    expect(review?.reviewReason).toContain('Not enough credits');
    expect(await balances(kit.t.database.db, poor.customer.id)).toMatchObject({ held: 96n });
  });

  it('an unclear answer goes to review, keeps the money held, and is never sent again by itself', async () => {
    const { svc } = await routedImei();
    const cases = [
      { behaviour: { hang: true }, createdUpstream: 1 },
      { behaviour: { acceptThenDrop: true }, createdUpstream: 1 },
      { behaviour: { http: 500 }, createdUpstream: 0 },
      { behaviour: { html: true }, createdUpstream: 0 },
      { behaviour: { garbage: true }, createdUpstream: 0 },
    ] as const;
    for (const c of cases) {
      kit.fake.when({ action: 'placeimeiorder', times: 1 }, c.behaviour);
      const { customer, order, imei } = await customerOrder(svc.id);
      expect(await runDispatch(kit.t.deps, order.id), JSON.stringify(c.behaviour)).toBe('review');
      const admin = await adminOrder(kit, order.id);
      expect(admin.dispatch).toMatchObject({ state: 'review', stateLabel: 'Revisar' });
      expect(admin.dispatch?.reviewReason).toMatch(/compruébalo en su panel/);
      // Nothing sends it again: not the job, not the periodic sweep.
      expect(await runDispatch(kit.t.deps, order.id)).toBe('nothing-to-do');
      expect(placeCalls(imei)).toHaveLength(1);
      expect(kit.fake.placedCount({ imei })).toBe(c.createdUpstream);
      expect(await balances(kit.t.database.db, customer.id)).toEqual({
        available: 1904n,
        held: 96n,
      });
    }
    const queue = await json<AdminOrdersPage>(
      await kit.admin.client.get('/api/admin/orders?dispatch=review'),
      200,
    );
    expect(queue.items.length).toBeGreaterThanOrEqual(cases.length);
    expect(queue.items.every((o) => o.dispatch?.state === 'review')).toBe(true);
  });

  it('a crash between the claim and the send ends in review, never in a second send', async () => {
    const { svc } = await routedImei();
    const { order, imei } = await customerOrder(svc.id);
    // The claim commits, then the process dies before calling the supplier.
    const claim = await claimDispatch(kit.t.deps, order.id);
    expect(claim).not.toBeNull();
    expect((await dispatchRow(kit, order.id))?.state).toBe('sending');
    // The job is retried (pg-boss would): the order is claimed already, nothing is sent.
    expect(await runDispatch(kit.t.deps, order.id)).toBe('nothing-to-do');
    expect(await reviewStaleSends(kit.t.deps, 0)).toBeGreaterThanOrEqual(1);
    expect((await dispatchRow(kit, order.id))?.state).toBe('review');
    expect(await runDispatch(kit.t.deps, order.id)).toBe('nothing-to-do');
    expect(placeCalls(imei)).toHaveLength(0);
    // An answer that arrives after the stale check moved it on is only noted.
    const late = await claimDispatch(kit.t.deps, order.id);
    expect(late).toBeNull();
  });

  it('an answer arriving after the order was moved to review is kept for the admin, not applied', async () => {
    const { svc } = await routedImei();
    const { order } = await customerOrder(svc.id);
    const claim = await claimDispatch(kit.t.deps, order.id);
    if (!claim) throw new Error('no claim');
    const outcome = await sendClaimed(kit.t.deps, claim);
    await reviewStaleSends(kit.t.deps, 0);
    expect(await recordOutcome(kit.t.deps, claim, outcome)).toBe('superseded');
    const row = await dispatchRow(kit, order.id);
    expect(row?.state).toBe('review');
    expect(row?.lastError).toMatch(/aceptó la orden con la referencia/);
  });

  it('a connection refused before anything was sent is retried later', async () => {
    const { sup, svc } = await routedImei();
    await kit.t.database.db
      .update(supplier)
      .set({ url: 'http://127.0.0.1:9' })
      .where(eq(supplier.id, sup.id));
    const { order, imei } = await customerOrder(svc.id);
    expect(await runDispatch(kit.t.deps, order.id)).toBe('waiting');
    expect((await dispatchRow(kit, order.id))?.lastError).toMatch(/ECONNREFUSED|connect/i);
    await kit.t.database.db
      .update(supplier)
      .set({ url: kit.fake.url })
      .where(eq(supplier.id, sup.id));
    await makeDue(kit, order.id);
    expect(await runDispatch(kit.t.deps, order.id)).toBe('sent');
    expect(kit.fake.placedCount({ imei })).toBe(1);
  });

  it('review decisions: the supplier has it, send again, reject and refund', async () => {
    const { sup, svc } = await routedImei();
    // The first is received (the answer lost), the second is not, the third is anyone's guess.
    const has = await customerOrder(svc.id);
    const again = await customerOrder(svc.id);
    const refund = await customerOrder(svc.id);
    for (const [o, behaviour] of [
      [has, { acceptThenDrop: true }],
      [again, { http: 502 }],
      [refund, { hang: true }],
    ] as const) {
      kit.fake.when({ action: 'placeimeiorder', times: 1 }, behaviour);
      expect(await runDispatch(kit.t.deps, o.order.id)).toBe('review');
    }
    // 1. The supplier has it: followed under its reference, then completed by a poll.
    const reference = [...kit.fake.orders.values()].find((o) => o.imei === has.imei)?.reference;
    if (!reference) throw new Error('the fake has no order');
    const confirmed = await json<AdminOrderDto>(
      await kit.admin.client.post(`/api/admin/orders/${has.order.id}/dispatch/confirm`, {
        reference,
      }),
      200,
    );
    expect(confirmed.dispatch).toMatchObject({ state: 'sent', reference, supplierId: sup.id });
    const duplicate = await json<{ fields: Record<string, string> }>(
      await kit.admin.client.post(`/api/admin/orders/${again.order.id}/dispatch/confirm`, {
        reference,
      }),
      400,
    );
    expect(duplicate.fields.reference).toContain(`#${has.order.number}`);
    const notInReview = await kit.admin.client.post(
      `/api/admin/orders/${has.order.id}/dispatch/confirm`,
      { reference: 'otra' },
    );
    expect(notInReview.status).toBe(409);
    kit.fake.complete(reference, RESULT_HTML);
    await pollAll(kit.t.deps, { dueSeconds: 0 });
    expect((await adminOrder(kit, has.order.id)).status).toBe('completed');

    // 2. Send again: the admin checked the supplier does not have it.
    await json<AdminOrderDto>(
      await kit.admin.client.post(`/api/admin/orders/${again.order.id}/dispatch/resend`),
      200,
    );
    expect(await runDispatch(kit.t.deps, again.order.id)).toBe('sent');
    expect(placeCalls(again.imei)).toHaveLength(2);

    // 3. Reject and refund.
    const rejected = await json<AdminOrderDto>(
      await kit.admin.client.post(`/api/admin/orders/${refund.order.id}/reject`, {
        reason: 'El proveedor no la recibió; reembolsada.',
      }),
      200,
    );
    expect(rejected).toMatchObject({ status: 'rejected', dispatch: { state: 'done' } });
    expect(await balances(kit.t.database.db, refund.customer.id)).toEqual({
      available: 2000n,
      held: 0n,
    });
    // Every decision is audited.
    const audits = await queryRows<{ action: string }>(
      kit.t.database.db,
      sql`SELECT action FROM audit_log WHERE target_id IN (${has.order.id}, ${again.order.id}) ORDER BY created_at`,
    );
    expect(audits.map((a) => a.action)).toEqual([
      'order.dispatch_confirm',
      'order.dispatch_resend',
    ]);
  });

  it('admins cannot settle an order while its call to the supplier is in flight', async () => {
    const { svc } = await routedImei();
    const { order } = await customerOrder(svc.id);
    await claimDispatch(kit.t.deps, order.id);
    for (const [path, body] of [
      ['reject', { reason: 'Motivo cualquiera' }],
      ['complete', { result: 'Hecho' }],
    ] as const) {
      const res = await kit.admin.client.post(`/api/admin/orders/${order.id}/${path}`, body);
      expect(res.status).toBe(409);
      expect(((await res.json()) as { message: string }).message).toMatch(/enviando al proveedor/);
    }
    await reviewStaleSends(kit.t.deps, 0);
    await json(
      await kit.admin.client.post(`/api/admin/orders/${order.id}/reject`, {
        reason: 'Se interrumpió el envío.',
      }),
      200,
    );
  });

  it('a cancel racing the dispatch either cancels (nothing sent) or fails (sent), never both', async () => {
    const { svc } = await routedImei();
    const outcomes = { cancelled: 0, sent: 0 };
    for (let i = 0; i < 8; i++) {
      const { customer, order, imei } = await customerOrder(svc.id);
      const [cancel, dispatched] = await Promise.all([
        customer.client.post(`/api/orders/${order.id}/cancel`),
        runDispatch(kit.t.deps, order.id),
      ]);
      const final = await adminOrder(kit, order.id);
      if (cancel.status === 200) {
        outcomes.cancelled += 1;
        expect(final.status).toBe('cancelled');
        expect(dispatched).toBe('nothing-to-do');
        expect(placeCalls(imei)).toHaveLength(0);
        expect(final.dispatch?.state).toBe('done');
        expect(await transfersOf(kit, order.id, 'order_release')).toHaveLength(1);
      } else {
        outcomes.sent += 1;
        expect(cancel.status).toBe(409);
        expect(dispatched).toBe('sent');
        expect(final.status).toBe('processing');
        expect(kit.fake.placedCount({ imei })).toBe(1);
        expect(await transfersOf(kit, order.id, 'order_release')).toHaveLength(0);
      }
    }
    expect(outcomes.cancelled + outcomes.sent).toBe(8);
  });

  it('refunds exactly once whatever races polls, repeated answers and an admin', async () => {
    const { svc } = await routedImei();
    const { customer, order } = await customerOrder(svc.id);
    await runDispatch(kit.t.deps, order.id);
    const reference = (await dispatchRow(kit, order.id))?.reference ?? '';
    kit.fake.reject(reference, 'IMEI <b>blacklisted</b>');
    await Promise.all([
      pollAll(kit.t.deps, { dueSeconds: 0 }),
      pollAll(kit.t.deps, { dueSeconds: 0 }),
      pollAll(kit.t.deps, { dueSeconds: 0 }),
      kit.admin.client.post(`/api/admin/orders/${order.id}/reject`, { reason: 'A mano' }),
    ]);
    expect(await transfersOf(kit, order.id, 'order_release')).toHaveLength(1);
    expect(await balances(kit.t.database.db, customer.id)).toEqual({ available: 2000n, held: 0n });
    const rejections = await kit.t.database.db
      .select()
      .from(orderEvent)
      .where(and(eq(orderEvent.orderId, order.id), eq(orderEvent.status, 'rejected')));
    expect(rejections).toHaveLength(1);
    const final = await adminOrder(kit, order.id);
    expect(final.status).toBe('rejected');
    expect(final.rejectReason).toMatch(/^(Rechazada por el proveedor: IMEI blacklisted|A mano)$/);
  });

  it('maps DHRU status 2 by the supplier setting and reads statuses one by one without bulk', async () => {
    const { sup, svc } = await routedImei();
    kit.fake.dhru.bulk = false;
    const { order } = await customerOrder(svc.id);
    await runDispatch(kit.t.deps, order.id);
    const reference = (await dispatchRow(kit, order.id))?.reference ?? '';
    kit.fake.status2(reference);
    await pollAll(kit.t.deps, { dueSeconds: 0 });
    expect((await adminOrder(kit, order.id)).status).toBe('processing');
    expect(kit.fake.calls.some((c) => c.action === 'getimeiorder')).toBe(true);
    await json(
      await kit.admin.client.patch(`/api/admin/suppliers/${sup.id}`, {
        settings: { dhruStatus2: 'cancelled' },
      }),
      200,
    );
    await pollAll(kit.t.deps, { dueSeconds: 0 });
    const cancelled = await adminOrder(kit, order.id);
    expect(cancelled.status).toBe('rejected');
    expect(cancelled.rejectReason).toMatch(/canceló/);
  });

  it('an order the supplier does not know goes to review after a few answers', async () => {
    const { svc } = await routedImei();
    const { order } = await customerOrder(svc.id);
    await runDispatch(kit.t.deps, order.id);
    kit.fake.when({ action: 'getimeiorderbulk' }, { unknownOrder: true });
    for (let i = 0; i < 3; i++) await pollAll(kit.t.deps, { dueSeconds: 0 });
    const row = await dispatchRow(kit, order.id);
    expect(row?.state).toBe('review');
    expect(row?.reviewReason).toMatch(/no conoce la referencia/);
    expect((await adminOrder(kit, order.id)).status).toBe('processing');
  });

  describe('SMM suppliers', () => {
    async function routedSocial() {
      const sup = await connectSmm(kit);
      const [svc] = await importServices(kit, sup.id, ['1'], 'social', 20); // 1.08 per 1000
      if (!svc) throw new Error('import failed');
      return { sup, svc };
    }
    let links = 0;
    function nextLink() {
      links += 1;
      return `https://instagram.com/cuenta_${Date.now()}_${links}`;
    }

    it('sends link and quantity; Partial refunds the undelivered share, over-delivery refunds nothing', async () => {
      const { svc } = await routedSocial();
      const customer = await fundedCustomer(kit, '20.00');
      const link = nextLink();
      const partial = await placeOrder(customer.client, svc.id, { link }, 1000);
      expect(partial.price).toBe('1.08');
      expect(await runDispatch(kit.t.deps, partial.id)).toBe('sent');
      const [add] = placeCalls();
      expect(add?.params).toMatchObject({ service: '1', link, quantity: '1000' });
      kit.fake.partial((await dispatchRow(kit, partial.id))?.reference ?? '', 100);

      const over = await placeOrder(customer.client, svc.id, { link: nextLink() }, 500);
      await runDispatch(kit.t.deps, over.id);
      kit.fake.partial((await dispatchRow(kit, over.id))?.reference ?? '', -2);
      expect((await pollAll(kit.t.deps, { dueSeconds: 0 })).settled).toBe(2);

      const p = await json<OrderDto>(await customer.client.get(`/api/orders/${partial.id}`), 200);
      expect(p).toMatchObject({ status: 'partial', statusLabel: 'Parcial' });
      expect(p.result).toBe('Entrega parcial: 900 de 1000. Se devolvieron US$0.10 a tu saldo.');
      // ⌊108 × 100 / 1000⌋ = 10 cents back; 98 captured.
      expect((await transfersOf(kit, partial.id, 'order_release'))[0]?.amount).toBe(10n);
      expect((await transfersOf(kit, partial.id, 'order_capture'))[0]?.amount).toBe(98n);
      expect(await transfersOf(kit, over.id, 'order_release')).toHaveLength(0);
      expect((await transfersOf(kit, over.id, 'order_capture'))[0]?.amount).toBe(54n);
      // A second Partial answer refunds nothing more.
      await pollAll(kit.t.deps, { dueSeconds: 0 });
      expect(await transfersOf(kit, partial.id, 'order_release')).toHaveLength(1);
      expect(await balances(kit.t.database.db, customer.id)).toEqual({
        available: 2000n - 98n - 54n,
        held: 0n,
      });
      await kit.t.waitForMail(customer.email, /entrega parcial/);
    });

    it('Canceled refunds in full; Completed captures; an active order with the link waits', async () => {
      const { svc } = await routedSocial();
      const customer = await fundedCustomer(kit, '20.00');
      const cancelled = await placeOrder(customer.client, svc.id, { link: nextLink() }, 100);
      const completed = await placeOrder(customer.client, svc.id, { link: nextLink() }, 100);
      await runDispatch(kit.t.deps, cancelled.id);
      await runDispatch(kit.t.deps, completed.id);
      kit.fake.cancel((await dispatchRow(kit, cancelled.id))?.reference ?? '');
      kit.fake.complete((await dispatchRow(kit, completed.id))?.reference ?? '');
      await pollAll(kit.t.deps, { dueSeconds: 0 });
      expect(await adminOrder(kit, cancelled.id)).toMatchObject({
        status: 'rejected',
        rejectReason: 'El proveedor canceló la orden: Cancelada por el proveedor.',
      });
      expect(await adminOrder(kit, completed.id)).toMatchObject({ status: 'completed' });

      kit.fake.when(
        { action: 'add', times: 1 },
        {
          refuse: 'You have active order with this link. Please wait until order being completed.',
        },
      );
      const busy = await placeOrder(customer.client, svc.id, { link: nextLink() }, 100);
      expect(await runDispatch(kit.t.deps, busy.id)).toBe('waiting');
      await makeDue(kit, busy.id);
      expect(await runDispatch(kit.t.deps, busy.id)).toBe('sent');
    });

    it('polls in batches of at most 100 orders', async () => {
      const { sup, svc } = await routedSocial();
      const [row] = await kit.t.database.db.select().from(supplier).where(eq(supplier.id, sup.id));
      if (!row) throw new Error('no supplier');
      const customer = await fundedCustomer(kit, '100.00');
      const ids: string[] = [];
      for (let i = 0; i < 101; i++) {
        const o = await placeOrder(customer.client, svc.id, { link: nextLink() }, 50);
        ids.push(o.id);
      }
      for (const id of ids) expect(await runDispatch(kit.t.deps, id)).toBe('sent');
      const summary = await pollSupplier(kit.t.deps, row, { dueSeconds: 0 });
      expect(summary.polled).toBe(101);
      const statusCalls = kit.fake.calls.filter((c) => c.action === 'status');
      expect(statusCalls).toHaveLength(2);
      for (const c of statusCalls) {
        expect((c.fields.orders ?? '').split(',').length).toBeLessThanOrEqual(100);
      }
      // Polled just now: not due again before SUPPLIER_POLL_SECONDS.
      expect((await pollSupplier(kit.t.deps, row)).polled).toBe(0);
    });
  });
});

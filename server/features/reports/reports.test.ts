// Issue 21 §3: each order records its cost (the supplier's price when sent, its SMM `charge`, or
// what the admin typed), refunds and partials adjust price and cost together, staff order shapes
// carry cost and margin for admin and finance only, and GET /api/admin/reports gives exact
// figures per breakdown and period, as JSON and CSV, whose revenue reconciles with the ledger.
import { and, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AdminServiceDto } from '../../../shared/schemas/catalogue';
import {
  REPORT_BREAKDOWNS,
  REPORT_PERIODS,
  type Report,
  type ReportBreakdown,
  type ReportPeriod,
} from '../../../shared/schemas/reports';
import type { AdminOrderDto, SupplierDto } from '../../../shared/schemas/suppliers';
import { order, service } from '../../db/schema/catalogue';
import { ledgerTransfer } from '../../db/schema/ledger';
import { customerPriceGroup, priceGroup } from '../../db/schema/prices';
import { orderDaySummary, reportDay } from '../../db/schema/reports';
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
  placeOrder,
  supplierKit,
  type Kit,
} from '../../../tests/setup/suppliers';
import { signInStaff, type TestClient } from '../../../tests/setup/test-app';
import { dbTargets } from '../../../tests/setup/test-db';
import { adminGetOrder, adminListOrders } from '../suppliers/admin-orders.service';
import { runDispatch } from '../suppliers/dispatch.service';
import { pollAll } from '../suppliers/poll.service';
import { buildReport, closeFinishedDays } from './reports.service';

let seed = 3_100;
function nextImei(): string {
  seed += 1;
  return imeiFor(`${Date.now() % 100_000}${seed}`);
}

function day(offset: number): string {
  return new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
}

async function costRow(kit: Kit, id: string) {
  const [row] = await kit.t.database.db
    .select({ cost: order.cost, supplierId: order.supplierId, settledAt: order.settledAt })
    .from(order)
    .where(eq(order.id, id));
  return row;
}

describe.each(dbTargets())('cost, margin and reports on %s', (target) => {
  let kit: Kit;
  let dhru: { sup: SupplierDto; svc: AdminServiceDto };
  let smm: { sup: SupplierDto; svc: AdminServiceDto };
  let manualId: string;
  let finance: TestClient;
  let support: TestClient;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    kit = await supplierKit(target);
    const d = await connectDhru(kit);
    const [dsvc] = await importServices(kit, d.id, ['1382'], 'IMEI', 20); // 0.80 → 0.96
    const s = await connectSmm(kit);
    const [ssvc] = await importServices(kit, s.id, ['1'], 'social', 20); // 0.90 → 1.08 per 1000
    if (!dsvc || !ssvc) throw new Error('import failed');
    dhru = { sup: d, svc: dsvc };
    smm = { sup: s, svc: ssvc };
    const [m] = await kit.t.database.db
      .insert(service)
      .values({
        category: 'unlock',
        name: 'Liberación manual',
        description: 'A mano.',
        deliveryTime: '1 día',
        price: 500n,
        fields: [{ key: 'imei', label: 'IMEI', type: 'imei', required: true, identifier: true }],
      })
      .returning({ id: service.id });
    manualId = m?.id ?? '';
    finance = (await signInStaff(kit.t, 'finance')).client;
    support = (await signInStaff(kit.t, 'support')).client;
  });
  afterAll(async () => {
    await kit?.close();
  });
  afterEach(async () => {
    await expectLedgerClean(kit);
  });

  it('records the supplier and its price when an order is sent; margin for admin and finance only', async () => {
    const customer = await fundedCustomer(kit, '20.00');
    const placed = await placeOrder(customer.client, dhru.svc.id, { imei: nextImei() });
    ids.dhru = placed.id;
    expect(await runDispatch(kit.t.deps, placed.id)).toBe('sent');
    expect(await costRow(kit, placed.id)).toMatchObject({ cost: 80n, supplierId: dhru.sup.id });
    kit.fake.complete((await dispatchRow(kit, placed.id))?.reference ?? '');
    await pollAll(kit.t.deps, { dueSeconds: 0 });
    const done = await costRow(kit, placed.id);
    expect(done?.cost).toBe(80n);
    expect(done?.settledAt).toBeInstanceOf(Date);

    // Admin over HTTP; finance and support as the handler asks for them (their role).
    expect(await adminOrder(kit, placed.id)).toMatchObject({
      status: 'completed',
      cost: '0.80',
      margin: '0.16',
    });
    const db = kit.t.database.db;
    expect(await adminGetOrder(db, placed.id, 'finance')).toMatchObject({
      cost: '0.80',
      margin: '0.16',
    });
    const forSupport = await adminGetOrder(db, placed.id, 'support');
    expect(forSupport).not.toHaveProperty('cost');
    expect(forSupport).not.toHaveProperty('margin');
    const supportList = await adminListOrders(db, {}, undefined, 50, 'support');
    expect(supportList.items.length).toBeGreaterThan(0);
    for (const item of supportList.items) {
      expect(item).not.toHaveProperty('cost');
      expect(item).not.toHaveProperty('margin');
    }
    const adminList = await json<{ items: AdminOrderDto[] }>(
      await kit.admin.client.get('/api/admin/orders'),
      200,
    );
    expect(adminList.items.find((o) => o.id === placed.id)).toMatchObject({
      cost: '0.80',
      margin: '0.16',
    });
    // Customers never see it.
    const own = await json<Record<string, unknown>>(
      await customer.client.get(`/api/orders/${placed.id}`),
      200,
    );
    expect(own).not.toHaveProperty('cost');
    expect(own).not.toHaveProperty('margin');
    // Support and finance cannot read reports… support not at all.
    expect((await support.get(`/api/admin/reports?from=${day(-1)}&to=${day(1)}`)).status).toBe(403);
  });

  it("takes the SMM supplier's charge as the cost, and a partial reduces price and cost together", async () => {
    const customer = await fundedCustomer(kit, '20.00');
    const placed = await placeOrder(
      customer.client,
      smm.svc.id,
      { link: `https://instagram.com/informes_${Date.now()}` },
      1000,
    );
    ids.smm = placed.id;
    expect(placed.price).toBe('1.08');
    expect(await runDispatch(kit.t.deps, placed.id)).toBe('sent');
    expect((await costRow(kit, placed.id))?.cost).toBe(90n);
    const reference = (await dispatchRow(kit, placed.id))?.reference ?? '';
    const upstream = kit.fake.orders.get(reference);
    if (!upstream) throw new Error('no upstream order');
    // The supplier charged less than its list price: its word wins.
    upstream.charge = '0.85';
    kit.fake.partial(reference, 100);
    await pollAll(kit.t.deps, { dueSeconds: 0 });
    // Price 108: ⌊108 × 100 ÷ 1000⌋ = 10 back, 98 kept; cost 85: ⌊85 × 100 ÷ 1000⌋ = 8 off, 77.
    expect((await costRow(kit, placed.id))?.cost).toBe(77n);
    expect(await adminOrder(kit, placed.id)).toMatchObject({
      status: 'partial',
      cost: '0.77',
      margin: '0.21',
    });
  });

  it('keeps the cost an admin types when completing by hand; a rejected order costs nothing', async () => {
    const customer = await fundedCustomer(kit, '20.00');
    const manual = await placeOrder(customer.client, manualId, { imei: nextImei() });
    ids.manual = manual.id;
    const bad = await kit.admin.client.post(`/api/admin/orders/${manual.id}/complete`, {
      result: 'Código 1234',
      cost: 'cuatro',
    });
    expect(bad.status).toBe(400);
    const done = await json<AdminOrderDto>(
      await kit.admin.client.post(`/api/admin/orders/${manual.id}/complete`, {
        result: 'Código 1234',
        cost: '4.20',
      }),
      200,
    );
    expect(done).toMatchObject({ status: 'completed', cost: '4.20', margin: '0.80' });
    expect(await costRow(kit, manual.id)).toMatchObject({ cost: 420n, supplierId: null });

    const rejected = await placeOrder(customer.client, dhru.svc.id, { imei: nextImei() });
    ids.rejected = rejected.id;
    await runDispatch(kit.t.deps, rejected.id);
    kit.fake.reject((await dispatchRow(kit, rejected.id))?.reference ?? '', 'IMEI no válido');
    await pollAll(kit.t.deps, { dueSeconds: 0 });
    expect(await adminOrder(kit, rejected.id)).toMatchObject({
      status: 'rejected',
      cost: '0.00',
      margin: '0.00',
    });
  });

  it('reports by supplier with revenue and refunds that reconcile with the ledger, as JSON and CSV', async () => {
    const from = day(-1);
    const to = day(1);
    const report = await json<Report>(
      await finance.get(`/api/admin/reports?from=${from}&to=${to}&by=supplier`),
      200,
    );
    // DHRU: 0.96 − 0.80 (and a rejection: 0.96 back); SMM: 0.98 − 0.77 (0.10 back); manual 5.00 − 4.20.
    const rows = Object.fromEntries(report.rows.map((r) => [r.key, r]));
    expect(rows[dhru.sup.id]).toEqual({
      key: dhru.sup.id,
      label: dhru.sup.name,
      revenue: '0.96',
      cost: '0.80',
      margin: '0.16',
      orders: 1,
      refunds: '0.96',
    });
    expect(rows[smm.sup.id]).toMatchObject({
      revenue: '0.98',
      cost: '0.77',
      margin: '0.21',
      orders: 1,
      refunds: '0.10',
    });
    expect(rows.manual).toMatchObject({
      label: 'Sin proveedor (a mano)',
      revenue: '5.00',
      cost: '4.20',
      margin: '0.80',
      orders: 1,
      refunds: '0.00',
    });
    expect(report.totals).toEqual({
      revenue: '6.94',
      cost: '5.77',
      margin: '1.17',
      orders: 3,
      refunds: '1.06',
    });
    // The ledger: what went into revenue (captures) and back to customers (releases) in the range.
    const ledger = async (kind: string) => {
      const [row] = await kit.t.database.db
        .select({ sum: sql<string>`COALESCE(SUM(${ledgerTransfer.amount}), 0)::text` })
        .from(ledgerTransfer)
        .where(
          and(
            eq(ledgerTransfer.kind, kind),
            gte(ledgerTransfer.createdAt, new Date(`${from}T00:00:00Z`)),
            lt(ledgerTransfer.createdAt, new Date(`${day(2)}T00:00:00Z`)),
          ),
        );
      return BigInt(row?.sum ?? '0');
    };
    const cents = (money: string) => BigInt(money.replace('.', ''));
    expect(await ledger('order_capture')).toBe(cents(report.totals.revenue));
    expect(await ledger('order_release')).toBe(cents(report.totals.refunds));
    // Top-ups by method: the adjustments used to fund are not top-ups.
    expect(report.topups.map((t) => t.method)).toEqual([
      'stripe',
      'paypal',
      'crypto',
      'mercadopago',
      'manual',
      'voucher',
    ]);
    expect(report.topups.map((t) => t.label)).toEqual([
      'Tarjeta',
      'PayPal',
      'Criptomonedas',
      'Mercado Pago',
      'Pago manual',
      'Cupón',
    ]);
    expect(report.topCustomers).toHaveLength(3);
    expect(report.series).toHaveLength(3);
    expect(report.series.reduce((n, p) => n + p.orders, 0)).toBe(3);

    const csv = await kit.admin.client.get(
      `/api/admin/reports?from=${from}&to=${to}&by=supplier&format=csv`,
    );
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const lines = (await csv.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe('key,label,revenue,cost,margin,orders,refunds');
    expect(lines).toContain('manual,Sin proveedor (a mano),5.00,4.20,0.80,1,0.00');
    expect(lines.at(-1)).toBe('total,total,6.94,5.77,1.17,3,1.06');
    const excel = await kit.admin.client.get(
      `/api/admin/reports?from=${from}&to=${to}&by=supplier&format=excel`,
    );
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await excel.arrayBuffer());
    expect(text.startsWith('\uFEFFClave;Proveedor;Ingresos (USD)')).toBe(true);
    // Amounts with a decimal comma are quoted (the comma would split them for a `,` reader).
    expect(text).toContain('total;Total;"6,94";"5,77";"1,17";3;"1,06"');
  });

  it('gives exact figures per breakdown and period on a fixed fixture', async () => {
    const db = kit.t.database.db;
    const a = await fundedCustomer(kit, '1.00');
    const b = await fundedCustomer(kit, '1.00');
    const base = {
      fields: {},
      quantity: 10,
      serviceName: 'x',
    };
    // January 2021: Monday 4th and Sunday 10th are one week; Monday 11th the next; 1st Feb.
    const at = (d: string) => new Date(`${d}T12:00:00Z`);
    await db.insert(order).values([
      // a, DHRU service, completed: 10.00 − 6.00
      {
        ...base,
        userId: a.id,
        serviceId: dhru.svc.id,
        category: 'IMEI',
        price: 1000n,
        cost: 600n,
        supplierId: dhru.sup.id,
        status: 'completed',
        settledAt: at('2021-01-04'),
      },
      // a, SMM service, partial 4 of 10 undelivered: 20.00 − 8.00 back; cost 9.00 already net
      {
        ...base,
        userId: a.id,
        serviceId: smm.svc.id,
        category: 'social',
        price: 2000n,
        cost: 900n,
        supplierId: smm.sup.id,
        status: 'partial',
        remains: 4,
        settledAt: at('2021-01-10'),
      },
      // b, manual, completed without a known cost: 5.00 − 0
      {
        ...base,
        userId: b.id,
        serviceId: manualId,
        category: 'unlock',
        price: 500n,
        cost: null,
        status: 'completed',
        settledAt: at('2021-01-11'),
      },
      // b, DHRU, rejected: 3.00 back, no revenue, no cost
      {
        ...base,
        userId: b.id,
        serviceId: dhru.svc.id,
        category: 'IMEI',
        price: 300n,
        cost: 0n,
        supplierId: dhru.sup.id,
        status: 'rejected',
        settledAt: at('2021-02-01'),
      },
      // outside the range
      {
        ...base,
        userId: b.id,
        serviceId: dhru.svc.id,
        category: 'IMEI',
        price: 700n,
        cost: 100n,
        supplierId: dhru.sup.id,
        status: 'completed',
        settledAt: at('2021-02-02'),
      },
    ]);
    const get = async (q: string) =>
      json<Report>(
        await kit.admin.client.get(`/api/admin/reports?from=2021-01-01&to=2021-02-01&${q}`),
        200,
      );

    const totals = {
      revenue: '27.00',
      cost: '15.00',
      margin: '12.00',
      orders: 3,
      refunds: '11.00',
    };
    const byCategory = await get('by=category&period=month');
    expect(byCategory.totals).toEqual(totals);
    expect(byCategory.rows).toEqual([
      {
        key: 'social',
        label: 'Redes sociales',
        revenue: '12.00',
        cost: '9.00',
        margin: '3.00',
        orders: 1,
        refunds: '8.00',
      },
      {
        key: 'IMEI',
        label: 'Servicios IMEI',
        revenue: '10.00',
        cost: '6.00',
        margin: '4.00',
        orders: 1,
        refunds: '3.00',
      },
      {
        key: 'unlock',
        label: 'Desbloqueo',
        revenue: '5.00',
        cost: '0.00',
        margin: '5.00',
        orders: 1,
        refunds: '0.00',
      },
    ]);
    expect(byCategory.series).toEqual([
      {
        period: '2021-01-01',
        revenue: '27.00',
        cost: '15.00',
        margin: '12.00',
        orders: 3,
        refunds: '8.00',
      },
      {
        period: '2021-02-01',
        revenue: '0.00',
        cost: '0.00',
        margin: '0.00',
        orders: 0,
        refunds: '3.00',
      },
    ]);

    const weekly = await get('by=service&period=week');
    // 2020-12-28 is the Monday of the week holding 1 January.
    expect(weekly.series.map((p) => [p.period, p.revenue, p.orders])).toEqual([
      ['2020-12-28', '0.00', 0],
      ['2021-01-04', '22.00', 2],
      ['2021-01-11', '5.00', 1],
      ['2021-01-18', '0.00', 0],
      ['2021-01-25', '0.00', 0],
      ['2021-02-01', '0.00', 0],
    ]);
    expect(weekly.rows.map((r) => [r.key, r.label, r.revenue])).toEqual([
      [smm.svc.id, smm.svc.name, '12.00'],
      [dhru.svc.id, dhru.svc.name, '10.00'],
      [manualId, 'Liberación manual', '5.00'],
    ]);

    const daily = await get('by=supplier&period=day');
    expect(daily.series).toHaveLength(32);
    expect(daily.series.find((p) => p.period === '2021-01-10')).toMatchObject({
      revenue: '12.00',
      refunds: '8.00',
    });
    expect(daily.rows.map((r) => [r.key, r.revenue, r.cost, r.refunds])).toEqual([
      [smm.sup.id, '12.00', '9.00', '8.00'],
      [dhru.sup.id, '10.00', '6.00', '3.00'],
      ['manual', '5.00', '0.00', '0.00'],
    ]);

    const byCustomer = await get('by=customer');
    expect(byCustomer.rows).toEqual([
      {
        key: a.id,
        label: a.email,
        revenue: '22.00',
        cost: '15.00',
        margin: '7.00',
        orders: 2,
        refunds: '8.00',
      },
      {
        key: b.id,
        label: b.email,
        revenue: '5.00',
        cost: '0.00',
        margin: '5.00',
        orders: 1,
        refunds: '3.00',
      },
    ]);
    expect(byCustomer.topCustomers.map((r) => r.label)).toEqual([a.email, b.email]);

    const byGroup = await get('by=group');
    // Neither customer has a group row: both are in the default group.
    const [fallback] = await db.select().from(priceGroup).where(eq(priceGroup.isDefault, true));
    expect(byGroup.rows).toEqual([{ key: fallback?.id, label: fallback?.name, ...totals }]);

    // Bad ranges are refused by field.
    const bad = await kit.admin.client.get('/api/admin/reports?from=2021-02-01&to=2021-01-01');
    expect(bad.status).toBe(400);
    expect(
      (await kit.admin.client.get('/api/admin/reports?from=2021-13-01&to=2021-01-01')).status,
    ).toBe(400);
    // Clean up the hand-made rows: they have no ledger movements.
    await db.delete(order).where(inArray(order.userId, [a.id, b.id]));
  });
  it('answers the same from daily summaries as from the orders, also after a late change', async () => {
    const db = kit.t.database.db;
    const a = await fundedCustomer(kit, '1.00');
    const b = await fundedCustomer(kit, '1.00');
    const c = await fundedCustomer(kit, '1.00');
    // a is a reseller; b and c have no row: the default group.
    const [resellers] = await db
      .insert(priceGroup)
      .values({ name: 'Revendedores informes', discountBp: 1000 })
      .returning();
    if (!resellers) throw new Error('no group');
    await db.insert(customerPriceGroup).values({ userId: a.id, groupId: resellers.id });
    const [fallback] = await db.select().from(priceGroup).where(eq(priceGroup.isDefault, true));
    if (!fallback) throw new Error('no default group');

    const base = { fields: {}, quantity: 10, serviceName: 'x' };
    const at = (iso: string) => new Date(iso);
    const made = await db
      .insert(order)
      .values([
        // Sunday 6 March 2022, first and last second of the day.
        {
          ...base,
          userId: a.id,
          serviceId: dhru.svc.id,
          category: 'IMEI',
          price: 1000n,
          cost: 600n,
          supplierId: dhru.sup.id,
          status: 'completed',
          settledAt: at('2022-03-06T00:00:00Z'),
        },
        {
          ...base,
          userId: b.id,
          serviceId: smm.svc.id,
          category: 'social',
          price: 2000n,
          cost: 1500n,
          supplierId: smm.sup.id,
          status: 'partial',
          remains: 3,
          settledAt: at('2022-03-06T23:59:59.999Z'),
        },
        // Monday 7 March: a hand-made order, a rejection, an order with no cost known.
        {
          ...base,
          userId: c.id,
          serviceId: manualId,
          category: 'unlock',
          price: 500n,
          cost: null,
          supplierId: null,
          status: 'completed',
          settledAt: at('2022-03-07T08:00:00Z'),
        },
        {
          ...base,
          userId: a.id,
          serviceId: dhru.svc.id,
          category: 'IMEI',
          price: 300n,
          cost: 0n,
          supplierId: dhru.sup.id,
          status: 'rejected',
          settledAt: at('2022-03-07T09:00:00Z'),
        },
        {
          ...base,
          userId: b.id,
          serviceId: dhru.svc.id,
          category: 'IMEI',
          price: 777n,
          cost: 333n,
          supplierId: dhru.sup.id,
          status: 'completed',
          settledAt: at('2022-03-07T10:00:00Z'),
        },
        // 1 April (another month), and an order not settled (never counted).
        {
          ...base,
          userId: c.id,
          serviceId: smm.svc.id,
          category: 'social',
          price: 1234n,
          cost: 1000n,
          supplierId: smm.sup.id,
          status: 'completed',
          settledAt: at('2022-04-01T15:00:00Z'),
        },
        {
          ...base,
          userId: a.id,
          serviceId: smm.svc.id,
          category: 'social',
          price: 999n,
          cost: 1n,
          supplierId: smm.sup.id,
          status: 'processing',
          settledAt: null,
        },
      ])
      .returning({ id: order.id });
    const q = (by: ReportBreakdown, period: ReportPeriod) => ({
      from: '2022-03-01',
      to: '2022-04-05',
      by,
      period,
    });
    const compareAll = async () => {
      for (const by of REPORT_BREAKDOWNS) {
        for (const period of REPORT_PERIODS) {
          const summarised = await buildReport(db, q(by, period));
          const direct = await buildReport(db, q(by, period), { direct: true });
          expect(summarised).toEqual(direct);
        }
      }
    };
    const closedDays = async () =>
      (
        await db
          .select({ day: reportDay.day })
          .from(reportDay)
          .where(and(gte(reportDay.day, '2022-03-01'), lt(reportDay.day, '2022-04-06')))
      ).length;

    await compareAll();
    // Every day of the range is summarised now, and the summaries hold the figures.
    expect(await closedDays()).toBe(36);
    const [mar7] = await db
      .select()
      .from(orderDaySummary)
      .where(
        and(
          eq(orderDaySummary.dimension, 'category'),
          eq(orderDaySummary.day, '2022-03-07'),
          eq(orderDaySummary.key, 'IMEI'),
        ),
      );
    expect(mar7).toMatchObject({ revenue: 777n, cost: 333n, refunds: 300n, orders: 1 });

    const before = await buildReport(db, q('category', 'day'));
    expect(before.totals).toEqual({
      revenue: '49.11',
      cost: '34.33',
      margin: '14.78',
      orders: 5,
      refunds: '9.00',
    });

    // A late change to an order of a summarised day (an admin refund): the day is reopened, read
    // from the orders, then summarised again, and both paths still agree.
    await db
      .update(order)
      .set({ status: 'rejected', cost: 0n })
      .where(eq(order.id, made[4]?.id ?? ''));
    expect(await db.select().from(reportDay).where(eq(reportDay.day, '2022-03-07'))).toHaveLength(
      0,
    );
    await compareAll();
    expect(await closedDays()).toBe(36);
    const after = await buildReport(db, q('category', 'day'));
    expect(after.totals).toEqual({
      revenue: '41.34',
      cost: '31.00',
      margin: '10.34',
      orders: 4,
      refunds: '16.77',
    });

    // The hourly close (queue reports-close) summarises a reopened day before any report asks.
    await db
      .update(order)
      .set({ cost: 500n })
      .where(eq(order.id, made[0]?.id ?? ''));
    expect(await closedDays()).toBe(35);
    expect(await closeFinishedDays(db)).toContain('2022-03-06');
    expect(await closedDays()).toBe(36);
    await compareAll();

    // by=group: each customer under their current group, the default group for those without.
    const byGroup = await buildReport(db, q('group', 'month'));
    expect(byGroup.rows.map((r) => [r.key, r.label, r.revenue, r.orders])).toEqual([
      [fallback.id, fallback.name, '31.34', 3],
      [resellers.id, 'Revendedores informes', '10.00', 1],
    ]);

    // Today is never summarised: it is read from the orders.
    const today = await buildReport(db, {
      from: day(-2),
      to: day(0),
      by: 'supplier',
      period: 'day',
    });
    expect(today).toEqual(
      await buildReport(
        db,
        { from: day(-2), to: day(0), by: 'supplier', period: 'day' },
        { direct: true },
      ),
    );
    expect(
      await db
        .select()
        .from(reportDay)
        .where(eq(reportDay.day, day(0))),
    ).toHaveLength(0);

    await db.delete(order).where(inArray(order.userId, [a.id, b.id, c.id]));
    await db.delete(priceGroup).where(eq(priceGroup.id, resellers.id));
  });
});

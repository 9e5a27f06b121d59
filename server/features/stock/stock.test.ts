// Delivery from stock (issue 24, decision 0023) on both databases: uploads, counts and the masked
// list, purchases over the web, REST, DHRU and SMM, bulk, out of stock (fallback to a supplier
// route or 409), replacement, refund, the audited export, the low-stock e-mail, and 100
// parallel orders against 50 items.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedApiKey } from '../../../shared/schemas/api-keys';
import type { AdminServiceDto, ServiceDto } from '../../../shared/schemas/catalogue';
import type { OrderDto, OrdersPage } from '../../../shared/schemas/orders';
import {
  STOCK_REFUSALS,
  type StockSummary,
  type StockUploadResult,
} from '../../../shared/schemas/stock';
import type { AdminOrderDto } from '../../../shared/schemas/suppliers';
import { queryRows } from '../../db/client';
import { order } from '../../db/schema/catalogue';
import { auditLog } from '../../db/schema/payments';
import { stockItem } from '../../db/schema/stock';
import { encodeParametersJson } from '../../suppliers/dhru-wire';
import { imeiFor } from '../../../tests/setup/imei';
import {
  connectDhru,
  dispatchRow,
  expectLedgerClean,
  fundedCustomer,
  importServices,
  json,
  supplierKit,
  type Kit,
} from '../../../tests/setup/suppliers';
import { TEST_ORIGIN, signInStaff, type TestClient } from '../../../tests/setup/test-app';
import { dbTargets } from '../../../tests/setup/test-db';
import { balances } from '../ledger/ledger.service';

let seq = 0;
function nextImei(): string {
  seq += 1;
  return imeiFor(`${Date.now() % 1_000_000}${String(seq).padStart(4, '0')}`);
}

describe.each(dbTargets())('delivery from stock on %s', (target) => {
  let kit: Kit;
  let n = 0;

  async function send(client: TestClient, url: string, body: BodyInit, type?: string) {
    const headers = new Headers({ Origin: TEST_ORIGIN, 'x-cometa-client-ip': '127.0.0.1' });
    if (type) headers.set('Content-Type', type);
    headers.set('Cookie', [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    return kit.t.app.request(url, { method: 'POST', headers, body });
  }

  async function upload(serviceId: string, text: string): Promise<StockUploadResult> {
    return json<StockUploadResult>(
      await send(kit.admin.client, `/api/admin/services/${serviceId}/stock`, text, 'text/plain'),
      200,
    );
  }

  async function summary(serviceId: string): Promise<StockSummary> {
    return json<StockSummary>(
      await kit.admin.client.get(`/api/admin/services/${serviceId}/stock`),
      200,
    );
  }

  /** A stock service (no fields unless given), created and switched to stock by the admin. */
  async function stockService(
    extra: Record<string, unknown> = {},
    threshold = 0,
  ): Promise<AdminServiceDto> {
    n += 1;
    const created = await json<AdminServiceDto>(
      await kit.admin.client.post('/api/admin/services', {
        category: 'licenses',
        name: `Licencia de prueba ${n}`,
        description: 'Una clave de producto.',
        deliveryTime: 'Al instante',
        price: '2.00',
        fields: [],
        ...extra,
      }),
      201,
    );
    expect(created).toMatchObject({ delivery: 'supplier', stock: null });
    const patched = await json<AdminServiceDto>(
      await kit.admin.client.patch(`/api/admin/services/${created.id}`, {
        delivery: 'stock',
        lowStockThreshold: threshold,
      }),
      200,
    );
    expect(patched).toMatchObject({ delivery: 'stock', lowStockThreshold: threshold });
    return patched;
  }

  beforeAll(async () => {
    kit = await supplierKit(target);
  });
  afterAll(async () => {
    await kit?.close();
  });

  it('adds the good lines of a text/plain upload and refuses empty, repeated and too long ones by line', async () => {
    const svc = await stockService();
    const long = 'X'.repeat(501);
    const first = await upload(
      svc.id,
      'AAAA-1111\n\nBBBB-2222\nAAAA-1111\n' + long + '\n  CCCC-3333  \n',
    );
    expect(first.added).toBe(3);
    expect(first.refused).toEqual([
      { line: 2, reason: 'Línea vacía.' },
      { line: 4, reason: 'Repetido en esta misma carga.' },
      { line: 5, reason: STOCK_REFUSALS.tooLong },
    ]);
    // Against what the service already holds (by keyed hash), multipart with a file too.
    const form = new FormData();
    form.append(
      'file',
      new File(['BBBB-2222\r\nDDDD-4444\r\n'], 'claves.txt', { type: 'text/plain' }),
    );
    const second = await json<StockUploadResult>(
      await send(kit.admin.client, `/api/admin/services/${svc.id}/stock`, form),
      200,
    );
    expect(second).toEqual({
      added: 1,
      refused: [{ line: 1, reason: 'Ya está en el stock de este servicio.' }],
    });
    const s = await summary(svc.id);
    expect(s).toMatchObject({ available: 4, sold: 0, bad: 0, lowStockThreshold: 0 });
    // Staff see the last 4 characters only; the database holds sealed text and a keyed hash.
    expect(s.items.map((i) => i.last4).sort()).toEqual(['1111', '2222', '3333', '4444']);
    expect(JSON.stringify(s)).not.toMatch(/AAAA|BBBB|CCCC|DDDD/);
    const rows = await kit.t.database.db
      .select()
      .from(stockItem)
      .where(eq(stockItem.serviceId, svc.id));
    expect(JSON.stringify(rows)).not.toMatch(/AAAA|BBBB|CCCC|DDDD/);
    // Audited.
    const audits = await kit.t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'stock.upload'), eq(auditLog.targetId, svc.id)));
    expect(audits).toHaveLength(2);
  });

  it('refuses an upload of 10,001 lines whole, a JSON body, and non-admins', async () => {
    const svc = await stockService();
    const lines = Array.from({ length: 10_001 }, (_, i) => `CODE-${i}`).join('\n');
    const res = await send(
      kit.admin.client,
      `/api/admin/services/${svc.id}/stock`,
      lines,
      'text/plain',
    );
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/10,000/);
    expect((await summary(svc.id)).available).toBe(0);
    const asJson = await kit.admin.client.post(`/api/admin/services/${svc.id}/stock`, { a: 1 });
    expect(asJson.status).toBe(415);
    const support = await signInStaff(kit.t, 'support');
    expect((await support.client.get(`/api/admin/services/${svc.id}/stock`)).status).toBe(403);
    const exactly = Array.from({ length: 10_000 }, (_, i) => `CODE-${i}`).join('\n');
    expect((await upload(svc.id, exactly)).added).toBe(10_000);
  });

  it('sells over the web at once: 201 completed with the item, captured, e-mail without the item; staff see it masked', async () => {
    const svc = await stockService();
    await upload(svc.id, 'WIN-KEY-AAAA-0001\nWIN-KEY-AAAA-0002\n');
    const buyer = await fundedCustomer(kit, '10.00');
    const catalogue = await json<ServiceDto>(
      await buyer.client.get(`/api/services/${svc.id}`),
      200,
    );
    expect(catalogue.stock).toBe('available');
    const placed = await json<OrderDto>(
      await buyer.client.post('/api/orders', { serviceId: svc.id, fields: {} }),
      201,
    );
    expect(placed).toMatchObject({ status: 'completed', result: 'WIN-KEY-AAAA-0001' });
    const b = await balances(kit.t.database.db, buyer.id);
    expect(b).toEqual({ available: 800n, held: 0n });
    const mail = await kit.t.waitForMail(buyer.email, /completada/);
    expect(mail.text ?? JSON.stringify(mail)).not.toContain('WIN-KEY-AAAA-0001');
    expect(JSON.stringify(mail)).not.toContain('WIN-KEY-AAAA-0001');
    // Only the buyer reads it in full.
    const mine = await json<OrderDto>(await buyer.client.get(`/api/orders/${placed.id}`), 200);
    expect(mine.result).toBe('WIN-KEY-AAAA-0001');
    const other = await fundedCustomer(kit, '1.00');
    expect((await other.client.get(`/api/orders/${placed.id}`)).status).toBe(404);
    for (const role of ['support', 'finance'] as const) {
      const staff = await signInStaff(kit.t, role);
      const seen = await json<AdminOrderDto>(
        await staff.client.get(`/api/admin/orders/${placed.id}`),
        200,
      );
      expect(seen.result).toBe('••••0001');
    }
    const adminView = await json<AdminOrderDto>(
      await kit.admin.client.get(`/api/admin/orders/${placed.id}`),
      200,
    );
    expect(adminView.result).toBe('••••0001');
    const list = await json<OrdersPage>(
      await kit.admin.client.get(`/api/admin/orders?q=${placed.number}`),
      200,
    );
    expect(JSON.stringify(list)).not.toContain('WIN-KEY-AAAA-0001');
    const s = await summary(svc.id);
    expect(s).toMatchObject({ available: 1, sold: 1, bad: 0 });
    await expectLedgerClean(kit);
  });

  it('sells over REST (201 completed with the item) and DHRU (getimeiorder STATUS 4 with CODE), then refuses «Agotado»', async () => {
    const svc = await stockService();
    await upload(svc.id, 'REST-ITEM-0001\nDHRU-ITEM-0002\n');
    const r = await fundedCustomer(kit, '10.00');
    const key = (
      await json<CreatedApiKey>(await r.client.post('/api/keys', { name: 'Mi panel' }), 201)
    ).key;
    const rest = await kit.t.app.request('/api/orders', {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ serviceId: svc.id, fields: {} }),
    });
    expect(await json<OrderDto>(rest, 201)).toMatchObject({
      status: 'completed',
      result: 'REST-ITEM-0001',
      source: 'api',
    });
    const dhru = (fields: Record<string, string>) =>
      kit.t.app.request('/api/index.php', {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          'x-cometa-client-ip': '203.0.113.9',
        },
        body: new URLSearchParams({
          username: r.email,
          apiaccesskey: key,
          requestformat: 'JSON',
          ...fields,
        }).toString(),
      });
    const placed = (await (
      await dhru({
        action: 'placeimeiorder',
        parameters: encodeParametersJson({ ID: String(svc.number) }),
      })
    ).json()) as { SUCCESS?: { REFERENCEID: string }[] };
    const reference = placed.SUCCESS?.[0]?.REFERENCEID;
    expect(reference, JSON.stringify(placed)).toBeTruthy();
    const status = (await (
      await dhru({
        action: 'getimeiorder',
        parameters: encodeParametersJson({ ID: reference ?? '' }),
      })
    ).json()) as { SUCCESS?: { STATUS: number; CODE: string }[] };
    expect(status.SUCCESS?.[0]).toMatchObject({ STATUS: 4, CODE: 'DHRU-ITEM-0002' });
    // Out of stock, no supplier route: REST 409 OUT_OF_STOCK, DHRU an error, nothing charged.
    const before = await balances(kit.t.database.db, r.id);
    const refused = await kit.t.app.request('/api/orders', {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ serviceId: svc.id, fields: {} }),
    });
    expect(refused.status).toBe(409);
    const refusal = (await refused.json()) as { code: string; message: string };
    expect(refusal.code).toBe('OUT_OF_STOCK');
    expect(refusal.message).toMatch(/^Agotado: /);
    const dhruRefused = (await (
      await dhru({
        action: 'placeimeiorder',
        parameters: encodeParametersJson({ ID: String(svc.number) }),
      })
    ).json()) as { ERROR?: { MESSAGE: string }[] };
    expect(dhruRefused.ERROR?.[0]?.MESSAGE).toMatch(/^Agotado: /);
    expect(await balances(kit.t.database.db, r.id)).toEqual(before);
    const catalogue = await json<ServiceDto>(await r.client.get(`/api/services/${svc.id}`), 200);
    expect(catalogue.stock).toBe('out');
    await expectLedgerClean(kit);
  });

  it('sells a social stock service over SMM and answers «Agotado» when none is left', async () => {
    const svc = await stockService({
      category: 'social',
      name: 'Cuenta de streaming (SMM)',
      fields: [{ key: 'link', label: 'Enlace', type: 'url', required: true, identifier: true }],
    });
    await upload(svc.id, 'SMM-ITEM-0001\n');
    const r = await fundedCustomer(kit, '10.00');
    const key = (
      await json<CreatedApiKey>(await r.client.post('/api/keys', { name: 'Mi panel SMM' }), 201)
    ).key;
    const smm = (fields: Record<string, string>) =>
      kit.t.app.request('/api/v2', {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          'x-cometa-client-ip': '203.0.113.9',
        },
        body: new URLSearchParams({ key, ...fields }).toString(),
      });
    const added = (await (
      await smm({ action: 'add', service: String(svc.number), link: 'https://example.com/a' })
    ).json()) as { order?: number };
    expect(added.order).toBeTypeOf('number');
    const [row] = await kit.t.database.db
      .select()
      .from(order)
      .where(eq(order.number, added.order ?? 0));
    expect(row).toMatchObject({ status: 'completed', result: 'SMM-ITEM-0001', source: 'smm' });
    const again = (await (
      await smm({ action: 'add', service: String(svc.number), link: 'https://example.com/b' })
    ).json()) as { error?: string };
    expect(again.error).toMatch(/^Agotado: /);
    await expectLedgerClean(kit);
  });

  it('bulk orders take one item a line, all or nothing per line', async () => {
    const svc = await stockService({
      category: 'unlock',
      name: 'Código de liberación en stock',
      fields: [{ key: 'imei', label: 'IMEI', type: 'imei', required: true, identifier: true }],
    });
    await upload(svc.id, 'UNLOCK-0001\nUNLOCK-0002\n');
    const c = await fundedCustomer(kit, '10.00');
    const imeis = [nextImei(), nextImei(), nextImei()];
    const res = await json<{
      placed: number;
      refused: number;
      charged: string;
      results: { line: number; ok: boolean; code?: string; order?: OrderDto }[];
    }>(await c.client.post('/api/orders/bulk', { serviceId: svc.id, imeis, fields: {} }), 200);
    expect(res).toMatchObject({ placed: 2, refused: 1, charged: '4.00' });
    const done = res.results.filter((l) => l.ok).map((l) => l.order);
    expect(done.map((o) => o?.status)).toEqual(['completed', 'completed']);
    expect(new Set(done.map((o) => o?.result)).size).toBe(2);
    expect(res.results.find((l) => !l.ok)).toMatchObject({ line: 3, code: 'OUT_OF_STOCK' });
    expect(await balances(kit.t.database.db, c.id)).toEqual({ available: 600n, held: 0n });
    await expectLedgerClean(kit);
  });

  it('out of stock falls back to the service’s supplier route (forwarded, money held)', async () => {
    const supplier = await connectDhru(kit);
    const [imported] = await importServices(kit, supplier.id, ['1382']);
    if (!imported) throw new Error('no service imported');
    await json(
      await kit.admin.client.patch(`/api/admin/services/${imported.id}`, { delivery: 'stock' }),
      200,
    );
    await upload(imported.id, 'CHECK-0001\n');
    const c = await fundedCustomer(kit, '10.00');
    const fromStock = await json<OrderDto>(
      await c.client.post('/api/orders', { serviceId: imported.id, fields: { imei: nextImei() } }),
      201,
    );
    expect(fromStock).toMatchObject({ status: 'completed', result: 'CHECK-0001' });
    expect(await dispatchRow(kit, fromStock.id)).toBeUndefined();
    const forwarded = await json<OrderDto>(
      await c.client.post('/api/orders', { serviceId: imported.id, fields: { imei: nextImei() } }),
      201,
    );
    expect(forwarded.status).toBe('pending');
    expect(await dispatchRow(kit, forwarded.id)).toMatchObject({ state: 'queued' });
    const svc = await json<ServiceDto>(await c.client.get(`/api/services/${imported.id}`), 200);
    expect(svc.stock).toBe('available');
    await expectLedgerClean(kit);
  });

  it('replaces a bad item (both kept, audited, customer told) and refunds through the reject path', async () => {
    const svc = await stockService();
    await upload(svc.id, 'GIFT-0001\nGIFT-0002\n');
    const c = await fundedCustomer(kit, '10.00');
    const placed = await json<OrderDto>(
      await c.client.post('/api/orders', { serviceId: svc.id, fields: {} }),
      201,
    );
    const support = await signInStaff(kit.t, 'support');
    const replaced = await json<AdminOrderDto>(
      await support.client.post(`/api/admin/orders/${placed.id}/replace-item`, {
        note: 'El cliente dice que no funciona.',
      }),
      200,
    );
    expect(replaced.result).toBe('••••0002');
    const mine = await json<OrderDto>(await c.client.get(`/api/orders/${placed.id}`), 200);
    expect(mine).toMatchObject({ status: 'completed', result: 'GIFT-0002' });
    expect(await summary(svc.id)).toMatchObject({ available: 0, sold: 1, bad: 1 });
    const audits = await kit.t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'stock.replace'), eq(auditLog.targetId, placed.id)));
    expect(audits).toHaveLength(1);
    expect(JSON.stringify(audits)).not.toContain('GIFT-000');
    // Nothing left to replace it with: 409 «Agotado», nothing changes.
    const none = await support.client.post(`/api/admin/orders/${placed.id}/replace-item`, {});
    expect(none.status).toBe(409);
    expect(await none.json()).toMatchObject({ code: 'OUT_OF_STOCK' });
    // Refund: the reject path, revenue back to the customer once.
    const refunded = await json<AdminOrderDto>(
      await support.client.post(`/api/admin/orders/${placed.id}/reject`, {
        reason: 'Ninguna clave funcionó.',
      }),
      200,
    );
    expect(refunded.status).toBe('rejected');
    expect(await balances(kit.t.database.db, c.id)).toEqual({ available: 1000n, held: 0n });
    const twice = await support.client.post(`/api/admin/orders/${placed.id}/reject`, {
      reason: 'Otra vez.',
    });
    expect(twice.status).toBe(409);
    expect(await summary(svc.id)).toMatchObject({ available: 0, sold: 0, bad: 2 });
    const rejectAudit = await kit.t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'order.reject'), eq(auditLog.targetId, placed.id)));
    expect(rejectAudit).toHaveLength(1);
    // A non-stock order cannot have its item replaced.
    const plain = await json<AdminServiceDto>(
      await kit.admin.client.post('/api/admin/services', {
        category: 'licenses',
        name: 'Licencia a mano',
        description: 'Se entrega a mano.',
        deliveryTime: '1 hora',
        price: '1.00',
        fields: [],
      }),
      201,
    );
    const manual = await json<OrderDto>(
      await c.client.post('/api/orders', { serviceId: plain.id, fields: {} }),
      201,
    );
    expect(
      (await support.client.post(`/api/admin/orders/${manual.id}/replace-item`, {})).status,
    ).toBe(409);
    await expectLedgerClean(kit);
  });

  it('exports unsold items for the admin only, audited as such', async () => {
    const svc = await stockService();
    await upload(svc.id, 'EXPORT-0001\n=EXPORT-0002\n');
    const res = await kit.admin.client.get(`/api/admin/services/${svc.id}/stock/export`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(/attachment/);
    const text = await res.text();
    expect(text).toContain('EXPORT-0001');
    expect(text).toContain("'=EXPORT-0002");
    const audits = await kit.t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'stock.export'), eq(auditLog.targetId, svc.id)));
    expect(audits).toHaveLength(1);
    for (const role of ['support', 'finance'] as const) {
      const staff = await signInStaff(kit.t, role);
      expect((await staff.client.get(`/api/admin/services/${svc.id}/stock/export`)).status).toBe(
        403,
      );
    }
  });

  it('e-mails the admins once when available items drop to the threshold', async () => {
    const svc = await stockService({}, 2);
    await upload(svc.id, 'LOW-0001\nLOW-0002\nLOW-0003\nLOW-0004\n');
    const c = await fundedCustomer(kit, '10.00');
    for (let i = 0; i < 3; i++)
      await json<OrderDto>(
        await c.client.post('/api/orders', { serviceId: svc.id, fields: {} }),
        201,
      );
    await kit.t.waitForMail(kit.admin.email, new RegExp(`Poco stock en ${svc.name}`));
    await new Promise((r) => setTimeout(r, 700));
    const mails = (await kit.t.outbox()).filter(
      (m) => m.to === kit.admin.email && m.subject === `Poco stock en ${svc.name}`,
    );
    expect(mails).toHaveLength(1);
    const [alerted] = await queryRows<{ low_stock_alerted: boolean }>(
      kit.t.database.db,
      sql`SELECT low_stock_alerted FROM service WHERE id = ${svc.id}::uuid`,
    );
    expect(alerted?.low_stock_alerted).toBe(true);
    // And one `stock.low` notification for the Telegram worker (staff with the catalogue area).
    const notices = await queryRows<{ n: number }>(
      kit.t.database.db,
      sql`SELECT count(*)::int AS n FROM pgboss.job
          WHERE name = 'notify' AND data->>'kind' = 'stock.low' AND data->>'serviceId' = ${svc.id}`,
    );
    expect(notices[0]?.n).toBe(1);
    // Stock added above the threshold re-arms it.
    await upload(svc.id, 'LOW-0005\nLOW-0006\n');
    const [rearmed] = await queryRows<{ low_stock_alerted: boolean }>(
      kit.t.database.db,
      sql`SELECT low_stock_alerted FROM service WHERE id = ${svc.id}::uuid`,
    );
    expect(rearmed?.low_stock_alerted).toBe(false);
  });

  it('100 parallel orders against 50 items: exactly 50 completed with 50 distinct items, 50 refused, no charge without an item', async () => {
    const svc = await stockService();
    const items = Array.from({ length: 50 }, (_, i) => `PAR-${String(i).padStart(4, '0')}-X`);
    expect((await upload(svc.id, items.join('\n'))).added).toBe(50);
    const customers = await Promise.all(
      Array.from({ length: 5 }, () => fundedCustomer(kit, '100.00')),
    );
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        (customers[i % 5] as (typeof customers)[number]).client.post('/api/orders', {
          serviceId: svc.id,
          fields: {},
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(50);
    expect(statuses.filter((s) => s === 409)).toHaveLength(50);
    const placed = (await Promise.all(
      answers.filter((a) => a.status === 201).map((a) => a.json()),
    )) as OrderDto[];
    expect(placed.every((o) => o.status === 'completed')).toBe(true);
    expect(new Set(placed.map((o) => o.result)).size).toBe(50);
    expect(new Set(placed.map((o) => o.result))).toEqual(new Set(items));
    const orders = await kit.t.database.db.select().from(order).where(eq(order.serviceId, svc.id));
    expect(orders).toHaveLength(50);
    expect(orders.every((o) => o.status === 'completed' && o.fromStock)).toBe(true);
    const sold = await kit.t.database.db
      .select()
      .from(stockItem)
      .where(eq(stockItem.serviceId, svc.id));
    expect(sold.filter((s) => s.state === 'sold')).toHaveLength(50);
    expect(new Set(sold.map((s) => s.orderId)).size).toBe(50);
    // Each customer paid exactly for the items it got.
    for (const c of customers) {
      const got = orders.filter((o) => o.userId === c.id).length;
      const b = await balances(kit.t.database.db, c.id);
      expect(b).toEqual({ available: BigInt(10_000 - 200 * got), held: 0n });
    }
    await expectLedgerClean(kit);
  });
});

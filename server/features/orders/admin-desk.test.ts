// Issue 20: the admin home's counts (GET /api/admin/overview) and the queue's bulk actions
// (POST /api/admin/orders/bulk), on both databases: each order on its own, refunds through the
// ledger once, a half-failing batch reported order by order, and a customer refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AdminOverview,
  BulkActionResult,
  SnippetDto,
  SnippetList,
} from '../../../shared/schemas/admin-desk';
import type { AdminServiceDto } from '../../../shared/schemas/catalogue';
import type { OrderDto } from '../../../shared/schemas/orders';
import { imeiFor } from '../../../tests/setup/imei';
import {
  createTestApp,
  registerVerified,
  signInAdmin,
  userIdOf,
  type TestApp,
  type TestClient,
} from '../../../tests/setup/test-app';
import { dbTargets } from '../../../tests/setup/test-db';
import { balances } from '../ledger/ledger.service';

async function body<T>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  expect(res.status, text.slice(0, 400)).toBe(status);
  return JSON.parse(text) as T;
}

describe.each(dbTargets())('admin desk on %s', (target) => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof signInAdmin>>;
  let customer: { client: TestClient; email: string };
  let customerId: string;
  let svc: AdminServiceDto;
  let seed = 0;

  async function place(): Promise<OrderDto> {
    seed += 1;
    return body<OrderDto>(
      await customer.client.post('/api/orders', {
        serviceId: svc.id,
        fields: { imei: imeiFor(`${Date.now() % 100_000}${String(seed).padStart(3, '0')}`) },
      }),
      201,
    );
  }
  const overview = async () => body<AdminOverview>(await admin.client.get('/api/admin/overview'));
  const bulk = async (data: unknown, status = 200) =>
    body<BulkActionResult>(await admin.client.post('/api/admin/orders/bulk', data), status);

  beforeAll(async () => {
    t = await createTestApp(target);
    admin = await signInAdmin(t);
    svc = await body<AdminServiceDto>(
      await admin.client.post('/api/admin/services', {
        category: 'IMEI',
        name: 'Liberación por IMEI',
        description: 'Código de liberación.',
        deliveryTime: '1-24 horas',
        price: '1.25',
        fields: [{ key: 'imei', label: 'IMEI', type: 'imei', required: true, identifier: true }],
      }),
      201,
    );
    customer = await registerVerified(t, 'Carla Ruiz');
    customerId = await userIdOf(t, customer.email);
    await body(
      await admin.client.post(`/api/admin/users/${customerId}/adjustments`, {
        amount: '20.00',
        reason: 'Saldo de prueba',
      }),
      201,
    );
  });
  afterAll(async () => {
    await t.close();
  });

  it('counts pending orders and today’s sales; a rejected order leaves today’s sales', async () => {
    const before = await overview();
    const [a, b] = [await place(), await place()];
    const after = await overview();
    expect(after.pendingOrders).toBe(before.pendingOrders + 2);
    expect(after.todayOrders).toBe(before.todayOrders + 2);
    expect(Number(after.todaySales) * 100 - Number(before.todaySales) * 100).toBeCloseTo(250);
    expect(after.since).toMatch(/T00:00:00\.000Z$/);
    expect(after.pendingPayments).toBeGreaterThanOrEqual(0);
    expect(after.failingSuppliers).toBe(0);
    expect(after.reviewOrders).toBe(0);

    await body(
      await admin.client.post(`/api/admin/orders/${a.id}/reject`, { reason: 'Sin stock' }),
    );
    const rejected = await overview();
    expect(rejected.pendingOrders).toBe(before.pendingOrders + 1);
    expect(rejected.todaySales).toBe(
      (Math.round(Number(before.todaySales) * 100 + 125) / 100).toFixed(2),
    );
    await body(await admin.client.post(`/api/admin/orders/${b.id}/take`));
    expect((await overview()).pendingOrders).toBe(before.pendingOrders);
  });

  it('bulk-rejects each order once and refunds it; a finished one in the batch changes nothing', async () => {
    const [a, b, c] = [await place(), await place(), await place()];
    await body(await admin.client.post(`/api/admin/orders/${c.id}/complete`, { result: 'Listo' }));
    const held = await balances(t.database.db, customerId);
    const missing = '00000000-0000-4000-8000-000000000000';
    const result = await bulk({
      action: 'reject',
      ids: [a.id, b.id, c.id, missing],
      reason: 'IMEI reportado como robado',
    });
    expect(result.done).toBe(2);
    expect(result.failed).toBe(2);
    expect(result.results.map((r) => [r.number, r.ok])).toEqual([
      [a.number, true],
      [b.number, true],
      [c.number, false],
      [null, false],
    ]);
    expect(result.results[2]?.message).toMatch(/completada, rechazada o cancelada/);
    expect(result.results[3]?.message).toBe('La orden no existe.');
    expect(await balances(t.database.db, customerId)).toEqual({
      available: held.available + 250n,
      held: held.held - 250n,
    });
    const detail = await body<OrderDto>(await customer.client.get(`/api/orders/${a.id}`));
    expect(detail.status).toBe('rejected');
    expect(detail.rejectReason).toBe('IMEI reportado como robado');

    // The same batch again: nothing left to reject, no second refund.
    const again = await bulk({ action: 'reject', ids: [a.id, b.id], reason: 'Otra vez' });
    expect(again.done).toBe(0);
    expect((await balances(t.database.db, customerId)).available).toBe(held.available + 250n);
  });

  it('bulk-takes and bulk-completes; complete needs a result', async () => {
    const [a, b] = [await place(), await place()];
    expect((await bulk({ action: 'take', ids: [a.id, b.id] })).done).toBe(2);
    const refused = await body<{ code: string; fields: Record<string, string> }>(
      await admin.client.post('/api/admin/orders/bulk', { action: 'complete', ids: [a.id] }),
      400,
    );
    expect(refused.fields.result).toBe('Escribe el resultado.');
    const done = await bulk({ action: 'complete', ids: [a.id, b.id], result: 'Sin bloqueo' });
    expect(done.done).toBe(2);
    const detail = await body<OrderDto>(await customer.client.get(`/api/orders/${b.id}`));
    expect([detail.status, detail.result]).toEqual(['completed', 'Sin bloqueo']);
    // Nothing in «Revisar»: resending reports each order without changing it.
    const resend = await bulk({ action: 'resend', ids: [a.id] });
    expect([resend.done, resend.failed]).toEqual([0, 1]);
  });

  it('refuses a customer: 403 on the overview and on bulk actions, and nothing changes', async () => {
    const order = await place();
    const overviewRes = await customer.client.get('/api/admin/overview');
    expect(overviewRes.status).toBe(403);
    const res = await customer.client.post('/api/admin/orders/bulk', {
      action: 'reject',
      ids: [order.id],
      reason: 'Me lo devuelvo',
    });
    expect(res.status).toBe(403);
    const detail = await body<OrderDto>(await customer.client.get(`/api/orders/${order.id}`));
    expect(detail.status).toBe('pending');
  });

  it('keeps saved rejection reasons and result templates: create, list in order, change, delete', async () => {
    const robbed = await body<SnippetDto>(
      await admin.client.post('/api/admin/snippets', {
        kind: 'reject_reason',
        title: 'Robado',
        body: 'El IMEI está reportado como robado.',
        position: 2,
      }),
      201,
    );
    await body<SnippetDto>(
      await admin.client.post('/api/admin/snippets', {
        kind: 'reject_reason',
        title: 'Sin stock',
        body: 'El proveedor no tiene existencias.',
        position: 1,
      }),
      201,
    );
    const template = await body<SnippetDto>(
      await admin.client.post('/api/admin/snippets', {
        kind: 'result_template',
        title: 'Liberado',
        body: 'Código: ',
      }),
      201,
    );
    // A reason follows the rules of a rejection's reason.
    const short = await body<{ fields: Record<string, string> }>(
      await admin.client.post('/api/admin/snippets', {
        kind: 'reject_reason',
        title: 'Corto',
        body: 'No',
      }),
      400,
    );
    expect(short.fields.body).toBe('Escribe el motivo (al menos 3 caracteres).');

    const reasons = await body<SnippetList>(
      await admin.client.get('/api/admin/snippets?kind=reject_reason'),
    );
    expect(reasons.items.map((r) => r.title)).toEqual(['Sin stock', 'Robado']);
    const all = await body<SnippetList>(await admin.client.get('/api/admin/snippets'));
    expect(all.items.map((r) => r.id)).toContain(template.id);

    // Each one says when it was saved and last changed.
    expect(robbed.updatedAt).toBe(robbed.createdAt);
    expect(Date.parse(robbed.createdAt)).toBeGreaterThan(Date.now() - 60_000);
    const changed = await body<SnippetDto>(
      await admin.client.patch(`/api/admin/snippets/${robbed.id}`, { position: 0 }),
    );
    expect(changed.position).toBe(0);
    expect(changed.createdAt).toBe(robbed.createdAt);
    expect(Date.parse(changed.updatedAt)).toBeGreaterThan(Date.parse(robbed.createdAt));
    const retitled = await body<SnippetDto>(
      await admin.client.patch(`/api/admin/snippets/${robbed.id}`, {
        title: 'Reportado',
        body: 'El IMEI está reportado como robado o perdido.',
      }),
    );
    expect(retitled).toMatchObject({
      title: 'Reportado',
      body: 'El IMEI está reportado como robado o perdido.',
    });
    const tooLong = await body<{ fields: Record<string, string> }>(
      await admin.client.patch(`/api/admin/snippets/${template.id}`, { body: 'x'.repeat(5001) }),
      400,
    );
    expect(tooLong.fields.body).toBe('El texto es demasiado largo (5000 caracteres como mucho).');
    await body(await admin.client.patch(`/api/admin/snippets/${robbed.id}`, { body: 'No' }), 400);
    await body(await admin.client.request('DELETE', `/api/admin/snippets/${template.id}`));
    await body(await admin.client.request('DELETE', `/api/admin/snippets/${template.id}`), 404);
    expect(
      (await body<SnippetList>(await admin.client.get('/api/admin/snippets?kind=reject_reason')))
        .items[0]?.title,
    ).toBe('Reportado');

    // Customers neither read nor write them.
    expect((await customer.client.get('/api/admin/snippets')).status).toBe(403);
    expect(
      (
        await customer.client.post('/api/admin/snippets', {
          kind: 'reject_reason',
          title: 'X',
          body: 'Lo que sea',
        })
      ).status,
    ).toBe(403);
  });
});

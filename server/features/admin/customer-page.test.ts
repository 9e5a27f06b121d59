// Issue 20, the admin's customer page: one call per tab (GET /api/admin/users/:id, /orders,
// /ledger, /payments, /notes) and notes written by admins — admins only, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminServiceDto } from '../../../shared/schemas/catalogue';
import type { CustomerDetail, CustomerNote, CustomerNoteList } from '../../../shared/schemas/admin';
import type { OrderDto, OrdersPage } from '../../../shared/schemas/orders';
import type { MovementsPage, PaymentList } from '../../../shared/schemas/wallet';
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

async function body<T>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  expect(res.status, text.slice(0, 400)).toBe(status);
  return JSON.parse(text) as T;
}

describe.each(dbTargets())('the admin customer page on %s', (target) => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof signInAdmin>>;
  let customer: { id: string; email: string; client: TestClient };
  let order: OrderDto;

  beforeAll(async () => {
    t = await createTestApp(target);
    admin = await signInAdmin(t);
    const { client, email } = await registerVerified(t, 'Eva Cliente');
    customer = { id: await userIdOf(t, email), email, client };
    const svc = await body<AdminServiceDto>(
      await admin.client.post('/api/admin/services', {
        category: 'IMEI',
        name: 'Consulta de garantía',
        description: 'Garantía del equipo.',
        deliveryTime: '1-24 horas',
        price: '2.00',
        fields: [{ key: 'imei', label: 'IMEI', type: 'imei', required: true, identifier: true }],
      }),
      201,
    );
    await body(
      await admin.client.post(`/api/admin/users/${customer.id}/adjustments`, {
        amount: '20.00',
        reason: 'Saldo de prueba',
      }),
      201,
    );
    order = await body<OrderDto>(
      await client.post('/api/orders', {
        serviceId: svc.id,
        fields: { imei: imeiFor(`${Date.now() % 100_000}77`) },
      }),
      201,
    );
  });
  afterAll(async () => {
    await t.close();
  });

  it('GET /api/admin/users/:id: balance, held, orders, sessions and state', async () => {
    const detail = await body<CustomerDetail>(
      await admin.client.get(`/api/admin/users/${customer.id}`),
    );
    expect(detail).toMatchObject({
      id: customer.id,
      name: 'Eva Cliente',
      email: customer.email,
      role: 'customer',
      emailVerified: true,
      blocked: false,
      twoFactorEnabled: false,
      balance: '18.00',
      held: '2.00',
      creditLimit: '0.00',
      spend: '0.00',
      orders: 1,
    });
    expect(detail.sessions).toBeGreaterThanOrEqual(1);
    expect(Date.parse(detail.lastSignInAt ?? '')).toBeGreaterThanOrEqual(
      Date.parse(detail.createdAt),
    );
    expect(detail.lastOrderAt).toBe(order.createdAt);
    await body(await admin.client.get('/api/admin/users/nadie'), 404);
  });

  it('GET …/orders, …/ledger and …/payments read that customer’s own lists', async () => {
    const orders = await body<OrdersPage>(
      await admin.client.get(`/api/admin/users/${customer.id}/orders`),
    );
    expect(orders.items.map((o) => o.id)).toEqual([order.id]);
    const ledger = await body<MovementsPage>(
      await admin.client.get(`/api/admin/users/${customer.id}/ledger`),
    );
    expect(ledger.items.map((m) => [m.kind, m.amount, m.balanceAfter])).toEqual([
      ['order_hold', '-2.00', '18.00'],
      ['adjustment_credit', '+20.00', '20.00'],
    ]);
    const payments = await body<PaymentList>(
      await admin.client.get(`/api/admin/users/${customer.id}/payments`),
    );
    expect(payments.items).toEqual([]);
    await body(await admin.client.get(`/api/admin/users/${customer.id}/ledger?cursor=x`), 400);
    await body(await admin.client.get('/api/admin/users/nadie/orders'), 404);
  });

  it('POST …/notes keeps a note with its author; GET lists them newest first', async () => {
    const empty = await body<CustomerNoteList>(
      await admin.client.get(`/api/admin/users/${customer.id}/notes`),
    );
    expect(empty.items).toEqual([]);
    const first = await body<CustomerNote>(
      await admin.client.post(`/api/admin/users/${customer.id}/notes`, {
        body: '  Pide siempre por la mañana.  ',
      }),
      201,
    );
    expect(first).toMatchObject({ body: 'Pide siempre por la mañana.' });
    expect(first.authorName).toBeTruthy();
    await body(
      await admin.client.post(`/api/admin/users/${customer.id}/notes`, { body: 'Segunda nota' }),
      201,
    );
    const notes = await body<CustomerNoteList>(
      await admin.client.get(`/api/admin/users/${customer.id}/notes`),
    );
    expect(notes.items.map((n) => n.body)).toEqual(['Segunda nota', 'Pide siempre por la mañana.']);
    const bad = await body<{ fields: Record<string, string> }>(
      await admin.client.post(`/api/admin/users/${customer.id}/notes`, { body: '   ' }),
      400,
    );
    expect(bad.fields.body).toBe('Escribe la nota.');
  });

  it('answers 403 to the customer on every tab', async () => {
    for (const path of ['', '/orders', '/ledger', '/payments', '/notes']) {
      const res = await customer.client.get(`/api/admin/users/${customer.id}${path}`);
      expect(res.status, path).toBe(403);
    }
    const res = await customer.client.post(`/api/admin/users/${customer.id}/notes`, {
      body: 'Hola',
    });
    expect(res.status).toBe(403);
  });
});

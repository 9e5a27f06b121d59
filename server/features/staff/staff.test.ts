// Issue 21 §4: staff invitations (existing and new accounts), role changes, removal, the last
// admin kept, what support may not see, the audit log (filters, cursor, actor role, a row for each
// staff action) and the database refusing to change it — on both databases.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomerDetail, CustomerList } from '../../../shared/schemas/admin';
import type { AdminOverview, SnippetDto } from '../../../shared/schemas/admin-desk';
import type { AdminServiceDto } from '../../../shared/schemas/catalogue';
import type { OrderDto } from '../../../shared/schemas/orders';
import type {
  AuditItem,
  AuditPage,
  StaffInvitation,
  StaffInvitationInfo,
  StaffList,
  StaffMember,
} from '../../../shared/schemas/staff';
import type { AdminOrderDto } from '../../../shared/schemas/suppliers';
import { imeiFor } from '../../../tests/setup/imei';
import {
  createTestApp,
  enrolTwoFactor,
  linkIn,
  registerVerified,
  signInStaff,
  uniqueEmail,
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

function tokenOf(link: string): string {
  return new URL(link, 'http://x').searchParams.get('token') ?? '';
}

describe.each(dbTargets())('staff roles and the audit log on %s', (target) => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof signInStaff>>;
  let support: Awaited<ReturnType<typeof signInStaff>>;
  let finance: Awaited<ReturnType<typeof signInStaff>>;
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
  const audit = async (query: string, as: TestClient = admin.client) =>
    body<AuditPage>(await as.get(`/api/admin/audit?${query}`));

  beforeAll(async () => {
    t = await createTestApp(target);
    admin = await signInStaff(t, 'admin');
    support = await signInStaff(t, 'support');
    finance = await signInStaff(t, 'finance');
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
      await finance.client.post(`/api/admin/users/${customerId}/adjustments`, {
        amount: '20.00',
        reason: 'Saldo de prueba',
      }),
      201,
    );
  });
  afterAll(async () => {
    await t.close();
  });

  it('support works the queue but never receives balances, charges, sales or payments', async () => {
    const order = await place();
    const list = await body<{ items: AdminOrderDto[] }>(
      await support.client.get('/api/admin/orders?status=pending'),
    );
    const mine = list.items.find((o) => o.id === order.id);
    expect(mine?.price).toBeNull();
    expect(mine?.customerEmail).toBe(customer.email);
    const taken = await body<AdminOrderDto>(
      await support.client.post(`/api/admin/orders/${order.id}/take`),
    );
    expect(taken.status).toBe('processing');
    expect(taken.price).toBeNull();
    // Finance and admin see what the order charged.
    const seen = await body<AdminOrderDto>(
      await finance.client.get(`/api/admin/orders/${order.id}`),
    );
    expect(seen.price).toBe('1.25');

    const detail = await body<CustomerDetail>(
      await support.client.get(`/api/admin/users/${customerId}`),
    );
    expect(detail).toMatchObject({ email: customer.email, balance: null, held: null, spend: null });
    const forFinance = await body<CustomerDetail>(
      await finance.client.get(`/api/admin/users/${customerId}`),
    );
    expect(forFinance.balance).not.toBeNull();
    const customers = await body<CustomerList>(await support.client.get('/api/admin/users'));
    expect(customers.items.length).toBeGreaterThan(0);
    expect(customers.items.every((c) => c.balance === null && c.spend === null)).toBe(true);
    expect((await support.client.get('/api/admin/users?sort=balance')).status).toBe(403);
    const overview = await body<AdminOverview>(await support.client.get('/api/admin/overview'));
    expect(overview).toMatchObject({
      todaySales: null,
      pendingPayments: null,
      failingSuppliers: null,
    });
    expect(overview.pendingOrders).toBeGreaterThanOrEqual(0);

    for (const path of [
      `/api/admin/users/${customerId}/ledger`,
      `/api/admin/users/${customerId}/payments`,
      '/api/admin/funds/requests',
      '/api/admin/services',
      '/api/admin/suppliers',
      `/api/admin/orders/${order.id}/supplier-log`,
      '/api/admin/staff',
      '/api/admin/audit',
    ])
      expect((await support.client.get(path)).status, path).toBe(403);
    // Finance: money, never the catalogue, suppliers or the queue's actions.
    expect((await finance.client.get('/api/admin/funds/requests')).status).toBe(200);
    expect((await finance.client.get('/api/admin/services')).status).toBe(403);
    expect((await finance.client.post(`/api/admin/orders/${order.id}/take`)).status).toBe(403);
  });

  it('writes an audit row, with the actor and their role, for each staff action', async () => {
    const a = await place();
    const b = await place();
    await body(await support.client.post(`/api/admin/orders/${a.id}/take`));
    await body(
      await support.client.post(`/api/admin/orders/${a.id}/complete`, { result: 'Código 1234' }),
    );
    await body(
      await support.client.post(`/api/admin/orders/${b.id}/reject`, { reason: 'IMEI no válido' }),
    );
    const snippet = await body<SnippetDto>(
      await support.client.post('/api/admin/snippets', {
        kind: 'reject_reason',
        title: 'IMEI',
        body: 'El IMEI no es válido.',
      }),
      201,
    );
    await body(
      await support.client.patch(`/api/admin/snippets/${snippet.id}`, { title: 'IMEI malo' }),
    );
    await body(await support.client.request('DELETE', `/api/admin/snippets/${snippet.id}`));
    // Customers are read-only for support: not even a note.
    await body(
      await support.client.post(`/api/admin/users/${customerId}/notes`, { body: 'Llamó hoy.' }),
      403,
    );
    await body(await admin.client.post(`/api/admin/users/${customerId}/sessions/revoke`));
    await body(
      await admin.client.patch(`/api/admin/services/${svc.id}`, { name: 'Liberación IMEI' }),
    );

    const rows = (await audit(`actor=${encodeURIComponent(support.email)}`)).items;
    const actions = (target: string) =>
      rows.filter((r) => r.targetId === target).map((r) => r.action);
    expect(actions(a.id)).toEqual(expect.arrayContaining(['order.take', 'order.complete']));
    expect(actions(b.id)).toEqual(['order.reject']);
    expect(actions(snippet.id).sort()).toEqual(
      ['snippet.create', 'snippet.delete', 'snippet.update'].sort(),
    );
    expect(actions(customerId)).not.toContain('user.note');
    for (const row of rows) {
      expect(row.actor).toMatchObject({ id: support.id, email: support.email, role: 'support' });
      expect(row.ipAddress).not.toBeUndefined();
    }
    const complete = rows.find((r) => r.action === 'order.complete')!;
    expect(complete.before).toMatchObject({ status: 'processing' });
    expect(complete.after).toMatchObject({ status: 'completed', result: 'Código 1234' });
    expect(complete.targetPath).toBe(`/admin/ordenes?status=todas&q=${a.number}`);

    const byAdmin = (await audit(`actor=${admin.id}`)).items.map((r) => r.action);
    expect(byAdmin).toEqual(expect.arrayContaining(['user.sessions_end', 'service.update']));
    const byFinance = (await audit(`actor=${finance.id}`)).items;
    expect(byFinance.map((r) => r.action)).toContain('balance.adjust');
    expect(byFinance.every((r) => r.actor?.role === 'finance')).toBe(true);
  });

  it('filters by action (exact or prefix), target and dates, and pages with a cursor', async () => {
    const prefix = (await audit('action=order.')).items;
    expect(prefix.length).toBeGreaterThanOrEqual(3);
    expect(prefix.every((r) => r.action.startsWith('order.'))).toBe(true);
    const exact = (await audit('action=order.reject')).items;
    expect(exact.length).toBeGreaterThan(0);
    expect(exact.every((r) => r.action === 'order.reject')).toBe(true);
    const customerRows = (await audit(`targetType=user&targetId=${customerId}`)).items;
    expect(customerRows.length).toBeGreaterThan(0);
    expect(customerRows.every((r) => r.targetPath === `/admin/clientes/${customerId}`)).toBe(true);
    expect((await audit('to=2001-01-01')).items).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    expect((await audit(`from=${today}&to=${today}`)).items.length).toBeGreaterThan(0);
    expect((await admin.client.get('/api/admin/audit?cursor=bm9wZQ')).status).toBe(400);

    // More than a page (50 rows): walk every page, newest first, each row once.
    for (let i = 0; i < 50; i += 1)
      await body(
        await admin.client.post(`/api/admin/users/${customerId}/notes`, { body: `Nota ${i}` }),
        201,
      );
    const seen: AuditItem[] = [];
    let cursor: string | null = '';
    let pages = 0;
    while (cursor !== null) {
      const page = await audit(cursor ? `cursor=${cursor}` : '');
      seen.push(...page.items);
      cursor = page.nextCursor;
      pages += 1;
    }
    expect(pages).toBeGreaterThan(1);
    expect(new Set(seen.map((r) => r.id)).size).toBe(seen.length);
    const times = seen.map((r) => r.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('is append-only: the database refuses UPDATE, DELETE and TRUNCATE', async () => {
    const db = t.database.db;
    for (const statement of [
      sql`UPDATE audit_log SET action = 'x'`,
      sql`DELETE FROM audit_log`,
      sql`TRUNCATE audit_log`,
    ])
      await expect(db.execute(statement)).rejects.toThrow();
    expect((await audit('')).items.length).toBeGreaterThan(0);
  });

  it('invites a new person: the link creates a verified account with the role, once', async () => {
    const email = uniqueEmail('nuevo');
    const invitation = await body<StaffInvitation>(
      await admin.client.post('/api/admin/staff', { email, role: 'support' }),
      201,
    );
    expect(invitation).toMatchObject({ email, role: 'support', invitedBy: 'Administradora' });
    const mail = await t.waitForMail(email, /Invitación/);
    const token = tokenOf(linkIn(mail, '/invitacion?token='));
    const anon = t.client('10.9.0.1');
    const info = await body<StaffInvitationInfo>(
      await anon.get(`/api/staff-invitation?token=${token}`),
    );
    expect(info).toMatchObject({ email, role: 'support', roleLabel: 'Soporte', hasAccount: false });
    const missing = await anon.post('/api/staff-invitation/accept', { token });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    const accepted = await body(
      await anon.post('/api/staff-invitation/accept', {
        token,
        name: 'Sara Soporte',
        password: 'Otra-Clave-Segura-2026',
      }),
    );
    expect(accepted).toEqual({ email, role: 'support', created: true });
    expect((await anon.post('/api/staff-invitation/accept', { token })).status).toBe(404);

    // Signs in (e-mail already verified), must enrol two-factor, then works the queue.
    const c = t.client('10.9.0.2');
    expect(
      (await c.post('/api/auth/sign-in/email', { email, password: 'Otra-Clave-Segura-2026' }))
        .status,
    ).toBe(200);
    const before = await c.get('/api/admin/orders');
    expect(before.status).toBe(403);
    expect(await before.json()).toMatchObject({ code: 'TWO_FACTOR_REQUIRED' });
    await enrolTwoFactor(c, 'Otra-Clave-Segura-2026');
    expect((await c.get('/api/admin/orders')).status).toBe(200);
    expect((await c.get('/api/me').then((r) => r.json())) as { role: string }).toMatchObject({
      role: 'support',
    });

    const staff = await body<StaffList>(await admin.client.get('/api/admin/staff'));
    expect(staff.items.find((m) => m.email === email)).toMatchObject({
      role: 'support',
      twoFactorEnabled: true,
    });
    expect(staff.invitations.some((i) => i.email === email)).toBe(false);
    const joined = (await audit('action=staff.')).items.map((r) => r.action);
    expect(joined).toEqual(expect.arrayContaining(['staff.invite', 'staff.join']));
  });

  it('invites an existing customer: accepting gives their account the role', async () => {
    const person = await registerVerified(t, 'Fede Cliente');
    const id = await userIdOf(t, person.email);
    await body(
      await admin.client.post('/api/admin/staff', { email: person.email, role: 'finance' }),
      201,
    );
    // A second invitation replaces the first: only the newest link works.
    const first = tokenOf(linkIn(await t.waitForMail(person.email, /Invitación/), '/invitacion'));
    await body(
      await admin.client.post('/api/admin/staff', { email: person.email, role: 'finance' }),
      201,
    );
    // Wait for the second e-mail (delivered by the mail worker).
    let newest: string | undefined;
    for (let i = 0; i < 100 && !newest; i += 1) {
      newest = (await t.outbox())
        .filter((m) => m.to.includes(person.email) && /Invitación/.test(m.subject))
        .map((m) => tokenOf(linkIn(m, '/invitacion')))
        .find((tok) => tok !== first);
      if (!newest) await new Promise((r) => setTimeout(r, 100));
    }
    expect(newest).toBeTruthy();
    expect((await t.client().get(`/api/staff-invitation?token=${first}`)).status).toBe(404);
    const token = newest!;
    const info = await body<StaffInvitationInfo>(
      await t.client().get(`/api/staff-invitation?token=${token}`),
    );
    expect(info.hasAccount).toBe(true);
    expect(await body(await t.client().post('/api/staff-invitation/accept', { token }))).toEqual({
      email: person.email,
      role: 'finance',
      created: false,
    });
    const staff = await body<StaffList>(await admin.client.get('/api/admin/staff'));
    expect(staff.items.find((m) => m.id === id)?.role).toBe('finance');
    // Inviting them again with the same role is refused.
    const again = await admin.client.post('/api/admin/staff', {
      email: person.email,
      role: 'finance',
    });
    expect(again.status).toBe(409);
  });

  it('changes and removes roles (sessions end), and keeps the last admin', async () => {
    const member = await signInStaff(t, 'support');
    const changed = await body<StaffMember>(
      await admin.client.patch(`/api/admin/staff/${member.id}`, { role: 'finance' }),
    );
    expect(changed.role).toBe('finance');
    expect((await member.client.get('/api/admin/funds/requests')).status).toBe(200);
    expect((await member.client.get('/api/admin/orders?status=pending')).status).toBe(200);
    expect((await member.client.post('/api/admin/snippets', {})).status).toBe(403);

    await body(await admin.client.request('DELETE', `/api/admin/staff/${member.id}`));
    expect((await member.client.get('/api/admin/orders')).status).toBe(401);
    const list = await body<StaffList>(await admin.client.get('/api/admin/staff'));
    expect(list.items.some((m) => m.id === member.id)).toBe(false);
    // A customer now: the staff routes answer 404 for them.
    expect((await admin.client.request('DELETE', `/api/admin/staff/${member.id}`)).status).toBe(
      404,
    );
    const rows = (await audit(`targetType=staff&targetId=${member.id}`)).items;
    expect(rows.map((r) => r.action)).toEqual(['staff.remove', 'staff.role_change']);
    expect(rows[0]).toMatchObject({ before: { role: 'finance' }, after: { role: 'customer' } });

    // This app has one admin: it can neither demote nor remove itself.
    const admins = list.items.filter((m) => m.role === 'admin');
    expect(admins.map((m) => m.id)).toEqual([admin.id]);
    for (const res of [
      await admin.client.patch(`/api/admin/staff/${admin.id}`, { role: 'support' }),
      await admin.client.request('DELETE', `/api/admin/staff/${admin.id}`),
    ]) {
      expect(res.status).toBe(409);
      const err = (await res.json()) as { code: string; message: string };
      expect(err.code).toBe('LAST_ADMIN');
      expect(err.message).toMatch(/última cuenta de administración/);
    }
    // With a second admin, the first may step down.
    const second = await signInStaff(t, 'admin');
    await body(await second.client.patch(`/api/admin/staff/${admin.id}`, { role: 'admin' }));
    const stepDown = await body<StaffMember>(
      await admin.client.patch(`/api/admin/staff/${second.id}`, { role: 'support' }),
    );
    expect(stepDown.role).toBe('support');
  });
});

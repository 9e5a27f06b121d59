import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../db/schema/payments';
import {
  createTestApp,
  registerVerified,
  signInAdmin,
  userIdOf,
  type TestApp,
} from '../../../tests/setup/test-app';
import { dbTargets } from '../../../tests/setup/test-db';
import { verifyLedger } from '../ledger/ledger.verify';

describe.each(dbTargets())('wallet and adjustments on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(async () => {
    await t.close();
  });

  it('starts at zero and shows the balance in /api/me and /api/wallet', async () => {
    const { client } = await registerVerified(t);
    expect(await (await client.get('/api/wallet')).json()).toEqual({
      available: '0.00',
      held: '0.00',
      creditLimit: '0.00',
      spendable: '0.00',
      currency: 'USD',
    });
    expect(await (await client.get('/api/wallet/movements')).json()).toEqual({
      items: [],
      nextCursor: null,
    });
  });

  it('an admin credits and debits with a reason; the statement shows each movement with its balance after', async () => {
    const { client, email } = await registerVerified(t, 'Inés');
    const userId = await userIdOf(t, email);
    const admin = await signInAdmin(t);
    const up = await admin.client.post(`/api/admin/users/${userId}/adjustments`, {
      amount: '5.00',
      reason: 'Compensación por demora',
    });
    expect(up.status).toBe(201);
    expect(await up.json()).toMatchObject({ available: '5.00', held: '0.00' });
    const down = await admin.client.post(`/api/admin/users/${userId}/adjustments`, {
      amount: '-2.00',
      reason: 'Corrección',
    });
    expect(down.status).toBe(201);
    expect((await (await client.get('/api/me')).json()) as { balance: string }).toMatchObject({
      balance: '3.00',
    });
    const statement = (await (await client.get('/api/wallet/movements')).json()) as {
      items: { amount: string; balanceAfter: string; description: string }[];
    };
    expect(statement.items.map((m) => [m.amount, m.balanceAfter, m.description])).toEqual([
      ['-2.00', '3.00', 'Ajuste de saldo: Corrección'],
      ['+5.00', '5.00', 'Ajuste de saldo: Compensación por demora'],
    ]);
    const audits = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, userId));
    expect(audits).toHaveLength(2);
    expect(audits[0]).toMatchObject({
      actorId: admin.id,
      action: 'balance.adjust',
      before: { available: '0.00' },
    });
  });

  it('never takes a balance below zero and changes nothing when refused', async () => {
    const { client, email } = await registerVerified(t);
    const userId = await userIdOf(t, email);
    const admin = await signInAdmin(t);
    await admin.client.post(`/api/admin/users/${userId}/adjustments`, {
      amount: '1.00',
      reason: 'Regalo',
    });
    const res = await admin.client.post(`/api/admin/users/${userId}/adjustments`, {
      amount: '-1.01',
      reason: 'Demasiado',
    });
    expect(res.status).toBe(402);
    expect(await res.json()).toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    expect(await (await client.get('/api/wallet')).json()).toMatchObject({ available: '1.00' });
  });

  it('a retried adjustment with the same Idempotency-Key moves money once', async () => {
    const { email } = await registerVerified(t);
    const userId = await userIdOf(t, email);
    const admin = await signInAdmin(t);
    const send = () =>
      admin.client.request(
        'POST',
        `/api/admin/users/${userId}/adjustments`,
        { amount: '4.00', reason: 'Bono' },
        { 'Idempotency-Key': `adj-${userId}` },
      );
    const statuses = (await Promise.all([send(), send(), send()])).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 201]);
    const wallet = await admin.client.post(`/api/admin/users/${userId}/adjustments`, {
      amount: '0',
      reason: 'x',
    });
    expect(wallet.status).toBe(400);
  });

  it('validates adjustments with Spanish field messages and 404 for an unknown customer', async () => {
    const admin = await signInAdmin(t);
    const bad = await admin.client.post('/api/admin/users/nobody/adjustments', {
      amount: '1.234',
      reason: 'x',
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { fields: Record<string, string> }).fields).toEqual({
      amount: 'Escribe un importe válido, con hasta dos decimales.',
      reason: 'Escribe el motivo (al menos 3 caracteres).',
    });
    expect(
      (
        await admin.client.post('/api/admin/users/nobody/adjustments', {
          amount: '1.00',
          reason: 'Prueba',
        })
      ).status,
    ).toBe(404);
  });

  it('a customer cannot call admin routes and cannot read the statement while signed out', async () => {
    const { client, email } = await registerVerified(t);
    const userId = await userIdOf(t, email);
    const res = await client.post(`/api/admin/users/${userId}/adjustments`, {
      amount: '100.00',
      reason: 'Me lo merezco',
    });
    expect(res.status).toBe(403);
    expect((await t.client().get('/api/wallet')).status).toBe(401);
    expect((await t.client().get('/api/wallet/movements')).status).toBe(401);
    expect((await client.get('/api/wallet/movements?cursor=abc')).status).toBe(400);
  });

  it('pages the statement newest first with a cursor', async () => {
    const { client, email } = await registerVerified(t);
    const userId = await userIdOf(t, email);
    const admin = await signInAdmin(t);
    for (let i = 1; i <= 25; i++)
      await admin.client.post(`/api/admin/users/${userId}/adjustments`, {
        amount: `${i}.00`,
        reason: `Bono ${i}`,
      });
    const first = (await (await client.get('/api/wallet/movements')).json()) as {
      items: { amount: string }[];
      nextCursor: string;
    };
    expect(first.items).toHaveLength(20);
    expect(first.items[0]?.amount).toBe('+25.00');
    const second = (await (
      await client.get(`/api/wallet/movements?cursor=${first.nextCursor}`)
    ).json()) as { items: { amount: string }[]; nextCursor: string | null };
    expect(second.items.map((m) => m.amount)).toEqual([
      '+5.00',
      '+4.00',
      '+3.00',
      '+2.00',
      '+1.00',
    ]);
    expect(second.nextCursor).toBeNull();
    expect((await verifyLedger(t.database.db)).problems).toEqual([]);
  });
});

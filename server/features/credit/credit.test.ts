import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceField } from '../../../shared/schemas/catalogue';
import { service } from '../../db/schema/catalogue';
import { ledgerCreditLimit } from '../../db/schema/ledger';
import { auditLog } from '../../db/schema/payments';
import {
  createTestApp,
  registerVerified,
  signInAdmin,
  signInStaff,
  userIdOf,
  type TestApp,
  type TestClient,
} from '../../../tests/setup/test-app';
import { imeiFor } from '../../../tests/setup/imei';
import { dbTargets } from '../../../tests/setup/test-db';
import { customerAccounts, standing } from '../ledger/ledger.service';
import { verifyLedger } from '../ledger/ledger.verify';

const IMEI_FIELDS: ServiceField[] = [
  { key: 'imei', label: 'IMEI', type: 'imei', required: true, identifier: true },
];

describe.each(dbTargets())('credit lines on %s', (target) => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof signInAdmin>>;
  let finance: Awaited<ReturnType<typeof signInStaff>>;
  let imeiService: string;
  let serial = 0;

  async function customer(): Promise<{ client: TestClient; email: string; id: string }> {
    const { client, email } = await registerVerified(t);
    return { client, email, id: await userIdOf(t, email) };
  }

  async function setLimit(by: TestClient, userId: string, amount: string) {
    return by.request('PUT', `/api/admin/users/${userId}/credit-limit`, { amount });
  }

  async function adjust(userId: string, amount: string) {
    const res = await admin.client.post(`/api/admin/users/${userId}/adjustments`, {
      amount,
      reason: 'Pago de la semana',
    });
    expect(res.status).toBe(201);
  }

  /** Places a 0.50 order; answers the status and the body. */
  async function order(c: TestClient) {
    serial += 1;
    const res = await c.post('/api/orders', {
      serviceId: imeiService,
      fields: { imei: imeiFor(serial) },
    });
    return { status: res.status, body: (await res.json()) as { code?: string; message?: string } };
  }

  async function wallet(c: TestClient) {
    const res = await c.get('/api/wallet');
    expect(res.status).toBe(200);
    return (await res.json()) as Record<string, string>;
  }

  beforeAll(async () => {
    t = await createTestApp(target);
    admin = await signInAdmin(t);
    finance = await signInStaff(t, 'finance');
    const [row] = await t.database.db
      .insert(service)
      .values({
        category: 'IMEI',
        name: 'Consulta a crédito',
        description: 'Operador y bloqueo.',
        deliveryTime: '1–24 horas',
        price: 50n,
        fields: IMEI_FIELDS,
      })
      .returning({ id: service.id });
    imeiService = row!.id;
  });
  afterAll(async () => {
    await t.close();
  });

  it('orders take the balance down to minus the limit and no further; the wallet shows limit and spendable', async () => {
    const c = await customer();
    expect(await wallet(c.client)).toEqual({
      available: '0.00',
      held: '0.00',
      creditLimit: '0.00',
      spendable: '0.00',
      currency: 'USD',
    });
    // Without credit, the plain refusal.
    expect(await order(c.client)).toEqual({
      status: 402,
      body: { code: 'INSUFFICIENT_FUNDS', message: 'Tu saldo no alcanza para esta operación.' },
    });

    const res = await setLimit(finance.client, c.id, '1.00');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      userId: c.id,
      creditLimit: '1.00',
      available: '0.00',
      spendable: '1.00',
      debt: '0.00',
    });
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'credit.limit'), eq(auditLog.targetId, c.id)));
    expect(audit).toMatchObject({
      actorId: finance.id,
      before: { creditLimit: '0.00' },
      after: { creditLimit: '1.00', available: '0.00' },
    });

    expect((await order(c.client)).status).toBe(201);
    expect((await order(c.client)).status).toBe(201);
    // The third would take it to -1.50: refused, with a message that names the credit.
    expect(await order(c.client)).toEqual({
      status: 402,
      body: {
        code: 'INSUFFICIENT_FUNDS',
        message: 'Tu saldo y tu crédito disponible no alcanzan para esta operación.',
      },
    });
    expect(await wallet(c.client)).toEqual({
      available: '-1.00',
      held: '1.00',
      creditLimit: '1.00',
      spendable: '0.00',
      currency: 'USD',
    });
    expect((await verifyLedger(t.database.db)).problems).toEqual([]);
  });

  it('a parallel burst of 30 orders never goes past the limit', async () => {
    const c = await customer();
    expect((await setLimit(admin.client, c.id, '5.00')).status).toBe(200);
    const results = await Promise.all(Array.from({ length: 30 }, () => order(c.client)));
    const placed = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status !== 201);
    expect(placed).toHaveLength(10);
    expect(refused).toHaveLength(20);
    for (const r of refused) expect(r.body.code).toBe('INSUFFICIENT_FUNDS');
    const s = await standing(t.database.db, c.id);
    expect(s).toEqual({ available: -500n, held: 500n, creditLimit: 500n, spendable: 0n });
    expect(s.available).toBeGreaterThanOrEqual(-s.creditLimit);
    expect((await verifyLedger(t.database.db)).problems).toEqual([]);
  });

  it('lowering the limit below the debt keeps the debt, refuses new orders, and a top-up pays the debt first', async () => {
    const c = await customer();
    expect((await setLimit(admin.client, c.id, '2.00')).status).toBe(200);
    for (let i = 0; i < 4; i += 1) expect((await order(c.client)).status).toBe(201);
    expect((await standing(t.database.db, c.id)).available).toBe(-200n);

    // Lowered to 0.50 while owing 2.00: allowed; the debt stays.
    const lowered = await setLimit(finance.client, c.id, '0.50');
    expect(lowered.status).toBe(200);
    expect(await lowered.json()).toMatchObject({
      creditLimit: '0.50',
      available: '-2.00',
      spendable: '0.00',
      debt: '2.00',
    });
    expect((await order(c.client)).status).toBe(402);

    // Who owes what: listed with the debt, the limit and that the debt is over it.
    const debts = await finance.client.get('/api/admin/debts');
    expect(debts.status).toBe(200);
    const list = (await debts.json()) as { items: { userId: string }[] };
    expect(list.items.find((d) => d.userId === c.id)).toEqual({
      userId: c.id,
      name: 'Ana Pérez',
      email: c.email,
      available: '-2.00',
      debt: '2.00',
      creditLimit: '0.50',
      overLimit: true,
    });

    // A top-up of 1.75 pays the debt first: -0.25, and 0.25 left to spend.
    await adjust(c.id, '1.75');
    expect(await wallet(c.client)).toMatchObject({
      available: '-0.25',
      creditLimit: '0.50',
      spendable: '0.25',
    });
    expect((await order(c.client)).status).toBe(402);
    await adjust(c.id, '0.25');
    expect((await order(c.client)).status).toBe(201);
    expect((await standing(t.database.db, c.id)).available).toBe(-50n);

    // Removed ("0.00") while owing 0.50: the debt stays, the plain refusal comes back.
    expect((await setLimit(admin.client, c.id, '0.00')).status).toBe(200);
    expect(await order(c.client)).toMatchObject({
      status: 402,
      body: { message: 'Tu saldo no alcanza para esta operación.' },
    });
    expect(await wallet(c.client)).toMatchObject({
      available: '-0.50',
      creditLimit: '0.00',
      spendable: '0.00',
    });
    // ledger:verify judges each debit by the limit in force then: nothing to report.
    expect((await verifyLedger(t.database.db)).problems).toEqual([]);
    const history = await t.database.db
      .select({ limit: ledgerCreditLimit.creditLimit })
      .from(ledgerCreditLimit)
      .where(
        eq(ledgerCreditLimit.accountId, (await customerAccounts(t.database.db, c.id)).available),
      )
      .orderBy(ledgerCreditLimit.id);
    expect(history.map((h) => h.limit)).toEqual([200n, 50n, 0n]);
  });

  it('ledger:verify reports a debit that went past the limit in force', async () => {
    const c = await customer();
    expect((await setLimit(admin.client, c.id, '1.00')).status).toBe(200);
    expect((await order(c.client)).status).toBe(201);
    expect((await order(c.client)).status).toBe(201);
    const account = (await customerAccounts(t.database.db, c.id)).available;
    // Rewriting history in a transaction that is rolled back: had the limit been 0.60 before
    // these orders, the second one (to -1.00) went past it.
    const problems = await t.database.db
      .transaction(async (tx) => {
        await tx.execute(
          sql`INSERT INTO ledger_credit_limit (account_id, credit_limit, after_entry_id)
              VALUES (${account}::uuid, 60, 0)`,
        );
        const report = await verifyLedger(tx);
        throw Object.assign(new Error('rollback'), { problems: report.problems });
      })
      .catch((err: { problems?: string[] }) => err.problems ?? []);
    expect(problems.some((p) => p.includes(`to -100, past its credit limit of 60`))).toBe(true);
    expect(problems).toContain(`account ${account}: credit limit 100 but its history records 60`);
    expect((await verifyLedger(t.database.db)).problems).toEqual([]);
    // The history itself is append-only.
    await expect(
      t.database.db.execute(
        sql`DELETE FROM ledger_credit_limit WHERE account_id = ${account}::uuid`,
      ),
    ).rejects.toThrow();
  });

  it('refuses a negative or unreadable limit, an unknown customer, and one’s own limit', async () => {
    const c = await customer();
    expect((await setLimit(admin.client, c.id, '-1.00')).status).toBe(400);
    expect((await setLimit(admin.client, c.id, 'mucho')).status).toBe(400);
    expect((await setLimit(admin.client, 'nadie', '1.00')).status).toBe(404);
    const own = await setLimit(finance.client, finance.id, '100.00');
    expect(own.status).toBe(403);
    expect((await standing(t.database.db, finance.id)).creditLimit).toBe(0n);
    const read = await finance.client.get(`/api/admin/users/${c.id}/credit-limit`);
    expect(await read.json()).toEqual({
      userId: c.id,
      creditLimit: '0.00',
      available: '0.00',
      spendable: '0.00',
      debt: '0.00',
    });
  });
});

import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerTransfer } from '../../db/schema/ledger';
import { auditLog } from '../../db/schema/payments';
import { createTestApp, signInAdmin, type TestApp } from '../../../tests/setup/test-app';
import { dbTargets } from '../../../tests/setup/test-db';
import { balances } from '../ledger/ledger.service';

describe.each(dbTargets())('balance adjustments on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(async () => {
    await t.close();
  });

  async function adjustmentsOf(userId: string) {
    const transfers = await t.database.db
      .select({ id: ledgerTransfer.id })
      .from(ledgerTransfer)
      .where(
        and(eq(ledgerTransfer.referenceType, 'adjustment'), eq(ledgerTransfer.referenceId, userId)),
      );
    const audits = await t.database.db
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'balance.adjust'), eq(auditLog.targetId, userId)));
    return { transfers: transfers.length, audits: audits.length };
  }

  it('four-eyes bug: an admin crediting their own balance is refused with 403 and nothing is written', async () => {
    const admin = await signInAdmin(t);
    const res = await admin.client.request(
      'POST',
      `/api/admin/users/${admin.id}/adjustments`,
      { amount: '500.00', reason: 'Para mí' },
      { 'Idempotency-Key': 'own-credit-1' },
    );
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      code: 'FORBIDDEN',
      message: 'No puedes ajustar tu propio saldo. Pide a otro administrador que lo haga.',
    });
    expect(await adjustmentsOf(admin.id)).toEqual({ transfers: 0, audits: 0 });
    expect((await balances(t.database.db, admin.id)).available).toBe(0n);

    // A debit of one's own balance is refused the same way.
    const debit = await admin.client.post(`/api/admin/users/${admin.id}/adjustments`, {
      amount: '-1.00',
      reason: 'Corrección',
    });
    expect(debit.status).toBe(403);
    expect(await adjustmentsOf(admin.id)).toEqual({ transfers: 0, audits: 0 });
  });

  it('four-eyes bug: a second admin can adjust the first admin’s balance', async () => {
    const first = await signInAdmin(t, '10.7.0.1');
    const second = await signInAdmin(t, '10.7.0.2');
    const res = await second.client.post(`/api/admin/users/${first.id}/adjustments`, {
      amount: '25.00',
      reason: 'Reembolso revisado',
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ available: '25.00', replayed: false });
    expect(await adjustmentsOf(first.id)).toEqual({ transfers: 1, audits: 1 });
  });
});

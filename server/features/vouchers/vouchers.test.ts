import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerTransfer } from '../../db/schema/ledger';
import { auditLog, payment, voucher, voucherBatch } from '../../db/schema/payments';
import {
  TEST_ORIGIN,
  createTestApp,
  registerVerified,
  signInAdmin,
  userIdOf,
  type TestApp,
  type TestClient,
} from '../../../tests/setup/test-app';
import { dbTargets } from '../../../tests/setup/test-db';
import { balances } from '../ledger/ledger.service';
import { verifyLedger } from '../ledger/ledger.verify';
import type { CreatedBatchDto, VoucherBatchDto } from '../../../shared/schemas/vouchers';
import { CODE_PATTERN, normalizeCode } from './vouchers.service';

/** The real app (every route mounted as in production). */
function voucherApp(t: TestApp) {
  return t.app;
}

type ErrorBody = { code: string; message: string; fields?: Record<string, string> };
type RedeemBody = { amount: string; available: string; message: string };

describe.each(dbTargets())('voucher codes on %s', (target) => {
  let t: TestApp;
  let app: ReturnType<typeof voucherApp>;
  let admin: Awaited<ReturnType<typeof signInAdmin>>;

  /** A request to the voucher app with the cookies of a signed-in client (or none: a visitor). */
  async function call(
    client: TestClient | null,
    method: string,
    url: string,
    body?: unknown,
  ): Promise<Response> {
    const headers: Record<string, string> = { Origin: TEST_ORIGIN };
    if (client?.cookies.size) {
      headers.Cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    }
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    return app.request(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  async function createBatch(input: Record<string, unknown>): Promise<CreatedBatchDto> {
    const res = await call(admin.client, 'POST', '/api/admin/vouchers', input);
    if (res.status !== 201) throw new Error(`batch failed: ${res.status} ${await res.text()}`);
    return (await res.json()) as CreatedBatchDto;
  }

  async function customer() {
    const { client, email } = await registerVerified(t);
    return { client, email, id: await userIdOf(t, email) };
  }

  async function redeemAs(client: TestClient, code: string): Promise<Response> {
    return call(client, 'POST', '/api/funds/redeem', { code });
  }

  async function creditsOf(userId: string) {
    return t.database.db
      .select()
      .from(payment)
      .where(and(eq(payment.userId, userId), eq(payment.method, 'voucher')));
  }

  async function transfersFor(paymentIds: string[]) {
    const all = await t.database.db
      .select({ referenceId: ledgerTransfer.referenceId })
      .from(ledgerTransfer)
      .where(eq(ledgerTransfer.kind, 'topup_voucher'));
    return all.filter((r) => paymentIds.includes(r.referenceId));
  }

  beforeAll(async () => {
    t = await createTestApp(target);
    app = voucherApp(t);
    admin = await signInAdmin(t);
  });
  afterAll(async () => {
    await t.close();
  });

  let batch: CreatedBatchDto;

  it('an admin creates 5 × US$10.00: 5 distinct codes in the CMT-XXXX-XXXX-XXXX form, audited', async () => {
    batch = await createBatch({ amount: '10.00', count: 5, note: 'Feria de abril' });
    expect(batch.codes).toHaveLength(5);
    expect(new Set(batch.codes).size).toBe(5);
    for (const code of batch.codes) {
      expect(code).toMatch(/^CMT-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/);
      expect(code.slice(4)).not.toMatch(/[01OIL]/);
    }
    expect(batch.batch).toMatchObject({
      amount: '10.00',
      count: 5,
      redeemed: 0,
      expiresAt: null,
      note: 'Feria de abril',
      createdBy: admin.email,
    });
    const stored = await t.database.db
      .select({ code: voucher.code })
      .from(voucher)
      .where(eq(voucher.batchId, batch.batch.id));
    expect(stored.map((r) => r.code).sort()).toEqual([...batch.codes].sort());
    const audits = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.targetId, batch.batch.id));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      actorId: admin.id,
      action: 'voucher.batch.create',
      targetType: 'voucher_batch',
      ipAddress: '127.0.0.1',
      after: { amount: '10.00', count: 5, expiresAt: null, note: 'Feria de abril' },
    });
  });

  it('creates the largest batch, 1000 distinct codes, in one request', async () => {
    const big = await createBatch({ amount: '1.00', count: 1000 });
    expect(new Set(big.codes).size).toBe(1000);
    expect(big.codes.every((c) => CODE_PATTERN.test(c))).toBe(true);
    const [row] = await t.database.db
      .select({ count: voucherBatch.count })
      .from(voucherBatch)
      .where(eq(voucherBatch.id, big.batch.id));
    expect(row?.count).toBe(1000);
  });

  it('refuses bad batches with Spanish field messages and creates nothing', async () => {
    const before = await t.database.db.select().from(voucherBatch);
    const res = await call(admin.client, 'POST', '/api/admin/vouchers', {
      amount: '0',
      count: 1001,
      expiresAt: '2020-01-01',
      note: 'x'.repeat(201),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorBody).fields).toEqual({
      amount: 'El importe debe ser mayor que cero.',
      count: 'No puedes crear más de 1000 códigos a la vez.',
      expiresAt: 'La fecha de caducidad debe ser futura.',
      note: 'La nota no puede tener más de 200 caracteres.',
    });
    const badDate = await call(admin.client, 'POST', '/api/admin/vouchers', {
      amount: '5',
      count: 0,
      expiresAt: '2031-02-31',
    });
    expect(((await badDate.json()) as ErrorBody).fields).toEqual({
      count: 'Crea al menos 1 código.',
      expiresAt: 'Escribe una fecha de caducidad válida (por ejemplo 2026-12-31).',
    });
    expect(await t.database.db.select().from(voucherBatch)).toHaveLength(before.length);
  });

  it('regression: a batch count of "0x10", "1e3", true or ["5"] was coerced; now refused', async () => {
    const before = await t.database.db.select().from(voucherBatch);
    for (const count of ['0x10', '1e3', '5', true, ['5']]) {
      const res = await call(admin.client, 'POST', '/api/admin/vouchers', { amount: '5', count });
      expect(res.status, JSON.stringify(count)).toBe(400);
      expect(((await res.json()) as ErrorBody).fields).toEqual({
        count: 'Escribe cuántos códigos quieres crear, como número entero.',
      });
    }
    expect(await t.database.db.select().from(voucherBatch)).toHaveLength(before.length);
  });

  it('a customer redeems a code: +10.00, the code is marked and the payment completed', async () => {
    const ana = await customer();
    const code = batch.codes[0] ?? '';
    const res = await redeemAs(ana.client, `  ${code.toLowerCase()} `);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      amount: '10.00',
      available: '10.00',
      message: 'Código canjeado: se añadieron US$10.00 a tu saldo.',
    });
    expect(await balances(t.database.db, ana.id)).toEqual({ available: 1000n, held: 0n });
    const [row] = await t.database.db.select().from(voucher).where(eq(voucher.code, code));
    expect(row?.redeemedBy).toBe(ana.id);
    expect(row?.redeemedAt).toBeInstanceOf(Date);
    const payments = await creditsOf(ana.id);
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({
      id: row?.paymentId,
      method: 'voucher',
      status: 'completed',
      amount: 1000n,
      reference: row?.id,
    });
    expect(payments[0]?.transferId).toBeTruthy();

    // The same code again, by the same customer or anyone else: 409 and no money.
    const again = await redeemAs(ana.client, code);
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({
      code: 'CONFLICT',
      message: 'Este código ya fue canjeado.',
    });
    const bea = await customer();
    expect((await redeemAs(bea.client, code)).status).toBe(409);
    expect(await balances(t.database.db, ana.id)).toEqual({ available: 1000n, held: 0n });
    expect(await balances(t.database.db, bea.id)).toEqual({ available: 0n, held: 0n });
    expect(await creditsOf(ana.id)).toHaveLength(1);
    expect(await creditsOf(bea.id)).toHaveLength(0);
  });

  it('accepts a code typed without dashes; answers unknown codes with one generic 404', async () => {
    const carla = await customer();
    const code = batch.codes[1] ?? '';
    const typed = code.replace(/-/g, '').slice(3).toLowerCase();
    const ok = await redeemAs(carla.client, typed);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as RedeemBody).available).toBe('10.00');

    const unknown = await redeemAs(carla.client, 'CMT-2345-6789-ABCD');
    const garbage = await redeemAs(carla.client, 'hola');
    expect(unknown.status).toBe(404);
    expect(garbage.status).toBe(404);
    const body = (await unknown.json()) as ErrorBody;
    expect(body).toEqual({
      code: 'NOT_FOUND',
      message: 'Este código no es válido. Revisa que esté bien escrito.',
    });
    expect(await garbage.json()).toEqual(body);
    const empty = await redeemAs(carla.client, '   ');
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as ErrorBody).fields).toEqual({ code: 'Escribe el código.' });
    expect(await balances(t.database.db, carla.id)).toEqual({ available: 1000n, held: 0n });
  });

  it("an expired batch's code answers 400 and credits nothing", async () => {
    const expiring = await createBatch({ amount: '7.50', count: 2, expiresAt: '2099-01-01' });
    await t.database.db
      .update(voucherBatch)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(voucherBatch.id, expiring.batch.id));
    const dani = await customer();
    const res = await redeemAs(dani.client, expiring.codes[0] ?? '');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: 'BAD_REQUEST', message: 'Este código ha caducado.' });
    expect(await balances(t.database.db, dani.id)).toEqual({ available: 0n, held: 0n });
    const [row] = await t.database.db
      .select()
      .from(voucher)
      .where(eq(voucher.code, expiring.codes[0] ?? ''));
    expect(row?.redeemedBy).toBeNull();
    expect(await creditsOf(dani.id)).toHaveLength(0);
  });

  it('two customers racing for one code: exactly one gets it, one ledger credit', async () => {
    const race = await createBatch({ amount: '25.00', count: 1 });
    const code = race.codes[0] ?? '';
    const [eva, fer] = await Promise.all([customer(), customer()]);
    const results = await Promise.all([redeemAs(eva.client, code), redeemAs(fer.client, code)]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409]);
    const paymentIds = [...(await creditsOf(eva.id)), ...(await creditsOf(fer.id))].map(
      (p) => p.id,
    );
    expect(paymentIds).toHaveLength(1);
    expect(await transfersFor(paymentIds)).toHaveLength(1);
    const total =
      (await balances(t.database.db, eva.id)).available +
      (await balances(t.database.db, fer.id)).available;
    expect(total).toBe(2500n);
  });

  it('20 parallel redemptions of one code by one customer: one credit', async () => {
    const race = await createBatch({ amount: '3.00', count: 1 });
    const code = race.codes[0] ?? '';
    const gabi = await customer();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => redeemAs(gabi.client, code)),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    // The rest: already spent, or over the per-customer attempt limit.
    expect(statuses.every((s) => s === 200 || s === 409 || s === 429)).toBe(true);
    const payments = await creditsOf(gabi.id);
    expect(payments).toHaveLength(1);
    expect(await transfersFor(payments.map((p) => p.id))).toHaveLength(1);
    expect(await balances(t.database.db, gabi.id)).toEqual({ available: 300n, held: 0n });
  });

  it('customers get 403 on the admin routes, visitors 401 everywhere', async () => {
    const { client } = await customer();
    const id = batch.batch.id;
    for (const [method, url, body] of [
      ['POST', '/api/admin/vouchers', { amount: '10.00', count: 1 }],
      ['GET', '/api/admin/vouchers', undefined],
      ['GET', `/api/admin/vouchers/${id}/export.csv`, undefined],
    ] as const) {
      const asCustomer = await call(client, method, url, body);
      expect(asCustomer.status).toBe(403);
      expect(((await asCustomer.json()) as ErrorBody).code).toBe('FORBIDDEN');
      const asVisitor = await call(null, method, url, body);
      expect(asVisitor.status).toBe(401);
      expect(((await asVisitor.json()) as ErrorBody).code).toBe('UNAUTHENTICATED');
    }
    const redeem = await call(null, 'POST', '/api/funds/redeem', { code: batch.codes[4] });
    expect(redeem.status).toBe(401);
    const [row] = await t.database.db
      .select()
      .from(voucher)
      .where(eq(voucher.code, batch.codes[4] ?? ''));
    expect(row?.redeemedBy).toBeNull();
  });

  it('lists batches newest first with their redeemed counts', async () => {
    const res = await call(admin.client, 'GET', '/api/admin/vouchers');
    expect(res.status).toBe(200);
    const { items } = (await res.json()) as { items: VoucherBatchDto[] };
    const created = items.map((b) => b.createdAt);
    expect(created).toEqual([...created].sort().reverse());
    const first = items.find((b) => b.id === batch.batch.id);
    expect(first).toMatchObject({
      amount: '10.00',
      count: 5,
      redeemed: 2,
      note: 'Feria de abril',
      createdBy: admin.email,
    });
    expect(items.at(-1)?.id).toBe(batch.batch.id);
  });

  it('exports the batch as CSV with each code and its state', async () => {
    const res = await call(
      admin.client,
      'GET',
      `/api/admin/vouchers/${batch.batch.id}/export.csv?format=rfc4180`,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="vales-${batch.batch.id}.csv"`,
    );
    const lines = (await res.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe('codigo,importe,estado,canjeado_por,canjeado_el,caduca');
    const rows = lines.slice(1).map((l) => l.split(','));
    expect(rows.map((r) => r[0]).sort()).toEqual([...batch.codes].sort());
    const byCode = new Map(rows.map((r) => [r[0], r]));
    const spent = byCode.get(batch.codes[0]);
    expect(spent?.[1]).toBe('10.00');
    expect(spent?.[2]).toBe('canjeado');
    expect(spent?.[3]).toMatch(/@example\.com$/);
    expect(spent?.[4]).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(byCode.get(batch.codes[2])).toEqual([batch.codes[2], '10.00', 'disponible', '', '', '']);

    const expired = await createBatch({ amount: '1', count: 1 });
    await t.database.db
      .update(voucherBatch)
      .set({ expiresAt: new Date('2020-01-01T00:00:00Z') })
      .where(eq(voucherBatch.id, expired.batch.id));
    const csv = await call(
      admin.client,
      'GET',
      `/api/admin/vouchers/${expired.batch.id}/export.csv?format=rfc4180`,
    );
    expect((await csv.text()).split('\r\n')[1]).toBe(
      `${expired.codes[0]},1.00,caducado,,,2020-01-01T00:00:00.000Z`,
    );
    // The default form is the one a Spanish Excel opens as it is.
    const excel = await call(
      admin.client,
      'GET',
      `/api/admin/vouchers/${expired.batch.id}/export.csv?tz=America/Mexico_City`,
    );
    expect(excel.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const bytes = new Uint8Array(await excel.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const excelLines = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes).split('\r\n');
    expect(excelLines[0]).toBe('\uFEFFCódigo;Importe (USD);Estado;Canjeado por;Canjeado el;Caduca');
    expect(excelLines[1]).toBe(`${expired.codes[0]};"1,00";Caducado;;;31/12/2019 18:00`);

    for (const id of [randomUUID(), 'no-es-un-id']) {
      const missing = await call(admin.client, 'GET', `/api/admin/vouchers/${id}/export.csv`);
      expect(missing.status).toBe(404);
      expect(((await missing.json()) as ErrorBody).code).toBe('NOT_FOUND');
    }
  });

  it('after 10 attempts in 10 minutes a customer gets 429, even with a good code', async () => {
    const hugo = await customer();
    for (let i = 0; i < 10; i += 1) {
      const res = await redeemAs(hugo.client, `CMT-2222-3333-${'ABCDEFGHJK'[i] ?? 'M'}AAA`);
      expect(res.status).toBe(404);
    }
    const blocked = await redeemAs(hugo.client, batch.codes[3] ?? '');
    expect(blocked.status).toBe(429);
    // Seconds until the 10-minute window ends.
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(await blocked.json()).toEqual({
      code: 'RATE_LIMITED',
      message: 'Has probado demasiados códigos. Espera unos minutos e inténtalo de nuevo.',
    });
    expect(await balances(t.database.db, hugo.id)).toEqual({ available: 0n, held: 0n });
    const [row] = await t.database.db
      .select()
      .from(voucher)
      .where(eq(voucher.code, batch.codes[3] ?? ''));
    expect(row?.redeemedBy).toBeNull();
    // Another customer is not affected.
    const ines = await customer();
    expect((await redeemAs(ines.client, batch.codes[3] ?? '')).status).toBe(200);
  });

  it('the ledger has no problems', async () => {
    const report = await verifyLedger(t.database.db);
    expect(report.problems).toEqual([]);
    expect(report.transfers).toBeGreaterThan(0);
  });
});

describe('normalizeCode', () => {
  it('puts dashes back and upper-cases; leaves anything else as typed', () => {
    expect(normalizeCode(' cmt-abcd-efgh-jkmn ')).toBe('CMT-ABCD-EFGH-JKMN');
    expect(normalizeCode('CMTABCDEFGHJKMN')).toBe('CMT-ABCD-EFGH-JKMN');
    expect(normalizeCode('abcd efgh jkmn')).toBe('CMT-ABCD-EFGH-JKMN');
    expect(normalizeCode('abc')).toBe('ABC');
    expect(CODE_PATTERN.test('CMT-ABCD-EFGH-JKMN')).toBe(true);
    expect(CODE_PATTERN.test('CMT-ABCD-EFGH-JKM0')).toBe(false);
  });
});

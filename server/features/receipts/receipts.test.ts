import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReceiptList } from '../../../shared/schemas/payments';
import { pdfText } from '../../../tests/setup/pdf-text';
import {
  createTestApp,
  registerVerified,
  signInAdmin,
  signInStaff,
  TEST_ORIGIN,
  userIdOf,
  type TestApp,
  type TestClient,
} from '../../../tests/setup/test-app';
import { dbTargets } from '../../../tests/setup/test-db';
import { payment, paymentSettings, receipt, receiptCounter } from '../../db/schema/payments';
import { verifyLedger } from '../ledger/ledger.verify';
import { balances } from '../ledger/ledger.service';
import { completePayment } from '../payments/payments.service';
import {
  startFakeStripe,
  checkoutSessionEvent,
  type FakeStripe,
} from '../payments/stripe/fake-stripe';
import { stripeConfigFrom } from '../payments/stripe/stripe.config';
import { renderReceiptPdf } from './receipts.pdf';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const WEBHOOK_SECRET = 'whsec_test_cometa_receipts_secret';
const YEAR = new Date().getUTCFullYear();
const TODAY = new Date().toISOString().slice(0, 10);

const SHOP = {
  shopName: 'Señales Cometa S.A.',
  shopTaxId: 'CUIT 30-71234567-9',
  shopAddress: 'Av. Córdoba 1234, CABA',
};

function cookieHeader(client: TestClient): Record<string, string> {
  return { Cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
}

describe.each(dbTargets())('numbered receipts on %s', (target) => {
  let t: TestApp;
  let fake: FakeStripe;
  let admin: TestClient;
  let finance: TestClient;
  let support: TestClient;

  beforeAll(async () => {
    t = await createTestApp(target);
    fake = await startFakeStripe();
    await t.database.db.update(paymentSettings).set(SHOP).where(eq(paymentSettings.id, 1));
    admin = (await signInAdmin(t)).client;
    finance = (await signInStaff(t, 'finance')).client;
    support = (await signInStaff(t, 'support')).client;
  });

  afterAll(async () => {
    await fake?.close();
    await t?.close();
  });

  async function customer(name = 'Lucía Peñalver') {
    const { client, email } = await registerVerified(t, name);
    return { client, email, id: await userIdOf(t, email) };
  }

  /** A pending top-up inserted as a gateway would start it. */
  async function pending(
    userId: string,
    values: Partial<typeof payment.$inferInsert> = {},
  ): Promise<string> {
    const [row] = await t.database.db
      .insert(payment)
      .values({ userId, method: 'paypal', amount: 2500n, fee: 103n, ...values })
      .returning({ id: payment.id });
    return row!.id;
  }

  function credit(paymentId: string) {
    return t.database.db.transaction((tx) => completePayment(tx, paymentId));
  }

  async function receiptsOfPayment(paymentId: string) {
    return t.database.db.select().from(receipt).where(eq(receipt.paymentId, paymentId));
  }

  async function lastSeq(): Promise<number> {
    const [row] = await t.database.db
      .select({ last: receiptCounter.last })
      .from(receiptCounter)
      .where(eq(receiptCounter.year, YEAR));
    return row?.last ?? 0;
  }

  const number = (seq: number) => `R-${YEAR}-${String(seq).padStart(6, '0')}`;

  async function pdfOf(client: TestClient, url: string) {
    const res = await client.get(url);
    return { res, bytes: Buffer.from(await res.arrayBuffer()) };
  }

  it('issues R-<year>-000001 for a manual approval, with the shop and the customer as they were', async () => {
    const who = await customer();
    const method = (await (
      await admin.post('/api/admin/funds/methods', {
        name: 'Transferencia Galicia',
        instructions: 'Cuenta 0123.',
        minAmount: '1',
        maxAmount: '500',
      })
    ).json()) as { id: string };
    const form = new FormData();
    form.append('methodId', method.id);
    form.append('amount', '40.00');
    form.append('reference', 'TRF-1');
    form.append('receipt', new File([PNG], 'comprobante.png', { type: 'image/png' }));
    const created = await t.app.request('/api/funds/requests', {
      method: 'POST',
      headers: { Origin: TEST_ORIGIN, ...cookieHeader(who.client) },
      body: form,
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect(await receiptsOfPayment(id)).toEqual([]);

    const approved = await finance.post(`/api/admin/funds/requests/${id}/approve`);
    expect(approved.status).toBe(200);

    const [issued] = await receiptsOfPayment(id);
    expect(issued).toMatchObject({
      number: number(1),
      year: YEAR,
      seq: 1,
      userId: who.id,
      method: 'manual',
      amount: 4000n,
      fee: 0n,
      description: 'Recarga por pago manual',
      customer: { name: 'Lucía Peñalver', email: who.email },
      shop: { name: SHOP.shopName, taxId: SHOP.shopTaxId, address: SHOP.shopAddress },
    });

    const list = await who.client.get('/api/receipts');
    expect(list.status).toBe(200);
    const body = (await list.json()) as ReceiptList;
    expect(body).toEqual({
      items: [
        {
          id: issued!.id,
          number: number(1),
          paymentId: id,
          method: 'manual',
          methodName: 'Transferencia Galicia',
          description: 'Recarga por pago manual',
          amount: '40.00',
          fee: '0.00',
          total: '40.00',
          chargedAmount: null,
          chargedCurrency: null,
          customer: { id: who.id, name: 'Lucía Peñalver', email: who.email },
          issuedAt: issued!.issuedAt.toISOString(),
        },
      ],
      nextCursor: null,
    });
    // Later changes to the shop or the customer do not touch an issued receipt.
    await t.database.db
      .update(paymentSettings)
      .set({ shopName: 'Otro nombre' })
      .where(eq(paymentSettings.id, 1));
    const { bytes } = await pdfOf(who.client, `/api/receipts/${issued!.id}/pdf`);
    expect(pdfText(bytes)).toContain(SHOP.shopName);
    await t.database.db.update(paymentSettings).set(SHOP).where(eq(paymentSettings.id, 1));
  });

  it('issues a receipt for a voucher redemption', async () => {
    const who = await customer('Martín Núñez');
    const batch = (await (
      await admin.post('/api/admin/vouchers', { amount: '15.00', count: 1 })
    ).json()) as { codes: string[] };
    const redeemed = await who.client.post('/api/funds/redeem', { code: batch.codes[0] });
    expect(redeemed.status).toBe(200);
    const items = ((await (await who.client.get('/api/receipts')).json()) as ReceiptList).items;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      number: number(2),
      method: 'voucher',
      methodName: 'Código de recarga',
      description: 'Recarga con código',
      amount: '15.00',
      fee: '0.00',
      total: '15.00',
    });
  });

  it('issues a receipt for a Stripe credit (signed webhook)', async () => {
    const config = stripeConfigFrom({
      STRIPE_SECRET_KEY: 'sk_test_cometa_receipts',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: fake.baseUrl,
    });
    const app = t.appWith({ env: { ...t.env, stripe: config } });
    const who = await customer('Sofía Ibáñez');
    const started = await app.request('/api/funds/stripe/checkout', {
      method: 'POST',
      headers: {
        Origin: TEST_ORIGIN,
        'Content-Type': 'application/json',
        ...cookieHeader(who.client),
      },
      body: JSON.stringify({ amount: '30.00' }),
    });
    expect(started.status).toBe(201);
    const { paymentId } = (await started.json()) as { paymentId: string };
    const [row] = await t.database.db.select().from(payment).where(eq(payment.id, paymentId));
    const session = fake.sessions.get(row!.providerRef ?? '');
    if (!session) throw new Error('no fake session');
    const hook = checkoutSessionEvent('checkout.session.completed', session);
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload: hook.payload,
      secret: WEBHOOK_SECRET,
    });
    for (let i = 0; i < 3; i++) {
      const res = await app.request('/api/webhooks/stripe', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature },
        body: hook.payload,
      });
      expect(res.status).toBe(200);
    }
    const issued = await receiptsOfPayment(paymentId);
    expect(issued).toHaveLength(1);
    expect(issued[0]).toMatchObject({
      number: number(3),
      method: 'stripe',
      amount: 3000n,
      description: 'Recarga con tarjeta',
    });
    expect(await balances(t.database.db, who.id)).toEqual({ available: 3000n, held: 0n });
  });

  it('numbers 20 concurrent credits in order with no gaps; a rolled-back credit takes no number', async () => {
    const who = await customer('Ana Gómez');
    const before = await lastSeq();

    const rolledBack = await pending(who.id);
    await expect(
      t.database.db.transaction(async (tx) => {
        await completePayment(tx, rolledBack);
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await lastSeq()).toBe(before);
    expect(await receiptsOfPayment(rolledBack)).toEqual([]);
    const [still] = await t.database.db.select().from(payment).where(eq(payment.id, rolledBack));
    expect(still?.status).toBe('pending');

    const ids = await Promise.all(Array.from({ length: 20 }, () => pending(who.id)));
    const results = await Promise.all(ids.map((id) => credit(id)));
    expect(results.every((r) => r.credited)).toBe(true);
    // And the one that rolled back, credited now, takes the next number.
    await credit(rolledBack);

    const rows = await t.database.db
      .select({ seq: receipt.seq, number: receipt.number, paymentId: receipt.paymentId })
      .from(receipt)
      .where(eq(receipt.userId, who.id))
      .orderBy(receipt.seq);
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 21 }, (_, i) => before + 1 + i));
    expect(rows.map((r) => r.number)).toEqual(rows.map((r) => number(r.seq)));
    expect(new Set(rows.map((r) => r.paymentId)).size).toBe(21);
    expect(rows.at(-1)?.paymentId).toBe(rolledBack);
    expect(await lastSeq()).toBe(before + 21);
    expect((await verifyLedger(t.database.db)).problems).toEqual([]);

    // Keyset pages of 50 would hold them all; the list is newest first.
    const list = (await (await who.client.get('/api/receipts')).json()) as ReceiptList;
    expect(list.items.map((r) => r.number)).toEqual(rows.map((r) => r.number).reverse());
  });

  it('renders the PDF in Spanish with the number, both parties, the amounts and accents intact', async () => {
    const who = await customer('José Muñoz');
    const id = await pending(who.id, {
      method: 'mercadopago',
      amount: 2500n,
      fee: 125n,
      chargedAmount: 1045550n,
      chargedCurrency: 'ARS',
    });
    await credit(id);
    const [issued] = await receiptsOfPayment(id);

    const { res, bytes } = await pdfOf(who.client, `/api/receipts/${issued!.id}/pdf`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toMatch(
      new RegExp(`^attachment; filename="${issued!.number}\\.pdf"`),
    );
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');

    const text = pdfText(bytes);
    for (const part of [
      'Recibo',
      issued!.number,
      `Fecha de emisión: ${issued!.issuedAt.toISOString().slice(8, 10)}/${issued!.issuedAt.toISOString().slice(5, 7)}/${YEAR}`,
      SHOP.shopName,
      `Identificación fiscal: ${SHOP.shopTaxId}`,
      SHOP.shopAddress,
      'José Muñoz',
      who.email,
      'Concepto',
      'Recarga con Mercado Pago',
      'Mercado Pago',
      'Importe acreditado',
      'US$25.00',
      'Comisión',
      'US$1.25',
      'Total pagado',
      'US$26.25',
      'Cobrado: 10,455.50 ARS',
      'Saldo prepago acreditado en dólares estadounidenses (USD).',
    ])
      expect(text).toContain(part);

    // The same receipt renders the same bytes; the admin's copy is the same file.
    const again = await pdfOf(who.client, `/api/receipts/${issued!.id}/pdf`);
    expect(again.bytes.equals(bytes)).toBe(true);
    const staffCopy = await pdfOf(finance, `/api/admin/receipts/${issued!.id}/pdf`);
    expect(staffCopy.res.status).toBe(200);
    expect(staffCopy.bytes.equals(bytes)).toBe(true);
  });

  it('falls back to the app name without shop details, shows no charge line in USD, renders fast', async () => {
    const row = {
      id: randomUUID(),
      number: 'R-2026-000123',
      year: 2026,
      seq: 123,
      paymentId: randomUUID(),
      transferId: randomUUID(),
      userId: 'u1',
      method: 'paypal',
      amount: 123456n,
      fee: 0n,
      chargedAmount: 123456n,
      chargedCurrency: 'USD',
      description: 'Recarga con PayPal',
      customer: { name: 'Íñigo «Piñón» Álvarez', email: 'inigo@example.com' },
      shop: { name: '', taxId: '', address: '' },
      issuedAt: new Date('2026-01-09T23:59:59Z'),
    };
    const started = performance.now();
    const pdf = await renderReceiptPdf(row, { appName: 'Cometa' });
    const elapsed = performance.now() - started;
    const text = pdfText(pdf);
    expect(text).toContain('Cometa');
    expect(text).not.toContain('Identificación fiscal');
    expect(text).toContain('Fecha de emisión: 09/01/2026');
    expect(text).toContain('Íñigo «Piñón» Álvarez');
    expect(text).toContain('PayPal');
    expect(text).toContain('US$1,234.56');
    expect(text).not.toContain('Cobrado');
    expect(elapsed).toBeLessThan(200);
    const warm = performance.now();
    await renderReceiptPdf(row, { appName: 'Cometa' });
    expect(performance.now() - warm).toBeLessThan(50);
  });

  it('gives a receipt only to its owner: another customer, an unknown or malformed id get 404', async () => {
    const owner = await customer('Dueña Recibo');
    const other = await customer('Otro Cliente');
    const id = await pending(owner.id);
    await credit(id);
    const [issued] = await receiptsOfPayment(id);

    const theirs = await other.client.get(`/api/receipts/${issued!.id}/pdf`);
    expect(theirs.status).toBe(404);
    const theirsBody = (await theirs.json()) as { code: string; message: string };
    expect(theirsBody.code).toBe('NOT_FOUND');
    const unknown = await owner.client.get(`/api/receipts/${randomUUID()}/pdf`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual(theirsBody);
    expect((await owner.client.get('/api/receipts/not-a-uuid/pdf')).status).toBe(404);
    // Staff read it through the back office, not through the customer's route.
    expect((await finance.get(`/api/receipts/${issued!.id}/pdf`)).status).toBe(404);
    expect(((await (await other.client.get('/api/receipts')).json()) as ReceiptList).items).toEqual(
      [],
    );

    const anonymous = t.client();
    expect((await anonymous.get('/api/receipts')).status).toBe(401);
    expect((await anonymous.get(`/api/receipts/${issued!.id}/pdf`)).status).toBe(401);
    expect((await anonymous.get('/api/admin/receipts')).status).toBe(401);

    expect((await support.get('/api/admin/receipts')).status).toBe(403);
    expect((await support.get(`/api/admin/receipts/${issued!.id}/pdf`)).status).toBe(403);
    expect((await owner.client.get('/api/admin/receipts')).status).toBe(403);
    expect((await finance.get(`/api/admin/receipts/${issued!.id}/pdf`)).status).toBe(200);
    expect((await admin.get(`/api/admin/receipts/${issued!.id}/pdf`)).status).toBe(200);
    expect((await finance.get(`/api/admin/receipts/${randomUUID()}/pdf`)).status).toBe(404);
  });

  it('lists every receipt of a range for finance, and exports it as CSV', async () => {
    const who = await customer('=HYPERLINK("x"), Pérez');
    const id = await pending(who.id, { method: 'crypto', amount: 1000n, fee: 50n });
    await credit(id);
    const [issued] = await receiptsOfPayment(id);
    // Enough receipts for two pages.
    const more = await Promise.all(
      Array.from({ length: 30 }, () => pending(who.id, { amount: 100n, fee: 0n })),
    );
    for (const m of more) await credit(m);
    // One receipt moved to an earlier day (for this test only: receipts never change, so the
    // append-only trigger is switched off around the one UPDATE).
    const old = await pending(who.id, { method: 'paypal', amount: 700n, fee: 0n });
    await credit(old);
    const [oldReceipt] = await receiptsOfPayment(old);
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`ALTER TABLE receipt DISABLE TRIGGER receipt_append_only`);
      await tx
        .update(receipt)
        .set({ issuedAt: new Date('2025-03-10T23:59:59.500Z') })
        .where(eq(receipt.id, oldReceipt!.id));
      await tx.execute(sql`ALTER TABLE receipt ENABLE TRIGGER receipt_append_only`);
    });
    const onDay = async (from: string, to: string) =>
      (
        (await (
          await finance.get(`/api/admin/receipts?from=${from}&to=${to}`)
        ).json()) as ReceiptList
      ).items.map((r) => r.id);
    expect(await onDay('2025-03-10', '2025-03-10')).toEqual([oldReceipt!.id]);
    expect(await onDay('2025-03-01', '2025-03-09')).toEqual([]);
    expect(await onDay('2025-03-11', '2025-03-31')).toEqual([]);
    const oldCsv = await (
      await finance.get('/api/admin/receipts?from=2025-03-10&to=2025-03-10&format=csv')
    ).text();
    expect(oldCsv.split('\r\n')).toEqual([
      expect.stringMatching(/^número,/),
      expect.stringMatching(new RegExp(`^${oldReceipt!.number},2025-03-10T23:59:59\\.500Z,`)),
      '',
    ]);

    const all = (await (
      await finance.get(`/api/admin/receipts?from=${TODAY}&to=${TODAY}`)
    ).json()) as ReceiptList;
    // Every receipt but the back-dated one was issued today.
    const count = (await lastSeq()) - 1;
    expect(count).toBeGreaterThan(50);
    expect(all.items).toHaveLength(50);
    expect(all.items[0]?.number).toBe(number((await lastSeq()) - 1));
    expect(all.nextCursor).not.toBeNull();
    const second = (await (
      await finance.get(`/api/admin/receipts?from=${TODAY}&to=${TODAY}&cursor=${all.nextCursor}`)
    ).json()) as ReceiptList;
    const seen = [...all.items, ...second.items].map((r) => r.number);
    expect(new Set(seen).size).toBe(count);
    expect(second.nextCursor).toBeNull();

    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const none = (await (
      await finance.get(`/api/admin/receipts?from=${yesterday}&to=${yesterday}`)
    ).json()) as ReceiptList;
    expect(none).toEqual({ items: [], nextCursor: null });
    const later = (await (
      await finance.get(`/api/admin/receipts?from=${tomorrow}&to=${tomorrow}`)
    ).json()) as ReceiptList;
    expect(later.items).toEqual([]);

    const csv = await finance.get(`/api/admin/receipts?from=${yesterday}&to=${TODAY}&format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe(
      `attachment; filename="recibos-${yesterday}-${TODAY}.csv"`,
    );
    const text = await csv.text();
    const lines = text.split('\r\n');
    expect(text.endsWith('\r\n')).toBe(true);
    expect(lines[0]).toBe(
      'número,fecha,cliente,correo,método,concepto,importe,comisión,total,importe cobrado,moneda cobrada,id de pago',
    );
    expect(lines).toHaveLength(count + 2);
    expect(text.includes(oldReceipt!.number)).toBe(false);
    // Oldest first, every receipt, no pages.
    expect(lines[1]?.startsWith(`${number(1)},`)).toBe(true);
    const line = lines.find((l) => l.startsWith(`${issued!.number},`));
    expect(line).toBe(
      [
        issued!.number,
        issued!.issuedAt.toISOString(),
        // A name that would start a formula is quoted and defused.
        `"'=HYPERLINK(""x""), Pérez"`,
        who.email,
        'Criptomonedas',
        'Recarga con criptomonedas',
        '10.00',
        '0.50',
        '10.50',
        '',
        '',
        id,
      ].join(','),
    );
    const mp = lines.find((l) => l.includes(',Recarga con Mercado Pago,'));
    expect(mp).toMatch(/,25\.00,1\.25,26\.25,10455\.50,ARS,[0-9a-f-]{36}$/);

    const empty = await finance.get('/api/admin/receipts?from=2020-01-01&to=2020-01-31&format=csv');
    expect(await empty.text()).toBe(`${lines[0]}\r\n`);

    // Impossible days, a reversed range and a bad cursor are refused per field.
    const bad = await finance.get('/api/admin/receipts?from=2026-02-30&to=2026-13-01');
    expect(bad.status).toBe(400);
    const DAY = 'La fecha no es válida: usa el formato AAAA-MM-DD (por ejemplo 2026-05-01).';
    expect(await bad.json()).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'Revisa los campos marcados.',
      fields: { from: DAY, to: DAY },
    });
    const reversed = await finance.get('/api/admin/receipts?from=2026-05-02&to=2026-05-01');
    expect(reversed.status).toBe(400);
    expect(((await reversed.json()) as { fields: unknown }).fields).toEqual({
      to: 'La fecha final no puede ser anterior a la inicial.',
    });
    expect((await finance.get('/api/admin/receipts?cursor=zzz')).status).toBe(400);
    expect((await finance.get('/api/admin/receipts?format=xml')).status).toBe(400);
    // Without dates: this month up to today.
    const month = (await (await admin.get('/api/admin/receipts')).json()) as ReceiptList;
    expect(month.items.length).toBe(50);
  });

  it('keeps receipts append-only: UPDATE and DELETE are refused', async () => {
    const [row] = await t.database.db.select().from(receipt).limit(1);
    await expect(
      t.database.db.update(receipt).set({ amount: 1n }).where(eq(receipt.id, row!.id)),
    ).rejects.toThrow();
    await expect(t.database.db.delete(receipt).where(eq(receipt.id, row!.id))).rejects.toThrow();
    await expect(
      t.database.db.delete(receiptCounter).where(eq(receiptCounter.year, YEAR)),
    ).rejects.toThrow();
    const [after] = await t.database.db.select().from(receipt).where(eq(receipt.id, row!.id));
    expect(after).toEqual(row);
  });

  it('leaves the ledger consistent', async () => {
    expect((await verifyLedger(t.database.db)).problems).toEqual([]);
  });
});

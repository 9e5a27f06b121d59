import { serve, type ServerType } from '@hono/node-server';
import { and, eq, like, sql } from 'drizzle-orm';
import { type Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_MESSAGES } from '../../../../shared/error-codes';
import { CryptoTopupSchema } from '../../../../shared/schemas/payments';
import { imeiFor } from '../../../../tests/setup/imei';
import {
  TEST_ORIGIN,
  createTestApp,
  registerVerified,
  userIdOf,
  type TestApp,
  type TestClient,
} from '../../../../tests/setup/test-app';
import { dbTargets } from '../../../../tests/setup/test-db';
import { service } from '../../../db/schema/catalogue';
import { ledgerTransfer } from '../../../db/schema/ledger';
import {
  accountFlag,
  gatewaySetting,
  payment,
  processedEvent,
  receipt,
} from '../../../db/schema/payments';
import type { AppEnv } from '../../../lib/http';
import type { MailMessage, Mailer } from '../../../lib/mail';
import { balances } from '../../ledger/ledger.service';
import { verifyLedger } from '../../ledger/ledger.verify';
import type { NowPaymentsConfig } from '../gateway-config';
import {
  startFakeNowPayments,
  type FakeIpnOptions,
  type FakeNowPayments,
} from './fake-nowpayments';

const BAD_SIGNATURE = { code: 'BAD_REQUEST', message: 'Firma del aviso de NOWPayments no válida.' };

describe.each(dbTargets())('crypto top-ups with NOWPayments on %s', (target) => {
  let t: TestApp;
  let fake: FakeNowPayments;
  let config: NowPaymentsConfig;
  let app: ReturnType<TestApp['appWith']>;
  let serviceId: string;
  const mails: MailMessage[] = [];
  const recordingMailer: Mailer = {
    kind: 'outbox',
    async send(message) {
      mails.push(message);
    },
  };

  function buildApp(nowpayments: NowPaymentsConfig | null, env: Partial<TestApp['env']> = {}) {
    return t.appWith({ env: { ...t.env, ...env, nowpayments }, mailer: recordingMailer });
  }

  beforeAll(async () => {
    t = await createTestApp(target);
    fake = await startFakeNowPayments({ ipnSecret: 'np-ipn-secret-for-tests' });
    config = { apiKey: fake.apiKey, ipnSecret: fake.ipnSecret, apiBase: fake.baseUrl };
    app = buildApp(config);
    // 2.90 % on top: US$25.00 costs US$25.73.
    await t.database.db.insert(gatewaySetting).values({
      method: 'crypto',
      feePercentBp: 290,
      feeFixed: 0n,
      minAmount: 500n,
      maxAmount: 100_000n,
    });
    const [svc] = await t.database.db
      .insert(service)
      .values({
        category: 'IMEI',
        name: 'Consulta de operador',
        description: 'Operador y bloqueo.',
        deliveryTime: '1–24 horas',
        price: 2000n,
        fields: [{ key: 'imei', label: 'IMEI', type: 'imei', required: true, identifier: true }],
      })
      .returning({ id: service.id });
    serviceId = svc!.id;
  });

  afterAll(async () => {
    await fake?.close();
    await t?.close();
  });

  function cookiesOf(client: TestClient | null): Record<string, string> {
    return client?.cookies.size
      ? { Cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') }
      : {};
  }

  async function call(
    server: Hono<AppEnv>,
    client: TestClient | null,
    path: string,
    body?: unknown,
  ): Promise<Response> {
    return server.request(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...cookiesOf(client) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  async function customer() {
    const { client, email } = await registerVerified(t, 'Lucía Gómez');
    return { client, email, id: await userIdOf(t, email) };
  }

  async function paymentRow(id: string) {
    const [row] = await t.database.db.select().from(payment).where(eq(payment.id, id));
    if (!row) throw new Error(`payment ${id} not found`);
    return row;
  }

  /** A customer with a pending crypto top-up of US$25.00 (+ US$0.73 fee) and its invoice. */
  async function pendingTopup(amount = '25.00', server = app) {
    const who = await customer();
    const res = await call(server, who.client, '/api/payments/crypto', { amount });
    expect(res.status).toBe(201);
    const { id } = CryptoTopupSchema.parse(await res.json());
    const row = await paymentRow(id);
    const invoice = fake.invoices.get(row.providerRef ?? '');
    if (!invoice) throw new Error('no fake invoice for the payment');
    return { ...who, paymentId: id, invoiceId: invoice.id, invoice };
  }

  async function deliver(
    body: string,
    signature: string | null,
    server = app,
    header = 'x-nowpayments-sig',
  ): Promise<Response> {
    return server.request('/api/webhooks/nowpayments', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        ...(signature === null ? {} : { [header]: signature }),
      },
      body,
    });
  }

  async function ipn(invoiceId: string, options: FakeIpnOptions): Promise<Response> {
    const signed = fake.ipn(invoiceId, options);
    return deliver(signed.body, signed.signature);
  }

  async function transfersOf(paymentId: string) {
    return t.database.db
      .select()
      .from(ledgerTransfer)
      .where(like(ledgerTransfer.idempotencyKey, `payment:${paymentId}%`));
  }

  async function receiptsOf(paymentId: string) {
    return t.database.db.select().from(receipt).where(eq(receipt.paymentId, paymentId));
  }

  async function eventsOf(paymentId: string) {
    return t.database.db
      .select()
      .from(processedEvent)
      .where(
        and(eq(processedEvent.paymentId, paymentId), eq(processedEvent.provider, 'nowpayments')),
      );
  }

  async function waitForMail(to: string, count = 1): Promise<MailMessage[]> {
    const deadline = Date.now() + 5000;
    for (;;) {
      const found = mails.filter((m) => m.to === to);
      if (found.length >= count) return found;
      if (Date.now() > deadline) throw new Error(`no e-mail to ${to}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it('creates an invoice for the amount plus the fee: 201 { id, invoiceUrl }, a pending payment, no credit', async () => {
    const who = await customer();
    const before = fake.requests.length;
    const res = await call(app, who.client, '/api/payments/crypto', {
      amount: '25.00',
      payCurrency: 'USDTTRC20',
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { id: string; invoiceUrl: string };
    expect(Object.keys(body).sort()).toEqual(['id', 'invoiceUrl']);
    expect(CryptoTopupSchema.safeParse(body).success).toBe(true);

    expect(fake.requests.length).toBe(before + 1);
    const sent = fake.requests[before]!;
    expect(sent).toMatchObject({ method: 'POST', path: '/v1/invoice', apiKey: fake.apiKey });
    expect(sent.body).toEqual({
      price_amount: 25.73,
      price_currency: 'usd',
      pay_currency: 'usdttrc20',
      order_id: body.id,
      order_description: 'Recarga de saldo',
      ipn_callback_url: `${TEST_ORIGIN}/api/webhooks/nowpayments`,
      success_url: `${TEST_ORIGIN}/addfunds?pago=cripto&id=${body.id}`,
      cancel_url: `${TEST_ORIGIN}/addfunds?pago=cancelado`,
    });

    const row = await paymentRow(body.id);
    expect(row).toMatchObject({
      userId: who.id,
      method: 'crypto',
      status: 'pending',
      amount: 2500n,
      fee: 73n,
      transferId: null,
      checkoutUrl: body.invoiceUrl,
    });
    expect(body.invoiceUrl).toBe(`${fake.baseUrl}/payment/?iid=${row.providerRef}`);
    expect(fake.invoices.get(row.providerRef ?? '')?.price_amount).toBe('25.73');
    expect(await balances(t.database.db, who.id)).toEqual({ available: 0n, held: 0n });

    // Without a coin, the customer chooses it on the invoice.
    const plain = await call(app, who.client, '/api/payments/crypto', { amount: '10' });
    expect(plain.status).toBe(201);
    expect(fake.requests.at(-1)?.body).not.toHaveProperty('pay_currency');
    expect(fake.requests.at(-1)?.body).toMatchObject({ price_amount: 10.29 });
  });

  it.each([
    [{ amount: '4.99' }, { amount: 'El mínimo con criptomonedas es US$5.00.' }],
    [{ amount: '1000.01' }, { amount: 'El máximo con criptomonedas es US$1,000.00.' }],
    [
      { amount: '12.345' },
      { amount: 'Escribe un importe válido, con hasta dos decimales (por ejemplo 25.50).' },
    ],
    [{ amount: '0' }, { amount: 'El importe debe ser mayor que cero.' }],
    [{}, { amount: 'Escribe un importe.' }],
    [
      { amount: '10.00', payCurrency: 'usdt trc20' },
      { payCurrency: 'Elige una moneda válida (por ejemplo usdttrc20).' },
    ],
  ])('refuses %j with 400 and a Spanish field message', async (body, fields) => {
    const who = await customer();
    const before = fake.requests.length;
    const res = await call(app, who.client, '/api/payments/crypto', body);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: 'VALIDATION_FAILED',
      message: ERROR_MESSAGES.VALIDATION_FAILED,
      fields,
    });
    expect(fake.requests.length).toBe(before);
    expect(await t.database.db.select().from(payment).where(eq(payment.userId, who.id))).toEqual(
      [],
    );
  });

  it('requires a verified session and limits attempts per customer', async () => {
    expect((await call(app, null, '/api/payments/crypto', { amount: '10.00' })).status).toBe(401);
    const who = await customer();
    for (let i = 0; i < 10; i += 1)
      expect((await call(app, who.client, '/api/payments/crypto', { amount: '1.00' })).status).toBe(
        400,
      );
    const limited = await call(app, who.client, '/api/payments/crypto', { amount: '10.00' });
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({
      code: 'RATE_LIMITED',
      message: 'Has iniciado varios pagos seguidos. Espera unos minutos e inténtalo de nuevo.',
    });
  });

  it('answers 404 "not available" on both routes when NOWPayments is not configured', async () => {
    const who = await customer();
    const off = buildApp(null);
    const res = await call(off, who.client, '/api/payments/crypto', { amount: '10.00' });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      code: 'NOT_FOUND',
      message: 'El pago con criptomonedas no está disponible.',
    });
    const hook = await deliver('{"payment_status":"finished"}', 'ab'.repeat(64), off);
    expect(hook.status).toBe(404);
  });

  it('marks the payment expired and answers 500 in Spanish when NOWPayments fails or refuses the key', async () => {
    const who = await customer();
    fake.failNext();
    const failed = await call(app, who.client, '/api/payments/crypto', { amount: '40.00' });
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({
      code: 'INTERNAL',
      message: 'No pudimos iniciar el pago con criptomonedas. Inténtalo de nuevo.',
      requestId: failed.headers.get('x-request-id'),
    });
    const wrongKey = buildApp({ ...config, apiKey: 'NP-WRONG' });
    const refused = await call(wrongKey, who.client, '/api/payments/crypto', { amount: '40.00' });
    expect(refused.status).toBe(500);
    expect(fake.requests.at(-1)).toMatchObject({ apiKey: 'NP-WRONG' });
    const rows = await t.database.db.select().from(payment).where(eq(payment.userId, who.id));
    expect(rows.map((r) => [r.status, r.providerRef])).toEqual([
      ['expired', null],
      ['expired', null],
    ]);
  });

  it('credits once on finished, even with 10 deliveries at once and confirming arriving after', async () => {
    const { paymentId, invoiceId, id, email } = await pendingTopup();
    const confirming = fake.ipn(invoiceId, { status: 'confirming' });
    const finished = fake.ipn(invoiceId, { status: 'finished' });
    const waiting = fake.ipn(invoiceId, { status: 'waiting' });
    const batch = [...Array.from({ length: 10 }, () => finished), confirming, waiting, confirming];
    const answers = await Promise.all(batch.map((s) => deliver(s.body, s.signature)));
    expect(answers.map((r) => r.status)).toEqual(Array<number>(batch.length).fill(200));
    expect(await answers[0]!.json()).toEqual({ received: true });
    for (const late of [confirming, waiting, finished])
      expect((await deliver(late.body, late.signature)).status).toBe(200);

    expect(await balances(t.database.db, id)).toEqual({ available: 2500n, held: 0n });
    const row = await paymentRow(paymentId);
    expect(row).toMatchObject({ status: 'completed', amount: 2500n, fee: 73n, note: null });
    expect(row.providerStatus).toBe('finished');
    expect(row.providerPaymentId).toBe(String(fake.invoices.get(invoiceId)?.paymentId));
    const transfers = await transfersOf(paymentId);
    expect(transfers).toHaveLength(1);
    expect(transfers[0]).toMatchObject({ amount: 2500n, kind: 'topup_crypto' });
    expect(row.transferId).toBe(transfers[0]?.id);
    const receipts = await receiptsOf(paymentId);
    expect(receipts).toHaveLength(1);
    expect(receipts[0]).toMatchObject({ amount: 2500n, fee: 73n, method: 'crypto' });
    expect((await eventsOf(paymentId)).map((e) => e.eventId.split(':')[2]).sort()).toEqual([
      'confirming',
      'finished',
      'waiting',
    ]);

    const [mail] = await waitForMail(email);
    expect(mail?.subject).toBe('Recarga acreditada en Cometa');
    expect(mail?.text).toContain(
      'Recibimos tu pago en criptomonedas y acreditamos US$25.00 en tu saldo.',
    );
  });

  it('records the progress without crediting, keeping the furthest status', async () => {
    const { paymentId, invoiceId, id } = await pendingTopup('10.00');
    for (const status of ['waiting', 'confirming', 'confirmed', 'sending'] as const)
      expect((await ipn(invoiceId, { status })).status).toBe(200);
    expect((await ipn(invoiceId, { status: 'confirming' })).status).toBe(200);
    const row = await paymentRow(paymentId);
    expect(row).toMatchObject({ status: 'pending', providerStatus: 'sending' });
    expect(row.providerPaymentId).toMatch(/^\d+$/);
    expect(await balances(t.database.db, id)).toEqual({ available: 0n, held: 0n });
  });

  it('refuses a forged, tampered or unsigned IPN with 400 and changes nothing', async () => {
    const { paymentId, invoiceId, id } = await pendingTopup();
    const good = fake.ipn(invoiceId, { status: 'finished' });
    const other = await startFakeNowPayments({ ipnSecret: 'someone-else' });
    try {
      const cases: [string, string | null][] = [
        [good.body, null],
        [good.body, ''],
        [good.body, 'garbage'],
        [good.body, good.signature.slice(0, 100)],
        [
          good.body.replace('"actually_paid":25.794325', '"actually_paid":257.94325'),
          good.signature,
        ],
        [good.body.replace('"price_currency":"usd"', '"price_currency":"USD"'), good.signature],
        [good.body.replace(/"depositFee":0/, '"depositFee":1'), good.signature],
        ['not json', good.signature],
      ];
      // The same invoice signed with another secret.
      other.invoices.set(invoiceId, { ...fake.invoices.get(invoiceId)! });
      const forged = other.ipn(invoiceId, { status: 'finished' });
      cases.push([forged.body, forged.signature]);
      for (const [body, signature] of cases) {
        expect(body === good.body && signature === good.signature).toBe(false);
        const res = await deliver(body, signature);
        expect(res.status, `${body.slice(0, 40)} / ${signature}`).toBe(400);
        expect(await res.json()).toEqual(BAD_SIGNATURE);
      }
    } finally {
      await other.close();
    }
    expect(await paymentRow(paymentId)).toMatchObject({ status: 'pending', providerStatus: null });
    expect(await balances(t.database.db, id)).toEqual({ available: 0n, held: 0n });
    expect(await eventsOf(paymentId)).toEqual([]);
    // The genuine one, with the header in capitals and the hex in upper case, credits.
    const ok = await deliver(good.body, good.signature.toUpperCase(), app, 'X-NOWPAYMENTS-SIG');
    expect(ok.status).toBe(200);
    expect(await balances(t.database.db, id)).toEqual({ available: 2500n, held: 0n });
  });

  it('credits the share of a partial payment and says so; the rest credits the difference once', async () => {
    const { paymentId, invoiceId, id, email } = await pendingTopup();
    const partial = fake.ipn(invoiceId, { status: 'partially_paid', actuallyPaid: '12.9' });
    expect((await deliver(partial.body, partial.signature)).status).toBe(200);
    let row = await paymentRow(paymentId);
    expect(row).toMatchObject({
      status: 'completed',
      amount: 1250n,
      providerStatus: 'partially_paid',
    });
    expect(row.note).toBe(
      'Pago parcial: llegaron 12.9 de 25.794325 USDTTRC20; acreditamos US$12.50 de US$25.00.',
    );
    expect(await balances(t.database.db, id)).toEqual({ available: 1250n, held: 0n });
    const [first] = await waitForMail(email);
    expect(first?.subject).toBe('Pago parcial acreditado en Cometa');
    expect(first?.text).toContain('acreditamos lo que llegó: US$12.50 en tu saldo.');
    expect(first?.text).toContain('llegaron 12.9 de 25.794325 USDTTRC20');

    // The customer pays the rest: finished with the whole amount, delivered 5 times at once.
    const finished = fake.ipn(invoiceId, { status: 'finished' });
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => deliver(finished.body, finished.signature)),
    );
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    // A late copy of the partial one changes nothing either.
    expect((await deliver(partial.body, partial.signature)).status).toBe(200);

    row = await paymentRow(paymentId);
    expect(row).toMatchObject({ status: 'completed', amount: 2500n, providerStatus: 'finished' });
    expect(row.note).toBe(
      'Pago completado en varias partes: llegaron 25.794325 de 25.794325 USDTTRC20; acreditamos US$25.00.',
    );
    expect(await balances(t.database.db, id)).toEqual({ available: 2500n, held: 0n });
    const transfers = await transfersOf(paymentId);
    expect(transfers.map((tr) => tr.amount).sort()).toEqual([1250n, 1250n]);
    expect(transfers.every((tr) => tr.kind === 'topup_crypto')).toBe(true);
    const receipts = await receiptsOf(paymentId);
    expect(receipts.map((r) => r.amount).sort()).toEqual([1250n, 1250n]);
    expect(new Set(receipts.map((r) => r.number)).size).toBe(2);
    const second = (await waitForMail(email, 2))[1];
    expect(second?.text).toContain('acreditamos US$12.50 más en tu saldo');
  });

  it('credits what arrived when the customer pays more, and says so', async () => {
    const { paymentId, invoiceId, id } = await pendingTopup();
    expect((await ipn(invoiceId, { status: 'finished', actuallyPaid: 30 })).status).toBe(200);
    const row = await paymentRow(paymentId);
    expect(row).toMatchObject({ status: 'completed', amount: 2907n });
    expect(row.note).toBe(
      'Pagaste de más: llegaron 30 de 25.794325 USDTTRC20; acreditamos US$29.07 en lugar de US$25.00.',
    );
    expect(await balances(t.database.db, id)).toEqual({ available: 2907n, held: 0n });
    expect((await receiptsOf(paymentId)).map((r) => r.amount)).toEqual([2907n]);
  });

  it('a finished payment out of order after its partial one: credited once in full, the partial ignored', async () => {
    const { paymentId, invoiceId, id } = await pendingTopup();
    const partial = fake.ipn(invoiceId, { status: 'partially_paid' });
    const finished = fake.ipn(invoiceId, { status: 'finished' });
    expect((await deliver(finished.body, finished.signature)).status).toBe(200);
    expect((await deliver(partial.body, partial.signature)).status).toBe(200);
    expect(await paymentRow(paymentId)).toMatchObject({
      amount: 2500n,
      providerStatus: 'finished',
    });
    expect(await balances(t.database.db, id)).toEqual({ available: 2500n, held: 0n });
    expect(await transfersOf(paymentId)).toHaveLength(1);
  });

  it('does not credit dust, and notes it', async () => {
    const { paymentId, invoiceId, id } = await pendingTopup();
    expect(
      (await ipn(invoiceId, { status: 'partially_paid', actuallyPaid: '0.000001' })).status,
    ).toBe(200);
    const row = await paymentRow(paymentId);
    expect(row).toMatchObject({ status: 'pending', amount: 2500n, transferId: null });
    expect(row.note).toBe(
      'Llegaron 0.000001 de 25.794325 USDTTRC20: es menos de un centavo de dólar y no se pudo acreditar.',
    );
    expect(await balances(t.database.db, id)).toEqual({ available: 0n, held: 0n });
    // The rest arrives later: the invoice is credited in full.
    expect((await ipn(invoiceId, { status: 'finished' })).status).toBe(200);
    expect(await balances(t.database.db, id)).toEqual({ available: 2500n, held: 0n });
  });

  it('ignores an IPN whose price is not the payment total or not in USD, and one for a payment not ours', async () => {
    const { paymentId, invoiceId, id } = await pendingTopup();
    for (const overrides of [
      { price_amount: 2573 },
      { price_amount: 25.72 },
      { price_currency: 'eur' },
    ]) {
      const res = await ipn(invoiceId, { status: 'finished', overrides });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ received: true });
    }
    const stranger = await ipn(invoiceId, {
      status: 'finished',
      overrides: { order_id: '00000000-0000-4000-8000-000000000000', invoice_id: 1 },
    });
    expect(stranger.status).toBe(200);
    expect(await paymentRow(paymentId)).toMatchObject({ status: 'pending', providerStatus: null });
    expect(await balances(t.database.db, id)).toEqual({ available: 0n, held: 0n });
    expect(await eventsOf(paymentId)).toEqual([]);
    // Found by the invoice id alone when order_id is missing.
    const byInvoice = await ipn(invoiceId, { status: 'finished', overrides: { order_id: null } });
    expect(byInvoice.status).toBe(200);
    expect(await balances(t.database.db, id)).toEqual({ available: 2500n, held: 0n });
  });

  it('expires the payment on expired or failed, and never credits it after', async () => {
    const first = await pendingTopup();
    expect((await ipn(first.invoiceId, { status: 'expired' })).status).toBe(200);
    expect(await paymentRow(first.paymentId)).toMatchObject({
      status: 'expired',
      providerStatus: 'expired',
    });
    expect((await ipn(first.invoiceId, { status: 'finished' })).status).toBe(200);
    expect(await paymentRow(first.paymentId)).toMatchObject({ status: 'expired' });
    expect(await balances(t.database.db, first.id)).toEqual({ available: 0n, held: 0n });

    const second = await pendingTopup();
    expect((await ipn(second.invoiceId, { status: 'failed' })).status).toBe(200);
    expect(await paymentRow(second.paymentId)).toMatchObject({
      status: 'expired',
      providerStatus: 'failed',
    });
  });

  it('debits a refunded payment past zero, flags the account and blocks its orders', async () => {
    const { paymentId, invoiceId, id, client } = await pendingTopup();
    expect((await ipn(invoiceId, { status: 'finished' })).status).toBe(200);
    const ordered = await client.post('/api/orders', { serviceId, fields: { imei: imeiFor(1) } });
    expect(ordered.status).toBe(201);
    expect(await balances(t.database.db, id)).toEqual({ available: 500n, held: 2000n });

    const refunded = fake.ipn(invoiceId, { status: 'refunded' });
    for (let i = 0; i < 3; i += 1)
      expect((await deliver(refunded.body, refunded.signature)).status).toBe(200);
    expect(await balances(t.database.db, id)).toEqual({ available: -2000n, held: 2000n });
    const row = await paymentRow(paymentId);
    expect(row).toMatchObject({
      status: 'reversed',
      reversedAmount: 2500n,
      providerStatus: 'refunded',
      rejectReason: 'Pago en criptomonedas reembolsado',
    });
    const reversals = await t.database.db
      .select()
      .from(ledgerTransfer)
      .where(like(ledgerTransfer.idempotencyKey, `reversal:${paymentId}:%`));
    expect(reversals).toHaveLength(1);
    expect(reversals[0]).toMatchObject({ amount: 2500n, kind: 'topup_reversal' });
    expect(
      await t.database.db.select().from(accountFlag).where(eq(accountFlag.userId, id)),
    ).toMatchObject([{ paymentId, reason: 'Pago en criptomonedas reembolsado', clearedAt: null }]);

    const blocked = await client.post('/api/orders', { serviceId, fields: { imei: imeiFor(2) } });
    expect(blocked.status).toBe(403);
    expect(((await blocked.json()) as { code: string }).code).toBe('ACCOUNT_BLOCKED');
    // A late finished does not credit it again.
    expect((await ipn(invoiceId, { status: 'finished', actuallyPaid: 30 })).status).toBe(200);
    expect(await balances(t.database.db, id)).toEqual({ available: -2000n, held: 2000n });
  });

  it('pays through the fake invoice page: IPNs to the shop, then back to the success or cancel page', async () => {
    // The shop on a real port, so the fake can post its IPNs to APP_URL/api/webhooks/nowpayments.
    let server: ServerType | undefined;
    let served: ReturnType<typeof buildApp> | null = null;
    try {
      const listening = await new Promise<string>((resolve) => {
        server = serve(
          {
            fetch: (req, env) =>
              served ? served.fetch(req, env) : new Response(null, { status: 503 }),
            port: 0,
            hostname: '127.0.0.1',
          },
          (info: AddressInfo) => resolve(`http://127.0.0.1:${info.port}`),
        );
      });
      served = buildApp(config, { APP_URL: listening });
      const full = await pendingTopup('25.00', served);
      const page = await fetch(full.invoice.invoice_url);
      expect(page.status).toBe(200);
      const html = await page.text();
      for (const label of ['Pagar todo', 'Pagar una parte', 'Cancelar'])
        expect(html).toContain(label);
      expect(html).toContain('25.794325');

      const paid = await fetch(full.invoice.invoice_url, {
        method: 'POST',
        body: new URLSearchParams({ mode: 'full' }),
        redirect: 'manual',
      });
      expect(paid.status).toBe(303);
      expect(paid.headers.get('location')).toBe(
        `${listening}/addfunds?pago=cripto&id=${full.paymentId}`,
      );
      expect(await balances(t.database.db, full.id)).toEqual({ available: 2500n, held: 0n });
      expect(await paymentRow(full.paymentId)).toMatchObject({
        status: 'completed',
        providerStatus: 'finished',
      });

      const part = await pendingTopup('25.00', served);
      const half = await fetch(part.invoice.invoice_url, {
        method: 'POST',
        body: new URLSearchParams({ mode: 'part' }),
        redirect: 'manual',
      });
      expect(half.status).toBe(303);
      expect(await balances(t.database.db, part.id)).toEqual({ available: 1249n, held: 0n });
      expect((await paymentRow(part.paymentId)).note).toMatch(
        /^Pago parcial: llegaron 12\.897162 de 25\.794325/,
      );

      const cancel = await pendingTopup('25.00', served);
      const back = await fetch(cancel.invoice.invoice_url, {
        method: 'POST',
        body: new URLSearchParams({ mode: 'cancel' }),
        redirect: 'manual',
      });
      expect(back.status).toBe(303);
      expect(back.headers.get('location')).toBe(`${listening}/addfunds?pago=cancelado`);
      expect(await paymentRow(cancel.paymentId)).toMatchObject({ status: 'pending' });
    } finally {
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    }
  });

  it('answers 500 when the database fails, so NOWPayments retries, and credits on the retry', async () => {
    const { paymentId, invoiceId, id } = await pendingTopup();
    const finished = fake.ipn(invoiceId, { status: 'finished' });
    const db = t.database.db;
    await db.execute(
      sql.raw(
        `CREATE OR REPLACE FUNCTION np_test_fail() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'disk full'; END $$ LANGUAGE plpgsql`,
      ),
    );
    await db.execute(
      sql.raw(
        `CREATE TRIGGER np_test_fail BEFORE INSERT ON receipt FOR EACH ROW WHEN (NEW.payment_id = '${paymentId}') EXECUTE FUNCTION np_test_fail()`,
      ),
    );
    try {
      const res = await deliver(finished.body, finished.signature);
      expect(res.status).toBe(500);
    } finally {
      await db.execute(sql.raw('DROP TRIGGER np_test_fail ON receipt'));
    }
    // Nothing of it stayed: not the mark, not the status, not the credit.
    expect(await eventsOf(paymentId)).toEqual([]);
    expect(await paymentRow(paymentId)).toMatchObject({ status: 'pending', providerStatus: null });
    expect(await balances(t.database.db, id)).toEqual({ available: 0n, held: 0n });
    expect((await deliver(finished.body, finished.signature)).status).toBe(200);
    expect(await balances(t.database.db, id)).toEqual({ available: 2500n, held: 0n });
  });

  it('leaves the ledger consistent', async () => {
    const report = await verifyLedger(t.database.db);
    expect(report.problems).toEqual([]);
    expect(report.transfers).toBeGreaterThan(0);
  });
});

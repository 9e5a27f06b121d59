import { and, eq, like } from 'drizzle-orm';
import { type Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_MESSAGES } from '../../../../shared/error-codes';
import { ACCOUNT_BLOCKED_MESSAGE } from '../../../../shared/schemas/payments';
import type { ServiceField } from '../../../../shared/schemas/catalogue';
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
  paymentSettings,
  processedEvent,
  receipt,
} from '../../../db/schema/payments';
import type { AppEnv } from '../../../lib/http';
import type { MailMessage, Mailer } from '../../../lib/mail';
import { balances } from '../../ledger/ledger.service';
import { verifyLedger } from '../../ledger/ledger.verify';
import { gatewayConfigsFrom, type MercadoPagoConfig } from '../gateway-config';
import {
  startFakeMercadoPago,
  type FakeMercadoPago,
  type FakeNotification,
} from './fake-mercadopago';
import { mercadoPagoRate } from './mercadopago.service';
import { signatureHeader } from './mercadopago.signature';

const ACCESS_TOKEN = 'APP_USR-cometa-fake-token';
const WEBHOOK_SECRET = 'cometa-mp-webhook-secret';
const RATE = '1045.5';
const IMEI_FIELDS: ServiceField[] = [
  { key: 'imei', label: 'IMEI', type: 'imei', required: true, identifier: true },
];

describe.each(dbTargets())('Mercado Pago top-ups on %s', (target) => {
  let t: TestApp;
  let fake: FakeMercadoPago;
  let config: MercadoPagoConfig;
  let app: ReturnType<TestApp['appWith']>;
  let imeiService: string;
  let serial = 0;
  const mails: MailMessage[] = [];
  const recordingMailer: Mailer = {
    kind: 'outbox',
    async send(message) {
      mails.push(message);
    },
  };

  function buildApp(mercadopago: MercadoPagoConfig | null) {
    return t.appWith({ env: { ...t.env, mercadopago }, mailer: recordingMailer });
  }

  function pathOf(url: string): string {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  }

  beforeAll(async () => {
    t = await createTestApp(target);
    fake = await startFakeMercadoPago({ accessToken: ACCESS_TOKEN, webhookSecret: WEBHOOK_SECRET });
    const built = gatewayConfigsFrom({
      MERCADOPAGO_ACCESS_TOKEN: ACCESS_TOKEN,
      MERCADOPAGO_WEBHOOK_SECRET: WEBHOOK_SECRET,
      MERCADOPAGO_API_BASE: fake.baseUrl,
      MERCADOPAGO_CURRENCY: 'ARS',
    }).mercadopago;
    if (!built) throw new Error('mercadopago config expected');
    config = built;
    app = buildApp(config);
    // The fake's notifications go into the app in memory (notification_url is APP_URL's).
    fake.deliver = async (url, init) => app.request(pathOf(url), init);
    await t.database.db
      .update(paymentSettings)
      .set({ mercadopagoRate: RATE })
      .where(eq(paymentSettings.id, 1));
    // 5 % fee, limits US$5.00–US$500.00.
    await t.database.db.insert(gatewaySetting).values({
      method: 'mercadopago',
      feePercentBp: 500,
      feeFixed: 0n,
      minAmount: 500n,
      maxAmount: 50_000n,
    });
    const [row] = await t.database.db
      .insert(service)
      .values({
        category: 'IMEI',
        name: 'Consulta de operador',
        description: 'Operador y bloqueo.',
        deliveryTime: '1–24 horas',
        price: 50n,
        fields: IMEI_FIELDS,
      })
      .returning({ id: service.id });
    imeiService = row!.id;
  });

  afterAll(async () => {
    await fake?.close();
    await t?.close();
  });

  async function call(
    server: Hono<AppEnv>,
    client: TestClient | null,
    path: string,
    body?: unknown,
  ): Promise<Response> {
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      Origin: TEST_ORIGIN,
    };
    if (client?.cookies.size)
      headers.Cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    return server.request(path, {
      method: 'POST',
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  async function customer() {
    const { client, email } = await registerVerified(t, 'Martina Sosa');
    return { client, email, id: await userIdOf(t, email) };
  }

  async function paymentRow(id: string) {
    const [row] = await t.database.db.select().from(payment).where(eq(payment.id, id));
    if (!row) throw new Error(`payment ${id} not found`);
    return row;
  }

  /** A customer with a pending Mercado Pago top-up of `amount` and its preference. */
  async function pendingTopup(amount = '10.00') {
    const who = await customer();
    const res = await call(app, who.client, '/api/payments/mercadopago', { amount });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string; initPoint: string };
    const row = await paymentRow(id);
    const preference = fake.preferences.get(row.providerRef ?? '');
    if (!preference) throw new Error('no fake preference for the payment');
    return { ...who, paymentId: id, preference };
  }

  async function deliver(n: FakeNotification, server = app): Promise<Response> {
    return server.request(pathOf(n.url), { method: 'POST', headers: n.headers, body: n.body });
  }

  async function transfersOf(paymentId: string) {
    return t.database.db
      .select()
      .from(ledgerTransfer)
      .where(eq(ledgerTransfer.referenceId, paymentId));
  }

  async function eventsOf(mpPaymentId: string) {
    return t.database.db
      .select()
      .from(processedEvent)
      .where(like(processedEvent.eventId, `mercadopago:${mpPaymentId}:%`));
  }

  async function waitForMail(to: string): Promise<MailMessage> {
    const deadline = Date.now() + 5000;
    for (;;) {
      const found = mails.find((m) => m.to === to);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no e-mail to ${to}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  async function order(c: TestClient) {
    serial += 1;
    const res = await c.post('/api/orders', {
      serviceId: imeiService,
      fields: { imei: imeiFor(serial) },
    });
    return { status: res.status, body: (await res.json()) as { code?: string; message?: string } };
  }

  it('creates a preference for (amount + fee) × rate in ARS and a pending payment', async () => {
    const who = await customer();
    const before = fake.requests.length;
    const res = await call(app, who.client, '/api/payments/mercadopago', { amount: '10.00' });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { id: string; initPoint: string };
    expect(Object.keys(body).sort()).toEqual(['id', 'initPoint']);
    const row = await paymentRow(body.id);
    expect(body.initPoint).toBe(`${fake.baseUrl}/checkout/v1/redirect?pref_id=${row.providerRef}`);
    expect(row.providerRef).toMatch(/^\d+-[0-9a-f-]{36}$/);

    expect(fake.requests.length).toBe(before + 1);
    const sent = fake.requests[before]!;
    expect(sent).toMatchObject({
      method: 'POST',
      path: '/checkout/preferences',
      authorization: `Bearer ${ACCESS_TOKEN}`,
    });
    // 10.00 + 5 % = 10.50 USD × 1045.5 = 10977.75 ARS.
    expect(sent.body).toEqual({
      items: [
        {
          id: 'recarga',
          title: 'Recarga de saldo',
          quantity: 1,
          unit_price: 10977.75,
          currency_id: 'ARS',
        },
      ],
      external_reference: body.id,
      notification_url: `${TEST_ORIGIN}/api/webhooks/mercadopago`,
      back_urls: {
        success: `${TEST_ORIGIN}/addfunds?pago=mercadopago&id=${body.id}`,
        pending: `${TEST_ORIGIN}/addfunds?pago=mercadopago&id=${body.id}`,
        failure: `${TEST_ORIGIN}/addfunds?pago=cancelado`,
      },
      auto_return: 'approved',
    });
    expect(fake.preferences.get(row.providerRef!)?.idempotencyKey).toBe(body.id);
    expect(row).toMatchObject({
      userId: who.id,
      method: 'mercadopago',
      status: 'pending',
      amount: 1000n,
      fee: 50n,
      chargedAmount: 1097775n,
      chargedCurrency: 'ARS',
      exchangeRate: RATE,
      checkoutUrl: body.initPoint,
      transferId: null,
    });
    expect(await balances(t.database.db, who.id)).toEqual({ available: 0n, held: 0n });
  });

  it('rounds the charge up to a whole unit in CLP', async () => {
    const who = await customer();
    const clp = { ...config, currency: 'CLP' };
    const before = fake.requests.length;
    const res = await call(buildApp(clp), who.client, '/api/payments/mercadopago', {
      amount: '10.00',
    });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    // 10.50 × 1045.5 = 10977.75 → 10978 CLP.
    const sent = fake.requests[before]!.body as { items: { unit_price: number }[] };
    expect(sent.items[0]?.unit_price).toBe(10978);
    expect(await paymentRow(id)).toMatchObject({ chargedAmount: 1097800n, chargedCurrency: 'CLP' });
  });

  it('reads the admin’s rate, else MERCADOPAGO_RATE, else none', async () => {
    const db = t.database.db;
    expect(await mercadoPagoRate(db, { mercadopago: config })).toBe(RATE);
    expect(await mercadoPagoRate(db, { mercadopago: null })).toBeNull();
    await db
      .update(paymentSettings)
      .set({ mercadopagoRate: null })
      .where(eq(paymentSettings.id, 1));
    try {
      expect(await mercadoPagoRate(db, { mercadopago: config })).toBeNull();
      expect(await mercadoPagoRate(db, { mercadopago: { ...config, initialRate: '18.2' } })).toBe(
        '18.2',
      );
      // No rate at all: the method is unavailable.
      const who = await customer();
      const before = fake.requests.length;
      const res = await call(app, who.client, '/api/payments/mercadopago', { amount: '10.00' });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({
        code: 'NOT_FOUND',
        message: 'Mercado Pago no está disponible por ahora.',
      });
      expect(fake.requests.length).toBe(before);
      expect(await db.select().from(payment).where(eq(payment.userId, who.id))).toEqual([]);
    } finally {
      await db
        .update(paymentSettings)
        .set({ mercadopagoRate: RATE })
        .where(eq(paymentSettings.id, 1));
    }
  });

  it.each([
    ['4.99', 'El mínimo con Mercado Pago es US$5.00.'],
    ['500.01', 'El máximo con Mercado Pago es US$500.00.'],
    ['12.345', 'Escribe un importe válido, con hasta dos decimales (por ejemplo 25.50).'],
  ])('refuses the amount %j with a Spanish field message', async (amount, message) => {
    const who = await customer();
    const before = fake.requests.length;
    const res = await call(app, who.client, '/api/payments/mercadopago', { amount });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: 'VALIDATION_FAILED',
      message: ERROR_MESSAGES.VALIDATION_FAILED,
      fields: { amount: message },
    });
    expect(fake.requests.length).toBe(before);
  });

  it('allows 10 attempts per customer in 10 minutes, then 429', async () => {
    const who = await customer();
    for (let i = 0; i < 10; i += 1) {
      const res = await call(app, who.client, '/api/payments/mercadopago', { amount: '1.00' });
      expect(res.status).toBe(400);
    }
    const limited = await call(app, who.client, '/api/payments/mercadopago', { amount: '10.00' });
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({
      code: 'RATE_LIMITED',
      message: 'Has iniciado varios pagos seguidos. Espera unos minutos e inténtalo de nuevo.',
    });
  });

  it('answers 404 when Mercado Pago is not configured, for the customer and the webhook', async () => {
    const who = await customer();
    const off = buildApp(null);
    const res = await call(off, who.client, '/api/payments/mercadopago', { amount: '10.00' });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      code: 'NOT_FOUND',
      message: 'Mercado Pago no está disponible por ahora.',
    });
    const hook = await off.request('/api/webhooks/mercadopago?data.id=1&type=payment', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(hook.status).toBe(404);
    expect((await call(app, null, '/api/payments/mercadopago', { amount: '10.00' })).status).toBe(
      401,
    );
  });

  it('expires the payment and answers 500 in Spanish when the preference cannot be created', async () => {
    const who = await customer();
    fake.failNext();
    const res = await call(app, who.client, '/api/payments/mercadopago', { amount: '20.00' });
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({
      code: 'INTERNAL',
      message: 'No pudimos iniciar el pago con Mercado Pago. Inténtalo de nuevo.',
    });
    const rows = await t.database.db.select().from(payment).where(eq(payment.userId, who.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'expired', providerRef: null });
    // A wrong token is a failure too.
    const wrong = buildApp({ ...config, accessToken: 'APP_USR-someone-else' });
    const again = await call(wrong, who.client, '/api/payments/mercadopago', { amount: '20.00' });
    expect(again.status).toBe(500);
  });

  it('credits the USD amount once for 10 concurrent notifications, out of order, before the customer returns', async () => {
    const { paymentId, preference, id, email } = await pendingTopup('10.00');
    // A first attempt was rejected; the second is approved. The rejected one's notification
    // arrives last.
    const rejected = fake.pay(preference.id, { status: 'rejected' });
    const approved = fake.pay(preference.id);
    const notices = Array.from({ length: 10 }, () => fake.notification(approved));
    const answers = await Promise.all(notices.map((n) => deliver(n)));
    expect(answers.map((r) => r.status)).toEqual(Array<number>(10).fill(200));
    expect(await answers[0]!.json()).toEqual({ received: true });
    expect((await deliver(fake.notification(rejected))).status).toBe(200);
    for (let i = 0; i < 3; i += 1)
      expect((await deliver(fake.notification(approved))).status).toBe(200);

    expect(await balances(t.database.db, id)).toEqual({ available: 1000n, held: 0n });
    const row = await paymentRow(paymentId);
    expect(row).toMatchObject({
      status: 'completed',
      providerPaymentId: approved,
      providerStatus: 'approved',
    });
    const transfers = await transfersOf(paymentId);
    expect(transfers).toHaveLength(1);
    expect(transfers[0]).toMatchObject({ amount: 1000n, kind: 'topup_mercadopago' });
    expect(await eventsOf(approved)).toEqual([
      expect.objectContaining({
        provider: 'mercadopago',
        eventId: `mercadopago:${approved}:approved:0`,
        paymentId,
      }),
    ]);
    const receipts = await t.database.db
      .select()
      .from(receipt)
      .where(eq(receipt.paymentId, paymentId));
    expect(receipts).toHaveLength(1);
    expect(receipts[0]).toMatchObject({
      amount: 1000n,
      fee: 50n,
      chargedAmount: 1097775n,
      chargedCurrency: 'ARS',
      method: 'mercadopago',
    });
    const mail = await waitForMail(email);
    expect(mail.subject).toBe('Recarga acreditada en Cometa');
    expect(mail.text).toContain(
      'Recibimos tu pago con Mercado Pago (pagaste 10977.75 ARS) y acreditamos US$10.00 en tu saldo.',
    );
  });

  it('refuses a forged or missing signature with 400 and changes nothing', async () => {
    const { paymentId, preference, id } = await pendingTopup('15.00');
    const mp = fake.pay(preference.id);
    const good = fake.notification(mp, { requestId: 'req-1', ts: '1742505638683' });
    const other = fake.pay(preference.id, { status: 'rejected' });
    const forged: FakeNotification[] = [
      { ...good, headers: { ...good.headers, 'x-signature': '' } },
      { ...good, headers: { 'content-type': 'application/json', 'x-request-id': 'req-1' } },
      { ...good, headers: { ...good.headers, 'x-signature': 'ts=1742505638683,v1=zz' } },
      {
        ...good,
        headers: {
          ...good.headers,
          'x-signature': signatureHeader({
            secret: 'someone-else',
            dataId: mp,
            requestId: 'req-1',
            ts: '1742505638683',
          }),
        },
      },
      // Signed for another request id, or another payment, or another time.
      { ...good, headers: { ...good.headers, 'x-request-id': 'req-2' } },
      { ...good, url: good.url.replace(`data.id=${mp}`, `data.id=${other}`) },
      {
        ...good,
        headers: {
          ...good.headers,
          'x-signature': good.headers['x-signature']!.replace(
            'ts=1742505638683',
            'ts=1742505638684',
          ),
        },
      },
    ];
    for (const n of forged) {
      const res = await deliver(n);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        code: 'BAD_REQUEST',
        message: 'Firma del webhook no válida.',
      });
    }
    expect(await paymentRow(paymentId)).toMatchObject({ status: 'pending', providerStatus: null });
    expect(await balances(t.database.db, id)).toEqual({ available: 0n, held: 0n });
    expect(await eventsOf(mp)).toEqual([]);
    // The genuine one, with its parts in another order and spaces, is accepted.
    const [ts, v1] = good.headers['x-signature']!.split(',');
    const swapped = { ...good, headers: { ...good.headers, 'x-signature': ` ${v1} , ${ts} ` } };
    expect((await deliver(swapped)).status).toBe(200);
    expect(await balances(t.database.db, id)).toEqual({ available: 1500n, held: 0n });
  });

  it('ignores the notification body: only the payment read from the API counts', async () => {
    const { paymentId, preference, id } = await pendingTopup('12.00');
    const mp = fake.pay(preference.id, { status: 'in_process' });
    const n = fake.notification(mp);
    const body = JSON.parse(n.body) as Record<string, unknown>;
    const lying = JSON.stringify({
      ...body,
      action: 'payment.approved',
      status: 'approved',
      transaction_amount: 999999,
      data: { id: mp, status: 'approved', transaction_amount: 999999 },
    });
    expect((await deliver({ ...n, body: lying })).status).toBe(200);
    expect(await paymentRow(paymentId)).toMatchObject({
      status: 'pending',
      providerStatus: 'in_process',
      providerPaymentId: mp,
    });
    expect(await balances(t.database.db, id)).toEqual({ available: 0n, held: 0n });
    // Once Mercado Pago approves it, the next notification credits the payment's own amount.
    fake.payments.get(mp)!.status = 'approved';
    expect(await fake.sendNotification(mp)).toBe(200);
    expect(await balances(t.database.db, id)).toEqual({ available: 1200n, held: 0n });
  });

  it('credits nothing for another shop’s payment or a paid amount or currency that differs', async () => {
    // A preference that is not one of ours (created straight at the fake, signed correctly).
    const foreign = await fetch(`${fake.baseUrl}/checkout/preferences`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ACCESS_TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        items: [{ id: 'x', title: 'Otra cosa', quantity: 1, unit_price: 100, currency_id: 'ARS' }],
        external_reference: 'pedido-otra-tienda-77',
        notification_url: `${TEST_ORIGIN}/api/webhooks/mercadopago`,
      }),
    });
    const foreignId = ((await foreign.json()) as { id: string }).id;
    const foreignPay = fake.pay(foreignId);
    expect(await fake.sendNotification(foreignPay)).toBe(200);
    expect(await eventsOf(foreignPay)).toEqual([]);

    const { paymentId, preference, id } = await pendingTopup('20.00');
    const cheap = fake.pay(preference.id, { amount: '1.00' });
    expect(await fake.sendNotification(cheap)).toBe(200);
    const dollars = fake.pay(preference.id);
    fake.payments.get(dollars)!.currency_id = 'USD';
    expect(await fake.sendNotification(dollars)).toBe(200);
    expect(await paymentRow(paymentId)).toMatchObject({ status: 'pending', transferId: null });
    expect(await balances(t.database.db, id)).toEqual({ available: 0n, held: 0n });
    expect(await transfersOf(paymentId)).toEqual([]);
  });

  it('ignores other topics after the signature check, and answers 500 when the API read fails', async () => {
    const { paymentId, preference } = await pendingTopup('10.00');
    const mp = fake.pay(preference.id);
    const n = fake.notification(mp);
    const order = {
      ...n,
      url: n.url.replace('type=payment', 'type=merchant_order'),
      body: n.body.replace('"type":"payment"', '"type":"merchant_order"'),
    };
    expect((await deliver(order)).status).toBe(200);
    expect((await paymentRow(paymentId)).status).toBe('pending');
    fake.failNext();
    const failed = await deliver(n);
    expect(failed.status).toBe(500);
    expect((await paymentRow(paymentId)).status).toBe('pending');
    expect(await eventsOf(mp)).toEqual([]);
    // Mercado Pago retries: now it works.
    expect((await deliver(n)).status).toBe(200);
    expect((await paymentRow(paymentId)).status).toBe('completed');
  });

  it('debits refunds (partial, then the rest) once each', async () => {
    const { paymentId, preference, id } = await pendingTopup('10.00');
    const mp = fake.pay(preference.id);
    expect(await fake.sendNotification(mp)).toBe(200);
    expect(await balances(t.database.db, id)).toEqual({ available: 1000n, held: 0n });

    // A third of 10977.75 ARS refunded → floor(1000 × 3659.25 / 10977.75) = 333 cents.
    const refunded = await fetch(`${fake.baseUrl}/v1/payments/${mp}/refunds`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ACCESS_TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ amount: 3659.25 }),
    });
    expect(refunded.status).toBe(201);
    expect(fake.payments.get(mp)).toMatchObject({
      status: 'approved',
      status_detail: 'partially_refunded',
      transaction_amount_refunded: 3659.25,
    });
    for (let i = 0; i < 3; i += 1) expect(await fake.sendNotification(mp)).toBe(200);
    expect(await balances(t.database.db, id)).toEqual({ available: 667n, held: 0n });
    expect(await paymentRow(paymentId)).toMatchObject({
      status: 'completed',
      reversedAmount: 333n,
    });

    fake.refund(mp);
    await Promise.all([fake.sendNotification(mp), fake.sendNotification(mp)]);
    expect(await balances(t.database.db, id)).toEqual({ available: 0n, held: 0n });
    expect(await paymentRow(paymentId)).toMatchObject({
      status: 'reversed',
      reversedAmount: 1000n,
      providerStatus: 'refunded',
      rejectReason: 'Reembolso en Mercado Pago',
    });
    const reversals = (await transfersOf(paymentId)).filter((r) => r.kind === 'topup_reversal');
    expect(reversals.map((r) => r.amount).sort()).toEqual([333n, 667n]);
    expect((await eventsOf(mp)).map((e) => e.eventId).sort()).toEqual([
      `mercadopago:${mp}:approved:0`,
      `mercadopago:${mp}:approved:365925`,
      `mercadopago:${mp}:refunded:1097775`,
    ]);
    const flags = await t.database.db.select().from(accountFlag).where(eq(accountFlag.userId, id));
    expect(flags).toEqual([]);
  });

  it('debits a chargeback past zero, flags the account and refuses new orders', async () => {
    const { client, paymentId, preference, id } = await pendingTopup('10.00');
    const mp = fake.pay(preference.id);
    expect(await fake.sendNotification(mp)).toBe(200);
    const placed = await order(client);
    expect(placed.status).toBe(201);
    expect(await balances(t.database.db, id)).toEqual({ available: 950n, held: 50n });

    fake.chargeback(mp);
    expect(await fake.sendNotification(mp)).toBe(200);
    expect(await fake.sendNotification(mp)).toBe(200);
    expect(await balances(t.database.db, id)).toEqual({ available: -50n, held: 50n });
    expect(await paymentRow(paymentId)).toMatchObject({
      status: 'reversed',
      reversedAmount: 1000n,
      providerStatus: 'charged_back',
      rejectReason: 'Contracargo en Mercado Pago',
    });
    const flags = await t.database.db
      .select()
      .from(accountFlag)
      .where(and(eq(accountFlag.userId, id), eq(accountFlag.paymentId, paymentId)));
    expect(flags).toHaveLength(1);
    expect(flags[0]?.reason).toBe('Contracargo en Mercado Pago');

    const refused = await order(client);
    expect(refused).toEqual({
      status: 403,
      body: { code: 'ACCOUNT_BLOCKED', message: ACCOUNT_BLOCKED_MESSAGE },
    });
  });

  it('pays through the Checkout Pro page: notification first, then back to the shop', async () => {
    const { paymentId, preference, id } = await pendingTopup('25.00');
    const page = await fetch(preference.initPoint);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Pagar');
    expect(html).toContain('Cancelar');
    expect(html).toContain(`href="${TEST_ORIGIN}/addfunds?pago=cancelado"`);
    expect(html).toContain('27444.38 ARS');

    const paid = await fetch(
      `${fake.baseUrl}/checkout/v1/redirect/pay?pref_id=${encodeURIComponent(preference.id)}`,
      { method: 'POST', redirect: 'manual' },
    );
    expect(paid.status).toBe(303);
    const back = new URL(paid.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(`${TEST_ORIGIN}/addfunds`);
    const mpId = preference.paymentIds[0]!;
    expect(Object.fromEntries(back.searchParams)).toMatchObject({
      pago: 'mercadopago',
      id: paymentId,
      collection_id: mpId,
      collection_status: 'approved',
      payment_id: mpId,
      status: 'approved',
      external_reference: paymentId,
      preference_id: preference.id,
    });
    // Credited by the time the customer is sent back.
    expect(await balances(t.database.db, id)).toEqual({ available: 2500n, held: 0n });
    expect(fake.payments.get(mpId)).toMatchObject({
      transaction_amount: 27444.38,
      currency_id: 'ARS',
    });
  });

  it('keeps the ledger consistent', async () => {
    const report = await verifyLedger(t.database.db);
    expect(report.problems).toEqual([]);
    expect(report.transfers).toBeGreaterThan(0);
  });
});

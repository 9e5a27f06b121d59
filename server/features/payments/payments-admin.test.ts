import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_MESSAGES } from '../../../shared/error-codes';
import {
  ACCOUNT_BLOCKED_MESSAGE,
  type AccountFlagList,
  type AdminPaymentList,
  type AdminPaymentResult,
  type GatewaySettingDto,
  type GatewaySettingList,
  type PaymentMethodList,
  type PaymentSettingsDto,
  type TopupResult,
} from '../../../shared/schemas/payments';
import type { MethodDto } from '../../../shared/schemas/funds';
import { PAYMENT_STATUS_LABELS } from '../../../shared/schemas/wallet';
import { imeiFor } from '../../../tests/setup/imei';
import {
  TEST_ORIGIN,
  createTestApp,
  registerVerified,
  signInStaff,
  userIdOf,
  type TestApp,
  type TestClient,
} from '../../../tests/setup/test-app';
import { dbTargets } from '../../../tests/setup/test-db';
import { order, service } from '../../db/schema/catalogue';
import { ledgerTransfer } from '../../db/schema/ledger';
import { accountFlag, auditLog, payment, receipt } from '../../db/schema/payments';
import type { Env } from '../../env';
import type { MailMessage, Mailer } from '../../lib/mail';
import { encodeParametersJson } from '../../suppliers/dhru-wire';
import { balances } from '../ledger/ledger.service';
import { verifyLedger } from '../ledger/ledger.verify';
import type { MercadoPagoConfig, NowPaymentsConfig, PaypalConfig } from './gateway-config';
import {
  chargeRefundedEvent,
  checkoutSessionEvent,
  disputeCreatedEvent,
  paymentIntentOf,
  startFakeStripe,
  type FakeCheckoutSession,
  type FakeStripe,
} from './stripe/fake-stripe';
import { stripeConfigFrom, type StripeConfig } from './stripe/stripe.config';

const WEBHOOK_SECRET = 'whsec_test_cometa_payments_admin';
const NOWHERE = 'http://127.0.0.1:9';
const PAYPAL: PaypalConfig = {
  clientId: 'paypal-client',
  clientSecret: 'paypal-secret',
  webhookId: null,
  apiBase: NOWHERE,
};
const NOWPAYMENTS: NowPaymentsConfig = { apiKey: 'np-key', ipnSecret: 'np-ipn', apiBase: NOWHERE };
const MERCADOPAGO: MercadoPagoConfig = {
  accessToken: 'TEST-mp-token',
  webhookSecret: 'mp-secret',
  apiBase: NOWHERE,
  currency: 'ARS',
  initialRate: null,
};

type Who = { client: TestClient; email: string; id: string };
type Fields = { code: string; message: string; fields: Record<string, string> };

let imeiSeq = 0;
function nextImei(): string {
  imeiSeq += 1;
  return imeiFor(`${Date.now() % 1_000_000}${String(imeiSeq).padStart(4, '0')}`);
}

describe.each(dbTargets())('payment methods, fees, holds and reversals on %s', (target) => {
  let t: TestApp;
  let fake: FakeStripe;
  let config: StripeConfig;
  /** The app with Stripe alone configured. */
  let app: ReturnType<TestApp['appWith']>;
  let admin: Who;
  let finance: Who;
  let support: Who;
  let imeiService: { id: string; number: number };
  const mails: MailMessage[] = [];
  const mailer: Mailer = {
    kind: 'outbox',
    async send(message) {
      mails.push(message);
    },
  };

  function appWith(env: Partial<Env>) {
    return t.appWith({ env: { ...t.env, stripe: config, ...env }, mailer });
  }

  beforeAll(async () => {
    t = await createTestApp(target);
    fake = await startFakeStripe();
    const built = stripeConfigFrom({
      STRIPE_SECRET_KEY: 'sk_test_cometa_payments_admin',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: fake.baseUrl,
    });
    if (!built) throw new Error('stripe config expected');
    config = built;
    app = appWith({});
    admin = await signInStaff(t, 'admin');
    finance = await signInStaff(t, 'finance');
    support = await signInStaff(t, 'support');
    const [row] = await t.database.db
      .insert(service)
      .values({
        category: 'IMEI',
        name: 'Consulta IMEI (pagos)',
        description: 'Operador y bloqueo.',
        deliveryTime: '1–24 horas',
        price: 50n,
        fields: [{ key: 'imei', label: 'IMEI', type: 'imei', required: true, identifier: true }],
      })
      .returning({ id: service.id, number: service.number });
    imeiService = row!;
  });

  afterAll(async () => {
    await fake?.close();
    await t?.close();
  });

  /** A request to `server` with the client's session cookies. */
  async function call(
    client: TestClient | null,
    method: string,
    path: string,
    body?: unknown,
    server = app,
  ): Promise<Response> {
    const headers: Record<string, string> = { Origin: TEST_ORIGIN };
    if (client?.cookies.size)
      headers.Cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    return server.request(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  async function ok<T>(res: Response, status = 200): Promise<T> {
    const text = await res.text();
    expect(res.status, text).toBe(status);
    return JSON.parse(text) as T;
  }

  async function customer(name = 'Lucía Gómez'): Promise<Who> {
    const { client, email } = await registerVerified(t, name);
    return { client, email, id: await userIdOf(t, email) };
  }

  async function paymentRow(id: string) {
    const [row] = await t.database.db.select().from(payment).where(eq(payment.id, id));
    if (!row) throw new Error(`payment ${id} not found`);
    return row;
  }

  function deliver(payload: string): Promise<Response> {
    return Promise.resolve(
      app.request('/api/webhooks/stripe', {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'Stripe-Signature': Stripe.webhooks.generateTestHeaderString({
            payload,
            secret: WEBHOOK_SECRET,
          }),
        },
        body: payload,
      }),
    );
  }

  /** A card checkout of `amount` by `who`: the payment id and the fake's session. */
  async function checkout(who: Who, amount: string) {
    const res = await call(who.client, 'POST', '/api/funds/stripe/checkout', { amount });
    const { paymentId } = await ok<{ paymentId: string }>(res, 201);
    const row = await paymentRow(paymentId);
    const session = fake.sessions.get(row.providerRef ?? '');
    if (!session) throw new Error('no fake session for the payment');
    return { paymentId, session };
  }

  /** A card top-up paid at Stripe (the signed checkout.session.completed delivered). */
  async function paidTopup(who: Who, amount: string, overrides: Partial<FakeCheckoutSession> = {}) {
    const started = await checkout(who, amount);
    const hook = checkoutSessionEvent('checkout.session.completed', started.session, overrides);
    expect((await deliver(hook.payload)).status).toBe(200);
    return started;
  }

  async function available(userId: string): Promise<bigint> {
    return (await balances(t.database.db, userId)).available;
  }

  async function creditsOf(paymentId: string) {
    return t.database.db
      .select()
      .from(ledgerTransfer)
      .where(eq(ledgerTransfer.idempotencyKey, `payment:${paymentId}`));
  }

  async function receiptsOfPayment(paymentId: string) {
    return t.database.db.select().from(receipt).where(eq(receipt.paymentId, paymentId));
  }

  async function waitForMail(to: string, subject: RegExp): Promise<MailMessage> {
    const deadline = Date.now() + 5000;
    for (;;) {
      const found = mails.find((m) => m.to === to && subject.test(m.subject));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no e-mail to ${to} matching ${subject}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  async function setHold(threshold: string | null) {
    const res = await call(finance.client, 'PATCH', '/api/admin/payment-settings', {
      holdThreshold: threshold,
    });
    expect((await ok<PaymentSettingsDto>(res)).holdThreshold).toBe(threshold);
  }

  it('lists every enabled method with its fee and limits, to anyone, manual ones after', async () => {
    const created = await ok<MethodDto>(
      await call(admin.client, 'POST', '/api/admin/funds/methods', {
        name: 'Transferencia bancaria',
        instructions: 'Banco Ejemplo, cuenta 0123-4567.',
        minAmount: '20',
        maxAmount: '2000',
        feePercent: '1.5',
        feeFixed: '0.50',
      }),
      201,
    );
    await ok(
      await call(admin.client, 'POST', '/api/admin/funds/methods', {
        name: 'Efectivo (inactivo)',
        instructions: 'Solo con cita.',
        minAmount: '1',
        maxAmount: '10',
        active: false,
      }),
      201,
    );
    const manualItem = {
      id: `manual:${created.id}`,
      method: 'manual',
      name: 'Transferencia bancaria',
      fee: { percent: '1.50', fixed: '0.50' },
      minAmount: '20.00',
      maxAmount: '2000.00',
      currency: 'USD',
      rate: null,
      instructions: 'Banco Ejemplo, cuenta 0123-4567.',
    };
    const card = {
      id: 'stripe',
      method: 'stripe',
      name: 'Tarjeta',
      fee: { percent: '0.00', fixed: '0.00' },
      minAmount: '5.00',
      maxAmount: '1000.00',
      currency: 'USD',
      rate: null,
      instructions: null,
    };
    // No session needed: prices are seen before signing in.
    const onlyCard = await ok<PaymentMethodList>(await call(null, 'GET', '/api/payment-methods'));
    expect(onlyCard.items).toEqual([card, manualItem]);

    const none = appWith({ stripe: null });
    const manualOnly = await ok<PaymentMethodList>(
      await call(null, 'GET', '/api/payment-methods', undefined, none),
    );
    expect(manualOnly.items).toEqual([manualItem]);

    // Mercado Pago without an exchange rate cannot charge: not listed.
    const all = appWith({ paypal: PAYPAL, nowpayments: NOWPAYMENTS, mercadopago: MERCADOPAGO });
    const noRate = await ok<PaymentMethodList>(
      await call(null, 'GET', '/api/payment-methods', undefined, all),
    );
    expect(noRate.items.map((m) => m.id)).toEqual([
      'stripe',
      'paypal',
      'crypto',
      `manual:${created.id}`,
    ]);
    expect(noRate.items.find((m) => m.id === 'paypal')).toEqual({
      ...card,
      id: 'paypal',
      method: 'paypal',
      name: 'PayPal',
    });
    expect(noRate.items.some((m) => (m.method as string) === 'voucher')).toBe(false);

    const initial = appWith({
      paypal: PAYPAL,
      nowpayments: NOWPAYMENTS,
      mercadopago: { ...MERCADOPAGO, initialRate: '1000.5' },
    });
    const withInitial = await ok<PaymentMethodList>(
      await call(null, 'GET', '/api/payment-methods', undefined, initial),
    );
    expect(withInitial.items.map((m) => m.id)).toEqual([
      'stripe',
      'paypal',
      'crypto',
      'mercadopago',
      `manual:${created.id}`,
    ]);
    expect(withInitial.items.find((m) => m.id === 'mercadopago')).toMatchObject({
      name: 'Mercado Pago',
      currency: 'ARS',
      rate: '1000.5',
    });

    // The admin's rate wins over the initial one, and is dated.
    const before = Date.now();
    const set = await ok<PaymentSettingsDto>(
      await call(
        finance.client,
        'PATCH',
        '/api/admin/payment-settings',
        { mercadopagoRate: '1045.50' },
        all,
      ),
    );
    expect(set).toMatchObject({ mercadopagoCurrency: 'ARS', mercadopagoRate: '1045.50' });
    expect(Date.parse(set.mercadopagoRateUpdatedAt ?? '')).toBeGreaterThanOrEqual(before - 1000);
    const rated = await ok<PaymentMethodList>(
      await call(null, 'GET', '/api/payment-methods', undefined, initial),
    );
    expect(rated.items.find((m) => m.id === 'mercadopago')?.rate).toBe('1045.50');
  });

  it('lets finance set fees and limits, with Spanish messages, min ≤ max also against stored values', async () => {
    const list = await ok<GatewaySettingList>(
      await call(finance.client, 'GET', '/api/admin/payment-methods'),
    );
    expect(list.items.map((g) => [g.method, g.name, g.enabled])).toEqual([
      ['stripe', 'Tarjeta', true],
      ['paypal', 'PayPal', false],
      ['crypto', 'Criptomonedas', false],
      ['mercadopago', 'Mercado Pago', false],
    ]);
    expect(list.items[0]).toEqual({
      method: 'stripe',
      name: 'Tarjeta',
      enabled: true,
      fee: { percent: '0.00', fixed: '0.00' },
      minAmount: '5.00',
      maxAmount: '1000.00',
      updatedAt: null,
    });

    const refused = async (body: unknown, path = '/api/admin/payment-methods/stripe') => {
      const res = await call(finance.client, 'PATCH', path, body);
      const parsed = await ok<Fields>(res, 400);
      expect(parsed.message).toBe(ERROR_MESSAGES.VALIDATION_FAILED);
      return parsed.fields;
    };
    expect(await refused({})).toEqual({ form: 'Indica al menos un cambio.' });
    expect(await refused({ feePercent: '50.5', feeFixed: 'abc' })).toEqual({
      feePercent: 'Escribe un porcentaje entre 0 y 50, con hasta dos decimales (por ejemplo 2.90).',
      feeFixed: 'Escribe una comisión fija válida, con hasta dos decimales (por ejemplo 0.30).',
    });
    expect(await refused({ minAmount: '20', maxAmount: '10' })).toEqual({
      maxAmount: 'El máximo debe ser mayor o igual que el mínimo.',
    });
    // Above the stored maximum (the default 1000.00).
    expect(await refused({ minAmount: '2000' })).toEqual({
      minAmount: 'El máximo debe ser mayor o igual que el mínimo.',
    });
    expect(await refused({ minAmount: '0' })).toEqual({
      minAmount: 'El importe debe ser mayor que cero.',
    });
    const unknown = await call(finance.client, 'PATCH', '/api/admin/payment-methods/bitcoin', {
      feePercent: '1',
    });
    expect(unknown.status).toBe(404);

    const paypal = await ok<GatewaySettingDto>(
      await call(finance.client, 'PATCH', '/api/admin/payment-methods/paypal', {
        maxAmount: '300',
      }),
    );
    expect(paypal).toMatchObject({ minAmount: '5.00', maxAmount: '300.00', enabled: false });
    // Below the stored minimum of PayPal now.
    expect(await refused({ maxAmount: '4' }, '/api/admin/payment-methods/paypal')).toEqual({
      maxAmount: 'El máximo debe ser mayor o igual que el mínimo.',
    });

    const stripe = await ok<GatewaySettingDto>(
      await call(admin.client, 'PATCH', '/api/admin/payment-methods/stripe', {
        feePercent: '2.9',
        feeFixed: '0.30',
        minAmount: '10',
        maxAmount: '500',
      }),
    );
    expect(stripe).toMatchObject({
      method: 'stripe',
      enabled: true,
      fee: { percent: '2.90', fixed: '0.30' },
      minAmount: '10.00',
      maxAmount: '500.00',
    });
    expect(stripe.updatedAt).not.toBeNull();
    const audits = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'gateway_setting.update'), eq(auditLog.targetId, 'stripe')));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actorId: admin.id, actorRole: 'admin' });
    expect(audits[0]?.before).toMatchObject({ minAmount: '5.00', maxAmount: '1000.00' });
    expect(audits[0]?.after).toMatchObject({ minAmount: '10.00', fee: { percent: '2.90' } });

    const methods = await ok<PaymentMethodList>(await call(null, 'GET', '/api/payment-methods'));
    expect(methods.items[0]).toMatchObject({
      id: 'stripe',
      fee: { percent: '2.90', fixed: '0.30' },
      minAmount: '10.00',
      maxAmount: '500.00',
    });
  });

  it('checks the payment settings in Spanish and records each change', async () => {
    const refused = async (body: unknown) =>
      (
        await ok<Fields>(
          await call(finance.client, 'PATCH', '/api/admin/payment-settings', body),
          400,
        )
      ).fields;
    expect(await refused({})).toEqual({ form: 'Indica al menos un cambio.' });
    expect(await refused({ holdThreshold: 'mucho' })).toEqual({
      holdThreshold: 'Escribe un importe válido, con hasta dos decimales (por ejemplo 100.00).',
    });
    expect(await refused({ mercadopagoRate: '0' })).toEqual({
      mercadopagoRate:
        'Escribe el tipo de cambio: unidades de la moneda por dólar, con hasta seis decimales (por ejemplo 1045.50).',
    });
    expect(await refused({ shopName: 'x'.repeat(121) })).toEqual({
      shopName: 'No puede tener más de 120 caracteres.',
    });
    const saved = await ok<PaymentSettingsDto>(
      await call(finance.client, 'PATCH', '/api/admin/payment-settings', {
        shopName: '  Cometa Digital S.A.  ',
        shopTaxId: 'CUIT 30-71234567-8',
        holdThreshold: '100',
      }),
    );
    expect(saved).toMatchObject({
      holdThreshold: '100.00',
      shopName: 'Cometa Digital S.A.',
      shopTaxId: 'CUIT 30-71234567-8',
      shopAddress: '',
      // Mercado Pago is not configured on this app.
      mercadopagoCurrency: null,
      mercadopagoRate: '1045.50',
    });
    expect(await ok(await call(admin.client, 'GET', '/api/admin/payment-settings'))).toEqual(saved);
    await setHold(null);
    const audits = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'payment_settings.update'));
    expect(audits.length).toBeGreaterThanOrEqual(3);
  });

  it('charges amount + fee through Stripe, credits the amount, and shows the admin limits', async () => {
    const who = await customer();
    const before = fake.requests.length;
    const { paymentId, session } = await checkout(who, '100.00');
    // 2.90 % of 100.00 = 2.90, plus 0.30: the customer pays 103.20.
    expect(fake.requests[before]?.form['line_items[0][price_data][unit_amount]']).toBe('10320');
    expect(session.amount_total).toBe(10320);
    expect(await paymentRow(paymentId)).toMatchObject({
      amount: 10000n,
      fee: 320n,
      status: 'pending',
      checkoutUrl: session.url,
    });
    const pending = await ok<TopupResult>(
      await call(who.client, 'GET', `/api/payments/${paymentId}`),
    );
    expect(pending).toMatchObject({
      payment: { id: paymentId, amount: '100.00', fee: '3.20', status: 'pending', receipts: [] },
      balance: '0.00',
    });

    // A paid amount without the fee is not ours to credit.
    const short = checkoutSessionEvent('checkout.session.completed', session, {
      amount_total: 10000,
    });
    expect((await deliver(short.payload)).status).toBe(200);
    expect((await paymentRow(paymentId)).status).toBe('pending');

    const hook = checkoutSessionEvent('checkout.session.completed', session);
    expect((await deliver(hook.payload)).status).toBe(200);
    expect(await available(who.id)).toBe(10000n);
    expect(await paymentRow(paymentId)).toMatchObject({
      status: 'completed',
      providerPaymentId: paymentIntentOf(session),
    });
    const done = await ok<TopupResult>(await call(who.client, 'GET', `/api/payments/${paymentId}`));
    expect(done.payment.status).toBe('completed');
    expect(done.payment.receipts).toHaveLength(1);
    expect(done.balance).toBe('100.00');
    expect(await receiptsOfPayment(paymentId)).toMatchObject([{ amount: 10000n, fee: 320n }]);

    // Someone else's top-up, or none at all: 404.
    const other = await customer('Otro Cliente');
    expect((await call(other.client, 'GET', `/api/payments/${paymentId}`)).status).toBe(404);
    expect((await call(other.client, 'GET', `/api/payments/${randomUUID()}`)).status).toBe(404);
    expect((await call(null, 'GET', `/api/payments/${paymentId}`)).status).toBe(401);

    // The limits are the admin's.
    const low = await call(other.client, 'POST', '/api/funds/stripe/checkout', { amount: '9.99' });
    expect((await ok<Fields>(low, 400)).fields).toEqual({
      amount: 'El mínimo con tarjeta es US$10.00.',
    });
    const high = await call(other.client, 'POST', '/api/funds/stripe/checkout', {
      amount: '500.01',
    });
    expect((await ok<Fields>(high, 400)).fields).toEqual({
      amount: 'El máximo con tarjeta es US$500.00.',
    });
    expect(await ok(await call(other.client, 'GET', '/api/funds/stripe'))).toEqual({
      available: true,
      minAmount: '10.00',
      maxAmount: '500.00',
    });
    expect(
      (await ok<{ card: unknown }>(await call(other.client, 'GET', '/api/funds/methods'))).card,
    ).toEqual({ minAmount: '10.00', maxAmount: '500.00' });
  });

  it('holds a first card top-up above the threshold «En revisión»; 50 approvals credit it once', async () => {
    await setHold('50.00');
    const who = await customer('Nuevo Cliente');
    const { paymentId } = await paidTopup(who, '60.00');
    const held = await paymentRow(paymentId);
    expect(held).toMatchObject({ status: 'review', transferId: null });
    expect(held.holdReason).toBe(
      'Primera recarga con tarjeta por encima de US$50.00: la revisamos antes de acreditarla.',
    );
    expect(await available(who.id)).toBe(0n);
    const seen = await ok<TopupResult>(await call(who.client, 'GET', `/api/payments/${paymentId}`));
    expect(seen.payment).toMatchObject({ status: 'review', note: held.holdReason, receipts: [] });
    expect(PAYMENT_STATUS_LABELS[seen.payment.status]).toBe('En revisión');
    expect(seen.balance).toBe('0.00');

    // Support does not see money; finance does.
    expect((await call(support.client, 'GET', '/api/admin/payments/review')).status).toBe(403);
    const queue = await ok<AdminPaymentList>(
      await call(finance.client, 'GET', '/api/admin/payments/review'),
    );
    expect(queue.items.find((p) => p.id === paymentId)).toMatchObject({
      status: 'review',
      amount: '60.00',
      fee: '2.04',
      holdReason: held.holdReason,
      customer: { id: who.id, email: who.email, name: 'Nuevo Cliente' },
      providerRef: held.providerPaymentId,
      reversedAmount: '0.00',
    });
    expect(
      (await call(support.client, 'POST', `/api/admin/payments/${paymentId}/approve`)).status,
    ).toBe(403);

    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        call(finance.client, 'POST', `/api/admin/payments/${paymentId}/approve`),
      ),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    const conflict = answers.find((r) => r.status === 409);
    expect(await conflict?.json()).toEqual({
      code: 'CONFLICT',
      message: 'Esta recarga no está en revisión.',
    });
    const approved = await ok<AdminPaymentResult>(answers.find((r) => r.status === 200)!);
    expect(approved.payment).toMatchObject({ id: paymentId, status: 'completed' });
    expect(approved.payment.receipts).toHaveLength(1);
    expect(approved.balance).toBe('60.00');
    expect(await available(who.id)).toBe(6000n);
    expect(await creditsOf(paymentId)).toHaveLength(1);
    expect(await receiptsOfPayment(paymentId)).toHaveLength(1);
    expect(await paymentRow(paymentId)).toMatchObject({ reviewedBy: finance.id });
    const mail = await waitForMail(who.email, /ya está acreditada/);
    expect(mail.subject).toBe('Tu recarga de US$60.00 ya está acreditada');
    expect(mail.text).toContain('Tu saldo disponible ahora es de US$60.00.');
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'payment.approve_held'), eq(auditLog.targetId, paymentId)));
    expect(audit).toHaveLength(1);

    // The second card top-up of the same customer is not held.
    const second = await paidTopup(who, '80.00');
    expect((await paymentRow(second.paymentId)).status).toBe('completed');
    expect(await available(who.id)).toBe(14000n);

    // A first top-up at or under the threshold is not held either.
    const small = await customer('Cliente Prudente');
    const under = await paidTopup(small, '50.00');
    expect((await paymentRow(under.paymentId)).status).toBe('completed');
  });

  it('rejects a held top-up: nothing credited, and the customer is told the money goes back', async () => {
    const who = await customer('Cliente Dudoso');
    const { paymentId } = await paidTopup(who, '70.00');
    expect((await paymentRow(paymentId)).status).toBe('review');
    const path = `/api/admin/payments/${paymentId}/reject`;
    const short = await call(finance.client, 'POST', path, { reason: 'no' });
    expect((await ok<Fields>(short, 400)).fields).toEqual({
      reason: 'Escribe el motivo del rechazo (al menos 3 caracteres).',
    });
    const rejected = await ok<AdminPaymentResult>(
      await call(finance.client, 'POST', path, { reason: 'No pudimos verificar al titular.' }),
    );
    expect(rejected.payment).toMatchObject({
      status: 'rejected',
      rejectReason: 'No pudimos verificar al titular.',
      receipts: [],
    });
    expect(rejected.balance).toBe('0.00');
    expect(await available(who.id)).toBe(0n);
    expect(await creditsOf(paymentId)).toEqual([]);
    const mail = await waitForMail(who.email, /no se acreditó/);
    expect(mail.subject).toBe('Tu recarga de US$70.00 no se acreditó');
    expect(mail.text).toContain('Motivo: No pudimos verificar al titular.');
    expect(mail.text).toContain('Te devolveremos el dinero a través de Tarjeta');

    for (const action of ['approve', 'reject']) {
      const again = await call(
        finance.client,
        'POST',
        `/api/admin/payments/${paymentId}/${action}`,
        {
          reason: 'Otra vez.',
        },
      );
      expect(again.status).toBe(409);
    }
    const missing = await call(
      finance.client,
      'POST',
      `/api/admin/payments/${randomUUID()}/approve`,
    );
    expect(await ok(missing, 404)).toEqual({
      code: 'NOT_FOUND',
      message: 'Esa recarga no existe.',
    });
  });

  it('does not let a reviewer approve their own held top-up', async () => {
    const { paymentId } = await paidTopup(admin, '60.00');
    expect((await paymentRow(paymentId)).status).toBe('review');
    const own = await call(admin.client, 'POST', `/api/admin/payments/${paymentId}/approve`);
    expect(await ok(own, 403)).toEqual({
      code: 'FORBIDDEN',
      message: 'No puedes revisar una recarga tuya.',
    });
    expect((await paymentRow(paymentId)).status).toBe('review');
    await ok(await call(finance.client, 'POST', `/api/admin/payments/${paymentId}/approve`));
    expect(await available(admin.id)).toBe(6000n);
  });

  it('holds nothing once the threshold is turned off', async () => {
    await setHold(null);
    const who = await customer('Cliente Grande');
    const { paymentId } = await paidTopup(who, '400.00');
    expect((await paymentRow(paymentId)).status).toBe('completed');
    expect(await available(who.id)).toBe(40000n);
  });

  it('debits Stripe refunds once each, never more than the top-up credited', async () => {
    const who = await customer('Cliente Reembolsado');
    const { paymentId, session } = await paidTopup(who, '100.00');
    const paid = { ...session, amount_total: 10320 };
    expect(await available(who.id)).toBe(10000n);

    const partial = chargeRefundedEvent(paid, 3000);
    expect((await deliver(partial.payload)).status).toBe(200);
    expect(await available(who.id)).toBe(7000n);
    // The same event again, and another event for the same refund total: nothing more.
    expect((await deliver(partial.payload)).status).toBe(200);
    const echo = chargeRefundedEvent(paid, 3000);
    expect((await deliver(echo.payload)).status).toBe(200);
    expect(await available(who.id)).toBe(7000n);
    expect(await paymentRow(paymentId)).toMatchObject({
      status: 'completed',
      reversedAmount: 3000n,
    });

    // Refunded in full (fee included): the balance loses the 100.00 credited, not 103.20.
    const full = chargeRefundedEvent(paid, 10320);
    expect((await deliver(full.payload)).status).toBe(200);
    expect(await available(who.id)).toBe(0n);
    expect(await paymentRow(paymentId)).toMatchObject({
      status: 'reversed',
      reversedAmount: 10000n,
    });
    const debits = await t.database.db
      .select()
      .from(ledgerTransfer)
      .where(
        and(eq(ledgerTransfer.kind, 'topup_reversal'), eq(ledgerTransfer.referenceId, paymentId)),
      );
    expect(debits.map((d) => d.amount).sort()).toEqual([3000n, 7000n]);
    // Not below zero: no flag.
    expect(
      await t.database.db.select().from(accountFlag).where(eq(accountFlag.userId, who.id)),
    ).toEqual([]);
    // A refund of a charge that is not one of ours is acknowledged and ignored.
    const stranger = chargeRefundedEvent({ ...paid, id: 'cs_test_strangerstrangerstranger0' }, 500);
    expect((await deliver(stranger.payload)).status).toBe(200);
    const page = await ok<TopupResult>(await call(who.client, 'GET', `/api/payments/${paymentId}`));
    expect(page.payment).toMatchObject({
      status: 'reversed',
      rejectReason: 'Reembolso del pago con tarjeta',
    });
  });

  it('a chargeback past zero flags the account: orders refused (web and DHRU) until finance clears it', async () => {
    const who = await customer('Cliente Contracargo');
    const { session } = await paidTopup(who, '40.00');
    const placed = await call(who.client, 'POST', '/api/orders', {
      serviceId: imeiService.id,
      fields: { imei: nextImei() },
    });
    expect(placed.status).toBe(201);
    expect(await available(who.id)).toBe(3950n);

    const dispute = disputeCreatedEvent({ ...session, amount_total: 4146 });
    expect((await deliver(dispute.payload)).status).toBe(200);
    expect((await deliver(dispute.payload)).status).toBe(200);
    expect(await available(who.id)).toBe(-50n);
    expect((await verifyLedger(t.database.db)).problems).toEqual([]);

    const flags = await ok<AccountFlagList>(
      await call(finance.client, 'GET', '/api/admin/account-flags'),
    );
    const flag = flags.items.find((f) => f.customer.id === who.id);
    expect(flag).toMatchObject({
      customer: { id: who.id, email: who.email, name: 'Cliente Contracargo' },
      reason: 'Contracargo (disputa) del pago con tarjeta',
      balance: '-0.50',
    });
    expect((await call(support.client, 'GET', '/api/admin/account-flags')).status).toBe(403);

    const refused = await call(who.client, 'POST', '/api/orders', {
      serviceId: imeiService.id,
      fields: { imei: nextImei() },
    });
    expect(await ok(refused, 403)).toEqual({
      code: 'ACCOUNT_BLOCKED',
      message: ACCOUNT_BLOCKED_MESSAGE,
    });

    // Through the reseller API, in DHRU's format.
    const key = await ok<{ key: string }>(
      await call(who.client, 'POST', '/api/keys', { name: 'Mi panel DHRU' }),
      201,
    );
    const dhru = await app.request('/api/index.php', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        'x-cometa-client-ip': '203.0.113.9',
      },
      body: new URLSearchParams({
        username: who.email,
        apiaccesskey: key.key,
        requestformat: 'JSON',
        action: 'placeimeiorder',
        parameters: encodeParametersJson({ ID: String(imeiService.number), IMEI: nextImei() }),
      }).toString(),
    });
    expect(dhru.status).toBe(200);
    expect(await dhru.json()).toMatchObject({ ERROR: [{ MESSAGE: ACCOUNT_BLOCKED_MESSAGE }] });
    expect(
      await t.database.db.select({ id: order.id }).from(order).where(eq(order.userId, who.id)),
    ).toHaveLength(1);

    // Clearing: support may not; finance may once; an unknown flag is 404.
    const clearPath = `/api/admin/account-flags/${flag!.id}/clear`;
    expect((await call(support.client, 'POST', clearPath)).status).toBe(403);
    const cleared = await ok<{ id: string; balance: string }>(
      await call(finance.client, 'POST', clearPath),
    );
    expect(cleared).toMatchObject({ id: flag!.id, balance: '-0.50' });
    expect(await ok(await call(finance.client, 'POST', clearPath), 409)).toEqual({
      code: 'CONFLICT',
      message: 'Esta alerta ya se resolvió.',
    });
    expect(
      (await call(finance.client, 'POST', `/api/admin/account-flags/${randomUUID()}/clear`)).status,
    ).toBe(404);
    const [stored] = await t.database.db
      .select()
      .from(accountFlag)
      .where(eq(accountFlag.id, flag!.id));
    expect(stored).toMatchObject({ clearedBy: finance.id });
    expect(stored?.clearedAt).toBeInstanceOf(Date);
    expect(
      (
        await ok<AccountFlagList>(await call(finance.client, 'GET', '/api/admin/account-flags'))
      ).items.some((f) => f.id === flag!.id),
    ).toBe(false);

    // The customer can order again once they have the money.
    await ok(
      await admin.client.request(
        'POST',
        `/api/admin/users/${who.id}/adjustments`,
        { amount: '10.00', reason: 'Pago de la deuda' },
        { 'Idempotency-Key': `debt-${who.id}` },
      ),
      201,
    );
    const again = await call(who.client, 'POST', '/api/orders', {
      serviceId: imeiService.id,
      fields: { imei: nextImei() },
    });
    expect(again.status).toBe(201);
  });

  it('leaves the ledger consistent after reversals past zero', async () => {
    const report = await verifyLedger(t.database.db);
    expect(report.problems).toEqual([]);
    expect(report.transfers).toBeGreaterThan(0);
  });
});

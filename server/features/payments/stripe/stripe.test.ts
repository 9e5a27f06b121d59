import { eq } from 'drizzle-orm';
import { type Hono } from 'hono';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_MESSAGES } from '../../../../shared/error-codes';
import {
  TEST_ORIGIN,
  createTestApp,
  registerVerified,
  userIdOf,
  type TestApp,
  type TestClient,
} from '../../../../tests/setup/test-app';
import { dbTargets } from '../../../../tests/setup/test-db';
import { ledgerTransfer } from '../../../db/schema/ledger';
import { payment, processedEvent } from '../../../db/schema/payments';
import type { AppEnv } from '../../../lib/http';
import type { MailMessage, Mailer } from '../../../lib/mail';
import { balances } from '../../ledger/ledger.service';
import { verifyLedger } from '../../ledger/ledger.verify';
import {
  checkoutSessionEvent,
  startFakeStripe,
  type CheckoutEventType,
  type FakeCheckoutSession,
  type FakeStripe,
} from './fake-stripe';
import { stripeConfigFrom, type StripeConfig } from './stripe.config';

const SECRET_KEY = 'sk_test_cometa_fake_key';
const WEBHOOK_SECRET = 'whsec_test_cometa_signing_secret';

describe.each(dbTargets())('card top-ups with Stripe on %s', (target) => {
  let t: TestApp;
  let fake: FakeStripe;
  let config: StripeConfig;
  let app: ReturnType<TestApp['appWith']>;
  const mails: MailMessage[] = [];
  const recordingMailer: Mailer = {
    kind: 'outbox',
    async send(message) {
      mails.push(message);
    },
  };

  /** The real app (every route mounted as in production) with this card configuration. */
  function buildApp(stripe: StripeConfig | null, mailer: Mailer = recordingMailer) {
    return t.appWith({ env: { ...t.env, stripe }, mailer });
  }

  beforeAll(async () => {
    t = await createTestApp(target);
    fake = await startFakeStripe();
    const built = stripeConfigFrom({
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: fake.baseUrl,
    });
    if (!built) throw new Error('stripe config expected');
    config = built;
    app = buildApp(config);
  });

  afterAll(async () => {
    await fake?.close();
    await t?.close();
  });

  /** A request to our app with the customer's session cookies (signed in through t.app). */
  async function call(
    server: Hono<AppEnv>,
    client: TestClient | null,
    path: string,
    body?: unknown,
  ): Promise<Response> {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (client?.cookies.size) {
      headers.Cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    }
    return server.request(path, {
      method: 'POST',
      headers,
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

  /** A customer with a pending card payment of `amount`, and the fake's session for it. */
  async function pendingCheckout(amount = '25.50') {
    const who = await customer();
    const res = await call(app, who.client, '/api/funds/stripe/checkout', { amount });
    expect(res.status).toBe(201);
    const { paymentId } = (await res.json()) as { paymentId: string; url: string };
    const row = await paymentRow(paymentId);
    const session = fake.sessions.get(row.providerRef ?? '');
    if (!session) throw new Error('no fake session for the payment');
    return { ...who, paymentId, session };
  }

  function signed(payload: string, options: { secret?: string; timestamp?: number } = {}) {
    return Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? WEBHOOK_SECRET,
      ...(options.timestamp === undefined ? {} : { timestamp: options.timestamp }),
    });
  }

  async function deliver(
    payload: string,
    signature: string | null,
    server = app,
  ): Promise<Response> {
    return server.request('/api/webhooks/stripe', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        ...(signature === null ? {} : { 'Stripe-Signature': signature }),
      },
      body: payload,
    });
  }

  function event(
    type: CheckoutEventType,
    session: FakeCheckoutSession,
    overrides: Partial<FakeCheckoutSession> = {},
  ) {
    return checkoutSessionEvent(type, session, overrides);
  }

  async function transfersOf(paymentId: string) {
    return t.database.db
      .select()
      .from(ledgerTransfer)
      .where(eq(ledgerTransfer.idempotencyKey, `payment:${paymentId}`));
  }

  async function processed(eventId: string) {
    return t.database.db.select().from(processedEvent).where(eq(processedEvent.eventId, eventId));
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

  it('starts a checkout: a pending payment, one Checkout Session for its amount, no credit yet', async () => {
    const who = await customer();
    const before = fake.requests.length;
    const res = await call(app, who.client, '/api/funds/stripe/checkout', { amount: '25.50' });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { paymentId: string; url: string };
    expect(body.url).toMatch(new RegExp(`^${fake.baseUrl}/pay/cs_test_`));

    expect(fake.requests.length).toBe(before + 1);
    const sent = fake.requests[before];
    expect(sent).toMatchObject({
      method: 'POST',
      path: '/v1/checkout/sessions',
      idempotencyKey: `checkout:${body.paymentId}`,
      authorization: `Bearer ${SECRET_KEY}`,
    });
    expect(sent?.form).toMatchObject({
      mode: 'payment',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': '2550',
      'line_items[0][price_data][product_data][name]': 'Recarga de saldo',
      'line_items[0][quantity]': '1',
      client_reference_id: body.paymentId,
      'metadata[paymentId]': body.paymentId,
      success_url: `${TEST_ORIGIN}/addfunds?pago=exito`,
      cancel_url: `${TEST_ORIGIN}/addfunds?pago=cancelado`,
    });

    const row = await paymentRow(body.paymentId);
    expect(row).toMatchObject({
      userId: who.id,
      method: 'stripe',
      status: 'pending',
      amount: 2550n,
      transferId: null,
    });
    expect(body.url).toBe(`${fake.baseUrl}/pay/${row.providerRef}`);
    expect(fake.sessions.get(row.providerRef ?? '')?.amount_total).toBe(2550);
    expect(await balances(t.database.db, who.id)).toEqual({ available: 0n, held: 0n });
  });

  it('tells the web app whether cards are available and the limits', async () => {
    const who = await customer();
    const headers = { Cookie: [...who.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
    const on = await app.request('/api/funds/stripe', { headers });
    expect(await on.json()).toEqual({ available: true, minAmount: '5.00', maxAmount: '1000.00' });
    const off = await buildApp(null).request('/api/funds/stripe', { headers });
    expect(await off.json()).toEqual({ available: false, minAmount: null, maxAmount: null });
  });

  it.each([
    ['4.99', 'El mínimo con tarjeta es US$5.00.'],
    ['1000.01', 'El máximo con tarjeta es US$1,000.00.'],
    ['abc', 'Escribe un importe válido, con hasta dos decimales (por ejemplo 25.50).'],
    ['12.345', 'Escribe un importe válido, con hasta dos decimales (por ejemplo 25.50).'],
    ['1e3', 'Escribe un importe válido, con hasta dos decimales (por ejemplo 25.50).'],
    ['0', 'El importe debe ser mayor que cero.'],
    ['', 'Escribe un importe.'],
    [25, 'Escribe un importe.'],
    [undefined, 'Escribe un importe.'],
  ])('refuses the amount %j with a Spanish field message', async (amount, message) => {
    const who = await customer();
    const before = fake.requests.length;
    const res = await call(app, who.client, '/api/funds/stripe/checkout', { amount });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: 'VALIDATION_FAILED',
      message: ERROR_MESSAGES.VALIDATION_FAILED,
      fields: { amount: message },
    });
    expect(fake.requests.length).toBe(before);
    const rows = await t.database.db.select().from(payment).where(eq(payment.userId, who.id));
    expect(rows).toEqual([]);
  });

  it('accepts the exact limits', async () => {
    const who = await customer();
    for (const amount of ['5', '1000.00']) {
      const res = await call(app, who.client, '/api/funds/stripe/checkout', { amount });
      expect(res.status).toBe(201);
    }
  });

  it('allows 10 checkout attempts per customer in 10 minutes, then 429 with Retry-After', async () => {
    const who = await customer();
    const before = fake.requests.length;
    for (let i = 0; i < 10; i += 1) {
      // Under the card minimum: refused by the service, but the attempt counts.
      const res = await call(app, who.client, '/api/funds/stripe/checkout', { amount: '1.00' });
      expect(res.status).toBe(400);
    }
    const limited = await call(app, who.client, '/api/funds/stripe/checkout', { amount: '10.00' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toEqual({
      code: 'RATE_LIMITED',
      message: 'Has iniciado varios pagos seguidos. Espera unos minutos e inténtalo de nuevo.',
    });
    expect(fake.requests.length).toBe(before);
    // Another customer is not affected.
    const other = await customer();
    const ok = await call(app, other.client, '/api/funds/stripe/checkout', { amount: '10.00' });
    expect(ok.status).toBe(201);
  });

  it('requires a verified session', async () => {
    const res = await call(app, null, '/api/funds/stripe/checkout', { amount: '10.00' });
    expect(res.status).toBe(401);
  });

  it('answers 404 "not available" when Stripe is not configured', async () => {
    const who = await customer();
    const off = buildApp(null);
    const res = await call(off, who.client, '/api/funds/stripe/checkout', { amount: '10.00' });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      code: 'NOT_FOUND',
      message: 'El pago con tarjeta no está disponible.',
    });
    const hook = event('checkout.session.completed', {
      id: 'cs_test_x',
    } as FakeCheckoutSession);
    expect((await deliver(hook.payload, signed(hook.payload), off)).status).toBe(404);
  });

  it('marks the payment expired and answers 500 in Spanish when Stripe fails', async () => {
    const who = await customer();
    fake.failNext();
    const res = await call(app, who.client, '/api/funds/stripe/checkout', { amount: '40.00' });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({
      code: 'INTERNAL',
      message: 'No pudimos iniciar el pago con tarjeta. Inténtalo de nuevo.',
      requestId: res.headers.get('x-request-id'),
    });
    const rows = await t.database.db.select().from(payment).where(eq(payment.userId, who.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'expired', providerRef: null, amount: 4000n });
    // The next attempt is a new payment and works.
    const again = await call(app, who.client, '/api/funds/stripe/checkout', { amount: '40.00' });
    expect(again.status).toBe(201);
  });

  it('credits exactly the payment row amount on a signed checkout.session.completed', async () => {
    const { paymentId, session, id, email } = await pendingCheckout('25.50');
    const hook = event('checkout.session.completed', session);
    const res = await deliver(hook.payload, signed(hook.payload));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true });

    expect(await balances(t.database.db, id)).toEqual({ available: 2550n, held: 0n });
    const row = await paymentRow(paymentId);
    expect(row.status).toBe('completed');
    const transfers = await transfersOf(paymentId);
    expect(transfers).toHaveLength(1);
    expect(transfers[0]).toMatchObject({ amount: 2550n, kind: 'topup_stripe' });
    expect(row.transferId).toBe(transfers[0]?.id);
    expect(await processed(hook.id)).toMatchObject([{ provider: 'stripe', paymentId }]);

    const mail = await waitForMail(email);
    expect(mail.subject).toBe('Recarga acreditada en Cometa');
    expect(mail.text).toContain('acreditamos US$25.50 en tu saldo');
    expect(mail.text).toContain('Tu saldo disponible ahora es de US$25.50.');
  });

  it('credits once when the same event arrives 10 times at once and 10 more times after', async () => {
    const { paymentId, session, id } = await pendingCheckout('30.00');
    const hook = event('checkout.session.completed', session);
    const parallel = await Promise.all(
      Array.from({ length: 10 }, () => deliver(hook.payload, signed(hook.payload))),
    );
    expect(parallel.map((r) => r.status)).toEqual(Array<number>(10).fill(200));
    for (let i = 0; i < 10; i += 1) {
      const res = await deliver(hook.payload, signed(hook.payload));
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ received: true });
    }
    // A different event about the same paid session does not credit again either.
    const other = event('checkout.session.async_payment_succeeded', session);
    expect((await deliver(other.payload, signed(other.payload))).status).toBe(200);

    expect(await balances(t.database.db, id)).toEqual({ available: 3000n, held: 0n });
    expect(await transfersOf(paymentId)).toHaveLength(1);
    expect((await paymentRow(paymentId)).status).toBe('completed');
    expect(await processed(hook.id)).toHaveLength(1);
  });

  it('credits on checkout.session.async_payment_succeeded after an unpaid completion', async () => {
    const { paymentId, session, id } = await pendingCheckout('12.00');
    const unpaid = event('checkout.session.completed', session, { payment_status: 'unpaid' });
    expect((await deliver(unpaid.payload, signed(unpaid.payload))).status).toBe(200);
    expect((await paymentRow(paymentId)).status).toBe('pending');
    expect(await balances(t.database.db, id)).toEqual({ available: 0n, held: 0n });

    const paid = event('checkout.session.async_payment_succeeded', session);
    expect((await deliver(paid.payload, signed(paid.payload))).status).toBe(200);
    expect((await paymentRow(paymentId)).status).toBe('completed');
    expect(await balances(t.database.db, id)).toEqual({ available: 1200n, held: 0n });
  });

  it('refuses bad signatures with 400 and credits nothing', async () => {
    const { paymentId, session, id } = await pendingCheckout('50.00');
    const hook = event('checkout.session.completed', session);
    const now = Math.floor(Date.now() / 1000);
    const tampered = hook.payload.replace('"amount_total":5000', '"amount_total":500000');
    expect(tampered).not.toBe(hook.payload);
    const cases: [string, string | null][] = [
      [hook.payload, null],
      [hook.payload, 'garbage'],
      [hook.payload, signed(hook.payload, { secret: 'whsec_someone_else' })],
      [hook.payload, signed(hook.payload, { timestamp: now - 301 })],
      [hook.payload, signed(hook.payload, { timestamp: now - 3600 })],
      [tampered, signed(hook.payload)],
    ];
    for (const [payload, signature] of cases) {
      const res = await deliver(payload, signature);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        code: 'BAD_REQUEST',
        message: 'Firma del webhook no válida.',
      });
    }
    expect((await paymentRow(paymentId)).status).toBe('pending');
    expect(await balances(t.database.db, id)).toEqual({ available: 0n, held: 0n });
    expect(await processed(hook.id)).toEqual([]);
    // A signature a little under the tolerance is still good.
    const ok = await deliver(hook.payload, signed(hook.payload, { timestamp: now - 240 }));
    expect(ok.status).toBe(200);
    expect(await balances(t.database.db, id)).toEqual({ available: 5000n, held: 0n });
  });

  it('does not credit an event whose amount or currency differs from the payment', async () => {
    const { paymentId, session, id } = await pendingCheckout('20.00');
    const more = event('checkout.session.completed', session, { amount_total: 200000 });
    expect((await deliver(more.payload, signed(more.payload))).status).toBe(200);
    const euros = event('checkout.session.completed', session, { currency: 'eur' });
    expect((await deliver(euros.payload, signed(euros.payload))).status).toBe(200);

    const row = await paymentRow(paymentId);
    expect(row).toMatchObject({ status: 'pending', amount: 2000n, transferId: null });
    expect(await balances(t.database.db, id)).toEqual({ available: 0n, held: 0n });
    expect(await transfersOf(paymentId)).toEqual([]);
    // Recorded, so a redelivery is not reconsidered.
    expect(await processed(more.id)).toMatchObject([{ paymentId }]);
    expect(await processed(euros.id)).toMatchObject([{ paymentId }]);
  });

  it('marks the payment expired on checkout.session.expired, and never credits it after', async () => {
    const { paymentId, session, id } = await pendingCheckout('15.00');
    const expired = event('checkout.session.expired', session, { payment_status: 'unpaid' });
    expect((await deliver(expired.payload, signed(expired.payload))).status).toBe(200);
    expect((await paymentRow(paymentId)).status).toBe('expired');

    const late = event('checkout.session.completed', session);
    expect((await deliver(late.payload, signed(late.payload))).status).toBe(200);
    expect((await paymentRow(paymentId)).status).toBe('expired');
    expect(await balances(t.database.db, id)).toEqual({ available: 0n, held: 0n });
  });

  it('acknowledges sessions that are not ours', async () => {
    const { session } = await pendingCheckout('10.00');
    const stranger = event('checkout.session.completed', { ...session, id: 'cs_test_not_ours' });
    const res = await deliver(stranger.payload, signed(stranger.payload));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true });
    expect(await processed(stranger.id)).toEqual([]);
  });

  it('rejects the payment when a delayed payment fails, and never credits it after', async () => {
    const { paymentId, session, id } = await pendingCheckout('12.00');
    const failed = event('checkout.session.async_payment_failed', session, {
      payment_status: 'unpaid',
    });
    expect((await deliver(failed.payload, signed(failed.payload))).status).toBe(200);
    expect(await paymentRow(paymentId)).toMatchObject({
      status: 'rejected',
      rejectReason: 'El banco rechazó el pago. No se hizo ningún cargo.',
    });
    const late = event('checkout.session.async_payment_succeeded', session);
    expect((await deliver(late.payload, signed(late.payload))).status).toBe(200);
    expect(await balances(t.database.db, id)).toEqual({ available: 0n, held: 0n });
  });

  it('still answers 200 and keeps the credit when the e-mail fails', async () => {
    const failing: Mailer = {
      kind: 'outbox',
      async send() {
        throw new Error('smtp down');
      },
    };
    const withBrokenMail = buildApp(config, failing);
    const { paymentId, session, id } = await pendingCheckout('8.00');
    const hook = event('checkout.session.completed', session);
    const res = await deliver(hook.payload, signed(hook.payload), withBrokenMail);
    expect(res.status).toBe(200);
    expect((await paymentRow(paymentId)).status).toBe('completed');
    expect(await balances(t.database.db, id)).toEqual({ available: 800n, held: 0n });
  });

  it('leaves the ledger consistent', async () => {
    const report = await verifyLedger(t.database.db);
    expect(report.problems).toEqual([]);
    expect(report.transfers).toBeGreaterThan(0);
  });
});

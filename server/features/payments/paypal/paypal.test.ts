import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_MESSAGES } from '../../../../shared/error-codes';
import { quote } from '../../../../shared/fees';
import { formatAmount } from '../../../../shared/money';
import { ACCOUNT_BLOCKED_MESSAGE } from '../../../../shared/schemas/payments';
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
import { queryRows } from '../../../db/client';
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
import type { Env } from '../../../env';
import { balances } from '../../ledger/ledger.service';
import { verifyLedger } from '../../ledger/ledger.verify';
import { captureOrder } from './paypal.api';
import { startFakePaypal, type FakePaypal, type SignedEvent } from './fake-paypal';
import { runPaypalCapture } from './paypal.service';

/** PayPal's fee in these tests: 2.90 % + US$0.30 on top of the amount. */
const TERMS = { feePercentBp: 290, feeFixed: 30n };

function totalOf(amountCents: bigint): string {
  return formatAmount(quote(amountCents, TERMS).total);
}

describe.each(dbTargets())('PayPal top-ups on %s', (target) => {
  let t: TestApp;
  let fake: FakePaypal;
  let env: Env;
  let serviceId: string;

  beforeAll(async () => {
    fake = await startFakePaypal();
    t = await createTestApp(target, {
      PAYPAL_CLIENT_ID: fake.clientId,
      PAYPAL_CLIENT_SECRET: fake.clientSecret,
      PAYPAL_WEBHOOK_ID: fake.webhookId,
      PAYPAL_API_BASE: fake.baseUrl,
    });
    env = t.env;
    expect(env.paypal).not.toBeNull();
    await t.database.db.insert(gatewaySetting).values({
      method: 'paypal',
      feePercentBp: TERMS.feePercentBp,
      feeFixed: TERMS.feeFixed,
      minAmount: 500n,
      maxAmount: 100_000n,
    });
    const [svc] = await t.database.db
      .insert(service)
      .values({
        category: 'IMEI',
        name: 'Desbloqueo de operador',
        description: 'Liberación por IMEI.',
        deliveryTime: '1–24 horas',
        price: 1500n,
        fields: [{ key: 'imei', label: 'IMEI', type: 'imei', required: true, identifier: true }],
      })
      .returning({ id: service.id });
    serviceId = svc!.id;
  });

  afterAll(async () => {
    await fake?.close();
    await t?.close();
  });

  async function customer(name = 'Lucía Gómez') {
    const { client, email } = await registerVerified(t, name);
    return { client, email, id: await userIdOf(t, email) };
  }

  /** A POST to `server` (another configuration of the same app) with the client's session. */
  function call(server: TestApp['app'], client: TestClient, path: string, body?: unknown) {
    return server.request(path, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Origin: TEST_ORIGIN,
        Cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  async function paymentRow(id: string) {
    const [row] = await t.database.db.select().from(payment).where(eq(payment.id, id));
    if (!row) throw new Error(`payment ${id} not found`);
    return row;
  }

  async function transfersOf(paymentId: string) {
    return t.database.db
      .select()
      .from(ledgerTransfer)
      .where(
        and(eq(ledgerTransfer.referenceType, 'payment'), eq(ledgerTransfer.referenceId, paymentId)),
      );
  }

  async function processed(eventId: string) {
    return t.database.db
      .select()
      .from(processedEvent)
      .where(eq(processedEvent.eventId, `paypal:${eventId}`));
  }

  /** A customer with a pending PayPal top-up of `amount` and its order at the fake. */
  async function pendingTopup(amount = '25.00', who?: Awaited<ReturnType<typeof customer>>) {
    const person = who ?? (await customer());
    const res = await person.client.post('/api/payments/paypal', { amount });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string; approveUrl: string };
    const row = await paymentRow(id);
    const orderId = row.providerRef ?? '';
    expect(fake.orders.has(orderId)).toBe(true);
    return { ...person, paymentId: id, orderId };
  }

  /** The customer approved on PayPal and came back: the capture, by PayPal's `token`. */
  async function approvedAndCaptured(amount = '25.00') {
    const topup = await pendingTopup(amount);
    fake.approve(topup.orderId);
    const res = await topup.client.post(`/api/payments/paypal/${topup.orderId}/capture`);
    expect(res.status).toBe(200);
    const captureId = (await paymentRow(topup.paymentId)).providerPaymentId ?? '';
    expect(fake.captures.has(captureId)).toBe(true);
    return { ...topup, captureId, body: (await res.json()) as CaptureBody };
  }

  type CaptureBody = {
    payment: {
      id: string;
      status: string;
      amount: string;
      fee: string;
      note: string | null;
      rejectReason: string | null;
      receipts: { id: string; number: string }[];
    };
    balance: string;
  };

  function deliver(event: SignedEvent, server: TestApp['app'] = t.app, headers = event.headers) {
    return server.request('/api/webhooks/paypal', {
      method: 'POST',
      headers,
      body: event.body,
    });
  }

  it('creates an order at PayPal for amount + fee: 201 { id, approveUrl }, a pending payment', async () => {
    const who = await customer();
    const before = fake.requests.length;
    const res = await who.client.post('/api/payments/paypal', { amount: '25.00' });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { id: string; approveUrl: string };
    expect(Object.keys(body).sort()).toEqual(['approveUrl', 'id']);
    const row = await paymentRow(body.id);
    const fee = quote(2500n, TERMS).fee;
    expect(row).toMatchObject({
      userId: who.id,
      method: 'paypal',
      status: 'pending',
      amount: 2500n,
      fee,
      transferId: null,
      checkoutUrl: body.approveUrl,
    });
    expect(body.approveUrl).toBe(`${fake.baseUrl}/checkoutnow?token=${row.providerRef}`);

    const sent = fake.requests.slice(before).find((r) => r.path === '/v2/checkout/orders');
    expect(sent?.requestId).toBe(`topup-${body.id}`);
    expect(sent?.authorization).toMatch(/^Bearer \S+$/);
    expect(JSON.parse(sent?.body ?? '')).toEqual({
      intent: 'CAPTURE',
      purchase_units: [
        {
          reference_id: body.id,
          custom_id: body.id,
          description: 'Recarga de saldo',
          amount: { currency_code: 'USD', value: totalOf(2500n) },
        },
      ],
      payment_source: {
        paypal: {
          experience_context: {
            return_url: `${env.APP_URL}/addfunds?pago=paypal&id=${body.id}`,
            cancel_url: `${env.APP_URL}/addfunds?pago=cancelado`,
            user_action: 'PAY_NOW',
            shipping_preference: 'NO_SHIPPING',
            brand_name: env.APP_NAME,
            locale: 'es-ES',
          },
        },
      },
    });
    expect(totalOf(2500n)).toBe('26.03');
    expect(fake.orders.get(row.providerRef ?? '')?.status).toBe('PAYER_ACTION_REQUIRED');
    expect(await balances(t.database.db, who.id)).toEqual({ available: 0n, held: 0n });
  });

  let limited: Awaited<ReturnType<typeof customer>> | undefined;
  it.each([
    ['4.99', 'El mínimo con PayPal es US$5.00.'],
    ['1000.01', 'El máximo con PayPal es US$1,000.00.'],
    ['abc', 'Escribe un importe válido, con hasta dos decimales (por ejemplo 25.50).'],
    ['0', 'El importe debe ser mayor que cero.'],
    [25, 'Escribe un importe.'],
  ])('refuses the amount %j with a Spanish field message', async (amount, message) => {
    limited ??= await customer('Cliente Con Límites');
    const who = limited;
    const before = fake.requests.length;
    const res = await who.client.post('/api/payments/paypal', { amount });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: 'VALIDATION_FAILED',
      message: ERROR_MESSAGES.VALIDATION_FAILED,
      fields: { amount: message },
    });
    expect(fake.requests.length).toBe(before);
    expect(await t.database.db.select().from(payment).where(eq(payment.userId, who.id))).toEqual(
      [],
    );
  });

  it('answers 404 "not available" when PayPal is not configured', async () => {
    const { client, paymentId } = await pendingTopup('10.00');
    const off = t.appWith({ env: { ...t.env, paypal: null } });
    const notAvailable = { code: 'NOT_FOUND', message: 'El pago con PayPal no está disponible.' };
    const create = await call(off, client, '/api/payments/paypal', { amount: '10.00' });
    expect(create.status).toBe(404);
    expect(await create.json()).toEqual(notAvailable);
    const capture = await call(off, client, `/api/payments/paypal/${paymentId}/capture`);
    expect(capture.status).toBe(404);
    const hook = await deliver(fake.signedEvent('PAYMENT.CAPTURE.COMPLETED', {}), off);
    expect(hook.status).toBe(404);
  });

  it('expires the payment and answers 500 in Spanish when PayPal fails', async () => {
    const who = await customer();
    fake.failNext();
    const res = await who.client.post('/api/payments/paypal', { amount: '40.00' });
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({
      code: 'INTERNAL',
      message: 'No pudimos iniciar el pago con PayPal. Inténtalo de nuevo.',
    });
    const rows = await t.database.db.select().from(payment).where(eq(payment.userId, who.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'expired', providerRef: null });
  });

  it('refuses to capture before the customer approved: 409, still pending', async () => {
    const { client, paymentId } = await pendingTopup('12.00');
    const res = await client.post(`/api/payments/paypal/${paymentId}/capture`);
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({
      code: 'CONFLICT',
      message: 'Todavía no aprobaste el pago en PayPal.',
    });
    expect((await paymentRow(paymentId)).status).toBe('pending');
  });

  it('a return before approving does not spoil the capture once the customer approves', async () => {
    const { client, paymentId, orderId } = await pendingTopup('13.00');
    expect((await client.post(`/api/payments/paypal/${paymentId}/capture`)).status).toBe(409);
    // No capture was asked of PayPal for an order not approved (its request id stays unused).
    expect(fake.requests.some((r) => r.path === `/v2/checkout/orders/${orderId}/capture`)).toBe(
      false,
    );
    fake.approve(orderId);
    const res = await client.post(`/api/payments/paypal/${paymentId}/capture`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { payment: { status: string } }).payment.status).toBe(
      'completed',
    );
    expect((await paymentRow(paymentId)).status).toBe('completed');
  });

  it('captures on the return and credits once: ledger, receipt, e-mail; a second return changes nothing', async () => {
    const { id, email, paymentId, orderId, captureId, body, client } =
      await approvedAndCaptured('25.00');
    expect(body.payment).toMatchObject({
      id: paymentId,
      status: 'completed',
      amount: '25.00',
      fee: formatAmount(quote(2500n, TERMS).fee),
    });
    expect(body.payment.receipts).toHaveLength(1);
    expect(body.balance).toBe('25.00');
    const captureCall = fake.requests.find(
      (r) => r.path === `/v2/checkout/orders/${orderId}/capture`,
    );
    expect(captureCall?.requestId).toBe(`capture-${paymentId}`);

    const row = await paymentRow(paymentId);
    expect(row).toMatchObject({
      status: 'completed',
      providerPaymentId: captureId,
      providerStatus: 'COMPLETED',
    });
    const transfers = await transfersOf(paymentId);
    expect(transfers).toHaveLength(1);
    expect(transfers[0]).toMatchObject({ kind: 'topup_paypal', amount: 2500n });
    const receipts = await t.database.db
      .select()
      .from(receipt)
      .where(eq(receipt.paymentId, paymentId));
    expect(receipts).toHaveLength(1);
    expect(receipts[0]?.number).toBe(body.payment.receipts[0]?.number);

    const before = fake.requests.length;
    for (const ref of [paymentId, orderId]) {
      const again = await client.post(`/api/payments/paypal/${ref}/capture`);
      expect(again.status).toBe(200);
      expect(((await again.json()) as CaptureBody).payment.status).toBe('completed');
    }
    expect(fake.requests.length).toBe(before);
    expect(await balances(t.database.db, id)).toEqual({ available: 2500n, held: 0n });
    expect(await transfersOf(paymentId)).toHaveLength(1);

    const mail = await t.waitForMail(email, /Recarga acreditada/);
    expect(mail.text).toContain('Recibimos tu pago con PayPal y acreditamos US$25.00 en tu saldo.');
    expect(mail.text).toContain('Tu saldo disponible ahora es de US$25.00.');
  });

  it('answers 404 for another customer’s payment, by our id or PayPal’s', async () => {
    const { paymentId, orderId } = await pendingTopup('10.00');
    fake.approve(orderId);
    const other = await customer('Otro Cliente');
    for (const ref of [paymentId, orderId, 'not-an-order']) {
      const res = await other.client.post(`/api/payments/paypal/${ref}/capture`);
      expect(res.status).toBe(404);
    }
    expect((await paymentRow(paymentId)).status).toBe('pending');
    expect(fake.orders.get(orderId)?.status).toBe('APPROVED');
  });

  it('uses the capture of an order captured before (ORDER_ALREADY_CAPTURED)', async () => {
    const { client, paymentId, orderId, id } = await pendingTopup('15.00');
    fake.approve(orderId);
    // Captured at PayPal by an earlier attempt whose answer never arrived (another request id).
    await captureOrder(env.paypal!, orderId, 'lost-attempt');
    const res = await client.post(`/api/payments/paypal/${paymentId}/capture`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as CaptureBody).payment.status).toBe('completed');
    expect(await balances(t.database.db, id)).toEqual({ available: 1500n, held: 0n });
  });

  it('credits once when the capture answer, the return and 10 webhook deliveries race', async () => {
    const { client, paymentId, orderId, id } = await pendingTopup('30.00');
    fake.approve(orderId);
    // Our capture reached PayPal (same request id) but its answer is not processed yet; PayPal's
    // COMPLETED event arrives before the customer is back.
    const order = await captureOrder(env.paypal!, orderId, paymentId);
    const captureId = order.purchase_units?.[0]?.payments?.captures?.[0]?.id ?? '';
    const resource = fake.captureResource(captureId);
    const first = fake.signedEvent('PAYMENT.CAPTURE.COMPLETED', resource);
    const events = [
      ...Array.from({ length: 5 }, () => first),
      ...Array.from({ length: 5 }, () => fake.signedEvent('PAYMENT.CAPTURE.COMPLETED', resource)),
    ];
    const [returned, ...hooks] = await Promise.all([
      client.post(`/api/payments/paypal/${orderId}/capture`),
      ...events.map((e) => deliver(e)),
    ]);
    expect(returned?.status).toBe(200);
    expect(hooks.map((h) => h.status)).toEqual(Array<number>(10).fill(200));
    // Out of order: a late PENDING or DENIED about the same capture changes nothing.
    for (const type of ['PAYMENT.CAPTURE.PENDING', 'PAYMENT.CAPTURE.DENIED']) {
      expect((await deliver(fake.signedEvent(type, resource))).status).toBe(200);
    }
    expect(await balances(t.database.db, id)).toEqual({ available: 3000n, held: 0n });
    expect(await transfersOf(paymentId)).toHaveLength(1);
    expect((await paymentRow(paymentId)).status).toBe('completed');
    expect(await processed(first.id)).toHaveLength(1);
  });

  it('credits on the webhook alone when the customer never returns; replays change nothing', async () => {
    const { paymentId, orderId, id } = await pendingTopup('11.00');
    fake.approve(orderId);
    const order = await captureOrder(env.paypal!, orderId, paymentId);
    const captureId = order.purchase_units?.[0]?.payments?.captures?.[0]?.id ?? '';
    // Found by the order id alone (no custom_id in this delivery).
    const { custom_id: _omit, ...resource } = fake.captureResource(captureId);
    const event = fake.signedEvent('PAYMENT.CAPTURE.COMPLETED', resource);
    const res = await deliver(event);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true });
    expect(await balances(t.database.db, id)).toEqual({ available: 1100n, held: 0n });
    for (let i = 0; i < 3; i += 1) expect((await deliver(event)).status).toBe(200);
    expect(await balances(t.database.db, id)).toEqual({ available: 1100n, held: 0n });
    expect(await processed(event.id)).toMatchObject([{ provider: 'paypal', paymentId }]);
  });

  it('refuses forged or unverifiable webhooks with 400 and changes nothing', async () => {
    const { paymentId, orderId, id } = await pendingTopup('50.00');
    fake.approve(orderId);
    const order = await captureOrder(env.paypal!, orderId, paymentId);
    const captureId = order.purchase_units?.[0]?.payments?.captures?.[0]?.id ?? '';
    const resource = fake.captureResource(captureId);
    const genuine = fake.signedEvent('PAYMENT.CAPTURE.COMPLETED', resource);
    // The same JSON in other bytes: PayPal's signature covers the exact body.
    const tampered = { ...genuine, body: genuine.body.replace('{"id"', '{ "id"') };
    expect(tampered.body).not.toBe(genuine.body);
    const other = fake.signedEvent('PAYMENT.CAPTURE.COMPLETED', { ...resource, id: 'OTHER' });
    const value = totalOf(5000n);
    const altered = {
      ...genuine,
      body: genuine.body.replace(`"value":"${value}"`, '"value":"5000.00"'),
    };
    expect(altered.body).not.toBe(genuine.body);
    const cases: { event: SignedEvent; headers: Record<string, string> }[] = [
      { event: altered, headers: genuine.headers },
      { event: genuine, headers: other.headers },
      {
        event: genuine,
        headers: { ...genuine.headers, 'paypal-transmission-sig': 'Zm9yZ2Vk' },
      },
      {
        event: genuine,
        headers: { ...genuine.headers, 'paypal-transmission-id': 'f'.repeat(32) },
      },
      { event: { ...genuine, body: 'not json' }, headers: genuine.headers },
      { event: tampered, headers: genuine.headers },
      ...[
        'paypal-auth-algo',
        'paypal-cert-url',
        'paypal-transmission-id',
        'paypal-transmission-sig',
        'paypal-transmission-time',
      ].map((name) => {
        const headers = { ...genuine.headers };
        delete headers[name];
        return { event: genuine, headers };
      }),
    ];
    for (const { event, headers } of cases) {
      const res = await deliver(event, t.app, headers);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        code: 'BAD_REQUEST',
        message: 'Firma del webhook no válida.',
      });
    }
    // A webhook id other than the one PayPal signed for: PayPal says FAILURE.
    const elsewhere = t.appWith({
      env: { ...t.env, paypal: { ...env.paypal!, webhookId: 'WH-SOMEONE-ELSE' } },
    });
    expect((await deliver(genuine, elsewhere)).status).toBe(400);
    // Without PAYPAL_WEBHOOK_ID nothing can be verified: every delivery is refused.
    const noHook = t.appWith({ env: { ...t.env, paypal: { ...env.paypal!, webhookId: null } } });
    const refused = await deliver(genuine, noHook);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      code: 'BAD_REQUEST',
      message: 'Los avisos de PayPal no están configurados en esta tienda.',
    });

    expect((await paymentRow(paymentId)).status).toBe('pending');
    expect(await balances(t.database.db, id)).toEqual({ available: 0n, held: 0n });
    expect(await processed(genuine.id)).toEqual([]);
    // The genuine delivery still works.
    expect((await deliver(genuine)).status).toBe(200);
    expect(await balances(t.database.db, id)).toEqual({ available: 5000n, held: 0n });
  });

  it('does not credit a capture whose amount differs from amount + fee', async () => {
    const { paymentId, orderId, id } = await pendingTopup('20.00');
    fake.approve(orderId);
    const order = await captureOrder(env.paypal!, orderId, paymentId);
    const captureId = order.purchase_units?.[0]?.payments?.captures?.[0]?.id ?? '';
    const resource = fake.captureResource(captureId);
    for (const amount of [
      { currency_code: 'USD', value: '20.00' },
      { currency_code: 'EUR', value: totalOf(2000n) },
    ]) {
      const event = fake.signedEvent('PAYMENT.CAPTURE.COMPLETED', { ...resource, amount });
      expect((await deliver(event)).status).toBe(200);
      expect(await processed(event.id)).toMatchObject([{ paymentId }]);
    }
    expect(await paymentRow(paymentId)).toMatchObject({ status: 'pending', transferId: null });
    expect(await balances(t.database.db, id)).toEqual({ available: 0n, held: 0n });
  });

  it('keeps a PENDING capture pending until PayPal’s COMPLETED event', async () => {
    const { client, paymentId, orderId, id } = await pendingTopup('14.00');
    fake.approve(orderId);
    fake.setCaptureStatus('PENDING');
    try {
      const res = await client.post(`/api/payments/paypal/${paymentId}/capture`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as CaptureBody).payment.status).toBe('pending');
    } finally {
      fake.setCaptureStatus('COMPLETED');
    }
    const row = await paymentRow(paymentId);
    expect(row).toMatchObject({ status: 'pending', providerStatus: 'PENDING' });
    const captureId = row.providerPaymentId ?? '';
    const pendingEvent = fake.signedEvent(
      'PAYMENT.CAPTURE.PENDING',
      fake.captureResource(captureId),
    );
    expect((await deliver(pendingEvent)).status).toBe(200);
    expect(await balances(t.database.db, id)).toEqual({ available: 0n, held: 0n });

    // Asking again reads the order (no second capture request) while PayPal still holds it.
    const again = await client.post(`/api/payments/paypal/${paymentId}/capture`);
    expect(((await again.json()) as CaptureBody).payment.status).toBe('pending');
    expect(fake.requests.filter((r) => r.path.endsWith(`${orderId}/capture`))).toHaveLength(1);

    fake.completeCapture(captureId);
    const done = fake.signedEvent('PAYMENT.CAPTURE.COMPLETED', fake.captureResource(captureId));
    expect((await deliver(done)).status).toBe(200);
    expect(await paymentRow(paymentId)).toMatchObject({
      status: 'completed',
      providerStatus: 'COMPLETED',
    });
    expect(await balances(t.database.db, id)).toEqual({ available: 1400n, held: 0n });
  });

  it('rejects the payment when PayPal declines the capture', async () => {
    const { client, paymentId, orderId, id } = await pendingTopup('9.00');
    fake.approve(orderId);
    fake.setCaptureStatus('DECLINED');
    try {
      const res = await client.post(`/api/payments/paypal/${paymentId}/capture`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as CaptureBody).payment).toMatchObject({
        status: 'rejected',
        rejectReason: 'PayPal rechazó el pago. No se hizo ningún cargo.',
      });
    } finally {
      fake.setCaptureStatus('COMPLETED');
    }
    expect(await balances(t.database.db, id)).toEqual({ available: 0n, held: 0n });
  });

  it('debits refunds once each, up to what was credited, and e-mails the customer', async () => {
    const { paymentId, captureId, id, email } = await approvedAndCaptured('25.00');
    const partial = fake.refund(captureId, '10.00');
    const event = fake.signedEvent('PAYMENT.CAPTURE.REFUNDED', partial);
    expect((await deliver(event)).status).toBe(200);
    expect((await deliver(event)).status).toBe(200);
    expect(await balances(t.database.db, id)).toEqual({ available: 1500n, held: 0n });
    expect(await paymentRow(paymentId)).toMatchObject({
      status: 'completed',
      reversedAmount: 1000n,
    });
    const mail = await t.waitForMail(email, /Revertimos una recarga/);
    expect(mail.text).toContain('descontamos US$10.00 de tu saldo');
    expect(mail.text).toContain('Tu saldo disponible ahora es de US$15.00.');

    // The rest (amount + fee at PayPal) debits only what is still credited.
    const rest = fake.refund(captureId);
    expect(rest.amount.value).toBe(formatAmount(quote(2500n, TERMS).total - 1000n));
    expect((await deliver(fake.signedEvent('PAYMENT.CAPTURE.REFUNDED', rest))).status).toBe(200);
    expect(await balances(t.database.db, id)).toEqual({ available: 0n, held: 0n });
    expect(await paymentRow(paymentId)).toMatchObject({
      status: 'reversed',
      reversedAmount: 2500n,
    });
    const reversals = (await transfersOf(paymentId)).filter((tr) => tr.kind === 'topup_reversal');
    expect(reversals.map((r) => r.amount).sort()).toEqual([1000n, 1500n]);
  });

  it('debits a chargeback past zero after the money was spent: flagged, orders refused', async () => {
    const { client, paymentId, captureId, id, email } = await approvedAndCaptured('20.00');
    const placed = await client.post('/api/orders', {
      serviceId,
      fields: { imei: imeiFor(Date.now() % 1_000_000_000) },
    });
    expect(placed.status).toBe(201);
    expect(await balances(t.database.db, id)).toEqual({ available: 500n, held: 1500n });

    const reversal = fake.reverse(captureId);
    const event = fake.signedEvent('PAYMENT.CAPTURE.REVERSED', reversal);
    expect((await deliver(event)).status).toBe(200);
    expect((await deliver(event)).status).toBe(200);
    expect(await balances(t.database.db, id)).toEqual({ available: -1500n, held: 1500n });
    expect(await paymentRow(paymentId)).toMatchObject({
      status: 'reversed',
      reversedAmount: 2000n,
      rejectReason: 'Pago revertido en PayPal (contracargo)',
    });
    const flags = await t.database.db.select().from(accountFlag).where(eq(accountFlag.userId, id));
    expect(flags).toHaveLength(1);
    expect(flags[0]).toMatchObject({ paymentId, clearedAt: null });

    const refused = await client.post('/api/orders', {
      serviceId,
      fields: { imei: imeiFor((Date.now() + 7) % 1_000_000_000) },
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      code: 'ACCOUNT_BLOCKED',
      message: ACCOUNT_BLOCKED_MESSAGE,
    });
    const mail = await t.waitForMail(email, /Revertimos una recarga/);
    expect(mail.text).toContain('descontamos US$20.00 de tu saldo');
    expect(mail.text).toContain('-US$15.00');
    expect(mail.text).toContain('no podrás hacer órdenes hasta que soporte revise tu cuenta');
    expect((await verifyLedger(t.database.db)).problems).toEqual([]);
  });

  it('holds a new account’s first PayPal top-up above the threshold for review', async () => {
    await t.database.db
      .update(paymentSettings)
      .set({ holdThreshold: 1000n })
      .where(eq(paymentSettings.id, 1));
    try {
      const who = await customer('Cliente Nuevo');
      const first = await pendingTopup('20.00', who);
      fake.approve(first.orderId);
      const held = await who.client.post(`/api/payments/paypal/${first.paymentId}/capture`);
      expect(held.status).toBe(200);
      const heldBody = (await held.json()) as CaptureBody;
      expect(heldBody.payment.status).toBe('review');
      expect(heldBody.payment.note).toMatch(/^Primera recarga con PayPal por encima de US\$10\.00/);
      expect(heldBody.balance).toBe('0.00');
      expect(await transfersOf(first.paymentId)).toEqual([]);
      // The COMPLETED webhook afterwards does not credit it either.
      const captureId = (await paymentRow(first.paymentId)).providerPaymentId ?? '';
      const event = fake.signedEvent('PAYMENT.CAPTURE.COMPLETED', fake.captureResource(captureId));
      expect((await deliver(event)).status).toBe(200);
      expect((await paymentRow(first.paymentId)).status).toBe('review');

      const second = await pendingTopup('5.00', who);
      fake.approve(second.orderId);
      const credited = await who.client.post(`/api/payments/paypal/${second.paymentId}/capture`);
      expect(((await credited.json()) as CaptureBody).payment.status).toBe('completed');
      expect(await balances(t.database.db, who.id)).toEqual({ available: 500n, held: 0n });
    } finally {
      await t.database.db
        .update(paymentSettings)
        .set({ holdThreshold: null })
        .where(eq(paymentSettings.id, 1));
    }
  });

  it('queues one capture job per approved order (CHECKOUT.ORDER.APPROVED), which credits', async () => {
    const { paymentId, orderId, id } = await pendingTopup('18.00');
    const order = fake.approve(orderId);
    const approved = fake.signedEvent('CHECKOUT.ORDER.APPROVED', order);
    expect((await deliver(approved)).status).toBe(200);
    expect((await deliver(approved)).status).toBe(200);
    // Another delivery (another event id) about the same order: still one job waiting.
    expect((await deliver(fake.signedEvent('CHECKOUT.ORDER.APPROVED', order))).status).toBe(200);
    const jobs = await queryRows<{ data: { paymentId: string }; state: string }>(
      t.database.db,
      sql`SELECT data, state FROM pgboss.job WHERE name = 'paypal-capture' AND singleton_key = ${orderId}`,
    );
    expect(jobs).toEqual([{ data: { paymentId }, state: 'created' }]);
    expect(await balances(t.database.db, id)).toEqual({ available: 0n, held: 0n });

    // What the worker runs for that job.
    await runPaypalCapture(t.deps, paymentId);
    expect((await paymentRow(paymentId)).status).toBe('completed');
    expect(await balances(t.database.db, id)).toEqual({ available: 1800n, held: 0n });
    // Run again (a retried job): no PayPal call, no second credit.
    const before = fake.requests.length;
    await runPaypalCapture(t.deps, paymentId);
    expect(fake.requests.length).toBe(before);
    expect(await transfersOf(paymentId)).toHaveLength(1);
  });

  it('acknowledges events it does not handle, and orders that are not ours', async () => {
    const ignored = fake.signedEvent('PAYMENT.AUTHORIZATION.CREATED', { id: 'AUTH1' });
    expect((await deliver(ignored)).status).toBe(200);
    const stranger = fake.signedEvent('PAYMENT.CAPTURE.COMPLETED', {
      id: 'NOTOURS000000000',
      status: 'COMPLETED',
      amount: { currency_code: 'USD', value: '10.00' },
    });
    const res = await deliver(stranger);
    expect(res.status).toBe(200);
    expect(await processed(stranger.id)).toEqual([]);
  });

  it('leaves the ledger consistent', async () => {
    const report = await verifyLedger(t.database.db);
    expect(report.problems).toEqual([]);
    expect(report.transfers).toBeGreaterThan(0);
  });
});

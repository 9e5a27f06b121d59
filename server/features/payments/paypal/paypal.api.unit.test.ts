import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PaypalConfig } from '../gateway-config';
import { startFakePaypal, type FakePaypal } from './fake-paypal';
import {
  PaypalApiError,
  accessToken,
  clearPaypalTokens,
  createOrder,
  getOrder,
  verifyWebhookSignature,
} from './paypal.api';

describe('PayPal API client', () => {
  let fake: FakePaypal;
  let config: PaypalConfig;

  beforeAll(async () => {
    fake = await startFakePaypal({ webhookId: 'WH-UNIT-TEST' });
    config = {
      clientId: fake.clientId,
      clientSecret: fake.clientSecret,
      webhookId: fake.webhookId,
      apiBase: fake.baseUrl,
    };
  });
  afterAll(async () => {
    await fake?.close();
  });
  beforeEach(() => clearPaypalTokens());

  it('caches the token until shortly before it expires, and shares one request', async () => {
    let now = 1_000_000;
    const clock = () => now;
    const before = fake.tokenRequests();
    const [a, b, c] = await Promise.all([
      accessToken(config, clock),
      accessToken(config, clock),
      accessToken(config, clock),
    ]);
    expect(new Set([a, b, c]).size).toBe(1);
    expect(fake.tokenRequests()).toBe(before + 1);
    // expires_in is 9 hours: still good 8 h 54 min later, renewed at 8 h 56 min.
    now += (9 * 3600 - 6 * 60) * 1000;
    expect(await accessToken(config, clock)).toBe(a);
    expect(fake.tokenRequests()).toBe(before + 1);
    now += 2 * 60 * 1000;
    const renewed = await accessToken(config, clock);
    expect(renewed).not.toBe(a);
    expect(fake.tokenRequests()).toBe(before + 2);
  });

  it('refuses wrong credentials with PayPal’s OAuth error', async () => {
    const wrong = { ...config, clientSecret: 'nope' };
    await expect(accessToken(wrong)).rejects.toMatchObject({
      status: 401,
      issue: 'invalid_client',
    });
  });

  it('gets a new token once when PayPal revokes the cached one', async () => {
    await accessToken(config);
    const before = fake.tokenRequests();
    fake.revokeTokens();
    const err = await getOrder(config, 'NOSUCHORDER00000').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PaypalApiError);
    expect(err).toMatchObject({ status: 404, issue: 'INVALID_RESOURCE_ID' });
    expect(fake.tokenRequests()).toBe(before + 1);
  });

  it('creates an order whose payer-action link is the fake’s approval page; replays by request id', async () => {
    const input = {
      paymentId: '00000000-0000-4000-8000-000000000001',
      total: '10.60',
      description: 'Recarga de saldo',
      returnUrl: 'http://localhost:3000/addfunds?pago=paypal&id=x',
      cancelUrl: 'http://localhost:3000/addfunds?pago=cancelado',
      brandName: 'Cometa',
    };
    const first = await createOrder(config, input);
    const again = await createOrder(config, input);
    expect(again.id).toBe(first.id);
    expect(first.status).toBe('PAYER_ACTION_REQUIRED');
    expect(first.links?.find((l) => l.rel === 'payer-action')?.href).toBe(
      `${fake.baseUrl}/checkoutnow?token=${first.id}`,
    );
  });

  it('verifies only deliveries the fake signed, over the exact body', async () => {
    const event = fake.signedEvent('PAYMENT.CAPTURE.COMPLETED', { id: 'CAP1' });
    const headers = {
      authAlgo: event.headers['paypal-auth-algo']!,
      certUrl: event.headers['paypal-cert-url']!,
      transmissionId: event.headers['paypal-transmission-id']!,
      transmissionSig: event.headers['paypal-transmission-sig']!,
      transmissionTime: event.headers['paypal-transmission-time']!,
    };
    expect(await verifyWebhookSignature(config, fake.webhookId, headers, event.body)).toBe(
      'SUCCESS',
    );
    // Pretty-printed, the same event is other bytes.
    const pretty = JSON.stringify(JSON.parse(event.body), null, 2);
    expect(await verifyWebhookSignature(config, fake.webhookId, headers, pretty)).toBe('FAILURE');
    expect(await verifyWebhookSignature(config, 'WH-OTHER', headers, event.body)).toBe('FAILURE');
  });
});

// The browser tests' server, one per Playwright worker (tests/e2e/fixtures.ts): the real app,
// with card payments pointed at a local fake of Stripe's Checkout endpoint (the only Stripe call
// the app makes), Telegram at a local fake Bot API, and a local OpenID Connect provider for
// federated sign-in (tests/e2e/oidc.spec.ts), and the payment gateways at their local fakes.
// They start first, on free ports, since the app reads the provider's discovery document when it
// boots; the fake gateways' addresses go back to the worker.
import { startFakeNowPayments } from '../../server/features/payments/crypto/fake-nowpayments';
import { startFakeMercadoPago } from '../../server/features/payments/mercadopago/fake-mercadopago';
import { startFakePaypal } from '../../server/features/payments/paypal/fake-paypal';
import { startFakeStripe } from '../../server/features/payments/stripe/fake-stripe';
import { startFakeTelegram } from '../../server/features/telegram/fake-telegram';
import { startOidcProvider } from '../setup/oidc-provider';

const fake = await startFakeStripe();
process.env.STRIPE_API_BASE = fake.baseUrl;
// Telegram notifications go to a local fake Bot API (the webhook secret comes from fixtures.ts).
const telegram = await startFakeTelegram();
process.env.TELEGRAM_API_BASE = telegram.baseUrl;
process.env.TELEGRAM_BOT_TOKEN = telegram.token;

const appUrl = process.env.APP_URL ?? `http://localhost:${process.env.PORT ?? 3000}`;

// PayPal top-ups go to a local fake of PayPal's REST API and approval page, which delivers its
// signed webhooks to this app.
const paypal = await startFakePaypal({ webhookUrl: `${appUrl}/api/webhooks/paypal` });
process.env.PAYPAL_API_BASE = paypal.baseUrl;
process.env.PAYPAL_CLIENT_ID = paypal.clientId;
process.env.PAYPAL_CLIENT_SECRET = paypal.clientSecret;
process.env.PAYPAL_WEBHOOK_ID = paypal.webhookId;
// Crypto top-ups: a local fake of NOWPayments' invoices and invoice page, which posts its signed
// IPNs to the invoice's callback (this app).
const nowpayments = await startFakeNowPayments();
process.env.NOWPAYMENTS_API_BASE = nowpayments.baseUrl;
process.env.NOWPAYMENTS_API_KEY = nowpayments.apiKey;
process.env.NOWPAYMENTS_IPN_SECRET = nowpayments.ipnSecret;
// Mercado Pago top-ups: a local fake of Checkout Pro, charging in Argentine pesos at the rate
// below until the admin sets another; it sends its signed notifications to this app.
const mercadopago = await startFakeMercadoPago();
process.env.MERCADOPAGO_API_BASE = mercadopago.baseUrl;
process.env.MERCADOPAGO_ACCESS_TOKEN = mercadopago.accessToken;
process.env.MERCADOPAGO_WEBHOOK_SECRET = mercadopago.webhookSecret;
process.env.MERCADOPAGO_CURRENCY = 'ARS';
process.env.MERCADOPAGO_RATE = '1045.50';
const clientId = 'cometa-e2e';
const clientSecret = 'oidc-e2e-client-secret-0123456789';
const oidc = await startOidcProvider({
  clients: [{ clientId, clientSecret, redirectUris: [`${appUrl}/api/auth/callback/oidc`] }],
});
process.env.OIDC_ISSUER = oidc.issuer;
process.env.OIDC_CLIENT_ID = clientId;
process.env.OIDC_CLIENT_SECRET = clientSecret;
process.env.OIDC_NAME ??= 'Proveedor de pruebas';

// Started by a worker: tell it where the fake Stripe listens, and stop (as on SIGTERM) if the
// worker goes away without stopping this server.
if (process.send) {
  process.send({
    stripeUrl: fake.baseUrl,
    paypalUrl: paypal.baseUrl,
    cryptoUrl: nowpayments.baseUrl,
    mercadopagoUrl: mercadopago.baseUrl,
  });
  process.on('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}

await import('../../server/index');

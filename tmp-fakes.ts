import { startFakePaypal } from './server/features/payments/paypal/fake-paypal';
import { startFakeNowPayments } from './server/features/payments/crypto/fake-nowpayments';
import { startFakeMercadoPago } from './server/features/payments/mercadopago/fake-mercadopago';
const app = process.argv[2] ?? 'http://127.0.0.1:3990';
const pp = await startFakePaypal({ webhookUrl: `${app}/api/webhooks/paypal`, port: 4101 } as never);
const np = await startFakeNowPayments({ port: 4102 } as never);
const mp = await startFakeMercadoPago({ port: 4103 } as never);
console.log(JSON.stringify({
  PAYPAL_CLIENT_ID: pp.clientId, PAYPAL_CLIENT_SECRET: pp.clientSecret, PAYPAL_WEBHOOK_ID: pp.webhookId, PAYPAL_API_BASE: pp.baseUrl,
  NOWPAYMENTS_API_KEY: np.apiKey, NOWPAYMENTS_IPN_SECRET: np.ipnSecret, NOWPAYMENTS_API_BASE: np.baseUrl,
  MERCADOPAGO_ACCESS_TOKEN: mp.accessToken, MERCADOPAGO_WEBHOOK_SECRET: mp.webhookSecret, MERCADOPAGO_API_BASE: mp.baseUrl,
}));
setInterval(() => {}, 1 << 30);

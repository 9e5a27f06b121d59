import { CryptoTopupRequestSchema } from '../../../../shared/schemas/payments';
import { defineRoute, type RouteDeps } from '../../../lib/route';
import {
  NowPaymentsIpnSchema,
  createCryptoTopup,
  handleIpn,
  requireNowPayments,
  type CryptoDeps,
} from './crypto.service';

/** IPN bodies are a couple of KB; anything much larger is not from NOWPayments. */
const WEBHOOK_MAX_BYTES = 512 * 1024;

function cryptoDeps(deps: RouteDeps): CryptoDeps {
  return { db: deps.db, env: deps.env, mailer: deps.mailer, logger: deps.logger };
}

/** /api/payments/crypto: the customer's side of crypto top-ups. */
export const cryptoRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/payments/crypto',
    operationId: 'createCryptoTopup',
    tag: 'Recargas',
    summary: 'Empezar una recarga con criptomonedas',
    description:
      'Crea un pago pendiente por el importe más la comisión del método y una factura de NOWPayments por el total en dólares; hay que abrir la `invoiceUrl` devuelta, donde el cliente elige la moneda (o la indicada en `payCurrency`). El saldo se acredita solo cuando NOWPayments avisa (aviso firmado) de que el pago terminó, una sola vez; un pago parcial acredita la parte que llegó. Como máximo 10 intentos cada 10 minutos.',
    access: 'customer',
    rateLimit: {
      name: 'crypto-topup',
      per: 'user',
      window: 600,
      max: 10,
      message: 'Has iniciado varios pagos seguidos. Espera unos minutos e inténtalo de nuevo.',
    },
    body: { schema: CryptoTopupRequestSchema },
    responses: [{ status: 201, description: 'Factura creada.', body: 'CryptoTopup' }],
    errors: ['NOT_FOUND', 'RATE_LIMITED'],
    handler: async ({ c, deps, user, body }) => {
      const result = await createCryptoTopup(cryptoDeps(deps), user, body);
      return c.json(result, 201);
    },
  }),
];

/** /api/webhooks/nowpayments: NOWPayments' signed IPNs (no session, no same-origin check). */
export const cryptoWebhookRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/webhooks/nowpayments',
    operationId: 'receiveNowPaymentsIpn',
    tag: 'Pagos',
    summary: 'Aviso firmado de NOWPayments (IPN)',
    description:
      'No la llama una persona: NOWPayments envía aquí cada cambio de estado de un pago en criptomonedas (la URL va en cada factura). La cabecera `x-nowpayments-sig` debe ser la firma HMAC-SHA512, con el secreto IPN, del cuerpo con sus claves ordenadas; sin ella, o si no coincide, responde 400 y no cambia nada. `finished` y `partially_paid` acreditan lo que llegó, `failed` y `expired` cierran el pago, `refunded` lo descuenta del saldo. Un aviso repetido no hace nada dos veces. Responde 404 si el pago con criptomonedas no está configurado.',
    access: 'public',
    body: { schema: NowPaymentsIpnSchema, description: 'El aviso, tal como lo envía NOWPayments.' },
    rawBody: true,
    bodyLimit: WEBHOOK_MAX_BYTES,
    responses: [{ status: 200, description: 'Aviso recibido.', body: 'NowPaymentsAck' }],
    errors: ['BAD_REQUEST', 'NOT_FOUND', 'PAYLOAD_TOO_LARGE'],
    handler: async ({ c, deps }) => {
      const crypto = cryptoDeps(deps);
      requireNowPayments(crypto.env.nowpayments);
      // The signature covers the parsed body: read the raw text, never the edge's parsing.
      const rawBody = await c.req.text();
      await handleIpn(crypto, rawBody, c.req.header('x-nowpayments-sig'));
      return c.json({ received: true as const });
    },
  }),
];

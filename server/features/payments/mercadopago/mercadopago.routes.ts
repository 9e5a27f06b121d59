import { GatewayTopupRequestSchema } from '../../../../shared/schemas/payments';
import { defineRoute, type RouteDeps } from '../../../lib/route';
import {
  MercadoPagoNotificationQuerySchema,
  MercadoPagoNotificationSchema,
  createTopup,
  handleNotification,
  requireMercadoPago,
  type MercadoPagoDeps,
} from './mercadopago.service';

/** Mercado Pago's notifications are a few hundred bytes; anything much larger is not from it. */
const WEBHOOK_MAX_BYTES = 512 * 1024;

function mpDeps(deps: RouteDeps): MercadoPagoDeps {
  return { db: deps.db, env: deps.env, mailer: deps.mailer, logger: deps.logger };
}

/** POST /api/payments/mercadopago: the customer's side of Mercado Pago top-ups. */
export const mercadoPagoRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/payments/mercadopago',
    operationId: 'createMercadoPagoTopup',
    tag: 'Recargas',
    summary: 'Empezar una recarga con Mercado Pago',
    description:
      'Crea un pago pendiente por el importe más la comisión del método, convertido a la moneda de Mercado Pago de la tienda al tipo de cambio vigente, y una preferencia de Checkout Pro; hay que abrir `initPoint`. El saldo (en dólares) se acredita solo cuando Mercado Pago avisa del pago y Cometa lo confirma consultando su API, una sola vez. Responde 404 si Mercado Pago no está configurado o no hay tipo de cambio. Como máximo 10 intentos cada 10 minutos.',
    access: 'customer',
    rateLimit: {
      name: 'mercadopago-topup',
      per: 'user',
      window: 600,
      max: 10,
      message: 'Has iniciado varios pagos seguidos. Espera unos minutos e inténtalo de nuevo.',
    },
    // The amount's form is checked here; the method's limits, with their messages, by the service.
    body: { schema: GatewayTopupRequestSchema },
    responses: [
      { status: 201, description: 'Preferencia de pago creada.', body: 'MercadoPagoTopup' },
    ],
    errors: ['NOT_FOUND', 'RATE_LIMITED'],
    handler: async ({ c, deps, user, body }) => {
      const result = await createTopup(mpDeps(deps), user, body.amount);
      return c.json(result, 201);
    },
  }),
];

/** POST /api/webhooks/mercadopago: Mercado Pago's signed notifications (no session). */
export const mercadoPagoWebhookRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/webhooks/mercadopago',
    operationId: 'receiveMercadoPagoWebhook',
    tag: 'Pagos',
    summary: 'Aviso firmado de Mercado Pago',
    description:
      'Mercado Pago envía aquí los avisos de `payment` (la URL va en cada preferencia como `notification_url`). La cabecera `x-signature` se comprueba con la clave secreta del webhook sobre el manifiesto `id:<data.id>;request-id:<x-request-id>;ts:<ts>;`; sin firma válida responde 400 y no cambia nada. Después se consulta el pago en la API de Mercado Pago: solo esa respuesta acredita o revierte, nunca el cuerpo del aviso. Un aviso repetido no cambia nada dos veces; si la consulta falla responde 500 para que Mercado Pago lo reintente. Responde 404 si Mercado Pago no está configurado.',
    access: 'public',
    query: MercadoPagoNotificationQuerySchema,
    body: {
      schema: MercadoPagoNotificationSchema,
      description: 'El aviso, tal como lo envía Mercado Pago.',
    },
    rawBody: true,
    bodyLimit: WEBHOOK_MAX_BYTES,
    responses: [{ status: 200, description: 'Aviso recibido.', body: 'MercadoPagoWebhookAck' }],
    errors: ['BAD_REQUEST', 'NOT_FOUND', 'PAYLOAD_TOO_LARGE'],
    handler: async ({ c, deps }) => {
      const mp = mpDeps(deps);
      requireMercadoPago(mp.env.mercadopago);
      const rawBody = await c.req.text();
      await handleNotification(mp, {
        rawBody,
        query: c.req.query(),
        signature: c.req.header('x-signature'),
        requestId: c.req.header('x-request-id'),
      });
      return c.json({ received: true as const });
    },
  }),
];

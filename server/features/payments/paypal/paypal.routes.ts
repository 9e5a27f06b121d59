import { z } from 'zod';
import { GatewayTopupRequestSchema } from '../../../../shared/schemas/payments';
import { defineRoute } from '../../../lib/route';
import {
  PaypalEventSchema,
  capturePaypalTopup,
  createPaypalTopup,
  handlePaypalWebhook,
  requirePaypal,
} from './paypal.service';

/** PayPal's events are a few KB; anything much larger is not from PayPal. */
const WEBHOOK_MAX_BYTES = 512 * 1024;

/** Our payment id (uuid) or PayPal's order id (17 letters and digits). */
const CaptureParamsSchema = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9-]+$/),
});

/** /api/payments/paypal: the customer's side of PayPal top-ups. */
export const paypalRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/payments/paypal',
    operationId: 'createPaypalTopup',
    tag: 'Recargas',
    summary: 'Empezar una recarga con PayPal',
    description:
      'Crea una recarga pendiente por `amount` (lo que recibe el saldo) más la comisión de PayPal, y una orden de PayPal por el total; hay que llevar al cliente a `approveUrl`. Al volver de PayPal se confirma con `POST /api/payments/paypal/{id}/capture`. El saldo se acredita una sola vez, al capturar el pago o con el aviso verificado de PayPal. Como máximo 10 intentos cada 10 minutos.',
    access: 'customer',
    rateLimit: {
      name: 'paypal-topup',
      per: 'user',
      window: 600,
      max: 10,
      message: 'Has iniciado varios pagos seguidos. Espera unos minutos e inténtalo de nuevo.',
    },
    body: { schema: GatewayTopupRequestSchema },
    responses: [{ status: 201, description: 'Orden de PayPal creada.', body: 'PaypalTopup' }],
    errors: ['NOT_FOUND', 'RATE_LIMITED'],
    handler: async ({ c, deps, user, body }) => {
      const result = await createPaypalTopup(deps, user, body.amount);
      return c.json(result, 201);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/payments/paypal/:id/capture',
    operationId: 'capturePaypalTopup',
    tag: 'Recargas',
    summary: 'Confirmar una recarga con PayPal al volver de PayPal',
    description:
      '`id` es el de la recarga o el de la orden de PayPal (el parámetro `token` con el que PayPal devuelve al cliente). Captura el pago aprobado y responde la recarga como quedó: acreditada, «En revisión», pendiente en PayPal o rechazada, con el saldo. Una recarga ya resuelta se responde tal como está, sin cobrar ni acreditar otra vez. 409 si el cliente todavía no aprobó el pago en PayPal.',
    access: 'customer',
    rateLimit: {
      name: 'paypal-capture',
      per: 'user',
      window: 600,
      max: 30,
      message:
        'Demasiados intentos de confirmar el pago. Espera unos minutos e inténtalo de nuevo.',
    },
    params: CaptureParamsSchema,
    responses: [{ status: 200, description: 'La recarga y el saldo.', body: 'TopupResult' }],
    errors: ['NOT_FOUND', 'CONFLICT', 'RATE_LIMITED'],
    handler: async ({ c, deps, user, params }) => {
      const result = await capturePaypalTopup(deps, user, params.id);
      return c.json(result);
    },
  }),
];

/** /api/webhooks/paypal: PayPal's event deliveries (no session, no same-origin check). */
export const paypalWebhookRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/webhooks/paypal',
    operationId: 'receivePaypalWebhook',
    tag: 'Pagos',
    summary: 'Aviso de PayPal',
    description:
      'Registra en PayPal un webhook con esta URL (su id va en `PAYPAL_WEBHOOK_ID`) y los eventos `CHECKOUT.ORDER.APPROVED`, `PAYMENT.CAPTURE.COMPLETED`, `PAYMENT.CAPTURE.PENDING`, `PAYMENT.CAPTURE.DENIED`, `PAYMENT.CAPTURE.DECLINED`, `PAYMENT.CAPTURE.REFUNDED` y `PAYMENT.CAPTURE.REVERSED`. Cada aviso se comprueba con PayPal (verify-webhook-signature) sobre el cuerpo exacto; sin esa confirmación, o sin `PAYPAL_WEBHOOK_ID`, responde 400 y no cambia nada. Un aviso repetido no acredita ni descuenta dos veces. Responde 404 si PayPal no está configurado.',
    access: 'public',
    body: { schema: PaypalEventSchema, description: 'El evento, tal como lo envía PayPal.' },
    rawBody: true,
    bodyLimit: WEBHOOK_MAX_BYTES,
    responses: [{ status: 200, description: 'Aviso recibido.', body: 'PaypalWebhookAck' }],
    errors: ['BAD_REQUEST', 'NOT_FOUND', 'PAYLOAD_TOO_LARGE'],
    handler: async ({ c, deps }) => {
      requirePaypal(deps.env);
      // PayPal checks its signature against the exact bytes: read the raw text.
      const rawBody = await c.req.text();
      await handlePaypalWebhook(deps, rawBody, (name) => c.req.header(name));
      return c.json({ received: true as const });
    },
  }),
];

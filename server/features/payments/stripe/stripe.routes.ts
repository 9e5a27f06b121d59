import { formatAmount } from '../../../../shared/money';
import { CardCheckoutRequestSchema } from '../../../../shared/schemas/funds';
import { defineRoute, type RouteDeps } from '../../../lib/route';
import { gatewayTerms } from '../topup-terms';
import {
  StripeEventSchema,
  createCheckout,
  handleWebhook,
  requireStripe,
  type StripeDeps,
} from './stripe.service';

/** Stripe events are a few KB; anything much larger is not from Stripe. */
const WEBHOOK_MAX_BYTES = 512 * 1024;

function stripeDeps(deps: RouteDeps): StripeDeps {
  return {
    db: deps.db,
    env: deps.env,
    mailer: deps.mailer,
    logger: deps.logger,
    stripe: deps.env.stripe,
  };
}

/** /api/funds/stripe: the customer's side of card top-ups. */
export const stripeRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/funds/stripe',
    operationId: 'getCardTopupConfig',
    tag: 'Recargas',
    summary: 'Si se puede recargar con tarjeta, y sus límites',
    description:
      'Los límites son los que fija el administrador (por defecto, STRIPE_MIN_AMOUNT y STRIPE_MAX_AMOUNT). La comisión se consulta en `/api/payment-methods`.',
    access: 'customer',
    responses: [{ status: 200, description: 'Disponibilidad y límites.', body: 'CardTopupConfig' }],
    handler: async ({ c, deps }) => {
      if (!deps.env.stripe) return c.json({ available: false, minAmount: null, maxAmount: null });
      const terms = await gatewayTerms(deps.db, deps.env, 'stripe');
      return c.json({
        available: true,
        minAmount: formatAmount(terms.minAmount),
        maxAmount: formatAmount(terms.maxAmount),
      });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/funds/stripe/checkout',
    operationId: 'createCardCheckout',
    tag: 'Recargas',
    summary: 'Empezar una recarga con tarjeta',
    description:
      'Crea un pago pendiente y una sesión de Stripe Checkout por ese importe más la comisión de la tarjeta; hay que abrir la `url` devuelta. El saldo recibe el importe pedido cuando Stripe confirma el pago (aviso firmado), una sola vez; la primera recarga con tarjeta por encima del umbral de retención queda «En revisión» hasta que finanzas la apruebe. Como máximo 10 intentos cada 10 minutos.',
    access: 'customer',
    rateLimit: {
      name: 'stripe-checkout',
      per: 'user',
      window: 600,
      max: 10,
      message: 'Has iniciado varios pagos seguidos. Espera unos minutos e inténtalo de nuevo.',
    },
    // The amount's form is checked here; the card limits, with their messages, by the service.
    body: { schema: CardCheckoutRequestSchema },
    responses: [{ status: 201, description: 'Sesión de pago creada.', body: 'CardCheckout' }],
    errors: ['NOT_FOUND', 'RATE_LIMITED'],
    handler: async ({ c, deps, user, body }) => {
      const result = await createCheckout(stripeDeps(deps), user, body.amount, deps.env.APP_URL);
      return c.json(result, 201);
    },
  }),
];

/** /api/webhooks/stripe: Stripe's signed event deliveries (no session, no same-origin check). */
export const stripeWebhookRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/webhooks/stripe',
    operationId: 'receiveStripeWebhook',
    tag: 'Pagos',
    summary: 'Aviso firmado de Stripe',
    description:
      'Configura en Stripe un endpoint con esta URL y los eventos `checkout.session.completed`, `checkout.session.async_payment_succeeded`, `checkout.session.async_payment_failed`, `checkout.session.expired`, `charge.refunded` y `charge.dispute.created`. La firma se comprueba sobre el cuerpo exacto; un aviso repetido no acredita ni debita dos veces. Un reembolso o contracargo de una recarga acreditada se descuenta del saldo (aunque quede negativo, y entonces la cuenta no puede hacer órdenes hasta que finanzas lo resuelva). Responde 404 si el pago con tarjeta no está configurado.',
    access: 'stripe',
    body: { schema: StripeEventSchema, description: 'El evento, tal como lo envía Stripe.' },
    rawBody: true,
    bodyLimit: WEBHOOK_MAX_BYTES,
    responses: [{ status: 200, description: 'Aviso recibido.', body: 'StripeWebhookAck' }],
    errors: ['BAD_REQUEST', 'NOT_FOUND', 'PAYLOAD_TOO_LARGE'],
    handler: async ({ c, deps }) => {
      const stripe = stripeDeps(deps);
      requireStripe(stripe.stripe);
      // The signature covers the exact bytes: read the raw text, never re-serialized JSON.
      const rawBody = await c.req.text();
      await handleWebhook(stripe, rawBody, c.req.header('stripe-signature'));
      return c.json({ received: true });
    },
  }),
];

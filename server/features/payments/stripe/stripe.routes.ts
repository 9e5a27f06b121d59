import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import { formatAmount } from '../../../../shared/money';
import type { Auth } from '../../../lib/auth';
import { AppError } from '../../../lib/errors';
import { readJson, requireVerifiedUser, type AppEnv } from '../../../lib/http';
import { consumeRateLimit } from '../../../lib/rate-limit';
import { createCheckout, handleWebhook, requireStripe, type StripeDeps } from './stripe.service';

export type StripeRouteDeps = StripeDeps & { auth: Auth };

/** The amount is validated by the service (AmountSchema + card limits), with field messages. */
const CheckoutBody = z.object(
  { amount: z.unknown().optional() },
  { error: 'Envía el importe, por ejemplo { "amount": "25.00" }.' },
);

/** Stripe events are a few KB; anything much larger is not from Stripe. */
const WEBHOOK_MAX_BYTES = 512 * 1024;

/** Mounted at /api/funds/stripe: the customer's side of card top-ups. */
export function stripeRoutes(deps: StripeRouteDeps) {
  return new Hono<AppEnv>()
    .get('/', async (c) => {
      await requireVerifiedUser(deps.auth, c);
      const config = deps.stripe;
      return c.json(
        config
          ? {
              available: true,
              minAmount: formatAmount(config.minAmount),
              maxAmount: formatAmount(config.maxAmount),
            }
          : { available: false, minAmount: null, maxAmount: null },
      );
    })
    .post('/checkout', async (c) => {
      const customer = await requireVerifiedUser(deps.auth, c);
      requireStripe(deps.stripe);
      const limit = await consumeRateLimit(deps.db, `stripe-checkout:${customer.id}`, {
        window: 600,
        max: 10,
      });
      if (!limit.allowed) {
        c.header('Retry-After', String(limit.retryAfter ?? 600));
        throw new AppError(
          'RATE_LIMITED',
          'Has iniciado varios pagos seguidos. Espera unos minutos e inténtalo de nuevo.',
        );
      }
      const input = await readJson(c, CheckoutBody);
      const result = await createCheckout(deps, customer, input.amount, deps.env.APP_URL);
      return c.json(result, 201);
    });
}

/** Mounted at /api/webhooks/stripe: Stripe's signed event deliveries (no session, no CSRF). */
export function stripeWebhookRoutes(deps: StripeDeps) {
  return new Hono<AppEnv>().post(
    '/',
    bodyLimit({
      maxSize: WEBHOOK_MAX_BYTES,
      onError: () => {
        throw new AppError('PAYLOAD_TOO_LARGE');
      },
    }),
    async (c) => {
      requireStripe(deps.stripe);
      // The signature covers the exact bytes: read the raw text, never re-serialized JSON.
      const rawBody = await c.req.text();
      await handleWebhook(deps, rawBody, c.req.header('stripe-signature'));
      return c.json({ received: true });
    },
  );
}

import { z } from 'zod';
import { parseAmount, type Cents } from '../../../../shared/money';

export type StripeApiAddress = {
  host: string;
  port: number;
  protocol: 'http' | 'https';
};

export type StripeConfig = {
  secretKey: string;
  webhookSecret: string;
  /** Where the client sends API requests; null means Stripe itself (api.stripe.com). */
  api: StripeApiAddress | null;
  /** Card top-up limits, in cents. */
  minAmount: Cents;
  maxAmount: Cents;
  /** How old (seconds) a webhook signature's timestamp may be. */
  webhookTolerance: number;
};

/** Stripe does not charge less than US$0.50 nor more than US$999,999.99 in USD. */
const STRIPE_MIN_CHARGE = 50n;
const STRIPE_MAX_CHARGE = 99_999_999n;

const amountString = z
  .string()
  .trim()
  .transform((value, ctx) => {
    const cents = parseAmount(value);
    if (cents === null || cents < STRIPE_MIN_CHARGE || cents > STRIPE_MAX_CHARGE) {
      ctx.addIssue({
        code: 'custom',
        message: 'must be an amount in dollars between 0.50 and 999999.99 (e.g. "5.00")',
      });
      return z.NEVER;
    }
    return cents;
  });

const StripeEnvSchema = z
  .object({
    STRIPE_SECRET_KEY: z
      .string()
      .regex(/^(sk|rk)_[A-Za-z0-9_]+$/, 'must be a Stripe secret key (sk_…)'),
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_[A-Za-z0-9_]+$/, 'must be a webhook signing secret (whsec_…)'),
    STRIPE_API_BASE: z.url({ protocol: /^https?$/, error: 'must be an http(s):// URL' }).optional(),
    STRIPE_MIN_AMOUNT: amountString.prefault('5.00'),
    STRIPE_MAX_AMOUNT: amountString.prefault('1000.00'),
  })
  .refine((v) => v.STRIPE_MIN_AMOUNT <= v.STRIPE_MAX_AMOUNT, {
    message: 'must not be less than STRIPE_MIN_AMOUNT',
    path: ['STRIPE_MAX_AMOUNT'],
  });

function apiAddress(base: string): StripeApiAddress {
  const url = new URL(base);
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) {
    throw new Error(
      'Invalid Stripe configuration:\n  STRIPE_API_BASE: must be an origin only (e.g. http://127.0.0.1:12111)',
    );
  }
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  const port = url.port ? Number(url.port) : protocol === 'http' ? 80 : 443;
  // URL keeps IPv6 hosts in brackets; the HTTP client wants them bare.
  return { host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port, protocol };
}

/**
 * The card top-up configuration, or null when the method is not configured (neither
 * STRIPE_SECRET_KEY nor STRIPE_WEBHOOK_SECRET set). Setting only one of them, or any invalid
 * value, throws one readable error listing every problem.
 */
export function stripeConfigFrom(source: Record<string, string | undefined>): StripeConfig | null {
  const pick = (name: string) => {
    const value = source[name]?.trim();
    return value ? value : undefined;
  };
  const raw = {
    STRIPE_SECRET_KEY: pick('STRIPE_SECRET_KEY'),
    STRIPE_WEBHOOK_SECRET: pick('STRIPE_WEBHOOK_SECRET'),
    STRIPE_API_BASE: pick('STRIPE_API_BASE'),
    STRIPE_MIN_AMOUNT: pick('STRIPE_MIN_AMOUNT'),
    STRIPE_MAX_AMOUNT: pick('STRIPE_MAX_AMOUNT'),
  };
  if (!raw.STRIPE_SECRET_KEY && !raw.STRIPE_WEBHOOK_SECRET) return null;
  const parsed = StripeEnvSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => {
      const name = i.path.join('.');
      const message =
        i.code === 'invalid_type' && i.input === undefined
          ? `is required when ${raw.STRIPE_SECRET_KEY ? 'STRIPE_SECRET_KEY' : 'STRIPE_WEBHOOK_SECRET'} is set`
          : i.message;
      return `  ${name}: ${message}`;
    });
    throw new Error(`Invalid Stripe configuration:\n${lines.join('\n')}`);
  }
  const v = parsed.data;
  return {
    secretKey: v.STRIPE_SECRET_KEY,
    webhookSecret: v.STRIPE_WEBHOOK_SECRET,
    api: v.STRIPE_API_BASE ? apiAddress(v.STRIPE_API_BASE) : null,
    minAmount: v.STRIPE_MIN_AMOUNT,
    maxAmount: v.STRIPE_MAX_AMOUNT,
    webhookTolerance: 300,
  };
}

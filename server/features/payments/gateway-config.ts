import { z } from 'zod';
import { parseRate } from '../../../shared/fees';

// The PayPal, NOWPayments and Mercado Pago configurations (docs/operations.md "Payments"). Each
// method is on when its credentials are set, and null otherwise; a half-set or invalid
// configuration stops the server with one readable error listing every problem.

export type PaypalConfig = {
  clientId: string;
  clientSecret: string;
  /** The id of the webhook registered at PayPal; null: webhooks are refused (the return still captures). */
  webhookId: string | null;
  /** https://api-m.paypal.com (live), https://api-m.sandbox.paypal.com, or a local fake. */
  apiBase: string;
};

export type NowPaymentsConfig = {
  apiKey: string;
  ipnSecret: string;
  /** https://api.nowpayments.io, https://api-sandbox.nowpayments.io, or a local fake. */
  apiBase: string;
};

export type MercadoPagoConfig = {
  accessToken: string;
  webhookSecret: string;
  /** https://api.mercadopago.com or a local fake. */
  apiBase: string;
  /** The currency customers are charged in (ISO 4217: ARS, MXN, BRL, CLP, COP, PEN, UYU, USD). */
  currency: string;
  /** Units of `currency` per US dollar until the admin sets one (decimal string); null: none. */
  initialRate: string | null;
};

export type GatewayConfigs = {
  paypal: PaypalConfig | null;
  nowpayments: NowPaymentsConfig | null;
  mercadopago: MercadoPagoConfig | null;
};

const baseUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http(s):// URL' })
  .transform((v) => v.replace(/\/+$/, ''));

const secret = (what: string) =>
  z.string().min(1).max(512).regex(/^\S+$/, `must be ${what} without spaces`);

type Source = Record<string, string | undefined>;

function pick(source: Source, names: readonly string[]): Record<string, string | undefined> {
  return Object.fromEntries(
    names.map((n) => {
      const v = source[n]?.trim();
      return [n, v ? v : undefined];
    }),
  );
}

/**
 * Parses one method's variables. `required` are needed once any of `trigger` is set; the
 * method is off (null) when none of `trigger` is set.
 */
function section<S extends z.ZodRawShape, T>(
  label: string,
  source: Source,
  trigger: readonly string[],
  shape: S,
  build: (v: z.infer<z.ZodObject<S>>) => T,
): { value: T | null; problems: string[] } {
  const raw = pick(source, Object.keys(shape));
  if (trigger.every((name) => raw[name] === undefined)) return { value: null, problems: [] };
  const parsed = z.object(shape).safeParse(raw);
  if (!parsed.success) {
    const setName = trigger.find((name) => raw[name] !== undefined) ?? trigger[0];
    return {
      value: null,
      problems: parsed.error.issues.map((i) => {
        const name = i.path.join('.');
        const message =
          i.code === 'invalid_type' && i.input === undefined
            ? `is required when ${setName} is set (${label})`
            : i.message;
        return `  ${name}: ${message}`;
      }),
    };
  }
  return { value: build(parsed.data), problems: [] };
}

/** Reads the three gateways' variables; throws one error listing every problem. */
export function gatewayConfigsFrom(source: Source): GatewayConfigs {
  const paypal = section(
    'PayPal',
    source,
    ['PAYPAL_CLIENT_ID', 'PAYPAL_CLIENT_SECRET'],
    {
      PAYPAL_CLIENT_ID: secret('a client id'),
      PAYPAL_CLIENT_SECRET: secret('a client secret'),
      PAYPAL_WEBHOOK_ID: secret('a webhook id').optional(),
      PAYPAL_API_BASE: baseUrl.prefault('https://api-m.paypal.com'),
    },
    (v): PaypalConfig => ({
      clientId: v.PAYPAL_CLIENT_ID,
      clientSecret: v.PAYPAL_CLIENT_SECRET,
      webhookId: v.PAYPAL_WEBHOOK_ID ?? null,
      apiBase: v.PAYPAL_API_BASE,
    }),
  );
  const nowpayments = section(
    'NOWPayments',
    source,
    ['NOWPAYMENTS_API_KEY', 'NOWPAYMENTS_IPN_SECRET'],
    {
      NOWPAYMENTS_API_KEY: secret('an API key'),
      NOWPAYMENTS_IPN_SECRET: secret('an IPN secret'),
      NOWPAYMENTS_API_BASE: baseUrl.prefault('https://api.nowpayments.io'),
    },
    (v): NowPaymentsConfig => ({
      apiKey: v.NOWPAYMENTS_API_KEY,
      ipnSecret: v.NOWPAYMENTS_IPN_SECRET,
      apiBase: v.NOWPAYMENTS_API_BASE,
    }),
  );
  const mercadopago = section(
    'Mercado Pago',
    source,
    ['MERCADOPAGO_ACCESS_TOKEN', 'MERCADOPAGO_WEBHOOK_SECRET'],
    {
      MERCADOPAGO_ACCESS_TOKEN: secret('an access token'),
      MERCADOPAGO_WEBHOOK_SECRET: secret('a webhook secret'),
      MERCADOPAGO_API_BASE: baseUrl.prefault('https://api.mercadopago.com'),
      MERCADOPAGO_CURRENCY: z
        .string()
        .trim()
        .toUpperCase()
        .regex(/^[A-Z]{3}$/, 'must be a three-letter currency code (e.g. ARS, MXN)')
        .prefault('ARS'),
      MERCADOPAGO_RATE: z
        .string()
        .refine((v) => parseRate(v) !== null, 'must be units per US dollar, e.g. 1045.50')
        .optional(),
    },
    (v): MercadoPagoConfig => ({
      accessToken: v.MERCADOPAGO_ACCESS_TOKEN,
      webhookSecret: v.MERCADOPAGO_WEBHOOK_SECRET,
      apiBase: v.MERCADOPAGO_API_BASE,
      currency: v.MERCADOPAGO_CURRENCY,
      initialRate: v.MERCADOPAGO_CURRENCY === 'USD' ? '1' : (v.MERCADOPAGO_RATE ?? null),
    }),
  );
  const problems = [...paypal.problems, ...nowpayments.problems, ...mercadopago.problems];
  if (problems.length > 0)
    throw new Error(`Invalid payment configuration:\n${problems.join('\n')}`);
  return { paypal: paypal.value, nowpayments: nowpayments.value, mercadopago: mercadopago.value };
}

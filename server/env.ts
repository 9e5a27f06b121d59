import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { stripeConfigFrom, type StripeConfig } from './features/payments/stripe/stripe.config';
import {
  gatewayConfigsFrom,
  type MercadoPagoConfig,
  type NowPaymentsConfig,
  type PaypalConfig,
} from './features/payments/gateway-config';

const booleanString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL')
    .optional(),
  /** Connections each instance keeps to PostgreSQL (ignored by the embedded database). */
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  APP_URL: z.url().optional(),
  APP_NAME: z.string().trim().min(1).max(40).default('Cometa'),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'SMTP_URL must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).optional(),
  CONTACT_EMAIL: z.email().optional(),
  AUTH_SECRET: z.string().min(32, 'AUTH_SECRET must be at least 32 characters').optional(),
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(8).max(128).optional(),
  TRUST_PROXY: booleanString.default(false),
  /**
   * The local mailbox page /_dev/correo (only without SMTP_URL, only to this machine). `npm
   * start` turns it on for an http://localhost APP_URL; refused with an https APP_URL.
   */
  DEV_MAILBOX: booleanString.default(false),
  /**
   * Set by `npm start` while it builds the web app beside the running server: pages answer «se
   * está preparando» until the build is complete (server/lib/pending-build.ts), the API at once.
   */
  WEB_BUILD_PENDING: booleanString.default(false),
  /** When set, /metrics answers only `Authorization: Bearer <token>`; otherwise only this machine. */
  METRICS_TOKEN: z
    .string()
    .min(16, 'METRICS_TOKEN must be at least 16 characters')
    .regex(/^[\x21-\x7e]+$/, 'METRICS_TOKEN must be printable ASCII without spaces')
    .optional(),
  SESSION_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(600)
    .default(60 * 60 * 24 * 7),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(60),
  RATE_LIMIT_MAX_PER_IP: z.coerce.number().int().min(1).default(20),
  RATE_LIMIT_MAX_PER_ACCOUNT: z.coerce.number().int().min(1).default(10),
  SEED_DEMO: booleanString.default(true),
  /** Minutes between two reads of every supplier's catalogue and prices. */
  SUPPLIER_SYNC_MINUTES: z.coerce.number().int().min(1).max(10_080).default(60),
  /** Seconds between two status polls of the orders sent to suppliers. */
  SUPPLIER_POLL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  /**
   * Orders a supplier refuses one after the other (the lines of a bulk order) are told to their
   * customer in one e-mail: the refusals of one customer within this many milliseconds.
   */
  ORDER_NOTICE_WINDOW_MS: z.coerce.number().int().min(0).max(60_000).default(3_000),
  /** Time to connect to a supplier, and for a whole exchange, in seconds. */
  SUPPLIER_CONNECT_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(120).default(10),
  SUPPLIER_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(60),
  /** Requests per minute one personal API key may make (REST, DHRU, SMM together). */
  API_KEY_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(600),
  /** New support tickets one account may open per hour (more answer 429). */
  TICKET_RATE_LIMIT_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(10),
  /** First wait before a failed webhook delivery is tried again (it doubles, for up to 3 days). */
  WEBHOOK_RETRY_BASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /** Let suppliers, only them, live on loopback or private addresses (self-hosted ones, tests). */
  ALLOW_PRIVATE_NETWORK: booleanString.default(false),
  /**
   * Let customers' webhooks go to loopback or private addresses: tests only, since it lets any
   * customer make the server POST into the internal network.
   */
  WEBHOOK_ALLOW_PRIVATE_NETWORK: booleanString.default(false),
  /** Sign in with Google (both or neither). */
  GOOGLE_CLIENT_ID: z.string().trim().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().trim().min(1).optional(),
  /** One OpenID Connect issuer (provider id `oidc`); OIDC_NAME labels its button. */
  OIDC_ISSUER: z.url().optional(),
  OIDC_CLIENT_ID: z.string().trim().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().trim().min(1).optional(),
  OIDC_NAME: z.string().trim().min(1).max(40).default('OIDC'),
  /** SMS through Twilio; without them the codes go to DATA_DIR/outbox. */
  TWILIO_ACCOUNT_SID: z.string().trim().min(1).optional(),
  TWILIO_AUTH_TOKEN: z.string().trim().min(1).optional(),
  TWILIO_FROM: z.string().trim().min(1).optional(),
  /** Telegram notifications: the bot's token (without it Telegram stays off). */
  TELEGRAM_BOT_TOKEN: z
    .string()
    .trim()
    .regex(/^[^\s/]+$/, 'TELEGRAM_BOT_TOKEN must look like 123456:ABC-DEF… (no spaces or slashes)')
    .optional(),
  /** The secret Telegram sends in X-Telegram-Bot-Api-Secret-Token (setWebhook's secret_token). */
  TELEGRAM_WEBHOOK_SECRET: z
    .string()
    .regex(
      // Telegram's own rule for setWebhook's secret_token (a long random one is advised).
      /^[A-Za-z0-9_-]{1,256}$/,
      'TELEGRAM_WEBHOOK_SECRET must be 1 to 256 characters of A-Z, a-z, 0-9, _ and -',
    )
    .optional(),
  /** Where the Bot API lives (tests point it at a local fake). */
  TELEGRAM_API_BASE: z.url().default('https://api.telegram.org'),
  /** The bot's username (without @), for the t.me link; read once with getMe when absent. */
  TELEGRAM_BOT_USERNAME: z
    .string()
    .trim()
    .regex(/^@?[A-Za-z0-9_]{5,32}$/, 'TELEGRAM_BOT_USERNAME must be a Telegram username')
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type RawEnv = z.infer<typeof EnvSchema>;

export type Env = RawEnv & {
  APP_URL: string;
  MAIL_FROM: string;
  AUTH_SECRET: string;
  DATA_DIR: string;
  isProduction: boolean;
  /** Card top-ups; null when STRIPE_SECRET_KEY / STRIPE_WEBHOOK_SECRET are not set. */
  stripe: StripeConfig | null;
  /** PayPal, crypto (NOWPayments) and Mercado Pago top-ups; each null when not configured. */
  paypal: PaypalConfig | null;
  nowpayments: NowPaymentsConfig | null;
  mercadopago: MercadoPagoConfig | null;
  google: { clientId: string; clientSecret: string } | null;
  oidc: { issuer: string; clientId: string; clientSecret: string; name: string } | null;
  twilio: { accountSid: string; authToken: string; from: string } | null;
  /** Telegram notifications; null without TELEGRAM_BOT_TOKEN. */
  telegram: {
    token: string;
    /** Null: the webhook refuses every update (nothing can be linked), messages still go out. */
    webhookSecret: string | null;
    apiBase: string;
    username: string | null;
  } | null;
};

/** Reads and validates configuration; throws one readable error listing every bad variable. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([, v]) => v !== undefined && v !== ''),
  );
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const raw = parsed.data;
  const dataDir = path.resolve(raw.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const appUrl = (raw.APP_URL ?? `http://localhost:${raw.PORT}`).replace(/\/$/, '');
  // The mailbox shows every sign-in link and code: never on a public (https) deployment.
  if (raw.DEV_MAILBOX && new URL(appUrl).protocol === 'https:') {
    throw new Error(
      'Invalid configuration:\n  DEV_MAILBOX: the local mailbox cannot be on with an https APP_URL',
    );
  }
  return {
    ...raw,
    DATA_DIR: dataDir,
    APP_URL: appUrl,
    MAIL_FROM: raw.MAIL_FROM ?? `${raw.APP_NAME} <no-reply@${new URL(appUrl).hostname}>`,
    AUTH_SECRET: raw.AUTH_SECRET ?? persistedSecret(dataDir),
    isProduction: raw.NODE_ENV === 'production',
    stripe: stripeConfigFrom(cleaned),
    ...gatewayConfigsFrom(cleaned),
    google: both(
      'GOOGLE',
      raw.GOOGLE_CLIENT_ID,
      raw.GOOGLE_CLIENT_SECRET,
      (clientId, clientSecret) => ({
        clientId,
        clientSecret,
      }),
    ),
    oidc:
      raw.OIDC_ISSUER === undefined && raw.OIDC_CLIENT_ID === undefined
        ? null
        : required('OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET', {
            issuer: raw.OIDC_ISSUER?.replace(/\/$/, ''),
            clientId: raw.OIDC_CLIENT_ID,
            clientSecret: raw.OIDC_CLIENT_SECRET,
            name: raw.OIDC_NAME,
          }),
    twilio:
      raw.TWILIO_ACCOUNT_SID === undefined
        ? null
        : required('TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM', {
            accountSid: raw.TWILIO_ACCOUNT_SID,
            authToken: raw.TWILIO_AUTH_TOKEN,
            from: raw.TWILIO_FROM,
          }),
    telegram:
      raw.TELEGRAM_BOT_TOKEN === undefined
        ? null
        : {
            token: raw.TELEGRAM_BOT_TOKEN,
            webhookSecret: raw.TELEGRAM_WEBHOOK_SECRET ?? null,
            apiBase: raw.TELEGRAM_API_BASE.replace(/\/$/, ''),
            username: raw.TELEGRAM_BOT_USERNAME?.replace(/^@/, '') ?? null,
          },
  };
}

/** Both variables of a pair, or neither; one alone is a configuration error. */
function both<T>(
  prefix: string,
  id: string | undefined,
  secret: string | undefined,
  build: (id: string, secret: string) => T,
): T | null {
  if (id === undefined && secret === undefined) return null;
  if (id === undefined || secret === undefined)
    throw new Error(
      `Invalid configuration:\n  ${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET go together`,
    );
  return build(id, secret);
}

/** Every value set, or a configuration error naming the variables that go together. */
function required<T extends Record<string, string | undefined>>(
  names: string,
  values: T,
): { [K in keyof T]: string } {
  if (Object.values(values).some((v) => v === undefined))
    throw new Error(`Invalid configuration:\n  ${names} go together`);
  return values as { [K in keyof T]: string };
}

/** Generated once and kept in DATA_DIR so sessions survive restarts when AUTH_SECRET is absent. */
function persistedSecret(dataDir: string): string {
  const file = path.join(dataDir, 'auth-secret');
  if (existsSync(file)) {
    const value = readFileSync(file, 'utf8').trim();
    if (value.length >= 32) return value;
  }
  const value = randomBytes(48).toString('base64url');
  writeFileSync(file, `${value}\n`, { mode: 0o600 });
  return value;
}

// PayPal's REST API (Orders v2, Payments v2, Webhooks v1), called with plain `fetch`.
//
// Why not the official SDK (@paypal/paypal-server-sdk): it only lets a client choose between
// PayPal's fixed hosts (sandbox or live), so it cannot talk to the local fake the tests and the
// end-to-end runs use (PAYPAL_API_BASE). The few calls Cometa makes are documented and small:
// https://developer.paypal.com/api/rest/authentication/, /docs/api/orders/v2/,
// /docs/api/payments/v2/ and /docs/api/webhooks/v1/#verify-webhook-signature.
import { z } from 'zod';
import type { PaypalConfig } from '../gateway-config';

/** One API call may take this long before it is abandoned. */
const TIMEOUT_MS = 20_000;
/** A cached token is dropped this long before PayPal says it expires. */
const TOKEN_MARGIN_MS = 5 * 60_000;

/** A non-2xx answer from PayPal: its HTTP status, and the first `details[].issue` if any. */
export class PaypalApiError extends Error {
  constructor(
    readonly status: number,
    /** e.g. ORDER_NOT_APPROVED, ORDER_ALREADY_CAPTURED; or the OAuth `error` (invalid_client). */
    readonly issue: string | null,
    readonly debugId: string | null,
    what: string,
  ) {
    super(`PayPal ${what} answered ${status}${issue ? ` ${issue}` : ''}`);
    this.name = 'PaypalApiError';
  }
}

const LinkSchema = z.looseObject({ href: z.string(), rel: z.string() });
export type PaypalLink = z.infer<typeof LinkSchema>;

const MoneySchema = z.looseObject({ currency_code: z.string(), value: z.string() });

export const CaptureSchema = z.looseObject({
  id: z.string(),
  status: z.string(),
  amount: MoneySchema.optional(),
  custom_id: z.string().optional(),
  links: z.array(LinkSchema).optional(),
  supplementary_data: z
    .looseObject({
      related_ids: z.looseObject({ order_id: z.string().optional() }).optional(),
    })
    .optional(),
});
export type PaypalCapture = z.infer<typeof CaptureSchema>;

export const OrderSchema = z.looseObject({
  id: z.string(),
  status: z.string(),
  links: z.array(LinkSchema).optional(),
  purchase_units: z
    .array(
      z.looseObject({
        reference_id: z.string().optional(),
        custom_id: z.string().optional(),
        payments: z.looseObject({ captures: z.array(CaptureSchema).optional() }).optional(),
      }),
    )
    .optional(),
});
export type PaypalOrder = z.infer<typeof OrderSchema>;

const TokenSchema = z.looseObject({
  access_token: z.string().min(1),
  expires_in: z.number().int().positive(),
});

const VerifySchema = z.looseObject({ verification_status: z.string() });

type CachedToken = { token: string; expiresAt: number };

/** Tokens by API base and credentials; a request in flight is shared by concurrent callers. */
const tokens = new Map<string, CachedToken>();
const inflight = new Map<string, Promise<string>>();

function cacheKey(config: PaypalConfig): string {
  return `${config.apiBase}\n${config.clientId}\n${config.clientSecret}`;
}

/** Forgets every cached token (tests). */
export function clearPaypalTokens(): void {
  tokens.clear();
  inflight.clear();
}

async function errorOf(res: Response, what: string): Promise<PaypalApiError> {
  let issue: string | null = null;
  let debugId: string | null = null;
  try {
    const body = (await res.json()) as {
      details?: { issue?: unknown }[];
      name?: unknown;
      error?: unknown;
      debug_id?: unknown;
    };
    const first = body.details?.[0]?.issue;
    issue =
      typeof first === 'string'
        ? first
        : typeof body.error === 'string'
          ? body.error
          : typeof body.name === 'string'
            ? body.name
            : null;
    debugId = typeof body.debug_id === 'string' ? body.debug_id : null;
  } catch {
    // Not JSON: the status says enough.
  }
  return new PaypalApiError(res.status, issue, debugId, what);
}

async function requestToken(config: PaypalConfig, now: () => number): Promise<string> {
  const basic = Buffer.from(`${config.clientId}:${config.clientSecret}`).toString('base64');
  const res = await fetch(`${config.apiBase}/v1/oauth2/token`, {
    method: 'POST',
    headers: {
      Authorization: `Basic ${basic}`,
      'Content-Type': 'application/x-www-form-urlencoded',
      Accept: 'application/json',
    },
    body: 'grant_type=client_credentials',
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (!res.ok) throw await errorOf(res, 'oauth2/token');
  const parsed = TokenSchema.parse(await res.json());
  const lifetime = parsed.expires_in * 1000;
  // A short-lived token is kept for half its life; a normal one (9 hours) until 5 minutes before.
  const keep = lifetime > 2 * TOKEN_MARGIN_MS ? lifetime - TOKEN_MARGIN_MS : lifetime / 2;
  tokens.set(cacheKey(config), { token: parsed.access_token, expiresAt: now() + keep });
  return parsed.access_token;
}

/**
 * An OAuth access token (client credentials), cached until shortly before it expires. Concurrent
 * callers share one token request.
 */
export async function accessToken(
  config: PaypalConfig,
  now: () => number = Date.now,
): Promise<string> {
  const key = cacheKey(config);
  const cached = tokens.get(key);
  if (cached && cached.expiresAt > now()) return cached.token;
  let pending = inflight.get(key);
  if (!pending) {
    pending = requestToken(config, now).finally(() => inflight.delete(key));
    inflight.set(key, pending);
  }
  return pending;
}

/**
 * One authenticated JSON call. A 401 (a token PayPal revoked before its time) drops the cached
 * token and retries once with a new one.
 */
async function call(
  config: PaypalConfig,
  method: 'GET' | 'POST',
  path: string,
  options: { body?: string; requestId?: string; what: string },
): Promise<unknown> {
  for (let attempt = 0; ; attempt += 1) {
    const token = await accessToken(config);
    const res = await fetch(`${config.apiBase}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        Accept: 'application/json',
        ...(options.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        ...(options.requestId ? { 'PayPal-Request-Id': options.requestId } : {}),
        Prefer: 'return=representation',
      },
      ...(options.body !== undefined ? { body: options.body } : {}),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (res.status === 401 && attempt === 0) {
      tokens.delete(cacheKey(config));
      await res.body?.cancel();
      continue;
    }
    if (!res.ok) throw await errorOf(res, options.what);
    return res.json();
  }
}

export type CreateOrderInput = {
  paymentId: string;
  /** What the customer pays (amount + fee), "25.73". */
  total: string;
  description: string;
  returnUrl: string;
  cancelUrl: string;
  brandName: string;
};

/** POST /v2/checkout/orders (idempotent by PayPal-Request-Id `topup-<paymentId>`). */
export async function createOrder(
  config: PaypalConfig,
  input: CreateOrderInput,
): Promise<PaypalOrder> {
  const body = {
    intent: 'CAPTURE',
    purchase_units: [
      {
        reference_id: input.paymentId,
        custom_id: input.paymentId,
        description: input.description,
        amount: { currency_code: 'USD', value: input.total },
      },
    ],
    payment_source: {
      paypal: {
        experience_context: {
          return_url: input.returnUrl,
          cancel_url: input.cancelUrl,
          user_action: 'PAY_NOW',
          shipping_preference: 'NO_SHIPPING',
          brand_name: input.brandName,
          locale: 'es-ES',
        },
      },
    },
  };
  const answer = await call(config, 'POST', '/v2/checkout/orders', {
    body: JSON.stringify(body),
    requestId: `topup-${input.paymentId}`,
    what: 'create order',
  });
  return OrderSchema.parse(answer);
}

/** POST /v2/checkout/orders/{id}/capture (idempotent by PayPal-Request-Id `capture-<paymentId>`). */
export async function captureOrder(
  config: PaypalConfig,
  orderId: string,
  paymentId: string,
): Promise<PaypalOrder> {
  const answer = await call(
    config,
    'POST',
    `/v2/checkout/orders/${encodeURIComponent(orderId)}/capture`,
    { body: '{}', requestId: `capture-${paymentId}`, what: 'capture order' },
  );
  return OrderSchema.parse(answer);
}

/** GET /v2/checkout/orders/{id}. */
export async function getOrder(config: PaypalConfig, orderId: string): Promise<PaypalOrder> {
  const answer = await call(config, 'GET', `/v2/checkout/orders/${encodeURIComponent(orderId)}`, {
    what: 'get order',
  });
  return OrderSchema.parse(answer);
}

/** The page where the customer approves an order: the `payer-action` (or `approve`) link. */
export function approvalLink(order: PaypalOrder): string | null {
  const links = order.links ?? [];
  return (
    links.find((l) => l.rel === 'payer-action')?.href ??
    links.find((l) => l.rel === 'approve')?.href ??
    null
  );
}

/** The order's first capture (purchase_units[0].payments.captures[0]), if it has one. */
export function firstCapture(order: PaypalOrder): PaypalCapture | null {
  return order.purchase_units?.[0]?.payments?.captures?.[0] ?? null;
}

export type WebhookHeaders = {
  authAlgo: string;
  certUrl: string;
  transmissionId: string;
  transmissionSig: string;
  transmissionTime: string;
};

/**
 * POST /v1/notifications/verify-webhook-signature: PayPal says whether a delivery is its own.
 * The request body is written as text with the event spliced in exactly as it arrived: PayPal
 * checks the signature against those bytes, and re-serialized JSON (other spacing, escapes or
 * number forms) can fail the check.
 */
export async function verifyWebhookSignature(
  config: PaypalConfig,
  webhookId: string,
  headers: WebhookHeaders,
  rawBody: string,
): Promise<string> {
  const fields = JSON.stringify({
    auth_algo: headers.authAlgo,
    cert_url: headers.certUrl,
    transmission_id: headers.transmissionId,
    transmission_sig: headers.transmissionSig,
    transmission_time: headers.transmissionTime,
    webhook_id: webhookId,
  });
  const body = `${fields.slice(0, -1)},"webhook_event":${rawBody}}`;
  const answer = await call(config, 'POST', '/v1/notifications/verify-webhook-signature', {
    body,
    what: 'verify webhook signature',
  });
  return VerifySchema.parse(answer).verification_status;
}

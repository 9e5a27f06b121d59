// Test support: a local stand-in for the parts of PayPal's REST API Cometa calls, answering as
// PayPal documents them, plus the approval page an order's `payer-action` link points to and the
// webhook deliveries PayPal would send. No test-runner imports, so browser tests can start it.
//
//   const fake = await startFakePaypal({ webhookUrl: 'http://127.0.0.1:3000/api/webhooks/paypal' });
//   PAYPAL_API_BASE=fake.baseUrl PAYPAL_CLIENT_ID=fake.clientId
//   PAYPAL_CLIENT_SECRET=fake.clientSecret PAYPAL_WEBHOOK_ID=fake.webhookId
//
// API (all JSON, PayPal's shapes and error bodies `{ name, message, details: [{ issue }], debug_id }`):
// - POST /v1/oauth2/token: Basic clientId:clientSecret, grant_type=client_credentials → a Bearer
//   token (expires_in 32400 unless `tokenLifetime` says otherwise); 401 invalid_client otherwise.
//   Every other call needs a token it issued (401 invalid_token otherwise).
// - POST /v2/checkout/orders → 201, status PAYER_ACTION_REQUIRED (CREATED with an `approve` link
//   when no experience_context is given), link rel `payer-action` → {baseUrl}/checkoutnow?token=<id>.
// - GET /v2/checkout/orders/:id; POST /v2/checkout/orders/:id/capture → 422 ORDER_NOT_APPROVED
//   before approval, 201 with the capture after (status `captureStatus`, default COMPLETED),
//   422 ORDER_ALREADY_CAPTURED on a repeat. PayPal-Request-Id: a repeated id gets the first answer.
// - GET /v2/payments/captures/:id; POST /v2/payments/captures/:id/refund (optional amount).
// - POST /v1/notifications/verify-webhook-signature → SUCCESS only for a delivery the fake itself
//   signed: its transmission id and signature, its webhook id, and the exact bytes of the event
//   (the webhook_event value is read as raw text from the request); FAILURE otherwise.
//
// The browser page GET /checkoutnow?token=<orderId> (Spanish) has «Pagar con PayPal», which
// approves the order, sends a signed CHECKOUT.ORDER.APPROVED to `webhookUrl` (when set) and
// redirects to the order's return_url + &token=<orderId>&PayerID=FAKEPAYER; and «Cancelar», which
// redirects to its cancel_url + &token=<orderId>. After a capture, a refund or `reverse()`, the
// matching PAYMENT.CAPTURE.* event is sent to `webhookUrl` (when set) a moment later, like PayPal,
// retried a few times while the answer is not 2xx.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakePaypalOptions = {
  /** Where PayPal's events are POSTed (our /api/webhooks/paypal); none: only signedEvent(). */
  webhookUrl?: string;
  /** The webhook's id at "PayPal" (PAYPAL_WEBHOOK_ID); random by default. */
  webhookId?: string;
  clientId?: string;
  clientSecret?: string;
  /** Seconds a token lives (expires_in). */
  tokenLifetime?: number;
  port?: number;
};

export type FakeMoney = { currency_code: string; value: string };
export type FakeLink = { href: string; rel: string; method: string };

export type FakeCapture = {
  id: string;
  status: 'COMPLETED' | 'PENDING' | 'DECLINED' | 'REFUNDED' | 'PARTIALLY_REFUNDED' | 'REVERSED';
  status_details?: { reason: string };
  amount: FakeMoney;
  final_capture: boolean;
  seller_protection: { status: string; dispute_categories: string[] };
  custom_id?: string;
  links: FakeLink[];
  create_time: string;
  update_time: string;
};

export type FakeRefund = {
  id: string;
  status: 'COMPLETED';
  amount: FakeMoney;
  note_to_payer?: string;
  links: FakeLink[];
  create_time: string;
  update_time: string;
};

export type FakeOrder = {
  id: string;
  intent: string;
  status: 'CREATED' | 'PAYER_ACTION_REQUIRED' | 'APPROVED' | 'COMPLETED';
  payment_source?: Record<string, unknown>;
  purchase_units: {
    reference_id: string;
    custom_id?: string;
    description?: string;
    amount: FakeMoney;
    payee: { email_address: string; merchant_id: string };
    payments?: { captures: FakeCapture[] };
  }[];
  payer?: {
    name: { given_name: string; surname: string };
    email_address: string;
    payer_id: string;
  };
  create_time: string;
  update_time: string;
  links: FakeLink[];
};

export type FakePaypalRequest = {
  method: string;
  path: string;
  requestId: string | null;
  authorization: string | null;
  body: string;
};

export type SignedEvent = {
  id: string;
  /** The exact JSON text PayPal POSTs. */
  body: string;
  /** The headers PayPal sends with it (content-type and the paypal-* transmission headers). */
  headers: Record<string, string>;
};

export type FakePaypal = {
  /** e.g. http://127.0.0.1:41234: give it to PAYPAL_API_BASE. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  webhookId: string;
  /** Orders created, by id, as GET /v2/checkout/orders/:id answers them. */
  orders: Map<string, FakeOrder>;
  captures: Map<string, FakeCapture>;
  refunds: Map<string, FakeRefund>;
  /** Every API request received, oldest first (token requests included). */
  requests: FakePaypalRequest[];
  /** Token requests received. */
  tokenRequests: () => number;
  /** The status later captures get (COMPLETED by default). */
  setCaptureStatus: (status: 'COMPLETED' | 'PENDING' | 'DECLINED') => void;
  /** The next `times` API calls (not token requests) answer 500 INTERNAL_SERVER_ERROR. */
  failNext: (times?: number) => void;
  /** Every issued token stops working (PayPal answers 401 invalid_token). */
  revokeTokens: () => void;
  /** What the payer does on the approval page; sends CHECKOUT.ORDER.APPROVED when webhookUrl is set. */
  approve: (orderId: string) => FakeOrder;
  /** A PENDING capture clears: COMPLETED, and PAYMENT.CAPTURE.COMPLETED when webhookUrl is set. */
  completeCapture: (captureId: string) => FakeCapture;
  /** Refunds a capture (all of it without `value`); PAYMENT.CAPTURE.REFUNDED when webhookUrl is set. */
  refund: (captureId: string, value?: string) => FakeRefund;
  /** A chargeback: the capture is REVERSED; PAYMENT.CAPTURE.REVERSED when webhookUrl is set. */
  reverse: (captureId: string) => FakeRefund;
  /** A capture as webhook events carry it (with supplementary_data.related_ids.order_id). */
  captureResource: (captureId: string) => FakeCapture & Record<string, unknown>;
  /** An event as PayPal would POST it, signed by the fake (verify-webhook-signature says SUCCESS). */
  signedEvent: (type: string, resource: object, options?: { id?: string }) => SignedEvent;
  /** Signs and POSTs an event to `webhookUrl` now; answers our status code. */
  sendEvent: (type: string, resource: object) => Promise<{ id: string; status: number }>;
  /** Automatic deliveries made so far (type, event id, final status or 0 when unreachable). */
  deliveries: { type: string; id: string; status: number }[];
  /** Waits for the automatic deliveries in flight. */
  settle: () => Promise<void>;
  close: () => Promise<void>;
};

type Stored = { status: number; body: unknown };

const CERT_PATH = '/v1/notifications/certs/CERT-360caa42-fca2a594-fake';

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function debugId(): string {
  return randomBytes(7).toString('hex');
}

/** A PayPal-style id: 17 upper-case letters and digits. */
function paypalId(): string {
  const alphabet = 'ABCDEFGHJKLMNPRSTUVWXY0123456789';
  const bytes = randomBytes(17);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}

function apiError(
  status: number,
  name: string,
  message: string,
  issue?: string,
  description?: string,
): Stored {
  return {
    status,
    body: {
      name,
      message,
      debug_id: debugId(),
      ...(issue ? { details: [{ issue, description: description ?? issue }] } : {}),
    },
  };
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC32 of the UTF-8 bytes (what PayPal's signature covers of the body). */
function crc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text, 'utf8')) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

// A tiny scanner that finds the exact text of one top-level value of a JSON object, so the fake
// can check the bytes of `webhook_event` as our server sent them (not a re-serialization).
function skipSpace(s: string, i: number): number {
  while (i < s.length && /\s/.test(s[i]!)) i += 1;
  return i;
}
function scanString(s: string, i: number): number {
  for (i += 1; i < s.length; i += 1) {
    if (s[i] === '\\') i += 1;
    else if (s[i] === '"') return i + 1;
  }
  throw new Error('unterminated string');
}
function scanValue(s: string, i: number): number {
  const first = s[i];
  if (first === '"') return scanString(s, i);
  if (first === '{' || first === '[') {
    let depth = 0;
    while (i < s.length) {
      const ch = s[i];
      if (ch === '"') {
        i = scanString(s, i);
        continue;
      }
      if (ch === '{' || ch === '[') depth += 1;
      else if (ch === '}' || ch === ']') {
        depth -= 1;
        if (depth === 0) return i + 1;
      }
      i += 1;
    }
    throw new Error('unterminated value');
  }
  while (i < s.length && !/[,}\]\s]/.test(s[i]!)) i += 1;
  return i;
}
function topLevelValueText(s: string, key: string): string | null {
  try {
    let i = skipSpace(s, 0);
    if (s[i] !== '{') return null;
    i += 1;
    for (;;) {
      i = skipSpace(s, i);
      if (s[i] !== '"') return null;
      const keyStart = i;
      i = scanString(s, i);
      const name = JSON.parse(s.slice(keyStart, i)) as string;
      i = skipSpace(s, i);
      if (s[i] !== ':') return null;
      i = skipSpace(s, i + 1);
      const valueStart = i;
      i = scanValue(s, i);
      if (name === key) return s.slice(valueStart, i);
      i = skipSpace(s, i);
      if (s[i] !== ',') return null;
      i += 1;
    }
  } catch {
    return null;
  }
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

const RESOURCE_TYPES: Record<string, string> = {
  'CHECKOUT.ORDER.APPROVED': 'checkout-order',
  'PAYMENT.CAPTURE.REFUNDED': 'refund',
  'PAYMENT.CAPTURE.REVERSED': 'refund',
};

const SUMMARIES: Record<string, string> = {
  'CHECKOUT.ORDER.APPROVED': 'An order has been approved by buyer',
  'PAYMENT.CAPTURE.COMPLETED': 'Payment completed for $ amount',
  'PAYMENT.CAPTURE.PENDING': 'Payment pending for $ amount',
  'PAYMENT.CAPTURE.DECLINED': 'A payment capture was declined',
  'PAYMENT.CAPTURE.DENIED': 'A payment capture was denied',
  'PAYMENT.CAPTURE.REFUNDED': 'A $ amount capture payment was refunded',
  'PAYMENT.CAPTURE.REVERSED': 'A $ amount capture payment was reversed',
};

function cents(value: string): bigint {
  const [whole = '0', fraction = ''] = value.split('.');
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2));
}
function money(c: bigint): string {
  return `${c / 100n}.${(c % 100n).toString().padStart(2, '0')}`;
}

/** Starts the fake on 127.0.0.1, on a free port unless `port` is given. */
export async function startFakePaypal(options: FakePaypalOptions = {}): Promise<FakePaypal> {
  const clientId = options.clientId ?? `AFakeClient${randomBytes(8).toString('hex')}`;
  const clientSecret = options.clientSecret ?? `EFakeSecret${randomBytes(12).toString('hex')}`;
  const webhookId = options.webhookId ?? `WH-FAKE-${randomBytes(8).toString('hex').toUpperCase()}`;
  const tokenLifetime = options.tokenLifetime ?? 32_400;
  const signingKey = randomBytes(32);
  const orders = new Map<string, FakeOrder>();
  const captures = new Map<string, FakeCapture>();
  const captureOrder = new Map<string, string>();
  const refunds = new Map<string, FakeRefund>();
  const requests: FakePaypalRequest[] = [];
  const tokens = new Map<string, number>();
  const byRequestId = new Map<string, Stored>();
  /** transmission id → the signature it was issued with. */
  const transmissions = new Map<string, string>();
  const deliveries: { type: string; id: string; status: number }[] = [];
  const inFlight = new Set<Promise<void>>();
  let tokenCount = 0;
  let failures = 0;
  let captureStatus: 'COMPLETED' | 'PENDING' | 'DECLINED' = 'COMPLETED';
  let closed = false;
  let baseUrl = '';

  const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

  function sign(transmissionId: string, time: string, body: string): string {
    return createHmac('sha256', signingKey)
      .update(`${transmissionId}|${time}|${webhookId}|${crc32(body)}`)
      .digest('base64');
  }

  function signedEvent(type: string, resource: object, opts: { id?: string } = {}): SignedEvent {
    const id = opts.id ?? `WH-${paypalId()}-${paypalId()}`;
    const event = {
      id,
      event_version: '1.0',
      create_time: now(),
      resource_type: RESOURCE_TYPES[type] ?? 'capture',
      resource_version: '2.0',
      event_type: type,
      summary: SUMMARIES[type] ?? type,
      resource,
      links: [
        { href: `${baseUrl}/v1/notifications/webhooks-events/${id}`, rel: 'self', method: 'GET' },
        {
          href: `${baseUrl}/v1/notifications/webhooks-events/${id}/resend`,
          rel: 'resend',
          method: 'POST',
        },
      ],
    };
    const body = JSON.stringify(event);
    const transmissionId = randomBytes(16).toString('hex');
    const time = now();
    const signature = sign(transmissionId, time, body);
    transmissions.set(transmissionId, signature);
    return {
      id,
      body,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'PayPal/AUHD-214.0-58688487',
        'paypal-auth-algo': 'SHA256withRSA',
        'paypal-auth-version': 'v2',
        'paypal-cert-url': `${baseUrl}${CERT_PATH}`,
        'paypal-transmission-id': transmissionId,
        'paypal-transmission-sig': signature,
        'paypal-transmission-time': time,
      },
    };
  }

  async function post(type: string, resource: object): Promise<{ id: string; status: number }> {
    if (!options.webhookUrl) throw new Error('fake PayPal: no webhookUrl to send events to');
    const event = signedEvent(type, resource);
    const res = await fetch(options.webhookUrl, {
      method: 'POST',
      headers: event.headers,
      body: event.body,
    });
    await res.arrayBuffer();
    return { id: event.id, status: res.status };
  }

  /** Like PayPal: a moment after the change, retried a few times while not 2xx. */
  function dispatchLater(type: string, resource: object): void {
    if (!options.webhookUrl) return;
    const snapshot = JSON.parse(JSON.stringify(resource)) as object;
    const job = (async () => {
      const event = signedEvent(type, snapshot);
      let status = 0;
      for (let attempt = 0; attempt < 5 && !closed; attempt += 1) {
        await new Promise((r) => setTimeout(r, attempt === 0 ? 100 : 500 * attempt));
        try {
          const res = await fetch(options.webhookUrl!, {
            method: 'POST',
            headers: event.headers,
            body: event.body,
          });
          await res.arrayBuffer();
          status = res.status;
          if (status >= 200 && status < 300) break;
        } catch {
          status = 0;
        }
      }
      deliveries.push({ type, id: event.id, status });
    })();
    inFlight.add(job);
    void job.finally(() => inFlight.delete(job));
  }

  function captureResource(captureId: string) {
    const capture = captures.get(captureId);
    if (!capture) throw new Error(`fake PayPal: no capture ${captureId}`);
    return {
      ...capture,
      supplementary_data: { related_ids: { order_id: captureOrder.get(captureId) ?? '' } },
    };
  }

  function orderLinks(order: FakeOrder): FakeLink[] {
    const self = { href: `${baseUrl}/v2/checkout/orders/${order.id}`, rel: 'self', method: 'GET' };
    if (order.status === 'COMPLETED') return [self];
    if (order.status === 'APPROVED')
      return [
        self,
        {
          href: `${baseUrl}/v2/checkout/orders/${order.id}/capture`,
          rel: 'capture',
          method: 'POST',
        },
      ];
    const approval = {
      href: `${baseUrl}/checkoutnow?token=${order.id}`,
      rel: order.status === 'PAYER_ACTION_REQUIRED' ? 'payer-action' : 'approve',
      method: 'GET',
    };
    return [self, approval];
  }

  function touch(order: FakeOrder): FakeOrder {
    order.update_time = now();
    order.links = orderLinks(order);
    return order;
  }

  function createOrder(raw: string): Stored {
    let input: {
      intent?: unknown;
      purchase_units?: {
        reference_id?: unknown;
        custom_id?: unknown;
        description?: unknown;
        amount?: { currency_code?: unknown; value?: unknown };
      }[];
      payment_source?: { paypal?: { experience_context?: Record<string, unknown> } };
    };
    try {
      input = JSON.parse(raw) as typeof input;
    } catch {
      return apiError(
        400,
        'INVALID_REQUEST',
        'Request is not well-formed.',
        'MALFORMED_REQUEST_JSON',
      );
    }
    const unit = input.purchase_units?.[0];
    const amount = unit?.amount;
    if (input.intent !== 'CAPTURE' && input.intent !== 'AUTHORIZE')
      return apiError(
        400,
        'INVALID_REQUEST',
        'Request is not well-formed.',
        'INVALID_PARAMETER_VALUE',
        'intent',
      );
    if (
      !unit ||
      typeof amount?.currency_code !== 'string' ||
      !/^[A-Z]{3}$/.test(amount.currency_code) ||
      typeof amount.value !== 'string' ||
      !/^\d{1,10}(\.\d{2})?$/.test(amount.value) ||
      cents(amount.value) <= 0n
    )
      return apiError(
        422,
        'UNPROCESSABLE_ENTITY',
        'The requested action could not be performed, semantically incorrect, or failed business validation.',
        'INVALID_PARAMETER_VALUE',
        'purchase_units[0].amount',
      );
    const experience = input.payment_source?.paypal?.experience_context;
    const order: FakeOrder = {
      id: paypalId(),
      intent: input.intent,
      status: experience ? 'PAYER_ACTION_REQUIRED' : 'CREATED',
      ...(input.payment_source ? { payment_source: input.payment_source } : {}),
      purchase_units: [
        {
          reference_id: typeof unit.reference_id === 'string' ? unit.reference_id : 'default',
          ...(typeof unit.custom_id === 'string' ? { custom_id: unit.custom_id } : {}),
          ...(typeof unit.description === 'string' ? { description: unit.description } : {}),
          amount: { currency_code: amount.currency_code, value: amount.value },
          payee: { email_address: 'merchant@example.com', merchant_id: 'FAKEMERCHANT01' },
        },
      ],
      create_time: now(),
      update_time: now(),
      links: [],
    };
    order.links = orderLinks(order);
    orders.set(order.id, order);
    return { status: 201, body: order };
  }

  function experienceOf(order: FakeOrder): { returnUrl: string | null; cancelUrl: string | null } {
    const paypal = (order.payment_source?.paypal ?? {}) as {
      experience_context?: { return_url?: unknown; cancel_url?: unknown };
    };
    const ctx = paypal.experience_context ?? {};
    return {
      returnUrl: typeof ctx.return_url === 'string' ? ctx.return_url : null,
      cancelUrl: typeof ctx.cancel_url === 'string' ? ctx.cancel_url : null,
    };
  }

  function approve(orderId: string): FakeOrder {
    const order = orders.get(orderId);
    if (!order) throw new Error(`fake PayPal: no order ${orderId}`);
    if (order.status === 'CREATED' || order.status === 'PAYER_ACTION_REQUIRED') {
      order.status = 'APPROVED';
      order.payer = {
        name: { given_name: 'Comprador', surname: 'De Prueba' },
        email_address: 'comprador@example.com',
        payer_id: 'FAKEPAYER',
      };
      touch(order);
      dispatchLater('CHECKOUT.ORDER.APPROVED', order);
    }
    return order;
  }

  function capture(orderId: string): Stored {
    const order = orders.get(orderId);
    if (!order)
      return apiError(
        404,
        'RESOURCE_NOT_FOUND',
        'The specified resource does not exist.',
        'INVALID_RESOURCE_ID',
        'Specified resource ID does not exist. Please check the resource ID and try again.',
      );
    if (order.status === 'COMPLETED')
      return apiError(
        422,
        'UNPROCESSABLE_ENTITY',
        'The requested action could not be performed, semantically incorrect, or failed business validation.',
        'ORDER_ALREADY_CAPTURED',
        "Order already captured.If 'intent=CAPTURE' only one capture per order is allowed.",
      );
    if (order.status !== 'APPROVED')
      return apiError(
        422,
        'UNPROCESSABLE_ENTITY',
        'The requested action could not be performed, semantically incorrect, or failed business validation.',
        'ORDER_NOT_APPROVED',
        "Payer has not yet approved the Order for payment. Please redirect the payer to the 'rel':'approve' url returned as part of the HATEOAS links within the Create Order call or provide a valid payment_source in the request.",
      );
    const unit = order.purchase_units[0]!;
    const id = paypalId();
    const captured: FakeCapture = {
      id,
      status: captureStatus,
      ...(captureStatus === 'PENDING' ? { status_details: { reason: 'PENDING_REVIEW' } } : {}),
      amount: { ...unit.amount },
      final_capture: true,
      seller_protection: {
        status: 'ELIGIBLE',
        dispute_categories: ['ITEM_NOT_RECEIVED', 'UNAUTHORIZED_TRANSACTION'],
      },
      ...(unit.custom_id ? { custom_id: unit.custom_id } : {}),
      links: [
        { href: `${baseUrl}/v2/payments/captures/${id}`, rel: 'self', method: 'GET' },
        { href: `${baseUrl}/v2/payments/captures/${id}/refund`, rel: 'refund', method: 'POST' },
        { href: `${baseUrl}/v2/checkout/orders/${order.id}`, rel: 'up', method: 'GET' },
      ],
      create_time: now(),
      update_time: now(),
    };
    captures.set(id, captured);
    captureOrder.set(id, order.id);
    unit.payments = { captures: [captured] };
    order.status = 'COMPLETED';
    touch(order);
    const eventType =
      captureStatus === 'COMPLETED'
        ? 'PAYMENT.CAPTURE.COMPLETED'
        : captureStatus === 'PENDING'
          ? 'PAYMENT.CAPTURE.PENDING'
          : 'PAYMENT.CAPTURE.DECLINED';
    dispatchLater(eventType, captureResource(id));
    return { status: 201, body: JSON.parse(JSON.stringify(order)) as unknown };
  }

  function completeCapture(captureId: string): FakeCapture {
    const found = captures.get(captureId);
    if (!found) throw new Error(`fake PayPal: no capture ${captureId}`);
    if (found.status === 'PENDING') {
      found.status = 'COMPLETED';
      delete found.status_details;
      found.update_time = now();
      dispatchLater('PAYMENT.CAPTURE.COMPLETED', captureResource(captureId));
    }
    return found;
  }

  function refundedSoFar(captureId: string): bigint {
    let total = 0n;
    for (const r of refunds.values()) {
      if (r.links.some((l) => l.rel === 'up' && l.href.endsWith(`/captures/${captureId}`)))
        total += cents(r.amount.value);
    }
    return total;
  }

  function doRefund(captureId: string, value: string | undefined): Stored {
    const found = captures.get(captureId);
    if (!found)
      return apiError(
        404,
        'RESOURCE_NOT_FOUND',
        'The specified resource does not exist.',
        'INVALID_RESOURCE_ID',
      );
    if (found.status !== 'COMPLETED' && found.status !== 'PARTIALLY_REFUNDED')
      return apiError(
        422,
        'UNPROCESSABLE_ENTITY',
        'The requested action could not be performed, semantically incorrect, or failed business validation.',
        found.status === 'REFUNDED' ? 'CAPTURE_FULLY_REFUNDED' : 'REFUND_NOT_ALLOWED',
      );
    const remaining = cents(found.amount.value) - refundedSoFar(captureId);
    const wanted = value === undefined ? remaining : cents(value);
    if (wanted <= 0n || wanted > remaining)
      return apiError(
        422,
        'UNPROCESSABLE_ENTITY',
        'The requested action could not be performed, semantically incorrect, or failed business validation.',
        'REFUND_AMOUNT_EXCEEDED',
      );
    const id = paypalId();
    const refund: FakeRefund = {
      id,
      status: 'COMPLETED',
      amount: { currency_code: found.amount.currency_code, value: money(wanted) },
      links: [
        { href: `${baseUrl}/v2/payments/refunds/${id}`, rel: 'self', method: 'GET' },
        { href: `${baseUrl}/v2/payments/captures/${captureId}`, rel: 'up', method: 'GET' },
      ],
      create_time: now(),
      update_time: now(),
    };
    refunds.set(id, refund);
    found.status = wanted === remaining ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
    found.update_time = now();
    dispatchLater('PAYMENT.CAPTURE.REFUNDED', refund);
    return { status: 201, body: refund };
  }

  function reverse(captureId: string): FakeRefund {
    const found = captures.get(captureId);
    if (!found) throw new Error(`fake PayPal: no capture ${captureId}`);
    const id = paypalId();
    const reversal: FakeRefund = {
      id,
      status: 'COMPLETED',
      amount: { ...found.amount },
      note_to_payer: 'Payment reversed',
      links: [
        { href: `${baseUrl}/v2/payments/refunds/${id}`, rel: 'self', method: 'GET' },
        { href: `${baseUrl}/v2/payments/captures/${captureId}`, rel: 'up', method: 'GET' },
      ],
      create_time: now(),
      update_time: now(),
    };
    found.status = 'REVERSED';
    found.update_time = now();
    dispatchLater('PAYMENT.CAPTURE.REVERSED', reversal);
    return reversal;
  }

  function verify(raw: string): Stored {
    let input: Record<string, unknown>;
    try {
      input = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return apiError(
        400,
        'INVALID_REQUEST',
        'Request is not well-formed.',
        'MALFORMED_REQUEST_JSON',
      );
    }
    for (const field of [
      'auth_algo',
      'cert_url',
      'transmission_id',
      'transmission_sig',
      'transmission_time',
      'webhook_id',
      'webhook_event',
    ]) {
      if (input[field] === undefined || input[field] === '')
        return apiError(
          400,
          'VALIDATION_ERROR',
          'Invalid request - see details',
          'MISSING_REQUIRED_PARAMETER',
          field,
        );
    }
    const eventText = topLevelValueText(raw, 'webhook_event');
    const transmissionId = String(input.transmission_id);
    const issued = transmissions.get(transmissionId);
    const given = String(input.transmission_sig);
    const expected =
      eventText === null ? '' : sign(transmissionId, String(input.transmission_time), eventText);
    const ok =
      issued !== undefined &&
      issued === given &&
      input.webhook_id === webhookId &&
      input.auth_algo === 'SHA256withRSA' &&
      input.cert_url === `${baseUrl}${CERT_PATH}` &&
      expected.length === given.length &&
      timingSafeEqual(Buffer.from(expected), Buffer.from(given));
    return { status: 200, body: { verification_status: ok ? 'SUCCESS' : 'FAILURE' } };
  }

  function send(res: ServerResponse, stored: Stored, headers: Record<string, string> = {}): void {
    res.writeHead(stored.status, {
      'Content-Type': 'application/json',
      'Paypal-Debug-Id': debugId(),
      ...headers,
    });
    res.end(JSON.stringify(stored.body));
  }

  function tokenRequest(req: IncomingMessage, res: ServerResponse, raw: string): void {
    tokenCount += 1;
    const expected = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
    if (req.headers.authorization !== expected) {
      send(res, {
        status: 401,
        body: { error: 'invalid_client', error_description: 'Client Authentication failed' },
      });
      return;
    }
    if (new URLSearchParams(raw).get('grant_type') !== 'client_credentials') {
      send(res, {
        status: 400,
        body: { error: 'unsupported_grant_type', error_description: 'Grant Type is NULL' },
      });
      return;
    }
    const token = `A21AA${randomBytes(24).toString('base64url')}`;
    tokens.set(token, Date.now() + tokenLifetime * 1000);
    send(res, {
      status: 200,
      body: {
        scope: 'https://uri.paypal.com/services/payments/payment',
        access_token: token,
        token_type: 'Bearer',
        app_id: 'APP-80W284485P519543T',
        expires_in: tokenLifetime,
        nonce: `${now()}${randomBytes(8).toString('hex')}`,
      },
    });
  }

  function route(method: string, path: string, raw: string): Stored {
    if (method === 'POST' && path === '/v2/checkout/orders') return createOrder(raw);
    const order = /^\/v2\/checkout\/orders\/([A-Z0-9]+)$/.exec(path);
    if (method === 'GET' && order?.[1]) {
      const found = orders.get(order[1]);
      return found
        ? { status: 200, body: found }
        : apiError(
            404,
            'RESOURCE_NOT_FOUND',
            'The specified resource does not exist.',
            'INVALID_RESOURCE_ID',
          );
    }
    const cap = /^\/v2\/checkout\/orders\/([A-Z0-9]+)\/capture$/.exec(path);
    if (method === 'POST' && cap?.[1]) return capture(cap[1]);
    const getCapture = /^\/v2\/payments\/captures\/([A-Z0-9]+)$/.exec(path);
    if (method === 'GET' && getCapture?.[1]) {
      const found = captures.get(getCapture[1]);
      return found
        ? { status: 200, body: found }
        : apiError(
            404,
            'RESOURCE_NOT_FOUND',
            'The specified resource does not exist.',
            'INVALID_RESOURCE_ID',
          );
    }
    const refund = /^\/v2\/payments\/captures\/([A-Z0-9]+)\/refund$/.exec(path);
    if (method === 'POST' && refund?.[1]) {
      let value: string | undefined;
      if (raw.trim()) {
        try {
          const body = JSON.parse(raw) as { amount?: { value?: unknown } };
          if (typeof body.amount?.value === 'string') value = body.amount.value;
        } catch {
          return apiError(
            400,
            'INVALID_REQUEST',
            'Request is not well-formed.',
            'MALFORMED_REQUEST_JSON',
          );
        }
      }
      return doRefund(refund[1], value);
    }
    if (method === 'POST' && path === '/v1/notifications/verify-webhook-signature')
      return verify(raw);
    return apiError(
      404,
      'RESOURCE_NOT_FOUND',
      'The specified resource does not exist.',
      'INVALID_RESOURCE_ID',
      path,
    );
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, path: string) {
    const raw = await readBody(req);
    const requestIdHeader = req.headers['paypal-request-id'];
    const requestId = typeof requestIdHeader === 'string' ? requestIdHeader : null;
    requests.push({
      method: req.method ?? '',
      path,
      requestId,
      authorization: req.headers.authorization ?? null,
      body: raw,
    });
    if (req.method === 'POST' && path === '/v1/oauth2/token') {
      tokenRequest(req, res, raw);
      return;
    }
    const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    const expiresAt = bearer ? tokens.get(bearer) : undefined;
    if (!expiresAt || expiresAt < Date.now()) {
      send(res, {
        status: 401,
        body: { error: 'invalid_token', error_description: 'Token signature verification failed' },
      });
      return;
    }
    // Like PayPal: a repeated PayPal-Request-Id on the same call gets the first answer again.
    const key = requestId ? `${req.method} ${path} ${requestId}` : null;
    const previous = key ? byRequestId.get(key) : undefined;
    if (previous) {
      send(res, previous);
      return;
    }
    if (failures > 0) {
      failures -= 1;
      send(
        res,
        apiError(
          500,
          'INTERNAL_SERVER_ERROR',
          'An internal server error occurred.',
          'INTERNAL_SERVICE_ERROR',
        ),
      );
      return;
    }
    const answer = route(req.method ?? '', path, raw);
    if (key && answer.status < 500) byRequestId.set(key, answer);
    send(res, answer);
  }

  function page(res: ServerResponse, orderId: string): void {
    const order = orders.get(orderId);
    if (!order) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Orden de PayPal no encontrada');
      return;
    }
    const unit = order.purchase_units[0]!;
    const token = escapeHtml(order.id);
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="es"><head><meta charset="utf-8"><title>PayPal (simulado)</title></head>
<body><h1>PayPal (simulado)</h1>
<p data-order-id="${token}">${escapeHtml(unit.description ?? 'Pago')}: ${escapeHtml(unit.amount.value)} ${escapeHtml(unit.amount.currency_code)}</p>
<form method="post" action="/checkoutnow/approve?token=${token}"><button type="submit">Pagar con PayPal</button></form>
<form method="post" action="/checkoutnow/cancel?token=${token}"><button type="submit">Cancelar</button></form>
</body></html>`);
  }

  function backTo(res: ServerResponse, target: string | null, orderId: string, payer: boolean) {
    if (!target) {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Listo. Puedes cerrar esta ventana.');
      return;
    }
    const url = new URL(target);
    url.searchParams.set('token', orderId);
    if (payer) url.searchParams.set('PayerID', 'FAKEPAYER');
    res.writeHead(303, { Location: url.toString() });
    res.end();
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const path = url.pathname;
    const token = url.searchParams.get('token') ?? '';
    if (req.method === 'GET' && path === '/checkoutnow') {
      page(res, token);
      return;
    }
    if (
      req.method === 'POST' &&
      (path === '/checkoutnow/approve' || path === '/checkoutnow/cancel')
    ) {
      req.resume();
      const order = orders.get(token);
      if (!order) {
        res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end('Orden de PayPal no encontrada');
        return;
      }
      const { returnUrl, cancelUrl } = experienceOf(order);
      if (path === '/checkoutnow/approve') {
        approve(order.id);
        backTo(res, returnUrl, order.id, true);
      } else {
        backTo(res, cancelUrl, order.id, false);
      }
      return;
    }
    handleApi(req, res, path).catch((err: unknown) => {
      send(res, apiError(500, 'INTERNAL_SERVER_ERROR', String(err)));
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;

  return {
    baseUrl,
    clientId,
    clientSecret,
    webhookId,
    orders,
    captures,
    refunds,
    requests,
    deliveries,
    tokenRequests: () => tokenCount,
    setCaptureStatus(status) {
      captureStatus = status;
    },
    failNext(times = 1) {
      failures += times;
    },
    revokeTokens() {
      tokens.clear();
    },
    approve,
    completeCapture,
    refund(captureId, value) {
      const answer = doRefund(captureId, value);
      if (answer.status !== 201)
        throw new Error(`fake PayPal: refund refused: ${JSON.stringify(answer.body)}`);
      return answer.body as FakeRefund;
    },
    reverse,
    captureResource,
    signedEvent,
    sendEvent: post,
    async settle() {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
    async close() {
      closed = true;
      await Promise.all([...inFlight]);
      await new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}

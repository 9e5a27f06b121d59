// Test support: a local stand-in for the one Stripe endpoint Cometa calls
// (POST /v1/checkout/sessions), plus the page its session URL points to. No test-runner
// imports, so browser tests can start it too.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeStripeRequest = {
  method: string;
  path: string;
  /** The form-encoded body as stripe-node sends it, e.g. `line_items[0][quantity]` → "1". */
  form: Record<string, string>;
  idempotencyKey: string | null;
  authorization: string | null;
};

export type FakeCheckoutSession = {
  id: string;
  object: 'checkout.session';
  url: string;
  mode: string;
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  /** The PaymentIntent once paid (what charges, refunds and disputes name), else null. */
  payment_intent: string | null;
  payment_status: 'unpaid' | 'paid' | 'no_payment_required';
  status: 'open' | 'complete' | 'expired';
  success_url: string | null;
  cancel_url: string | null;
  created: number;
  livemode: false;
};

export type FakeStripe = {
  /** e.g. http://127.0.0.1:41234: give it to STRIPE_API_BASE. */
  baseUrl: string;
  /** Every API request received, oldest first. */
  requests: FakeStripeRequest[];
  /** Sessions created, by id. */
  sessions: Map<string, FakeCheckoutSession>;
  /** The next API request answers 500 (with Stripe-Should-Retry: false). */
  failNext: () => void;
  close: () => Promise<void>;
};

type StoredResponse = { status: number; body: unknown; headers: Record<string, string> };

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function stripeError(type: string, message: string): unknown {
  return { error: { type, message } };
}

function send(res: ServerResponse, stored: StoredResponse): void {
  res.writeHead(stored.status, {
    'Content-Type': 'application/json',
    'Request-Id': `req_${randomBytes(7).toString('hex')}`,
    ...stored.headers,
  });
  res.end(JSON.stringify(stored.body));
}

function metadataOf(form: Record<string, string>): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [key, value] of Object.entries(form)) {
    const match = /^metadata\[(.+)\]$/.exec(key);
    if (match?.[1]) metadata[match[1]] = value;
  }
  return metadata;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** Starts the fake on 127.0.0.1, on a free port. */
export async function startFakeStripe(listenPort = 0): Promise<FakeStripe> {
  const requests: FakeStripeRequest[] = [];
  const sessions = new Map<string, FakeCheckoutSession>();
  const byIdempotencyKey = new Map<string, StoredResponse>();
  let failures = 0;
  let baseUrl = '';

  function createSession(form: Record<string, string>): StoredResponse {
    const unitAmount = Number(form['line_items[0][price_data][unit_amount]']);
    const quantity = Number(form['line_items[0][quantity]'] ?? '1');
    const currency = form['line_items[0][price_data][currency]'];
    if (!Number.isInteger(unitAmount) || unitAmount <= 0 || !currency) {
      return {
        status: 400,
        body: stripeError('invalid_request_error', 'Missing or invalid line_items[0][price_data].'),
        headers: {},
      };
    }
    const id = `cs_test_${randomBytes(24).toString('hex')}`;
    const session: FakeCheckoutSession = {
      id,
      object: 'checkout.session',
      url: `${baseUrl}/pay/${id}`,
      mode: form.mode ?? 'payment',
      amount_total: unitAmount * quantity,
      currency,
      client_reference_id: form.client_reference_id ?? null,
      metadata: metadataOf(form),
      payment_intent: null,
      payment_status: 'unpaid',
      status: 'open',
      success_url: form.success_url ?? null,
      cancel_url: form.cancel_url ?? null,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
    };
    sessions.set(id, session);
    return { status: 200, body: session, headers: {} };
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, path: string) {
    const form = Object.fromEntries(new URLSearchParams(await readBody(req)));
    const idempotencyKey = req.headers['idempotency-key'];
    const key = typeof idempotencyKey === 'string' ? idempotencyKey : null;
    requests.push({
      method: req.method ?? '',
      path,
      form,
      idempotencyKey: key,
      authorization: req.headers.authorization ?? null,
    });
    if (!/^Bearer (sk|rk)_\w+$/.test(req.headers.authorization ?? '')) {
      send(res, {
        status: 401,
        body: stripeError('invalid_request_error', 'Invalid API Key provided.'),
        headers: {},
      });
      return;
    }
    // Like Stripe, a repeated idempotency key gets the first answer again (errors included).
    const previous = key ? byIdempotencyKey.get(key) : undefined;
    if (previous) {
      send(res, { ...previous, headers: { ...previous.headers, 'Idempotent-Replayed': 'true' } });
      return;
    }
    let answer: StoredResponse;
    if (failures > 0) {
      failures -= 1;
      answer = {
        status: 500,
        body: stripeError('api_error', 'Something went wrong on Stripe’s end (fake failure).'),
        headers: { 'Stripe-Should-Retry': 'false' },
      };
    } else if (req.method === 'POST' && path === '/v1/checkout/sessions') {
      answer = createSession(form);
    } else {
      answer = {
        status: 404,
        body: stripeError('invalid_request_error', `Unrecognized request URL (${path}).`),
        headers: {},
      };
    }
    if (key) byIdempotencyKey.set(key, answer);
    send(res, answer);
  }

  /** The "hosted checkout page": links back to the shop's success and cancel URLs. */
  function handlePage(res: ServerResponse, id: string) {
    const session = sessions.get(id);
    if (!session) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Checkout session not found');
      return;
    }
    const amount = (session.amount_total / 100).toFixed(2);
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Fake Stripe Checkout</title></head>
<body><h1>Fake Stripe Checkout</h1>
<p data-session-id="${escapeHtml(session.id)}">Total: ${escapeHtml(amount)} ${escapeHtml(session.currency.toUpperCase())}</p>
<p><a href="${escapeHtml(session.success_url ?? '#')}">Pagar</a></p>
<p><a href="${escapeHtml(session.cancel_url ?? '#')}">Cancelar</a></p>
</body></html>`);
  }

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const page = /^\/pay\/(cs_test_\w+)$/.exec(path);
    if (req.method === 'GET' && page?.[1]) {
      handlePage(res, page[1]);
      return;
    }
    // Like Stripe's "retrieve a Checkout Session": lets a test build the event it will sign.
    const lookup = /^\/v1\/checkout\/sessions\/(cs_test_\w+)$/.exec(path);
    if (req.method === 'GET' && lookup?.[1]) {
      const session = sessions.get(lookup[1]);
      res.writeHead(session ? 200 : 404, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify(session ?? stripeError('invalid_request_error', 'No such checkout session')),
      );
      return;
    }
    handleApi(req, res, path).catch((err: unknown) => {
      res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(stripeError('api_error', String(err))));
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listenPort, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;

  return {
    baseUrl,
    requests,
    sessions,
    failNext() {
      failures += 1;
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}

export type CheckoutEventType =
  | 'checkout.session.completed'
  | 'checkout.session.async_payment_succeeded'
  | 'checkout.session.async_payment_failed'
  | 'checkout.session.expired';

/**
 * The JSON body of a Stripe event about a checkout session (what Stripe POSTs to the webhook).
 * `completed` and `async_payment_succeeded` default to a paid, complete session.
 */
export function checkoutSessionEvent(
  type: CheckoutEventType,
  session: FakeCheckoutSession,
  overrides: Partial<FakeCheckoutSession> = {},
  eventId = `evt_test_${randomBytes(12).toString('hex')}`,
): { id: string; payload: string } {
  const paid =
    type === 'checkout.session.completed' || type === 'checkout.session.async_payment_succeeded';
  const object: FakeCheckoutSession = {
    ...session,
    ...(paid
      ? { payment_status: 'paid', status: 'complete', payment_intent: paymentIntentOf(session) }
      : {}),
    ...(type === 'checkout.session.expired' ? { status: 'expired' } : {}),
    ...overrides,
  };
  return signedEventBody(type, object, eventId);
}

function signedEventBody(
  type: string,
  object: unknown,
  eventId: string,
): { id: string; payload: string } {
  const event = {
    id: eventId,
    object: 'event',
    api_version: '2026-10-28.endive',
    created: Math.floor(Date.now() / 1000),
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
  return { id: eventId, payload: JSON.stringify(event) };
}

/** The PaymentIntent of a paid session: the same for every event about it. */
export function paymentIntentOf(session: FakeCheckoutSession): string {
  return session.payment_intent ?? `pi_test_${session.id.slice('cs_test_'.length, 32)}`;
}

/** The charge of a paid session (one per PaymentIntent). */
export function chargeOf(session: FakeCheckoutSession): string {
  return `ch_test_${session.id.slice('cs_test_'.length, 32)}`;
}

/**
 * charge.refunded about a paid session's charge: `amountRefunded` is the charge's running total
 * of refunds, in cents (Stripe's `amount_refunded`).
 */
export function chargeRefundedEvent(
  session: FakeCheckoutSession,
  amountRefunded: number,
  eventId = `evt_test_${randomBytes(12).toString('hex')}`,
): { id: string; payload: string } {
  const charge = {
    id: chargeOf(session),
    object: 'charge',
    amount: session.amount_total,
    amount_captured: session.amount_total,
    amount_refunded: amountRefunded,
    currency: session.currency,
    paid: true,
    payment_intent: paymentIntentOf(session),
    refunded: amountRefunded >= session.amount_total,
    status: 'succeeded',
    livemode: false,
  };
  return signedEventBody('charge.refunded', charge, eventId);
}

/** charge.dispute.created about a paid session's charge (a chargeback of all of it). */
export function disputeCreatedEvent(
  session: FakeCheckoutSession,
  disputeId = `dp_test_${randomBytes(12).toString('hex')}`,
  eventId = `evt_test_${randomBytes(12).toString('hex')}`,
): { id: string; disputeId: string; payload: string } {
  const dispute = {
    id: disputeId,
    object: 'dispute',
    amount: session.amount_total,
    charge: chargeOf(session),
    currency: session.currency,
    payment_intent: paymentIntentOf(session),
    reason: 'fraudulent',
    status: 'needs_response',
    livemode: false,
  };
  return { ...signedEventBody('charge.dispute.created', dispute, eventId), disputeId };
}

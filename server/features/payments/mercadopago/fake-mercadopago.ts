// Test support: a local stand-in for the Mercado Pago endpoints Cometa calls, its Checkout Pro
// page, and its signed `payment` notifications. No test-runner imports, so browser tests and a
// local server can start it too (give `baseUrl` to MERCADOPAGO_API_BASE, and `accessToken` /
// `webhookSecret` to MERCADOPAGO_ACCESS_TOKEN / MERCADOPAGO_WEBHOOK_SECRET).
//
// API, answered like Mercado Pago:
// - POST /checkout/preferences (Bearer token, else 401) → 201 { id: "123456789-<uuid>",
//   init_point: "<baseUrl>/checkout/v1/redirect?pref_id=<id>", sandbox_init_point, … }. A repeated
//   X-Idempotency-Key gets the first answer again.
// - GET /v1/payments/:id → 200 the payment, 404 when unknown.
// - POST /v1/payments/:id/refunds { amount? } → 201 the refund (the whole rest without amount).
//
// Browser page: GET /checkout/v1/redirect?pref_id=<id> shows the amount with «Pagar» (a form
// POST to /checkout/v1/redirect/pay) and «Cancelar» (a link to back_urls.failure). Paying
// creates an approved payment for the preference's amount and currency, sends the signed
// notification to its notification_url (waiting for the answer), then redirects (303) to
// back_urls.success with Mercado Pago's query parameters: collection_id, collection_status,
// payment_id, status, external_reference, preference_id (plus payment_type, merchant_order_id…).
//
// Test helpers: pay(), refund(), chargeback() change a payment as Mercado Pago would;
// notification() builds the signed request without sending it; sendNotification() sends it.
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { manifestDataId, signatureHeader } from './mercadopago.signature';

export type FakePreference = {
  id: string;
  /** The body Cometa sent, as received. */
  request: Record<string, unknown>;
  /** unit_price × quantity of the first item, in minor units (cents). */
  amountCents: number;
  currency: string;
  externalReference: string | null;
  notificationUrl: string | null;
  backUrls: { success?: string; pending?: string; failure?: string };
  initPoint: string;
  idempotencyKey: string | null;
  /** Mercado Pago payment ids made for this preference, oldest first. */
  paymentIds: string[];
};

export type FakeMpPayment = {
  id: number;
  status: string;
  status_detail: string;
  external_reference: string | null;
  transaction_amount: number;
  transaction_amount_refunded: number;
  currency_id: string;
  date_created: string;
  date_approved: string | null;
  date_last_updated: string;
  payment_type_id: string;
  live_mode: false;
  /** Not in Mercado Pago's answer under this name: which preference it paid (test use). */
  preferenceId: string;
  refunds: { id: number; amount: number; date_created: string }[];
};

export type FakeNotification = {
  /** notification_url + `?data.id=<id>&type=payment` (as Mercado Pago appends them). */
  url: string;
  /** The JSON text of the body. */
  body: string;
  headers: Record<string, string>;
};

/** Sends a notification (default: global fetch); tests may route it into an in-memory app. */
export type Deliver = (url: string, init: RequestInit) => Promise<Response>;

export type FakeMercadoPago = {
  /** e.g. http://127.0.0.1:41234: give it to MERCADOPAGO_API_BASE. */
  baseUrl: string;
  accessToken: string;
  webhookSecret: string;
  /** Preferences created, by id. */
  preferences: Map<string, FakePreference>;
  /** Payments made, by Mercado Pago payment id (decimal text). */
  payments: Map<string, FakeMpPayment>;
  /** Every API request received, oldest first. */
  requests: { method: string; path: string; authorization: string | null; body: unknown }[];
  /** How notifications are sent (assignable; default: fetch). */
  deliver: Deliver;
  /** The next API request answers 500. */
  failNext: () => void;
  /**
   * A payment for the preference: `status` (default approved) and `amount` in the preference's
   * currency as decimal text (default: the preference's amount). Returns its id.
   */
  pay: (preferenceId: string, options?: { status?: string; amount?: string }) => string;
  /** Refunds `amount` (decimal text; default: everything not refunded yet). */
  refund: (mpPaymentId: string, amount?: string) => void;
  chargeback: (mpPaymentId: string) => void;
  notification: (
    mpPaymentId: string,
    options?: { requestId?: string; ts?: string },
  ) => FakeNotification;
  /** Sends the notification to the preference's notification_url; returns the HTTP status. */
  sendNotification: (mpPaymentId: string) => Promise<number>;
  close: () => Promise<void>;
};

type Answer = { status: number; body: unknown };

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, answer: Answer): void {
  res.writeHead(answer.status, {
    'Content-Type': 'application/json',
    'x-request-id': randomUUID(),
  });
  res.end(JSON.stringify(answer.body));
}

function mpError(status: number, message: string, error: string): Answer {
  return { status, body: { message, error, status, cause: [] } };
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** "10455.5" → 1045550; null for anything else (the fake never does float arithmetic either). */
function toCents(value: unknown): number | null {
  if (typeof value !== 'number' && typeof value !== 'string') return null;
  const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(String(value).trim());
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

function fromCents(cents: number): number {
  return Number(`${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`);
}

function withQuery(url: string, params: Record<string, string>): string {
  const target = new URL(url);
  for (const [key, value] of Object.entries(params)) target.searchParams.set(key, value);
  return target.toString();
}

/** Starts the fake on 127.0.0.1, on a free port (or `port`). */
export async function startFakeMercadoPago(
  options: { webhookSecret?: string; accessToken?: string; port?: number; deliver?: Deliver } = {},
): Promise<FakeMercadoPago> {
  const accessToken = options.accessToken ?? `TEST-${randomBytes(8).toString('hex')}`;
  const webhookSecret = options.webhookSecret ?? randomBytes(16).toString('hex');
  const preferences = new Map<string, FakePreference>();
  const payments = new Map<string, FakeMpPayment>();
  const requests: FakeMercadoPago['requests'] = [];
  const byIdempotencyKey = new Map<string, Answer>();
  const collectorId = 100_000_000 + Math.floor(Math.random() * 800_000_000);
  let nextPaymentId = 1_300_000_000 + Math.floor(Math.random() * 1_000_000) * 100;
  let nextNotificationId = 100_000_000_000 + Math.floor(Math.random() * 1_000_000);
  let failures = 0;
  let baseUrl = '';

  function createPreference(body: unknown, idempotencyKey: string | null): Answer {
    const request = (body ?? {}) as Record<string, unknown>;
    const items = Array.isArray(request.items) ? (request.items as Record<string, unknown>[]) : [];
    const item = items[0];
    const unit = toCents(item?.unit_price);
    const quantity = Number(item?.quantity ?? 1);
    const currency = typeof item?.currency_id === 'string' ? item.currency_id : null;
    if (!item || unit === null || unit <= 0 || !Number.isInteger(quantity) || quantity < 1) {
      return mpError(400, 'invalid items: unit_price and quantity are required', 'bad_request');
    }
    if (!currency) return mpError(400, 'currency_id invalid', 'bad_request');
    const id = `${collectorId}-${randomUUID()}`;
    const backUrls = (request.back_urls ?? {}) as FakePreference['backUrls'];
    const initPoint = `${baseUrl}/checkout/v1/redirect?pref_id=${id}`;
    const preference: FakePreference = {
      id,
      request,
      amountCents: unit * quantity,
      currency,
      externalReference:
        typeof request.external_reference === 'string' ? request.external_reference : null,
      notificationUrl:
        typeof request.notification_url === 'string' ? request.notification_url : null,
      backUrls,
      initPoint,
      idempotencyKey,
      paymentIds: [],
    };
    preferences.set(id, preference);
    return {
      status: 201,
      body: {
        id,
        collector_id: collectorId,
        client_id: String(collectorId),
        items,
        external_reference: preference.externalReference ?? '',
        notification_url: preference.notificationUrl,
        back_urls: backUrls,
        auto_return: request.auto_return ?? '',
        init_point: initPoint,
        sandbox_init_point: `${baseUrl}/checkout/v1/redirect?pref_id=${id}&sandbox=1`,
        date_created: new Date().toISOString(),
        operation_type: 'regular_payment',
      },
    };
  }

  function paymentAnswer(p: FakeMpPayment): unknown {
    const { preferenceId: _preferenceId, ...rest } = p;
    return { ...rest, order: { id: p.id + 7, type: 'mercadopago' } };
  }

  function getPayment(id: string): FakeMpPayment {
    const found = payments.get(id);
    if (!found) throw new Error(`fake mercadopago: no payment ${id}`);
    return found;
  }

  function refund(id: string, amount?: string): { id: number; amount: number } {
    const p = getPayment(id);
    const paid = toCents(p.transaction_amount) ?? 0;
    const done = toCents(p.transaction_amount_refunded) ?? 0;
    const cents = amount === undefined ? paid - done : toCents(amount);
    if (cents === null || cents <= 0 || done + cents > paid)
      throw new Error(`fake mercadopago: cannot refund ${amount} of payment ${id}`);
    const total = done + cents;
    const now = new Date().toISOString();
    const entry = { id: nextPaymentId++, amount: fromCents(cents), date_created: now };
    p.refunds.push(entry);
    p.transaction_amount_refunded = fromCents(total);
    p.date_last_updated = now;
    if (total === paid) {
      p.status = 'refunded';
      p.status_detail = 'refunded';
    } else {
      p.status_detail = 'partially_refunded';
    }
    return entry;
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, path: string) {
    const text = await readBody(req);
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      send(res, mpError(400, 'invalid JSON body', 'bad_request'));
      return;
    }
    const method = req.method ?? '';
    requests.push({ method, path, authorization: req.headers.authorization ?? null, body });
    if (req.headers.authorization !== `Bearer ${accessToken}`) {
      send(res, mpError(401, 'invalid access token', 'unauthorized'));
      return;
    }
    const rawKey = req.headers['x-idempotency-key'];
    const key = typeof rawKey === 'string' ? `${method} ${path} ${rawKey}` : null;
    const previous = key ? byIdempotencyKey.get(key) : undefined;
    if (previous) {
      send(res, previous);
      return;
    }
    let answer: Answer;
    const paymentPath = /^\/v1\/payments\/(\d+)$/.exec(path);
    const refundPath = /^\/v1\/payments\/(\d+)\/refunds$/.exec(path);
    if (failures > 0) {
      failures -= 1;
      answer = mpError(500, 'internal error (fake failure)', 'internal_error');
    } else if (method === 'POST' && path === '/checkout/preferences') {
      answer = createPreference(body, typeof rawKey === 'string' ? rawKey : null);
    } else if (method === 'GET' && paymentPath?.[1]) {
      const p = payments.get(paymentPath[1]);
      answer = p
        ? { status: 200, body: paymentAnswer(p) }
        : mpError(404, 'Payment not found', 'not_found');
    } else if (method === 'POST' && refundPath?.[1]) {
      const id = refundPath[1];
      if (!payments.has(id)) answer = mpError(404, 'Payment not found', 'not_found');
      else {
        const requested = (body as { amount?: unknown } | null)?.amount;
        try {
          if (requested !== undefined && typeof requested !== 'number')
            throw new Error('amount must be a number');
          const entry = refund(id, requested === undefined ? undefined : String(requested));
          answer = {
            status: 201,
            body: { ...entry, payment_id: Number(id), status: 'approved' },
          };
        } catch (err) {
          answer = mpError(400, err instanceof Error ? err.message : String(err), 'bad_request');
        }
      }
    } else {
      answer = mpError(404, `resource ${path} not found`, 'not_found');
    }
    if (key) byIdempotencyKey.set(key, answer);
    send(res, answer);
  }

  function pay(preferenceId: string, payOptions: { status?: string; amount?: string } = {}) {
    const preference = preferences.get(preferenceId);
    if (!preference) throw new Error(`fake mercadopago: no preference ${preferenceId}`);
    const cents =
      payOptions.amount === undefined ? preference.amountCents : toCents(payOptions.amount);
    if (cents === null) throw new Error(`fake mercadopago: bad amount ${payOptions.amount}`);
    const status = payOptions.status ?? 'approved';
    const now = new Date().toISOString();
    const id = nextPaymentId++;
    const detail: Record<string, string> = {
      approved: 'accredited',
      pending: 'pending_waiting_payment',
      in_process: 'pending_contingency',
      rejected: 'cc_rejected_other_reason',
      cancelled: 'expired',
    };
    payments.set(String(id), {
      id,
      status,
      status_detail: detail[status] ?? status,
      external_reference: preference.externalReference,
      transaction_amount: fromCents(cents),
      transaction_amount_refunded: 0,
      currency_id: preference.currency,
      date_created: now,
      date_approved: status === 'approved' ? now : null,
      date_last_updated: now,
      payment_type_id: 'credit_card',
      live_mode: false,
      preferenceId,
      refunds: [],
    });
    preference.paymentIds.push(String(id));
    return String(id);
  }

  function notification(
    mpPaymentId: string,
    notifyOptions: { requestId?: string; ts?: string } = {},
  ): FakeNotification {
    const p = getPayment(mpPaymentId);
    const target = preferences.get(p.preferenceId)?.notificationUrl;
    if (!target)
      throw new Error(`fake mercadopago: payment ${mpPaymentId} has no notification_url`);
    const requestId = notifyOptions.requestId ?? randomUUID();
    const ts = notifyOptions.ts ?? String(Date.now());
    const body = JSON.stringify({
      action: 'payment.updated',
      api_version: 'v1',
      data: { id: mpPaymentId },
      date_created: new Date().toISOString(),
      id: nextNotificationId++,
      live_mode: false,
      type: 'payment',
      user_id: String(collectorId),
    });
    return {
      url: withQuery(target, { 'data.id': mpPaymentId, type: 'payment' }),
      body,
      headers: {
        'content-type': 'application/json',
        'x-request-id': requestId,
        'x-signature': signatureHeader({
          secret: webhookSecret,
          dataId: manifestDataId(mpPaymentId),
          requestId,
          ts,
        }),
      },
    };
  }

  const fake: FakeMercadoPago = {
    baseUrl: '',
    accessToken,
    webhookSecret,
    preferences,
    payments,
    requests,
    deliver: options.deliver ?? ((url, init) => fetch(url, init)),
    failNext() {
      failures += 1;
    },
    pay,
    refund(id, amount) {
      refund(id, amount);
    },
    chargeback(id) {
      const p = getPayment(id);
      p.status = 'charged_back';
      p.status_detail = 'settled';
      p.date_last_updated = new Date().toISOString();
    },
    notification,
    async sendNotification(mpPaymentId) {
      const n = notification(mpPaymentId);
      const res = await fake.deliver(n.url, { method: 'POST', headers: n.headers, body: n.body });
      await res.text();
      return res.status;
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      });
    },
  };

  /** Checkout Pro's page: the amount, «Pagar» and «Cancelar». */
  function handlePage(res: ServerResponse, preferenceId: string) {
    const preference = preferences.get(preferenceId);
    if (!preference) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Preferencia no encontrada');
      return;
    }
    const amount = `${Math.floor(preference.amountCents / 100)}.${String(preference.amountCents % 100).padStart(2, '0')}`;
    const payUrl = `/checkout/v1/redirect/pay?pref_id=${encodeURIComponent(preference.id)}`;
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Mercado Pago (prueba)</title></head>
<body><h1>Mercado Pago (prueba)</h1>
<p>Recarga de saldo</p>
<p data-preference-id="${escapeHtml(preference.id)}">Total: ${escapeHtml(amount)} ${escapeHtml(preference.currency)}</p>
<form method="post" action="${escapeHtml(payUrl)}"><button type="submit">Pagar</button></form>
<p><a href="${escapeHtml(preference.backUrls.failure ?? '#')}">Cancelar</a></p>
</body></html>`);
  }

  async function handlePay(req: IncomingMessage, res: ServerResponse, preferenceId: string) {
    await readBody(req);
    const preference = preferences.get(preferenceId);
    if (!preference) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Preferencia no encontrada');
      return;
    }
    const id = pay(preferenceId);
    try {
      await fake.sendNotification(id);
    } catch {
      // Mercado Pago retries notifications later; the return to the shop happens anyway.
    }
    const success = preference.backUrls.success;
    if (!success) {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Pago aprobado');
      return;
    }
    res.writeHead(303, {
      Location: withQuery(success, {
        collection_id: id,
        collection_status: 'approved',
        payment_id: id,
        status: 'approved',
        external_reference: preference.externalReference ?? '',
        payment_type: 'credit_card',
        merchant_order_id: String(Number(id) + 7),
        preference_id: preference.id,
        site_id: 'MLA',
        processing_mode: 'aggregator',
        merchant_account_id: 'null',
      }),
    });
    res.end();
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const path = url.pathname;
    const prefId = url.searchParams.get('pref_id') ?? '';
    const work =
      req.method === 'GET' && path === '/checkout/v1/redirect'
        ? Promise.resolve(handlePage(res, prefId))
        : req.method === 'POST' && path === '/checkout/v1/redirect/pay'
          ? handlePay(req, res, prefId)
          : handleApi(req, res, path);
    work.catch((err: unknown) => {
      if (!res.headersSent) send(res, mpError(500, String(err), 'internal_error'));
      else res.end();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;
  fake.baseUrl = baseUrl;
  return fake;
}

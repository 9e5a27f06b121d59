// Test support: a local stand-in for the NOWPayments API Cometa calls (POST /v1/invoice, and
// GET /v1/payment/:id to look a payment up), the invoice page its `invoice_url` points to, and
// signed IPNs like the real ones. No test-runner imports, so browser tests can start it too.
//
//   const np = await startFakeNowPayments();           // { ipnSecret?, apiKey?, port? }
//   env: NOWPAYMENTS_API_BASE=np.baseUrl, NOWPAYMENTS_API_KEY=np.apiKey,
//        NOWPAYMENTS_IPN_SECRET=np.ipnSecret
//   np.ipn(invoiceId, { status: 'finished' })        → { body, signature } to POST yourself
//   await np.sendIpn(invoiceId, { status: 'finished' }) → the HTTP status of the shop's answer
//
// The page (GET /payment/?iid=<id>) has «Pagar todo», «Pagar una parte» (half of the coin
// amount) and «Cancelar». Paying posts signed IPNs to the invoice's `ipn_callback_url`
// (`confirming`, then `finished` or `partially_paid`), waits for the answers, and redirects to
// `success_url`; cancelling redirects to `cancel_url` (no IPN).
import { createHmac, randomInt } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeNowPaymentsStatus =
  | 'waiting'
  | 'confirming'
  | 'confirmed'
  | 'sending'
  | 'partially_paid'
  | 'finished'
  | 'failed'
  | 'refunded'
  | 'expired';

/** An invoice as the fake keeps it (the API's answer is the same minus the last four fields). */
export type FakeNowPaymentsInvoice = {
  /** Numeric text, like NOWPayments' ("4522625843"). */
  id: string;
  order_id: string | null;
  order_description: string | null;
  /** As sent, in decimal text ("25.73"); the API answers it as a string, like NOWPayments. */
  price_amount: string;
  price_currency: string;
  pay_currency: string | null;
  ipn_callback_url: string | null;
  /** `${baseUrl}/payment/?iid=<id>` */
  invoice_url: string;
  success_url: string | null;
  cancel_url: string | null;
  created_at: string;
  updated_at: string;
  /** The coin amount asked: price × RATE, 6 decimals ("25.794325" for 25.73). */
  payAmount: string;
  /** The NOWPayments payment id, fixed at the first IPN (or given to it). */
  paymentId: number | null;
  /** The status of the last IPN built. */
  paymentStatus: FakeNowPaymentsStatus;
  /** What arrived according to the last IPN (decimal text). */
  actuallyPaid: string;
};

export type FakeNowPaymentsRequest = {
  method: string;
  path: string;
  apiKey: string | null;
  /** The parsed JSON body (null without one). */
  body: unknown;
};

export type FakeIpnOptions = {
  status: FakeNowPaymentsStatus;
  /**
   * Coin units that arrived (decimal text or number). Default: half of the asked amount for
   * `partially_paid`, 0 for `waiting`/`failed`/`expired`, the whole asked amount otherwise.
   */
  actuallyPaid?: string | number;
  /** The NOWPayments payment id (default: the invoice's, created at its first IPN). */
  paymentId?: number;
  /** Overrides of any IPN field (e.g. a wrong `price_amount`), after the defaults. */
  overrides?: Record<string, unknown>;
};

export type FakeNowPayments = {
  /** e.g. http://127.0.0.1:41234: give it to NOWPAYMENTS_API_BASE. */
  baseUrl: string;
  /** The key POST /v1/invoice expects in `x-api-key` (403 otherwise). */
  apiKey: string;
  /** The secret the IPNs are signed with. */
  ipnSecret: string;
  /** Invoices created, by id. */
  invoices: Map<string, FakeNowPaymentsInvoice>;
  /** Every API request received, oldest first. */
  requests: FakeNowPaymentsRequest[];
  /** The next API request answers 500. */
  failNext: () => void;
  /** A signed IPN about the invoice, as NOWPayments would POST it (nothing is sent). */
  ipn: (invoiceId: string, options: FakeIpnOptions) => { body: string; signature: string };
  /** Builds the IPN and POSTs it to the invoice's ipn_callback_url; the answer's status. */
  sendIpn: (invoiceId: string, options: FakeIpnOptions) => Promise<number>;
  close: () => Promise<void>;
};

/** Coin units per USD of the fake's every coin, in ten-thousandths (1.0025). */
const RATE_BP = 10_025n;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

function npError(status: number, code: string, message: string): unknown {
  return { status: false, statusCode: status, code, message };
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** Decimal text → integer scaled by 10^scale (truncated); null when not a plain decimal. */
function scaled(text: string, scale: number): bigint | null {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) return null;
  const [, whole = '0', fraction = ''] = match;
  return BigInt(whole + fraction.padEnd(scale, '0').slice(0, scale));
}

function unscaled(value: bigint, scale: number): string {
  const text = value.toString().padStart(scale + 1, '0');
  const fraction = text.slice(text.length - scale).replace(/0+$/, '');
  return `${text.slice(0, text.length - scale)}${fraction ? `.${fraction}` : ''}`;
}

/** A number's decimal text, without exponent (the fake only deals in plain amounts). */
function decimalText(value: string | number): string {
  return typeof value === 'number' ? value.toFixed(12).replace(/\.?0+$/, '') : value.trim();
}

/**
 * NOWPayments' signing, written independently of the server's: the JSON text of the body with
 * the keys of every object sorted, HMAC-SHA512 with the IPN secret, hex.
 */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Starts the fake on 127.0.0.1 (a free port unless `port` is given). */
export async function startFakeNowPayments(
  options: { ipnSecret?: string; apiKey?: string; port?: number } = {},
): Promise<FakeNowPayments> {
  const apiKey = options.apiKey ?? 'NP-FAKE-API-KEY-0000';
  const ipnSecret = options.ipnSecret ?? 'np-fake-ipn-secret';
  const invoices = new Map<string, FakeNowPaymentsInvoice>();
  const requests: FakeNowPaymentsRequest[] = [];
  let failures = 0;
  let baseUrl = '';

  function publicInvoice(inv: FakeNowPaymentsInvoice) {
    return {
      id: inv.id,
      token_id: String(randomInt(1_000_000_000, 9_999_999_999)),
      order_id: inv.order_id,
      order_description: inv.order_description,
      price_amount: inv.price_amount,
      price_currency: inv.price_currency,
      pay_currency: inv.pay_currency,
      ipn_callback_url: inv.ipn_callback_url,
      invoice_url: inv.invoice_url,
      success_url: inv.success_url,
      cancel_url: inv.cancel_url,
      customer_email: null,
      partially_paid_url: null,
      payout_currency: null,
      created_at: inv.created_at,
      updated_at: inv.updated_at,
      is_fixed_rate: false,
      is_fee_paid_by_user: false,
    };
  }

  function createInvoice(body: unknown): { status: number; body: unknown } {
    const input = (body ?? {}) as Record<string, unknown>;
    const price = input.price_amount;
    const priceText =
      typeof price === 'number' && price > 0
        ? decimalText(price)
        : typeof price === 'string'
          ? price
          : '';
    const cents = scaled(priceText, 2);
    if (cents === null || cents <= 0n || typeof input.price_currency !== 'string')
      return {
        status: 400,
        body: npError(400, 'INVALID_REQUEST_PARAMS', '"price_amount" must be a positive number'),
      };
    const str = (v: unknown) => (typeof v === 'string' ? v : null);
    const id = String(randomInt(1_000_000_000, 9_999_999_999));
    const now = new Date().toISOString();
    const invoice: FakeNowPaymentsInvoice = {
      id,
      order_id: str(input.order_id),
      order_description: str(input.order_description),
      price_amount: priceText,
      price_currency: input.price_currency,
      pay_currency: str(input.pay_currency),
      ipn_callback_url: str(input.ipn_callback_url),
      invoice_url: `${baseUrl}/payment/?iid=${id}`,
      success_url: str(input.success_url),
      cancel_url: str(input.cancel_url),
      created_at: now,
      updated_at: now,
      payAmount: unscaled(cents * RATE_BP, 6),
      paymentId: null,
      paymentStatus: 'waiting',
      actuallyPaid: '0',
    };
    invoices.set(id, invoice);
    return { status: 200, body: publicInvoice(invoice) };
  }

  function invoiceOf(invoiceId: string): FakeNowPaymentsInvoice {
    const invoice = invoices.get(invoiceId);
    if (!invoice) throw new Error(`fake NOWPayments: no invoice ${invoiceId}`);
    return invoice;
  }

  function defaultPaid(invoice: FakeNowPaymentsInvoice, status: FakeNowPaymentsStatus): string {
    const asked = scaled(invoice.payAmount, 6) ?? 0n;
    if (status === 'partially_paid') return unscaled(asked / 2n, 6);
    if (status === 'waiting' || status === 'failed' || status === 'expired') return '0';
    return invoice.payAmount;
  }

  /** The payment as NOWPayments describes it, in its own key order (not sorted). */
  function paymentBody(invoice: FakeNowPaymentsInvoice): Record<string, unknown> {
    const coin = invoice.pay_currency ?? 'usdttrc20';
    const paid = scaled(invoice.actuallyPaid, 6) ?? 0n;
    // What the shop keeps after NOWPayments' 0.5 % and the network fee.
    const outcome = (paid * 995n) / 1000n;
    return {
      payment_id: invoice.paymentId,
      invoice_id: Number(invoice.id),
      payment_status: invoice.paymentStatus,
      pay_address: 'TXYZfakeAddressForCometaTests1234',
      payin_extra_id: null,
      price_amount: Number(invoice.price_amount),
      price_currency: invoice.price_currency,
      pay_amount: Number(invoice.payAmount),
      actually_paid: Number(invoice.actuallyPaid),
      actually_paid_at_fiat: 0,
      pay_currency: coin,
      order_id: invoice.order_id,
      order_description: invoice.order_description,
      purchase_id: String(Number(invoice.id) + 1),
      created_at: invoice.created_at,
      updated_at: invoice.updated_at,
      outcome_amount: Number(unscaled(outcome, 6)),
      outcome_currency: coin,
      // Nested, keys out of order: the signature sorts them too.
      fee: {
        currency: coin,
        depositFee: 0,
        withdrawalFee: 0,
        serviceFee: Number(unscaled(paid - outcome, 6)),
      },
      payment_extra_ids: null,
      parent_payment_id: null,
    };
  }

  function ipn(invoiceId: string, opts: FakeIpnOptions): { body: string; signature: string } {
    const invoice = invoiceOf(invoiceId);
    invoice.paymentId =
      opts.paymentId ?? invoice.paymentId ?? randomInt(1_000_000_000, 9_999_999_999);
    invoice.paymentStatus = opts.status;
    invoice.actuallyPaid =
      opts.actuallyPaid === undefined
        ? defaultPaid(invoice, opts.status)
        : decimalText(opts.actuallyPaid);
    invoice.updated_at = new Date().toISOString();
    const payload = { ...paymentBody(invoice), ...(opts.overrides ?? {}) };
    const signature = createHmac('sha512', ipnSecret).update(canonicalJson(payload)).digest('hex');
    return { body: JSON.stringify(payload), signature };
  }

  async function sendIpn(invoiceId: string, opts: FakeIpnOptions): Promise<number> {
    const invoice = invoiceOf(invoiceId);
    if (!invoice.ipn_callback_url) throw new Error(`invoice ${invoiceId} has no ipn_callback_url`);
    const { body, signature } = ipn(invoiceId, opts);
    const res = await fetch(invoice.ipn_callback_url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'x-nowpayments-sig': signature },
      body,
    });
    await res.arrayBuffer();
    return res.status;
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, path: string) {
    const text = await readBody(req);
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      sendJson(res, 400, npError(400, 'INVALID_REQUEST_PARAMS', 'Invalid JSON'));
      return;
    }
    const key = req.headers['x-api-key'];
    const given = typeof key === 'string' ? key : null;
    requests.push({ method: req.method ?? '', path, apiKey: given, body });
    if (given !== apiKey) {
      sendJson(res, 403, npError(403, 'INVALID_API_KEY', 'Invalid api key'));
      return;
    }
    if (failures > 0) {
      failures -= 1;
      sendJson(res, 500, npError(500, 'INTERNAL_ERROR', 'Fake failure'));
      return;
    }
    if (req.method === 'POST' && path === '/v1/invoice') {
      const answer = createInvoice(body);
      sendJson(res, answer.status, answer.body);
      return;
    }
    const lookup = /^\/v1\/payment\/(\d+)$/.exec(path);
    if (req.method === 'GET' && lookup?.[1]) {
      const wanted = Number(lookup[1]);
      const invoice = [...invoices.values()].find((i) => i.paymentId === wanted);
      if (!invoice) sendJson(res, 404, npError(404, 'NOT_FOUND', 'Payment not found'));
      else sendJson(res, 200, paymentBody(invoice));
      return;
    }
    sendJson(res, 404, npError(404, 'NOT_FOUND', `Unknown endpoint ${path}`));
  }

  function page(res: ServerResponse, invoiceId: string | null) {
    const invoice = invoiceId ? invoices.get(invoiceId) : undefined;
    if (!invoice) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Factura no encontrada');
      return;
    }
    const coin = (invoice.pay_currency ?? 'usdttrc20').toUpperCase();
    const action = `/payment/?iid=${encodeURIComponent(invoice.id)}`;
    const button = (mode: string, label: string) =>
      `<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="mode" value="${mode}"><button type="submit">${label}</button></form>`;
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="es"><head><meta charset="utf-8"><title>NOWPayments (simulado)</title></head>
<body><h1>NOWPayments (simulado)</h1>
<p data-invoice-id="${escapeHtml(invoice.id)}">Factura ${escapeHtml(invoice.id)}: ${escapeHtml(invoice.price_amount)} ${escapeHtml(invoice.price_currency.toUpperCase())}</p>
<p>Envía <strong data-pay-amount>${escapeHtml(invoice.payAmount)}</strong> ${escapeHtml(coin)}.</p>
${button('full', 'Pagar todo')}
${button('part', 'Pagar una parte')}
${button('cancel', 'Cancelar')}
</body></html>`);
  }

  async function pay(req: IncomingMessage, res: ServerResponse, invoiceId: string | null) {
    const invoice = invoiceId ? invoices.get(invoiceId) : undefined;
    const mode = new URLSearchParams(await readBody(req)).get('mode');
    if (!invoice || !mode) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Factura no encontrada');
      return;
    }
    if (mode !== 'cancel') {
      const final: FakeNowPaymentsStatus = mode === 'part' ? 'partially_paid' : 'finished';
      const paid = defaultPaid(invoice, final);
      await sendIpn(invoice.id, { status: 'confirming', actuallyPaid: paid });
      await sendIpn(invoice.id, { status: final, actuallyPaid: paid });
    }
    const target = mode === 'cancel' ? invoice.cancel_url : invoice.success_url;
    res.writeHead(303, { Location: target ?? '/' });
    res.end();
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const fail = (err: unknown) => {
      if (res.headersSent) return;
      sendJson(res, 500, npError(500, 'INTERNAL_ERROR', String(err)));
    };
    if (url.pathname === '/payment/' || url.pathname === '/payment') {
      if (req.method === 'POST') pay(req, res, url.searchParams.get('iid')).catch(fail);
      else page(res, url.searchParams.get('iid'));
      return;
    }
    if (req.method === 'GET' && url.pathname === '/v1/status') {
      sendJson(res, 200, { message: 'OK' });
      return;
    }
    handleApi(req, res, url.pathname).catch(fail);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;

  return {
    baseUrl,
    apiKey,
    ipnSecret,
    invoices,
    requests,
    failNext() {
      failures += 1;
    },
    ipn,
    sendIpn,
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}

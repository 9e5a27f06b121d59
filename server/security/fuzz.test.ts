// Fuzzing generated from the OpenAPI document: every operation, every parameter (path, query,
// header, each top-level property of the JSON body, the whole body), a fixed list of hostile
// values run in full, then random ones from fast-check with a fixed seed. An answer is never a
// 5xx, and every error is a JSON `{ code, message }`. Longer run: `npm run fuzz`
// (FUZZ_RUNS=2000); another seed: FUZZ_SEED=7.
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestClient } from '../../tests/setup/test-app';
import { dbTargets } from '../../tests/setup/test-db';
import { stripeConfigFrom } from '../features/payments/stripe/stripe.config';
import type { OpenApiDocument } from '../openapi/document';
import {
  addressSequence,
  apiDocument,
  apiOperations,
  createFixtures,
  errorBodyProblem,
  fillPath,
  minimalBody,
  rawRequest,
  type ApiOperation,
  type FixtureId,
  type Fixtures,
} from './api-surface';

const SEED = Number(process.env.FUZZ_SEED ?? 42);
const RUNS = Number(process.env.FUZZ_RUNS ?? 150);

// ─── Hostile values ──────────────────────────────────────────────────────────────────────────

/** A value as JSON text (numbers kept exactly as written) and as the text of a URL or header. */
type Hostile = { label: string; json: string; text: string };

const str = (label: string, s: string): Hostile => ({ label, json: JSON.stringify(s), text: s });
const raw = (label: string, json: string): Hostile => ({ label, json, text: json });
const b64 = (s: string) => Buffer.from(s).toString('base64url');

/** Sent to every parameter of every operation, in full, on every run. */
const HOSTILE: Hostile[] = [
  // Text PostgreSQL refuses or that displays as something else.
  str('NUL', 'a\u0000b'),
  str('lone high surrogate', '\ud800'),
  str('lone low surrogate', '\udfff'),
  str('C0 controls', '\u0001\u0007\u0008\u000b\u001b[31m\u001f'),
  str('RTL override', 'abc\u202egnp.exe'),
  str('100 000 characters', 'x'.repeat(100_000)),
  // Numbers as strings.
  str('"NaN"', 'NaN'),
  str('"Infinity"', 'Infinity'),
  str('"0x10"', '0x10'),
  str('"1e3"', '1e3'),
  // Dates out of range or impossible.
  str('date -271821', '-271821-04-20T00:00:00Z'),
  str('date +275760', '+275760-09-13T00:00:00Z'),
  str('date 2026-13-45', '2026-13-45T99:99:99Z'),
  str('date 0000-00-00', '0000-00-00'),
  // Cursors of the right shape with impossible values.
  str(
    'keyset cursor 9999-99-99',
    b64('9999-99-99T99:99:99.999999Z|00000000-0000-0000-0000-000000000000'),
  ),
  str('id cursor 20 digits', '99999999999999999999'),
  // Numbers.
  raw('-1', '-1'),
  raw('0', '0'),
  raw('1e308', '1e308'),
  raw('-1e308', '-1e308'),
  raw('2^53+1', '9007199254740993'),
  raw('2^63', '9223372036854775808'),
  raw('1.5', '1.5'),
  // Wrong types.
  raw('true', 'true'),
  raw('null', 'null'),
  raw('[]', '[]'),
  raw('{}', '{}'),
  raw('["5"]', '["5"]'),
];

/** More of the same, drawn at random (with random text, JSON and numbers) by the random part. */
const MORE_HOSTILE: Hostile[] = [
  str('NUL alone', '\u0000'),
  str('DEL and C1', '\u007f\u0085\u009f'),
  str('noncharacters', '\ufffe\uffff'),
  str('zero-width and BOM', '\ufeff\u200b'),
  str('tab and line breaks', 'a\tb\r\nc\u2028'),
  str('empty', ''),
  str('blank', '   '),
  str('LIKE wildcards', '%_\\'),
  str('"-Infinity"', '-Infinity'),
  str('"-1"', '-1'),
  str('400 digits', '9'.repeat(400)),
  str('"2026-02-30"', '2026-02-30T00:00:00Z'),
  str(
    'keyset cursor year 0',
    b64('0000-01-01T00:00:00.000000Z|00000000-0000-4000-8000-000000000000'),
  ),
  str(
    'keyset cursor February 30',
    b64('2026-02-30T00:00:00.000000Z|00000000-0000-4000-8000-000000000000'),
  ),
  str('id cursor 2^63', '9223372036854775808'),
  str('id cursor 2^63-1', '9223372036854775807'),
  raw('-0', '-0'),
  raw('1e999 (Infinity)', '1e999'),
  raw('5e-324', '5e-324'),
  raw('30 digits', '123456789012345678901234567890'),
  raw('false', 'false'),
  raw('[null]', '[null]'),
  raw('{"$gt":""}', '{"$gt":""}'),
  raw('{"__proto__":…}', '{"__proto__":{"role":"admin"}}'),
  raw('nested arrays × 100', `${'['.repeat(100)}${']'.repeat(100)}`),
];

/** Whole bodies that are not JSON, or JSON that is hostile as a whole. */
function invalidBodies(limit: number): { label: string; body: string }[] {
  const depth = Math.min(Math.floor(limit / 2) - 16, 100_000);
  return [
    { label: 'empty', body: '' },
    { label: 'truncated', body: '{"a":' },
    { label: 'trailing comma', body: '{"a":1,}' },
    { label: 'single quotes', body: "{'a':1}" },
    { label: 'bare word', body: 'nul' },
    { label: 'raw NUL', body: '\u0000' },
    { label: 'BOM then {}', body: '\ufeff{}' },
    { label: 'escaped NUL key', body: '{"\\u0000":1}' },
    { label: 'escaped lone surrogate key', body: '{"\\ud800":1}' },
    { label: 'duplicate keys', body: '{"a":1,"a":2}' },
    { label: `nested arrays × ${depth}`, body: '['.repeat(depth) + ']'.repeat(depth) },
    {
      label: 'nested objects × 5000',
      body: '{"a":'.repeat(5000) + '1' + '}'.repeat(5000),
    },
    {
      label: '3000 keys',
      body: JSON.stringify(
        Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`k${i}`, i])),
      ),
    },
  ];
}

/** Path segments, already percent-encoded as they go on the wire. */
function hostileSegments(realId: string): { label: string; raw: string }[] {
  return [
    { label: '%00', raw: '%00' },
    { label: 'id + %00', raw: `${realId}%00` },
    { label: '%ED%A0%80 (lone surrogate)', raw: '%ED%A0%80' },
    { label: '%ED%BF%BF', raw: '%ED%BF%BF' },
    { label: '..%2F', raw: '..%2F..%2Fadmin%2Fusers' },
    { label: '%2e%2e', raw: '%2e%2e' },
    { label: 'C0 %01%1F', raw: '%01%1F' },
    { label: 'RTL %E2%80%AE + id', raw: `%E2%80%AE${realId}` },
    { label: 'malformed %zz', raw: '%zz' },
    { label: 'lone %', raw: '%' },
    { label: '%25', raw: '%25' },
    { label: 'id 10 000 long', raw: 'a'.repeat(10_000) },
    { label: 'id 100 000 long', raw: '1'.repeat(100_000) },
    { label: 'id × 3', raw: realId.repeat(3) },
    { label: 'uppercase id', raw: realId.toUpperCase() },
    { label: 'nil UUID', raw: '00000000-0000-0000-0000-000000000000' },
    { label: 'max UUID', raw: 'ffffffff-ffff-ffff-ffff-ffffffffffff' },
    { label: '-1', raw: '-1' },
    { label: '0', raw: '0' },
    { label: '1e308', raw: '1e308' },
    { label: '2^63', raw: '9223372036854775808' },
    { label: 'NaN', raw: 'NaN' },
    { label: 'null', raw: 'null' },
    { label: '[]', raw: '%5B%5D' },
    { label: '{}', raw: '%7B%7D' },
    { label: 'space + id', raw: `%20${realId}` },
  ];
}

/** Percent-encodes every code unit, lone surrogates as their (WTF-8) bytes: %ED%A0%80. */
function encodeText(value: string): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    const next = value.charCodeAt(i + 1);
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(value.slice(i, i + 2));
      i++;
    } else if (unit >= 0xd800 && unit <= 0xdfff) {
      out += [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    } else {
      out += encodeURIComponent(value[i]!);
    }
  }
  return out;
}

/** Whether a value can be a header value at all (a ByteString without NUL, CR or LF). */
function headerSafe(value: string): boolean {
  try {
    new Headers({ x: value });
    return true;
  } catch {
    return false;
  }
}

// ─── Valid bodies (so that a hostile property reaches past the other properties' checks) ─────

type Ids = Record<FixtureId, string>;

const VALID_BODY: Record<string, (ids: Ids) => Record<string, unknown>> = {
  updateMe: () => ({ name: 'Ana Pérez' }),
  sendContactMessage: () => ({
    name: 'Ana',
    email: 'ana@example.com',
    subject: 'Consulta',
    message: 'Hola, tengo una duda sobre un pedido.',
  }),
  createCardCheckout: () => ({ amount: '10.00' }),
  createMercadoPagoTopup: () => ({ amount: '10.00' }),
  createPaypalTopup: () => ({ amount: '10.00' }),
  createCryptoTopup: () => ({ amount: '10.00', payCurrency: 'usdttrc20' }),
  adminUpdateGatewaySetting: () => ({ feePercent: '2.90', feeFixed: '0.30' }),
  adminUpdatePaymentSettings: () => ({ holdThreshold: '100.00', shopName: 'Tienda' }),
  adminRejectHeldTopup: () => ({ reason: 'Pago dudoso' }),
  redeemVoucher: () => ({ code: 'ABCD-EFGH-JKLM' }),
  createManualTopup: (ids) => ({ methodId: ids.method, amount: '10.00', reference: 'REF-123' }),
  // A paid session (signed, it reaches the payment lookup; it matches none of ours).
  receiveStripeWebhook: () => ({
    id: 'evt_fuzz',
    type: 'checkout.session.completed',
    data: {
      object: { id: 'cs_fuzz', payment_status: 'paid', amount_total: 1000, currency: 'usd' },
    },
  }),
  adminRejectManualTopup: () => ({ reason: 'No ha llegado el pago.' }),
  adminCreateFundingMethod: () => ({
    name: 'Método',
    instructions: 'Instrucciones.',
    minAmount: '1',
    maxAmount: '10',
  }),
  adminUpdateFundingMethod: () => ({ name: 'Método' }),
  placeOrder: (ids) => ({ serviceId: ids.service, fields: { imei: '359702373699048' } }),
  placeBulkImeiOrder: (ids) => ({ serviceId: ids.service, imeis: '359702373699048' }),
  adminBulkCompleteOrders: () => ({ text: '#1 Listo' }),
  adminCreateSnippet: () => ({ kind: 'reject_reason', title: 'Robado', body: 'IMEI robado' }),
  adminUpdateSnippet: () => ({ title: 'Otro' }),
  adminBulkOrderAction: () => ({ action: 'take', ids: ['00000000-0000-4000-8000-000000000000'] }),
  adminPreviewBulkComplete: () => ({ text: '#1 Listo' }),
  adminCompleteOrder: () => ({ result: 'Listo' }),
  adminRejectOrder: () => ({ reason: 'No disponible' }),
  adminCreateService: () => ({
    category: 'IMEI',
    name: 'Servicio de prueba',
    description: 'Descripción.',
    deliveryTime: '1 hora',
    price: '1.00',
    fields: [],
  }),
  adminReorderServices: (ids) => ({ ids: [ids.service] }),
  adminBulkPriceChange: () => ({ percent: 1, category: 'gaming' }),
  adminUpdateService: () => ({ name: 'Servicio renombrado' }),
  adminCreateVoucherBatch: () => ({ amount: '1.00', count: 1 }),
  adminAdjustBalance: () => ({ amount: '1.00', reason: 'Ajuste de prueba' }),
  createTicket: (ids) => ({
    subject: 'Consulta de prueba',
    category: 'order',
    orderIds: [ids.order],
    message: 'Hola, tengo una duda.',
  }),
  replyTicket: () => ({ body: 'Gracias.' }),
  adminReplyTicket: () => ({ body: 'Revisado.', internal: true }),
  adminUpdateTicket: () => ({ state: 'answered' }),
  adminBulkCloseTickets: () => ({ ids: ['00000000-0000-4000-8000-000000000000'] }),
};

/** The fixture a path parameter takes, by the path it is in. */
function fixtureFor(path: string): FixtureId | null {
  if (/^\/api\/(admin\/)?orders\//.test(path)) return 'order';
  if (/^\/api\/(admin\/)?funds\/requests\//.test(path)) return 'topup';
  if (/^\/api\/(admin\/)?services\//.test(path)) return 'service';
  if (path.startsWith('/api/admin/funds/methods/')) return 'method';
  if (path.startsWith('/api/admin/vouchers/')) return 'voucherBatch';
  // Blocking and ending sessions aim at a bystander: customer A's session sends the fuzz itself.
  // (Paths as the document writes them: `{id}`.)
  if (/^\/api\/admin\/users\/\{id\}\/(?:block|unblock|sessions\/revoke|security)$/.test(path))
    return 'bystander';
  if (path.startsWith('/api/me/sessions/')) return 'sessionA';
  if (path.startsWith('/api/admin/users/')) return 'customerA';
  if (path.startsWith('/api/admin/suppliers/')) return 'supplier';
  if (path.startsWith('/api/keys/')) return 'apiKey';
  if (path.startsWith('/api/webhook-endpoints/')) return 'webhookEndpoint';
  if (/^\/api\/(admin\/)?tickets\/\{id\}/.test(path)) return 'ticket';
  if (path.startsWith('/api/admin/payment-methods/')) return 'gatewayMethod';
  if (/^\/api\/(admin\/)?receipts\/\{id\}/.test(path)) return 'receipt';
  return null;
}

// ─── The test ────────────────────────────────────────────────────────────────────────────────

/**
 * Where a request goes: the test app (Stripe not configured, like CI), or, for Stripe's webhook,
 * an app with Stripe configured, unsigned (always 400 before anything is read) or signed (the
 * hostile event is handled: still never a 5xx).
 */
type Variant = 'plain' | 'stripe-unsigned' | 'stripe-signed';
type Target = ApiOperation & { variant: Variant };

const WEBHOOK_SECRET = 'whsec_cometa_fuzz';

function variantsOf(op: ApiOperation): Variant[] {
  return op.access === 'stripe' ? ['plain', 'stripe-unsigned', 'stripe-signed'] : ['plain'];
}

type Slot =
  | { kind: 'path' | 'query' | 'header' | 'property'; name: string }
  | { kind: 'body'; name: '(body)' };

type Failure = {
  operation: string;
  parameter: string;
  value: string;
  status: number;
  body: string;
  problem: string;
};

function show(value: string): string {
  const shown = JSON.stringify(
    value.length > 60 ? `${value.slice(0, 60)}…(${value.length})` : value,
  );
  return shown.replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Deadlock (40P01): the parallel workers write the same table while it is cleared. */
function isDeadlock(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '40P01') return true;
  }
  return false;
}

describe.each(dbTargets())('fuzzing every documented operation on %s', (target) => {
  let t: TestApp;
  let doc: OpenApiDocument;
  let fx: Fixtures;
  let setupSeconds = 0;
  let ops: ApiOperation[];
  let stripeApp: TestApp['app'];
  const failures: Failure[] = [];
  const nextIp = addressSequence('10.2');
  let requests = 0;

  /** Clears the rate-limit counters, again when a worker's write deadlocks with the delete. */
  async function clearRateLimits(): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await t.database.db.execute(sql`DELETE FROM rate_limit`);
        return;
      } catch (err) {
        if (!isDeadlock(err) || attempt >= 5) throw err;
      }
    }
  }

  beforeAll(async () => {
    const setupStarted = performance.now();
    // Opening tickets is limited per hour: the fuzz opens many, each must reach validation.
    t = await createTestApp(target, { TICKET_RATE_LIMIT_PER_HOUR: '10000' });
    doc = apiDocument(t);
    fx = await createFixtures(t);
    setupSeconds = (performance.now() - setupStarted) / 1000;
    ops = apiOperations(doc);
    const stripe = stripeConfigFrom({
      STRIPE_SECRET_KEY: 'sk_test_cometa_fuzz',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      // Never called: webhooks only read the database.
      STRIPE_API_BASE: 'http://127.0.0.1:9',
    });
    stripeApp = t.appWith({ env: { ...t.env, stripe } });
  });
  afterAll(async () => {
    await t?.close();
  });

  function clientFor(op: ApiOperation): TestClient | null {
    if (op.access === 'customer') return fx.customerA.client;
    if (op.access === 'admin') return fx.admin.client;
    return null;
  }

  function baseBody(op: ApiOperation): unknown {
    const valid = VALID_BODY[op.operationId];
    return valid ? valid(fx.ids) : minimalBody(doc, op);
  }

  function pathValues(op: ApiOperation): Record<string, string> {
    const fixture = fixtureFor(op.path);
    const id = fixture ? fx.ids[fixture] : '00000000-0000-4000-8000-000000000000';
    return Object.fromEntries(op.pathParams.map((p) => [p.name, encodeURIComponent(id)]));
  }

  type Send = {
    op: Target;
    parameter: string;
    value: string;
    path?: Record<string, string>;
    query?: string;
    headers?: Record<string, string>;
    body?: string | ReadableStream<Uint8Array>;
    /** The only acceptable status (415, 413); otherwise anything but a 5xx. */
    expect?: number;
  };

  async function send(s: Send): Promise<void> {
    const { op } = s;
    const url = `${fillPath(op.path, { ...pathValues(op), ...s.path })}${s.query ?? ''}`;
    const hasBody = s.body !== undefined;
    const headers: Record<string, string> = {
      ...(hasBody ? { 'Content-Type': 'application/json' } : {}),
      ...s.headers,
    };
    // An empty Content-Type in `s.headers` means: send none.
    if (headers['Content-Type'] === '') delete headers['Content-Type'];
    if (op.variant === 'stripe-signed' && typeof s.body === 'string')
      headers['Stripe-Signature'] = Stripe.webhooks.generateTestHeaderString({
        payload: s.body,
        secret: WEBHOOK_SECRET,
      });
    const where = `${op.operationId} (${op.method} ${op.path})${op.variant === 'plain' ? '' : ` [${op.variant}]`}`;
    let res: Response;
    let text: string;
    for (let attempt = 0; ; attempt++) {
      requests += 1;
      try {
        res = await rawRequest(t, {
          method: op.method,
          url,
          as: clientFor(op),
          ip: nextIp(),
          headers,
          body: s.body,
          app: op.variant === 'plain' ? undefined : stripeApp,
        });
        text = await res.text();
      } catch (err) {
        failures.push({
          operation: where,
          parameter: s.parameter,
          value: s.value,
          status: 0,
          body: String(err),
          problem: 'the request threw',
        });
        return;
      }
      // A per-account limit (card checkout, voucher codes) must not hide the checks after it.
      if (res.status !== 429 || attempt > 0 || s.body instanceof ReadableStream) break;
      await clearRateLimits();
    }
    const record = (problem: string) =>
      failures.push({
        operation: where,
        parameter: s.parameter,
        value: s.value,
        status: res.status,
        body: text.slice(0, 300),
        problem,
      });
    // A path such as `%2e%2e` is normalised out of /api/ by the URL parser: only the status counts.
    const inApi = new URL(url, 'http://localhost').pathname.startsWith('/api/');
    const allowed =
      s.expect !== undefined
        ? [s.expect]
        : op.variant === 'stripe-unsigned'
          ? [400, 413, 415]
          : null;
    if (res.status >= 500) record('server error');
    else if (allowed && !allowed.includes(res.status)) record(`expected ${allowed.join(' or ')}`);
    else if (inApi) {
      const shape = errorBodyProblem(res.status, res.headers.get('content-type'), text);
      if (shape) record(`error body ${shape}`);
    }
  }

  /** Every slot of an operation that takes a value. */
  function slotsOf(op: Target): Slot[] {
    const slots: Slot[] = [
      ...op.pathParams.map((p) => ({ kind: 'path' as const, name: p.name })),
      ...op.queryParams.map((p) => ({ kind: 'query' as const, name: p.name })),
      ...op.headerParams.map((p) => ({ kind: 'header' as const, name: p.name })),
    ];
    // Stripe's signature is a header too (a security scheme in the document, not a parameter).
    if (op.variant === 'stripe-unsigned') slots.push({ kind: 'header', name: 'Stripe-Signature' });
    if (op.bodySchema) {
      const properties = Object.keys(op.bodySchema.properties ?? {});
      slots.push(...properties.map((name) => ({ kind: 'property' as const, name })));
      slots.push({ kind: 'body', name: '(body)' });
    }
    return slots;
  }

  /** Sends one value into one slot, the rest of the request valid. */
  function sendValue(op: Target, slot: Slot, value: Hostile): Promise<void> {
    const body = baseBody(op);
    const bodyText = body === undefined ? undefined : JSON.stringify(body);
    const common = { op, parameter: `${slot.kind} ${slot.name}`, value: value.label };
    switch (slot.kind) {
      case 'path':
        return send({ ...common, path: { [slot.name]: encodeText(value.text) }, body: bodyText });
      case 'query':
        return send({
          ...common,
          query: `?${encodeURIComponent(slot.name)}=${encodeText(value.text)}`,
          body: bodyText,
        });
      case 'header':
        // Not a possible header value (a ByteString without NUL, CR, LF): nothing to send.
        if (!headerSafe(value.text)) return Promise.resolve();
        return send({ ...common, headers: { [slot.name]: value.text }, body: bodyText });
      case 'property': {
        const marker = '\u0001fuzz-marker\u0001';
        const withMarker = { ...(body as Record<string, unknown>), [slot.name]: marker };
        const text = JSON.stringify(withMarker).replace(JSON.stringify(marker), value.json);
        return send({ ...common, body: text });
      }
      case 'body':
        return send({ ...common, body: value.json });
    }
  }

  // Thousands of requests: on PGlite, while other test files run beside it, it needs minutes.
  it('survives the hostile list on every parameter, then random values (fixed seed)', async () => {
    const started = performance.now();
    const cpu = process.cpuUsage();
    let parameters = 0;
    const allSlots: { op: Target; slot: Slot }[] = [];

    // The fixed list, as jobs: run one at a time on PGlite (one connection), a few at a time on
    // PostgreSQL (a pool).
    const jobs: (() => Promise<void>)[] = [];
    const targets = ops.flatMap((op) => variantsOf(op).map((variant) => ({ ...op, variant })));
    for (const op of targets) {
      const slots = slotsOf(op);
      if (op.variant === 'plain') parameters += slots.length;
      const body = baseBody(op);
      const bodyText = body === undefined ? undefined : JSON.stringify(body);
      for (const slot of slots) {
        allSlots.push({ op, slot });
        if (slot.kind === 'property' && (typeof body !== 'object' || body === null)) continue;
        const values = slot.kind === 'header' ? HOSTILE.filter((v) => headerSafe(v.text)) : HOSTILE;
        for (const value of values) jobs.push(() => sendValue(op, slot, value));
        if (slot.kind === 'path') {
          const fixture = fixtureFor(op.path);
          const id = fixture ? fx.ids[fixture] : '00000000-0000-4000-8000-000000000000';
          for (const segment of hostileSegments(id))
            jobs.push(() =>
              send({
                op,
                parameter: `path ${slot.name}`,
                value: segment.label,
                path: { [slot.name]: segment.raw },
                body: bodyText,
              }),
            );
        }
        if (slot.kind === 'query') {
          const name = encodeURIComponent(slot.name);
          for (const [label, query] of [
            ['repeated', `?${name}=a&${name}=b`],
            ['no value', `?${name}`],
            ['raw %00', `?${name}=%00`],
            ['raw %ED%A0%80', `?${name}=%ED%A0%80`],
            ['malformed %zz', `?${name}=%zz`],
            ['bracket key', `?${name}[]=1&${name}[a]=2`],
          ] as const)
            jobs.push(() => send({ op, parameter: `query ${slot.name}`, value: label, query }));
        }
      }

      if (op.bodySchema && op.bodyLimit !== null) {
        for (const invalid of invalidBodies(op.bodyLimit))
          jobs.push(() =>
            send({ op, parameter: '(body)', value: invalid.label, body: invalid.body }),
          );
        for (const type of [
          'application/x-www-form-urlencoded',
          'multipart/form-data',
          'application/json; charset=utf-16',
          'APPLICATION/VND.API+JSON',
        ])
          jobs.push(() =>
            send({
              op,
              parameter: 'Content-Type',
              value: type,
              body: bodyText,
              headers: { 'Content-Type': type },
            }),
          );
        // The reseller protocols read whatever their clients send (a form without its content
        // type, JSON, text) and answer in their own format: no 415 there.
        if (op.access !== 'protocol')
          jobs.push(() =>
            send({
              op,
              parameter: 'Content-Type',
              value: 'text/plain with a JSON body',
              body: bodyText,
              headers: { 'Content-Type': 'text/plain' },
              expect: 415,
            }),
          );
        if (op.access !== 'protocol')
          jobs.push(() =>
            send({
              op,
              parameter: 'Content-Type',
              value: 'no Content-Type with a JSON body',
              body: bodyText,
              headers: { 'Content-Type': '' },
              expect: 415,
            }),
          );
      }

      if (op.bodyLimit !== null) {
        const size = op.bodyLimit + 1;
        jobs.push(() => {
          const big = `{"x":"${'a'.repeat(size - 8)}"}`;
          return send({
            op,
            parameter: '(body)',
            value: `${size} bytes, Content-Length declared`,
            body: big,
            headers: { 'Content-Length': String(Buffer.byteLength(big)) },
            expect: 413,
          });
        });
        jobs.push(() => {
          const chunk = new TextEncoder().encode('a'.repeat(64 * 1024));
          let sent = 0;
          const stream = new ReadableStream<Uint8Array>({
            pull(controller) {
              if (sent > size) return controller.close();
              sent += chunk.length;
              controller.enqueue(chunk);
            },
          });
          return send({
            op,
            parameter: '(body)',
            value: `${size}+ bytes, streamed without Content-Length`,
            body: stream,
            expect: 413,
          });
        });
      }
    }
    let next = 0;
    const workers = target === 'postgres' ? 3 : 1;
    await Promise.all(
      Array.from({ length: workers }, async () => {
        while (next < jobs.length) await jobs[next++]!();
      }),
    );
    const deterministic = requests;

    // Random values from a fixed seed: any UTF-16 (lone surrogates included), JSON, numbers.
    const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
    const text = fc.oneof(
      fc.string({ unit: codeUnit, maxLength: 40 }),
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.string({ unit: codeUnit, maxLength: 40 }).map(b64),
      fc
        .date({ noInvalidDate: true, min: new Date(-8.64e15), max: new Date(8.64e15) })
        .map((d) => d.toISOString()),
    );
    const value: fc.Arbitrary<Hostile> = fc.oneof(
      fc.constantFrom(...HOSTILE, ...MORE_HOSTILE),
      text.map((s) => str('random text', s)),
      fc.jsonValue({ maxDepth: 3 }).map((v) => raw('random JSON', JSON.stringify(v))),
      fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map((n) => raw('random integer', String(n))),
      fc
        .double({ noNaN: true, noDefaultInfinity: true })
        .map((d) => raw('random number', String(d))),
    );
    // The property records what it finds and never fails itself: fast-check would stop (and
    // shrink) at the first failure, and the report lists them all.
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...allSlots), value, async ({ op, slot }, v) => {
        const before = failures.length;
        await sendValue(op, slot, v);
        // Keep the exact value of a random failure: the label alone would not reproduce it.
        for (const f of failures.slice(before)) f.value = `${v.label} ${show(v.json)}`;
        return true;
      }),
      { seed: SEED, numRuns: RUNS },
    );

    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const cpuSeconds = (process.cpuUsage(cpu).user / 1e6).toFixed(1);
    process.stdout.write(
      `fuzz on ${target}: ${ops.length} operations, ${parameters} parameters, ${requests} requests (${deterministic} fixed + ${requests - deterministic} random), seed ${SEED}, ${RUNS} runs, ${failures.length} failures, app and fixtures ${setupSeconds.toFixed(1)}s + requests ${seconds}s (${cpuSeconds}s CPU)\n`,
    );
    const report = failures
      .map(
        (f) =>
          `${f.operation} · ${f.parameter} = ${f.value} → ${f.status} (${f.problem}) ${f.body}`,
      )
      .join('\n');
    expect(failures.length, `${failures.length} failures (FUZZ_SEED=${SEED}):\n${report}`).toBe(0);
  }, 240_000);
});

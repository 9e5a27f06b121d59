import { randomUUID } from 'node:crypto';
// What the authorization matrix and the fuzz tests share: the operations of the OpenAPI document
// (built from API_ROUTES, as the app serves it), a minimal body for each request schema, raw
// requests (any body, any Content-Type, percent-encoded paths as given) and the fixtures: two
// verified customers, an unverified one, staff of each role, and resources that belong to the first customer.
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { ApiErrorBodySchema } from '../../shared/error-codes';
import type { StaffRole } from '../../shared/roles';
import { receipt } from '../db/schema/payments';
import { webhookDelivery } from '../db/schema/reseller';
import { supplier } from '../db/schema/suppliers';
import { keyContext, secretBox } from '../features/suppliers/connection';
import { service } from '../db/schema/catalogue';
import { priceGroup } from '../db/schema/prices';
import { announcement } from '../db/schema/announcements';
import { DEFAULT_BODY_LIMIT, type Access } from '../lib/route';
import {
  buildOpenApiDocument,
  type JsonSchema,
  type OpenApiDocument,
  type ParameterObject,
} from '../openapi/document';
import { API_ROUTES } from '../routes';
import {
  GOOD_PASSWORD,
  TEST_ORIGIN,
  registerVerified,
  signInAdmin,
  signInStaff,
  uniqueEmail,
  userIdOf,
  type TestApp,
  type TestClient,
} from '../../tests/setup/test-app';

export type ApiOperation = {
  operationId: string;
  /** Upper case: GET, POST… */
  method: string;
  /** As the document writes it: `/api/orders/{id}`. */
  path: string;
  access: Access;
  /** `admin` operations: the staff roles the route allows (empty for the others). */
  roles: StaffRole[];
  pathParams: ParameterObject[];
  queryParams: ParameterObject[];
  headerParams: ParameterObject[];
  /** The JSON request body's schema, `$ref`s resolved at the top level; null without a body. */
  bodySchema: JsonSchema | null;
  bodyRequired: boolean;
  /** Largest body the route reads, in bytes (null for GET: no body is read). */
  bodyLimit: number | null;
};

export function apiDocument(t: TestApp): OpenApiDocument {
  return buildOpenApiDocument({ appUrl: t.env.APP_URL, appName: t.env.APP_NAME }, API_ROUTES);
}

export function resolve(doc: OpenApiDocument, schema: JsonSchema): JsonSchema {
  let current = schema;
  for (let i = 0; i < 10 && typeof current.$ref === 'string'; i++) {
    const name = current.$ref.replace('#/components/schemas/', '');
    const target = doc.components.schemas[name];
    if (!target) throw new Error(`unknown $ref ${current.$ref}`);
    current = target;
  }
  return current;
}

/** Every operation of the document, in document order. */
export function apiOperations(doc: OpenApiDocument): ApiOperation[] {
  const out: ApiOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const params = op.parameters ?? [];
      const json = op.requestBody?.content['application/json'];
      // The document carries no body limit: the route definition of the same operation does.
      const route = API_ROUTES.find((r) => r.operationId === op.operationId);
      out.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        access: op['x-access'],
        roles: op['x-roles'] ?? [],
        pathParams: params.filter((p) => p.in === 'path'),
        queryParams: params.filter((p) => p.in === 'query'),
        headerParams: params.filter((p) => p.in === 'header'),
        bodySchema: json ? resolve(doc, json.schema) : null,
        bodyRequired: op.requestBody?.required ?? false,
        bodyLimit: method === 'get' ? null : (route?.bodyLimit ?? DEFAULT_BODY_LIMIT),
      });
    }
  }
  return out;
}

/** A plausible value for a JSON Schema: required properties only, strings "x", numbers 1. */
export function sampleValue(doc: OpenApiDocument, raw: JsonSchema, depth = 0): unknown {
  const schema = resolve(doc, raw);
  if (depth > 8) return null;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  if (Array.isArray(schema.allOf)) {
    const merged: Record<string, unknown> = {};
    for (const part of schema.allOf as JsonSchema[]) {
      const v = sampleValue(doc, part, depth + 1);
      if (v && typeof v === 'object' && !Array.isArray(v)) Object.assign(merged, v);
    }
    return merged;
  }
  const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (union?.length) return sampleValue(doc, union[0]!, depth + 1);
  const type = Array.isArray(schema.type)
    ? (schema.type as string[]).find((x) => x !== 'null')
    : (schema.type as string | undefined);
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = (schema.required ?? []) as string[];
      const out: Record<string, unknown> = {};
      for (const key of required) out[key] = sampleValue(doc, properties[key] ?? {}, depth + 1);
      return out;
    }
    case 'array': {
      const n = Math.max(0, Number(schema.minItems ?? 0));
      return Array.from({ length: n }, () =>
        sampleValue(doc, (schema.items ?? {}) as JsonSchema, depth + 1),
      );
    }
    case 'integer':
    case 'number': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : 1;
      return Math.max(1, min);
    }
    case 'boolean':
      return true;
    case 'string': {
      switch (schema.format) {
        case 'uuid':
          return '00000000-0000-4000-8000-000000000000';
        case 'email':
          return 'ana@example.com';
        case 'date-time':
          return '2026-05-01T00:00:00Z';
        case 'date':
          return '2026-05-01';
        default:
          return 'x'.repeat(Math.max(1, Number(schema.minLength ?? 1)));
      }
    }
    default:
      return 'x';
  }
}

/** The body an operation is called with when the body itself is not under test. */
export function minimalBody(doc: OpenApiDocument, op: ApiOperation): unknown {
  return op.bodySchema ? sampleValue(doc, op.bodySchema) : undefined;
}

/** `/api/orders/{id}` with each `{name}` replaced by the (already percent-encoded) value. */
export function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for path parameter ${name} of ${path}`);
    return value;
  });
}

// ─── Raw requests ────────────────────────────────────────────────────────────────────────────

export type RawRequest = {
  method: string;
  /** Path and query exactly as sent (percent-encoding is not touched). */
  url: string;
  /** Whose cookies to send (and update); null for no session. */
  as: TestClient | null;
  ip?: string;
  headers?: Record<string, string>;
  body?: BodyInit;
  /** Another app on the same database (e.g. with Stripe configured). */
  app?: TestApp['app'];
};

type AppLike = { request: (url: string, init: RequestInit) => Response | Promise<Response> };

export async function rawRequest(t: TestApp, req: RawRequest): Promise<Response> {
  const headers: Record<string, string> = {
    Origin: TEST_ORIGIN,
    'x-cometa-client-ip': req.ip ?? '127.0.0.1',
    ...req.headers,
  };
  const client = req.as;
  if (client?.cookies.size)
    headers.Cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const app: AppLike = req.app ?? t.app;
  const init: RequestInit & { duplex?: 'half' } = {
    method: req.method,
    headers,
    body: req.body,
    redirect: 'manual',
  };
  if (req.body instanceof ReadableStream) init.duplex = 'half';
  const res = await app.request(req.url, init);
  if (client) {
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      if (/max-age=0/i.test(line) || value === '') client.cookies.delete(name);
      else client.cookies.set(name, value);
    }
  }
  return res;
}

/** A distinct client address per call (per-address rate limits never mix two checks). */
export function addressSequence(prefix: string): () => string {
  let n = 0;
  return () => {
    n += 1;
    return `${prefix}.${Math.floor(n / 250) % 250}.${(n % 250) + 1}`;
  };
}

/** What is wrong with an error answer's body (null when it is a `{ code, message }` body). */
export function errorBodyProblem(status: number, contentType: string | null, text: string) {
  if (status < 400) return null;
  if (!/^application\/json/i.test(contentType ?? '')) return `not JSON (${contentType})`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'invalid JSON';
  }
  // A 5xx also carries `requestId`; the shape checked is the shared one.
  const schema = status >= 500 ? ApiErrorBodySchema.extend({ requestId: z.string() }) : null;
  const result = (schema ?? ApiErrorBodySchema).safeParse(parsed);
  return result.success ? null : `not an ApiErrorBody: ${result.error.issues[0]?.message}`;
}

// ─── Fixtures ────────────────────────────────────────────────────────────────────────────────

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

export type Customer = { client: TestClient; email: string; id: string };

/** Resource ids a path parameter can take. */
export type FixtureId =
  | 'order'
  | 'topup'
  | 'receipt'
  | 'service'
  | 'method'
  | 'voucherBatch'
  | 'customerA'
  | 'bystander'
  | 'sessionA'
  | 'supplier'
  | 'apiKey'
  | 'webhookEndpoint'
  | 'webhookDelivery'
  | 'refill'
  | 'fileOrder'
  | 'orderFile'
  | 'priceGroup'
  | 'stockOrder'
  | 'ticket'
  | 'ticketAttachment'
  | 'ticketNoteAttachment'
  | 'announcement'
  /** An automatic payment method's name (`stripe`), for /api/admin/payment-methods/:method. */
  | 'gatewayMethod';

export type Fixtures = {
  admin: Customer;
  /** Staff of the other two roles, two-factor enrolled. */
  support: Customer;
  finance: Customer;
  /** The customer who owns the resources below. */
  customerA: Customer;
  /** Another verified customer. */
  customerB: Customer;
  /** Registered and signed in, e-mail not verified. */
  unverified: { client: TestClient; email: string };
  ids: Record<FixtureId, string>;
  /** Text that appears only in customer A's data: no one else may ever receive it. */
  privateMarkers: string[];
  /** Items from stock sold to customer A: only A ever receives them, staff included. */
  soldItems: string[];
};

async function expectJson<T>(res: Response, status: number, what: string): Promise<T> {
  const text = await res.text();
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

export async function createFixtures(t: TestApp): Promise<Fixtures> {
  const admin = await signInAdmin(t);
  const support = await signInStaff(t, 'support');
  const finance = await signInStaff(t, 'finance');
  const a = await registerVerified(t, 'Alicia Propietaria');
  const b = await registerVerified(t, 'Bruno Ajeno');
  const customerA: Customer = { ...a, id: await userIdOf(t, a.email) };
  const customerB: Customer = { ...b, id: await userIdOf(t, b.email) };
  // A third customer, only the target of the admin's block and end-sessions routes (blocking A
  // or B would end the sessions the checks are sent with).
  const c = await registerVerified(t, 'Carla Ajena');
  const bystander = { id: await userIdOf(t, c.email) };
  // A second session of A (another device): what A may end from Mi perfil.
  const device = t.client();
  await expectJson(
    await device.post('/api/auth/sign-in/email', { email: a.email, password: GOOD_PASSWORD }),
    200,
    'second session of customer A',
  );
  const spareSession = (
    await expectJson<{ items: { id: string; current: boolean }[] }>(
      await device.get('/api/me/sessions'),
      200,
      'sessions of customer A',
    )
  ).items.find((s) => s.current);
  if (!spareSession) throw new Error('no current session on the second device of customer A');

  const unverifiedClient = t.client();
  const unverifiedEmail = uniqueEmail('unverified');
  const signUp = await unverifiedClient.post('/api/auth/sign-up/email', {
    name: 'Sin Verificar',
    email: unverifiedEmail,
    password: GOOD_PASSWORD,
  });
  if (signUp.status !== 200) throw new Error(`unverified sign-up: ${signUp.status}`);
  // Sign-up signs nobody in; signing in before verifying gives an unverified session.
  const signIn = await unverifiedClient.post('/api/auth/sign-in/email', {
    email: unverifiedEmail,
    password: GOOD_PASSWORD,
  });
  if (signIn.status !== 200) throw new Error(`unverified sign-in: ${signIn.status}`);

  const [row] = await t.database.db
    .insert(service)
    .values({
      category: 'IMEI',
      name: 'Consulta IMEI (seguridad)',
      description: 'Operador y bloqueo.',
      deliveryTime: '1–24 horas',
      price: 50n,
      fields: [{ key: 'imei', label: 'IMEI', type: 'imei', required: true, identifier: true }],
    })
    .returning({ id: service.id });
  const serviceId = row!.id;
  // A price group that is not the default (the default cannot be deleted).
  const [group] = await t.database.db
    .insert(priceGroup)
    .values({ name: 'Mayoristas (seguridad)', discountBp: 1000 })
    .returning({ id: priceGroup.id });
  // An announcement for every customer, on now.
  const [notice] = await t.database.db
    .insert(announcement)
    .values({ title: 'Aviso (seguridad)', body: 'Para todos los clientes.' })
    .returning({ id: announcement.id });

  await expectJson(
    await admin.client.request(
      'POST',
      `/api/admin/users/${customerA.id}/adjustments`,
      { amount: '100.00', reason: 'Saldo de prueba' },
      { 'Idempotency-Key': `security-fund-${customerA.id}` },
    ),
    201,
    'fund customer A',
  );
  // Customer A's own API key and webhook destination (a public address nothing will reach: no
  // worker runs here), created before the order so the order queues a delivery to it.
  const key = await expectJson<{ id: string }>(
    await customerA.client.post('/api/keys', { name: 'Clave de Alicia' }),
    201,
    'api key of customer A',
  );
  const endpoint = await expectJson<{ id: string }>(
    await customerA.client.post('/api/webhook-endpoints', {
      url: 'https://avisos-alicia.example.com/cometa',
    }),
    201,
    'webhook endpoint of customer A',
  );
  const order = await expectJson<{ id: string }>(
    await customerA.client.post('/api/orders', {
      serviceId,
      fields: { imei: '359702373699048' },
    }),
    201,
    'order of customer A',
  );
  // A completed order of A on a service with refills, and a refill A asked for on it.
  const [refillService] = await t.database.db
    .insert(service)
    .values({
      category: 'social',
      name: 'Seguidores con reposición (seguridad)',
      description: 'Con reposición de 30 días.',
      deliveryTime: '1–24 horas',
      price: 40n,
      refillDays: 30,
      fields: [{ key: 'link', label: 'Enlace', type: 'url', required: true, identifier: true }],
    })
    .returning({ id: service.id });
  const refilled = await expectJson<{ id: string }>(
    await customerA.client.post('/api/orders', {
      serviceId: refillService!.id,
      fields: { link: 'https://instagram.com/alicia.propietaria' },
    }),
    201,
    'refillable order of customer A',
  );
  await expectJson(
    await admin.client.post(`/api/admin/orders/${refilled.id}/complete`, { result: 'Hecho.' }),
    200,
    'complete the refillable order',
  );
  const refill = await expectJson<{ id: string }>(
    await customerA.client.post(`/api/orders/${refilled.id}/refill`),
    201,
    'refill of customer A',
  );
  // An order of A on a service that asks for a file, with the file A uploaded for it.
  const [fileService] = await t.database.db
    .insert(service)
    .values({
      category: 'unlock',
      name: 'Desbloqueo por archivo (seguridad)',
      description: 'Con el volcado del equipo.',
      deliveryTime: '1–24 horas',
      price: 30n,
      fields: [{ key: 'volcado', label: 'Volcado', type: 'file', required: true }],
    })
    .returning({ id: service.id });
  const upload = new FormData();
  upload.append('serviceId', fileService!.id);
  upload.append('field', 'volcado');
  upload.append('file', new File(['VOLCADO-ALICIA-5521'], 'volcado-alicia.bin'));
  const uploaded = await expectJson<{ id: string }>(
    await rawRequest(t, {
      method: 'POST',
      url: '/api/order-files',
      as: customerA.client,
      body: upload,
    }),
    201,
    'file of customer A',
  );
  const fileOrder = await expectJson<{ id: string }>(
    await customerA.client.post('/api/orders', {
      serviceId: fileService!.id,
      fields: { volcado: uploaded.id },
    }),
    201,
    'file order of customer A',
  );
  // A service delivered from stock, and an item of it sold to A (decision 0023).
  const [stockService] = await t.database.db
    .insert(service)
    .values({
      category: 'licenses',
      name: 'Licencia en stock (seguridad)',
      description: 'Una clave de producto.',
      deliveryTime: 'Al instante',
      price: 30n,
      fields: [],
      delivery: 'stock',
    })
    .returning({ id: service.id });
  await expectJson(
    await rawRequest(t, {
      method: 'POST',
      url: `/api/admin/services/${stockService!.id}/stock`,
      as: admin.client,
      headers: { 'Content-Type': 'text/plain' },
      body: 'STOCK-ALICIA-9001-ZQXW\n',
    }),
    200,
    'stock upload',
  );
  const stockOrder = await expectJson<{ id: string; result: string }>(
    await customerA.client.post('/api/orders', { serviceId: stockService!.id, fields: {} }),
    201,
    'stock order of customer A',
  );
  if (stockOrder.result !== 'STOCK-ALICIA-9001-ZQXW') throw new Error('stock order not delivered');
  const method = await expectJson<{ id: string }>(
    await admin.client.post('/api/admin/funds/methods', {
      name: 'Transferencia de prueba',
      instructions: 'Cuenta 0123-4567.',
      minAmount: '1',
      maxAmount: '500',
    }),
    201,
    'manual method',
  );
  const form = new FormData();
  form.append('methodId', method.id);
  form.append('amount', '25.00');
  form.append('reference', 'REF-ALICIA-7731');
  form.append('receipt', new File([PNG], 'recibo.png', { type: 'image/png' }));
  const topup = await expectJson<{ id: string }>(
    await rawRequest(t, {
      method: 'POST',
      url: '/api/funds/requests',
      as: customerA.client,
      body: form,
    }),
    201,
    'manual top-up of customer A',
  );
  // A support ticket of A about their order, with a screenshot; and a support agent's internal
  // note on it with its own file (neither the note nor its file is ever A's to see).
  const ticketForm = new FormData();
  ticketForm.append('subject', 'Problema con mi orden (TICKET-ALICIA-4410)');
  ticketForm.append('category', 'orden');
  ticketForm.append('orderIds', order.id);
  ticketForm.append('message', 'La orden no avanza.');
  ticketForm.append('files', new File([PNG], 'captura-alicia.png', { type: 'image/png' }));
  const ticket = await expectJson<{ id: string }>(
    await rawRequest(t, {
      method: 'POST',
      url: '/api/tickets',
      as: customerA.client,
      body: ticketForm,
    }),
    201,
    'support ticket of customer A',
  );
  const ticketDetail = await expectJson<{
    messages: { attachments: { id: string }[] }[];
  }>(await customerA.client.get(`/api/tickets/${ticket.id}`), 200, 'ticket of customer A');
  const ticketAttachment = ticketDetail.messages[0]?.attachments[0];
  if (!ticketAttachment) throw new Error('no attachment on the ticket of customer A');
  const noteForm = new FormData();
  noteForm.append('body', 'Nota interna: revisar con el proveedor.');
  noteForm.append('internal', 'true');
  noteForm.append('files', new File([PNG], 'nota-interna.png', { type: 'image/png' }));
  const note = await expectJson<{ attachments: { id: string }[] }>(
    await rawRequest(t, {
      method: 'POST',
      url: `/api/admin/tickets/${ticket.id}/messages`,
      as: support.client,
      body: noteForm,
    }),
    201,
    'internal note on the ticket of customer A',
  );
  const noteAttachment = note.attachments[0];
  if (!noteAttachment) throw new Error('no attachment on the internal note');
  // A supplier on a port nothing listens on (and loopback is refused without
  // ALLOW_PRIVATE_NETWORK): every call to it fails fast, as an unreachable supplier's would.
  const supplierId = randomUUID();
  await t.database.db.insert(supplier).values({
    id: supplierId,
    name: 'Proveedor de prueba (seguridad)',
    protocol: 'dhru',
    url: 'http://127.0.0.1:9',
    username: 'seguridad@example.com',
    apiKeySealed: secretBox(t.env).seal('KEY-SEGURIDAD-0001', keyContext(supplierId)),
    apiKeyHint: '••••0001',
  });
  const [delivery] = await t.database.db
    .select({ id: webhookDelivery.id })
    .from(webhookDelivery)
    .where(eq(webhookDelivery.endpointId, endpoint.id));
  if (!delivery) throw new Error('no webhook delivery for the order of customer A');
  const batch = await expectJson<{ batch: { id: string } }>(
    await admin.client.post('/api/admin/vouchers', { amount: '1.00', count: 1 }),
    201,
    'voucher batch',
  );

  // A voucher A redeemed: a credited top-up with its numbered receipt.
  const receiptBatch = await expectJson<{ codes: string[] }>(
    await admin.client.post('/api/admin/vouchers', { amount: '2.00', count: 1 }),
    201,
    'voucher batch for the receipt of customer A',
  );
  await expectJson(
    await customerA.client.post('/api/funds/redeem', { code: receiptBatch.codes[0] }),
    200,
    'voucher redeemed by customer A',
  );
  const [issued] = await t.database.db
    .select({ id: receipt.id, number: receipt.number })
    .from(receipt)
    .where(eq(receipt.userId, customerA.id));
  if (!issued) throw new Error('no receipt for customer A');

  return {
    admin,
    support,
    finance,
    customerA,
    customerB,
    unverified: { client: unverifiedClient, email: unverifiedEmail },
    ids: {
      order: order.id,
      topup: topup.id,
      receipt: issued.id,
      gatewayMethod: 'stripe',
      service: serviceId,
      method: method.id,
      voucherBatch: batch.batch.id,
      customerA: customerA.id,
      bystander: bystander.id,
      sessionA: spareSession.id,
      supplier: supplierId,
      apiKey: key.id,
      webhookEndpoint: endpoint.id,
      webhookDelivery: delivery.id,
      refill: refill.id,
      fileOrder: fileOrder.id,
      orderFile: uploaded.id,
      priceGroup: group!.id,
      stockOrder: stockOrder.id,
      ticket: ticket.id,
      ticketAttachment: ticketAttachment.id,
      ticketNoteAttachment: noteAttachment.id,
      announcement: notice!.id,
    },
    soldItems: ['STOCK-ALICIA-9001-ZQXW'],
    privateMarkers: [
      'STOCK-ALICIA-9001-ZQXW',
      'VOLCADO-ALICIA-5521',
      uploaded.id,
      customerA.email,
      customerA.id,
      order.id,
      topup.id,
      issued.id,
      'Alicia Propietaria',
      'REF-ALICIA-7731',
      'TICKET-ALICIA-4410',
      ticket.id,
    ],
  };
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ROUTES } from '../routes';
import type { z } from 'zod';
import { ApiErrorBodySchema } from '../../shared/error-codes';
import type { ServiceField } from '../../shared/schemas/catalogue';
import { ServiceDtoSchema } from '../../shared/schemas/catalogue';
import { MeSchema } from '../../shared/schemas/me';
import { OrderDtoSchema } from '../../shared/schemas/orders';
import { WalletDtoSchema } from '../../shared/schemas/wallet';
import { service } from '../db/schema/catalogue';
import {
  createTestApp,
  registerVerified,
  signInAdmin,
  userIdOf,
  type TestApp,
  type TestClient,
} from '../../tests/setup/test-app';
import { imeiFor } from '../../tests/setup/imei';
import { dbTargets } from '../../tests/setup/test-db';
import {
  buildOpenApiDocument,
  toOpenApiPath,
  type OpenApiDocument,
  type ResponseObject,
} from './document';
import { RESPONSE_SCHEMAS, type ResponseSchemaName } from './schemas';

const VALID_IMEI = '359702373699048';
const IMEI_FIELDS: ServiceField[] = [
  { key: 'imei', label: 'IMEI', type: 'imei', required: true, identifier: true },
];

const imei = imeiFor;

/** `METHOD /openapi/{path}` of every route the app registers under /api (auth excepted). */
function registeredOperations(app: TestApp['app']): string[] {
  const out = new Set<string>();
  for (const route of app.routes) {
    if (route.method === 'ALL') continue; // middleware and the /api/* 404
    if (!route.path.startsWith('/api/') || route.path.startsWith('/api/auth/')) continue;
    out.add(`${route.method} ${toOpenApiPath(route.path)}`);
  }
  return [...out].sort();
}

function documentedOperations(doc: OpenApiDocument): string[] {
  return Object.entries(doc.paths)
    .flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`))
    .sort();
}

describe.each(dbTargets())('OpenAPI document and docs page on %s', (target) => {
  let t: TestApp;
  let doc: OpenApiDocument;
  let admin: Awaited<ReturnType<typeof signInAdmin>>;
  let imeiService: string;

  /**
   * Checks a real answer against the document: the status is documented for the route; a 2xx
   * body parses with the response schema the document names (strict: no extra or missing
   * field); an error body is an ApiErrorBody whose code is one the document lists for it.
   */
  async function documented<T = unknown>(
    res: Response,
    method: string,
    honoPath: string,
  ): Promise<T> {
    const where = `${method} ${honoPath} → ${res.status}`;
    const op = doc.paths[toOpenApiPath(honoPath)]?.[method.toLowerCase()];
    expect(op, `${method} ${honoPath} is documented`).toBeDefined();
    const response = op?.responses[String(res.status)] as ResponseObject | undefined;
    expect(response, `${where} is documented`).toBeDefined();
    const body: unknown = await res.json();
    const media = response?.content?.['application/json'];
    if (res.status >= 400) {
      const error = ApiErrorBodySchema.parse(body);
      expect(Object.keys(media?.examples ?? {}), where).toContain(error.code);
      return body as T;
    }
    const ref = media?.schema.$ref;
    expect(typeof ref, where).toBe('string');
    const name = String(ref).replace('#/components/schemas/', '') as ResponseSchemaName;
    const schema: z.ZodType = RESPONSE_SCHEMAS[name];
    const parsed = schema.safeParse(body);
    expect(parsed.error?.issues ?? [], `${where}: body matches ${name}`).toEqual([]);
    return body as T;
  }

  async function fund(email: string, amount: string) {
    const path = '/api/admin/users/:id/adjustments';
    const res = await admin.client.request(
      'POST',
      path.replace(':id', await userIdOf(t, email)),
      { amount, reason: 'Saldo de prueba' },
      { 'Idempotency-Key': `fund-${email}` },
    );
    expect(res.status).toBe(201);
    await documented(res, 'POST', path);
  }

  beforeAll(async () => {
    t = await createTestApp(target);
    doc = buildOpenApiDocument({ appUrl: t.env.APP_URL, appName: t.env.APP_NAME }, API_ROUTES);
    admin = await signInAdmin(t);
    const [row] = await t.database.db
      .insert(service)
      .values({
        category: 'IMEI',
        name: 'Consulta IMEI completa',
        description: 'Operador y bloqueo.',
        deliveryTime: '1–24 horas',
        price: 50n,
        fields: IMEI_FIELDS,
      })
      .returning({ id: service.id });
    imeiService = row!.id;
  });
  afterAll(async () => {
    await t.close();
  });

  it('documents every /api route the app registers, and nothing it does not', () => {
    const registered = registeredOperations(t.app);
    expect(registered.length).toBeGreaterThan(40);
    expect(documentedOperations(doc)).toEqual(registered);
  });

  it('serves the document at /api/openapi.json to anyone, cacheable for 5 minutes', async () => {
    const res = await t.app.request('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const served = (await res.json()) as OpenApiDocument;
    expect(served).toEqual(JSON.parse(JSON.stringify(doc)));
    expect(await (await t.app.request('/api/openapi.json')).json()).toEqual(served);
  });

  it('serves the docs page at /api/docs under the CSP, with every operation', async () => {
    const res = await t.app.request('/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("script-src 'self' 'unsafe-inline'");
    const html = await res.text();
    expect(html).toContain('Documentación de la API');
    expect(html).not.toMatch(/<script/i);
    for (const path of Object.keys(doc.paths)) expect(html).toContain(`>${path}</code>`);
    // Only these two: any other unknown /api path is still a JSON 404.
    expect((await t.app.request('/api/docs/extra')).status).toBe(404);
  });

  it('real customer answers match the documented schemas exactly', async () => {
    const { client, email } = await registerVerified(t);
    await fund(email, '5.00');

    const me = await documented(await client.get('/api/me'), 'GET', '/api/me');
    MeSchema.parse(me);
    const wallet = await documented(await client.get('/api/wallet'), 'GET', '/api/wallet');
    expect(WalletDtoSchema.parse(wallet)).toEqual({
      available: '5.00',
      held: '0.00',
      creditLimit: '0.00',
      spendable: '5.00',
      currency: 'USD',
    });

    const list = await documented<{ items: unknown[] }>(
      await client.get('/api/services'),
      'GET',
      '/api/services',
    );
    expect(list.items.length).toBeGreaterThan(0);
    for (const item of list.items) ServiceDtoSchema.parse(item);
    await documented(await client.get(`/api/services/${imeiService}`), 'GET', '/api/services/:id');
    await documented(
      await client.get('/api/services/categories'),
      'GET',
      '/api/services/categories',
    );

    const key = 'openapi-order-1';
    const placed = await client.request(
      'POST',
      '/api/orders',
      { serviceId: imeiService, fields: { imei: VALID_IMEI } },
      { 'Idempotency-Key': key },
    );
    expect(placed.status).toBe(201);
    const order = OrderDtoSchema.parse(await documented(placed, 'POST', '/api/orders'));
    expect(order.events).toBeUndefined();
    const replay = await client.request(
      'POST',
      '/api/orders',
      { serviceId: imeiService, fields: { imei: VALID_IMEI } },
      { 'Idempotency-Key': key },
    );
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    await documented(replay, 'POST', '/api/orders');

    const detail = OrderDtoSchema.parse(
      await documented(await client.get(`/api/orders/${order.id}`), 'GET', '/api/orders/:id'),
    );
    expect(detail.events?.length).toBe(1);
    const page = await documented<{ items: unknown[] }>(
      await client.get('/api/orders?status=pending'),
      'GET',
      '/api/orders',
    );
    expect(page.items).toHaveLength(1);
    await documented(await client.get('/api/orders/summary'), 'GET', '/api/orders/summary');
    await documented(
      await client.post('/api/orders/bulk', {
        serviceId: imeiService,
        imeis: [imei(1), 'nope', imei(1)].join('\n'),
      }),
      'POST',
      '/api/orders/bulk',
    );
    await documented(
      await client.post(`/api/orders/${order.id}/cancel`),
      'POST',
      '/api/orders/:id/cancel',
    );
    await documented(await client.get('/api/wallet/movements'), 'GET', '/api/wallet/movements');
    await documented(await client.get('/api/wallet/topups'), 'GET', '/api/wallet/topups');
    await documented(await client.get('/api/funds/methods'), 'GET', '/api/funds/methods');
    await documented(await client.get('/api/funds/stripe'), 'GET', '/api/funds/stripe');
    await documented(await client.get('/api/funds/requests'), 'GET', '/api/funds/requests');
  });

  it('real error answers are documented error bodies with documented codes', async () => {
    const { client: poor } = await registerVerified(t);
    const noFunds = await poor.post('/api/orders', {
      serviceId: imeiService,
      fields: { imei: imei(7) },
    });
    expect(noFunds.status).toBe(402);
    expect(await documented(noFunds, 'POST', '/api/orders')).toMatchObject({
      code: 'INSUFFICIENT_FUNDS',
    });

    const invalid = await poor.post('/api/orders', {
      serviceId: imeiService,
      fields: { imei: '359702373699041' },
    });
    expect(invalid.status).toBe(400);
    const body = ApiErrorBodySchema.parse(await documented(invalid, 'POST', '/api/orders'));
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.fields?.imei).toMatch(/IMEI/);

    const notJson = await poor.request('POST', '/api/orders', undefined, {
      'Content-Type': 'application/json',
    });
    expect(notJson.status).toBe(400);
    await documented(notJson, 'POST', '/api/orders');

    const missing = await poor.get('/api/orders/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    await documented(missing, 'GET', '/api/orders/:id');

    const anonymous: TestClient = t.client();
    const unauthenticated = await anonymous.get('/api/wallet');
    expect(unauthenticated.status).toBe(401);
    await documented(unauthenticated, 'GET', '/api/wallet');

    const forbidden = await poor.get('/api/admin/services');
    expect(forbidden.status).toBe(403);
    await documented(forbidden, 'GET', '/api/admin/services');

    const badFilter = await poor.get('/api/orders?status=nada');
    expect(badFilter.status).toBe(400);
    await documented(badFilter, 'GET', '/api/orders');
  });

  it('admin answers match the documented schemas', async () => {
    const c = admin.client;
    await documented(await c.get('/api/admin/services'), 'GET', '/api/admin/services');
    await documented(
      await c.get(`/api/admin/services/${imeiService}`),
      'GET',
      '/api/admin/services/:id',
    );
    await documented(
      await c.get(`/api/admin/services/${imeiService}/audit`),
      'GET',
      '/api/admin/services/:id/audit',
    );
    await documented(await c.get('/api/admin/orders'), 'GET', '/api/admin/orders');
    await documented(await c.get('/api/admin/funds/methods'), 'GET', '/api/admin/funds/methods');
    await documented(await c.get('/api/admin/funds/requests'), 'GET', '/api/admin/funds/requests');
    await documented(await c.get('/api/admin/vouchers'), 'GET', '/api/admin/vouchers');
    await documented(await c.get('/api/admin/users?q=example'), 'GET', '/api/admin/users');
    const batch = await c.post('/api/admin/vouchers', { amount: '1.00', count: 1 });
    expect(batch.status).toBe(201);
    await documented(batch, 'POST', '/api/admin/vouchers');
    const bulk = await c.post('/api/admin/orders/bulk-complete', {
      text: '#99999999 Código\n¿?',
    });
    expect(bulk.status).toBe(200);
    await documented(bulk, 'POST', '/api/admin/orders/bulk-complete');
    const empty = await c.post('/api/admin/orders/bulk-complete', { text: '' });
    expect(empty.status).toBe(400);
    await documented(empty, 'POST', '/api/admin/orders/bulk-complete');
  });
});

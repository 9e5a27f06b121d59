// Regression tests for the classes of failure an attack test found (each named after its bug).
// The general sweeps are authz-matrix.test.ts and fuzz.test.ts; these pin the examples.
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiErrorBodySchema } from '../../shared/error-codes';
import { contactMessage } from '../db/schema/contact';
import {
  TEST_ORIGIN,
  createTestApp,
  registerVerified,
  type TestApp,
  type TestClient,
} from '../../tests/setup/test-app';
import { dbTargets } from '../../tests/setup/test-db';

describe.each(dbTargets())('hardening at the edge on %s', (target) => {
  let t: TestApp;
  let customer: TestClient;
  let ip = 0;

  /** A raw request with the app's origin, as a browser or script would send it. */
  function raw(
    method: string,
    url: string,
    init: { body?: BodyInit; headers?: Record<string, string> } = {},
  ) {
    ip += 1;
    const init2: RequestInit & { duplex?: 'half' } = {
      method,
      headers: {
        Origin: TEST_ORIGIN,
        'x-cometa-client-ip': `10.9.${ip >> 8}.${ip & 255}`,
        ...init.headers,
      },
      body: init.body,
      ...(init.body instanceof ReadableStream ? { duplex: 'half' } : {}),
    };
    return t.app.request(url, init2);
  }

  async function errorOf(res: Response) {
    return ApiErrorBodySchema.parse(await res.json());
  }

  beforeAll(async () => {
    t = await createTestApp(target);
    customer = (await registerVerified(t)).client;
  });
  afterAll(async () => {
    await t.close();
  });

  it('regression: a NUL byte in the contact form was a 500 for anonymous callers', async () => {
    const before = (await t.database.db.select().from(contactMessage)).length;
    const res = await raw('POST', '/api/contact', {
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: 'Ana',
        email: 'ana@example.com',
        message: 'hola\u0000 mundo, ¿qué tal?',
      }),
    });
    expect(res.status).toBe(400);
    const body = await errorOf(res);
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.fields?.message).toMatch(/caracteres de control/);
    expect((await t.database.db.select().from(contactMessage)).length).toBe(before);
  });

  it('regression: NUL in a search (`q`) and a lone surrogate in an order field were 500s', async () => {
    const search = await customer.get('/api/orders?q=359702373699048%00');
    expect(search.status).toBe(400);
    expect((await errorOf(search)).fields?.q).toMatch(/caracteres de control/);
    // An invalid UTF-8 sequence in a URL is not text: it stays percent-encoded, matches nothing.
    expect((await customer.get('/api/orders?q=%ED%A0%80')).status).toBe(200);
    const order = await customer.post('/api/orders', {
      serviceId: '00000000-0000-4000-8000-000000000000',
      fields: { imei: '35970237369904\ud800' },
    });
    expect(order.status).toBe(400);
    expect((await errorOf(order)).fields?.['fields.imei']).toMatch(/texto válido/);
  });

  it('regression: out-of-range dates in the filters were a 500', async () => {
    for (const from of [
      '-271821-04-20T00:00:00Z',
      '+275760-09-13T00:00:00Z',
      '2026-13-45T00:00:00Z',
      '0000-00-00',
    ]) {
      const res = await customer.get(`/api/orders?from=${encodeURIComponent(from)}`);
      expect(res.status, from).toBe(400);
      expect((await errorOf(res)).fields?.from, from).toMatch(/fecha/);
    }
  });

  it('regression: cursors with the right shape but impossible values were a 500', async () => {
    const orderCursor = Buffer.from(
      '2026-02-31T99:00:00.000000Z|00000000-0000-4000-8000-000000000000',
    ).toString('base64url');
    expect((await customer.get(`/api/orders?cursor=${orderCursor}`)).status).toBe(400);
    expect((await customer.get('/api/wallet/movements?cursor=99999999999999999999')).status).toBe(
      400,
    );
    expect((await customer.get('/api/wallet/movements?cursor=9223372036854775808')).status).toBe(
      400,
    );
    expect((await customer.get('/api/wallet/movements?cursor=9223372036854775807')).status).toBe(
      200,
    );
  });

  it('regression: a 64 MB body to /api/contact was read and parsed in full (413 before reading)', async () => {
    const declared = await raw('POST', '/api/contact', {
      headers: { 'Content-Type': 'application/json', 'Content-Length': String(64 * 1024 * 1024) },
      body: 'x',
    });
    expect(declared.status).toBe(413);
    expect((await errorOf(declared)).code).toBe('PAYLOAD_TOO_LARGE');

    // Without a length (chunked), the limit counts the stream and stops at the limit.
    let sent = 0;
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const stream = Readable.toWeb(
      Readable.from(
        (function* () {
          for (let i = 0; i < 1024; i++) {
            sent += chunk.length;
            yield chunk;
          }
        })(),
      ),
    ) as ReadableStream<Uint8Array>;
    const chunked = await raw('POST', '/api/contact', {
      headers: { 'Content-Type': 'application/json' },
      body: stream,
    });
    expect(chunked.status).toBe(413);
    expect(sent).toBeLessThan(8 * 1024 * 1024);
  });

  it('regression: JSON routes ignored Content-Type (text/plain placed an order): 415', async () => {
    const cookie = [...customer.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', '']) {
      const res = await raw('POST', '/api/orders', {
        headers: { Cookie: cookie, ...(type ? { 'Content-Type': type } : {}) },
        body: JSON.stringify({ serviceId: '00000000-0000-4000-8000-000000000000', fields: {} }),
      });
      expect(res.status, type || '(none)').toBe(415);
      expect((await errorOf(res)).code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
  });

  it('regression: a client X-Request-Id was echoed and logged as given', async () => {
    const good = await t.app.request('/healthz', { headers: { 'X-Request-Id': 'abc-123.DEF_4' } });
    expect(good.headers.get('x-request-id')).toBe('abc-123.DEF_4');
    for (const bad of ['a'.repeat(65), 'line\r\nbreak', '<script>', 'spa ce', 'ñ']) {
      let res: Response | null = null;
      try {
        res = await t.app.request('/healthz', { headers: { 'X-Request-Id': bad } });
      } catch {
        res = null; // the Headers API itself refuses CR/LF
      }
      if (!res) continue;
      const echoed = res.headers.get('x-request-id') ?? '';
      expect(echoed).not.toBe(bad);
      expect(echoed).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('a path parameter with NUL or an invalid UTF-8 sequence is a 404, never a 500', async () => {
    for (const id of ['%00', '%ED%A0%80', 'x'.repeat(5000), '..%2F..%2Fetc']) {
      const res = await customer.get(`/api/orders/${id}`);
      expect(res.status, id).toBe(404);
      expect((await errorOf(res)).code).toBe('NOT_FOUND');
    }
  });
});

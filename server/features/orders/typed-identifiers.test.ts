// Issue 20, "what people type is refused": IMEIs written with spaces, dashes, dots or slashes and
// links without a scheme, over every API that places orders (REST, bulk, DHRU, SMM) and in the
// order search — on both databases.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedApiKey } from '../../../shared/schemas/api-keys';
import type { AdminServiceDto } from '../../../shared/schemas/catalogue';
import type { BulkOrderResult, OrderDto, OrdersPage } from '../../../shared/schemas/orders';
import { order } from '../../db/schema/catalogue';
import { encodeParametersXml } from '../../suppliers/dhru-wire';
import { imeiFor } from '../../../tests/setup/imei';
import {
  createTestApp,
  registerVerified,
  signInAdmin,
  userIdOf,
  type TestApp,
} from '../../../tests/setup/test-app';
import { dbTargets } from '../../../tests/setup/test-db';

let seq = 0;
/** A fresh valid IMEI. */
function nextImei(): string {
  seq += 1;
  return imeiFor(`${Date.now() % 1_000_000}${String(seq).padStart(4, '0')}`);
}

/** «35-970237-369904-8»: an IMEI as printed on a box (2-6-6-1), with `sep` between the groups. */
function written(imei: string, sep: string): string {
  return [imei.slice(0, 2), imei.slice(2, 8), imei.slice(8, 14), imei.slice(14)].join(sep);
}

async function body<T>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  expect(res.status, text.slice(0, 400)).toBe(status);
  return JSON.parse(text) as T;
}

describe.each(dbTargets())('IMEIs and links as people write them on %s', (target) => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof signInAdmin>>;
  let imeiService: AdminServiceDto;
  let social: AdminServiceDto;

  async function customer(amount = '20.00') {
    const { client, email } = await registerVerified(t);
    const id = await userIdOf(t, email);
    expect(
      (
        await admin.client.post(`/api/admin/users/${id}/adjustments`, {
          amount,
          reason: 'Saldo de prueba',
        })
      ).status,
    ).toBe(201);
    const key = await body<CreatedApiKey>(
      await client.post('/api/keys', { name: 'Mi panel' }),
      201,
    );
    return { client, email, id, key: key.key };
  }

  /** A POST of a form as another panel's server sends it (no Origin, no cookie). */
  function postForm(path: string, fields: Record<string, string>) {
    return t.app.request(path, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        'x-cometa-client-ip': '203.0.113.30',
      },
      body: new URLSearchParams(fields).toString(),
    });
  }

  async function storedIdentifier(number: number): Promise<string | null> {
    const [row] = await t.database.db
      .select({ identifier: order.identifier, fields: order.fields })
      .from(order)
      .where(eq(order.number, number));
    return row?.identifier ?? null;
  }

  beforeAll(async () => {
    t = await createTestApp(target);
    admin = await signInAdmin(t);
    const create = (svc: Record<string, unknown>) =>
      admin.client.post('/api/admin/services', {
        description: 'Servicio de prueba.',
        deliveryTime: '1-24 horas',
        ...svc,
      });
    imeiService = await body<AdminServiceDto>(
      await create({
        category: 'IMEI',
        name: 'Consulta de operador',
        price: '0.50',
        fields: [{ key: 'imei', label: 'IMEI', type: 'imei', required: true, identifier: true }],
      }),
      201,
    );
    social = await body<AdminServiceDto>(
      await create({
        category: 'social',
        name: 'Seguidores',
        price: '1.20',
        unit: '1000',
        minQuantity: 100,
        maxQuantity: 5000,
        fields: [{ key: 'link', label: 'Enlace', type: 'url', required: true, identifier: true }],
      }),
      201,
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  it('REST POST /api/orders: an IMEI written with dashes, spaces, dots or slashes is stored and answered as its 15 digits', async () => {
    const c = await customer();
    for (const sep of ['-', ' ', '.', '/']) {
      const imei = nextImei();
      const placed = await body<OrderDto>(
        await c.client.post('/api/orders', {
          serviceId: imeiService.id,
          fields: { imei: written(imei, sep) },
        }),
        201,
      );
      expect(placed.fields).toEqual({ imei });
      expect(await storedIdentifier(placed.number)).toBe(imei);
    }
    // With a key, as programs call it.
    const imei = nextImei();
    const res = await t.app.request('/api/orders', {
      method: 'POST',
      headers: { Authorization: `Bearer ${c.key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ serviceId: imeiService.id, fields: { imei: written(imei, '-') } }),
    });
    expect((await body<OrderDto>(res, 201)).fields).toEqual({ imei });
  });

  it('bulk orders: lines written with separators are placed and answered as 15 digits; repeats are caught after normalising', async () => {
    const c = await customer();
    const [a, b] = [nextImei(), nextImei()];
    const result = await body<BulkOrderResult>(
      await c.client.post('/api/orders/bulk', {
        serviceId: imeiService.id,
        imeis: [written(a, '-'), written(b, ' '), a, '35 332211 000066'].join('\n'),
      }),
      200,
    );
    expect(result.placed).toBe(2);
    expect(result.results.map((r) => [r.line, r.imei, r.ok])).toEqual([
      [1, a, true],
      [2, b, true],
      [3, a, false],
      [4, '35 332211 000066', false],
    ]);
    expect(result.results[2]).toMatchObject({ message: 'Este IMEI está repetido en la lista.' });
    expect(result.results[3]).toMatchObject({ message: 'El IMEI debe tener 15 dígitos.' });
    for (const r of result.results) if (r.ok) expect(r.order.fields).toEqual({ imei: r.imei });
  });

  it('DHRU placeimeiorder: an IMEI with spaces or dashes is placed and stored as its 15 digits', async () => {
    const c = await customer();
    for (const sep of [' ', '-']) {
      const imei = nextImei();
      const res = await postForm('/api/index.php', {
        username: c.email,
        apiaccesskey: c.key,
        action: 'placeimeiorder',
        requestformat: 'JSON',
        parameters: encodeParametersXml({
          ID: String(imeiService.number),
          IMEI: written(imei, sep),
        }),
      });
      const answer = (await res.json()) as { SUCCESS?: { REFERENCEID: string }[] };
      const reference = Number(answer.SUCCESS?.[0]?.REFERENCEID);
      expect(reference, JSON.stringify(answer)).toBeGreaterThan(0);
      expect(await storedIdentifier(reference)).toBe(imei);
      const [row] = await t.database.db
        .select({ fields: order.fields, source: order.source })
        .from(order)
        .where(and(eq(order.number, reference), eq(order.userId, c.id)));
      expect(row).toEqual({ fields: { imei }, source: 'dhru' });
    }
  });

  it('the order search finds an IMEI however it is written, for the customer and in the admin queue', async () => {
    const c = await customer();
    const imei = nextImei();
    const placed = await body<OrderDto>(
      await c.client.post('/api/orders', { serviceId: imeiService.id, fields: { imei } }),
      201,
    );
    for (const q of [written(imei, '-'), written(imei, ' '), written(imei, '.')]) {
      const page = await body<OrdersPage>(
        await c.client.get(`/api/orders?q=${encodeURIComponent(q)}`),
        200,
      );
      expect(
        page.items.map((o) => o.number),
        q,
      ).toEqual([placed.number]);
      const queue = await body<OrdersPage>(
        await admin.client.get(`/api/admin/orders?q=${encodeURIComponent(q)}`),
        200,
      );
      expect(queue.items.map((o) => o.number)).toEqual([placed.number]);
    }
  });

  it('links without a scheme are completed to https:// over REST and the SMM API, and found as typed', async () => {
    const c = await customer();
    const path = `instagram.com/tienda${Date.now().toString(36)}`;
    const placed = await body<OrderDto>(
      await c.client.post('/api/orders', {
        serviceId: social.id,
        quantity: 1000,
        fields: { link: path },
      }),
      201,
    );
    expect(placed.fields).toEqual({ link: `https://${path}` });
    const found = await body<OrdersPage>(
      await c.client.get(`/api/orders?q=${encodeURIComponent(path)}`),
      200,
    );
    expect(found.items.map((o) => o.number)).toEqual([placed.number]);

    const smmPath = `www.tiktok.com/@tienda${Date.now().toString(36)}`;
    const added = (await (
      await postForm('/api/v2', {
        key: c.key,
        action: 'add',
        service: String(social.number),
        link: smmPath,
        quantity: '1000',
      })
    ).json()) as { order?: number; error?: string };
    expect(added.order, JSON.stringify(added)).toEqual(expect.any(Number));
    expect(await storedIdentifier(added.order ?? 0)).toBe(`https://${smmPath}`);
  });
});

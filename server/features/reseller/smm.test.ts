// Our SMM v2 server as the trade's client software calls it: forms, multipart, JSON and GET, with
// or without a trailing slash; and the DHRU endpoint at the path the kits build. Both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedApiKey } from '../../../shared/schemas/api-keys';
import type { AdminServiceDto } from '../../../shared/schemas/catalogue';
import { fundedCustomer, json, supplierKit, type Kit } from '../../../tests/setup/suppliers';
import { dbTargets } from '../../../tests/setup/test-db';

let links = 0;
function nextLink(): string {
  links += 1;
  return `https://instagram.com/p/smm${Date.now().toString(36)}${links}`;
}

describe.each(dbTargets())('the SMM v2 server on %s', (target) => {
  let kit: Kit;
  let social: AdminServiceDto;

  async function reseller(amount = '50.00') {
    const customer = await fundedCustomer(kit, amount);
    const created = await json<CreatedApiKey>(
      await customer.client.post('/api/keys', { name: 'Mi panel SMM' }),
      201,
    );
    return { ...customer, key: created.key };
  }

  /** A request as another panel's server sends it: no Origin, no cookie. */
  function call(path: string, init: RequestInit = {}) {
    return kit.t.app.request(path, {
      ...init,
      headers: { 'x-cometa-client-ip': '203.0.113.20', ...(init.headers ?? {}) },
    });
  }

  beforeAll(async () => {
    kit = await supplierKit(target);
    social = await json<AdminServiceDto>(
      await kit.admin.client.post('/api/admin/services', {
        category: 'social',
        name: 'Seguidores (SMM)',
        description: 'Seguidores reales.',
        deliveryTime: '1-24 horas',
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
    await kit?.close();
  });

  it('regression: an SMM client sending JSON got "Incorrect API key" for every action', async () => {
    const r = await reseller('10.00');
    const asJson = (body: unknown) =>
      call('/api/v2', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect(await (await asJson({ key: r.key, action: 'balance' })).json()).toEqual({
      balance: '10.00',
      currency: 'USD',
    });
    // Numbers as JSON numbers, a list of orders as a JSON array.
    const link = nextLink();
    const added = (await (
      await asJson({ key: r.key, action: 'add', service: social.number, link, quantity: 1000 })
    ).json()) as { order: number };
    expect(added.order).toEqual(expect.any(Number));
    const multi = (await (
      await asJson({ key: r.key, action: 'status', orders: [added.order, 999999999] })
    ).json()) as Record<string, { status?: string; error?: string }>;
    expect(multi[String(added.order)]?.status).toBe('Pending');
    expect(multi['999999999']).toEqual({ error: 'Incorrect order ID' });
  });

  it('answers the same over a form, multipart, JSON and GET (query string)', async () => {
    const r = await reseller('10.00');
    const fields = { key: r.key, action: 'balance' };
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    const answers = await Promise.all([
      call('/api/v2', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      }),
      call('/api/v2', { method: 'POST', body: form }),
      call('/api/v2', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json; charset=utf-8' },
        body: JSON.stringify(fields),
      }),
      call(`/api/v2?${new URLSearchParams(fields).toString()}`),
      // Urlencoded text without its content type, as a careless script sends it.
      call('/api/v2', { method: 'POST', body: new URLSearchParams(fields).toString() }),
    ]);
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toEqual({ balance: '10.00', currency: 'USD' });
    }
    // The body wins over the query string.
    const mixed = await call(`/api/v2?action=services&key=${r.key}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ action: 'balance' }).toString(),
    });
    expect(await mixed.json()).toEqual({ balance: '10.00', currency: 'USD' });
  });

  it('regression: `//api/index.php` and `/api/v2/` (site URLs with a trailing slash) answered a plain-text 404', async () => {
    const r = await reseller('10.00');
    for (const path of ['/api/v2/', '//api/v2', '//api/v2/', '/api//v2']) {
      const res = await call(path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ key: r.key, action: 'balance' }).toString(),
      });
      expect(res.status, path).toBe(200);
      expect(await res.json(), path).toEqual({ balance: '10.00', currency: 'USD' });
    }
    for (const path of ['//api/index.php', '/api/index.php/', '///api//index.php']) {
      const res = await call(path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          username: r.email,
          apiaccesskey: r.key,
          action: 'accountinfo',
        }).toString(),
      });
      expect(res.status, path).toBe(200);
      const body = (await res.json()) as { SUCCESS?: { AccountInfo: { creditraw: string } }[] };
      expect(body.SUCCESS?.[0]?.AccountInfo.creditraw, path).toBe('10.00');
    }
  });
});

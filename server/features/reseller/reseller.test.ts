// The reseller API as other panels use it: personal keys (REST with Bearer), our DHRU Fusion
// server driven by our own DHRU client (the supplier adapter) and by raw forms in both parameter
// dialects, and our SMM v2 server driven by our SMM client — on both databases.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedApiKey, ApiKeyList } from '../../../shared/schemas/api-keys';
import type { AdminServiceDto } from '../../../shared/schemas/catalogue';
import type { OrderDto, OrdersPage } from '../../../shared/schemas/orders';
import { queryRows } from '../../db/client';
import { order } from '../../db/schema/catalogue';
import { apiKey } from '../../db/schema/reseller';
import { createDhruAdapter } from '../../suppliers/dhru';
import { encodeParametersJson, encodeParametersXml } from '../../suppliers/dhru-wire';
import type { PostResult } from '../../suppliers/http';
import { createSmmAdapter } from '../../suppliers/smm';
import type { SupplierConnection, Transport } from '../../suppliers/types';
import { imeiFor } from '../../../tests/setup/imei';
import {
  connectDhru,
  expectLedgerClean,
  fundedCustomer,
  importServices,
  json,
  supplierKit,
  type Kit,
} from '../../../tests/setup/suppliers';
import { userIdOf } from '../../../tests/setup/test-app';
import { dbTargets } from '../../../tests/setup/test-db';
import { balances } from '../ledger/ledger.service';

let seq = 0;
function nextImei(): string {
  seq += 1;
  return imeiFor(`${Date.now() % 1_000_000}${String(seq).padStart(4, '0')}`);
}

describe.each(dbTargets())('the reseller API on %s', (target) => {
  let kit: Kit;
  let imeiService: AdminServiceDto;
  let licence: AdminServiceDto;
  let social: AdminServiceDto;
  let pack: AdminServiceDto;

  /** A POST of a form to our app, as another panel's server sends it (no Origin, no cookie). */
  async function postForm(path: string, fields: Record<string, string>, ip = '203.0.113.9') {
    return kit.t.app.request(path, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        'x-cometa-client-ip': ip,
      },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /** Our own protocol clients (the supplier adapters), talking to our app in-process. */
  function transportTo(path: string): Transport {
    return async (_action, fields) => {
      const started = performance.now();
      const res = await postForm(path, fields);
      return {
        kind: 'response',
        status: res.status,
        contentType: res.headers.get('content-type'),
        body: await res.text(),
        ms: Math.round(performance.now() - started),
      } satisfies PostResult;
    };
  }

  function dhruClient(email: string, key: string, dialect: 'xml' | 'json' = 'xml') {
    const conn: SupplierConnection = {
      id: 'downstream',
      protocol: 'dhru',
      url: 'http://cometa.test',
      username: email,
      apiKey: key,
      settings: { dhruParameters: dialect },
    };
    return createDhruAdapter(conn, transportTo('/api/index.php'));
  }

  function smmClient(key: string) {
    const conn: SupplierConnection = {
      id: 'downstream',
      protocol: 'smm',
      url: 'http://cometa.test',
      username: null,
      apiKey: key,
      settings: {},
    };
    return createSmmAdapter(conn, transportTo('/api/v2'));
  }

  async function reseller(amount = '50.00') {
    const customer = await fundedCustomer(kit, amount);
    const created = await json<CreatedApiKey>(
      await customer.client.post('/api/keys', { name: 'Mi panel DHRU' }),
      201,
    );
    return { ...customer, key: created.key, keyId: created.id };
  }

  async function createService(body: Record<string, unknown>): Promise<AdminServiceDto> {
    return json<AdminServiceDto>(
      await kit.admin.client.post('/api/admin/services', {
        description: 'Servicio de prueba para revendedores.',
        deliveryTime: '1-24 horas',
        ...body,
      }),
      201,
    );
  }

  beforeAll(async () => {
    kit = await supplierKit(target);
    imeiService = await createService({
      category: 'IMEI',
      name: 'Consulta de operador (API)',
      price: '0.50',
      fields: [{ key: 'imei', label: 'IMEI', type: 'imei', required: true, identifier: true }],
    });
    licence = await createService({
      category: 'licenses',
      name: 'Licencia de herramienta (API)',
      price: '3.00',
      fields: [
        { key: 'username', label: 'Usuario', type: 'username', required: true, identifier: true },
        {
          key: 'plan',
          label: 'Plan',
          type: 'select',
          required: true,
          options: ['Mensual', 'Anual'],
        },
      ],
    });
    social = await createService({
      category: 'social',
      name: 'Seguidores (API)',
      price: '1.20',
      unit: '1000',
      minQuantity: 100,
      maxQuantity: 5000,
      fields: [{ key: 'link', label: 'Enlace', type: 'url', required: true, identifier: true }],
    });
    pack = await createService({
      category: 'social',
      name: 'Paquete de promoción (API)',
      price: '4.00',
      fields: [{ key: 'link', label: 'Enlace', type: 'url', required: true, identifier: true }],
    });
  });
  afterAll(async () => {
    await kit?.close();
  });

  describe('personal API keys', () => {
    it('creates a key shown once, lists it without the secret, stores only a hash', async () => {
      const r = await reseller();
      expect(r.key).toMatch(/^cmt_[A-Za-z0-9_-]{40}$/);
      const list = await json<ApiKeyList>(await r.client.get('/api/keys'), 200);
      expect(list.items).toEqual([
        expect.objectContaining({
          name: 'Mi panel DHRU',
          prefix: r.key.slice(0, 12),
          lastUsedAt: null,
        }),
      ]);
      expect(JSON.stringify(list)).not.toContain(r.key);
      const [row] = await kit.t.database.db.select().from(apiKey).where(eq(apiKey.id, r.keyId));
      expect(row?.keyHash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(row)).not.toContain(r.key);
    });

    it('acts as its customer on the REST API with Bearer, never as an admin, and places "api" orders', async () => {
      const r = await reseller();
      const bearer = (url: string, init: RequestInit = {}) =>
        kit.t.app.request(url, {
          ...init,
          headers: { Authorization: `Bearer ${r.key}`, ...(init.headers ?? {}) },
        });
      const wallet = await json<{ available: string }>(await bearer('/api/wallet'), 200);
      expect(wallet.available).toBe('50.00');
      const placed = await json<OrderDto>(
        await bearer('/api/orders', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ serviceId: imeiService.id, fields: { imei: nextImei() } }),
        }),
        201,
      );
      expect(placed).toMatchObject({ source: 'api', sourceLabel: 'API' });
      expect((await bearer('/api/admin/orders')).status).toBe(403);
      // Even the key of an admin account is only a customer key.
      const adminKey = await json<CreatedApiKey>(
        await kit.admin.client.post('/api/keys', { name: 'Clave de la administradora' }),
        201,
      );
      const asAdmin = await kit.t.app.request('/api/admin/orders', {
        headers: { Authorization: `Bearer ${adminKey.key}` },
      });
      expect(asAdmin.status).toBe(403);
      expect(((await asAdmin.json()) as { message: string }).message).toMatch(
        /actúa como su cliente/,
      );
      // A key cannot make more keys.
      const more = await bearer('/api/keys', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'otra' }),
      });
      expect(more.status).toBe(403);
      // Last use is recorded.
      const [row] = await kit.t.database.db.select().from(apiKey).where(eq(apiKey.id, r.keyId));
      expect(row?.lastUsedAt).toBeInstanceOf(Date);
    });

    it('refuses wrong, revoked and foreign-address keys at once', async () => {
      const r = await reseller();
      const wrong = await kit.t.app.request('/api/wallet', {
        headers: { Authorization: `Bearer ${r.key}x` },
      });
      expect(wrong.status).toBe(401);
      expect(((await wrong.json()) as { message: string }).message).toMatch(
        /clave API no es válida/,
      );
      const malformed = await kit.t.app.request('/api/wallet', {
        headers: { Authorization: 'Basic abc' },
      });
      expect(malformed.status).toBe(401);
      await json(await r.client.request('DELETE', `/api/keys/${r.keyId}`), 200);
      const revoked = await kit.t.app.request('/api/wallet', {
        headers: { Authorization: `Bearer ${r.key}` },
      });
      expect(revoked.status).toBe(401);
      expect((await json<ApiKeyList>(await r.client.get('/api/keys'), 200)).items).toEqual([]);
      const dhru = await dhruClient(r.email, r.key).balance();
      expect(dhru).toMatchObject({
        ok: false,
        kind: 'refused-supplier',
        message: 'Authentication Failed',
      });
      const smm = await smmClient(r.key).balance();
      expect(smm).toMatchObject({ ok: false, message: 'Incorrect API key' });

      const bound = await json<CreatedApiKey>(
        await r.client.post('/api/keys', {
          name: 'Solo desde mi servidor',
          allowedIps: ['198.51.100.0/24', '2001:db8::1'],
        }),
        201,
      );
      expect(bound.allowedIps).toEqual(['198.51.100.0/24', '2001:db8::1']);
      const from = (ip: string) =>
        kit.t.app.request('/api/wallet', {
          headers: { Authorization: `Bearer ${bound.key}`, 'x-cometa-client-ip': ip },
        });
      expect((await from('198.51.100.77')).status).toBe(200);
      const elsewhere = await from('203.0.113.5');
      expect(elsewhere.status).toBe(403);
      expect(((await elsewhere.json()) as { message: string }).message).toContain('203.0.113.5');
      const bad = await json<{ fields: Record<string, string> }>(
        await r.client.post('/api/keys', { name: 'x', allowedIps: ['999.1.1.1', '10.0.0.0/40'] }),
        400,
      );
      expect(Object.keys(bad.fields)).toEqual(['allowedIps.0', 'allowedIps.1']);
    });

    it('limits requests per key with a clear error', async () => {
      const r = await reseller();
      // The key's counter for this minute, as if it had made a million requests.
      await kit.t.database.db.execute(
        sql`INSERT INTO rate_limit (key, count, window_start_ms) VALUES (${`apikey:${r.keyId}`}, 1000000, ${Date.now()}) ON CONFLICT (key) DO UPDATE SET count = 1000000, window_start_ms = ${Date.now()}`,
      );
      const res = await kit.t.app.request('/api/wallet', {
        headers: { Authorization: `Bearer ${r.key}` },
      });
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(((await res.json()) as { message: string }).message).toMatch(
        /Demasiadas peticiones con esta clave API/,
      );
      const dhru = await postForm('/api/index.php', {
        username: r.email,
        apiaccesskey: r.key,
        action: 'accountinfo',
      });
      expect(await dhru.json()).toMatchObject({
        ERROR: [{ MESSAGE: 'Too many requests, try again later' }],
      });
    });
  });

  describe('DHRU Fusion server', () => {
    it('answers every action to a DHRU client, in both parameter dialects', async () => {
      for (const dialect of ['xml', 'json'] as const) {
        const r = await reseller('10.00');
        const client = dhruClient(r.email, r.key, dialect);
        const balance = await client.balance();
        expect(balance).toMatchObject({ ok: true, value: { balance: '10.00', currency: 'USD' } });
        const services = await client.services();
        if (!services.ok) throw new Error(services.message);
        const mine = services.value.services.find((s) => s.remoteId === String(imeiService.number));
        expect(mine).toMatchObject({
          name: imeiService.name,
          costMicros: 500_000n,
          importable: true,
          fields: [expect.objectContaining({ key: 'imei', param: 'IMEI', type: 'imei' })],
        });
        const lic = services.value.services.find((s) => s.remoteId === String(licence.number));
        expect(lic?.fields.map((f) => [f.param, f.type])).toEqual([
          ['CUSTOMFIELD:username', 'username'],
          ['CUSTOMFIELD:plan', 'select'],
        ]);
        // Per-1000 services are sold over SMM, not listed here.
        expect(services.value.services.some((s) => s.remoteId === String(social.number))).toBe(
          false,
        );

        const imei = nextImei();
        const placed = await client.place({
          remoteId: String(imeiService.number),
          params: { IMEI: imei },
          quantity: 1,
        });
        if (!placed.ok) throw new Error(placed.message);
        const number = Number(placed.value.reference);
        const [row] = await kit.t.database.db.select().from(order).where(eq(order.number, number));
        expect(row).toMatchObject({ userId: r.id, source: 'dhru', status: 'pending', price: 50n });
        expect(row?.fields).toEqual({ imei });

        const withFields = await client.place({
          remoteId: String(licence.number),
          params: {
            'CUSTOMFIELD:username': `revendedor_${dialect}`,
            'CUSTOMFIELD:plan': 'Anual',
          },
          quantity: 1,
        });
        if (!withFields.ok) throw new Error(withFields.message);
        const [lic2] = await kit.t.database.db
          .select()
          .from(order)
          .where(eq(order.number, Number(withFields.value.reference)));
        expect(lic2?.fields).toEqual({ username: `revendedor_${dialect}`, plan: 'Anual' });

        // The admin completes one with a multi-line result: the client reads it as text.
        await json(
          await kit.admin.client.post(`/api/admin/orders/${row?.id}/complete`, {
            result: 'Operador: Movistar\nBloqueo: no',
          }),
          200,
        );
        const statuses = await client.status([
          placed.value.reference,
          withFields.value.reference,
          '999999',
        ]);
        if (!statuses.ok) throw new Error(statuses.message);
        expect(statuses.value.get(placed.value.reference)).toEqual({
          state: 'completed',
          result: 'Operador: Movistar\nBloqueo: no',
        });
        expect(statuses.value.get(withFields.value.reference)).toMatchObject({
          state: 'processing',
        });
        expect(statuses.value.get('999999')).toMatchObject({ state: 'not-found' });
      }
      await expectLedgerClean(kit);
    });

    it('gives each failure its own message and never answers HTML', async () => {
      const r = await reseller('0.60');
      const form = (fields: Record<string, string>) =>
        postForm('/api/index.php', {
          username: r.email,
          apiaccesskey: r.key,
          requestformat: 'JSON',
          ...fields,
        });
      const expectError = async (res: Response, message: string) => {
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/application\/json/);
        expect(res.headers.get('x-powered-by')).toBe('DHRU-FUSION');
        expect(res.headers.get('dhru-fusion-api-version')).toBe('6.1');
        const body = (await res.json()) as {
          ERROR?: { MESSAGE: string; FULL_DESCRIPTION?: string }[];
          apiversion: string;
        };
        expect(body.ERROR?.[0]?.MESSAGE, JSON.stringify(body)).toBe(message);
        expect(body.apiversion).toBe('6.1');
        return body.ERROR?.[0]?.FULL_DESCRIPTION;
      };
      await expectError(
        await postForm('/api/index.php', {
          username: 'otra@example.com',
          apiaccesskey: r.key,
          action: 'accountinfo',
        }),
        'Authentication Failed',
      );
      await expectError(await form({ action: 'placeicecream' }), 'Invalid Action');
      await expectError(
        await form({ action: 'placeimeiorder', parameters: 'no es nada' }),
        'Invalid parameters',
      );
      await expectError(
        await form({
          action: 'placeimeiorder',
          parameters:
            '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><PARAMETERS><ID>&e;</ID></PARAMETERS>',
        }),
        'Invalid parameters',
      );
      await expectError(
        await form({
          action: 'placeimeiorder',
          parameters: encodeParametersXml({ ID: '999999', IMEI: nextImei() }),
        }),
        'Invalid Service ID',
      );
      const full = await expectError(
        await form({
          action: 'placeimeiorder',
          parameters: encodeParametersXml({
            ID: String(imeiService.number),
            IMEI: '359702373699040',
          }),
        }),
        'Invalid IMEI',
      );
      expect(full).toMatch(/IMEI no es válido/);
      const imei = nextImei();
      const first = await form({
        action: 'placeimeiorder',
        parameters: encodeParametersJson({ ID: String(imeiService.number), IMEI: imei }),
      });
      expect(await first.json()).toMatchObject({ SUCCESS: [{ MESSAGE: 'Order received' }] });
      await expectError(
        await form({
          action: 'placeimeiorder',
          parameters: encodeParametersJson({ ID: String(imeiService.number), IMEI: imei }),
        }),
        'Duplicate IMEI',
      );
      await expectError(
        await form({
          action: 'placeimeiorder',
          parameters: encodeParametersJson({ ID: String(imeiService.number), IMEI: nextImei() }),
        }),
        'Not enough credits',
      );
      await expectError(
        await form({
          action: 'getimeiorder',
          parameters: encodeParametersXml({ ID: '123456789' }),
        }),
        'Order not found',
      );
      // Someone else's order is not found either.
      const other = await reseller();
      const theirs = await dhruClient(other.email, other.key).place({
        remoteId: String(imeiService.number),
        params: { IMEI: nextImei() },
        quantity: 1,
      });
      if (!theirs.ok) throw new Error(theirs.message);
      await expectError(
        await form({
          action: 'getimeiorder',
          parameters: encodeParametersXml({ ID: theirs.value.reference }),
        }),
        'Order not found',
      );
      // Bad bytes are a refusal, not a 500.
      await expectError(await form({ action: 'accountinfo\u0000' }), 'Invalid parameters');
      const notForm = await kit.t.app.request('/api/index.php', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"username":"x"}',
      });
      expect(await notForm.json()).toMatchObject({ ERROR: [{ MESSAGE: 'Authentication Failed' }] });
      expect(await balances(kit.t.database.db, r.id)).toEqual({ available: 10n, held: 50n });
    });

    it('places a bulk with mixed rows, each answered by its own reference, and reads a bulk status', async () => {
      const r = await reseller('1.20');
      const good = [nextImei(), nextImei()];
      const rows = {
        a1: { ID: String(imeiService.number), IMEI: good[0] },
        a2: { ID: String(imeiService.number), IMEI: '12345' },
        a3: { ID: '999999', IMEI: nextImei() },
        a4: { ID: String(imeiService.number), IMEI: good[1] },
        a5: { ID: String(imeiService.number), IMEI: nextImei() },
      };
      const res = await postForm('/api/index.php', {
        username: r.email,
        apiaccesskey: r.key,
        action: 'placeimeiorderbulk',
        parameters: Buffer.from(JSON.stringify(rows)).toString('base64'),
      });
      const body = (await res.json()) as Record<
        string,
        { SUCCESS?: { REFERENCEID: string }[]; ERROR?: { MESSAGE: string }[] }
      >;
      expect(body.apiversion).toBe('6.1');
      expect(body.a1?.SUCCESS?.[0]?.REFERENCEID).toMatch(/^\d+$/);
      expect(body.a2?.ERROR?.[0]?.MESSAGE).toBe('Invalid IMEI');
      expect(body.a3?.ERROR?.[0]?.MESSAGE).toBe('Invalid Service ID');
      expect(body.a4?.SUCCESS?.[0]?.REFERENCEID).toMatch(/^\d+$/);
      expect(body.a5?.ERROR?.[0]?.MESSAGE).toBe('Not enough credits'); // 1.20 pays for two
      const refs = { x: { ID: body.a1?.SUCCESS?.[0]?.REFERENCEID }, y: { ID: '777777777' } };
      const status = await postForm('/api/index.php', {
        username: r.email,
        apiaccesskey: r.key,
        action: 'getimeiorderbulk',
        parameters: Buffer.from(JSON.stringify(refs)).toString('base64'),
      });
      expect(await status.json()).toEqual({
        x: { SUCCESS: [{ STATUS: 0, CODE: '', IMEI: good[0], COMMENTS: 'Pendiente' }] },
        y: { ERROR: [{ MESSAGE: 'Order not found' }] },
        apiversion: '6.1',
      });
    });

    it('100 parallel placeimeiorder calls against a balance for 10 place exactly 10', async () => {
      const r = await reseller('5.00'); // 10 × 0.50
      const client = dhruClient(r.email, r.key, 'json');
      const results = await Promise.all(
        Array.from({ length: 100 }, () =>
          client.place({
            remoteId: String(imeiService.number),
            params: { IMEI: nextImei() },
            quantity: 1,
          }),
        ),
      );
      const placed = results.filter((x) => x.ok);
      expect(placed).toHaveLength(10);
      // Every refusal is the supplier-level "Not enough credits" (with our words after it).
      for (const x of results) if (!x.ok) expect(x.message).toMatch(/^Not enough credits/);
      expect(await balances(kit.t.database.db, r.id)).toEqual({ available: 0n, held: 500n });
      await expectLedgerClean(kit);
    });
  });

  describe('SMM v2 server', () => {
    let links = 0;
    const nextLink = () => `https://instagram.com/reventa_${Date.now()}_${(links += 1)}`;

    it('answers services, add, status (one and many), balance and cancel to an SMM client', async () => {
      const r = await reseller('20.00');
      const client = smmClient(r.key);
      const services = await client.services();
      if (!services.ok) throw new Error(services.message);
      expect(
        services.value.services.find((s) => s.remoteId === String(social.number)),
      ).toMatchObject({
        type: 'Default',
        unit: '1000',
        costMicros: 1_200_000n,
        minQuantity: 100,
        maxQuantity: 5000,
        importable: true,
      });
      expect(services.value.services.find((s) => s.remoteId === String(pack.number))).toMatchObject(
        {
          type: 'Package',
          unit: 'order',
        },
      );
      // An IMEI service cannot be ordered with a link and a quantity.
      expect(services.value.services.some((s) => s.remoteId === String(imeiService.number))).toBe(
        false,
      );

      const link = nextLink();
      const added = await client.place({
        remoteId: String(social.number),
        params: { link },
        quantity: 1000,
      });
      if (!added.ok) throw new Error(added.message);
      const [row] = await kit.t.database.db
        .select()
        .from(order)
        .where(eq(order.number, Number(added.value.reference)));
      expect(row).toMatchObject({ source: 'smm', quantity: 1000, price: 120n, fields: { link } });
      const second = await client.place({
        remoteId: String(social.number),
        params: { link: nextLink() },
        quantity: 500,
      });
      if (!second.ok) throw new Error(second.message);
      const many = await client.status([added.value.reference, second.value.reference, '424242']);
      if (!many.ok) throw new Error(many.message);
      expect(many.value.get(added.value.reference)).toMatchObject({ state: 'processing' });
      expect(many.value.get('424242')).toMatchObject({ state: 'not-found' });
      const one = await postForm('/api/v2', {
        key: r.key,
        action: 'status',
        order: added.value.reference,
      });
      expect(await one.json()).toEqual({
        charge: '1.20',
        start_count: '0',
        status: 'Pending',
        remains: '1000',
        currency: 'USD',
      });
      const balance = await client.balance();
      expect(balance).toMatchObject({ ok: true, value: { balance: '18.20', currency: 'USD' } });

      const cancel = await postForm('/api/v2', {
        key: r.key,
        action: 'cancel',
        orders: `${added.value.reference},999999`,
      });
      expect(await cancel.json()).toEqual([
        { order: Number(added.value.reference), cancel: 1 },
        { order: 999999, cancel: { error: 'Incorrect order ID' } },
      ]);
      const afterCancel = await postForm('/api/v2', {
        key: r.key,
        action: 'status',
        order: added.value.reference,
      });
      expect(await afterCancel.json()).toMatchObject({ status: 'Canceled', charge: '0.00' });
      expect(await balances(kit.t.database.db, r.id)).toEqual({ available: 1940n, held: 60n });
    });

    it('answers errors as { error } with HTTP 200', async () => {
      const r = await reseller('0.10');
      const call = async (fields: Record<string, string>, error: string | RegExp) => {
        const res = await postForm('/api/v2', { key: r.key, ...fields });
        expect(res.status).toBe(200);
        const body = (await res.json()) as { error?: string };
        if (typeof error === 'string') expect(body.error).toBe(error);
        else expect(body.error).toMatch(error);
      };
      await call({ key: 'cmt_nope', action: 'balance' }, 'Incorrect API key');
      await call({ action: 'fly' }, 'Incorrect request');
      await call(
        { action: 'add', service: '424242', link: nextLink(), quantity: '100' },
        'Incorrect service ID',
      );
      await call(
        { action: 'add', service: String(social.number), link: nextLink(), quantity: '10' },
        'Quantity less than minimal 100',
      );
      await call(
        { action: 'add', service: String(social.number), link: nextLink(), quantity: '9999' },
        'Quantity more than maximum 5000',
      );
      await call(
        { action: 'add', service: String(social.number), link: 'no es un enlace', quantity: '100' },
        'Incorrect link',
      );
      await call(
        { action: 'add', service: String(social.number), link: nextLink(), quantity: '1000' },
        'Not enough funds on balance',
      );
      await call(
        {
          action: 'status',
          orders: Array.from({ length: 101 }, (_, i) => String(i + 1)).join(','),
        },
        /Up to 100/,
      );
      await call({ action: 'refill', order: '1' }, 'Incorrect order ID');
      const limitedLink = nextLink();
      const r2 = await reseller('20.00');
      const ok = await postForm('/api/v2', {
        key: r2.key,
        action: 'add',
        service: String(social.number),
        link: limitedLink,
        quantity: '100',
      });
      expect(typeof ((await ok.json()) as { order?: unknown }).order).toBe('number');
      const dup = await postForm('/api/v2', {
        key: r2.key,
        action: 'add',
        service: String(social.number),
        link: limitedLink,
        quantity: '100',
      });
      expect(await dup.json()).toEqual({
        error: 'You have active order with this link. Please wait until order being completed.',
      });
    });
  });

  describe('what other panels render', () => {
    /** Every string anywhere in a parsed JSON answer. */
    function strings(value: unknown): string[] {
      if (typeof value === 'string') return [value];
      if (Array.isArray(value)) return value.flatMap(strings);
      if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
      return [];
    }

    it('regression: supplier HTML reached resellers live (decoded after stripping, sent raw)', async () => {
      kit.fake.dhru.services.push({
        id: '9900',
        name: '&lt;script&gt;alert(1)&lt;/script&gt;Unlock &amp; check',
        group: 'Unlocks',
        groupType: 'IMEI',
        credit: '1.00',
        time: '1 &lt;i&gt;day&lt;/i&gt;',
        info: '&lt;img src=x onerror=alert(1)&gt;Fast: &lt; 1h',
      });
      const sup = await connectDhru(kit);
      const [imported] = await importServices(kit, sup.id, ['9900'], 'IMEI', 20);
      expect(imported).toMatchObject({
        name: 'Unlock & check',
        deliveryTime: '1 day',
        description: 'Fast: < 1h',
      });
      // A name typed by an admin with characters HTML gives meaning to.
      const typed = await createService({
        category: 'social',
        name: 'Vistas < 5 min & "oferta" <b>',
        description: 'Línea 1\n<script>alert(2)</script>',
        price: '2.00',
        fields: [{ key: 'link', label: 'Enlace', type: 'url', required: true, identifier: true }],
      });
      const r = await reseller();
      const dhru = (action: string, parameters = '') =>
        postForm('/api/index.php', {
          username: r.email,
          apiaccesskey: r.key,
          requestformat: 'JSON',
          action,
          parameters,
        });
      const list = (await (await dhru('imeiservicelist')).json()) as Record<string, unknown>;
      const details = (await (
        await dhru('getimeiservicedetails', encodeParametersXml({ ID: String(imported!.number) }))
      ).json()) as Record<string, unknown>;
      const smm = (await (
        await postForm('/api/v2', { key: r.key, action: 'services' })
      ).json()) as { service: number; name: string; desc: string; category: string }[];
      // Nothing a panel would run or render as markup, except our own line breaks.
      for (const text of [...strings(list), ...strings(details), ...strings(smm)]) {
        expect(text, text).not.toMatch(/<(?!br>)/i);
      }
      const entry = strings(list).find((t) => t.startsWith('Unlock'));
      expect(entry).toBe('Unlock &amp; check');
      expect(JSON.stringify(details)).toContain('"service_name":"Unlock &amp; check"');
      const mine = smm.find((x) => x.service === typed.number);
      expect(mine).toMatchObject({
        name: 'Vistas &lt; 5 min &amp; &quot;oferta&quot; &lt;b&gt;',
        desc: 'Línea 1<br>&lt;script&gt;alert(2)&lt;/script&gt;',
      });
      // Our own clients read the same text back.
      const back = await smmClient(r.key).services();
      if (!back.ok) throw new Error(back.message);
      expect(back.value.services.find((x) => x.remoteId === String(typed.number))?.name).toBe(
        'Vistas < 5 min & "oferta"',
      );
    });

    it('regression: deeply nested base64 JSON in DHRU parameters was a 500 (stack overflow)', async () => {
      const r = await reseller();
      const deep = (depth: number) =>
        Buffer.from(`${'['.repeat(depth)}1${']'.repeat(depth)}`).toString('base64');
      const nested = Buffer.from(
        JSON.stringify({
          ID: '1',
          CUSTOMFIELD: Buffer.from('{"a":'.repeat(50_000) + '1' + '}'.repeat(50_000)).toString(
            'base64',
          ),
        }),
      ).toString('base64');
      for (const [action, parameters] of [
        ['placeimeiorder', deep(200_000)],
        ['placeimeiorderbulk', deep(200_000)],
        [
          'getimeiorderbulk',
          Buffer.from(`{"a":${'{"b":'.repeat(100_000)}1${'}'.repeat(100_000)}}`).toString('base64'),
        ],
        ['placeimeiorder', nested],
      ] as const) {
        const res = await postForm('/api/index.php', {
          username: r.email,
          apiaccesskey: r.key,
          requestformat: 'JSON',
          action,
          parameters,
        });
        expect(res.status, action).toBe(200);
        const body = (await res.json()) as { ERROR?: { MESSAGE: string }[] };
        expect(body.ERROR?.[0]?.MESSAGE, action).toBe('Invalid parameters');
      }
    });
  });

  it('shows the source of each order to the customer and the admin', async () => {
    const r = await reseller();
    await dhruClient(r.email, r.key).place({
      remoteId: String(imeiService.number),
      params: { IMEI: nextImei() },
      quantity: 1,
    });
    await json(
      await r.client.post('/api/orders', {
        serviceId: imeiService.id,
        fields: { imei: nextImei() },
      }),
      201,
    );
    const mine = await json<OrdersPage>(await r.client.get('/api/orders'), 200);
    expect(mine.items.map((o) => o.sourceLabel).sort()).toEqual(['API DHRU', 'Web']);
    const id = await userIdOf(kit.t, r.email);
    const rows = await queryRows<{ source: string }>(
      kit.t.database.db,
      sql`SELECT source FROM "order" WHERE user_id = ${id}`,
    );
    expect(rows.map((x) => x.source).sort()).toEqual(['dhru', 'web']);
    const adminView = await json<OrdersPage>(
      await kit.admin.client.get(`/api/admin/orders?q=${mine.items[0]?.number}`),
      200,
    );
    expect(adminView.items[0]?.source).toBe(mine.items[0]?.source);
  });
});

// Suppliers as admins manage them, against the real app and the repository's fake supplier:
// connecting (tested first), keys sealed and never returned, catalogues, imports with a markup,
// routes, price sync, low-balance alerts, outbound address rules, and the customer's 403.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AdminServiceDto } from '../../../shared/schemas/catalogue';
import type {
  RemoteServiceList,
  SupplierDto,
  SupplierList,
  SupplierTestResult,
} from '../../../shared/schemas/suppliers';
import { service } from '../../db/schema/catalogue';
import { auditLog } from '../../db/schema/payments';
import { supplier, supplierLog } from '../../db/schema/suppliers';
import {
  FAKE_DHRU_API_KEY,
  FAKE_DHRU_USERNAME,
  FAKE_SMM_API_KEY,
} from '../../suppliers/fake-supplier';
import { createTestApp, registerVerified } from '../../../tests/setup/test-app';
import {
  connectDhru,
  connectSmm,
  expectLedgerClean,
  importServices,
  json,
  supplierKit,
  type Kit,
} from '../../../tests/setup/suppliers';
import { dbTargets } from '../../../tests/setup/test-db';
import { syncAll } from './sync.service';

describe.each(dbTargets())('suppliers (admin) on %s', (target) => {
  let kit: Kit;

  beforeAll(async () => {
    kit = await supplierKit(target);
  });
  afterAll(async () => {
    await kit?.close();
  });
  beforeEach(() => {
    kit.fake.reset();
  });

  it('refuses a supplier whose connection test fails, with the supplier own message, and saves nothing', async () => {
    const before = await kit.t.database.db.select().from(supplier);
    const res = await kit.admin.client.post('/api/admin/suppliers', {
      name: 'Clave equivocada',
      protocol: 'dhru',
      url: kit.fake.url,
      username: FAKE_DHRU_USERNAME,
      apiKey: 'XXX-XXX-XXX-XXX',
    });
    const body = await json<{ code: string; message: string }>(res, 422);
    expect(body.code).toBe('SUPPLIER_TEST_FAILED');
    expect(body.message).toContain('Authentication Failed');
    const smm = await json<{ code: string; message: string }>(
      await kit.admin.client.post('/api/admin/suppliers', {
        name: 'SMM equivocado',
        protocol: 'smm',
        url: kit.fake.url,
        apiKey: 'wrong-key',
      }),
      422,
    );
    expect(smm.message).toContain('Incorrect API key');
    expect(await kit.t.database.db.select().from(supplier)).toHaveLength(before.length);
  });

  it('connects a DHRU supplier after reading its balance; the key is sealed and never returned', async () => {
    const created = await connectDhru(kit, { lowBalanceThreshold: '10.00' });
    expect(created).toMatchObject({
      protocol: 'dhru',
      state: 'activo',
      stateLabel: 'Activo',
      balance: '100.00',
      currency: 'USD',
      lowBalanceThreshold: '10.00',
      apiKeyHint: `••••${FAKE_DHRU_API_KEY.slice(-4)}`,
    });
    expect(kit.fake.calls.map((c) => c.action)).toEqual(['accountinfo']);
    const list = await kit.admin.client.get('/api/admin/suppliers');
    const text = await list.clone().text();
    expect(text).not.toContain(FAKE_DHRU_API_KEY);
    const items = (await json<SupplierList>(list, 200)).items;
    expect(items.map((s) => s.id)).toContain(created.id);
    const [row] = await kit.t.database.db
      .select()
      .from(supplier)
      .where(eq(supplier.id, created.id));
    expect(row?.apiKeySealed).toMatch(/^v1\./);
    expect(row?.apiKeySealed).not.toContain(FAKE_DHRU_API_KEY);
    // The log keeps what was sent, the key redacted.
    const logs = await kit.t.database.db
      .select()
      .from(supplierLog)
      .where(eq(supplierLog.supplierId, created.id));
    expect(logs.length).toBeGreaterThan(0);
    for (const l of logs) {
      expect(JSON.stringify({ ...l, id: String(l.id) })).not.toContain(FAKE_DHRU_API_KEY);
      expect(l.request.apiaccesskey).toBe('***');
    }
    // The audit row holds the supplier, not its key.
    const audits = await kit.t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.targetId, created.id));
    expect(JSON.stringify(audits)).not.toContain(FAKE_DHRU_API_KEY);
  });

  it('tests a supplier on demand and marks it failing, then active again', async () => {
    const created = await connectSmm(kit);
    kit.fake.smm.maintenance = 'Service under maintenance';
    const failed = await json<SupplierTestResult>(
      await kit.admin.client.post(`/api/admin/suppliers/${created.id}/test`),
      200,
    );
    expect(failed.ok).toBe(false);
    expect(failed.message).toContain('Service under maintenance');
    expect(failed.supplier.state).toBe('fallando');
    expect(failed.supplier.lastError).toContain('Service under maintenance');
    delete kit.fake.smm.maintenance;
    const ok = await json<SupplierTestResult>(
      await kit.admin.client.post(`/api/admin/suppliers/${created.id}/test`),
      200,
    );
    expect(ok).toMatchObject({ ok: true, supplier: { state: 'activo', balance: '50.00' } });
    expect(ok.supplier.lastError).toBeNull();
  });

  it('tests new credentials before saving them, and disables and enables a supplier', async () => {
    const created = await connectSmm(kit);
    const refused = await json<{ code: string }>(
      await kit.admin.client.patch(`/api/admin/suppliers/${created.id}`, { apiKey: 'bad-key-0' }),
      422,
    );
    expect(refused.code).toBe('SUPPLIER_TEST_FAILED');
    const [unchanged] = await kit.t.database.db
      .select({ hint: supplier.apiKeyHint })
      .from(supplier)
      .where(eq(supplier.id, created.id));
    expect(unchanged?.hint).toBe(created.apiKeyHint);
    const disabled = await json<SupplierDto>(
      await kit.admin.client.patch(`/api/admin/suppliers/${created.id}`, {
        state: 'desactivado',
      }),
      200,
    );
    expect(disabled.state).toBe('desactivado');
    const enabled = await json<SupplierDto>(
      await kit.admin.client.patch(`/api/admin/suppliers/${created.id}`, {
        state: 'activo',
        apiKey: FAKE_SMM_API_KEY,
        settings: { maxConcurrency: 2 },
      }),
      200,
    );
    expect(enabled).toMatchObject({ state: 'activo', settings: { maxConcurrency: 2 } });
  });

  it('refuses a supplier on a private address unless ALLOW_PRIVATE_NETWORK is set', async () => {
    const strict = await createTestApp(target);
    try {
      const admin = await (await import('../../../tests/setup/test-app')).signInAdmin(strict);
      for (const url of [kit.fake.url, 'http://10.0.0.7/', 'http://[::1]:80/', 'ftp://x.example']) {
        const res = await admin.client.post('/api/admin/suppliers', {
          name: `Privado ${url}`,
          protocol: 'smm',
          url,
          apiKey: FAKE_SMM_API_KEY,
        });
        expect([400, 422]).toContain(res.status);
      }
      const loop = await json<{ message: string }>(
        await admin.client.post('/api/admin/suppliers', {
          name: 'Loopback',
          protocol: 'smm',
          url: kit.fake.url,
          apiKey: FAKE_SMM_API_KEY,
        }),
        422,
      );
      expect(loop.message).toMatch(/not public|ALLOW_PRIVATE_NETWORK/);
      // Nothing reached the fake supplier.
      expect(kit.fake.calls).toHaveLength(0);
    } finally {
      await strict.close();
    }
  });

  it('browses a remote catalogue with search, groups, costs and what each service needs', async () => {
    const dhru = await connectDhru(kit);
    const all = await json<RemoteServiceList>(
      await kit.admin.client.get(`/api/admin/suppliers/${dhru.id}/services`),
      200,
    );
    expect(all.stale).toBe(false);
    expect(all.groups).toEqual(expect.arrayContaining(['Apple checks', 'Unlocks', 'Licences']));
    const check = all.items.find((i) => i.remoteId === '1382');
    expect(check).toMatchObject({
      name: 'iPhone carrier + FMI check',
      cost: '0.80',
      currency: 'USD',
      unit: 'order',
      deliveryTime: '1-24 Hours',
      importable: true,
      fields: [{ key: 'imei', label: 'IMEI', type: 'imei', required: true }],
    });
    expect(check?.info).not.toMatch(/<[a-z]/i);
    expect(all.items.find((i) => i.remoteId === '3050')?.cost).toBe('0.27819');
    const network = all.items.find((i) => i.remoteId === '5200');
    expect(network).toMatchObject({ importable: false });
    expect(network?.reason).toMatch(/red, modelo o MEP/);
    const searched = await json<RemoteServiceList>(
      await kit.admin.client.get(`/api/admin/suppliers/${dhru.id}/services?q=serial`),
      200,
    );
    expect(searched.items.map((i) => i.remoteId)).toEqual(['3050']);
    const grouped = await json<RemoteServiceList>(
      await kit.admin.client.get(
        `/api/admin/suppliers/${dhru.id}/services?group=${encodeURIComponent('Unlocks')}`,
      ),
      200,
    );
    expect(new Set(grouped.items.map((i) => i.group))).toEqual(new Set(['Unlocks']));

    const smm = await connectSmm(kit);
    const social = await json<RemoteServiceList>(
      await kit.admin.client.get(`/api/admin/suppliers/${smm.id}/services`),
      200,
    );
    expect(social.items.find((i) => i.remoteId === '1')).toMatchObject({
      cost: '0.90',
      unit: '1000',
      minQuantity: 50,
      maxQuantity: 10000,
      importable: true,
      fields: [{ key: 'link', type: 'url', required: true }],
    });
    expect(social.items.find((i) => i.remoteId === '3')).toMatchObject({
      type: 'Custom Comments',
      importable: true,
      fields: [
        { key: 'link', type: 'url', required: true },
        { key: 'comments', type: 'lines', required: true },
      ],
    });
    expect(social.items.find((i) => i.remoteId === '39')).toMatchObject({
      importable: false,
      reason: 'El tipo «Comment Replies» todavía no se puede importar.',
    });
  });

  it('keeps serving the last catalogue copy when the supplier cannot be read', async () => {
    const smm = await connectSmm(kit);
    await json<RemoteServiceList>(
      await kit.admin.client.get(`/api/admin/suppliers/${smm.id}/services`),
      200,
    );
    kit.fake.when({ action: 'services' }, { http: 502 });
    const stale = await json<RemoteServiceList>(
      await kit.admin.client.get(`/api/admin/suppliers/${smm.id}/services?refresh=true`),
      200,
    );
    expect(stale.stale).toBe(true);
    expect(stale.message).toMatch(/última copia/);
    expect(stale.items.length).toBeGreaterThan(0);
  });

  it('imports DHRU and SMM services with a markup rounded up to the cent', async () => {
    const dhru = await connectDhru(kit);
    const imported = await importServices(kit, dhru.id, ['1382', '2210', '3050'], 'IMEI', 20);
    expect(imported.map((s) => [s.name, s.price, s.unit])).toEqual([
      ['iPhone carrier + FMI check', '0.96', 'order'],
      ['AT&T USA iPhone unlock (clean)', '19.70', 'order'],
      ['Apple serial number check', '0.34', 'order'], // 0.27819 × 1.2 = 0.333828 → 0.34
    ]);
    for (const s of imported) {
      expect(s.markupPercent).toBe(20);
      expect(s.routes).toEqual([
        expect.objectContaining({ position: 0, supplierId: dhru.id, supplierState: 'activo' }),
      ]);
      expect(s.category).toBe('IMEI');
      expect(s.active).toBe(true);
    }
    expect(imported[0]?.fields).toEqual([
      { key: 'imei', label: 'IMEI', type: 'imei', required: true, identifier: true },
    ]);
    expect(imported[2]?.fields[0]).toMatchObject({
      type: 'serial',
      identifier: true,
      maxLength: 12,
    });

    // Imported in English («1-24 Hours», «check»): flagged «Por traducir» until the admin
    // rewrites the texts in Spanish.
    expect(imported.map((s) => [s.deliveryTime, s.needsTranslation])).toEqual([
      ['1-24 Hours', true],
      ['1-3 Days', true],
      ['Instant', true],
    ]);
    const first = imported[0];
    if (!first) throw new Error('nothing imported');
    const halfway = await json<AdminServiceDto>(
      await kit.admin.client.patch(`/api/admin/services/${first.id}`, {
        name: 'Consulta de operador y FMI de iPhone',
        deliveryTime: 'De 1 a 24 horas',
      }),
      200,
    );
    // The description still says «Instant delivery».
    expect(halfway.needsTranslation).toBe(true);
    await json<AdminServiceDto>(
      await kit.admin.client.patch(`/api/admin/services/${first.id}`, {
        description: 'Operador, FMI y lista negra; entrega inmediata.',
      }),
      200,
    );
    const listed = await json<{ items: AdminServiceDto[] }>(
      await kit.admin.client.get('/api/admin/services'),
      200,
    );
    const flags = new Map(listed.items.map((s) => [s.id, s.needsTranslation]));
    expect(imported.map((s) => flags.get(s.id))).toEqual([false, true, true]);

    const smm = await connectSmm(kit);
    const [followers] = await importServices(kit, smm.id, ['1'], 'social', 12.5);
    expect(followers).toMatchObject({
      price: '1.02', // 0.90 × 1.125 = 1.0125 → 1.02 per 1000
      unit: '1000',
      minQuantity: 50,
      maxQuantity: 10000,
      fields: [expect.objectContaining({ key: 'link', type: 'url', identifier: true })],
    });

    // Twice, unknown, or not importable: refused with the reasons, nothing created.
    const before = await kit.t.database.db.select({ id: service.id }).from(service);
    const again = await json<{ fields: { remoteIds: string } }>(
      await kit.admin.client.post(`/api/admin/suppliers/${dhru.id}/import`, {
        remoteIds: ['1382', '9999', '5200'],
        category: 'IMEI',
        markupPercent: 10,
      }),
      400,
    );
    expect(again.fields.remoteIds).toContain('ya está importado');
    expect(again.fields.remoteIds).toContain('9999');
    expect(again.fields.remoteIds).toContain('red, modelo o MEP');
    expect(await kit.t.database.db.select({ id: service.id }).from(service)).toHaveLength(
      before.length,
    );
  });

  it('sets a service routes (primary then fallbacks) and checks they fit', async () => {
    const a = await connectDhru(kit);
    const b = await connectDhru(kit);
    const [svc] = await importServices(kit, a.id, ['1382'], 'IMEI', 25);
    if (!svc) throw new Error('no service');
    const routed = await json<AdminServiceDto>(
      await kit.admin.client.request('PUT', `/api/admin/services/${svc.id}/routes`, {
        routes: [
          { supplierId: a.id, remoteId: '1382' },
          { supplierId: b.id, remoteId: '1382' },
        ],
        markupPercent: 25,
      }),
      200,
    );
    expect(routed.routes.map((r) => [r.position, r.supplierId, r.remoteId, r.cost])).toEqual([
      [0, a.id, '1382', '0.80'],
      [1, b.id, '1382', '0.80'],
    ]);
    expect(routed.price).toBe('1.00');
    // A route whose supplier needs an input the service lacks, or sells per 1000, is refused.
    const smm = await connectSmm(kit);
    const refused = await json<{ fields: Record<string, string> }>(
      await kit.admin.client.request('PUT', `/api/admin/services/${svc.id}/routes`, {
        routes: [
          { supplierId: a.id, remoteId: '4100' },
          { supplierId: smm.id, remoteId: '1' },
        ],
        markupPercent: null,
      }),
      400,
    );
    expect(refused.fields['routes.0']).toMatch(/pide/);
    expect(refused.fields['routes.1']).toMatch(/por cada 1000/);
    // Fixed price: the price stays; an empty list makes the service manual again.
    const fixed = await json<AdminServiceDto>(
      await kit.admin.client.request('PUT', `/api/admin/services/${svc.id}/routes`, {
        routes: [],
        markupPercent: null,
      }),
      200,
    );
    expect(fixed).toMatchObject({ routes: [], markupPercent: null, price: '1.00' });
  });

  it('price sync: markup prices follow the cost (audited); a loss or a vanished service deactivates and tells the admins', async () => {
    const dhru = await connectDhru(kit);
    const [follow, fixed, vanishing] = await importServices(
      kit,
      dhru.id,
      ['1382', '2210', '7400'],
      'unlock',
      20,
    );
    if (!follow || !fixed || !vanishing) throw new Error('import failed');
    await json<AdminServiceDto>(
      await kit.admin.client.request('PUT', `/api/admin/services/${fixed.id}/routes`, {
        routes: [{ supplierId: dhru.id, remoteId: '2210' }],
        markupPercent: null,
      }),
      200,
    );
    const services = kit.fake.dhru.services;
    services.find((s) => s.id === '1382')!.credit = '1.00';
    services.find((s) => s.id === '2210')!.credit = '25.00'; // above its fixed 19.70
    kit.fake.dhru.services = services.filter((s) => s.id !== '7400');

    const summary = await syncAll(kit.t.deps);
    expect(summary.repriced).toBeGreaterThanOrEqual(1);
    const rows = await kit.t.database.db.select().from(service);
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(follow.id)).toMatchObject({ price: 120n, active: true });
    expect(byId.get(fixed.id)).toMatchObject({ price: 1970n, active: false });
    expect(byId.get(vanishing.id)?.active).toBe(false);
    const history = await json<{ items: { action: string; actor: unknown }[] }>(
      await kit.admin.client.get(`/api/admin/services/${follow.id}/audit`),
      200,
    );
    expect(history.items[0]).toMatchObject({ action: 'service.price_sync', actor: null });
    const mail = await kit.t.waitForMail(kit.admin.email, /desactivados por cambio de costo/);
    expect(mail.text).toContain('AT&T USA iPhone unlock');
    expect(mail.text).toContain('supera el precio');
    expect(mail.text).toContain('ya no ofrece');
    // A second sync changes nothing more.
    const again = await syncAll(kit.t.deps);
    expect(again.deactivated.filter((d) => d.serviceId === fixed.id)).toEqual([]);
    await expectLedgerClean(kit);
  });

  it('e-mails the admins once when a supplier balance falls below its threshold', async () => {
    const created = await connectSmm(kit, { lowBalanceThreshold: '20.00' });
    kit.fake.smm.balance = '12.50';
    for (let i = 0; i < 3; i++) {
      await json(await kit.admin.client.post(`/api/admin/suppliers/${created.id}/test`), 200);
    }
    const mail = await kit.t.waitForMail(
      kit.admin.email,
      new RegExp(`Saldo bajo.*${created.name}`),
    );
    expect(mail.text).toContain('US$12.50');
    await new Promise((r) => setTimeout(r, 300));
    const alerts = (await kit.t.outbox()).filter((m) => m.subject.includes(created.name));
    expect(alerts).toHaveLength(1);
    // Back above: the alert re-arms, and the next fall mails again.
    kit.fake.smm.balance = '80.00';
    await json(await kit.admin.client.post(`/api/admin/suppliers/${created.id}/test`), 200);
    kit.fake.smm.balance = '5.00';
    await json(await kit.admin.client.post(`/api/admin/suppliers/${created.id}/test`), 200);
    await expect
      .poll(async () => (await kit.t.outbox()).filter((m) => m.subject.includes(created.name)))
      .toHaveLength(2);
  });

  it('answers 403 to customers on every supplier endpoint', async () => {
    const { client } = await registerVerified(kit.t);
    const created = await connectSmm(kit);
    const calls: [string, string][] = [
      ['GET', '/api/admin/suppliers'],
      ['POST', '/api/admin/suppliers'],
      ['GET', `/api/admin/suppliers/${created.id}`],
      ['PATCH', `/api/admin/suppliers/${created.id}`],
      ['POST', `/api/admin/suppliers/${created.id}/test`],
      ['GET', `/api/admin/suppliers/${created.id}/services`],
      ['POST', `/api/admin/suppliers/${created.id}/import`],
      ['GET', `/api/admin/suppliers/${created.id}/log`],
      ['GET', '/api/admin/orders?dispatch=review'],
    ];
    for (const [method, url] of calls) {
      const res = await client.request(method, url, method === 'GET' ? undefined : {});
      expect(res.status, `${method} ${url}`).toBe(403);
    }
  });

  it('shows supplier calls and queue depth in /metrics', async () => {
    await connectSmm(kit);
    const text = await (await kit.t.app.request('/metrics')).text();
    expect(text).toMatch(
      /cometa_supplier_requests_total\{supplier="Panel SMM \d+",action="balance",outcome="answered"\} \d+/,
    );
    expect(text).toMatch(
      /cometa_supplier_request_duration_seconds_count\{supplier="Panel SMM \d+"\} \d+/,
    );
    expect(text).toContain('cometa_jobs_queued{queue="supplier-dispatch"}');
    expect(text).toContain('cometa_dispatch_orders{state="review"}');
  });
});

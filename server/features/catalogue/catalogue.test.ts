import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES } from '../../../shared/categories';
import type { ServiceDto } from '../../../shared/schemas/catalogue';
import { service } from '../../db/schema/catalogue';
import { auditLog } from '../../db/schema/payments';
import {
  createTestApp,
  registerVerified,
  signInAdmin,
  TEST_ORIGIN,
  type TestApp,
  type TestClient,
} from '../../../tests/setup/test-app';
import { dbTargets } from '../../../tests/setup/test-db';
import type {
  AdminServiceDto,
  CategoryCountDto,
  ServiceHistoryEntryDto,
} from '../../../shared/schemas/catalogue';
import { applyPercent, bulkPriceChange, getService, listServices } from './catalogue.service';
import { seedDemoCatalogue } from './catalogue.seed';

/** The real app, every route mounted as in production. */
function catalogueApp(t: TestApp) {
  return t.app;
}

describe.each(dbTargets())('service catalogue on %s', (target) => {
  let t: TestApp;
  let app: ReturnType<typeof catalogueApp>;
  let customer: TestClient;
  let admin: { client: TestClient; id: string; email: string };

  function call(who: TestClient, method: string, url: string, body?: unknown) {
    const headers: Record<string, string> = { Origin: TEST_ORIGIN };
    if (who.cookies.size) {
      headers.Cookie = [...who.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    }
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    return app.request(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  async function json<T>(res: Response, status = 200): Promise<T> {
    const text = await res.text();
    expect(res.status, text).toBe(status);
    return JSON.parse(text) as T;
  }

  beforeAll(async () => {
    t = await createTestApp(target);
    app = catalogueApp(t);
    customer = (await registerVerified(t, 'Lucía')).client;
    admin = await signInAdmin(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('seeds the demo catalogue once, with at least three services per category', async () => {
    const first = await seedDemoCatalogue(t.database.db);
    expect(first).toBeGreaterThanOrEqual(21);
    expect(await seedDemoCatalogue(t.database.db)).toBe(0);
    const rows = await listServices(t.database.db, { includeInactive: true });
    expect(rows).toHaveLength(first);
    for (const { slug } of CATEGORIES) {
      expect(rows.filter((r) => r.category === slug).length, slug).toBeGreaterThanOrEqual(3);
    }
  });

  it('lists, filters and shows services as DTOs', async () => {
    const all = await json<{ items: ServiceDto[] }>(await call(customer, 'GET', '/api/services'));
    expect(all.items.length).toBeGreaterThanOrEqual(21);

    const imei = await json<{ items: ServiceDto[] }>(
      await call(customer, 'GET', '/api/services?category=IMEI'),
    );
    expect(imei.items.map((s) => s.name)).toEqual([
      'Consulta IMEI completa (operador, bloqueo, garantía)',
      'Estado de iCloud (Find My iPhone)',
      'Consulta de lista negra GSMA',
    ]);
    const icloud = imei.items[1];
    expect(icloud).toMatchObject({
      category: 'IMEI',
      price: '0.25',
      unit: 'order',
      allowRecheck: true,
    });
    expect(icloud).not.toHaveProperty('minQuantity');
    expect(icloud).not.toHaveProperty('active');
    expect(icloud?.fields.map((f) => f.key)).toContain('imei');

    const social = await json<{ items: ServiceDto[] }>(
      await call(customer, 'GET', '/api/services?category=social'),
    );
    const instagram = social.items.find((s) => s.name === 'Seguidores de Instagram');
    expect(instagram).toMatchObject({
      price: '1.50',
      unit: '1000',
      minQuantity: 100,
      maxQuantity: 10000,
    });
    expect(instagram?.fields).toEqual([expect.objectContaining({ key: 'link', identifier: true })]);

    const detail = await json<ServiceDto>(
      await call(customer, 'GET', `/api/services/${icloud?.id ?? ''}`),
    );
    expect(detail).toEqual(icloud);

    const unknown = await json<{ code: string; fields: Record<string, string> }>(
      await call(customer, 'GET', '/api/services?category=juegos'),
      400,
    );
    expect(unknown.code).toBe('VALIDATION_FAILED');
    expect(unknown.fields).toEqual({ category: 'La categoría no existe.' });
    // An empty filter is no filter.
    const none = await json<{ items: ServiceDto[] }>(
      await call(customer, 'GET', '/api/services?category='),
    );
    expect(none.items).toHaveLength(all.items.length);

    const categories = await json<CategoryCountDto[]>(
      await call(customer, 'GET', '/api/services/categories'),
    );
    expect(categories.map((c) => c.slug)).toEqual(CATEGORIES.map((c) => c.slug));
    expect(categories[0]).toEqual({ slug: 'IMEI', label: 'Servicios IMEI', count: 3 });
  });

  it('404 for unknown, malformed and inactive services; admins still see inactive ones', async () => {
    const unknown = await json<{ code: string; message: string }>(
      await call(customer, 'GET', '/api/services/00000000-0000-4000-8000-000000000000'),
      404,
    );
    expect(unknown).toEqual({
      code: 'NOT_FOUND',
      message: 'El servicio no existe o no está disponible.',
    });
    // A malformed id is refused by the route's path parameter, before the service is asked.
    for (const id of ['no-es-un-uuid', "1' OR 1=1"]) {
      const body = await json<{ code: string }>(
        await call(customer, 'GET', `/api/services/${encodeURIComponent(id)}`),
        404,
      );
      expect(body.code).toBe('NOT_FOUND');
    }
    const [target] = await listServices(t.database.db, { category: 'gaming' });
    if (!target) throw new Error('no gaming service');
    const hidden = await json<AdminServiceDto>(
      await call(admin.client, 'PATCH', `/api/admin/services/${target.id}`, { active: false }),
    );
    expect(hidden.active).toBe(false);
    await json(await call(customer, 'GET', `/api/services/${target.id}`), 404);
    const gaming = await json<{ items: ServiceDto[] }>(
      await call(customer, 'GET', '/api/services?category=gaming'),
    );
    expect(gaming.items.map((s) => s.id)).not.toContain(target.id);
    const adminList = await json<{ items: AdminServiceDto[] }>(
      await call(admin.client, 'GET', '/api/admin/services'),
    );
    expect(adminList.items.find((s) => s.id === target.id)).toMatchObject({
      active: false,
      sortOrder: target.sortOrder,
    });
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, target.id), eq(auditLog.action, 'service.deactivate')));
    expect(audit).toMatchObject({
      actorId: admin.id,
      before: { active: true },
      after: { active: false },
    });
    await json(
      await call(admin.client, 'PATCH', `/api/admin/services/${target.id}`, { active: true }),
    );
  });

  it('refuses customers and anonymous visitors on admin routes', async () => {
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/admin/services'],
      ['POST', '/api/admin/services', {}],
      ['PATCH', '/api/admin/services/00000000-0000-4000-8000-000000000000', { active: false }],
      ['POST', '/api/admin/services/reorder', { ids: [] }],
      ['POST', '/api/admin/services/bulk-price', { percent: 10 }],
      ['PATCH', '/api/admin/services/bulk', { ids: [], active: false }],
    ];
    for (const [method, url, body] of routes) {
      await json(await call(customer, method, url, body), 403);
      await json(await call(t.client(), method, url, body), 401);
    }
    await json(await call(t.client(), 'GET', '/api/services'), 401);
  });

  it('creates a service, with Spanish field errors for invalid definitions', async () => {
    const base = {
      category: 'unlock',
      name: 'Desbloqueo de operador — Claro (Colombia)',
      description: 'Liberación oficial por IMEI.',
      deliveryTime: '1–3 días hábiles',
      price: '10.5',
      fields: [{ key: 'imei', label: 'IMEI', type: 'imei', identifier: true }],
    };
    const bad = await json<{ code: string; fields: Record<string, string> }>(
      await call(admin.client, 'POST', '/api/admin/services', {
        ...base,
        category: 'otra',
        price: '0',
        fields: [
          { key: 'imei', label: 'IMEI', type: 'imei' },
          { key: 'modelo', label: 'Modelo', type: 'select' },
        ],
      }),
      400,
    );
    expect(bad.code).toBe('VALIDATION_FAILED');
    expect(bad.fields).toEqual({
      category: 'Elige una categoría válida.',
      price: 'El precio debe ser mayor que cero.',
      fields: 'Campo 2: Una lista de opciones necesita al menos una opción.',
    });
    const dup = await json<{ fields: Record<string, string> }>(
      await call(admin.client, 'POST', '/api/admin/services', {
        ...base,
        fields: [
          { key: 'imei', label: 'IMEI', type: 'imei' },
          { key: 'imei', label: 'Otro', type: 'text' },
        ],
      }),
      400,
    );
    expect(dup.fields).toEqual({ fields: 'La clave «imei» está repetida.' });
    const noQty = await json<{ fields: Record<string, string> }>(
      await call(admin.client, 'POST', '/api/admin/services', { ...base, unit: '1000' }),
      400,
    );
    expect(noQty.fields).toEqual({
      minQuantity: 'Indica la cantidad mínima.',
      maxQuantity: 'Indica la cantidad máxima.',
    });
    // Every error at once: a schema error does not hide the quantity ones.
    const several = await json<{ fields: Record<string, string> }>(
      await call(admin.client, 'POST', '/api/admin/services', {
        ...base,
        name: 'x',
        unit: '1000',
        minQuantity: 500,
        maxQuantity: 100,
      }),
      400,
    );
    expect(several.fields).toEqual({
      name: 'El nombre debe tener al menos 3 caracteres.',
      maxQuantity: 'La cantidad máxima no puede ser menor que la mínima.',
    });

    const created = await json<AdminServiceDto>(
      await call(admin.client, 'POST', '/api/admin/services', base),
      201,
    );
    expect(created).toMatchObject({
      category: 'unlock',
      price: '10.50',
      unit: 'order',
      active: true,
      allowRecheck: false,
      fields: [{ key: 'imei', label: 'IMEI', type: 'imei', required: true, identifier: true }],
    });
    const unlock = await listServices(t.database.db, { category: 'unlock' });
    expect(unlock.at(-1)?.id).toBe(created.id);

    const updated = await json<AdminServiceDto>(
      await call(admin.client, 'PATCH', `/api/admin/services/${created.id}`, {
        price: '11.00',
        deliveryTime: 'Instantáneo',
      }),
    );
    expect(updated).toMatchObject({ price: '11.00', deliveryTime: 'Instantáneo', name: base.name });
    const audits = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.targetId, created.id))
      .orderBy(auditLog.createdAt);
    expect(audits.map((a) => a.action)).toEqual(['service.create', 'service.update']);
    expect(audits[1]).toMatchObject({
      actorId: admin.id,
      before: { price: '10.50' },
      after: { price: '11.00' },
    });
    await json(
      await call(admin.client, 'PATCH', '/api/admin/services/no-existe', { price: '1.00' }),
      404,
    );
    // An edit with several mistakes names them all, quantities read against the saved service.
    const severalEdits = await json<{ fields: Record<string, string> }>(
      await call(admin.client, 'PATCH', `/api/admin/services/${created.id}`, {
        price: 'gratis',
        unit: '1000',
        minQuantity: 10,
      }),
      400,
    );
    expect(severalEdits.fields).toEqual({
      price: 'Escribe un precio válido, con hasta dos decimales (por ejemplo 1.50).',
      maxQuantity: 'Indica la cantidad máxima.',
    });
  });

  it('bulk price changes round up to the cent and never go below 1 cent', async () => {
    expect(applyPercent(25n, 1000n)).toBe(28n);
    expect(applyPercent(1n, -5000n)).toBe(1n);
    expect(applyPercent(1999n, -1050n)).toBe(1790n);

    const [icloud] = await t.database.db
      .select()
      .from(service)
      .where(eq(service.name, 'Estado de iCloud (Find My iPhone)'));
    if (!icloud) throw new Error('no iCloud service');
    const imeiBefore = await listServices(t.database.db, { category: 'IMEI' });
    const res = await json<{ updated: number }>(
      await call(admin.client, 'POST', '/api/admin/services/bulk-price', {
        percent: 10,
        category: 'IMEI',
      }),
    );
    expect(res.updated).toBe(imeiBefore.length);
    expect((await getService(t.database.db, icloud.id)).price).toBe(28n);
    const others = await listServices(t.database.db, { category: 'streaming' });
    expect(others.find((s) => s.name === 'Netflix Premium — 1 mes')?.price).toBe(799n);
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, icloud.id), eq(auditLog.action, 'service.price_bulk')));
    expect(audit).toMatchObject({
      actorId: admin.id,
      before: { price: '0.25' },
      after: { price: '0.28', percent: 10 },
    });

    await t.database.db.update(service).set({ price: 1n }).where(eq(service.id, icloud.id));
    await bulkPriceChange(t.database.db, admin.id, { percent: -50, category: 'IMEI' });
    expect((await getService(t.database.db, icloud.id)).price).toBe(1n);

    for (const percent of [-91, 501, 0, 1.234, '10']) {
      const bad = await json<{ fields: Record<string, string> }>(
        await call(admin.client, 'POST', '/api/admin/services/bulk-price', { percent }),
        400,
      );
      expect(bad.fields.percent).toBeTruthy();
    }
  });

  it('reorders services and audits it', async () => {
    const before = await listServices(t.database.db, { category: 'streaming' });
    const reversed = before.map((s) => s.id).reverse();
    const res = await json<{ items: AdminServiceDto[] }>(
      await call(admin.client, 'POST', '/api/admin/services/reorder', { ids: reversed }),
    );
    expect(res.items.filter((s) => s.category === 'streaming').map((s) => s.id)).toEqual(reversed);
    const customerView = await json<{ items: ServiceDto[] }>(
      await call(customer, 'GET', '/api/services?category=streaming'),
    );
    expect(customerView.items.map((s) => s.id)).toEqual(reversed);
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'service.reorder'));
    expect(audit).toMatchObject({ actorId: admin.id, targetType: 'service' });
    const bad = await json<{ fields: Record<string, string> }>(
      await call(admin.client, 'POST', '/api/admin/services/reorder', {
        ids: ['00000000-0000-4000-8000-000000000000'],
      }),
      400,
    );
    expect(bad.fields.ids).toBe('Algún servicio no existe.');
  });

  it('PATCH /api/admin/services/bulk deactivates and activates several services at once', async () => {
    const [a, b, c] = await listServices(t.database.db, { category: 'streaming' });
    if (!a || !b || !c) throw new Error('the demo catalogue has 3 streaming services');
    const off = await json<{ items: AdminServiceDto[] }>(
      await call(admin.client, 'PATCH', '/api/admin/services/bulk', {
        ids: [a.id, b.id],
        active: false,
      }),
    );
    const state = (items: AdminServiceDto[]) =>
      [a, b, c].map((s) => items.find((i) => i.id === s.id)?.active);
    expect(state(off.items)).toEqual([false, false, true]);
    const customerView = await json<{ items: ServiceDto[] }>(
      await call(customer, 'GET', '/api/services?category=streaming'),
    );
    expect(customerView.items.map((s) => s.id)).not.toContain(a.id);
    const audits = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'service.deactivate'), eq(auditLog.targetId, b.id)));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actorId: admin.id });

    // One unknown id: nothing changes.
    const bad = await json<{ fields: Record<string, string> }>(
      await call(admin.client, 'PATCH', '/api/admin/services/bulk', {
        ids: [a.id, '00000000-0000-4000-8000-000000000000'],
        active: true,
      }),
      400,
    );
    expect(bad.fields.ids).toBe('Algún servicio no existe.');
    expect((await getService(t.database.db, a.id, { includeInactive: true })).active).toBe(false);

    const on = await json<{ items: AdminServiceDto[] }>(
      await call(admin.client, 'PATCH', '/api/admin/services/bulk', {
        ids: [a.id, b.id, c.id],
        active: true,
      }),
    );
    expect(state(on.items)).toEqual([true, true, true]);
    const empty = await json<{ fields: Record<string, string> }>(
      await call(admin.client, 'PATCH', '/api/admin/services/bulk', { ids: [], active: true }),
      400,
    );
    expect(empty.fields.ids).toBe('Elige al menos un servicio.');
  });

  it("answers a service's change history from the audit log, newest first", async () => {
    const created = await json<AdminServiceDto>(
      await call(admin.client, 'POST', '/api/admin/services', {
        category: 'cleanimei',
        name: 'Limpieza de IMEI — historial',
        description: 'Para probar el historial.',
        deliveryTime: '1 día',
        price: '4.00',
        fields: [{ key: 'imei', label: 'IMEI', type: 'imei' }],
      }),
      201,
    );
    const url = `/api/admin/services/${created.id}`;
    await json(await call(admin.client, 'PATCH', url, { price: '5.00', deliveryTime: '2 días' }));
    await json(await call(admin.client, 'PATCH', url, { active: false }));
    const category = await listServices(t.database.db, { category: 'cleanimei' });
    const ids = category.map((s) => s.id);
    const moved = [created.id, ...ids.filter((id) => id !== created.id)];
    await json(await call(admin.client, 'POST', '/api/admin/services/reorder', { ids: moved }));
    await json(
      await call(admin.client, 'POST', '/api/admin/services/bulk-price', {
        percent: 10,
        category: 'cleanimei',
      }),
    );

    const { items } = await json<{ items: ServiceHistoryEntryDto[] }>(
      await call(admin.client, 'GET', `${url}/audit`),
    );
    expect(items.map((e) => e.action)).toEqual([
      'service.price_bulk',
      'service.reorder',
      'service.deactivate',
      'service.update',
      'service.create',
    ]);
    expect(items.every((e) => e.actor?.email === admin.email)).toBe(true);
    const [bulk, reorder, deactivate, update] = items;
    expect(bulk?.changes).toEqual(
      expect.arrayContaining([
        { field: 'price', before: '5.00', after: '5.50' },
        { field: 'percent', before: null, after: 10 },
      ]),
    );
    expect(reorder?.changes).toEqual([
      { field: 'sortOrder', before: created.sortOrder, after: 10 },
    ]);
    expect(deactivate?.changes).toEqual([{ field: 'active', before: true, after: false }]);
    // jsonb keeps its own key order: compare as sets.
    expect(update?.changes).toHaveLength(2);
    expect(update?.changes).toEqual(
      expect.arrayContaining([
        { field: 'deliveryTime', before: '1 día', after: '2 días' },
        { field: 'price', before: '4.00', after: '5.00' },
      ]),
    );
    // Another service's rows are not in this history.
    const other = ids.find((id) => id !== created.id) ?? '';
    const otherHistory = await json<{ items: ServiceHistoryEntryDto[] }>(
      await call(admin.client, 'GET', `/api/admin/services/${other}/audit`),
    );
    expect(otherHistory.items.map((e) => e.action)).not.toContain('service.update');

    await json(await call(customer, 'GET', `${url}/audit`), 403);
    await json(await call(t.client(), 'GET', `${url}/audit`), 401);
    await json(
      await call(
        admin.client,
        'GET',
        '/api/admin/services/00000000-0000-4000-8000-000000000000/audit',
      ),
      404,
    );
  });
});

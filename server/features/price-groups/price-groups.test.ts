// Price groups and special prices, end to end on both databases: a customer in a group with
// overrides and another with a special price see AND pay the same price on REST, bulk, DHRU and
// SMM; refunds return exactly what was charged; the admin API, its audit rows and its rules.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedApiKey } from '../../../shared/schemas/api-keys';
import type { AdminServiceDto, ServiceDto } from '../../../shared/schemas/catalogue';
import type { Me } from '../../../shared/schemas/me';
import type { OrderDto } from '../../../shared/schemas/orders';
import type { CustomerPricesDto, PriceGroupDto } from '../../../shared/schemas/price-groups';
import { auditLog } from '../../db/schema/payments';
import { order } from '../../db/schema/catalogue';
import { encodeParametersJson } from '../../suppliers/dhru-wire';
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
import { dbTargets } from '../../../tests/setup/test-db';
import { balances } from '../ledger/ledger.service';

let seq = 0;
function nextImei(): string {
  seq += 1;
  return imeiFor(`${Date.now() % 1_000_000}${String(seq).padStart(4, '0')}`);
}
let links = 0;
function nextLink(): string {
  links += 1;
  return `https://instagram.com/p/grupo${Date.now().toString(36)}${links}`;
}

describe.each(dbTargets())('price groups and special prices on %s', (target) => {
  let kit: Kit;
  let imei: AdminServiceDto; // IMEI, US$2.00 a check
  let other: AdminServiceDto; // IMEI, US$3.33
  let social: AdminServiceDto; // social, US$1.99 per 1000
  let group: PriceGroupDto;

  type Reseller = Awaited<ReturnType<typeof fundedCustomer>> & { key: string };
  let inGroup: Reseller; // group: 12.5 % off, IMEI service −20 %, social US$1.50 per 1000
  let special: Reseller; // default group, special price US$1.23 on the IMEI service

  async function reseller(amount = '100.00'): Promise<Reseller> {
    const customer = await fundedCustomer(kit, amount);
    const created = await json<CreatedApiKey>(
      await customer.client.post('/api/keys', { name: 'Mi panel' }),
      201,
    );
    return { ...customer, key: created.key };
  }

  function postForm(path: string, fields: Record<string, string>) {
    return kit.t.app.request(path, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        'x-cometa-client-ip': '203.0.113.44',
      },
      body: new URLSearchParams(fields).toString(),
    });
  }

  function dhru(r: Reseller, action: string, parameters?: string) {
    return postForm('/api/index.php', {
      username: r.email,
      apiaccesskey: r.key,
      action,
      ...(parameters ? { parameters } : {}),
    });
  }

  async function createService(body: Record<string, unknown>): Promise<AdminServiceDto> {
    return json<AdminServiceDto>(
      await kit.admin.client.post('/api/admin/services', {
        description: 'Servicio de prueba de grupos.',
        deliveryTime: '1-24 horas',
        ...body,
      }),
      201,
    );
  }

  async function available(userId: string): Promise<bigint> {
    return (await balances(kit.t.database.db, userId)).available;
  }

  /** What each customer sees on REST for a service. */
  async function restPrice(r: Reseller, serviceId: string) {
    const list = await json<{ items: ServiceDto[] }>(await r.client.get('/api/services'), 200);
    const one = await json<ServiceDto>(await r.client.get(`/api/services/${serviceId}`), 200);
    const inList = list.items.find((s) => s.id === serviceId)?.price;
    expect(inList).toBe(one.price);
    return one.price;
  }

  beforeAll(async () => {
    kit = await supplierKit(target);
    const imeiField = [{ key: 'imei', label: 'IMEI', type: 'imei', required: true }];
    imei = await createService({
      category: 'IMEI',
      name: 'Consulta de grupo',
      price: '2.00',
      fields: imeiField,
    });
    other = await createService({
      category: 'IMEI',
      name: 'Otra consulta de grupo',
      price: '3.33',
      fields: imeiField,
    });
    social = await createService({
      category: 'social',
      name: 'Seguidores de grupo',
      price: '1.99',
      unit: '1000',
      minQuantity: 100,
      maxQuantity: 5000,
      fields: [{ key: 'link', label: 'Enlace', type: 'url', required: true, identifier: true }],
    });
    group = await json<PriceGroupDto>(
      await kit.admin.client.post('/api/admin/price-groups', {
        name: `Mayoristas ${target}`,
        discountPercent: '12.5',
        isDefault: false,
        overrides: [
          { serviceId: imei.id, discountPercent: '20' },
          { category: 'social', price: '1.50' },
        ],
      }),
      201,
    );
    inGroup = await reseller();
    special = await reseller();
    await json(
      await kit.admin.client.request('PUT', `/api/admin/users/${inGroup.id}/price-group`, {
        groupId: group.id,
      }),
      200,
    );
    await json(
      await kit.admin.client.request('PUT', `/api/admin/users/${special.id}/special-prices`, {
        items: [{ serviceId: imei.id, price: '1.23' }],
      }),
      200,
    );
  });
  afterAll(async () => {
    await kit?.close();
  });

  it('the group round-trips its percentages and overrides exactly', async () => {
    const read = await json<PriceGroupDto>(
      await kit.admin.client.get(`/api/admin/price-groups/${group.id}`),
      200,
    );
    expect(read).toMatchObject({ discountPercent: '12.5', isDefault: false, customers: 1 });
    expect(read.overrides).toEqual([
      expect.objectContaining({ category: 'social', price: '1.50', discountPercent: null }),
      expect.objectContaining({
        serviceId: imei.id,
        serviceName: 'Consulta de grupo',
        basePrice: '2.00',
        discountPercent: '20',
        price: null,
        belowCost: false,
      }),
    ]);
    const list = await json<{ items: PriceGroupDto[] }>(
      await kit.admin.client.get('/api/admin/price-groups'),
      200,
    );
    // The default group ("Minorista", from the migration) comes first; exactly one default.
    expect(list.items[0]).toMatchObject({
      name: 'Minorista',
      isDefault: true,
      discountPercent: '0',
    });
    expect(list.items.filter((g) => g.isDefault)).toHaveLength(1);
  });

  it('REST: each customer sees their own price (override, category, group discount, special)', async () => {
    expect(await restPrice(inGroup, imei.id)).toBe('1.60'); // service override −20 %
    expect(await restPrice(inGroup, social.id)).toBe('1.50'); // category override, per 1000
    expect(await restPrice(inGroup, other.id)).toBe('2.92'); // 3.33 − 12.5 % = 2.91375 → up
    expect(await restPrice(special, imei.id)).toBe('1.23'); // special price
    expect(await restPrice(special, other.id)).toBe('3.33'); // default group: base price
    expect(await restPrice(special, social.id)).toBe('1.99');
  });

  it('POST /api/orders and bulk charge exactly the price shown; a rejection refunds it', async () => {
    for (const [r, price] of [
      [inGroup, '1.60'],
      [special, '1.23'],
    ] as const) {
      const before = await available(r.id);
      const placed = await json<OrderDto>(
        await r.client.post('/api/orders', { serviceId: imei.id, fields: { imei: nextImei() } }),
        201,
      );
      expect(placed.price).toBe(price);
      const bulk = await json<{ results: { ok: boolean; order?: OrderDto }[] }>(
        await r.client.post('/api/orders/bulk', {
          serviceId: imei.id,
          imeis: [nextImei(), nextImei()].join('\n'),
          fields: {},
        }),
        200,
      );
      expect(bulk.results.map((x) => x.order?.price)).toEqual([price, price]);
      const cents = BigInt(price.replace('.', ''));
      expect(await available(r.id)).toBe(before - 3n * cents);
      // Per 1000: the rule gives the per-1000 price, the quantity share rounds up.
      const smm = await json<OrderDto>(
        await r.client.post('/api/orders', {
          serviceId: social.id,
          quantity: 1500,
          fields: { link: nextLink() },
        }),
        201,
      );
      expect(smm.price).toBe(r === inGroup ? '2.25' : '2.99'); // 1.50 × 1.5; 1.99 × 1.5 = 2.985
      // Rejecting every order gives back exactly what was charged.
      for (const id of [placed.id, smm.id, ...bulk.results.map((x) => x.order?.id ?? '')])
        await json(
          await kit.admin.client.post(`/api/admin/orders/${id}/reject`, {
            reason: 'Prueba de reembolso',
          }),
          200,
        );
      expect(await available(r.id)).toBe(before);
    }
    await expectLedgerClean(kit);
  });

  it('DHRU: imeiservicelist and getimeiservicedetails show the CREDIT placeimeiorder charges', async () => {
    for (const [r, credit] of [
      [inGroup, '1.60'],
      [special, '1.23'],
    ] as const) {
      const list = JSON.stringify(await (await dhru(r, 'imeiservicelist')).json());
      const entry = new RegExp(`"SERVICEID":"${imei.number}"[^}]*?"CREDIT":"([0-9.]+)"`).exec(list);
      expect(entry?.[1]).toBe(credit);
      const details = (await (
        await dhru(r, 'getimeiservicedetails', encodeParametersJson({ ID: String(imei.number) }))
      ).json()) as { SUCCESS: { LIST: { CREDIT: string } }[] };
      expect(details.SUCCESS[0]?.LIST.CREDIT).toBe(credit);
      const before = await available(r.id);
      const placed = (await (
        await dhru(
          r,
          'placeimeiorder',
          encodeParametersJson({ ID: String(imei.number), IMEI: nextImei() }),
        )
      ).json()) as { SUCCESS: { REFERENCEID: string }[] };
      const ref = Number(placed.SUCCESS[0]?.REFERENCEID);
      const [row] = await kit.t.database.db
        .select({ price: order.price, id: order.id })
        .from(order)
        .where(and(eq(order.userId, r.id), eq(order.number, ref)));
      expect(row?.price).toBe(BigInt(credit.replace('.', '')));
      expect(await available(r.id)).toBe(before - (row?.price ?? 0n));
    }
  });

  it('SMM: services shows the rate that add charges (per 1000)', async () => {
    for (const [r, rate, charge] of [
      [inGroup, '1.50', 225n],
      [special, '1.99', 299n],
    ] as const) {
      const services = (await (
        await postForm('/api/v2', { key: r.key, action: 'services' })
      ).json()) as { service: number; rate: string }[];
      expect(services.find((s) => s.service === social.number)?.rate).toBe(rate);
      const before = await available(r.id);
      const added = (await (
        await postForm('/api/v2', {
          key: r.key,
          action: 'add',
          service: String(social.number),
          link: nextLink(),
          quantity: '1500',
        })
      ).json()) as { order: number };
      const [row] = await kit.t.database.db
        .select({ price: order.price })
        .from(order)
        .where(and(eq(order.userId, r.id), eq(order.number, added.order)));
      expect(row?.price).toBe(charge);
      expect(await available(r.id)).toBe(before - charge);
    }
  });

  it('Mi perfil names the group; a change of group applies to the next order only', async () => {
    const me = await json<Me>(await inGroup.client.get('/api/me'), 200);
    expect(me.priceGroup).toEqual({ id: group.id, name: group.name });
    const first = await json<OrderDto>(
      await inGroup.client.post('/api/orders', {
        serviceId: other.id,
        fields: { imei: nextImei() },
      }),
      201,
    );
    expect(first.price).toBe('2.92');
    const moved = await json<CustomerPricesDto>(
      await kit.admin.client.request('PUT', `/api/admin/users/${inGroup.id}/price-group`, {
        groupId: null,
      }),
      200,
    );
    expect(moved).toMatchObject({ assigned: false, group: { name: 'Minorista', isDefault: true } });
    const next = await json<OrderDto>(
      await inGroup.client.post('/api/orders', {
        serviceId: other.id,
        fields: { imei: nextImei() },
      }),
      201,
    );
    expect(next.price).toBe('3.33');
    const again = await json<OrderDto>(await inGroup.client.get(`/api/orders/${first.id}`), 200);
    expect(again.price).toBe('2.92');
    expect((await json<Me>(await inGroup.client.get('/api/me'), 200)).priceGroup?.name).toBe(
      'Minorista',
    );
    // Back in the group for the other tests, audited both ways.
    await json(
      await kit.admin.client.request('PUT', `/api/admin/users/${inGroup.id}/price-group`, {
        groupId: group.id,
      }),
      200,
    );
    const audits = await kit.t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'customer.price_group'), eq(auditLog.targetId, inGroup.id)));
    expect(audits.length).toBeGreaterThanOrEqual(3);
    expect(audits.at(-1)).toMatchObject({
      before: { group: { name: 'Minorista' }, assigned: false },
      after: { group: { id: group.id }, assigned: true },
    });
  });

  it('imported services priced by markup: the group applies on the synced price; below cost is flagged', async () => {
    const sup = await connectDhru(kit);
    // Remote 1382 costs US$0.80; a 20 % markup sells it at US$0.96.
    const [imported] = await importServices(kit, sup.id, ['1382'], 'IMEI', 20);
    expect(imported?.price).toBe('0.96');
    const r = await reseller('10.00');
    const g = await json<PriceGroupDto>(
      await kit.admin.client.post('/api/admin/price-groups', {
        name: `Bajo costo ${target}`,
        discountPercent: '12.5',
        overrides: [{ serviceId: imported!.id, price: '0.70' }],
      }),
      201,
    );
    expect(g.belowCost).toBe(true);
    expect(g.overrides[0]).toMatchObject({ price: '0.70', belowCost: true });
    // The group discount on the synced price: 0.96 − 12.5 % = 0.84.
    await json(
      await kit.admin.client.patch(`/api/admin/price-groups/${g.id}`, { overrides: [] }),
      200,
    );
    await json(
      await kit.admin.client.request('PUT', `/api/admin/users/${r.id}/price-group`, {
        groupId: g.id,
      }),
      200,
    );
    expect(await restPrice(r, imported!.id)).toBe('0.84');
    const prices = await json<CustomerPricesDto>(
      await kit.admin.client.request('PUT', `/api/admin/users/${r.id}/special-prices`, {
        items: [{ serviceId: imported!.id, price: '0.75' }],
      }),
      200,
    );
    expect(prices.specialPrices).toEqual([
      {
        serviceId: imported!.id,
        serviceName: imported!.name,
        basePrice: '0.96',
        price: '0.75',
        belowCost: true,
      },
    ]);
    expect(await restPrice(r, imported!.id)).toBe('0.75');
  });

  it('the default group cannot be deleted; deleting a group moves its customers to the default', async () => {
    const list = await json<{ items: PriceGroupDto[] }>(
      await kit.admin.client.get('/api/admin/price-groups'),
      200,
    );
    const def = list.items.find((g) => g.isDefault)!;
    const refused = await kit.admin.client.request('DELETE', `/api/admin/price-groups/${def.id}`);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { message: string }).message).toMatch(
      /No se puede eliminar el grupo predeterminado/,
    );
    const unmark = await kit.admin.client.patch(`/api/admin/price-groups/${def.id}`, {
      isDefault: false,
    });
    expect(unmark.status).toBe(409);

    const temp = await json<PriceGroupDto>(
      await kit.admin.client.post('/api/admin/price-groups', {
        name: `Temporal ${target}`,
        discountPercent: '50',
      }),
      201,
    );
    const r = await reseller('10.00');
    await json(
      await kit.admin.client.request('PUT', `/api/admin/users/${r.id}/price-group`, {
        groupId: temp.id,
      }),
      200,
    );
    expect(await restPrice(r, imei.id)).toBe('1.00');
    await json(await kit.admin.client.request('DELETE', `/api/admin/price-groups/${temp.id}`), 200);
    expect(await restPrice(r, imei.id)).toBe('2.00');
    const prices = await json<CustomerPricesDto>(
      await kit.admin.client.get(`/api/admin/users/${r.id}/prices`),
      200,
    );
    expect(prices).toMatchObject({ assigned: false, group: { id: def.id } });
    const [audit] = await kit.t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'price_group.delete'), eq(auditLog.targetId, temp.id)));
    expect(audit?.before).toMatchObject({ name: temp.name, customersMovedToDefault: [r.id] });
  });

  it('refuses bad bodies with field messages in Spanish', async () => {
    const bad = await kit.admin.client.post('/api/admin/price-groups', {
      name: 'Malo',
      discountPercent: '12.345',
      overrides: [{ category: 'IMEI', serviceId: imei.id, discountPercent: '5', price: '1.00' }],
    });
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { fields: Record<string, string> };
    expect(body.fields.discountPercent).toMatch(/porcentaje/);
    expect(Object.values(body.fields).join(' ')).toMatch(/no ambos/);
    const dup = await kit.admin.client.post('/api/admin/price-groups', {
      name: group.name.toUpperCase(),
      discountPercent: '1',
    });
    expect(dup.status).toBe(400);
    expect(((await dup.json()) as { fields: Record<string, string> }).fields.name).toMatch(
      /Ya hay un grupo/,
    );
  });
});

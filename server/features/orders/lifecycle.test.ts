// The SMM order lifecycle as customers and admins live it, on both databases: every SMM order
// type over REST and over our SMM v2 server, drip-feed, refills handled by an admin (one at a
// time, within the window, on the timeline), and cancels. Forwarding to suppliers (refill and
// cancel sent upstream) is covered by server/features/suppliers/smm-lifecycle.test.ts.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedApiKey } from '../../../shared/schemas/api-keys';
import type { AdminServiceDto } from '../../../shared/schemas/catalogue';
import type { AdminRefillDto, OrderDto, RefillDto } from '../../../shared/schemas/orders';
import { SMM_TYPE_SPECS, type SmmType } from '../../../shared/smm-types';
import { queryRows } from '../../db/client';
import {
  expectLedgerClean,
  fundedCustomer,
  json,
  supplierKit,
  type Kit,
} from '../../../tests/setup/suppliers';
import { dbTargets } from '../../../tests/setup/test-db';

/** `expect.any(Number)`, typed (it is an asymmetric matcher, not a number). */
const anyNumber: unknown = expect.any(Number);

let seq = 0;
function link(): string {
  seq += 1;
  return `https://instagram.com/p/ciclo${Date.now().toString(36)}${seq}`;
}

function inDays(days: number): string {
  const d = new Date(Date.now() + days * 24 * 3600 * 1000);
  return `${String(d.getUTCDate()).padStart(2, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear()}`;
}

describe.each(dbTargets())('the SMM order lifecycle on %s', (target) => {
  let kit: Kit;
  const typed = new Map<SmmType, AdminServiceDto>();

  async function createTyped(
    type: SmmType,
    extra: Record<string, unknown> = {},
  ): Promise<AdminServiceDto> {
    const spec = SMM_TYPE_SPECS[type];
    return json<AdminServiceDto>(
      await kit.admin.client.post('/api/admin/services', {
        category: 'social',
        name: `${spec.label} (prueba)`,
        description: `Servicio ${type}.`,
        deliveryTime: '1-24 horas',
        price: spec.unit === '1000' ? '2.00' : '5.00',
        unit: spec.unit,
        ...(spec.unit === '1000' ? { minQuantity: 10, maxQuantity: 5000 } : {}),
        fields: spec.fields,
        smmType: type,
        ...extra,
      }),
      201,
    );
  }

  beforeAll(async () => {
    kit = await supplierKit(target);
    for (const type of Object.keys(SMM_TYPE_SPECS) as SmmType[]) {
      typed.set(
        type,
        await createTyped(type, {
          ...(SMM_TYPE_SPECS[type].dripfeed ? { dripfeed: true } : {}),
          refillDays: 30,
          cancelable: true,
        }),
      );
    }
  });
  afterAll(async () => {
    await kit?.close();
  });

  function svc(type: SmmType): AdminServiceDto {
    const s = typed.get(type);
    if (!s) throw new Error(`no ${type} service`);
    return s;
  }

  it("refuses a service whose fields are not its SMM type's, or drip-feed where the type has none", async () => {
    const res = await kit.admin.client.post('/api/admin/services', {
      category: 'social',
      name: 'Comentarios mal definidos',
      description: 'x',
      deliveryTime: '1 h',
      price: '1.00',
      unit: '1000',
      minQuantity: 1,
      maxQuantity: 10,
      fields: [{ key: 'link', label: 'Enlace', type: 'url', required: true }],
      smmType: 'Custom Comments',
      dripfeed: true,
    });
    const body = await json<{ fields: Record<string, string> }>(res, 400);
    expect(body.fields.fields).toMatch(/Comentarios \(comments\)/);
    expect(body.fields.dripfeed).toMatch(/no admite goteo/);
  });

  it('prices each type by its own rule over REST: lines, packages, subscriptions', async () => {
    const c = await fundedCustomer(kit, '100.00');
    const lines = Array.from({ length: 12 }, (_, i) => `  Comentario ${i + 1}  `).join('\r\n');
    const comments = await json<OrderDto>(
      await c.client.post('/api/orders', {
        serviceId: svc('Custom Comments').id,
        fields: { link: link(), comments: `${lines}\n\n` },
      }),
      201,
    );
    // Twelve non-empty lines: 12 units at 2.00 per 1000 → 0.024 → rounded up to 0.03.
    expect(comments).toMatchObject({ quantity: 12, price: '0.03' });
    expect(comments.fields.comments?.split('\n')).toEqual(
      Array.from({ length: 12 }, (_, i) => `Comentario ${i + 1}`),
    );
    const tooFew = await c.client.post('/api/orders', {
      serviceId: svc('Custom Comments').id,
      fields: { link: link(), comments: 'Genial\n\nMe encanta\nOtra más' },
    });
    expect((await json<{ fields: Record<string, string> }>(tooFew, 400)).fields.comments).toBe(
      'Hacen falta entre 10 y 5000 líneas (hay 3).',
    );
    const pack = await json<OrderDto>(
      await c.client.post('/api/orders', {
        serviceId: svc('Custom Comments Package').id,
        fields: { link: link(), comments: 'a\nb' },
      }),
      201,
    );
    expect(pack).toMatchObject({ quantity: 1, price: '5.00' });
    const sub = await json<OrderDto>(
      await c.client.post('/api/orders', {
        serviceId: svc('Subscriptions').id,
        fields: {
          username: '@tienda.cometa',
          min: '100',
          max: '200',
          posts: '5',
          delay: '30',
          expiry: inDays(10),
        },
      }),
      201,
    );
    // Up to 200 units for each of 5 posts: 1000 units at 2.00 per 1000.
    expect(sub).toMatchObject({ quantity: 1000, price: '2.00' });
    expect(sub.fields).toMatchObject({ username: 'tienda.cometa', expiry: inDays(10) });
    const badSub = await c.client.post('/api/orders', {
      serviceId: svc('Subscriptions').id,
      fields: {
        username: 'x',
        min: '300',
        max: '200',
        posts: '5',
        delay: '7',
        expiry: '31/02/2030',
      },
    });
    const errors = (await json<{ fields: Record<string, string> }>(badSub, 400)).fields;
    expect(errors.delay).toMatch(/opciones/);
    expect(errors.expiry).toMatch(/fecha válida/);
    const poll = await json<OrderDto>(
      await c.client.post('/api/orders', {
        serviceId: svc('Poll').id,
        quantity: 500,
        fields: { link: link(), answer_number: '2' },
      }),
      201,
    );
    expect(poll).toMatchObject({ quantity: 500, price: '1.00' });
    await expectLedgerClean(kit);
  });

  it('drip-feed: quantity per run × runs, charged up front; refused where the service has none', async () => {
    const c = await fundedCustomer(kit, '50.00');
    const drip = await json<OrderDto>(
      await c.client.post('/api/orders', {
        serviceId: svc('Default').id,
        quantity: 1000,
        runs: 5,
        interval: 30,
        fields: { link: link() },
      }),
      201,
    );
    expect(drip).toMatchObject({ quantity: 5000, runs: 5, runInterval: 30, price: '10.00' });
    const noDrip = await c.client.post('/api/orders', {
      serviceId: svc('Poll').id,
      quantity: 100,
      runs: 3,
      interval: 10,
      fields: { link: link(), answer_number: '1' },
    });
    expect((await json<{ fields: Record<string, string> }>(noDrip, 400)).fields.runs).toMatch(
      /no admite goteo/,
    );
    const bounds = await c.client.post('/api/orders', {
      serviceId: svc('Default').id,
      quantity: 100,
      runs: 1,
      interval: 0,
      fields: { link: link() },
    });
    const fields = (await json<{ fields: Record<string, string> }>(bounds, 400)).fields;
    expect(fields.runs).toMatch(/entre 2 y 1000/);
    expect(fields.interval).toMatch(/entre 1 y 1440/);
  });

  it('refills by an admin: one at a time, on the timeline, within the window', async () => {
    const c = await fundedCustomer(kit, '20.00');
    const placed = await json<OrderDto>(
      await c.client.post('/api/orders', {
        serviceId: svc('Default').id,
        quantity: 100,
        fields: { link: link() },
      }),
      201,
    );
    // Not completed yet: no refill.
    const early = await c.client.post(`/api/orders/${placed.id}/refill`);
    expect((await json<{ message: string }>(early, 409)).message).toMatch(/completadas/);
    await json(
      await kit.admin.client.post(`/api/admin/orders/${placed.id}/complete`, { result: 'Listo.' }),
      200,
    );
    const detail = await json<OrderDto>(await c.client.get(`/api/orders/${placed.id}`), 200);
    expect(detail.refill).toMatchObject({ available: true, reason: null });
    const refill = await json<RefillDto>(
      await c.client.post(`/api/orders/${placed.id}/refill`),
      201,
    );
    expect(refill).toMatchObject({
      status: 'pending',
      statusLabel: 'Pendiente',
      orderNumber: placed.number,
    });
    const again = await c.client.post(`/api/orders/${placed.id}/refill`);
    expect((await json<{ message: string }>(again, 409)).message).toMatch(/en curso/);
    const queue = await json<{ items: AdminRefillDto[] }>(
      await kit.admin.client.get('/api/admin/refills'),
      200,
    );
    expect(queue.items.find((r) => r.id === refill.id)).toMatchObject({
      routed: false,
      customerEmail: c.email,
    });
    const done = await json<RefillDto>(
      await kit.admin.client.post(`/api/admin/refills/${refill.id}/complete`, {
        note: 'Repuestos 40 seguidores.',
      }),
      200,
    );
    expect(done).toMatchObject({ status: 'completed', note: 'Repuestos 40 seguidores.' });
    expect(
      (await kit.admin.client.post(`/api/admin/refills/${refill.id}/reject`, { reason: 'Tarde' }))
        .status,
    ).toBe(409);
    const after = await json<OrderDto>(await c.client.get(`/api/orders/${placed.id}`), 200);
    expect(after.refills?.map((r) => r.status)).toEqual(['completed']);
    expect(after.events?.filter((e) => e.kind === 'refill').map((e) => e.note)).toEqual([
      `Reposición n.º ${refill.number} solicitada.`,
      `Reposición n.º ${refill.number} completada. Repuestos 40 seguidores.`,
    ]);
    // A second refill once the first is done; an admin may reject it with a reason.
    const second = await json<RefillDto>(
      await c.client.post(`/api/orders/${placed.id}/refill`),
      201,
    );
    await json(
      await kit.admin.client.post(`/api/admin/refills/${second.id}/reject`, {
        reason: 'No hubo caída de seguidores.',
      }),
      200,
    );
  });

  it('refuses a refill past the window and where the service has none', async () => {
    const c = await fundedCustomer(kit, '20.00');
    const noRefill = await createTyped('Default', { refillDays: null });
    const placed = await json<OrderDto>(
      await c.client.post('/api/orders', {
        serviceId: noRefill.id,
        quantity: 100,
        fields: { link: link() },
      }),
      201,
    );
    await json(
      await kit.admin.client.post(`/api/admin/orders/${placed.id}/complete`, { result: 'Ok' }),
      200,
    );
    const none = await c.client.post(`/api/orders/${placed.id}/refill`);
    expect((await json<{ message: string }>(none, 409)).message).toMatch(/no tiene reposición/);

    const old = await json<OrderDto>(
      await c.client.post('/api/orders', {
        serviceId: svc('Default').id,
        quantity: 100,
        fields: { link: link() },
      }),
      201,
    );
    // Completed 31 days ago, as the timeline says.
    await queryRows(
      kit.t.database.db,
      sql`UPDATE "order" SET status = 'completed', inflight_key = NULL WHERE id = ${old.id}`,
    );
    await queryRows(
      kit.t.database.db,
      sql`INSERT INTO order_event (order_id, status, actor_role, created_at)
          VALUES (${old.id}, 'completed', 'admin', now() - interval '31 days')`,
    );
    const late = await c.client.post(`/api/orders/${old.id}/refill`);
    expect((await json<{ message: string }>(late, 409)).message).toMatch(
      /plazo de reposición terminó/,
    );
  });

  it('cancels a pending order at once, and refuses to cancel one an admin is working on', async () => {
    const c = await fundedCustomer(kit, '10.00');
    const pending = await json<OrderDto>(
      await c.client.post('/api/orders', {
        serviceId: svc('Default').id,
        quantity: 100,
        fields: { link: link() },
      }),
      201,
    );
    expect(
      await json<OrderDto>(await c.client.post(`/api/orders/${pending.id}/cancel`), 200),
    ).toMatchObject({ status: 'cancelled', cancelRequested: false });
    const taken = await json<OrderDto>(
      await c.client.post('/api/orders', {
        serviceId: svc('Default').id,
        quantity: 100,
        fields: { link: link() },
      }),
      201,
    );
    await json(await kit.admin.client.post(`/api/admin/orders/${taken.id}/take`), 200);
    const detail = await json<OrderDto>(await c.client.get(`/api/orders/${taken.id}`), 200);
    expect(detail.cancelRequestable).toBe(false);
    const refused = await c.client.post(`/api/orders/${taken.id}/cancel`);
    expect((await json<{ message: string }>(refused, 409)).message).toMatch(/a mano/);
    await expectLedgerClean(kit);
  });

  describe('over our SMM v2 server', () => {
    async function reseller(amount: string) {
      const customer = await fundedCustomer(kit, amount);
      const key = await json<CreatedApiKey>(
        await customer.client.post('/api/keys', { name: 'Panel SMM' }),
        201,
      );
      return { ...customer, key: key.key };
    }

    function smm(fields: Record<string, string>) {
      return kit.t.app.request('/api/v2', {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          'x-cometa-client-ip': '203.0.113.30',
        },
        body: new URLSearchParams(fields).toString(),
      });
    }

    it("lists every field a panel reads for every type, and takes each type's parameters", async () => {
      const r = await reseller('50.00');
      const services = (await (await smm({ key: r.key, action: 'services' })).json()) as Record<
        string,
        unknown
      >[];
      for (const type of Object.keys(SMM_TYPE_SPECS) as SmmType[]) {
        const entry = services.find((s) => s.service === svc(type).number);
        expect(entry, type).toMatchObject({
          type,
          category: 'Redes sociales',
          rate: svc(type).price,
          dripfeed: SMM_TYPE_SPECS[type].dripfeed,
          refill: true,
          cancel: true,
        });
        expect(Object.keys(entry ?? {}).sort()).toEqual(
          [
            'service',
            'name',
            'type',
            'category',
            'rate',
            'min',
            'max',
            'dripfeed',
            'refill',
            'cancel',
            'desc',
          ].sort(),
        );
      }
      const add = async (type: SmmType, params: Record<string, string>) =>
        (await (
          await smm({ key: r.key, action: 'add', service: String(svc(type).number), ...params })
        ).json()) as { order?: number; error?: string };
      const comments = await add('Custom Comments', {
        link: link(),
        comments: Array.from({ length: 12 }, (_, i) => `Comentario ${i + 1}`).join('\r\n'),
      });
      expect(comments.order).toEqual(expect.any(Number));
      expect(
        await add('Mentions with Hashtags', {
          link: link(),
          quantity: '100',
          usernames: 'ana\nluis',
          hashtags: '#moda\n#verano',
        }),
      ).toMatchObject({ order: anyNumber });
      expect(
        await add('Subscriptions', {
          username: 'tienda',
          min: '50',
          max: '100',
          posts: '3',
          delay: '0',
        }),
      ).toMatchObject({ order: anyNumber });
      expect(await add('Poll', { link: link(), quantity: '100' })).toEqual({
        error: 'Incorrect answer_number: Este campo es obligatorio.',
      });
      expect(await add('Default', { link: link(), quantity: '5' })).toEqual({
        error: 'Quantity less than minimal 10',
      });
      const drip = await add('Default', {
        link: link(),
        quantity: '100',
        runs: '4',
        interval: '15',
      });
      const status = (await (
        await smm({ key: r.key, action: 'status', order: String(drip.order) })
      ).json()) as Record<string, string>;
      expect(status).toEqual({
        charge: '0.80',
        start_count: '0',
        currency: 'USD',
        status: 'Pending',
        remains: '400',
      });
      const [row] = await queryRows<{ quantity: number; fields: Record<string, string> }>(
        kit.t.database.db,
        sql`SELECT quantity, fields FROM "order" WHERE number = ${comments.order}`,
      );
      expect(row?.quantity).toBe(12);
      expect(row?.fields.comments?.split('\n')).toHaveLength(12);
    });

    it('refill and refill_status, single and multi; cancel single and multi', async () => {
      const r = await reseller('20.00');
      const place = async () =>
        (
          (await (
            await smm({
              key: r.key,
              action: 'add',
              service: String(svc('Default').number),
              link: link(),
              quantity: '100',
            })
          ).json()) as { order: number }
        ).order;
      const [a, b, c] = [await place(), await place(), await place()];
      const ids = await queryRows<{ id: string; number: number }>(
        kit.t.database.db,
        sql`SELECT id, number FROM "order" WHERE number IN (${a}, ${b})`,
      );
      for (const o of ids)
        await json(
          await kit.admin.client.post(`/api/admin/orders/${o.id}/complete`, { result: 'Ok' }),
          200,
        );
      const single = (await (
        await smm({ key: r.key, action: 'refill', order: String(a) })
      ).json()) as {
        refill: string;
      };
      expect(single.refill).toMatch(/^\d+$/);
      const multi = (await (
        await smm({ key: r.key, action: 'refill', orders: `${a},${b},${c},999999999` })
      ).json()) as { order: number; refill: unknown }[];
      expect(multi).toEqual([
        { order: a, refill: { error: 'Refill is already in progress' } },
        { order: b, refill: anyNumber },
        { order: c, refill: { error: 'Order is not completed' } },
        { order: 999999999, refill: { error: 'Incorrect order ID' } },
      ]);
      const refillB = multi[1]?.refill as number;
      expect(
        await (await smm({ key: r.key, action: 'refill_status', refill: single.refill })).json(),
      ).toEqual({ status: 'Pending' });
      const refills = await queryRows<{ id: string }>(
        kit.t.database.db,
        sql`SELECT id FROM order_refill WHERE number = ${refillB}`,
      );
      await json(
        await kit.admin.client.post(`/api/admin/refills/${refills[0]?.id}/reject`, {
          reason: 'Sin caída',
        }),
        200,
      );
      expect(
        await (
          await smm({
            key: r.key,
            action: 'refill_status',
            refills: `${single.refill},${refillB},1`,
          })
        ).json(),
      ).toEqual([
        { refill: Number(single.refill), status: 'Pending' },
        { refill: refillB, status: 'Rejected' },
        { refill: 1, status: { error: 'Refill not found' } },
      ]);
      // Cancel: the pending one at once; completed ones cannot be.
      expect(
        await (await smm({ key: r.key, action: 'cancel', orders: `${c},${a}` })).json(),
      ).toEqual([
        { order: c, cancel: 1 },
        { order: a, cancel: { error: 'Order cannot be canceled' } },
      ]);
      expect(await (await smm({ key: r.key, action: 'cancel', order: String(a) })).json()).toEqual({
        error: 'Order cannot be canceled',
      });
      await expectLedgerClean(kit);
    });
  });
});

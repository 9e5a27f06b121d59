import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceField } from '../../../shared/schemas/catalogue';
import { queryRows } from '../../db/client';
import { order, service } from '../../db/schema/catalogue';
import {
  createTestApp,
  registerVerified,
  signInAdmin,
  userIdOf,
  type TestApp,
  type TestClient,
} from '../../../tests/setup/test-app';
import { imeiFor } from '../../../tests/setup/imei';
import { dbTargets } from '../../../tests/setup/test-db';
import { balances } from '../ledger/ledger.service';
import { verifyLedger } from '../ledger/ledger.verify';
import { listOrders } from './orders.service';

const VALID_IMEI = '359702373699048';
const IMEI_FIELDS: ServiceField[] = [
  { key: 'imei', label: 'IMEI', type: 'imei', required: true, identifier: true },
];

const imei = imeiFor;

describe.each(dbTargets())('orders on %s', (target) => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof signInAdmin>>;
  let imeiService: string;
  let recheckService: string;
  let socialService: string;

  async function fund(email: string, amount: string) {
    const res = await admin.client.post(
      `/api/admin/users/${await userIdOf(t, email)}/adjustments`,
      { amount, reason: 'Saldo de prueba' },
    );
    expect(res.status).toBe(201);
  }

  async function customer(
    amount = '0.00',
  ): Promise<{ client: TestClient; email: string; id: string }> {
    const { client, email } = await registerVerified(t);
    if (amount !== '0.00') await fund(email, amount);
    return { client, email, id: await userIdOf(t, email) };
  }

  beforeAll(async () => {
    t = await createTestApp(target);
    admin = await signInAdmin(t);
    const rows = await t.database.db
      .insert(service)
      .values([
        {
          category: 'IMEI',
          name: 'Consulta IMEI completa',
          description: 'Operador y bloqueo.',
          deliveryTime: '1–24 horas',
          price: 50n,
          fields: IMEI_FIELDS,
        },
        {
          category: 'IMEI',
          name: 'Estado de iCloud',
          description: 'Find My iPhone.',
          deliveryTime: 'Instantáneo',
          price: 25n,
          fields: IMEI_FIELDS,
          allowRecheck: true,
        },
        {
          category: 'social',
          name: 'Seguidores de Instagram',
          description: 'Por cada 1000.',
          deliveryTime: '1–24 horas',
          price: 150n,
          unit: '1000',
          minQuantity: 100,
          maxQuantity: 10000,
          fields: [
            {
              key: 'link',
              label: 'Enlace del perfil',
              type: 'url',
              required: true,
              identifier: true,
            },
          ],
        },
      ])
      .returning({ id: service.id });
    [imeiService, recheckService, socialService] = rows.map((r) => r.id) as [
      string,
      string,
      string,
    ];
  });
  afterAll(async () => {
    await t.close();
  });

  it('places an order: 201, price held from the available balance, an event, and it shows in the list', async () => {
    const c = await customer('1.00');
    const res = await c.client.post('/api/orders', {
      serviceId: imeiService,
      fields: { imei: ` ${VALID_IMEI} ` },
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as {
      id: string;
      price: string;
      status: string;
      statusLabel: string;
      fields: Record<string, string>;
      cancellable: boolean;
    };
    expect(body).toMatchObject({
      price: '0.50',
      status: 'pending',
      statusLabel: 'Pendiente',
      fields: { imei: VALID_IMEI },
      cancellable: true,
    });
    expect(await balances(t.database.db, c.id)).toEqual({ available: 50n, held: 50n });
    expect(await (await c.client.get('/api/wallet')).json()).toEqual({
      available: '0.50',
      held: '0.50',
      creditLimit: '0.00',
      spendable: '0.50',
      currency: 'USD',
    });
    const detail = (await (await c.client.get(`/api/orders/${body.id}`)).json()) as {
      events: { status: string; actor: string }[];
    };
    expect(detail.events).toEqual([
      expect.objectContaining({ status: 'pending', actor: 'customer' }),
    ]);
    const list = (await (await c.client.get('/api/orders')).json()) as { items: { id: string }[] };
    expect(list.items.map((o) => o.id)).toEqual([body.id]);
  });

  it('answers every error precisely and charges nothing', async () => {
    const c = await customer('0.30');
    const poor = await c.client.post('/api/orders', {
      serviceId: imeiService,
      fields: { imei: VALID_IMEI },
    });
    expect(poor.status).toBe(402);
    expect(await poor.json()).toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    const bad = await c.client.post('/api/orders', {
      serviceId: recheckService,
      fields: { imei: '359702373699049' },
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { fields: Record<string, string> }).fields.imei).toMatch(
      /control/,
    );
    for (const value of ['35970237369904', '3597023736990481', '35970237369904A']) {
      const res = await c.client.post('/api/orders', {
        serviceId: recheckService,
        fields: { imei: value },
      });
      expect(res.status, value).toBe(400);
    }
    expect(
      (
        await c.client.post('/api/orders', {
          serviceId: '00000000-0000-0000-0000-000000000000',
          fields: {},
        })
      ).status,
    ).toBe(404);
    expect((await c.client.post('/api/orders', { serviceId: 'nope', fields: {} })).status).toBe(
      404,
    );
    await t.database.db
      .update(service)
      .set({ active: false })
      .where(eq(service.id, recheckService));
    expect(
      (
        await c.client.post('/api/orders', {
          serviceId: recheckService,
          fields: { imei: VALID_IMEI },
        })
      ).status,
    ).toBe(404);
    await t.database.db.update(service).set({ active: true }).where(eq(service.id, recheckService));
    expect(await balances(t.database.db, c.id)).toEqual({ available: 30n, held: 0n });
    const other = await customer();
    const mine = (await (
      await c.client.post('/api/orders', {
        serviceId: recheckService,
        fields: { imei: VALID_IMEI },
      })
    ).json()) as { id: string };
    expect((await other.client.get(`/api/orders/${mine.id}`)).status).toBe(404);
    expect((await other.client.post(`/api/orders/${mine.id}/cancel`)).status).toBe(404);
  });

  it('prices per 1000 units, rounding up to the cent, within min and max', async () => {
    const c = await customer('5.00');
    const ok = await c.client.post('/api/orders', {
      serviceId: socialService,
      quantity: 333,
      fields: { link: 'https://instagram.com/cometa' },
    });
    expect(ok.status).toBe(201);
    expect(((await ok.json()) as { price: string }).price).toBe('0.50'); // 1.50 × 333 / 1000 = 0.4995 → 0.50
    for (const quantity of [99, 10001]) {
      const res = await c.client.post('/api/orders', {
        serviceId: socialService,
        quantity,
        fields: { link: 'https://instagram.com/otra' },
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { fields: Record<string, string> }).fields.quantity).toBe(
        'La cantidad debe estar entre 100 y 10000.',
      );
    }
  });

  it('refuses the same identifier while an earlier order is in flight, unless the service allows re-checks', async () => {
    const c = await customer('2.00');
    expect(
      (await c.client.post('/api/orders', { serviceId: imeiService, fields: { imei: imei(1) } }))
        .status,
    ).toBe(201);
    const dup = await c.client.post('/api/orders', {
      serviceId: imeiService,
      fields: { imei: imei(1) },
    });
    expect(dup.status).toBe(409);
    expect(await dup.json()).toMatchObject({ code: 'DUPLICATE_IN_FLIGHT' });
    expect(
      (await c.client.post('/api/orders', { serviceId: recheckService, fields: { imei: imei(1) } }))
        .status,
    ).toBe(201);
    expect(
      (await c.client.post('/api/orders', { serviceId: recheckService, fields: { imei: imei(1) } }))
        .status,
    ).toBe(201);
  });

  it('idempotency: the same key and body → the same order charged once (×50 in parallel); another body → 409', async () => {
    const c = await customer('10.00');
    const send = (fields: Record<string, string>) =>
      c.client.request(
        'POST',
        '/api/orders',
        { serviceId: imeiService, fields },
        { 'Idempotency-Key': 'pedido-42' },
      );
    const all = await Promise.all(Array.from({ length: 50 }, () => send({ imei: imei(42) })));
    const ids = await Promise.all(all.map(async (r) => ((await r.json()) as { id: string }).id));
    expect(new Set(ids).size).toBe(1);
    expect(all.filter((r) => r.status === 201)).toHaveLength(1);
    expect(all.filter((r) => r.status === 200)).toHaveLength(49);
    expect(await balances(t.database.db, c.id)).toEqual({ available: 950n, held: 50n });
    const other = await send({ imei: imei(43) });
    expect(other.status).toBe(409);
    expect(await other.json()).toMatchObject({ code: 'IDEMPOTENCY_MISMATCH' });
  });

  it('300 concurrent orders against a balance that covers 30: exactly 30, balance 0, ledger sums to zero', async () => {
    const c = await customer('15.00');
    const results = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        c.client.post('/api/orders', { serviceId: imeiService, fields: { imei: imei(1000 + i) } }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(30);
    expect(results.filter((r) => r.status === 402)).toHaveLength(270);
    expect(await balances(t.database.db, c.id)).toEqual({ available: 0n, held: 1500n });
    expect((await verifyLedger(t.database.db)).problems).toEqual([]);
  });

  it('cancel and reject racing on one order refund it exactly once', async () => {
    for (let round = 0; round < 5; round++) {
      const c = await customer('0.50');
      const placed = (await (
        await c.client.post('/api/orders', {
          serviceId: imeiService,
          fields: { imei: imei(5000 + round) },
        })
      ).json()) as { id: string };
      const [cancel, reject] = await Promise.all([
        c.client.post(`/api/orders/${placed.id}/cancel`),
        admin.client.post(`/api/admin/orders/${placed.id}/reject`, {
          reason: 'IMEI no compatible',
        }),
      ]);
      expect([cancel.status, reject.status].sort()).toEqual([200, 409]);
      expect(await balances(t.database.db, c.id)).toEqual({ available: 50n, held: 0n });
      const refunds = await queryRows<{ n: string }>(
        t.database.db,
        sql`SELECT count(*)::text AS n FROM ledger_transfer WHERE idempotency_key = ${`order:${placed.id}:release`}`,
      );
      expect(refunds[0]?.n).toBe('1');
    }
  });

  it('admin fulfilment: take, complete with a result (revenue), e-mail; completing again → 409 CONFLICT', async () => {
    const c = await customer('1.00');
    const placed = (await (
      await c.client.post('/api/orders', { serviceId: imeiService, fields: { imei: imei(7001) } })
    ).json()) as { id: string; number: number };
    expect((await admin.client.post(`/api/admin/orders/${placed.id}/take`)).status).toBe(200);
    expect((await c.client.post(`/api/orders/${placed.id}/cancel`)).status).toBe(409);
    const done = await admin.client.post(`/api/admin/orders/${placed.id}/complete`, {
      result: 'Operador: Telcel · Sin bloqueo',
    });
    expect(done.status).toBe(200);
    expect(await done.json()).toMatchObject({
      status: 'completed',
      statusLabel: 'Completada',
      result: 'Operador: Telcel · Sin bloqueo',
    });
    expect(await balances(t.database.db, c.id)).toEqual({ available: 50n, held: 0n });
    const again = await admin.client.post(`/api/admin/orders/${placed.id}/complete`, {
      result: 'x',
    });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: 'CONFLICT' });
    expect(
      (await admin.client.post(`/api/admin/orders/${placed.id}/reject`, { reason: 'Tarde' }))
        .status,
    ).toBe(409);
    const mail = await t.waitForMail(c.email, new RegExp(`Orden #${placed.number} completada`));
    expect(mail.text).toContain('Operador: Telcel');
    // The e-mail names the IMEI and the service, and links to the order itself.
    expect(mail.text).toContain(`IMEI: ${imei(7001)}`);
    expect(mail.text).toMatch(/^Servicio: \S.+$/m);
    const link = `${t.env.APP_URL}/orderhistory?orden=${placed.id}`;
    expect(mail.text).toContain(`Ver la orden: ${link}`);
    expect(mail.links).toContain(link);
    const detail = (await (await c.client.get(`/api/orders/${placed.id}`)).json()) as {
      events: { status: string }[];
    };
    expect(detail.events.map((e) => e.status)).toEqual(['pending', 'processing', 'completed']);
    // A customer cannot use the admin queue.
    expect(
      (await c.client.post(`/api/admin/orders/${placed.id}/complete`, { result: 'x' })).status,
    ).toBe(403);
  });

  it('rejection refunds to the available balance and e-mails the reason', async () => {
    const c = await customer('0.50');
    const placed = (await (
      await c.client.post('/api/orders', { serviceId: imeiService, fields: { imei: imei(8001) } })
    ).json()) as { id: string; number: number };
    const res = await admin.client.post(`/api/admin/orders/${placed.id}/reject`, {
      reason: 'El IMEI no es de este operador',
    });
    expect(res.status).toBe(200);
    expect(await balances(t.database.db, c.id)).toEqual({ available: 50n, held: 0n });
    const mail = await t.waitForMail(c.email, /rechazada y reembolsada/);
    expect(mail.text).toContain('Devolvimos US$0.50 a tu saldo.');
    expect(mail.text).toContain(`IMEI: ${imei(8001)}`);
  });

  it('bulk: every line validated and answered on its own; only valid lines charged', async () => {
    const c = await customer('1.00');
    const lines = [imei(9001), '12345', imei(9002), imei(9001), '', imei(9003)].join('\n');
    const res = await c.client.post('/api/orders/bulk', { serviceId: imeiService, imeis: lines });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      placed: number;
      refused: number;
      charged: string;
      results: { line: number; ok: boolean; code?: string }[];
    };
    expect(body.placed).toBe(2);
    expect(body.charged).toBe('1.00');
    expect(body.results.map((r) => [r.line, r.ok, r.code ?? null])).toEqual([
      [1, true, null],
      [2, false, 'VALIDATION_FAILED'],
      [3, true, null],
      [4, false, 'DUPLICATE_IN_LIST'],
      [6, false, 'INSUFFICIENT_FUNDS'],
    ]);
    expect(await balances(t.database.db, c.id)).toEqual({ available: 0n, held: 100n });
  });

  it('bulk complete: pasted results by number or IMEI, each line answered on its own, captured once', async () => {
    const c = await customer('3.00');
    const place = async (serviceId: string, value: string) =>
      (await (
        await c.client.post('/api/orders', { serviceId, fields: { imei: value } })
      ).json()) as { id: string; number: number };
    const a = await place(imeiService, imei(9101));
    const b = await place(imeiService, imei(9102));
    // Re-checks allowed: two orders in flight with one IMEI make that IMEI ambiguous.
    await place(recheckService, imei(9103));
    await place(recheckService, imei(9103));
    const d = await place(imeiService, imei(9104));
    expect(
      (await admin.client.post(`/api/admin/orders/${d.id}/reject`, { reason: 'No procede' }))
        .status,
    ).toBe(200);
    const heldBefore = (await balances(t.database.db, c.id)).held;

    const text = [
      `#${a.number}\tCódigo: 111`,
      `${imei(9102)} | Código: 222`,
      `${imei(9103)} Código 333`,
      `#${d.number}: Código 444`,
      '#99999999 Código',
      '¿?',
      `${a.number} repetida`,
      `${imei(9105)} nada`,
    ].join('\n');
    const res = await admin.client.post('/api/admin/orders/bulk-complete', { text });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      completed: number;
      failed: number;
      results: { line: number; ok: boolean; code?: string; number?: number; message?: string }[];
    };
    expect(body.completed).toBe(2);
    expect(body.failed).toBe(6);
    expect(body.results.map((r) => [r.line, r.ok, r.code ?? r.number])).toEqual([
      [1, true, a.number],
      [2, true, b.number],
      [3, false, 'CONFLICT'],
      [4, false, 'CONFLICT'],
      [5, false, 'NOT_FOUND'],
      [6, false, 'VALIDATION_FAILED'],
      [7, false, 'VALIDATION_FAILED'],
      [8, false, 'NOT_FOUND'],
    ]);
    expect(body.results[2]?.message).toMatch(
      /^Hay 2 órdenes en curso con \d+; usa el número de orden/,
    );
    expect(body.results[3]?.message).toBe(
      `La orden #${d.number} ya está rechazada: no cambia nada.`,
    );

    // The two completed orders carry their results; their held price went to revenue.
    const rows = await t.database.db
      .select({ number: order.number, status: order.status, result: order.result })
      .from(order)
      .where(eq(order.userId, c.id));
    expect(
      rows.filter((r) => r.status === 'completed').sort((x, y) => x.number - y.number),
    ).toEqual([
      { number: a.number, status: 'completed', result: 'Código: 111' },
      { number: b.number, status: 'completed', result: 'Código: 222' },
    ]);
    expect((await balances(t.database.db, c.id)).held).toBe(heldBefore - 100n);
    // One summary e-mail for the two orders completed in one paste, not one e-mail each.
    const summary = await t.waitForMail(c.email, /^2 órdenes terminadas: 2 completadas$/);
    expect(summary.text).toContain(`#${a.number} · `);
    expect(summary.text).toContain(`IMEI ${imei(9101)}`);
    expect(summary.text).toContain(`— Completada: Código: 222`);
    expect(summary.text).toContain(`/orderhistory?orden=${b.id}`);
    expect(
      (await t.outbox()).filter(
        (m) => m.to === c.email && /^Orden #\d+ completada$/.test(m.subject),
      ),
    ).toEqual([]);

    // The same paste twice at once: the order is captured exactly once.
    const e = await place(imeiService, imei(9106));
    const racing = await Promise.all(
      [0, 1].map(() =>
        admin.client.post('/api/admin/orders/bulk-complete', { text: `#${e.number} uno` }),
      ),
    );
    const outcomes = (await Promise.all(racing.map((r) => r.json()))) as { completed: number }[];
    expect(outcomes.map((o) => o.completed).sort()).toEqual([0, 1]);
    const captures = await queryRows<{ n: string }>(
      t.database.db,
      sql`SELECT count(*)::text AS n FROM ledger_transfer WHERE idempotency_key = ${`order:${e.id}:capture`}`,
    );
    expect(captures[0]?.n).toBe('1');

    // Bad input and the wrong role.
    const empty = await admin.client.post('/api/admin/orders/bulk-complete', { text: ' ' });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: { text: 'Pega los resultados, uno por línea.' },
    });
    expect(
      (await c.client.post('/api/admin/orders/bulk-complete', { text: `#${a.number} x` })).status,
    ).toBe(403);
    expect((await verifyLedger(t.database.db)).problems).toEqual([]);
  });

  it('keyset pages never skip or repeat orders created within the same millisecond', async () => {
    const c = await customer();
    // Five orders in one millisecond, microseconds apart, as PostgreSQL can store them.
    const stamps = [1, 2, 3, 4, 5].map(
      (us) => `2026-03-01 10:00:00.123${String(us).padStart(3, '0')}+00`,
    );
    await t.database.db.insert(order).values(
      stamps.map((at, i) => ({
        userId: c.id,
        serviceId: imeiService,
        category: 'IMEI',
        serviceName: 'Consulta IMEI completa',
        fields: { imei: imei(9500 + i) },
        price: 50n,
        status: 'completed',
        createdAt: sql`${at}::timestamptz` as unknown as Date,
      })),
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let guard = 0; guard < 10; guard++) {
      const page = await listOrders(t.database.db, c.id, {}, cursor ?? undefined, 2);
      seen.push(...page.items.map((o) => o.fields.imei ?? ''));
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    expect(seen).toEqual([4, 3, 2, 1, 0].map((i) => imei(9500 + i)));
    const bad = await c.client.get('/api/orders?cursor=bm9wZXxub3Bl');
    expect(bad.status).toBe(400);
  });

  it('summarises orders by status, the latest five and the spend of 30 days (refunds excluded)', async () => {
    const c = await customer('2.00');
    const a = (await (
      await c.client.post('/api/orders', { serviceId: imeiService, fields: { imei: imei(9500) } })
    ).json()) as { id: string };
    await c.client.post('/api/orders', { serviceId: imeiService, fields: { imei: imei(9501) } });
    await c.client.post(`/api/orders/${a.id}/cancel`);
    const summary = (await (await c.client.get('/api/orders/summary')).json()) as {
      byStatus: Record<string, number>;
      latest: unknown[];
      spend30d: { date: string; amount: string }[];
      spend30dTotal: string;
    };
    expect(summary.byStatus).toMatchObject({ pending: 1, cancelled: 1, completed: 0 });
    expect(summary.latest).toHaveLength(2);
    expect(summary.spend30d).toHaveLength(30);
    expect(summary.spend30d.at(-1)).toEqual({
      date: new Date().toISOString().slice(0, 10),
      amount: '0.50',
    });
    expect(summary.spend30dTotal).toBe('0.50');
  });

  it('filters, searches by number or a pasted IMEI list, pages by keyset, and exports CSV', async () => {
    const c = await customer('5.00');
    const placed: { id: string; number: number }[] = [];
    for (let i = 0; i < 4; i++)
      placed.push(
        (await (
          await c.client.post('/api/orders', {
            serviceId: recheckService,
            fields: { imei: imei(9100 + i) },
          })
        ).json()) as { id: string; number: number },
      );
    await c.client.post(`/api/orders/${placed[0]!.id}/cancel`);
    const cancelled = (await (await c.client.get('/api/orders?status=cancelled')).json()) as {
      items: { id: string }[];
    };
    expect(cancelled.items.map((o) => o.id)).toEqual([placed[0]!.id]);
    const byImei = (await (
      await c.client.get(`/api/orders?q=${encodeURIComponent(`${imei(9101)}\n${imei(9102)}`)}`)
    ).json()) as { items: { id: string }[] };
    expect(byImei.items).toHaveLength(2);
    const byNumber = (await (
      await c.client.get(`/api/orders?q=%23${placed[3]!.number}`)
    ).json()) as { items: { id: string }[] };
    expect(byNumber.items.map((o) => o.id)).toEqual([placed[3]!.id]);
    expect((await c.client.get('/api/orders?status=nada')).status).toBe(400);
    expect((await c.client.get('/api/orders?status=pending,nada')).status).toBe(400);
    // Several statuses at once: one keyset list, newest first.
    const open = (await (await c.client.get('/api/orders?status=pending,cancelled')).json()) as {
      items: { id: string }[];
    };
    expect(open.items.map((o) => o.id)).toEqual([...placed].reverse().map((o) => o.id));
    await admin.client.post(`/api/admin/orders/${placed[1]!.id}/take`);
    const inFlight = (await (
      await admin.client.get(
        `/api/admin/orders?status=pending,processing&q=%23${placed[1]!.number}`,
      )
    ).json()) as { items: { id: string; status: string }[] };
    expect(inFlight.items).toEqual([
      expect.objectContaining({ id: placed[1]!.id, status: 'processing' }),
    ]);
    const csv = await c.client.get('/api/orders/export.csv?category=IMEI&format=rfc4180');
    expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
    const text = await csv.text();
    expect(text.split('\r\n')[0]).toBe(
      'numero,fecha,servicio,categoria,cantidad,datos,importe,estado,resultado',
    );
    expect(text).toContain('Cancelada');
    expect(text.trim().split('\r\n')).toHaveLength(5);
    // Keyset pagination over the admin queue.
    const rows = await t.database.db.select({ id: order.id }).from(order);
    const seen = new Set<string>();
    let cursor: string | null = null;
    do {
      const page = (await (
        await admin.client.get(`/api/admin/orders${cursor ? `?cursor=${cursor}` : ''}`)
      ).json()) as { items: { id: string }[]; nextCursor: string | null };
      for (const o of page.items) seen.add(o.id);
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen.size).toBe(rows.length);
    expect((await verifyLedger(t.database.db)).problems).toEqual([]);
  });
});

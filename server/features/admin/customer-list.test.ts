// Issue 20, Contracts: GET /api/admin/users?sort=balance|lastOrder|spend|created&blocked=&q=&cursor=
// lists customers (admins only), a keyset page at a time — on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminServiceDto } from '../../../shared/schemas/catalogue';
import type { CustomerList, CustomerSummary } from '../../../shared/schemas/admin';
import type { OrderDto } from '../../../shared/schemas/orders';
import { imeiFor } from '../../../tests/setup/imei';
import {
  createTestApp,
  registerVerified,
  signInAdmin,
  userIdOf,
  type TestApp,
  type TestClient,
} from '../../../tests/setup/test-app';
import { dbTargets } from '../../../tests/setup/test-db';

async function body<T>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  expect(res.status, text.slice(0, 400)).toBe(status);
  return JSON.parse(text) as T;
}

describe.each(dbTargets())('the admin list of customers on %s', (target) => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof signInAdmin>>;
  /** In every name of this file's customers, so `q` isolates them from other accounts. */
  const tag = `lista${Date.now().toString(36)}`;
  const people: Record<'ana' | 'beto' | 'ciro' | 'dora', { id: string; client: TestClient }> =
    {} as never;

  async function list(query: string): Promise<CustomerList> {
    return body<CustomerList>(await admin.client.get(`/api/admin/users?q=${tag}&${query}`));
  }
  const names = (page: CustomerList) => page.items.map((c) => c.name.split(' ')[0] ?? '');

  beforeAll(async () => {
    t = await createTestApp(target);
    admin = await signInAdmin(t);
    const svc = await body<AdminServiceDto>(
      await admin.client.post('/api/admin/services', {
        category: 'IMEI',
        name: 'Consulta de operador',
        description: 'Operador y bloqueo.',
        deliveryTime: '1-24 horas',
        price: '0.50',
        fields: [{ key: 'imei', label: 'IMEI', type: 'imei', required: true, identifier: true }],
      }),
      201,
    );
    for (const [who, amount] of [
      ['ana', '30.00'],
      ['beto', '10.00'],
      ['ciro', null],
      ['dora', '5.00'],
    ] as const) {
      const { client, email } = await registerVerified(t, `${who} ${tag}`);
      const id = await userIdOf(t, email);
      people[who] = { id, client };
      if (amount)
        await body(
          await admin.client.post(`/api/admin/users/${id}/adjustments`, {
            amount,
            reason: 'Saldo de prueba',
          }),
          201,
        );
    }
    // Ana orders twice (one completed: spend US$0.50), Dora once (still pending: no spend yet).
    const order = async (who: 'ana' | 'dora', seed: string) =>
      body<OrderDto>(
        await people[who].client.post('/api/orders', {
          serviceId: svc.id,
          fields: { imei: imeiFor(`${Date.now() % 100_000}${seed}`) },
        }),
        201,
      );
    const first = await order('ana', '01');
    await body(
      await admin.client.post(`/api/admin/orders/${first.id}/complete`, { result: 'Libre' }),
    );
    await order('dora', '02');
    await order('ana', '03');
    await body(
      await admin.client.post(`/api/admin/users/${people.ciro.id}/block`, {
        reason: 'Pruebas de bloqueo',
      }),
    );
  });
  afterAll(async () => {
    await t.close();
  });

  it('GET /api/admin/users lists customers with balance, last order, spend, creation and block', async () => {
    const page = await list('sort=balance');
    expect(names(page)).toEqual(['ana', 'beto', 'dora', 'ciro']);
    const ana = page.items.find((c) => c.id === people.ana.id) as CustomerSummary;
    expect(ana).toMatchObject({
      name: `ana ${tag}`,
      role: 'customer',
      emailVerified: true,
      balance: '29.00',
      available: '29.00',
      spend: '0.50',
      blocked: false,
    });
    expect(Date.parse(ana.createdAt)).toBeGreaterThan(Date.now() - 10 * 60_000);
    expect(Date.parse(ana.lastOrderAt ?? '')).toBeGreaterThan(Date.parse(ana.createdAt));
    expect(page.items.find((c) => c.id === people.ciro.id)).toMatchObject({
      balance: '0.00',
      spend: '0.00',
      lastOrderAt: null,
      blocked: true,
    });
    expect(page.nextCursor).toBeNull();
  });

  it('sorts by spend, last order and creation, either way', async () => {
    expect(names(await list('sort=spend')).slice(0, 1)).toEqual(['ana']);
    // Dora ordered between Ana's two orders; those who never ordered come last.
    const byLastOrder = names(await list('sort=lastOrder'));
    expect(byLastOrder.slice(0, 2)).toEqual(['ana', 'dora']);
    expect(byLastOrder.slice(2).sort()).toEqual(['beto', 'ciro']);
    expect(names(await list('sort=created'))).toEqual(['dora', 'ciro', 'beto', 'ana']);
    expect(names(await list(''))).toEqual(['dora', 'ciro', 'beto', 'ana']);
    expect(names(await list('sort=created&dir=asc'))).toEqual(['ana', 'beto', 'ciro', 'dora']);
    expect(names(await list('sort=balance&dir=asc'))).toEqual(['ciro', 'dora', 'beto', 'ana']);
  });

  it('filters by block and by a part of the name or e-mail', async () => {
    expect(names(await list('blocked=true'))).toEqual(['ciro']);
    expect(names(await list('blocked=false&sort=created&dir=asc'))).toEqual([
      'ana',
      'beto',
      'dora',
    ]);
    expect(names(await list('blocked='))).toHaveLength(4);
    const one = await body<CustomerList>(
      await admin.client.get(`/api/admin/users?q=${encodeURIComponent(`beto ${tag}`)}`),
    );
    expect(one.items.map((c) => c.id)).toEqual([people.beto.id]);
  });

  it('pages with an opaque cursor, every customer once, for every sort', async () => {
    for (const sort of ['balance', 'lastOrder', 'spend', 'created']) {
      for (const dir of ['desc', 'asc']) {
        const whole = names(await list(`sort=${sort}&dir=${dir}`));
        const seen: string[] = [];
        let cursor: string | null = null;
        do {
          const page: CustomerList = await list(
            `sort=${sort}&dir=${dir}&limit=1${cursor ? `&cursor=${cursor}` : ''}`,
          );
          expect(page.items.length).toBeLessThanOrEqual(1);
          seen.push(...names(page));
          cursor = page.nextCursor;
        } while (cursor);
        expect(seen, `${sort} ${dir}`).toEqual(whole);
      }
    }
    // Every account, without q: pages of 2 cover them all once.
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const page: CustomerList = await body<CustomerList>(
        await admin.client.get(
          `/api/admin/users?sort=balance&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        ),
      );
      ids.push(...page.items.map((c) => c.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(new Set(ids).size).toBe(ids.length);
    for (const p of Object.values(people)) expect(ids).toContain(p.id);
  });

  it('refuses a bad sort, a bad cursor or a cursor of another sort, and anyone but an admin', async () => {
    const first = await list('sort=balance&limit=1');
    for (const query of [
      'sort=name',
      'dir=up',
      'blocked=quizas',
      'limit=0',
      'limit=101',
      'cursor=no%20vale',
      'cursor=bm8tanNvbg',
      `sort=spend&cursor=${first.nextCursor ?? ''}`,
      `sort=balance&dir=asc&cursor=${first.nextCursor ?? ''}`,
    ]) {
      const res = await admin.client.get(`/api/admin/users?${query}`);
      expect(res.status, query).toBe(400);
    }
    expect((await people.ana.client.get('/api/admin/users')).status).toBe(403);
    expect((await t.client().get('/api/admin/users')).status).toBe(401);
  });
});

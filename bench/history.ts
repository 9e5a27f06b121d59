// npm run bench:history — order-history page latency for a customer with 100 orders and one
// with 100,000, in a database of 1,000,000 orders (PostgreSQL).
import { sql } from 'drizzle-orm';
import { queryRows } from '../server/db/client';
import { fmt, freshDatabase, imeiService, percentile, signInCustomer, startApp } from './setup';

const TOTAL = Number(process.env.BENCH_TOTAL_ORDERS ?? 1_000_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);

const { url, database } = await freshDatabase('cometa_bench_history');
const app = await startApp(url);
const svc = await imeiService(database, { price: 50n, allowRecheck: true, identifier: false });

async function customer(email: string) {
  const cookie = await signInCustomer(app.origin, database, email, 'Bench-Clave-2026!');
  const me = (await (
    await fetch(`${app.origin}/api/me`, { headers: { Cookie: cookie } })
  ).json()) as { id: string };
  return { cookie, id: me.id };
}
const small = await customer('pequeno@example.com');
const big = await customer('grande@example.com');

const t0 = performance.now();
// 1,000 other customers own the rest.
await database.db.execute(
  sql`INSERT INTO "user" (id, name, email, email_verified) SELECT 'filler-' || g, 'Cliente ' || g, 'filler' || g || '@example.com', true FROM generate_series(1, 1000) g`,
);
async function fill(userExpr: ReturnType<typeof sql>, count: number) {
  await database.db.execute(sql`
    INSERT INTO "order" (user_id, service_id, category, service_name, quantity, fields, identifier, price, status, created_at)
    SELECT ${userExpr}, ${svc.id}, 'IMEI', 'Consulta IMEI', 1,
           jsonb_build_object('imei', lpad(g::text, 15, '0')), lpad(g::text, 15, '0'), 50,
           (ARRAY['pending','processing','completed','completed','completed','rejected','cancelled'])[1 + g % 7],
           now() - (g || ' seconds')::interval
    FROM generate_series(1, ${count}) g`);
}
await fill(sql`${small.id}`, 100);
await fill(sql`${big.id}`, 100_000);
await fill(sql`'filler-' || (1 + g % 1000)`, TOTAL - 100_100);
await database.db.execute(sql`ANALYZE "order"`);
const [{ n } = { n: 0 }] = await queryRows<{ n: number }>(
  database.db,
  sql`SELECT count(*)::int AS n FROM "order"`,
);
console.log(
  `bench:history — PostgreSQL, ${n.toLocaleString('en')} orders loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${REQUESTS} requests per case\n`,
);

async function measure(label: string, cookie: string, path: string | (() => Promise<string>)) {
  const latencies: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const p = typeof path === 'string' ? path : await path();
    const start = performance.now();
    const res = await fetch(`${app.origin}${p}`, { headers: { Cookie: cookie } });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${p}: ${res.status}`);
    latencies.push(performance.now() - start);
  }
  latencies.sort((a, b) => a - b);
  console.log(
    `  ${label.padEnd(52)} p50 ${fmt(percentile(latencies, 50)).padStart(9)}   p99 ${fmt(percentile(latencies, 99)).padStart(9)}`,
  );
}

// A cursor up to 40 pages (1,000 orders) deep, for the "deep page" case.
async function deepCursor(cookie: string): Promise<{ cursor: string; page: number }> {
  let cursor = '';
  let page = 1;
  for (let i = 0; i < 40; i++) {
    const res = (await (
      await fetch(`${app.origin}/api/orders${cursor ? `?cursor=${cursor}` : ''}`, {
        headers: { Cookie: cookie },
      })
    ).json()) as { nextCursor: string | null };
    if (!res.nextCursor) break;
    cursor = res.nextCursor;
    page += 1;
  }
  return { cursor, page };
}

for (const [name, who] of [
  ['100 orders', small],
  ['100,000 orders', big],
] as const) {
  console.log(`Customer with ${name}:`);
  await measure('first page (25 newest)', who.cookie, '/api/orders');
  await measure('filtered: status=completed', who.cookie, '/api/orders?status=completed');
  await measure(
    'search: pasted list of 3 IMEIs',
    who.cookie,
    `/api/orders?q=${encodeURIComponent(['000000000000007', '000000000000050', '000000000000099'].join('\n'))}`,
  );
  const deep = await deepCursor(who.cookie);
  if (deep.cursor)
    await measure(
      `page ${deep.page} (keyset cursor)`,
      who.cookie,
      `/api/orders?cursor=${deep.cursor}`,
    );
}
await app.close();
await database.close();

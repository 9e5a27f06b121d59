// npm run bench:fulfilment — how long an admin waits for «Completar en bloque»: 500 pasted
// lines (half by order number, half by IMEI) completed over HTTP against the real PostgreSQL,
// beside the same 500 orders completed one request at a time (what the queue's row button does).
// The order table is padded with other customers' orders so the lookups run on a real-sized
// table.
import { sql } from 'drizzle-orm';
import { queryRows } from '../server/db/client';
import { imeiFor } from '../tests/setup/imei';
import { freshDatabase, imeiService, signInCustomer, startApp } from './setup';

const LINES = Number(process.env.BENCH_LINES ?? 500);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const FILLER = Number(process.env.BENCH_FILLER_ORDERS ?? 300_000);
const PASSWORD = 'Bench-Clave-2026!';

const { url, database } = await freshDatabase('cometa_bench_fulfilment');
const app = await startApp(url);
const svc = await imeiService(database, { price: 50n, allowRecheck: false, identifier: true });

const adminCookie = await signInCustomer(app.origin, database, 'admin@example.com', PASSWORD);
// Admins need two-factor (TWO_FACTOR_REQUIRED otherwise); the benchmark is not about signing in.
await database.db.execute(
  sql`UPDATE "user" SET role = 'admin', two_factor_enabled = true WHERE email = 'admin@example.com'`,
);
const customerCookie = await signInCustomer(app.origin, database, 'cliente@example.com', PASSWORD);

async function call<T>(cookie: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${app.origin}${path}`, {
    method,
    headers: { Cookie: cookie, Origin: app.origin, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

const me = await call<{ id: string }>(customerCookie, 'GET', '/api/me');
await call(adminCookie, 'POST', `/api/admin/users/${me.id}/adjustments`, {
  amount: String((LINES * 2 * (ROUNDS + 1) * 0.5).toFixed(2)),
  reason: 'Saldo del benchmark',
});

const t0 = performance.now();
await database.db.execute(
  sql`INSERT INTO "user" (id, name, email, email_verified) SELECT 'filler-' || g, 'Cliente ' || g, 'filler' || g || '@example.com', true FROM generate_series(1, 1000) g`,
);
await database.db.execute(sql`
  INSERT INTO "order" (user_id, service_id, category, service_name, quantity, fields, identifier, price, status, created_at)
  SELECT 'filler-' || (1 + g % 1000), ${svc.id}, 'IMEI', 'Consulta IMEI', 1,
         jsonb_build_object('imei', lpad(g::text, 15, '9')), lpad(g::text, 15, '9'), 50,
         (ARRAY['completed','completed','completed','rejected','cancelled'])[1 + g % 5],
         now() - (g || ' seconds')::interval
  FROM generate_series(1, ${FILLER}) g`);
await database.db.execute(sql`ANALYZE "order"`);
const [{ n } = { n: 0 }] = await queryRows<{ n: number }>(
  database.db,
  sql`SELECT count(*)::int AS n FROM "order"`,
);
console.log(
  `bench:fulfilment — PostgreSQL, ${n.toLocaleString('en')} orders in the table (loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s); ${LINES} orders per round, ${ROUNDS} rounds\n`,
);

let seed = 0;
const nextImei = () => imeiFor((seed += 1));

type Placed = { number: number; id: string; imei: string };
async function placeRound(): Promise<Placed[]> {
  const imeis = Array.from({ length: LINES }, nextImei);
  const res = await call<{
    placed: number;
    results: Array<{ ok: boolean; imei: string; order?: { id: string; number: number } }>;
  }>(customerCookie, 'POST', '/api/orders/bulk', { serviceId: svc.id, imeis: imeis.join('\n') });
  if (res.placed !== LINES) throw new Error(`placed ${res.placed} of ${LINES}`);
  return res.results.map((r) => ({ number: r.order!.number, id: r.order!.id, imei: r.imei }));
}

const bulkTimes: number[] = [];
const singleTimes: number[] = [];
for (let round = 1; round <= ROUNDS; round++) {
  const pasted = await placeRound();
  const text = pasted
    .map((o, i) => (i % 2 === 0 ? `#${o.number}\tCódigo: ${o.number}` : `${o.imei} | Libre`))
    .join('\n');
  let start = performance.now();
  const bulk = await call<{ completed: number }>(
    adminCookie,
    'POST',
    '/api/admin/orders/bulk-complete',
    { text },
  );
  bulkTimes.push(performance.now() - start);
  if (bulk.completed !== LINES) throw new Error(`bulk completed ${bulk.completed} of ${LINES}`);

  const oneByOne = await placeRound();
  start = performance.now();
  for (const o of oneByOne)
    await call(adminCookie, 'POST', `/api/admin/orders/${o.id}/complete`, { result: 'Libre' });
  singleTimes.push(performance.now() - start);
  console.log(
    `  round ${round}: pasted ${LINES} lines ${(bulkTimes.at(-1)! / 1000).toFixed(2)} s (${Math.round(LINES / (bulkTimes.at(-1)! / 1000))} orders/s) · one request each ${(singleTimes.at(-1)! / 1000).toFixed(2)} s (${Math.round(LINES / (singleTimes.at(-1)! / 1000))} orders/s)`,
  );
}

const [{ problems } = { problems: -1 }] = await queryRows<{ problems: number }>(
  database.db,
  sql`SELECT count(*)::int AS problems FROM "order" o
      WHERE o.user_id = ${me.id} AND o.status = 'completed'
        AND (SELECT count(*) FROM ledger_transfer t WHERE t.idempotency_key = 'order:' || o.id || ':capture') <> 1`,
);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
console.log(
  `\n  median: pasted ${(median(bulkTimes) / 1000).toFixed(2)} s for ${LINES} lines; one request each ${(median(singleTimes) / 1000).toFixed(2)} s`,
);
console.log(`  completed orders without exactly one capture: ${problems}`);

await app.close();
await database.close();

// npm run bench:stock — orders on a service delivered from stock (item claimed with FOR UPDATE
// SKIP LOCKED, order completed and captured in the placing transaction) beside the plain order
// path (hold only), over HTTP against the real PostgreSQL, at 16 and 64 concurrent customers.
// BENCH_ORDERS orders per level (default 400), BENCH_LEVELS (default 16,64).
import { randomUUID } from 'node:crypto';
import { service } from '../server/db/schema/catalogue';
import { stockItem } from '../server/db/schema/stock';
import { itemHash, lastFour, sealItem } from '../server/features/stock/stock-crypto';
import { verifyLedger } from '../server/features/ledger/ledger.verify';
import { imeiFor } from '../tests/setup/imei';
import {
  BENCH_AUTH_SECRET,
  freshDatabase,
  fundedCustomers,
  imeiService,
  runLevels,
  startApps,
} from './setup';

const ORDERS_PER_RUN = Number(process.env.BENCH_ORDERS ?? 400);
const LEVELS = (process.env.BENCH_LEVELS ?? '16,64').split(',').map(Number);
if (LEVELS.some((n) => !Number.isInteger(n) || n < 1)) throw new Error('bad BENCH_LEVELS');

const { url, database } = await freshDatabase('cometa_bench_stock');
const plain = await imeiService(database, { price: 1n, allowRecheck: true, identifier: true });
const [stocked] = await database.db
  .insert(service)
  .values({
    category: 'licenses',
    name: 'Licencia (benchmark)',
    description: 'Benchmark',
    deliveryTime: 'Al instante',
    price: 1n,
    fields: [],
    delivery: 'stock',
    lowStockThreshold: 0,
  })
  .returning({ id: service.id });
if (!stocked) throw new Error('no stock service');
// One item per stock order of every level, sealed as an upload seals them.
const keys = { AUTH_SECRET: BENCH_AUTH_SECRET };
const needed = ORDERS_PER_RUN * LEVELS.length;
for (let i = 0; i < needed; i += 500) {
  const rows = Array.from({ length: Math.min(500, needed - i) }, (_, j) => {
    const id = randomUUID();
    const item = `BENCH-${String(i + j).padStart(6, '0')}-${randomUUID().slice(0, 8)}`;
    return {
      id,
      serviceId: stocked.id,
      sealed: sealItem(keys, id, item),
      hash: itemHash(keys, stocked.id, item),
      last4: lastFour(item),
    };
  });
  await database.db.insert(stockItem).values(rows);
}

const app = await startApps(url);
const customers = await fundedCustomers(app.origin, database, Math.max(...LEVELS));
console.log(
  `bench:stock — PostgreSQL, ${ORDERS_PER_RUN} orders per level, one customer per worker, ${app.count} server instance(s)\n`,
);

let serial = 0;
async function order(w: number, body: unknown, expected: string): Promise<void> {
  const origin = app.originFor(w);
  const res = await fetch(`${origin}/api/orders`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Cookie: customers[w]!.cookie,
      Origin: origin,
      'Idempotency-Key': randomUUID(),
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`order failed: ${res.status} ${text.slice(0, 200)}`);
  if (!text.includes(`"status":"${expected}"`)) throw new Error(`order not ${expected}: ${text}`);
}

console.log('Plain order path (POST /api/orders: hold, pending):');
const plainResults = await runLevels(LEVELS, ORDERS_PER_RUN, async (w) => {
  serial += 1;
  await order(w, { serviceId: plain.id, fields: { imei: imeiFor(serial) } }, 'pending');
});
console.log('\nFrom stock (POST /api/orders: hold, claim an item, complete, capture):');
const stockResults = await runLevels(LEVELS, ORDERS_PER_RUN, (w) =>
  order(w, { serviceId: stocked.id, fields: {} }, 'completed'),
);
await app.close();

console.log('\nStock ÷ plain:');
for (const level of LEVELS) {
  const p = plainResults.find((r) => r.level === level);
  const s = stockResults.find((r) => r.level === level);
  if (p && s)
    console.log(
      `  ${String(level).padStart(2)} concurrent: ${(s.perSecond / p.perSecond).toFixed(2)}× orders/s, p99 ${s.p99.toFixed(1)} ms vs ${p.p99.toFixed(1)} ms`,
    );
}
const report = await verifyLedger(database.db);
const [sold] = (
  await database.executeSql(
    `SELECT count(*)::int AS sold, count(DISTINCT order_id)::int AS orders FROM stock_item WHERE state = 'sold'`,
  )
).rows as { sold: number; orders: number }[];
console.log(
  `\nItems sold: ${sold?.sold} to ${sold?.orders} distinct orders; ledger: ${report.problems.length === 0 ? 'clean' : report.problems.join('; ')}`,
);
await database.close();
if (report.problems.length > 0 || sold?.sold !== sold?.orders) process.exit(1);

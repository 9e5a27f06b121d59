// npm run bench:orders — orders placed over HTTP against the real PostgreSQL with 1, 16 and 64
// concurrent customers, then the same order transaction run directly in SQL, for the ratio.
import { randomUUID } from 'node:crypto';
import { imeiFor } from '../tests/setup/imei';
import {
  benchLevels,
  freshDatabase,
  fundedCustomers,
  imeiService,
  printRatios,
  rawOrders,
  runLevels,
  startApps,
} from './setup';

const ORDERS_PER_RUN = Number(process.env.BENCH_ORDERS ?? 1500);
const LEVELS = benchLevels();

const { url, database } = await freshDatabase('cometa_bench_orders');
const app = await startApps(url);
const svc = await imeiService(database, { price: 1n, allowRecheck: true, identifier: true });
const customers = await fundedCustomers(app.origin, database, Math.max(...LEVELS));

let serial = 0;
console.log(
  `bench:orders — PostgreSQL, ${ORDERS_PER_RUN} orders per level, one customer per worker, ${app.count} server instance(s)\n`,
);
console.log('HTTP POST /api/orders (session, validation, idempotency key, ledger hold, event):');
const http = await runLevels(LEVELS, ORDERS_PER_RUN, async (w) => {
  serial += 1;
  const origin = app.originFor(w);
  const res = await fetch(`${origin}/api/orders`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Cookie: customers[w]!.cookie,
      Origin: origin,
      'Idempotency-Key': randomUUID(),
    },
    body: JSON.stringify({ serviceId: svc.id, fields: { imei: imeiFor(serial) } }),
  });
  await res.arrayBuffer();
  if (res.status !== 201) throw new Error(`order failed: ${res.status}`);
});
await app.close();
const raw = await rawOrders(database, url, customers, svc.id, LEVELS, ORDERS_PER_RUN, serial);
printRatios('HTTP', http, raw);

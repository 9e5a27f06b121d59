// npm run bench:api — orders placed through the reseller API (DHRU Fusion placeimeiorder and
// SMM v2 add, authenticated by a personal API key) against the real PostgreSQL with 1, 16 and
// 64 concurrent clients, then the same order transaction run directly in SQL, for the ratio.
import { eq } from 'drizzle-orm';
import { createKey } from '../server/features/api-keys/api-keys.service';
import { service } from '../server/db/schema/catalogue';
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

const { url, database } = await freshDatabase('cometa_bench_api');
const app = await startApps(url);
const imeiSvc = await imeiService(database, { price: 1n, allowRecheck: true, identifier: true });
const [social] = await database.db
  .insert(service)
  .values({
    category: 'social',
    name: 'Seguidores',
    description: 'Benchmark',
    deliveryTime: '1 hora',
    price: 100n,
    unit: '1000',
    minQuantity: 10,
    maxQuantity: 100_000,
    fields: [{ key: 'link', label: 'Enlace', type: 'url', required: true, identifier: false }],
  })
  .returning({ number: service.number });
const [imeiRow] = await database.db
  .select({ number: service.number })
  .from(service)
  .where(eq(service.id, imeiSvc.id));
const imeiNumber = String(imeiRow!.number);
const customers = await fundedCustomers(app.origin, database, Math.max(...LEVELS));
const keys: string[] = [];
for (const c of customers) {
  keys.push((await createKey(database.db, c.id, { name: 'bench', allowedIps: [] })).key);
}

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

let serial = 0;
console.log(
  `bench:api — PostgreSQL, ${ORDERS_PER_RUN} orders per level, one API key per worker, ${app.count} server instance(s)\n`,
);
console.log('DHRU Fusion POST /api/index.php action=placeimeiorder:');
const dhru = await runLevels(LEVELS, ORDERS_PER_RUN, async (w) => {
  serial += 1;
  const parameters = Buffer.from(
    JSON.stringify({ ID: imeiNumber, IMEI: imeiFor(serial) }),
  ).toString('base64');
  const res = await fetch(
    `${app.originFor(w)}/api/index.php`,
    form({
      username: customers[w]!.email,
      apiaccesskey: keys[w]!,
      action: 'placeimeiorder',
      requestformat: 'JSON',
      parameters,
    }),
  );
  const body = (await res.json()) as { SUCCESS?: unknown };
  if (!body.SUCCESS) throw new Error(`DHRU order failed: ${JSON.stringify(body)}`);
});
console.log('\nSMM v2 POST /api/v2 action=add:');
const smm = await runLevels(LEVELS, ORDERS_PER_RUN, async (w) => {
  serial += 1;
  const res = await fetch(
    `${app.originFor(w)}/api/v2`,
    form({
      key: keys[w]!,
      action: 'add',
      service: String(social!.number),
      link: `https://example.com/perfil/${serial}`,
      quantity: '10',
    }),
  );
  const body = (await res.json()) as { order?: unknown };
  if (body.order === undefined) throw new Error(`SMM order failed: ${JSON.stringify(body)}`);
});
await app.close();
const raw = await rawOrders(database, url, customers, imeiSvc.id, LEVELS, ORDERS_PER_RUN, serial);
printRatios('DHRU', dhru, raw);
printRatios('SMM', smm, raw);

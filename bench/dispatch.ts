// npm run bench:dispatch — orders on a service routed to a supplier, fulfilled by the job
// workers with nobody at the keyboard, on PostgreSQL. The server runs as its own process (as in
// production: `node server/index.ts` with its workers); this process plays the customers and
// the supplier (the repository's fake DHRU supplier on loopback), and prints:
// - dispatch throughput: orders received by the supplier per second;
// - time from an order's acceptance (201 to the customer) to the supplier receiving it, p50/p99;
// - status calls and polls per completed order;
// - the server's peak memory (VmHWM).
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { sql } from 'drizzle-orm';
import { queryRows } from '../server/db/client';
import { verifyLedger } from '../server/features/ledger/ledger.verify';
import {
  FAKE_DHRU_API_KEY,
  FAKE_DHRU_USERNAME,
  startFakeSupplier,
} from '../server/suppliers/fake-supplier';
import { imeiFor } from '../tests/setup/imei';
import { fmt, freshDatabase, percentile, signInCustomer } from './setup';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 5000);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 16);
const POLL_SECONDS = Number(process.env.BENCH_POLL_SECONDS ?? 5);
const ADMIN = { email: 'bench-admin@example.com', password: 'Bench-Admin-2026!' };

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function until(what: string, check: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const { url, database } = await freshDatabase('cometa_bench_dispatch');
const fake = await startFakeSupplier();
fake.dhru.balance = '10000000.00';
// Every order completes at its first status poll after being received.
fake.when({ action: 'placeimeiorder' }, { completeAfterPolls: 1, code: 'Clean' });

const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
  env: {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    APP_URL: origin,
    DATABASE_URL: url,
    DATA_DIR: `/tmp/cometa-bench-dispatch-${process.pid}`,
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    ALLOW_PRIVATE_NETWORK: 'true',
    SUPPLIER_POLL_SECONDS: String(POLL_SECONDS),
    RATE_LIMIT_MAX_PER_IP: '1000000',
    RATE_LIMIT_MAX_PER_ACCOUNT: '1000000',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const serverPid = server.pid ?? 0;
// Whatever happens here, the server does not outlive the benchmark.
process.on('exit', () => server.kill('SIGKILL'));
await until(
  'server ready',
  async () => (await fetch(`${origin}/readyz`).catch(() => null))?.ok === true,
  60_000,
);

async function call(path: string, cookie: string, body?: unknown, method = 'POST') {
  const res = await fetch(`${origin}${path}`, {
    method,
    headers: {
      Cookie: cookie,
      Origin: origin,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as unknown;
}

const signIn = await fetch(`${origin}/api/auth/sign-in/email`, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json', Origin: origin },
  body: JSON.stringify(ADMIN),
});
const adminCookie = signIn.headers
  .getSetCookie()
  .map((c) => c.split(';')[0])
  .join('; ');
// Admins need two-factor (TWO_FACTOR_REQUIRED otherwise); the benchmark is not about signing in.
await database.db.execute(
  sql`UPDATE "user" SET two_factor_enabled = true WHERE email = ${ADMIN.email}`,
);
const supplier = (await call('/api/admin/suppliers', adminCookie, {
  name: 'Proveedor de benchmark',
  protocol: 'dhru',
  url: fake.url,
  username: FAKE_DHRU_USERNAME,
  apiKey: FAKE_DHRU_API_KEY,
})) as { id: string };
const imported = (await call(`/api/admin/suppliers/${supplier.id}/import`, adminCookie, {
  remoteIds: ['1382'],
  category: 'IMEI',
  markupPercent: 25,
})) as { items: { id: string; price: string }[] };
const serviceId = imported.items[0]!.id;

const customers: string[] = [];
for (let i = 0; i < CLIENTS; i++) {
  const email = `bench-dispatch-${i}@example.com`;
  const cookie = await signInCustomer(origin, database, email, 'Bench-Clave-2026!');
  const me = (await call('/api/me', cookie, undefined, 'GET')) as { id: string };
  await call(`/api/admin/users/${me.id}/adjustments`, adminCookie, {
    amount: '10000.00',
    reason: 'Saldo de benchmark',
  });
  customers.push(cookie);
}

console.log(
  `bench:dispatch — PostgreSQL, ${ORDERS} orders from ${CLIENTS} concurrent customers to a service routed to the local fake DHRU supplier (server: its own process, default workers, SUPPLIER_POLL_SECONDS=${POLL_SECONDS})\n`,
);

const acceptedAt = new Map<string, number>();
let next = 0;
const started = Date.now();
await Promise.all(
  customers.map(async (cookie) => {
    while (next < ORDERS) {
      next += 1;
      const imei = imeiFor(`7${String(next).padStart(8, '0')}`);
      const res = await fetch(`${origin}/api/orders`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Cookie: cookie,
          Origin: origin,
          'Idempotency-Key': randomUUID(),
        },
        body: JSON.stringify({ serviceId, fields: { imei } }),
      });
      await res.arrayBuffer();
      if (res.status !== 201) throw new Error(`order failed: ${res.status}`);
      acceptedAt.set(imei, Date.now());
    }
  }),
);
const placedSeconds = (Date.now() - started) / 1000;
console.log(
  `orders placed over HTTP:           ${(ORDERS / placedSeconds).toFixed(0)} orders/s (${placedSeconds.toFixed(1)} s)`,
);

await until(
  'the supplier to receive every order',
  async () => fake.placedCount() >= ORDERS,
  600_000,
);
const receipts = fake.calls.filter((c) => c.action === 'placeimeiorder');
const lastReceipt = Math.max(...receipts.map((c) => c.at));
const dispatchSeconds = (lastReceipt - started) / 1000;
const latencies = receipts
  .map((c) => c.at - (acceptedAt.get(c.params.IMEI ?? '') ?? c.at))
  .map((ms) => Math.max(0, ms))
  .sort((a, b) => a - b);

await until(
  'every order to complete',
  async () => {
    const [row] = await queryRows<{ n: string }>(
      database.db,
      sql`SELECT count(*) AS n FROM "order" WHERE status = 'completed'`,
    );
    return Number(row?.n) >= ORDERS;
  },
  600_000,
);
const completedSeconds = (Date.now() - started) / 1000;
const statusCalls = fake.calls.filter(
  (c) => c.action === 'getimeiorderbulk' || c.action === 'getimeiorder',
).length;
const [polls] = await queryRows<{ avg: string }>(
  database.db,
  sql`SELECT avg(polls) AS avg FROM order_dispatch`,
);
const status = readFileSync(`/proc/${serverPid}/status`, 'utf8');
const peak = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
const sentTwice = receipts.length - new Set(receipts.map((c) => c.params.IMEI)).size;
const ledger = await verifyLedger(database.db);

console.log(
  `dispatch throughput:               ${(ORDERS / dispatchSeconds).toFixed(0)} orders/s received by the supplier (last one at ${dispatchSeconds.toFixed(1)} s)`,
);
console.log(
  `order accepted → supplier receipt: p50 ${fmt(percentile(latencies, 50))}   p99 ${fmt(percentile(latencies, 99))}   max ${fmt(latencies.at(-1) ?? 0)}`,
);
console.log(`all ${ORDERS} completed after:         ${completedSeconds.toFixed(1)} s`);
console.log(
  `status calls per completed order:  ${(statusCalls / ORDERS).toFixed(3)} (${statusCalls} calls of up to 100 orders)`,
);
console.log(`polls per completed order:         ${Number(polls?.avg ?? 0).toFixed(2)}`);
console.log(`orders sent twice:                 ${sentTwice}`);
console.log(
  `server peak memory (VmHWM):        ${peak ? `${(Number(peak) / 1024).toFixed(0)} MB` : 'unknown'}`,
);
console.log(
  `ledger:verify:                     ${ledger.problems.length === 0 ? 'clean' : ledger.problems.join('; ')}`,
);

server.kill('SIGTERM');
await new Promise((r) => server.once('exit', r));
await fake.close();
await database.close();

// npm run bench:crash — orders in flight to a supplier, `kill -9` of the server, and how long it
// takes to be back (issue 19), on PostgreSQL. The server runs as its own process (as in
// production); this process plays the customers and the supplier (the repository's fake DHRU
// supplier on loopback, slowed so that sends are in flight when the server dies). It places
// BENCH_ORDERS orders (default 200, at most 500), kills the server once the supplier has
// received BENCH_KILL_AT of them (default 30 %), restarts it, and prints:
// - seconds from the kill until every order is final or in review ("Revisar");
// - seconds until polling resumed (the supplier's first status call after the kill) and until
//   the dead instance was taken over;
// - sends per order seen by the supplier (each must be exactly 1; none of an order in review
//   may be 0 or 1, never 2);
// - ledger:verify.
// With BENCH_INSTANCES=2, two servers share the database and only one is killed (no restart):
// the survivor takes over. Exits non-zero when an order was sent twice, an order is still in
// flight 60 s after the kill, or the ledger does not verify.
import { spawn, type ChildProcess } from 'node:child_process';
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
import { freshDatabase, signInCustomer } from './setup';

const ORDERS = Math.min(Number(process.env.BENCH_ORDERS ?? 200), 500);
const INSTANCES = Number(process.env.BENCH_INSTANCES ?? 1);
const KILL_AT = Number(process.env.BENCH_KILL_AT ?? 0.3);
const SEND_DELAY_MS = Number(process.env.BENCH_SEND_DELAY_MS ?? 1000);
const POLL_SECONDS = Number(process.env.BENCH_POLL_SECONDS ?? 5);
const CLIENTS = 8;
const GOAL_SECONDS = 60;
const ADMIN = { email: 'bench-admin@example.com', password: 'Bench-Admin-2026!' };
const AUTH_SECRET = 'bench-secret-bench-secret-bench-secret-0123';

if (INSTANCES !== 1 && INSTANCES !== 2) throw new Error('BENCH_INSTANCES must be 1 or 2');
if (!(ORDERS >= 10)) throw new Error('BENCH_ORDERS must be at least 10');

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
    await new Promise((r) => setTimeout(r, 100));
  }
}

const { url, database } = await freshDatabase('cometa_bench_crash');
const fake = await startFakeSupplier();
fake.dhru.balance = '10000000.00';
// Each send takes a while to be answered (so some are in flight at the kill); each order
// completes at its second status poll.
fake.when({ action: 'placeimeiorder' }, { delayMs: SEND_DELAY_MS });
fake.when({ action: 'placeimeiorder' }, { completeAfterPolls: 1, code: 'Clean' });

type Server = { origin: string; child: ChildProcess; exited: Promise<void> };
/** The public address every instance is given (APP_URL, checked as the Origin), as behind a balancer. */
const APP_ORIGIN = `http://127.0.0.1:${await freePort()}`;
const children = new Set<ChildProcess>();
// Whatever happens here, no server outlives the benchmark.
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
});

async function startServer(): Promise<Server> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: APP_ORIGIN,
      AUTH_SECRET,
      TRUST_PROXY: 'false',
      DATABASE_URL: url,
      DATA_DIR: `/tmp/cometa-bench-crash-${process.pid}-${port}`,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      SEED_DEMO: 'false',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ALLOW_PRIVATE_NETWORK: 'true',
      SUPPLIER_POLL_SECONDS: String(POLL_SECONDS),
      SUPPLIER_CONNECT_TIMEOUT_SECONDS: '5',
      SUPPLIER_TIMEOUT_SECONDS: '20',
      RATE_LIMIT_MAX_PER_IP: '1000000',
      RATE_LIMIT_MAX_PER_ACCOUNT: '1000000',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  children.add(child);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      children.delete(child);
      resolve();
    }),
  );
  await until(
    'server ready',
    async () => (await fetch(`${origin}/readyz`).catch(() => null))?.ok === true,
    60_000,
  );
  return { origin, child, exited };
}

async function call(origin: string, path: string, cookie: string, body?: unknown, method = 'POST') {
  const res = await fetch(`${origin}${path}`, {
    method,
    headers: {
      Cookie: cookie,
      Origin: APP_ORIGIN,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as unknown;
}

const servers: Server[] = [];
for (let i = 0; i < INSTANCES; i++) servers.push(await startServer());
const first = servers[0];
if (!first) throw new Error('no server');

const signIn = await fetch(`${first.origin}/api/auth/sign-in/email`, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json', Origin: APP_ORIGIN },
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
const supplier = (await call(first.origin, '/api/admin/suppliers', adminCookie, {
  name: 'Proveedor de benchmark',
  protocol: 'dhru',
  url: fake.url,
  username: FAKE_DHRU_USERNAME,
  apiKey: FAKE_DHRU_API_KEY,
  settings: { maxConcurrency: 16 },
})) as { id: string };
const imported = (await call(
  first.origin,
  `/api/admin/suppliers/${supplier.id}/import`,
  adminCookie,
  { remoteIds: ['1382'], category: 'IMEI', markupPercent: 25 },
)) as { items: { id: string }[] };
const serviceId = imported.items[0]?.id;
if (!serviceId) throw new Error('import failed');

const customers: string[] = [];
for (let i = 0; i < CLIENTS; i++) {
  const cookie = await signInCustomer(
    first.origin,
    database,
    `bench-crash-${i}@example.com`,
    'Bench-Clave-2026!',
    APP_ORIGIN,
  );
  const me = (await call(first.origin, '/api/me', cookie, undefined, 'GET')) as { id: string };
  await call(first.origin, `/api/admin/users/${me.id}/adjustments`, adminCookie, {
    amount: '10000.00',
    reason: 'Saldo de benchmark',
  });
  customers.push(cookie);
}

console.log(
  `bench:crash — PostgreSQL, ${ORDERS} orders to the local fake DHRU supplier (each send answered after ${SEND_DELAY_MS} ms, 16 at once), ${INSTANCES === 1 ? 'one server killed with SIGKILL and restarted' : 'two servers, one killed with SIGKILL'} once the supplier has ${Math.round(KILL_AT * 100)} % of them; SUPPLIER_POLL_SECONDS=${POLL_SECONDS}\n`,
);

// Customers order through every instance in turn; the ones placed after the kill go to the
// living instance (or wait for the restart).
const imeis: string[] = [];
let next = 0;
let killedAt = 0;
const placing = Promise.all(
  customers.map(async (cookie, c) => {
    while (next < ORDERS) {
      next += 1;
      const imei = imeiFor(`8${String(next).padStart(8, '0')}`);
      for (;;) {
        const alive = servers.filter(
          (s) => s.child.exitCode === null && s.child.signalCode === null,
        );
        const target = alive[(next + c) % Math.max(alive.length, 1)];
        if (!target) {
          await new Promise((r) => setTimeout(r, 100));
          continue;
        }
        const res = await fetch(`${target.origin}/api/orders`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            Cookie: cookie,
            Origin: APP_ORIGIN,
            // The same key on a retry: an order the dying instance did commit is not placed twice.
            'Idempotency-Key': `bench-crash-${imei}`,
          },
          body: JSON.stringify({ serviceId, fields: { imei } }),
        }).catch(() => null);
        if (res) await res.arrayBuffer();
        if (res?.status === 201 || res?.status === 200) break;
        // The instance died under the request: asked again, of a living one.
        if (!res || res.status >= 500) continue;
        throw new Error(`order failed: ${res.status}`);
      }
      imeis.push(imei);
    }
  }),
);

await until(
  'the supplier to receive enough orders',
  async () => fake.placedCount() >= ORDERS * KILL_AT,
  300_000,
);
const victim = first;
const victimPid = victim.child.pid ?? 0;
const claimedRows = await queryRows<{ state: string; n: string }>(
  database.db,
  sql`SELECT state, count(*) AS n FROM order_dispatch GROUP BY state`,
);
victim.child.kill('SIGKILL');
killedAt = Date.now();
await victim.exited;
const atKill = Object.fromEntries(claimedRows.map((r) => [r.state, Number(r.n)]));
console.log(
  `at the kill:                       ${Object.entries(atKill)
    .map(([s, n]) => `${n} ${s}`)
    .join(', ')} (${fake.placedCount()} received by the supplier)`,
);

let restartedIn = 0;
if (INSTANCES === 1) {
  const restarted = await startServer();
  servers.push(restarted);
  restartedIn = (Date.now() - killedAt) / 1000;
  console.log(`server restarted and ready after:  ${restartedIn.toFixed(1)} s`);
}
await placing;

// The dead instance's row disappears when another instance (or the restarted process) takes
// its work over.
let takenOverAt: number | null = null;
const watchTakeover = (async () => {
  while (takenOverAt === null && Date.now() - killedAt < 120_000) {
    const [row] = await queryRows<{ n: string }>(
      database.db,
      sql`SELECT count(*) AS n FROM app_instance WHERE pid = ${victimPid}`,
    );
    if (Number(row?.n ?? 0) === 0) takenOverAt = Date.now();
    else await new Promise((r) => setTimeout(r, 200));
  }
})();

type Row = { in_flight: string; review: string; final: string };
let settledAt: number | null = null;
const deadline = killedAt + 120_000;
for (;;) {
  const [row] = await queryRows<Row>(
    database.db,
    sql`SELECT
          count(*) FILTER (WHERE o.status IN ('pending', 'processing') AND (d.state IS NULL OR d.state <> 'review')) AS in_flight,
          count(*) FILTER (WHERE o.status IN ('pending', 'processing') AND d.state = 'review') AS review,
          count(*) FILTER (WHERE o.status NOT IN ('pending', 'processing')) AS final
        FROM "order" o LEFT JOIN order_dispatch d ON d.order_id = o.id`,
  );
  if (
    Number(row?.in_flight) === 0 &&
    Number(row?.final ?? 0) + Number(row?.review ?? 0) >= ORDERS
  ) {
    settledAt = Date.now();
    break;
  }
  if (Date.now() > deadline) break;
  await new Promise((r) => setTimeout(r, 200));
}
await watchTakeover;

const statusCalls = fake.calls.filter(
  (c) => (c.action === 'getimeiorderbulk' || c.action === 'getimeiorder') && c.at > killedAt,
);
const pollingResumed = statusCalls.length
  ? (Math.min(...statusCalls.map((c) => c.at)) - killedAt) / 1000
  : null;
const sends = new Map<string, number>();
for (const c of fake.calls)
  if (c.action === 'placeimeiorder')
    sends.set(c.params.IMEI ?? '', (sends.get(c.params.IMEI ?? '') ?? 0) + 1);
const orders = await queryRows<{ imei: string; status: string; state: string | null }>(
  database.db,
  sql`SELECT o.fields->>'imei' AS imei, o.status, d.state FROM "order" o LEFT JOIN order_dispatch d ON d.order_id = o.id`,
);
const histogram = new Map<number, number>();
let sentTwice = 0;
let settledUnsent = 0;
for (const o of orders) {
  const n = sends.get(o.imei) ?? 0;
  histogram.set(n, (histogram.get(n) ?? 0) + 1);
  if (n > 1) sentTwice += 1;
  if (n === 0 && o.status === 'completed') settledUnsent += 1;
}
const inReview = orders.filter(
  (o) => (o.status === 'pending' || o.status === 'processing') && o.state === 'review',
).length;
const completed = orders.filter((o) => o.status === 'completed').length;
const ledger = await verifyLedger(database.db);
const seconds = settledAt === null ? null : (settledAt - killedAt) / 1000;

console.log(
  `dead instance taken over after:    ${takenOverAt === null ? 'not seen' : `${((takenOverAt - killedAt) / 1000).toFixed(1)} s`}`,
);
console.log(
  `polling resumed after:             ${pollingResumed === null ? 'never' : `${pollingResumed.toFixed(1)} s`}`,
);
console.log(
  `every order final or in review:    ${seconds === null ? `NOT within ${(deadline - killedAt) / 1000} s` : `${seconds.toFixed(1)} s after the kill`} (goal ≤ ${GOAL_SECONDS} s)`,
);
console.log(
  `orders:                            ${orders.length} (${completed} completed, ${inReview} in review: interrupted sends)`,
);
console.log(
  `sends per order (fake supplier):   ${[...histogram.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([n, count]) => `${count} × ${n}`)
    .join(', ')}`,
);
console.log(`orders sent twice:                 ${sentTwice}`);
console.log(
  `ledger:verify:                     ${ledger.problems.length === 0 ? 'clean' : ledger.problems.join('; ')}`,
);

for (const s of servers)
  if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGTERM');
await Promise.all(servers.map((s) => s.exited));
await fake.close();
await database.close();

const failures = [
  sentTwice > 0 ? `${sentTwice} order(s) sent twice` : null,
  settledUnsent > 0 ? `${settledUnsent} completed order(s) never sent` : null,
  seconds === null || seconds > GOAL_SECONDS
    ? `orders still in flight ${GOAL_SECONDS} s after the kill`
    : null,
  ledger.problems.length > 0 ? 'the ledger does not verify' : null,
].filter((f): f is string => f !== null);
if (failures.length) {
  console.error(`\nFAILED: ${failures.join('; ')}`);
  process.exit(1);
}

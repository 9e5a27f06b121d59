// Shared set-up of the benchmarks: a fresh PostgreSQL database, the real app listening on
// 127.0.0.1, and customers signed in over HTTP.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openPostgres, type Database } from '../server/db/client';
import { migrateDatabase } from '../server/db/migrate';
import { service } from '../server/db/schema/catalogue';
import {
  customerAccounts,
  systemAccount,
  transfer,
} from '../server/features/ledger/ledger.service';
import { imeiFor } from '../tests/setup/imei';

/** The AUTH_SECRET the benchmark servers run with (items from stock are sealed under it). */
export const BENCH_AUTH_SECRET = 'bench-secret-bench-secret-bench-secret-0123';

export const BASE_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export async function freshDatabase(name: string): Promise<{ url: string; database: Database }> {
  const admin = new pg.Client({ connectionString: BASE_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(BASE_URL);
  url.pathname = `/${name}`;
  const database = openPostgres(url.toString(), { max: 40 });
  await migrateDatabase(database);
  return { url: url.toString(), database };
}

/** The IMEI service every benchmark orders from (price in cents). */
export async function imeiService(
  database: Database,
  options: { price: bigint; allowRecheck: boolean; identifier: boolean },
): Promise<{ id: string }> {
  const [row] = await database.db
    .insert(service)
    .values({
      category: 'IMEI',
      name: 'Consulta IMEI',
      description: 'Benchmark',
      deliveryTime: 'Instantáneo',
      price: options.price,
      allowRecheck: options.allowRecheck,
      fields: [
        {
          key: 'imei',
          label: 'IMEI',
          type: 'imei',
          required: true,
          identifier: options.identifier,
        },
      ],
    })
    .returning({ id: service.id });
  if (!row) throw new Error('no service');
  return row;
}

/**
 * Starts the real server (`server/index.ts`, as `npm start` runs it) in its own process on
 * `database`, so the load generator and the app do not share one event loop. With
 * BENCH_CPU_PROF=DIR the server runs under `node --cpu-prof` and writes its profile to DIR when
 * it stops (`node scripts/profile-top.mjs DIR/*.cpuprofile` prints the top entries).
 */
export async function startApp(url: string, extraEnv: Record<string, string> = {}) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cometa-bench-'));
  // Port first, so APP_URL (and the Origin check) match the real address.
  const probe = serve({ fetch: () => new Response(null), port: 0, hostname: '127.0.0.1' });
  await new Promise((r) => probe.once('listening', r));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((r) => probe.close(r));
  const origin = `http://127.0.0.1:${port}`;
  const profileDir = process.env.BENCH_CPU_PROF;
  const child = spawn(
    process.execPath,
    [
      ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
      '--import',
      'tsx',
      'server/index.ts',
    ],
    {
      // It logs as in production (LOG_LEVEL info, one access line per API request) to /dev/null.
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        DATABASE_URL: url,
        DATABASE_POOL_MAX: process.env.BENCH_POOL_MAX ?? '20',
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        APP_URL: origin,
        LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
        SEED_DEMO: 'false',
        RATE_LIMIT_MAX_PER_IP: '1000000',
        RATE_LIMIT_MAX_PER_ACCOUNT: '1000000',
        API_KEY_RATE_LIMIT_PER_MINUTE: '100000',
        AUTH_SECRET: BENCH_AUTH_SECRET,
        ...extraEnv,
      },
    },
  );
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  // A benchmark that fails or is interrupted does not leave its server running.
  const stop = () => child.kill('SIGKILL');
  process.once('exit', stop);
  void exited.then(() => process.off('exit', stop));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const ok = await fetch(`${origin}/readyz`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('server did not become ready within 60 s');
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    origin,
    /** Stops the server gracefully (SIGTERM), which also writes the CPU profile when asked. */
    close: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * BENCH_INSTANCES (default 1) servers on the same database, each on its own port; worker w
 * talks to instance w mod n (sessions live in the database, so any instance serves them).
 */
export async function startApps(url: string, extraEnv: Record<string, string> = {}) {
  const count = Number(process.env.BENCH_INSTANCES ?? 1);
  if (!Number.isInteger(count) || count < 1 || count > 8) throw new Error('bad BENCH_INSTANCES');
  const apps: Awaited<ReturnType<typeof startApp>>[] = [];
  for (let i = 0; i < count; i++) apps.push(await startApp(url, extraEnv));
  return {
    count,
    origin: apps[0]!.origin,
    originFor: (worker: number) => apps[worker % count]!.origin,
    close: async () => {
      await Promise.all(apps.map((a) => a.close()));
    },
  };
}

/**
 * Signs a verified customer in over HTTP and returns the session cookie. `appOrigin` is the
 * app's public address (its APP_URL) when requests go straight to one of several instances.
 */
export async function signInCustomer(
  origin: string,
  database: Database,
  email: string,
  password: string,
  appOrigin = origin,
): Promise<string> {
  const signUp = await fetch(`${origin}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: appOrigin },
    body: JSON.stringify({ name: 'Cliente de prueba', email, password }),
  });
  if (!signUp.ok) throw new Error(`sign-up ${signUp.status}: ${await signUp.text()}`);
  await database.db.execute(sql`UPDATE "user" SET email_verified = true WHERE email = ${email}`);
  // Sign-up signs nobody in (the same answer for new and existing addresses): sign in now.
  const signIn = await fetch(`${origin}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: appOrigin },
    body: JSON.stringify({ email, password }),
  });
  if (!signIn.ok) throw new Error(`sign-in ${signIn.status}: ${await signIn.text()}`);
  return signIn.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

/** Concurrency levels: 1, 16 and 64, or BENCH_LEVELS (e.g. `16` to profile one level alone). */
export function benchLevels(): number[] {
  const levels = (process.env.BENCH_LEVELS ?? '1,16,64').split(',').map(Number);
  if (levels.some((n) => !Number.isInteger(n) || n < 1)) throw new Error('bad BENCH_LEVELS');
  return levels;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, i)] ?? 0;
}

export function fmt(ms: number): string {
  return `${ms.toFixed(1)} ms`;
}

export type Customer = {
  id: string;
  email: string;
  cookie: string;
};

/** `count` verified, signed-in customers with USD 100,000 of Saldo each. */
export async function fundedCustomers(
  origin: string,
  database: Database,
  count: number,
): Promise<Customer[]> {
  const customers: Customer[] = [];
  for (let i = 0; i < count; i++) {
    const email = `bench${i}@example.com`;
    const cookie = await signInCustomer(origin, database, email, 'Bench-Clave-2026!');
    const me = (await (
      await fetch(`${origin}/api/me`, { headers: { Cookie: cookie } })
    ).json()) as { id: string };
    await database.db.transaction(async (tx) => {
      const a = await customerAccounts(tx, me.id);
      await transfer(tx, {
        from: await systemAccount(tx, 'adjustments'),
        to: a.available,
        amount: 10_000_000n,
        kind: 'adjustment_credit',
        reference: { type: 'bench', id: me.id },
        idempotencyKey: `bench:${me.id}`,
        description: 'Saldo de benchmark',
      });
    });
    customers.push({ id: me.id, email, cookie });
  }
  return customers;
}

export type LevelResult = {
  level: number;
  perSecond: number;
  p50: number;
  p99: number;
};

/**
 * Runs `total` calls of `call(worker)` at each concurrency level (worker w always acts for the
 * same customer), printing and returning throughput and latency percentiles.
 */
export async function runLevels(
  levels: number[],
  total: number,
  call: (worker: number) => Promise<void>,
): Promise<LevelResult[]> {
  const results: LevelResult[] = [];
  for (const level of levels) {
    const latencies: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: level }, async (_, w) => {
        while (next < total) {
          next += 1;
          const t0 = performance.now();
          await call(w);
          latencies.push(performance.now() - t0);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const result = {
      level,
      perSecond: total / seconds,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
    };
    results.push(result);
    console.log(
      `  ${String(level).padStart(2)} concurrent: ${result.perSecond.toFixed(0).padStart(5)} orders/s   p50 ${fmt(result.p50)}   p99 ${fmt(result.p99)}`,
    );
  }
  return results;
}

/**
 * The same writes as one order, straight to PostgreSQL: order row, account locks, guarded
 * debit, credit, transfer, two entries, event. Closes `database` first: PostgreSQL allows 100
 * connections here, and the raw run opens as many as its highest level.
 */
export async function rawOrders(
  database: Database,
  url: string,
  customers: Customer[],
  serviceId: string,
  levels: number[],
  total: number,
  serialStart: number,
): Promise<LevelResult[]> {
  const accounts = new Map<string, { available: string; held: string }>();
  for (const c of customers) accounts.set(c.id, await customerAccounts(database.db, c.id));
  await database.close();
  const pool = new pg.Pool({ connectionString: url, max: Math.max(...levels) });
  const clients = await Promise.all(
    Array.from({ length: Math.max(...levels) }, () => pool.connect()),
  );
  let serial = serialStart;
  console.log('\nRaw SQL, the same transaction without HTTP, auth or validation:');
  try {
    return await runLevels(levels, total, async (w) => {
      const customer = customers[w]!;
      const acc = accounts.get(customer.id)!;
      const client = clients[w]!;
      serial += 1;
      await client.query('BEGIN');
      const o = await client.query<{ id: string }>(
        `INSERT INTO "order" (user_id, service_id, category, service_name, quantity, fields, identifier, price, idempotency_key, request_hash)
         VALUES ($1, $2, 'IMEI', 'Consulta IMEI', 1, $3, $4, 1, $5, 'x') RETURNING id`,
        [
          customer.id,
          serviceId,
          JSON.stringify({ imei: imeiFor(serial) }),
          imeiFor(serial),
          randomUUID(),
        ],
      );
      const orderId = o.rows[0]!.id;
      const tr = await client.query<{ id: string }>(
        `INSERT INTO ledger_transfer (kind, debit_account_id, credit_account_id, amount, reference_type, reference_id, idempotency_key, description)
         VALUES ('order_hold', $1, $2, 1, 'order', $3, $4, 'bench') RETURNING id`,
        [acc.available, acc.held, orderId, `order:${orderId}:hold`],
      );
      await client.query(
        'SELECT id FROM ledger_account WHERE id IN ($1, $2) ORDER BY id FOR NO KEY UPDATE',
        [acc.available, acc.held],
      );
      const d = await client.query<{ balance: string }>(
        'UPDATE ledger_account SET balance = balance - 1 WHERE id = $1 AND balance >= 1 RETURNING balance',
        [acc.available],
      );
      const cr = await client.query<{ balance: string }>(
        'UPDATE ledger_account SET balance = balance + 1 WHERE id = $1 RETURNING balance',
        [acc.held],
      );
      await client.query(
        'INSERT INTO ledger_entry (transfer_id, account_id, amount, balance_after) VALUES ($1, $2, -1, $3), ($1, $4, 1, $5)',
        [tr.rows[0]!.id, acc.available, d.rows[0]!.balance, acc.held, cr.rows[0]!.balance],
      );
      await client.query(
        `INSERT INTO order_event (order_id, status, actor_id, actor_role) VALUES ($1, 'pending', $2, 'customer')`,
        [orderId, customer.id],
      );
      await client.query('COMMIT');
    });
  } finally {
    for (const c of clients) c.release();
    await pool.end();
  }
}

/** The goals of issue 11: throughput ≥ 0.5 × raw at 16 clients, p99 ≤ 2 × raw at 64. */
export function printRatios(label: string, measured: LevelResult[], raw: LevelResult[]): void {
  const at = (rs: LevelResult[], level: number) => rs.find((r) => r.level === level);
  const m16 = at(measured, 16);
  const r16 = at(raw, 16);
  const m64 = at(measured, 64);
  const r64 = at(raw, 64);
  console.log(`\n${label} vs raw SQL:`);
  if (m16 && r16) {
    console.log(
      `  throughput at 16: ${(m16.perSecond / r16.perSecond).toFixed(2)} × raw (goal ≥ 0.50)`,
    );
  }
  if (m64 && r64) console.log(`  p99 at 64: ${(m64.p99 / r64.p99).toFixed(2)} × raw (goal ≤ 2.00)`);
}

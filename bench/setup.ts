// Shared set-up of the benchmarks: a fresh PostgreSQL database, the real app listening on
// 127.0.0.1, and customers signed in over HTTP.
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { createApp } from '../server/app';
import { openPostgres, type Database } from '../server/db/client';
import { migrateDatabase } from '../server/db/migrate';
import { service } from '../server/db/schema/catalogue';
import { loadEnv } from '../server/env';
import { createAuth } from '../server/lib/auth';
import { createLogger } from '../server/lib/logger';
import { createMailer } from '../server/lib/mail';
import { createMetrics } from '../server/lib/metrics';
import { createJobQueue } from '../server/jobs/queue';
import { loadWebAssets } from '../server/lib/web-assets';

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

export async function startApp(database: Database) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cometa-bench-'));
  const logger = createLogger('silent');
  // Port first, so APP_URL (and the Origin check) match the real address.
  const probe = serve({ fetch: () => new Response(null), port: 0, hostname: '127.0.0.1' });
  await new Promise((r) => probe.once('listening', r));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((r) => probe.close(r));
  const origin = `http://127.0.0.1:${port}`;
  const env = loadEnv({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    APP_URL: origin,
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    RATE_LIMIT_MAX_PER_IP: '1000000',
    RATE_LIMIT_MAX_PER_ACCOUNT: '1000000',
  });
  const mailer = createMailer({ from: env.MAIL_FROM, dataDir, logger });
  const auth = createAuth({ db: database.db, env, mailer, logger });
  const metrics = createMetrics();
  const jobs = createJobQueue(database.executeSql, {
    onError: (err) => logger.error({ err }, 'job queue error'),
  });
  const app = createApp({
    database,
    env,
    auth,
    mailer,
    logger,
    web: loadWebAssets(path.join(dataDir, 'none')),
    jobs,
    metrics,
  });
  const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' });
  await new Promise((r) => server.once('listening', r));
  return { origin, auth, close: () => new Promise((r) => server.close(r)) };
}

/** Signs a verified customer in over HTTP and returns the session cookie. */
export async function signInCustomer(
  origin: string,
  database: Database,
  email: string,
  password: string,
): Promise<string> {
  const signUp = await fetch(`${origin}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: origin },
    body: JSON.stringify({ name: 'Cliente de prueba', email, password }),
  });
  if (!signUp.ok) throw new Error(`sign-up ${signUp.status}: ${await signUp.text()}`);
  await database.db.execute(sql`UPDATE "user" SET email_verified = true WHERE email = ${email}`);
  // Sign-up signs nobody in (the same answer for new and existing addresses): sign in now.
  const signIn = await fetch(`${origin}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: origin },
    body: JSON.stringify({ email, password }),
  });
  if (!signIn.ok) throw new Error(`sign-in ${signIn.status}: ${await signIn.text()}`);
  return signIn.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, i)] ?? 0;
}

export function fmt(ms: number): string {
  return `${ms.toFixed(1)} ms`;
}

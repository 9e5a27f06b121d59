import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { createApp } from '../../server/app';
import { user } from '../../server/db/schema/auth';
import type { StaffRole } from '../../shared/roles';
import type { Database } from '../../server/db/client';
import { loadEnv, type Env } from '../../server/env';
import { CLIENT_IP_HEADER } from '../../server/lib/client-ip';
import { createAuth, type Auth } from '../../server/lib/auth';
import { createLogger } from '../../server/lib/logger';
import { createMailer, readOutbox, type Mailer, type OutboxEntry } from '../../server/lib/mail';
import { createSmsSender, readSmsOutbox, type SmsOutboxEntry } from '../../server/lib/sms';
import { freshTotpCode, secretOf } from './totp';
import { queuedSms, startSmsWorkers } from '../../server/jobs/sms';
import { loadWebAssets } from '../../server/lib/web-assets';
import { createMetrics } from '../../server/lib/metrics';
import { settlePendingMail } from '../../server/lib/notify';
import { queuedMailer, startMailWorkers } from '../../server/jobs/mail';
import { createJobQueue } from '../../server/jobs/queue';
import { startWorkers, type WorkerOptions, type Workers } from '../../server/jobs/workers';
import type { SupplierDeps } from '../../server/features/suppliers/suppliers.service';
import { openTestDatabase, type DbTarget } from './test-db';

export const TEST_ORIGIN = 'http://localhost:3000';

/**
 * What @hono/node-server passes a request as its bindings (`c.env`), reduced to the socket:
 * the third argument of `app.request()`, so a test can say which address the TCP peer has.
 */
export function socketBindings(address: string) {
  return {
    incoming: {
      socket: {
        remoteAddress: address,
        remotePort: 40_000,
        remoteFamily: address.includes(':') ? 'IPv6' : 'IPv4',
      },
    },
  };
}

export type TestApp = {
  app: ReturnType<typeof createApp>;
  /** The same app (same database and auth) with another mailer or configuration. */
  appWith: (overrides: { mailer?: Mailer; env?: Env }) => ReturnType<typeof createApp>;
  database: Database;
  env: Env;
  auth: Auth;
  /** What services and workers need (database, queue, mailer…), as the server builds it. */
  deps: SupplierDeps;
  /** Starts this app's job workers (supplier dispatch, tick, sync); stopped by close(). */
  startWorkers: (options?: WorkerOptions) => Promise<void>;
  /** Messages in this app's outbox, newest first. */
  outbox: () => Promise<OutboxEntry[]>;
  /** Waits for a message to `to` whose subject matches (verification e-mails are sent in the background). */
  waitForMail: (to: string, subject: RegExp, timeoutMs?: number) => Promise<OutboxEntry>;
  /** Text messages in this app's SMS outbox, newest first. */
  smsOutbox: () => Promise<SmsOutboxEntry[]>;
  /** Waits for a text message to `to` (sent by a worker). */
  waitForSms: (to: string, timeoutMs?: number) => Promise<SmsOutboxEntry>;
  client: (ip?: string) => TestClient;
  close: () => Promise<void>;
};

export type TestClient = {
  request: (
    method: string,
    url: string,
    body?: unknown,
    headers?: Record<string, string>,
  ) => Promise<Response>;
  get: (url: string) => Promise<Response>;
  post: (url: string, body?: unknown) => Promise<Response>;
  patch: (url: string, body?: unknown) => Promise<Response>;
  cookies: Map<string, string>;
};

type App = ReturnType<typeof createApp>;

/**
 * The app as the server runs it: every request arrives on a socket, this machine's unless the
 * test client names another address (x-cometa-client-ip) or the test passes its own bindings.
 */
function withSocket(app: App): App {
  const request: App['request'] = (input, init, bindings, executionCtx) => {
    const headers = new Headers(
      init?.headers ?? (input instanceof Request ? input.headers : undefined),
    );
    const address = headers.get(CLIENT_IP_HEADER) ?? '127.0.0.1';
    return app.request(input, init, bindings ?? socketBindings(address), executionCtx);
  };
  return new Proxy(app, {
    get: (target, property, receiver): unknown =>
      property === 'request' ? request : Reflect.get(target, property, receiver),
  });
}

export async function createTestApp(
  target: DbTarget,
  envOverrides: Record<string, string> = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cometa-app-'));
  const env = loadEnv({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    APP_URL: TEST_ORIGIN,
    AUTH_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_MAX_PER_IP: '1000',
    RATE_LIMIT_MAX_PER_ACCOUNT: '1000',
    // Refusals gathered for one e-mail: a second here (3 s by default) keeps the tests quick.
    ORDER_NOTICE_WINDOW_MS: '1000',
    ...envOverrides,
  });
  const logger = createLogger(env.LOG_LEVEL);
  const database = await openTestDatabase(target);
  const delivery = createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, dataDir, logger });
  // As in the server: e-mails go through the job queue and a worker delivers them.
  const jobs = createJobQueue(database.executeSql, {
    onError: (err) => logger.error({ err }, 'job queue error'),
  });
  await jobs.start();
  const mailer = queuedMailer(jobs, delivery);
  await startMailWorkers(
    { db: database.db, jobs, mailer: delivery, logger },
    { pollingIntervalSeconds: 0.5 },
  );
  const smsSender = createSmsSender({ twilio: env.twilio, dataDir, logger });
  const sms = queuedSms(jobs, smsSender);
  await startSmsWorkers({ jobs, sender: smsSender, logger }, { pollingIntervalSeconds: 0.5 });
  const auth = createAuth({ db: database.db, env, mailer, sms, logger });
  const web = loadWebAssets(path.join(dataDir, 'no-build'));
  const metrics = createMetrics();
  const app = withSocket(createApp({ database, env, auth, mailer, logger, web, jobs, metrics }));
  const appWith = (overrides: { mailer?: Mailer; env?: Env }) =>
    withSocket(
      createApp({
        database,
        env: overrides.env ?? env,
        auth,
        mailer: overrides.mailer ?? mailer,
        logger,
        web,
        jobs,
        metrics,
      }),
    );
  const deps = { db: database.db, env, jobs, logger, mailer, metrics };
  let workers: Workers | null = null;

  function client(ip = '127.0.0.1'): TestClient {
    const cookies = new Map<string, string>();
    async function request(
      method: string,
      url: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ) {
      const h: Record<string, string> = {
        Origin: TEST_ORIGIN,
        'x-cometa-client-ip': ip,
        ...headers,
      };
      if (cookies.size) h.Cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
      if (body !== undefined) h['Content-Type'] = 'application/json';
      const res = await app.request(url, {
        method,
        headers: h,
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: 'manual',
      });
      for (const line of res.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const eq = pair.indexOf('=');
        const name = pair.slice(0, eq);
        const value = pair.slice(eq + 1);
        if (/max-age=0/i.test(line) || value === '') cookies.delete(name);
        else cookies.set(name, value);
      }
      return res;
    }
    return {
      request,
      get: (url) => request('GET', url),
      post: (url, body) => request('POST', url, body ?? {}),
      patch: (url, body) => request('PATCH', url, body ?? {}),
      cookies,
    };
  }

  async function waitForMail(to: string, subject: RegExp, timeoutMs = 5000): Promise<OutboxEntry> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = (await readOutbox(dataDir)).find((m) => m.to === to && subject.test(m.subject));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no e-mail to ${to} matching ${String(subject)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async function waitForSms(to: string, timeoutMs = 5000): Promise<SmsOutboxEntry> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = (await readSmsOutbox(dataDir)).find((m) => m.to === to);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no SMS to ${to}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  return {
    app,
    appWith,
    database,
    env,
    auth,
    deps,
    async startWorkers(options = {}) {
      workers = await startWorkers(deps, {
        pollingIntervalSeconds: 0.5,
        timers: false,
        ...options,
      });
    },
    outbox: () => readOutbox(dataDir),
    waitForMail,
    smsOutbox: () => readSmsOutbox(dataDir),
    waitForSms,
    client,
    async close() {
      // As the server shuts down: e-mails the requests started are queued first, then workers
      // and queue stop. pg-boss can still settle a job it fetched while stopping (its fail or
      // complete runs a query): a short grace keeps that query from meeting a closed pool.
      await settlePendingMail();
      await workers?.stop();
      await jobs.stop();
      await new Promise((resolve) => setTimeout(resolve, 250));
      await workers?.leave();
      await database.close();
    },
  };
}

/** The link in an e-mail that starts with `prefix` (relative to the app), as a path + query. */
export function linkIn(mail: OutboxEntry, prefix: string): string {
  const link = mail.links.find((l) => l.startsWith(`${TEST_ORIGIN}${prefix}`));
  if (!link) throw new Error(`no ${prefix} link in "${mail.subject}": ${mail.links.join(', ')}`);
  return link.slice(TEST_ORIGIN.length);
}

let counter = 0;
export function uniqueEmail(tag = 'user'): string {
  counter += 1;
  return `${tag}.${Date.now().toString(36)}.${counter}@example.com`;
}

export const GOOD_PASSWORD = 'Cielo-Azul-2026!';

/** Registers, verifies through the real e-mail link, and returns the signed-in client. */
export async function registerVerified(t: TestApp, name = 'Ana Pérez', ip?: string) {
  const c = t.client(ip);
  const email = uniqueEmail();
  const res = await c.post('/api/auth/sign-up/email', {
    name,
    email,
    password: GOOD_PASSWORD,
    callbackURL: '/verify-email',
  });
  if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  const mail = await t.waitForMail(email, /Verifica tu correo/);
  const verify = await c.get(linkIn(mail, '/api/auth/verify-email'));
  if (verify.status !== 302) throw new Error(`verify failed: ${verify.status}`);
  return { client: c, email };
}

/** An admin account, verified, signed in on the returned client. */
export async function signInAdmin(t: TestApp, ip?: string) {
  return signInStaff(t, 'admin', ip);
}

const STAFF_NAMES: Record<StaffRole, string> = {
  admin: 'Administradora',
  support: 'Sofía Soporte',
  finance: 'Fernando Finanzas',
};

/** A staff member of `role`, signed in with two-factor enrolled (every staff role needs it). */
export async function signInStaff(t: TestApp, role: StaffRole, ip?: string) {
  const email = uniqueEmail(role);
  const password = 'Admin-Clave-2026!';
  const created = await t.auth.api.createUser({
    body: { email, password, name: STAFF_NAMES[role], role: 'admin' },
  });
  await t.database.db
    .update(user)
    .set({ emailVerified: true, role })
    .where(eq(user.id, created.user.id));
  const c = t.client(ip);
  const res = await c.post('/api/auth/sign-in/email', { email, password });
  if (res.status !== 200) throw new Error(`${role} sign-in failed: ${res.status}`);
  // Admins must use two-factor (TWO_FACTOR_REQUIRED otherwise): enrol like a person would.
  const secret = await enrolTwoFactor(c, password);
  return { client: c, email, id: created.user.id, password, totpSecret: secret };
}

/** Turns TOTP on for the signed-in client's account; returns the base32 secret. */
export async function enrolTwoFactor(c: TestClient, password?: string): Promise<string> {
  const enable = await c.post('/api/auth/two-factor/enable', password ? { password } : {});
  if (enable.status !== 200)
    throw new Error(`two-factor enable failed: ${enable.status} ${await enable.text()}`);
  const { totpURI } = (await enable.json()) as { totpURI: string };
  const secret = secretOf(totpURI);
  const verify = await c.post('/api/auth/two-factor/verify-totp', {
    code: await freshTotpCode(secret),
  });
  if (verify.status !== 200)
    throw new Error(`two-factor verify failed: ${verify.status} ${await verify.text()}`);
  return secret;
}

/** The user id of an e-mail. */
export async function userIdOf(t: TestApp, email: string): Promise<string> {
  const [row] = await t.database.db.select({ id: user.id }).from(user).where(eq(user.email, email));
  if (!row) throw new Error(`no user ${email}`);
  return row.id;
}

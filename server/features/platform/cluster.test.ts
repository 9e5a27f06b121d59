// Two instances on one PostgreSQL behind the local balancer (`npm run cluster`): a customer signs
// in on one, orders on the other, the admin completes on the first; sessions, their end and the
// sign-in rate limit are shared, because nothing lives in an instance's memory.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { imeiFor } from '../../../tests/setup/imei';
import { secretOf, totpCode } from '../../../tests/setup/totp';
import { TEST_DB_PREFIX } from '../../../tests/setup/global-db';

const templateUrl = inject('postgresTemplateUrl');
const ADMIN = { email: 'cluster-admin@example.com', password: 'Cluster-Admin-2026!' };
const PASSWORD = 'Cielo-Azul-2026!';

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

/** A port with the next two free as well (the balancer, then the two instances). */
async function threeFreePorts(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port > 60_000) continue;
    const taken = await Promise.all(
      [port + 1, port + 2].map(
        (p) =>
          new Promise<boolean>((resolve) => {
            const probe = createServer();
            probe.once('error', () => resolve(true));
            probe.listen(p, '127.0.0.1', () => probe.close(() => resolve(false)));
          }),
      ),
    );
    if (!taken.some(Boolean)) return port;
  }
}

describe.runIf(templateUrl)('two instances behind the balancer (PostgreSQL)', () => {
  let cluster: ChildProcess;
  let dbName: string;
  let databaseUrl: string;
  let base: string;
  let a: string;
  let b: string;
  let origin: string;
  let sql: pg.Client;

  async function request(
    instance: string,
    path: string,
    init: { method?: string; body?: unknown; cookie?: string } = {},
  ) {
    const res = await fetch(`${instance}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: {
        Origin: origin,
        ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(init.cookie ? { Cookie: init.cookie } : {}),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    return res;
  }

  async function signIn(instance: string, email: string, password: string): Promise<string> {
    const res = await request(instance, '/api/auth/sign-in/email', { body: { email, password } });
    expect(res.status, await res.clone().text()).toBe(200);
    return res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
  }

  /** Session cookies set by an answer, merged over `cookie`. */
  function withCookies(cookie: string, res: Response): string {
    const jar = new Map(
      cookie
        .split('; ')
        .filter(Boolean)
        .map((c) => [c.slice(0, c.indexOf('=')), c.slice(c.indexOf('=') + 1)] as const),
    );
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(';')[0] ?? '';
      const name = pair.slice(0, pair.indexOf('='));
      const value = pair.slice(pair.indexOf('=') + 1);
      if (value === '' || /max-age=0/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
    return [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  /** Admins must use two-factor: enrol on `instance`, as a person with an authenticator would. */
  async function enrolTwoFactor(instance: string, cookie: string, password: string) {
    const enable = await request(instance, '/api/auth/two-factor/enable', {
      cookie,
      body: { password },
    });
    expect(enable.status, await enable.clone().text()).toBe(200);
    const { totpURI } = (await enable.json()) as { totpURI: string };
    const verify = await request(instance, '/api/auth/two-factor/verify-totp', {
      cookie: withCookies(cookie, enable),
      body: { code: totpCode(secretOf(totpURI)) },
    });
    expect(verify.status, await verify.clone().text()).toBe(200);
    return withCookies(withCookies(cookie, enable), verify);
  }

  beforeAll(async () => {
    if (!templateUrl) return;
    dbName = `${TEST_DB_PREFIX}_cluster_${randomBytes(4).toString('hex')}`;
    const adminUrl = new URL(templateUrl);
    adminUrl.pathname = '/postgres';
    const admin = new pg.Client({ connectionString: adminUrl.toString() });
    await admin.connect();
    await admin.query(
      `CREATE DATABASE ${dbName} TEMPLATE ${new URL(templateUrl).pathname.slice(1)}`,
    );
    await admin.end();
    const url = new URL(templateUrl);
    url.pathname = `/${dbName}`;
    databaseUrl = url.toString();
    const port = await threeFreePorts();
    base = `http://127.0.0.1:${port}`;
    a = `http://127.0.0.1:${port + 1}`;
    b = `http://127.0.0.1:${port + 2}`;
    origin = `http://localhost:${port}`;
    cluster = spawn(process.execPath, ['--import', 'tsx', 'scripts/cluster.ts'], {
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        PORT: String(port),
        APP_URL: origin,
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        LOG_LEVEL: 'warn',
        RATE_LIMIT_MAX_PER_ACCOUNT: '4',
        RATE_LIMIT_MAX_PER_IP: '1000',
        NODE_ENV: 'production',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const deadline = Date.now() + 90_000;
    for (;;) {
      const ready = await Promise.all(
        [a, b, base].map((u) =>
          fetch(`${u}/readyz`)
            .then((r) => r.ok)
            .catch(() => false),
        ),
      );
      if (ready.every(Boolean)) break;
      if (Date.now() > deadline) throw new Error('the cluster did not start');
      await new Promise((r) => setTimeout(r, 250));
    }
    sql = new pg.Client({ connectionString: databaseUrl });
    await sql.connect();
  }, 120_000);

  afterAll(async () => {
    await sql?.end();
    if (cluster && cluster.exitCode === null) {
      const exited = new Promise((r) => cluster.once('exit', r));
      cluster.kill('SIGTERM');
      await exited;
    }
    if (templateUrl && dbName) {
      const adminUrl = new URL(templateUrl);
      adminUrl.pathname = '/postgres';
      const admin = new pg.Client({ connectionString: adminUrl.toString() });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await admin.end();
    }
  }, 60_000);

  it('signs in on one instance, orders on the other, the admin completes on the first', async () => {
    const email = `cluster.${Date.now()}@example.com`;
    const signUp = await request(base, '/api/auth/sign-up/email', {
      body: { name: 'Cliente Repartido', email, password: PASSWORD },
    });
    expect(signUp.status).toBe(200);
    await sql.query('UPDATE "user" SET email_verified = true WHERE email = $1', [email]);
    const customer = await signIn(a, email, PASSWORD);
    const admin = await enrolTwoFactor(
      a,
      await signIn(a, ADMIN.email, ADMIN.password),
      ADMIN.password,
    );
    const me = (await (await request(b, '/api/me', { cookie: customer })).json()) as { id: string };
    const funded = await request(a, `/api/admin/users/${me.id}/adjustments`, {
      cookie: admin,
      body: { amount: '10.00', reason: 'Saldo de prueba' },
    });
    expect(funded.status).toBe(201);
    const services = (await (
      await request(b, '/api/services?category=IMEI', { cookie: customer })
    ).json()) as {
      items: { id: string; fields: { key: string; type: string }[] }[];
    };
    const svc = services.items.find((s) => s.fields.length === 1 && s.fields[0]?.type === 'imei');
    if (!svc) throw new Error('no single-IMEI demo service');
    const placed = await request(b, '/api/orders', {
      cookie: customer,
      body: { serviceId: svc.id, fields: { imei: imeiFor(`${Date.now() % 1_000_000}5`) } },
    });
    expect(placed.status).toBe(201);
    const order = (await placed.json()) as { id: string };
    const completed = await request(a, `/api/admin/orders/${order.id}/complete`, {
      cookie: admin,
      body: { result: 'Hecho en la otra instancia' },
    });
    expect(completed.status).toBe(200);
    const seen = (await (
      await request(b, `/api/orders/${order.id}`, { cookie: customer })
    ).json()) as {
      status: string;
      result: string;
    };
    expect(seen).toMatchObject({ status: 'completed', result: 'Hecho en la otra instancia' });

    // Signing out on B ends the session for A too.
    expect((await request(b, '/api/auth/sign-out', { cookie: customer, body: {} })).status).toBe(
      200,
    );
    expect((await request(a, '/api/me', { cookie: customer })).status).toBe(401);
  });

  it('shares the sign-in rate limit and balances requests between the instances', async () => {
    const target = `nadie.${Date.now()}@example.com`;
    const statuses: number[] = [];
    for (const instance of [a, b, a, b, a]) {
      const res = await request(instance, '/api/auth/sign-in/email', {
        body: { email: target, password: 'Mal-Clave-2026!' },
      });
      statuses.push(res.status);
    }
    // Four attempts per account per window, counted across both instances.
    expect(statuses.slice(0, 4).every((s) => s === 401)).toBe(true);
    expect(statuses[4]).toBe(429);
    const servedBy = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${base}/healthz`);
      servedBy.add(res.headers.get('x-served-by') ?? '');
    }
    expect(servedBy).toEqual(new Set(['app-1', 'app-2']));
  });
});

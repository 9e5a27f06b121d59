import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { user } from '../../db/schema/auth';
import { DEFAULT_ADMIN_EMAIL, ensureAdmin } from '../../lib/bootstrap-admin';
import { createLogger } from '../../lib/logger';
import { loadWebAssets } from '../../lib/web-assets';
import { createTestApp, socketBindings, type TestApp } from '../../../tests/setup/test-app';
import { dbTargets } from '../../../tests/setup/test-db';

describe.each(dbTargets())('platform on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers health, readiness and Prometheus metrics', async () => {
    expect(await (await t.app.request('/healthz')).json()).toEqual({ status: 'ok' });
    expect(await (await t.app.request('/readyz')).json()).toEqual({
      status: 'ready',
      database: target,
    });
    const metrics = await (await t.app.request('/metrics')).text();
    expect(metrics).toMatch(/cometa_http_requests_total\{method="GET",status="2xx"\} \d+/);
  });

  it('sends secure headers with a Content-Security-Policy', async () => {
    const res = await t.app.request('/');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    // HSTS only in production behind HTTPS.
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await t.app.request('/api/nada');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      code: 'NOT_FOUND',
      message: 'No encontramos lo que buscas.',
    });
  });

  it('answers 200 for app routes and 404 for unknown paths', async () => {
    for (const p of [
      '/',
      '/nosotros/1',
      '/nosotros/42',
      '/login',
      '/dashboard',
      '/verify-email',
      '/preview',
    ]) {
      expect((await t.app.request(p)).status, p).toBe(200);
    }
    for (const p of ['/nada', '/dashboard/extra', '/nosotros', '/placeorder/otra']) {
      expect((await t.app.request(p)).status, p).toBe(404);
    }
  });

  it('serves the local mailbox, when switched on, only to this machine, and only without SMTP', async () => {
    const on = t.appWith({ env: { ...t.env, DEV_MAILBOX: true } });
    const local = await on.request('/_dev/correo', {}, socketBindings('127.0.0.1'));
    expect(local.status).toBe(200);
    expect(await local.text()).toContain('Correo local de Cometa');
    expect((await on.request('/_dev/correo', {}, socketBindings('203.0.113.9'))).status).toBe(404);
    const withSmtp = await createTestApp(target, {
      SMTP_URL: 'smtp://127.0.0.1:2525',
      DEV_MAILBOX: 'true',
    });
    try {
      expect((await withSmtp.client('127.0.0.1').get('/_dev/correo')).status).toBe(404);
    } finally {
      await withSmtp.close();
    }
  });

  it('regression: /metrics was open to anyone', async () => {
    const get = (app: TestApp['app'], from: string, headers: Record<string, string> = {}) =>
      app.request('/metrics', { headers }, socketBindings(from));
    // Another machine: not found, also with a forged X-Forwarded-For behind TRUST_PROXY.
    expect((await get(t.app, '203.0.113.9')).status).toBe(404);
    const trusting = t.appWith({ env: { ...t.env, TRUST_PROXY: true } });
    expect((await get(trusting, '203.0.113.9', { 'X-Forwarded-For': '127.0.0.1' })).status).toBe(
      404,
    );
    // A reverse proxy on this machine connects from loopback, but says it relays someone.
    expect((await get(t.app, '127.0.0.1', { 'X-Forwarded-For': '203.0.113.9' })).status).toBe(404);
    // This machine, directly (a local Prometheus): the metrics.
    const local = await get(t.app, '127.0.0.1');
    expect(local.status).toBe(200);
    expect(await local.text()).toMatch(/cometa_http_requests_total/);
    expect((await get(t.app, '::1')).status).toBe(200);
    expect((await get(t.app, '::ffff:127.0.0.1')).status).toBe(200);

    // With METRICS_TOKEN, only the bearer of the token, from anywhere.
    const token = 'metricas-de-prueba-0123456789abcdef';
    const guarded = t.appWith({ env: { ...t.env, METRICS_TOKEN: token } });
    for (const [from, headers] of [
      ['127.0.0.1', {}],
      ['203.0.113.9', {}],
      ['203.0.113.9', { Authorization: 'Bearer otra-cosa' }],
      ['203.0.113.9', { Authorization: `Bearer ${token}x` }],
      ['203.0.113.9', { Authorization: token }],
    ] as const) {
      const res = await get(guarded, from, headers);
      expect(res.status, `${from} ${JSON.stringify(headers)}`).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(await res.text()).not.toMatch(/cometa_/);
    }
    const scraped = await get(guarded, '203.0.113.9', { Authorization: `Bearer ${token}` });
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toMatch(/cometa_http_requests_total/);
  });

  it('regression: /_dev/correo was open behind a same-host reverse proxy and to a spoofed X-Forwarded-For', async () => {
    const get = (app: TestApp['app'], from: string, headers: Record<string, string> = {}) =>
      app.request('/_dev/correo', { headers }, socketBindings(from));
    // Off unless DEV_MAILBOX is set (npm start sets it on localhost), even from this machine.
    expect((await get(t.app, '127.0.0.1')).status).toBe(404);
    const on = { ...t.env, DEV_MAILBOX: true };
    // TRUST_PROXY=false behind a reverse proxy on this machine: the socket is loopback, the
    // visitor is not.
    expect(
      (await get(t.appWith({ env: on }), '127.0.0.1', { 'X-Forwarded-For': '198.51.100.7' }))
        .status,
    ).toBe(404);
    // TRUST_PROXY=true and a forged X-Forwarded-For from another machine.
    const trusting = t.appWith({ env: { ...on, TRUST_PROXY: true } });
    expect((await get(trusting, '203.0.113.9', { 'X-Forwarded-For': '127.0.0.1' })).status).toBe(
      404,
    );
    expect(
      (await trusting.request('/_dev/correo/mensajes.json', {}, socketBindings('203.0.113.9')))
        .status,
    ).toBe(404);
    // Switched on, from this machine directly: the page.
    const local = await get(t.appWith({ env: on }), '127.0.0.1');
    expect(local.status).toBe(200);
    expect(await local.text()).toContain('Correo local de Cometa');
  });

  it('creates the configured admin verified, and keeps an existing account password', async () => {
    const logger = createLogger('silent');
    const created = await ensureAdmin({
      db: t.database.db,
      auth: t.auth,
      logger,
      email: 'Jefa@Example.com',
      password: 'Jefa-Segura-2026!',
    });
    expect(created.created).toBe(true);
    const [row] = await t.database.db.select().from(user).where(eq(user.email, 'jefa@example.com'));
    expect(row).toMatchObject({ role: 'admin', emailVerified: true });
    const again = await ensureAdmin({
      db: t.database.db,
      auth: t.auth,
      logger,
      email: 'jefa@example.com',
      password: 'Otra-Clave-2026!',
    });
    expect(again.created).toBe(false);
    const signIn = await t.client().post('/api/auth/sign-in/email', {
      email: 'jefa@example.com',
      password: 'Jefa-Segura-2026!',
    });
    expect(signIn.status).toBe(200);
    await expect(
      ensureAdmin({
        db: t.database.db,
        auth: t.auth,
        logger,
        email: 'new@example.com',
        password: 'password123',
      }),
    ).rejects.toThrow(/common/);
  });

  it('on a first start without ADMIN_EMAIL, creates one admin with a random password printed once', async () => {
    const fresh = await createTestApp(target);
    try {
      const lines: string[] = [];
      const logger = createLogger('silent');
      const first = await ensureAdmin({
        db: fresh.database.db,
        auth: fresh.auth,
        logger,
        email: undefined,
        password: undefined,
        print: (l) => lines.push(l),
      });
      expect(first).toMatchObject({ created: true, email: DEFAULT_ADMIN_EMAIL });
      expect(lines.join('\n')).toContain(first.password);
      const second = await ensureAdmin({
        db: fresh.database.db,
        auth: fresh.auth,
        logger,
        email: undefined,
        password: undefined,
        print: (l) => lines.push(l),
      });
      expect(second.created).toBe(false);
      const signIn = await fresh
        .client()
        .post('/api/auth/sign-in/email', { email: DEFAULT_ADMIN_EMAIL, password: first.password });
      expect(signIn.status).toBe(200);
    } finally {
      await fresh.close();
    }
  });

  it("without a build, answers a notice: 200 on the app's paths, 404 elsewhere", () => {
    const web = loadWebAssets(path.join(os.tmpdir(), `cometa-no-web-${Date.now()}`));
    expect(web.available).toBe(false);
    expect(web.missing('/dashboard').status).toBe(200);
    expect(web.missing('/no-existe').status).toBe(404);
  });
});

describe('built web assets', () => {
  it('serves prerendered pages and hashes their inline scripts for the CSP', () => {
    const root = path.join(os.tmpdir(), `cometa-web-${Date.now()}`);
    mkdirSync(path.join(root, 'nosotros', '1'), { recursive: true });
    writeFileSync(path.join(root, 'index.html'), '<html><script>window.a=1</script>home</html>');
    writeFileSync(path.join(root, 'nosotros', '1', 'index.html'), '<html>nosotros</html>');
    const web = loadWebAssets(root);
    expect(web.available).toBe(true);
    expect(web.prerendered('/')).toBe('<html><script>window.a=1</script>home</html>');
    expect(web.prerendered('/nosotros/1/')).toBe('<html>nosotros</html>');
    // Everything else is rendered on the server (server/lib/pages.ts).
    expect(web.prerendered('/dashboard')).toBeNull();
    const expected = createHash('sha256').update('window.a=1').digest('base64');
    expect(web.scriptHashes).toEqual([`'sha256-${expected}'`]);
  });

  it("without a build, answers a notice: 200 on the app's paths, 404 elsewhere", () => {
    const web = loadWebAssets(path.join(os.tmpdir(), `cometa-no-web-${Date.now()}`));
    expect(web.available).toBe(false);
    expect(web.missing('/dashboard').status).toBe(200);
    expect(web.missing('/no-existe').status).toBe(404);
  });
});

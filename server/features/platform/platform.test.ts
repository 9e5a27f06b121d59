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
import { createTestApp, type TestApp } from '../../../tests/setup/test-app';
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

  it('serves the local mailbox only to this machine, and only without SMTP', async () => {
    const local = await t.client('127.0.0.1').get('/_dev/correo');
    expect(local.status).toBe(200);
    expect(await local.text()).toContain('Correo local de Cometa');
    expect((await t.client('203.0.113.9').get('/_dev/correo')).status).toBe(404);
    const withSmtp = await createTestApp(target, { SMTP_URL: 'smtp://127.0.0.1:2525' });
    try {
      expect((await withSmtp.client('127.0.0.1').get('/_dev/correo')).status).toBe(404);
    } finally {
      await withSmtp.close();
    }
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
});

describe('built web assets', () => {
  it('serves prerendered pages, the SPA fallback, and hashes inline scripts for the CSP', () => {
    const root = path.join(os.tmpdir(), `cometa-web-${Date.now()}`);
    mkdirSync(path.join(root, 'nosotros', '1'), { recursive: true });
    writeFileSync(
      path.join(root, '__spa-fallback.html'),
      '<html><script>window.a=1</script></html>',
    );
    writeFileSync(path.join(root, 'index.html'), '<html>home</html>');
    writeFileSync(path.join(root, 'nosotros', '1', 'index.html'), '<html>nosotros</html>');
    const web = loadWebAssets(root);
    expect(web.page('/')).toEqual({ html: '<html>home</html>', status: 200 });
    expect(web.page('/nosotros/1/')).toEqual({ html: '<html>nosotros</html>', status: 200 });
    expect(web.page('/dashboard').status).toBe(200);
    expect(web.page('/no-existe').status).toBe(404);
    const expected = createHash('sha256').update('window.a=1').digest('base64');
    expect(web.scriptHashes).toEqual([`'sha256-${expected}'`]);
  });
});

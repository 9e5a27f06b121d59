import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { user, verification } from '../../db/schema/auth';
import { API_ROUTES } from '../../routes';
import { verifyLedger } from '../ledger/ledger.verify';
import {
  createTestApp,
  enrolTwoFactor,
  GOOD_PASSWORD,
  linkIn,
  registerVerified,
  signInAdmin,
  uniqueEmail,
  userIdOf,
  type TestApp,
  type TestClient,
} from '../../../tests/setup/test-app';
import { dbTargets } from '../../../tests/setup/test-db';
import { freshTotpCode, secretOf } from '../../../tests/setup/totp';

const CODE = /\b(\d{6})\b/;

function codeIn(text: string): string {
  const m = CODE.exec(text);
  if (!m?.[1]) throw new Error(`no code in: ${text}`);
  return m[1];
}

async function json<T>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return (text === '' ? null : JSON.parse(text)) as T;
}

let phoneCounter = 0;
function uniquePhone(): string {
  phoneCounter += 1;
  return `+3460${String(Date.now() % 10_000_000).padStart(7, '0')}`.slice(0, 12) + phoneCounter;
}

describe.each(dbTargets())('sign-in methods on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target, {
      RATE_LIMIT_MAX_PER_ACCOUNT: '4',
    });
  });
  afterAll(async () => {
    await t.close();
  });

  async function isSignedIn(c: TestClient): Promise<boolean> {
    return (await c.get('/api/me')).status === 200;
  }

  describe('e-mail link', () => {
    it('creates a verified account on first use, signs in once, and the same link fails after', async () => {
      const email = uniqueEmail('link');
      const c = t.client();
      const sent = await json<{ status: boolean }>(
        await c.post('/api/auth/sign-in/magic-link', {
          email,
          callbackURL: '/dashboard',
          newUserCallbackURL: '/dashboard',
          errorCallbackURL: '/login',
        }),
        200,
      );
      expect(sent).toEqual({ status: true });
      const mail = await t.waitForMail(email, /Tu enlace para entrar/);
      const link = linkIn(mail, '/api/auth/magic-link/verify');
      const open = await c.get(link);
      expect(open.status).toBe(302);
      expect(open.headers.get('location')).toMatch(/\/dashboard$/);
      const me = await json<{ email: string; emailVerified: boolean; name: string }>(
        await c.get('/api/me'),
        200,
      );
      expect(me).toMatchObject({ email, emailVerified: true });
      expect(me.name.length).toBeGreaterThan(0);
      const [row] = await t.database.db.select().from(user).where(eq(user.email, email));
      expect(row?.emailVerified).toBe(true);

      // Single use: a second browser opening the same link gets no session.
      const other = t.client();
      const again = await other.get(link);
      expect(again.status).toBe(302);
      expect(again.headers.get('location')).toMatch(/\/login\?error=/);
      expect(await isSignedIn(other)).toBe(false);
    });

    it('answers the same whether or not the address has an account', async () => {
      const { email } = await registerVerified(t);
      const known = await t.client().post('/api/auth/sign-in/magic-link', { email });
      const unknown = await t
        .client()
        .post('/api/auth/sign-in/magic-link', { email: uniqueEmail('nadie') });
      expect(known.status).toBe(200);
      expect(unknown.status).toBe(200);
      expect(await known.json()).toEqual(await unknown.json());
    });

    it('expires after 10 minutes', async () => {
      const email = uniqueEmail('late');
      const c = t.client();
      await c.post('/api/auth/sign-in/magic-link', { email, callbackURL: '/dashboard' });
      const mail = await t.waitForMail(email, /Tu enlace para entrar/);
      await t.database.db
        .update(verification)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(sql`${verification.expiresAt} > now()`);
      const open = await c.get(linkIn(mail, '/api/auth/magic-link/verify'));
      expect(open.headers.get('location')).toMatch(/error=/);
      expect(await isSignedIn(c)).toBe(false);
    });

    it('is rate limited per address', async () => {
      const email = uniqueEmail('many');
      const statuses: number[] = [];
      for (let i = 0; i < 6; i += 1) {
        // A different address each time: the per-address counter, not the per-IP one, trips.
        const res = await t
          .client(`198.51.100.${i + 1}`)
          .post('/api/auth/sign-in/magic-link', { email });
        statuses.push(res.status);
      }
      expect(statuses.slice(0, 4)).toEqual([200, 200, 200, 200]);
      expect(statuses.at(-1)).toBe(429);
    });
  });

  describe('e-mail code', () => {
    it('signs in with the 6-digit code once; a wrong code and a reused code fail', async () => {
      const { email } = await registerVerified(t);
      const c = t.client();
      expect(
        await json(
          await c.post('/api/auth/email-otp/send-verification-otp', { email, type: 'sign-in' }),
          200,
        ),
      ).toEqual({ success: true });
      const mail = await t.waitForMail(email, /Tu código para entrar/);
      const code = codeIn(mail.text);
      const wrong = code === '000000' ? '111111' : '000000';
      const bad = await c.post('/api/auth/sign-in/email-otp', { email, otp: wrong });
      expect(bad.status).toBe(400);
      expect(await isSignedIn(c)).toBe(false);
      const ok = await c.post('/api/auth/sign-in/email-otp', { email, otp: code });
      expect(ok.status).toBe(200);
      expect(await isSignedIn(c)).toBe(true);
      const reuse = await t.client().post('/api/auth/sign-in/email-otp', { email, otp: code });
      expect(reuse.status).toBeGreaterThanOrEqual(400);
    });

    it('a first sign-in with a code creates the account verified; unknown and known addresses answer alike', async () => {
      const email = uniqueEmail('code-new');
      const c = t.client();
      const first = await c.post('/api/auth/email-otp/send-verification-otp', {
        email,
        type: 'sign-in',
      });
      const { email: knownEmail } = await registerVerified(t);
      const second = await t
        .client()
        .post('/api/auth/email-otp/send-verification-otp', { email: knownEmail, type: 'sign-in' });
      expect(first.status).toBe(second.status);
      expect(await first.json()).toEqual(await second.json());
      const mail = await t.waitForMail(email, /Tu código para entrar/);
      await json(
        await c.post('/api/auth/sign-in/email-otp', { email, otp: codeIn(mail.text) }),
        200,
      );
      const [row] = await t.database.db.select().from(user).where(eq(user.email, email));
      expect(row?.emailVerified).toBe(true);
    });
  });

  describe('phone', () => {
    it('adds a verified phone with an SMS code, then signs in with phone + code', async () => {
      const { client, email } = await registerVerified(t);
      const phone = uniquePhone();
      await json(await client.post('/api/auth/phone-number/send-otp', { phoneNumber: phone }), 200);
      const sms = await t.waitForSms(phone);
      expect(sms.text).toMatch(/Caduca en 10 minutos/);
      await json(
        await client.post('/api/auth/phone-number/verify', {
          phoneNumber: phone,
          code: codeIn(sms.text),
          updatePhoneNumber: true,
        }),
        200,
      );
      const security = await json<{ phoneNumber: string | null }>(
        await client.get('/api/me/security'),
        200,
      );
      expect(security.phoneNumber).toBe(phone);
      await t.waitForMail(email, /Cambio en la seguridad/);

      const device = t.client();
      await json(await device.post('/api/auth/phone-number/send-otp', { phoneNumber: phone }), 200);
      let code = '';
      for (let i = 0; i < 50 && code === ''; i += 1) {
        const texts = (await t.smsOutbox()).filter((m) => m.to === phone);
        if (texts.length >= 2) code = codeIn(texts[0]?.text ?? '');
        else await new Promise((r) => setTimeout(r, 50));
      }
      expect(code).toMatch(/^\d{6}$/);
      await json(
        await device.post('/api/auth/phone-number/verify', { phoneNumber: phone, code }),
        200,
      );
      const me = await json<{ email: string }>(await device.get('/api/me'), 200);
      expect(me.email).toBe(email);
    });

    it('a number no account has gets the same answer, no SMS, and cannot sign in', async () => {
      const phone = uniquePhone();
      const c = t.client();
      const res = await c.post('/api/auth/phone-number/send-otp', { phoneNumber: phone });
      expect(res.status).toBe(200);
      await new Promise((r) => setTimeout(r, 1500));
      expect((await t.smsOutbox()).filter((m) => m.to === phone)).toHaveLength(0);
      const verify = await c.post('/api/auth/phone-number/verify', {
        phoneNumber: phone,
        code: '123456',
      });
      expect(verify.status).toBe(400);
      expect(await isSignedIn(c)).toBe(false);
    });

    it('refuses a number that is not in international format', async () => {
      const { client } = await registerVerified(t);
      const res = await client.post('/api/auth/phone-number/send-otp', {
        phoneNumber: '600111222',
      });
      expect(res.status).toBe(400);
    });
  });

  describe('two-factor', () => {
    it('password sign-in then asks for the code; a TOTP code and a backup code each finish it', async () => {
      const { client, email } = await registerVerified(t);
      // Accounts created through the form have a password: enabling asks for it.
      const enable = await json<{ totpURI: string; backupCodes: string[] }>(
        await client.post('/api/auth/two-factor/enable', { password: GOOD_PASSWORD }),
        200,
      );
      expect(enable.backupCodes).toHaveLength(10);
      const secret = secretOf(enable.totpURI);
      await json(
        await client.post('/api/auth/two-factor/verify-totp', {
          code: await freshTotpCode(secret),
        }),
        200,
      );
      await t.waitForMail(email, /Cambio en la seguridad/);

      const c = t.client();
      const first = await json<{ twoFactorRedirect?: boolean }>(
        await c.post('/api/auth/sign-in/email', { email, password: GOOD_PASSWORD }),
        200,
      );
      expect(first.twoFactorRedirect).toBe(true);
      expect(await isSignedIn(c)).toBe(false);
      const wrong = await c.post('/api/auth/two-factor/verify-totp', { code: '000000' });
      expect(wrong.status).toBe(401);
      await json(
        await c.post('/api/auth/two-factor/verify-totp', { code: await freshTotpCode(secret) }),
        200,
      );
      expect(await isSignedIn(c)).toBe(true);

      const d = t.client();
      await d.post('/api/auth/sign-in/email', { email, password: GOOD_PASSWORD });
      await json(
        await d.post('/api/auth/two-factor/verify-backup-code', { code: enable.backupCodes[0] }),
        200,
      );
      expect(await isSignedIn(d)).toBe(true);
      // A backup code works once.
      const e = t.client();
      await e.post('/api/auth/sign-in/email', { email, password: GOOD_PASSWORD });
      const reuse = await e.post('/api/auth/two-factor/verify-backup-code', {
        code: enable.backupCodes[0],
      });
      expect(reuse.status).toBe(401);
      expect(await isSignedIn(e)).toBe(false);
    });

    it('an e-mail link or code does not skip the second factor', async () => {
      const { client, email } = await registerVerified(t);
      const secret = await enrolTwoFactor(client, GOOD_PASSWORD);

      const c = t.client();
      await c.post('/api/auth/sign-in/magic-link', { email, callbackURL: '/dashboard' });
      const mail = await t.waitForMail(email, /Tu enlace para entrar/);
      const open = await c.get(linkIn(mail, '/api/auth/magic-link/verify'));
      expect(open.status).toBe(302);
      expect(open.headers.get('location')).toMatch(/\/login\/dos-pasos/);
      expect(await isSignedIn(c)).toBe(false);
      await json(
        await c.post('/api/auth/two-factor/verify-totp', { code: await freshTotpCode(secret) }),
        200,
      );
      expect(await isSignedIn(c)).toBe(true);

      const d = t.client();
      await d.post('/api/auth/email-otp/send-verification-otp', { email, type: 'sign-in' });
      const codeMail = await t.waitForMail(email, /Tu código para entrar/);
      const res = await json<{ twoFactorRedirect?: boolean }>(
        await d.post('/api/auth/sign-in/email-otp', { email, otp: codeIn(codeMail.text) }),
        200,
      );
      expect(res.twoFactorRedirect).toBe(true);
      expect(await isSignedIn(d)).toBe(false);
    });

    it('locks after repeated wrong codes and tells the owner by e-mail', async () => {
      const { client, email } = await registerVerified(t);
      const secret = await enrolTwoFactor(client, GOOD_PASSWORD);
      const c = t.client();
      await c.post('/api/auth/sign-in/email', { email, password: GOOD_PASSWORD });
      const statuses: number[] = [];
      for (let i = 0; i < 6; i += 1) {
        const res = await c.post('/api/auth/two-factor/verify-totp', { code: '000000' });
        statuses.push(res.status);
      }
      expect(statuses.at(-1)).toBe(429);
      const right = await c.post('/api/auth/two-factor/verify-totp', {
        code: await freshTotpCode(secret),
      });
      expect(right.status).toBe(429);
      expect(await isSignedIn(c)).toBe(false);
      let locked = false;
      for (let i = 0; i < 100 && !locked; i += 1) {
        locked = (await t.outbox()).some((m) => m.to === email && /bloqueamos/.test(m.text));
        if (!locked) await new Promise((r) => setTimeout(r, 50));
      }
      expect(locked).toBe(true);
      // One e-mail per lock, however many refused attempts follow.
      await new Promise((r) => setTimeout(r, 1000));
      expect(
        (await t.outbox()).filter((m) => m.to === email && /bloqueamos/.test(m.text)),
      ).toHaveLength(1);
    });
  });

  describe('admins must use two-factor', () => {
    const adminRoutes = API_ROUTES.filter((r) => r.access === 'admin');

    it('every admin route answers 403 TWO_FACTOR_REQUIRED until the admin enrols', async () => {
      expect(adminRoutes.length).toBeGreaterThan(20);
      const email = uniqueEmail('admin-no2fa');
      const password = 'Admin-Clave-2026!';
      const created = await t.auth.api.createUser({
        body: { email, password, name: 'Admin sin 2FA', role: 'admin' },
      });
      await t.database.db
        .update(user)
        .set({ emailVerified: true })
        .where(eq(user.id, created.user.id));
      const c = t.client();
      await json(await c.post('/api/auth/sign-in/email', { email, password }), 200);
      for (const route of adminRoutes) {
        const path = route.path.replace(
          /:(\w+)(\{[^}]*\})?/g,
          '00000000-0000-0000-0000-000000000000',
        );
        const res = await c.request(
          route.method.toUpperCase(),
          path,
          route.method === 'get' ? undefined : {},
        );
        const body = (await res.json().catch(() => ({}))) as { code?: string };
        expect(res.status, `${route.method} ${route.path}`).toBe(403);
        expect(body.code, `${route.method} ${route.path}`).toBe('TWO_FACTOR_REQUIRED');
      }
      // Better Auth's own admin endpoints too (the one the product keeps on).
      const promote = await c.post('/api/auth/admin/set-role', {
        userId: created.user.id,
        role: 'admin',
      });
      expect(promote.status).toBe(403);
      expect(((await promote.json()) as { code?: string }).code).toBe('TWO_FACTOR_REQUIRED');
      // /api/me says so, for the web app's enrolment page.
      expect(
        (await json<{ twoFactorEnabled: boolean }>(await c.get('/api/me'), 200)).twoFactorEnabled,
      ).toBe(false);

      await enrolTwoFactor(c, password);
      expect((await c.get('/api/admin/users?q=ab')).status).toBe(200);
    });
  });

  describe('sessions', () => {
    it('lists sessions and ends another one at once', async () => {
      const { client, email } = await registerVerified(t);
      const other = t.client('203.0.113.9');
      await json(
        await other.request(
          'POST',
          '/api/auth/sign-in/email',
          { email, password: GOOD_PASSWORD },
          {
            'User-Agent':
              'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1',
          },
        ),
        200,
      );
      const list = await json<{
        items: {
          id: string;
          current: boolean;
          device: string;
          browser: string;
          ip: string | null;
        }[];
      }>(await client.get('/api/me/sessions'), 200);
      expect(list.items).toHaveLength(2);
      expect(list.items.filter((s) => s.current)).toHaveLength(1);
      const phone = list.items.find((s) => !s.current);
      expect(phone).toMatchObject({
        device: 'Móvil',
        browser: 'Safari 18 en iPhone',
        ip: '203.0.113.x',
      });
      // A new device e-mails the owner.
      await t.waitForMail(email, /Nuevo inicio de sesión/);

      expect(await isSignedIn(other)).toBe(true);
      const end = await client.request('DELETE', `/api/me/sessions/${phone?.id}`);
      expect(end.status).toBe(200);
      expect(await isSignedIn(other)).toBe(false);
      expect(await isSignedIn(client)).toBe(true);
      // Someone else's session id is not found.
      const stranger = await registerVerified(t);
      expect(
        (await stranger.client.request('DELETE', `/api/me/sessions/${phone?.id}`)).status,
      ).toBe(404);
    });

    it('ends every other session', async () => {
      const { client, email } = await registerVerified(t);
      const a = t.client();
      const b = t.client();
      await a.post('/api/auth/sign-in/email', { email, password: GOOD_PASSWORD });
      await b.post('/api/auth/sign-in/email', { email, password: GOOD_PASSWORD });
      const res = await json<{ revoked: number }>(
        await client.post('/api/me/sessions/revoke-others'),
        200,
      );
      expect(res.revoked).toBe(2);
      expect(await isSignedIn(a)).toBe(false);
      expect(await isSignedIn(b)).toBe(false);
      expect(await isSignedIn(client)).toBe(true);
    });
  });

  describe('your data', () => {
    it('exports profile, orders, movements and payments as a JSON download', async () => {
      const { client, email } = await registerVerified(t);
      const res = await client.get('/api/me/export');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toMatch(
        /attachment; filename="cometa-mis-datos-\d{4}-\d{2}-\d{2}\.json"/,
      );
      const data = (await res.json()) as Record<string, unknown> & { profile: { email: string } };
      expect(data.profile.email).toBe(email);
      for (const key of ['orders', 'movements', 'payments', 'sessions', 'signInMethods'])
        expect(Array.isArray(data[key]), key).toBe(true);
    });

    it('deletes an account only with zero balance and the right password; the ledger stays whole', async () => {
      const admin = await signInAdmin(t);
      const { client, email } = await registerVerified(t, 'Borrar Me');
      const id = await userIdOf(t, email);
      await json(
        await admin.client.post(`/api/admin/users/${id}/adjustments`, {
          amount: '5.00',
          reason: 'Prueba',
        }),
        201,
      );
      const wrong = await client.post('/api/me/delete', {
        password: 'no-es-esta',
        confirm: 'ELIMINAR',
      });
      expect(wrong.status).toBe(400);
      expect(((await wrong.json()) as { fields?: Record<string, string> }).fields?.password).toBe(
        'La contraseña no es correcta.',
      );
      const withMoney = await client.post('/api/me/delete', {
        password: GOOD_PASSWORD,
        confirm: 'ELIMINAR',
      });
      expect(withMoney.status).toBe(409);
      expect(((await withMoney.json()) as { code: string }).code).toBe('BALANCE_NOT_ZERO');
      await json(
        await admin.client.post(`/api/admin/users/${id}/adjustments`, {
          amount: '-5.00',
          reason: 'Devolución',
        }),
        201,
      );
      const noConfirm = await client.post('/api/me/delete', { password: GOOD_PASSWORD });
      expect(noConfirm.status).toBe(400);
      await json(
        await client.post('/api/me/delete', { password: GOOD_PASSWORD, confirm: 'ELIMINAR' }),
        200,
      );
      expect(await isSignedIn(client)).toBe(false);
      const [row] = await t.database.db.select().from(user).where(eq(user.id, id));
      expect(row?.email).not.toBe(email);
      expect(row?.name).toBe('Cuenta eliminada');
      expect(row?.deletedAt).not.toBeNull();
      const again = await t
        .client()
        .post('/api/auth/sign-in/email', { email, password: GOOD_PASSWORD });
      expect(again.status).toBe(401);
      const movements = await queryRows<{ n: number }>(
        t.database.db,
        sql`SELECT count(*)::int AS n FROM ledger_entry e JOIN ledger_account a ON a.id = e.account_id WHERE a.user_id = ${id}`,
      );
      expect(movements[0]?.n).toBe(2);
      expect((await verifyLedger(t.database.db)).problems).toEqual([]);
      await t.waitForMail(email, /se ha eliminado/);
      // The address can start again from scratch.
      const fresh = await t.client().post('/api/auth/sign-in/magic-link', { email });
      expect(fresh.status).toBe(200);
    });
  });

  describe('admin view of a customer', () => {
    it('shows methods, 2FA and sessions; ending sessions and blocking take effect at once', async () => {
      const admin = await signInAdmin(t);
      const { client, email } = await registerVerified(t, 'Cliente Vigilado');
      const id = await userIdOf(t, email);
      const view = await json<{
        twoFactorEnabled: boolean;
        sessions: unknown[];
        methods: { kind: string }[];
        blocked: boolean;
      }>(await admin.client.get(`/api/admin/users/${id}/security`), 200);
      expect(view.twoFactorEnabled).toBe(false);
      expect(view.blocked).toBe(false);
      expect(view.sessions.length).toBeGreaterThanOrEqual(1);
      expect(view.methods.map((m) => m.kind)).toEqual(['email', 'credential']);

      const key = await json<{ key: string }>(
        await client.post('/api/keys', { name: 'Panel' }),
        201,
      );
      const ended = await json<{ revoked: number }>(
        await admin.client.post(`/api/admin/users/${id}/sessions/revoke`),
        200,
      );
      expect(ended.revoked).toBeGreaterThanOrEqual(1);
      expect(await isSignedIn(client)).toBe(false);

      const blocked = await json<{ blocked: boolean; blockReason: string }>(
        await admin.client.post(`/api/admin/users/${id}/block`, { reason: 'Fraude con tarjeta' }),
        200,
      );
      expect(blocked).toMatchObject({ blocked: true, blockReason: 'Fraude con tarjeta' });
      const signIn = await t
        .client()
        .post('/api/auth/sign-in/email', { email, password: GOOD_PASSWORD });
      expect(signIn.status).toBe(403);
      const byKey = await t.client().request('GET', '/api/wallet', undefined, {
        Authorization: `Bearer ${key.key}`,
      });
      expect(byKey.status).toBe(401);

      await json(await admin.client.post(`/api/admin/users/${id}/unblock`), 200);
      const back = t.client();
      await json(
        await back.post('/api/auth/sign-in/email', { email, password: GOOD_PASSWORD }),
        200,
      );
      expect(await isSignedIn(back)).toBe(true);
    });

    it('a customer cannot see or block anyone', async () => {
      const { client } = await registerVerified(t);
      const { email } = await registerVerified(t);
      const id = await userIdOf(t, email);
      expect((await client.get(`/api/admin/users/${id}/security`)).status).toBe(403);
      expect(
        (await client.post(`/api/admin/users/${id}/block`, { reason: 'Porque sí' })).status,
      ).toBe(403);
    });
  });

  it('lists the configured sign-in methods', async () => {
    const methods = await json<{ providers: unknown[]; emailLink: boolean; passkey: boolean }>(
      await t.client().get('/api/sign-in-methods'),
      200,
    );
    expect(methods).toMatchObject({ emailLink: true, passkey: false, providers: [] });
  });
});

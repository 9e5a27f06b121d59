// Regression tests for the sign-in findings of the security audit (issue 17): Better Auth
// endpoints the product never uses, phone codes, TOTP replay, trusted devices and the tokens an
// account leaves behind when it is deleted. docs/decisions/0014-sign-in-methods.md.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client';
import { account, user, verification } from '../db/schema/auth';
import { service } from '../db/schema/catalogue';
import { ENABLED_AUTH_PATHS } from '../lib/auth';
import {
  GOOD_PASSWORD,
  TEST_ORIGIN,
  createTestApp,
  linkIn,
  registerVerified,
  signInAdmin,
  uniqueEmail,
  userIdOf,
  type TestApp,
  type TestClient,
} from '../../tests/setup/test-app';
import { dbTargets } from '../../tests/setup/test-db';
import { secretOf, totpCode } from '../../tests/setup/totp';

/** Every /api/auth path the product uses (web, e-mail links, provider callbacks, e2e tooling). */
const EXPECTED_ENABLED = [
  '/admin/set-role',
  '/callback/:id',
  '/change-email',
  '/change-password',
  '/email-otp/send-verification-otp',
  '/error',
  '/get-session',
  '/link-social',
  '/magic-link/verify',
  '/phone-number/send-otp',
  '/phone-number/verify',
  '/request-password-reset',
  '/reset-password',
  '/reset-password/:token',
  '/send-verification-email',
  '/sign-in/email',
  '/sign-in/email-otp',
  '/sign-in/magic-link',
  '/sign-in/social',
  '/sign-out',
  '/sign-up/email',
  '/two-factor/disable',
  '/two-factor/enable',
  '/two-factor/generate-backup-codes',
  '/two-factor/verify-backup-code',
  '/two-factor/verify-totp',
  '/unlink-account',
  '/verify-email',
];

/** Endpoints that let people in or change a password without what the product asks for. */
const DANGEROUS = [
  '/email-otp/verify-email',
  '/email-otp/reset-password',
  '/email-otp/check-verification-otp',
  '/email-otp/request-password-reset',
  '/forget-password/email-otp',
  '/phone-number/reset-password',
  '/phone-number/request-password-reset',
  '/sign-in/phone-number',
  '/admin/impersonate-user',
  '/admin/set-user-password',
  '/update-user',
  '/revoke-other-sessions',
];

const STEP_MS = 30_000;

function currentStep(): number {
  return Math.floor(Date.now() / STEP_MS);
}

function codeAt(secret: string, step: number): string {
  return totpCode(secret, step * STEP_MS);
}

/** Waits, when the current 30-second step ends within `marginMs`, for the next one to start. */
async function awayFromStepEdge(marginMs = 10_000): Promise<void> {
  const left = STEP_MS - (Date.now() % STEP_MS);
  if (left < marginMs) await new Promise((r) => setTimeout(r, left + 50));
}

let phoneCounter = 0;
function uniquePhone(): string {
  phoneCounter += 1;
  return `+3471${String(Date.now() % 100_000).padStart(5, '0')}${String(phoneCounter).padStart(3, '0')}`;
}

function codeIn(text: string): string {
  const m = /\b(\d{6})\b/.exec(text);
  if (!m?.[1]) throw new Error(`no code in: ${text}`);
  return m[1];
}

/** A six-digit code that is not `code`. */
function wrongFor(code: string): string {
  return code === '000000' ? '111111' : '000000';
}

describe.each(dbTargets())('sign-in paths on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(async () => {
    await t.close();
  });

  async function isSignedIn(c: TestClient): Promise<boolean> {
    return (await c.get('/api/me')).status === 200;
  }

  /** Sends a sign-in code to `phone` from `c` and returns it, once the SMS worker wrote it. */
  async function sendPhoneCode(c: TestClient, phone: string): Promise<string> {
    const before = (await t.smsOutbox()).filter((m) => m.to === phone).length;
    const res = await c.post('/api/auth/phone-number/send-otp', { phoneNumber: phone });
    expect(res.status).toBe(200);
    for (let i = 0; i < 100; i += 1) {
      const texts = (await t.smsOutbox()).filter((m) => m.to === phone);
      if (texts.length > before) return codeIn(texts[0]?.text ?? '');
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no SMS to ${phone}`);
  }

  /** A verified account with a verified phone number, as Mi perfil leaves it. */
  async function withPhone() {
    const { client, email } = await registerVerified(t);
    const phone = uniquePhone();
    await t.database.db
      .update(user)
      .set({ phoneNumber: phone, phoneNumberVerified: true })
      .where(eq(user.email, email));
    return { client, email, phone };
  }

  async function verificationRows(identifier: string) {
    return t.database.db.select().from(verification).where(eq(verification.identifier, identifier));
  }

  describe('finding 3: endpoints the product never uses', () => {
    it('regression: POST /api/auth/email-otp/verify-email returned a session past two-factor', async () => {
      const admin = await signInAdmin(t);
      // A code of that kind is never e-mailed; the server can still make one.
      const otp = await t.auth.api.createVerificationOTP({
        body: { email: admin.email, type: 'email-verification' },
      });
      const c = t.client();
      const res = await c.post('/api/auth/email-otp/verify-email', { email: admin.email, otp });
      expect(res.status).toBe(404);
      expect(c.cookies.has('better-auth.session_token')).toBe(false);
      expect((await c.get('/api/admin/users?q=ab')).status).toBe(401);
    });

    it('regression: POST /api/auth/email-otp/reset-password set a common password with a code the owner was never sent', async () => {
      const { email } = await registerVerified(t);
      // The only e-mail code the product sends is the sign-in one; no other kind is stored.
      const asked = await t
        .client()
        .post('/api/auth/email-otp/send-verification-otp', { email, type: 'forget-password' });
      expect(asked.status).toBe(400);
      expect(await verificationRows(`forget-password-otp-${email}`)).toEqual([]);
      // A code of that kind is never e-mailed; the server can still make one.
      const otp = await t.auth.api.createVerificationOTP({
        body: { email, type: 'forget-password' },
      });
      const res = await t
        .client()
        .post('/api/auth/email-otp/reset-password', { email, otp, password: 'password123' });
      expect(res.status).toBe(404);
      const common = await t
        .client()
        .post('/api/auth/sign-in/email', { email, password: 'password123' });
      expect(common.status).toBe(401);
      const own = await t
        .client()
        .post('/api/auth/sign-in/email', { email, password: GOOD_PASSWORD });
      expect(own.status).toBe(200);
    });

    it('regression: POST /api/auth/phone-number/reset-password set a password with a code the owner was never sent, with no per-number limit', async () => {
      const { email, phone } = await withPhone();
      const ask = await t
        .client()
        .post('/api/auth/phone-number/request-password-reset', { phoneNumber: phone });
      expect(ask.status).toBe(404);
      const [row] = await verificationRows(`phone-number-reset-${phone}`);
      const reset = await t.client().post('/api/auth/phone-number/reset-password', {
        phoneNumber: phone,
        otp: row?.value.split(':')[0] ?? '000000',
        newPassword: 'password123',
      });
      expect(reset.status).toBe(404);
      const common = await t
        .client()
        .post('/api/auth/sign-in/email', { email, password: 'password123' });
      expect(common.status).toBe(401);
    });

    it('regression: Better Auth endpoints we never use were enabled (the enabled /api/auth paths are exactly the allow-list)', async () => {
      const endpoints = Object.values(t.auth.api).flatMap((endpoint) => {
        const { path, options } = endpoint as { path?: string; options?: { method?: unknown } };
        if (typeof path !== 'string') return [];
        const method: unknown = Array.isArray(options?.method)
          ? (options.method as unknown[])[0]
          : options?.method;
        return [{ path, method: typeof method === 'string' ? method : 'POST' }];
      });
      const disabled = new Set(t.auth.options.disabledPaths ?? []);
      const enabled = endpoints.map((e) => e.path).filter((p) => !disabled.has(p));
      expect([...new Set(enabled)].sort()).toEqual(EXPECTED_ENABLED);
      expect([...ENABLED_AUTH_PATHS].sort()).toEqual(EXPECTED_ENABLED);

      // Over HTTP, a turned-off endpoint answers exactly like a path that does not exist.
      const unknown = await t.client().post('/api/auth/no-such-endpoint', {});
      expect(unknown.status).toBe(404);
      const unknownBody = await unknown.text();
      for (const { path, method } of endpoints) {
        const url = `/api/auth${path.replace(/:\w+/g, 'x')}`;
        const res = await t.client().request(method, url, method === 'GET' ? undefined : {});
        if (EXPECTED_ENABLED.includes(path)) {
          expect(res.status, `${method} ${path}`).not.toBe(404);
          continue;
        }
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(await res.text(), `${method} ${path}`).toBe(unknownBody);
      }
      // Nor does another spelling of a dangerous path reach it.
      for (const path of DANGEROUS) {
        const spellings = [
          `/api/auth${path}`,
          `/api/auth${path}/`,
          `/api/auth/${path}`,
          `/api/auth${path.replace('/', '//')}`,
          `/api/auth${path}?x=1`,
          `/api/auth${path.toUpperCase()}`,
          `/api/auth/.${path}`,
          `/api/auth${path.replace(/-/g, '%2D')}`,
        ];
        for (const url of spellings) {
          const res = await t.client().post(url, {});
          expect(res.status, url).toBe(404);
        }
      }
    });

    it('regression: phone codes were stored in plain text in the verification table', async () => {
      const { email, phone } = await withPhone();
      const c = t.client();
      const code = await sendPhoneCode(c, phone);
      const rows = await verificationRows(`phone-number-otp-${phone}`);
      expect(rows).toHaveLength(1);
      expect(rows[0]?.value).not.toContain(code);
      // Four wrong codes, then the right one signs in, once.
      for (let i = 0; i < 4; i += 1) {
        const wrong = await c.post('/api/auth/phone-number/verify', {
          phoneNumber: phone,
          code: wrongFor(code),
        });
        expect(wrong.status).toBe(400);
      }
      const ok = await c.post('/api/auth/phone-number/verify', { phoneNumber: phone, code });
      expect(ok.status).toBe(200);
      expect(((await (await c.get('/api/me')).json()) as { email: string }).email).toBe(email);
      const reuse = await t
        .client()
        .post('/api/auth/phone-number/verify', { phoneNumber: phone, code });
      expect(reuse.status).toBe(400);

      // Five wrong codes void the code: the right one no longer signs in.
      const d = t.client();
      const second = await sendPhoneCode(d, phone);
      expect((await verificationRows(`phone-number-otp-${phone}`))[0]?.value).not.toContain(second);
      for (let i = 0; i < 5; i += 1) {
        const wrong = await d.post('/api/auth/phone-number/verify', {
          phoneNumber: phone,
          code: wrongFor(second),
        });
        expect(wrong.status).toBe(400);
      }
      const late = await d.post('/api/auth/phone-number/verify', {
        phoneNumber: phone,
        code: second,
      });
      expect(late.status).toBe(400);
      expect(await isSignedIn(d)).toBe(false);
    });
  });

  it('regression: /api/auth/phone-number/verify answered an unknown number in Spanish and a known one with Better Auth’s English «Invalid OTP»', async () => {
    const { phone } = await withPhone();
    const code = await sendPhoneCode(t.client(), phone);
    const answers = [
      await t.client().post('/api/auth/phone-number/verify', {
        phoneNumber: phone,
        code: wrongFor(code),
      }),
      await t
        .client()
        .post('/api/auth/phone-number/verify', { phoneNumber: uniquePhone(), code: '123456' }),
    ];
    // A known number with no code pending.
    const { phone: idle } = await withPhone();
    answers.push(
      await t.client().post('/api/auth/phone-number/verify', { phoneNumber: idle, code: '123456' }),
    );
    const seen = await Promise.all(
      answers.map(async (res) => ({
        status: res.status,
        type: res.headers.get('content-type'),
        body: await res.text(),
      })),
    );
    expect(seen[0]?.status).toBe(400);
    expect(JSON.parse(seen[0]?.body ?? '{}')).toEqual({
      code: 'INVALID_OTP',
      message: 'El código no es correcto o ha caducado.',
    });
    expect(seen[1]).toEqual(seen[0]);
    expect(seen[2]).toEqual(seen[0]);
  });

  describe('finding 8: TOTP replay', () => {
    it('regression: a TOTP code was accepted twice within its window', async () => {
      const { client, email } = await registerVerified(t);
      await awayFromStepEdge();
      const step = currentStep();
      const enable = await client.post('/api/auth/two-factor/enable', { password: GOOD_PASSWORD });
      const secret = secretOf(((await enable.json()) as { totpURI: string }).totpURI);
      const enrol = await client.post('/api/auth/two-factor/verify-totp', {
        code: codeAt(secret, step),
      });
      expect(enrol.status).toBe(200);

      // The enrolment's code does not finish a sign-in, nor does an older step's.
      const b = t.client();
      await b.post('/api/auth/sign-in/email', { email, password: GOOD_PASSWORD });
      const replay = await b.post('/api/auth/two-factor/verify-totp', {
        code: codeAt(secret, step),
      });
      expect(replay.status).toBe(401);
      const older = await b.post('/api/auth/two-factor/verify-totp', {
        code: codeAt(secret, step - 1),
      });
      expect(older.status).toBe(401);
      expect(await isSignedIn(b)).toBe(false);
      const newer = await b.post('/api/auth/two-factor/verify-totp', {
        code: codeAt(secret, step + 1),
      });
      expect(newer.status).toBe(200);
      expect(await isSignedIn(b)).toBe(true);

      // Another browser cannot use the code that just signed b in.
      const c = t.client();
      await c.post('/api/auth/sign-in/email', { email, password: GOOD_PASSWORD });
      const again = await c.post('/api/auth/two-factor/verify-totp', {
        code: codeAt(secret, step + 1),
      });
      expect(again.status).toBe(401);
      expect(await isSignedIn(c)).toBe(false);
    });

    it('regression: a TOTP code was accepted twice within its window (two sign-ins at once: one wins)', async () => {
      const { client, email } = await registerVerified(t);
      await awayFromStepEdge();
      const step = currentStep();
      const enable = await client.post('/api/auth/two-factor/enable', { password: GOOD_PASSWORD });
      const secret = secretOf(((await enable.json()) as { totpURI: string }).totpURI);
      expect(
        (
          await client.post('/api/auth/two-factor/verify-totp', {
            code: codeAt(secret, step - 1),
          })
        ).status,
      ).toBe(200);
      const browsers = [t.client(), t.client(), t.client()];
      for (const b of browsers)
        await b.post('/api/auth/sign-in/email', { email, password: GOOD_PASSWORD });
      const code = codeAt(secret, step);
      const statuses = await Promise.all(
        browsers.map(
          async (b) => (await b.post('/api/auth/two-factor/verify-totp', { code })).status,
        ),
      );
      expect(statuses.sort()).toEqual([200, 401, 401]);
      const signedIn = await Promise.all(browsers.map(isSignedIn));
      expect(signedIn.filter(Boolean)).toHaveLength(1);
    });

    it('regression: a TOTP code was accepted twice within its window (account deletion confirmed with a used code)', async () => {
      // An account without a password confirms its deletion with a code of its app.
      const email = uniqueEmail('sin-clave');
      const c = t.client();
      await c.post('/api/auth/email-otp/send-verification-otp', { email, type: 'sign-in' });
      const mail = await t.waitForMail(email, /Tu código para entrar/);
      expect(
        (await c.post('/api/auth/sign-in/email-otp', { email, otp: codeIn(mail.text) })).status,
      ).toBe(200);
      await awayFromStepEdge();
      const step = currentStep();
      const enable = await c.post('/api/auth/two-factor/enable', {});
      const secret = secretOf(((await enable.json()) as { totpURI: string }).totpURI);
      expect(
        (await c.post('/api/auth/two-factor/verify-totp', { code: codeAt(secret, step) })).status,
      ).toBe(200);
      const used = await c.post('/api/me/delete', {
        code: codeAt(secret, step),
        confirm: 'ELIMINAR',
      });
      expect(used.status).toBe(400);
      const [row] = await t.database.db.select().from(user).where(eq(user.email, email));
      expect(row?.deletedAt).toBeNull();
      const fresh = await c.post('/api/me/delete', {
        code: codeAt(secret, step + 1),
        confirm: 'ELIMINAR',
      });
      expect(fresh.status).toBe(200);
    });
  });

  it('regression: an account without a password turned two-factor off, made backup codes and re-enrolled without any code', async () => {
    const email = uniqueEmail('sin-clave-2fa');
    const c = t.client();
    await c.post('/api/auth/email-otp/send-verification-otp', { email, type: 'sign-in' });
    const mail = await t.waitForMail(email, /Tu código para entrar/);
    expect(
      (await c.post('/api/auth/sign-in/email-otp', { email, otp: codeIn(mail.text) })).status,
    ).toBe(200);
    await awayFromStepEdge(20_000);
    // The app's codes for the previous, current and next steps: each counts once, in order.
    const step = currentStep();
    const enable = await c.post('/api/auth/two-factor/enable', {});
    const secret = secretOf(((await enable.json()) as { totpURI: string }).totpURI);
    expect(
      (await c.post('/api/auth/two-factor/verify-totp', { code: codeAt(secret, step - 1) })).status,
    ).toBe(200);
    // Someone holding the session only (a browser left open) gets nowhere without the app.
    for (const path of [
      '/api/auth/two-factor/disable',
      '/api/auth/two-factor/generate-backup-codes',
      '/api/auth/two-factor/enable',
    ]) {
      const res = await c.post(path, {});
      expect(res.status, path).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe('INVALID_CODE');
    }
    expect((await c.post('/api/auth/two-factor/disable', { code: '000000' })).status).toBe(400);
    // The enrolment's code does not count again.
    expect(
      (await c.post('/api/auth/two-factor/disable', { code: codeAt(secret, step - 1) })).status,
    ).toBe(400);
    const [still] = await t.database.db.select().from(user).where(eq(user.email, email));
    expect(still?.twoFactorEnabled).toBe(true);
    // With a fresh code from the app: new backup codes…
    const codes = await c.post('/api/auth/two-factor/generate-backup-codes', {
      code: codeAt(secret, step),
    });
    expect(codes.status).toBe(200);
    expect(((await codes.json()) as { backupCodes: string[] }).backupCodes).toHaveLength(10);
    // …and that code cannot also turn it off; the next one can.
    expect(
      (await c.post('/api/auth/two-factor/disable', { code: codeAt(secret, step) })).status,
    ).toBe(400);
    expect(
      (await c.post('/api/auth/two-factor/disable', { code: codeAt(secret, step + 1) })).status,
    ).toBe(200);
    const [after] = await t.database.db.select().from(user).where(eq(user.email, email));
    expect(after?.twoFactorEnabled).toBe(false);
  });

  describe('finding 9: trusted devices', () => {
    /**
     * An account with two-factor, and a browser it trusts (signed in with the code and «confiar
     * en este dispositivo»). Returns the account's client, the trusted one and the secret.
     */
    async function trustedBrowser() {
      const { client, email } = await registerVerified(t);
      await awayFromStepEdge();
      const step = currentStep();
      const enable = await client.post('/api/auth/two-factor/enable', { password: GOOD_PASSWORD });
      const secret = secretOf(((await enable.json()) as { totpURI: string }).totpURI);
      await client.post('/api/auth/two-factor/verify-totp', { code: codeAt(secret, step) });
      const trusted = t.client();
      await trusted.post('/api/auth/sign-in/email', { email, password: GOOD_PASSWORD });
      const verified = await trusted.post('/api/auth/two-factor/verify-totp', {
        code: codeAt(secret, step + 1),
        trustDevice: true,
      });
      expect(verified.status).toBe(200);
      expect(trusted.cookies.has('better-auth.trust_device')).toBe(true);
      // Trusted: signing in again there skips the second factor.
      await trusted.post('/api/auth/sign-out');
      const again = await trusted.post('/api/auth/sign-in/email', {
        email,
        password: GOOD_PASSWORD,
      });
      expect(((await again.json()) as { twoFactorRedirect?: boolean }).twoFactorRedirect).toBe(
        undefined,
      );
      expect(await isSignedIn(trusted)).toBe(true);
      return { client, email, trusted };
    }

    /** Signing in with the password on `c` asks for the second factor. */
    async function expectSecondFactorAsked(c: TestClient, email: string, password: string) {
      const res = await c.post('/api/auth/sign-in/email', { email, password });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { twoFactorRedirect?: boolean }).twoFactorRedirect).toBe(true);
      expect(await isSignedIn(c)).toBe(false);
    }

    it('regression: the trusted-device cookie survived «cerrar las demás sesiones»', async () => {
      const { client, email, trusted } = await trustedBrowser();
      const res = await client.post('/api/me/sessions/revoke-others');
      expect(res.status).toBe(200);
      expect(await isSignedIn(trusted)).toBe(false);
      await expectSecondFactorAsked(trusted, email, GOOD_PASSWORD);
    });

    it('regression: the trusted-device cookie survived a password change', async () => {
      const { client, email, trusted } = await trustedBrowser();
      const changed = await client.post('/api/auth/change-password', {
        currentPassword: GOOD_PASSWORD,
        newPassword: 'Nueva-Clave-2026#',
      });
      expect(changed.status).toBe(200);
      await expectSecondFactorAsked(trusted, email, 'Nueva-Clave-2026#');
    });

    it('regression: the trusted-device cookie survived a password reset', async () => {
      const { email, trusted } = await trustedBrowser();
      await t
        .client()
        .post('/api/auth/request-password-reset', { email, redirectTo: '/restablecer' });
      const mail = await t.waitForMail(email, /Restablece tu contraseña/);
      const token = linkIn(mail, '/api/auth/reset-password/').split('?')[0]?.split('/').pop();
      const reset = await t
        .client()
        .post('/api/auth/reset-password', { token, newPassword: 'Nueva-Clave-2026#' });
      expect(reset.status).toBe(200);
      await expectSecondFactorAsked(trusted, email, 'Nueva-Clave-2026#');
    });
  });

  it('regression: deleting an account left its pending tokens (a reset link asked for earlier still worked and recreated a password login)', async () => {
    const { client, email } = await registerVerified(t);
    const id = await userIdOf(t, email);
    await t
      .client()
      .post('/api/auth/request-password-reset', { email, redirectTo: '/restablecer' });
    const mail = await t.waitForMail(email, /Restablece tu contraseña/);
    const token = linkIn(mail, '/api/auth/reset-password/').split('?')[0]?.split('/').pop();
    expect(token).toBeTruthy();
    // Other ways in asked for before the deletion: an e-mail link and an e-mail code.
    await t.client().post('/api/auth/sign-in/magic-link', { email, callbackURL: '/dashboard' });
    await t.client().post('/api/auth/email-otp/send-verification-otp', { email, type: 'sign-in' });

    const deleted = await client.post('/api/me/delete', {
      password: GOOD_PASSWORD,
      confirm: 'ELIMINAR',
    });
    expect(deleted.status).toBe(200);

    const reset = await t
      .client()
      .post('/api/auth/reset-password', { token, newPassword: 'Nueva-Clave-2026#' });
    expect(reset.status).toBe(400);
    const credentials = await t.database.db
      .select()
      .from(account)
      .where(and(eq(account.userId, id), eq(account.providerId, 'credential')));
    expect(credentials).toEqual([]);
    const left = await queryRows<{ identifier: string }>(
      t.database.db,
      sql`SELECT identifier FROM verification
          WHERE value = ${id} OR strpos(identifier, ${id}) > 0 OR strpos(value, ${id}) > 0
             OR strpos(identifier, ${email}) > 0 OR strpos(value, ${email}) > 0`,
    );
    expect(left).toEqual([]);
  });

  it('regression: deleting an account left the files it gave for orders', async () => {
    const { client, email } = await registerVerified(t);
    const id = await userIdOf(t, email);
    const [svc] = await t.database.db
      .insert(service)
      .values({
        category: 'unlock',
        name: 'Desbloqueo por archivo (prueba)',
        description: 'Con un archivo.',
        deliveryTime: '1 día',
        price: 100n,
        fields: [{ key: 'archivo', label: 'Archivo', type: 'file', required: true }],
      })
      .returning({ id: service.id });
    const form = new FormData();
    form.append('serviceId', svc!.id);
    form.append('field', 'archivo');
    form.append('file', new File(['datos del cliente'], 'datos.txt', { type: 'text/plain' }));
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const uploaded = await t.app.request('/api/order-files', {
      method: 'POST',
      headers: { Origin: TEST_ORIGIN, Cookie: cookie, 'x-cometa-client-ip': '10.44.0.1' },
      body: form,
    });
    expect(uploaded.status, await uploaded.clone().text()).toBe(201);
    const exported = (await (await client.get('/api/me/export')).json()) as {
      files: { name: string }[];
    };
    expect(exported.files.map((f) => f.name)).toEqual(['datos.txt']);
    const deleted = await client.post('/api/me/delete', {
      password: GOOD_PASSWORD,
      confirm: 'ELIMINAR',
    });
    expect(deleted.status).toBe(200);
    const left = await queryRows<{ id: string }>(
      t.database.db,
      sql`SELECT id FROM order_file WHERE user_id = ${id}`,
    );
    expect(left).toEqual([]);
  });
});

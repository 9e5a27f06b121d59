import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { session, user } from '../../db/schema/auth';
import {
  GOOD_PASSWORD,
  createTestApp,
  linkIn,
  registerVerified,
  uniqueEmail,
  type TestApp,
} from '../../../tests/setup/test-app';
import { TEST_ORIGIN } from '../../../tests/setup/test-app';
import { dbTargets } from '../../../tests/setup/test-db';

describe.each(dbTargets())('accounts on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(async () => {
    await t.close();
  });

  it('registers a customer unverified, with a verification e-mail in the outbox; signed in, the account is still unverified', async () => {
    const c = t.client();
    const email = uniqueEmail();
    const res = await c.post('/api/auth/sign-up/email', {
      name: 'Ana Pérez',
      email,
      password: GOOD_PASSWORD,
    });
    expect(res.status).toBe(200);
    const [row] = await t.database.db.select().from(user).where(eq(user.email, email));
    expect(row).toMatchObject({ name: 'Ana Pérez', emailVerified: false, role: 'customer' });
    const mail = await t.waitForMail(email, /Verifica tu correo/);
    expect(mail.text).toContain('caduca en 1 hora');
    // Sign-up signs nobody in (docs/decisions/0010); signing in gives an unverified session.
    expect((await c.get('/api/me')).status).toBe(401);
    expect(
      (await c.post('/api/auth/sign-in/email', { email, password: GOOD_PASSWORD })).status,
    ).toBe(200);
    // Unverified: every protected API answers 403, not only a client redirect.
    const me = await c.get('/api/me');
    expect(me.status).toBe(403);
    expect(await me.json()).toMatchObject({ code: 'EMAIL_NOT_VERIFIED' });
    const patch = await c.patch('/api/me', { name: 'Otra' });
    expect(patch.status).toBe(403);
  });

  it('verifies through the e-mail link, once: the same link again changes nothing', async () => {
    const c = t.client();
    const email = uniqueEmail();
    await c.post('/api/auth/sign-up/email', {
      name: 'Bea',
      email,
      password: GOOD_PASSWORD,
      callbackURL: '/verify-email',
    });
    const mail = await t.waitForMail(email, /Verifica tu correo/);
    const link = linkIn(mail, '/api/auth/verify-email');
    const first = await t.client().get(link);
    expect(first.status).toBe(302);
    expect(first.headers.get('location')).toBe('/verify-email');
    const [row] = await t.database.db.select().from(user).where(eq(user.email, email));
    expect(row?.emailVerified).toBe(true);
    const second = await t.client().get(link);
    expect(second.status).toBe(302);
    expect(second.headers.get('location')).toBe('/verify-email?error=LINK_USED');
    expect(
      second.headers.getSetCookie().some((l) => l.startsWith('better-auth.session_token=')),
    ).toBe(false);
  });

  it('GET /api/me returns the verified customer with a balance of "0.00"', async () => {
    const { client, email } = await registerVerified(t, 'Carmen Ruiz');
    const res = await client.get('/api/me');
    expect(res.status).toBe(200);
    const { id, ...rest } = (await res.json()) as Record<string, unknown>;
    expect(typeof id).toBe('string');
    const priceGroupId = (rest.priceGroup as { id?: unknown } | null)?.id;
    expect(typeof priceGroupId).toBe('string');
    expect(rest).toEqual({
      name: 'Carmen Ruiz',
      email,
      emailVerified: true,
      role: 'customer',
      balance: '0.00',
      twoFactorEnabled: false,
      // A new account is in the default price group (a fresh install's "Minorista").
      priceGroup: { id: priceGroupId, name: 'Minorista' },
      // No support tickets yet: nothing unread.
      unreadTickets: 0,
    });
  });

  it('PATCH /api/me changes the name and rejects bad input with Spanish field messages', async () => {
    const { client } = await registerVerified(t);
    const ok = await client.patch('/api/me', { name: '  Daniela Gómez  ' });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ name: 'Daniela Gómez' });
    const empty = await client.patch('/api/me', { name: '' });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'Revisa los campos marcados.',
      fields: { name: 'Escribe tu nombre.' },
    });
    const long = await client.patch('/api/me', { name: 'x'.repeat(81) });
    expect(((await long.json()) as { fields: Record<string, string> }).fields.name).toMatch(
      /más de 80/,
    );
    const notJson = await client.request('PATCH', '/api/me', undefined, {
      'Content-Type': 'application/json',
    });
    expect(notJson.status).toBe(400);
  });

  it('answers the same for an unknown e-mail and a wrong password', async () => {
    const { email } = await registerVerified(t);
    const wrong = await t
      .client()
      .post('/api/auth/sign-in/email', { email, password: 'Wrong-Password-99' });
    const unknown = await t.client().post('/api/auth/sign-in/email', {
      email: uniqueEmail('nobody'),
      password: 'Wrong-Password-99',
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.json()).toEqual(await unknown.json());
  });

  it('refuses passwords shorter than 8, longer than 128, or on the common-password list', async () => {
    const c = t.client();
    const short = await c.post('/api/auth/sign-up/email', {
      name: 'E',
      email: uniqueEmail(),
      password: 'Ab1!xyz',
    });
    expect(short.status).toBe(400);
    const long = await c.post('/api/auth/sign-up/email', {
      name: 'E',
      email: uniqueEmail(),
      password: 'a'.repeat(129),
    });
    expect(long.status).toBe(400);
    const common = await c.post('/api/auth/sign-up/email', {
      name: 'E',
      email: uniqueEmail(),
      password: 'qwertyuiop',
    });
    expect(common.status).toBe(400);
    expect(await common.json()).toMatchObject({ code: 'PASSWORD_TOO_COMMON' });
  });

  it('signs out on the server: the session row is gone and the old cookie no longer works', async () => {
    const { client, email } = await registerVerified(t);
    const stolenCookie = new Map(client.cookies);
    const out = await client.post('/api/auth/sign-out', {});
    expect(out.status).toBe(200);
    const [u] = await t.database.db.select().from(user).where(eq(user.email, email));
    const rows = await t.database.db.select().from(session).where(eq(session.userId, u!.id));
    expect(rows).toHaveLength(0);
    const replay = t.client();
    for (const [k, v] of stolenCookie) replay.cookies.set(k, v);
    expect((await replay.get('/api/me')).status).toBe(401);
  });

  it('resets the password with a short-lived, single-use link that revokes every session', async () => {
    const { client, email } = await registerVerified(t);
    const other = t.client();
    await other.post('/api/auth/sign-in/email', { email, password: GOOD_PASSWORD });
    expect((await other.get('/api/me')).status).toBe(200);

    const ask = await t
      .client()
      .post('/api/auth/request-password-reset', { email, redirectTo: '/restablecer' });
    expect(ask.status).toBe(200);
    const unknown = await t.client().post('/api/auth/request-password-reset', {
      email: uniqueEmail('ghost'),
      redirectTo: '/restablecer',
    });
    expect(unknown.status).toBe(200);
    expect(await unknown.json()).toEqual(await ask.json());

    const mail = await t.waitForMail(email, /Restablece tu contraseña/);
    const link = await t.client().get(linkIn(mail, '/api/auth/reset-password/'));
    expect(link.status).toBe(302);
    const token = new URL(link.headers.get('location')!, 'http://x').searchParams.get('token');
    expect(token).toBeTruthy();

    const common = await t
      .client()
      .post('/api/auth/reset-password', { token, newPassword: 'password123' });
    expect(common.status).toBe(400);
    const done = await t
      .client()
      .post('/api/auth/reset-password', { token, newPassword: 'Nueva-Clave-2026#' });
    expect(done.status).toBe(200);
    const again = await t
      .client()
      .post('/api/auth/reset-password', { token, newPassword: 'Otra-Clave-2026#' });
    expect(again.status).toBe(400);

    expect((await client.get('/api/me')).status).toBe(401);
    expect((await other.get('/api/me')).status).toBe(401);
    expect(
      (await t.client().post('/api/auth/sign-in/email', { email, password: GOOD_PASSWORD })).status,
    ).toBe(401);
    expect(
      (await t.client().post('/api/auth/sign-in/email', { email, password: 'Nueva-Clave-2026#' }))
        .status,
    ).toBe(200);
    await t.waitForMail(email, /ha cambiado/);
  });

  it('rejects a signed-in POST from another origin (CSRF)', async () => {
    const { client } = await registerVerified(t);
    const res = await client.request(
      'POST',
      '/api/auth/update-user',
      { name: 'Hacked' },
      { Origin: 'https://evil.example' },
    );
    expect(res.status).toBe(403);
    expect(((await (await client.get('/api/me')).json()) as { name: string }).name).not.toBe(
      'Hacked',
    );
  });

  it('refuses state-changing API calls from another origin or a cross-site browser request; API clients without Origin pass', async () => {
    const { client } = await registerVerified(t);
    const attempts: Record<string, string>[] = [
      { Origin: 'https://evil.example' },
      { Origin: 'http://app.localhost:9999' },
      { Origin: TEST_ORIGIN, 'Sec-Fetch-Site': 'cross-site' },
    ];
    for (const headers of attempts) {
      const res = await client.request('PATCH', '/api/me', { name: 'Cambiado' }, headers);
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({
        code: 'FORBIDDEN',
        message: 'Rechazamos la solicitud porque no viene de esta aplicación.',
      });
      const cancel = await client.request('POST', '/api/contact', {}, headers);
      expect(cancel.status).toBe(403);
    }
    expect(((await (await client.get('/api/me')).json()) as { name: string }).name).not.toBe(
      'Cambiado',
    );
    // Reads are not affected, and a client that sends no Origin (curl, a script) goes through.
    expect(
      (await client.request('GET', '/api/me', undefined, { Origin: 'https://evil.example' }))
        .status,
    ).toBe(200);
    const scripted = await client.request(
      'PATCH',
      '/api/me',
      { name: 'Desde un script' },
      { Origin: '' },
    );
    expect(scripted.status).toBe(200);
  });

  it('sets an HttpOnly, SameSite=Lax session cookie', async () => {
    const { email } = await registerVerified(t, 'F');
    const res = await t
      .client()
      .post('/api/auth/sign-in/email', { email, password: GOOD_PASSWORD });
    const cookie = res.headers
      .getSetCookie()
      .find((l) => l.startsWith('better-auth.session_token='));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
  });
});

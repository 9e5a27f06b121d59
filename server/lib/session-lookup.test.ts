import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client';
import { session, user } from '../db/schema/auth';
import {
  createTestApp,
  registerVerified,
  userIdOf,
  type TestApp,
  type TestClient,
} from '../../tests/setup/test-app';
import { dbTargets } from '../../tests/setup/test-db';
import { sessionLookupFor } from './session-lookup';

const TOKEN_COOKIE = 'better-auth.session_token';

function headersOf(c: TestClient): Headers {
  return new Headers({ Cookie: [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ') });
}

function tokenOf(c: TestClient): string {
  const value = decodeURIComponent(c.cookies.get(TOKEN_COOKIE) ?? '');
  return value.slice(0, value.lastIndexOf('.'));
}

describe.each(dbTargets())('session look-up on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(async () => {
    await t.close();
  });

  const lookup = (headers: Headers) => {
    const fn = sessionLookupFor(t.auth);
    if (!fn) throw new Error('no session look-up registered');
    return fn(headers);
  };

  it('answers a live session in one query with the same user Better Auth sees', async () => {
    const { client, email } = await registerVerified(t);
    const fast = await lookup(headersOf(client));
    const slow = await t.auth.api.getSession({ headers: headersOf(client) });
    expect(fast).toMatchObject({ email, emailVerified: true, role: 'customer' });
    expect(fast?.id).toBe(slow?.user.id);
    expect((await client.get('/api/me')).status).toBe(200);
  });

  it('a missing, tampered or foreign-signed cookie is nobody, as Better Auth says', async () => {
    const { client } = await registerVerified(t);
    expect(await lookup(new Headers())).toBeNull();
    const value = decodeURIComponent(client.cookies.get(TOKEN_COOKIE) ?? '');
    const token = value.slice(0, value.lastIndexOf('.'));
    const signature = value.slice(value.lastIndexOf('.') + 1);
    const flipped = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    for (const forged of [
      `${token}.${flipped}`,
      `${token}x.${signature}`,
      token,
      `${token}.${signature.slice(0, 43)}`,
    ]) {
      const headers = new Headers({ Cookie: `${TOKEN_COOKIE}=${encodeURIComponent(forged)}` });
      expect(await lookup(headers)).toBeNull();
      expect(await t.auth.api.getSession({ headers })).toBeNull();
      const res = await t.app.request('/api/me', { headers });
      expect(res.status).toBe(401);
    }
  });

  it('a session signed out or revoked stops working on the very next request', async () => {
    const { client } = await registerVerified(t);
    const copy = headersOf(client);
    expect((await client.get('/api/me')).status).toBe(200);
    expect((await client.post('/api/auth/sign-out', {})).status).toBe(200);
    expect(await lookup(copy)).toBeNull();
    expect((await t.app.request('/api/me', { headers: copy })).status).toBe(401);

    const other = await registerVerified(t);
    expect((await other.client.get('/api/me')).status).toBe(200);
    await t.database.db.delete(session).where(eq(session.token, tokenOf(other.client)));
    expect((await other.client.get('/api/me')).status).toBe(401);
  });

  it('an expired session goes to Better Auth, which refuses it and deletes it', async () => {
    const { client } = await registerVerified(t);
    const token = tokenOf(client);
    await t.database.db
      .update(session)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(session.token, token));
    expect(await lookup(headersOf(client))).toBeUndefined();
    expect((await client.get('/api/me')).status).toBe(401);
    const left = await queryRows<{ n: number }>(
      t.database.db,
      sql`SELECT count(*)::int AS n FROM session WHERE token = ${token}`,
    );
    expect(left[0]?.n).toBe(0);
  });

  it('a session due for renewal goes to Better Auth, which extends it', async () => {
    const { client } = await registerVerified(t);
    const token = tokenOf(client);
    const ttlMs = t.env.SESSION_TTL_SECONDS * 1000;
    // Issued long enough ago that its age is past updateAge (at most a day, or half the TTL).
    const aged = new Date(Date.now() + ttlMs - Math.min(86_400_000, ttlMs / 2) - 60_000);
    await t.database.db.update(session).set({ expiresAt: aged }).where(eq(session.token, token));
    expect(await lookup(headersOf(client))).toBeUndefined();
    expect((await client.get('/api/me')).status).toBe(200);
    const [row] = await t.database.db
      .select({ expiresAt: session.expiresAt })
      .from(session)
      .where(eq(session.token, token));
    expect(row!.expiresAt.getTime()).toBeGreaterThan(aged.getTime() + 30_000);
    // Renewed, it is an ordinary live session again.
    expect(await lookup(headersOf(client))).not.toBeUndefined();
  });

  it('"don\'t remember me", leftover cookie caches and repeated names go to Better Auth', async () => {
    const { client } = await registerVerified(t);
    const base = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    for (const extra of [
      'better-auth.dont_remember=x',
      'better-auth.session_data=x',
      'better-auth.session_data.0=x',
      `${TOKEN_COOKIE}=other`,
    ]) {
      expect(await lookup(new Headers({ Cookie: `${base}; ${extra}` }))).toBeUndefined();
    }
  });

  it('reads role, verification and two-factor live from the user row', async () => {
    const { client, email } = await registerVerified(t);
    const id = await userIdOf(t, email);
    await t.database.db
      .update(user)
      .set({ emailVerified: false, twoFactorEnabled: true, role: 'admin' })
      .where(eq(user.id, id));
    expect(await lookup(headersOf(client))).toMatchObject({
      emailVerified: false,
      twoFactorEnabled: true,
      role: 'admin',
    });
    expect((await client.get('/api/orders')).status).toBe(403);
  });
});

// Federated sign-in against a real OpenID Connect provider on loopback (tests/setup/oidc-provider.ts):
// the authorization code flow with PKCE driven by fetch, with the app's and the provider's cookies
// kept apart, as a browser would.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, session, user } from '../../db/schema/auth';
import {
  GOOD_PASSWORD,
  TEST_ORIGIN,
  createTestApp,
  registerVerified,
  uniqueEmail,
  userIdOf,
  type TestApp,
  type TestClient,
} from '../../../tests/setup/test-app';
import {
  startOidcProvider,
  type OidcTestAccount,
  type OidcTestProvider,
} from '../../../tests/setup/oidc-provider';
import { dbTargets } from '../../../tests/setup/test-db';
import type { SecurityOverview } from '../../../shared/schemas/security';

const CLIENT_ID = 'cometa-tests';
const CLIENT_SECRET = 'oidc-client-secret-for-tests-0123456789';
const PROVIDER_NAME = 'Proveedor de pruebas';
const CALLBACK = `${TEST_ORIGIN}/api/auth/callback/oidc`;

const SIGN_IN = {
  provider: 'oidc',
  callbackURL: '/dashboard',
  errorCallbackURL: '/login',
  newUserCallbackURL: '/dashboard?nuevo=1',
};

describe.each(dbTargets())('sign-in with an OpenID Connect provider on %s', (target) => {
  let oidc: OidcTestProvider;
  let t: TestApp;

  beforeAll(async () => {
    // The provider first: the app reads its discovery document when it starts.
    oidc = await startOidcProvider({
      clients: [{ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, redirectUris: [CALLBACK] }],
    });
    t = await createTestApp(target, {
      OIDC_ISSUER: oidc.issuer,
      OIDC_CLIENT_ID: CLIENT_ID,
      OIDC_CLIENT_SECRET: CLIENT_SECRET,
      OIDC_NAME: PROVIDER_NAME,
    });
  });
  afterAll(async () => {
    await t?.close();
    await oidc?.close();
  });

  // Every person comes from an address of their own: Better Auth allows 3 sign-in starts per
  // address every 10 seconds (its default rule for /sign-in/*), and these tests make more.
  let lastIp = 0;
  const nextIp = () => `198.51.100.${(lastIp += 1)}`;
  const browser = () => t.client(nextIp());

  /**
   * Starts at `path` (sign-in or link), goes through the provider as `who`, and comes back to the
   * app's callback with the same client. Returns the callback's answer (a redirect).
   */
  async function throughProvider(
    c: TestClient,
    who: OidcTestAccount | 'cancel',
    path = '/api/auth/sign-in/social',
    body: Record<string, string> = SIGN_IN,
  ): Promise<Response> {
    const start = await c.post(path, body);
    expect(start.status, await start.clone().text()).toBe(200);
    const { url } = (await start.json()) as { url: string };
    expect(url.startsWith(`${oidc.issuer}/`)).toBe(true);
    const back = await oidc.authorize(url, who);
    expect(back.startsWith(`${CALLBACK}?`), back).toBe(true);
    return c.get(back.slice(TEST_ORIGIN.length));
  }

  function locationOf(res: Response): URL {
    expect(res.status).toBe(302);
    return new URL(res.headers.get('location') ?? '', TEST_ORIGIN);
  }

  async function oidcAccountsOf(userId: string) {
    return t.database.db
      .select()
      .from(account)
      .where(and(eq(account.userId, userId), eq(account.providerId, 'oidc')));
  }

  async function sessionsOf(userId: string) {
    return t.database.db.select().from(session).where(eq(session.userId, userId));
  }

  it('a new person signs in: an account with a verified e-mail, linked to the provider, and a working session', async () => {
    const email = uniqueEmail('oidc');
    const c = browser();
    const res = await throughProvider(c, { email, name: 'Nuria Federada', emailVerified: true });
    const to = locationOf(res);
    expect(`${to.pathname}${to.search}`).toBe('/dashboard?nuevo=1');

    // Authorization code with PKCE (S256), a nonce, and the three scopes.
    const request = oidc.authorizations.at(-1);
    expect(request).toMatchObject({ client_id: CLIENT_ID, code_challenge_method: 'S256' });
    expect(String(request?.code_challenge)).toMatch(/^[\w-]{43}$/);
    expect(String(request?.scope).split(' ').sort()).toEqual(['email', 'openid', 'profile']);

    const [row] = await t.database.db.select().from(user).where(eq(user.email, email));
    expect(row).toMatchObject({ name: 'Nuria Federada', emailVerified: true, role: 'customer' });
    const linked = await oidcAccountsOf(row!.id);
    expect(linked.map((a) => a.accountId)).toEqual([oidc.subjectOf(email)]);

    const me = await c.get('/api/me');
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ id: row!.id, email, emailVerified: true });

    // Again, signed out: the same account, now answered with callbackURL (not a new user).
    const again = browser();
    const second = await throughProvider(again, {
      email,
      name: 'Nuria Federada',
      emailVerified: true,
    });
    expect(locationOf(second).pathname).toBe('/dashboard');
    expect(await (await again.get('/api/me')).json()).toMatchObject({ id: row!.id });
    expect(await oidcAccountsOf(row!.id)).toHaveLength(1);
  });

  it('links to an existing verified account when the provider vouches for the same e-mail', async () => {
    const { email } = await registerVerified(t, 'Lucía Local', nextIp());
    const id = await userIdOf(t, email);
    const c = browser();
    const res = await throughProvider(c, { email, name: 'Lucía Proveedor', emailVerified: true });
    expect(locationOf(res).pathname).toBe('/dashboard');

    const linked = await oidcAccountsOf(id);
    expect(linked.map((a) => a.accountId)).toEqual([oidc.subjectOf(email)]);
    const me = await c.get('/api/me');
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ id, email });
    // The password still works: linking added a way in, it took none away.
    const other = browser();
    const byPassword = await other.post('/api/auth/sign-in/email', {
      email,
      password: GOOD_PASSWORD,
    });
    expect(byPassword.status).toBe(200);
  });

  it('does not link to an account whose e-mail was never verified here: back to the error page, no session', async () => {
    const email = uniqueEmail('unverified');
    const signUp = await browser().post('/api/auth/sign-up/email', {
      name: 'Sin Verificar',
      email,
      password: GOOD_PASSWORD,
    });
    expect(signUp.status).toBe(200);
    const id = await userIdOf(t, email);

    const c = browser();
    const res = await throughProvider(c, { email, name: 'Alguien', emailVerified: true });
    const to = locationOf(res);
    expect(to.pathname).toBe('/login');
    expect(to.searchParams.get('error')).toBe('account_not_linked');

    expect(await oidcAccountsOf(id)).toEqual([]);
    expect(await sessionsOf(id)).toEqual([]);
    expect((await c.get('/api/me')).status).toBe(401);
    const [row] = await t.database.db.select().from(user).where(eq(user.id, id));
    expect(row?.emailVerified).toBe(false);
  });

  it('does not link when the provider does not vouch for the e-mail of an existing account', async () => {
    const { email } = await registerVerified(t, 'Marta Local', nextIp());
    const id = await userIdOf(t, email);
    const before = await sessionsOf(id);

    const c = browser();
    const res = await throughProvider(c, { email, name: 'Impostora', emailVerified: false });
    const to = locationOf(res);
    expect(to.pathname).toBe('/login');
    expect(to.searchParams.get('error')).toBe('account_not_linked');

    expect(await oidcAccountsOf(id)).toEqual([]);
    expect(await sessionsOf(id)).toHaveLength(before.length);
    expect((await c.get('/api/me')).status).toBe(401);
  });

  it('cancelling at the provider comes back to the error page signed out', async () => {
    const c = browser();
    const to = locationOf(await throughProvider(c, 'cancel'));
    expect(to.pathname).toBe('/login');
    expect(to.searchParams.get('error')).toBeTruthy();
    expect((await c.get('/api/me')).status).toBe(401);
  });

  it('a signed-in person links the provider from the profile and unlinks it again', async () => {
    const { client: c, email } = await registerVerified(t, 'Paula Perfil', nextIp());
    const id = await userIdOf(t, email);
    const res = await throughProvider(
      c,
      { email, name: 'Paula Perfil', emailVerified: true },
      '/api/auth/link-social',
      {
        provider: 'oidc',
        callbackURL: '/profile#seguridad',
        errorCallbackURL: '/profile#seguridad',
      },
    );
    const to = locationOf(res);
    expect(to.pathname).toBe('/profile');
    expect(to.searchParams.get('error')).toBeNull();

    const sub = oidc.subjectOf(email);
    const [row] = await oidcAccountsOf(id);
    expect(row?.accountId).toBe(sub);

    // Signed out, the provider now signs this person in.
    const elsewhere = browser();
    const signIn = await throughProvider(elsewhere, { email, name: 'Paula', emailVerified: true });
    expect(locationOf(signIn).pathname).toBe('/dashboard');
    expect(await (await elsewhere.get('/api/me')).json()).toMatchObject({ id });

    // Mi perfil → Seguridad lists it, removable (the password stays), with the id to unlink.
    const security = async () => {
      const res = await c.get('/api/me/security');
      expect(res.status).toBe(200);
      return (await res.json()) as SecurityOverview;
    };
    const before = await security();
    const method = before.methods.find((m) => m.kind === 'oidc');
    expect(method).toMatchObject({ label: PROVIDER_NAME, removable: true });
    expect(before.linkableProviders).toEqual([]);
    // Better Auth unlinks by its own account row id, not the provider's subject.
    expect(method?.accountId).toBe(row?.id);

    const unlink = await c.post('/api/auth/unlink-account', {
      providerId: 'oidc',
      accountId: method?.accountId,
    });
    expect(unlink.status, await unlink.clone().text()).toBe(200);
    expect(await oidcAccountsOf(id)).toEqual([]);
    const after = await security();
    expect(after.methods.map((m) => m.kind)).not.toContain('oidc');
    expect(after.linkableProviders).toEqual([{ id: 'oidc', name: PROVIDER_NAME }]);
    const mail = await t.waitForMail(email, /Cambio en la seguridad/);
    expect(mail.text).toMatch(/Se desvinculó .+ de tu cuenta\./);
    // The password is still there.
    expect(
      (await browser().post('/api/auth/sign-in/email', { email, password: GOOD_PASSWORD })).status,
    ).toBe(200);
  });

  it('links a provider account with another address only when the provider vouches for it', async () => {
    const { client: c, email } = await registerVerified(t, 'Rosa Perfil', nextIp());
    const id = await userIdOf(t, email);
    const link = {
      provider: 'oidc',
      callbackURL: '/profile#seguridad',
      errorCallbackURL: '/profile#seguridad',
    };

    const unvouched = uniqueEmail('unvouched');
    const refused = locationOf(
      await throughProvider(
        c,
        { email: unvouched, name: 'Rosa', emailVerified: false },
        '/api/auth/link-social',
        link,
      ),
    );
    expect(refused.pathname).toBe('/profile');
    expect(refused.searchParams.get('error')).toBe('unable_to_link_account');
    expect(await oidcAccountsOf(id)).toEqual([]);

    // A work address at the provider (allowDifferentEmails), vouched for: linked, and the
    // account keeps its own address.
    const work = uniqueEmail('work');
    const linked = locationOf(
      await throughProvider(
        c,
        { email: work, name: 'Rosa', emailVerified: true },
        '/api/auth/link-social',
        link,
      ),
    );
    expect(linked.searchParams.get('error')).toBeNull();
    expect((await oidcAccountsOf(id)).map((a) => a.accountId)).toEqual([oidc.subjectOf(work)]);
    const [row] = await t.database.db.select().from(user).where(eq(user.id, id));
    expect(row?.email).toBe(email);
    // Signing in at the provider with that address opens this account.
    const elsewhere = browser();
    locationOf(
      await throughProvider(elsewhere, { email: work, name: 'Rosa', emailVerified: true }),
    );
    expect(await (await elsewhere.get('/api/me')).json()).toMatchObject({ id, email });
  });

  it('an account whose only way in is the provider cannot unlink it', async () => {
    const email = uniqueEmail('only-oidc');
    const c = browser();
    locationOf(await throughProvider(c, { email, name: 'Solo Proveedor', emailVerified: true }));
    const id = await userIdOf(t, email);
    const [row] = await oidcAccountsOf(id);
    const security = (await (await c.get('/api/me/security')).json()) as SecurityOverview;
    expect(security.methods.find((m) => m.kind === 'oidc')).toMatchObject({ removable: false });

    const unlink = await c.post('/api/auth/unlink-account', {
      providerId: 'oidc',
      accountId: row?.id,
    });
    expect(unlink.status).toBe(400);
    expect(await unlink.json()).toMatchObject({ code: 'FAILED_TO_UNLINK_LAST_ACCOUNT' });
    expect(await oidcAccountsOf(id)).toHaveLength(1);
  });

  it('lists the provider among the sign-in methods only when it is configured, Google only with GOOGLE_*', async () => {
    const configured = await browser().get('/api/sign-in-methods');
    expect(configured.status).toBe(200);
    const body = (await configured.json()) as { providers: { id: string; name: string }[] };
    expect(body.providers).toEqual([{ id: 'oidc', name: PROVIDER_NAME }]);

    const methodsOf = async (env: TestApp['env']) => {
      const res = await t.appWith({ env }).request('/api/sign-in-methods');
      expect(res.status).toBe(200);
      return ((await res.json()) as { providers: unknown[] }).providers;
    };
    expect(await methodsOf({ ...t.env, oidc: null, google: null })).toEqual([]);
    expect(
      await methodsOf({
        ...t.env,
        oidc: null,
        google: { clientId: 'google-id', clientSecret: 'google-secret' },
      }),
    ).toEqual([{ id: 'google', name: 'Google' }]);
  });
});

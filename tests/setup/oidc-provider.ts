// Test support: a real OpenID Connect provider (oidc-provider) on loopback, for the federated
// sign-in tests (server/features/auth/oidc.test.ts, tests/e2e/oidc.spec.ts). One confidential
// client per entry of `clients`, authorization code with PKCE (S256) required, and a login page of
// its own: a form where the person (or the test) says who they are at the provider: any e-mail,
// name and whether the provider vouches for the address. Every authorization asks again, so a
// browser or a test picks the account each time. No test-runner imports, so the browser tests'
// server can start it too.
import { createHash, generateKeyPair, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import type { OidcContext } from 'oidc-provider';

export type OidcTestClient = {
  clientId: string;
  clientSecret: string;
  /** e.g. `${APP_URL}/api/auth/callback/oidc`. */
  redirectUris: string[];
  /** Better Auth sends the secret in the body unless told otherwise. */
  tokenEndpointAuthMethod?: 'client_secret_post' | 'client_secret_basic';
};

/** Who signs in at the provider: what its ID token / userinfo say about them. */
export type OidcTestAccount = {
  email: string;
  name: string;
  /** The provider's `email_verified` claim. */
  emailVerified: boolean;
};

export type OidcTestProvider = {
  /** e.g. http://127.0.0.1:41234; discovery is at `${issuer}/.well-known/openid-configuration`. */
  issuer: string;
  /** Accounts known to the provider (preset or signed in through its form), by subject. */
  accounts: Map<string, OidcTestAccount>;
  /** The provider's stable subject (`sub`) for an e-mail address. */
  subjectOf: (email: string) => string;
  /** The parameters of each authorization request that reached the login page, oldest first. */
  authorizations: Record<string, unknown>[];
  /**
   * Goes through an authorization without a browser: follows the provider's redirects from
   * `authorizeUrl` (the `url` Better Auth answers), signs in as `account` on the login page (or
   * cancels), and returns the URL the provider sends the browser back to (the client's
   * redirect_uri with `code` and `state`, or with `error`).
   */
  authorize: (authorizeUrl: string, account: OidcTestAccount | 'cancel') => Promise<string>;
  close: () => Promise<void>;
};

/**
 * Runs `fn` with oidc-provider's two known warnings muted: it runs fine on Node 20 (it asks for
 * 22), and its in-memory storage is what a test wants.
 */
async function withoutKnownWarnings<T>(fn: () => Promise<T>): Promise<T> {
  const warn = console.warn;
  const known = /oidc-provider WARNING: (Unsupported runtime|a quick start development-only)/;
  console.warn = (...args: unknown[]) => {
    if (!known.test(String(args[0]))) warn(...args);
  };
  try {
    return await fn();
  } finally {
    console.warn = warn;
  }
}

function subjectOf(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 32);
}

function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function loginPage(uid: string, presets: OidcTestAccount[], loginHint: string): string {
  const action = `/interaction/${encodeURIComponent(uid)}`;
  const presetForms = presets
    .map(
      (a) => `
    <form method="post" action="${action}/login">
      <input type="hidden" name="email" value="${escapeHtml(a.email)}">
      <input type="hidden" name="name" value="${escapeHtml(a.name)}">
      ${a.emailVerified ? '<input type="hidden" name="email_verified" value="true">' : ''}
      <button type="submit">Entrar como ${escapeHtml(a.name)} (${escapeHtml(a.email)})</button>
    </form>`,
    )
    .join('');
  return `<!doctype html>
<html lang="es">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Proveedor de pruebas: entrar</title></head>
<body>
  <main>
    <h1>Proveedor de pruebas</h1>
    <p>Página del proveedor de identidad de las pruebas: di quién eres.</p>
    ${presetForms}
    <form method="post" action="${action}/login">
      <p><label>Correo electrónico <input type="email" name="email" required value="${escapeHtml(loginHint)}"></label></p>
      <p><label>Nombre <input type="text" name="name" required></label></p>
      <p><label><input type="checkbox" name="email_verified" value="true" checked> El proveedor ha verificado la dirección</label></p>
      <p><button type="submit">Entrar en el proveedor</button></p>
    </form>
    <form method="post" action="${action}/abort">
      <button type="submit">Cancelar</button>
    </form>
  </main>
</body>
</html>`;
}

export async function startOidcProvider(options: {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  clients: OidcTestClient[];
  /** Shown as one-click buttons on the login page; anyone else can sign in through its form. */
  accounts?: OidcTestAccount[];
}): Promise<OidcTestProvider> {
  const host = options.host ?? '127.0.0.1';
  const presets = options.accounts ?? [];
  const accounts = new Map<string, OidcTestAccount>(presets.map((a) => [subjectOf(a.email), a]));
  const authorizations: Record<string, unknown>[] = [];

  let handler: (req: IncomingMessage, res: ServerResponse) => Promise<void> = async (_q, res) => {
    res.statusCode = 503;
    res.end();
  };
  const server = createServer((req, res) => {
    handler(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.statusCode = 500;
      res.end(err instanceof Error ? err.message : String(err));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const issuer = `http://${host}:${port}`;

  const { privateKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 2048 });

  // Every authorization shows the login page, even when the provider remembers someone: the
  // person (or test) picks the account each time.
  const { default: Provider, interactionPolicy } = await withoutKnownWarnings(
    () => import('oidc-provider'),
  );
  const policy = interactionPolicy.base();
  policy
    .get('login')
    ?.checks.push(
      new interactionPolicy.Check('always_ask', 'the test provider asks every time', (ctx) =>
        ctx.oidc.result?.login ? interactionPolicy.Check.NO_NEED_TO_PROMPT : true,
      ),
    );

  const provider = await withoutKnownWarnings(
    async () =>
      new Provider(issuer, {
        clients: options.clients.map((c) => ({
          client_id: c.clientId,
          client_secret: c.clientSecret,
          redirect_uris: c.redirectUris,
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: c.tokenEndpointAuthMethod ?? 'client_secret_post',
        })),
        jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test', use: 'sig' }] },
        cookies: { keys: [randomBytes(32).toString('hex')] },
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
        features: { devInteractions: { enabled: false } },
        ttl: {
          AccessToken: 600,
          AuthorizationCode: 60,
          Grant: 3600,
          IdToken: 600,
          Interaction: 600,
          Session: 3600,
        },
        pkce: { required: () => true },
        interactions: {
          policy,
          url: (_ctx: OidcContext, interaction: { uid: string }) =>
            `/interaction/${interaction.uid}`,
        },
        findAccount: async (_ctx: OidcContext, sub: string) => {
          const account = accounts.get(sub);
          if (!account) return undefined;
          return {
            accountId: sub,
            claims: async () => ({
              sub,
              email: account.email,
              email_verified: account.emailVerified,
              name: account.name,
            }),
          };
        },
        // A first-party client: no consent screen, every requested OIDC scope is granted.
        loadExistingGrant: async (ctx: OidcContext) => {
          const { client, session, result } = ctx.oidc;
          if (!client || !session?.accountId) return undefined;
          const existing = result?.consent?.grantId ?? session.grantIdFor(client.clientId);
          if (existing) return ctx.oidc.provider.Grant.find(existing);
          const grant = new ctx.oidc.provider.Grant({
            clientId: client.clientId,
            accountId: session.accountId,
          });
          grant.addOIDCScope('openid email profile');
          await grant.save();
          return grant;
        },
      }),
  );
  const callback = provider.callback();

  handler = async (req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    const match = /^\/interaction\/([^/]+)(\/login|\/abort)?$/.exec(url.pathname);
    if (!match) {
      callback(req, res);
      return;
    }
    const details = await provider.interactionDetails(req, res);
    const action = match[2];
    if (req.method === 'GET' && !action) {
      authorizations.push(details.params);
      const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint : '';
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.setHeader('Cache-Control', 'no-store');
      res.end(loginPage(details.uid, presets, hint));
      return;
    }
    if (req.method !== 'POST') {
      res.statusCode = 405;
      res.end();
      return;
    }
    const form = new URLSearchParams(await readBody(req));
    if (action === '/abort') {
      await provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'The person cancelled at the provider.' },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const email = form.get('email')?.trim() ?? '';
    if (!email) {
      res.statusCode = 400;
      res.end('email is required');
      return;
    }
    const sub = subjectOf(email);
    accounts.set(sub, {
      email,
      name: form.get('name')?.trim() || email,
      emailVerified: form.has('email_verified') && form.get('email_verified') !== 'false',
    });
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: sub, remember: false } },
      { mergeWithLastSubmission: false },
    );
  };

  async function authorize(authorizeUrl: string, account: OidcTestAccount | 'cancel') {
    const cookies = new Map<string, string>();
    let url = new URL(authorizeUrl);
    let method = 'GET';
    let body: string | undefined;
    for (let hop = 0; hop < 10; hop += 1) {
      if (url.origin !== issuer) return url.toString();
      const headers: Record<string, string> = {};
      if (cookies.size) headers.Cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
      if (body !== undefined) headers['Content-Type'] = 'application/x-www-form-urlencoded';
      const res = await fetch(url, { method, headers, body, redirect: 'manual' });
      for (const line of res.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const eq = pair.indexOf('=');
        const value = pair.slice(eq + 1);
        if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === '') {
          cookies.delete(pair.slice(0, eq));
        } else cookies.set(pair.slice(0, eq), value);
      }
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location) {
        url = new URL(location, url);
        method = 'GET';
        body = undefined;
        continue;
      }
      if (res.status === 200 && /^\/interaction\/[^/]+$/.test(url.pathname)) {
        await res.body?.cancel();
        method = 'POST';
        if (account === 'cancel') {
          url = new URL(`${url.pathname}/abort`, url);
          body = '';
        } else {
          url = new URL(`${url.pathname}/login`, url);
          const form = new URLSearchParams({ email: account.email, name: account.name });
          if (account.emailVerified) form.set('email_verified', 'true');
          body = form.toString();
        }
        continue;
      }
      throw new Error(
        `the provider answered ${res.status} at ${url.pathname}: ${await res.text()}`,
      );
    }
    throw new Error('too many redirects at the provider');
  }

  return {
    issuer,
    accounts,
    subjectOf,
    authorizations,
    authorize,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

import { createHmac, timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';

/** The columns of the signed-in user every route reads (`SessionUser` is built from them). */
export type SessionUserRow = {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  role: string | null;
  twoFactorEnabled: boolean | null;
};

/**
 * The session behind a request's cookie in one query, for the common case only; `undefined`
 * means "ask Better Auth" (`auth.api.getSession`), which then decides exactly as before.
 *
 * Better Auth's own look-up costs two queries (session, then user) and, per request, an HMAC key
 * import and verification through WebCrypto plus its endpoint machinery: a fifth of the CPU of
 * placing an order (docs/decisions/0015). This reads the same signed cookie, checks the same
 * HMAC-SHA-256 signature with the same secret, and joins session and user in one statement.
 * It answers on its own only when the outcome is certain and needs no write:
 * - no session cookie, or a malformed or badly signed one: nobody (Better Auth answers the same);
 * - a token that matches no session (revoked, signed out, or its user deleted): nobody;
 * - a live session that is not yet due for renewal: its user.
 * Everything else goes to Better Auth: an expired session (it deletes it), one due for renewal
 * (it extends it), a "don't remember me" cookie, or a leftover cookie cache to clean. Nothing is
 * cached between requests, so a revoked session stops working on its very next request, on every
 * instance.
 */
export type SessionLookup = (headers: Headers) => Promise<SessionUserRow | null | undefined>;

type Settings = {
  secret: string;
  tokenCookie: string;
  /** Cookies whose presence hands the request to Better Auth. */
  deferCookies: string[];
  expiresInMs: number;
  updateAgeMs: number;
};

/** What the look-up reads from a Better Auth instance (its resolved context). */
type AuthContextSource = {
  $context: Promise<{
    secret: string;
    authCookies: {
      sessionToken: { name: string };
      dontRememberToken: { name: string };
      sessionData: { name: string };
    };
    sessionConfig: { expiresIn: number; updateAge: number };
  }>;
};

const lookups = new WeakMap<object, SessionLookup>();

/** Installs the fast look-up for `auth` (createAuth does it; tests and tools get it too). */
export function registerSessionLookup(auth: AuthContextSource, db: Db): void {
  let settings: Promise<Settings> | null = null;
  const load = async (): Promise<Settings> => {
    const context = await auth.$context;
    return {
      secret: context.secret,
      tokenCookie: context.authCookies.sessionToken.name,
      deferCookies: [
        context.authCookies.dontRememberToken.name,
        context.authCookies.sessionData.name,
      ],
      expiresInMs: context.sessionConfig.expiresIn * 1000,
      updateAgeMs: context.sessionConfig.updateAge * 1000,
    };
  };
  lookups.set(auth, async (headers) => {
    settings ??= load();
    const s = await settings;
    const cookies = parseCookies(headers.get('cookie'));
    if (cookies === undefined) return undefined;
    // Chunked cookie caches are named `<name>.0`, `<name>.1`…: any of them defers too.
    for (const name of cookies.keys()) {
      if (s.deferCookies.some((d) => name === d || name.startsWith(`${d}.`))) return undefined;
    }
    const value = cookies.get(s.tokenCookie);
    if (value === undefined) return null;
    const token = verifiedToken(value, s.secret);
    if (token === null) return null;
    const [row] = await queryRows<SessionUserRow & { expiresAt: Date | string }>(
      db,
      sql`SELECT s.expires_at AS "expiresAt", u.id, u.name, u.email,
                 u.email_verified AS "emailVerified", u.role,
                 u.two_factor_enabled AS "twoFactorEnabled"
            FROM session s JOIN "user" u ON u.id = s.user_id
           WHERE s.token = ${token}`,
    );
    if (!row) return null;
    const expiresAt = new Date(row.expiresAt).getTime();
    const now = Date.now();
    if (!Number.isFinite(expiresAt) || expiresAt < now) return undefined;
    if (expiresAt - s.expiresInMs + s.updateAgeMs <= now) return undefined;
    return {
      id: row.id,
      name: row.name,
      email: row.email,
      emailVerified: row.emailVerified,
      role: row.role,
      twoFactorEnabled: row.twoFactorEnabled,
    };
  });
}

export function sessionLookupFor(auth: object): SessionLookup | undefined {
  return lookups.get(auth);
}

/**
 * Cookie header → name → decoded value; undefined when a name repeats or a value does not
 * decode (Better Auth's parser then decides).
 */
export function parseCookies(header: string | null): Map<string, string> | undefined {
  const cookies = new Map<string, string>();
  if (!header) return cookies;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) {
      if (part.trim()) return undefined;
      continue;
    }
    const name = part.slice(0, eq).trim();
    if (!name) continue;
    if (cookies.has(name)) return undefined;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"')) {
      if (value.length < 2 || !value.endsWith('"')) return undefined;
      value = value.slice(1, -1);
    }
    try {
      cookies.set(name, value.includes('%') ? decodeURIComponent(value) : value);
    } catch {
      return undefined;
    }
  }
  return cookies;
}

/**
 * `token.signature` as Better Auth signs it (base64 HMAC-SHA-256 of the token with the auth
 * secret, 44 characters): the token when the signature holds, otherwise null.
 */
export function verifiedToken(value: string, secret: string): string | null {
  const dot = value.lastIndexOf('.');
  if (dot < 1) return null;
  const token = value.slice(0, dot);
  const signature = value.slice(dot + 1);
  if (signature.length !== 44 || !signature.endsWith('=')) return null;
  const given = Buffer.from(signature, 'base64');
  const expected = createHmac('sha256', secret).update(token).digest();
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return token;
}

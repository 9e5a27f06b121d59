import type { Context } from 'hono';
import { isStaffRole, type StaffRole } from '../../shared/roles';
import type { Auth } from './auth';
import { AppError } from './errors';
import type { Logger } from './logger';
import { sessionLookupFor } from './session-lookup';

export type SessionUser = {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  role: string;
  /** TOTP is on (admins must have it: TWO_FACTOR_REQUIRED otherwise). */
  twoFactorEnabled: boolean;
  /** Set when the caller authenticated with a personal API key instead of a session. */
  apiKeyId?: string;
};

export type AppEnv = {
  Variables: {
    requestId: string;
    logger: Logger;
    clientIp: string;
    user: SessionUser;
    /** The CSP nonce of this answer (hono/secure-headers), for server-rendered pages. */
    secureHeadersNonce?: string;
  };
};

type AuthUserRow = {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  role?: string | null;
  twoFactorEnabled?: boolean | null;
};

function toSessionUser(u: AuthUserRow): SessionUser {
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    emailVerified: u.emailVerified,
    role: u.role ?? 'customer',
    twoFactorEnabled: u.twoFactorEnabled === true,
  };
}

/**
 * The user of the request's session: one joined query in the common case, Better Auth's
 * getSession whenever the session needs a write or a closer look (server/lib/session-lookup.ts).
 */
async function loadSessionUser(auth: Auth, c: Context<AppEnv>): Promise<AuthUserRow | null> {
  const headers = c.req.raw.headers;
  const fast = await sessionLookupFor(auth)?.(headers);
  if (fast !== undefined) return fast;
  const result = await auth.api.getSession({ headers });
  return result?.user ?? null;
}

/** The signed-in user, or null without a session (routes open to everyone that note who calls). */
export async function sessionUser(auth: Auth, c: Context<AppEnv>): Promise<SessionUser | null> {
  const found = await loadSessionUser(auth, c);
  return found ? toSessionUser(found) : null;
}

/** Loads the session; 401 without one, 403 while the e-mail is not verified. */
export async function requireVerifiedUser(auth: Auth, c: Context<AppEnv>): Promise<SessionUser> {
  const found = await loadSessionUser(auth, c);
  if (!found) throw new AppError('UNAUTHENTICATED');
  const user = toSessionUser(found);
  if (!user.emailVerified) throw new AppError('EMAIL_NOT_VERIFIED');
  c.set('user', user);
  return user;
}

/**
 * Verified user with one of `roles` and two-factor on; 403 FORBIDDEN for anyone else (a staff
 * member of another role included), 403 TWO_FACTOR_REQUIRED for a staff member who has not
 * enrolled yet (docs/decisions/0014).
 */
export async function requireStaff(
  auth: Auth,
  c: Context<AppEnv>,
  roles: readonly StaffRole[] = ['admin'],
): Promise<SessionUser> {
  const u = await requireVerifiedUser(auth, c);
  if (!isStaffRole(u.role) || !roles.includes(u.role)) throw new AppError('FORBIDDEN');
  if (!u.twoFactorEnabled) throw new AppError('TWO_FACTOR_REQUIRED');
  return u;
}

/** The Idempotency-Key header: trimmed, 1–200 visible ASCII characters, or null without one. */
export function idempotencyKey(c: Context): string | null {
  const key = c.req.header('idempotency-key')?.trim() || null;
  if (key && (key.length > 200 || !/^[\x21-\x7e]+$/.test(key)))
    throw new AppError(
      'BAD_REQUEST',
      'La cabecera Idempotency-Key no es válida: hasta 200 caracteres visibles.',
    );
  return key;
}

import type { Context } from 'hono';
import type { Auth } from './auth';
import { AppError } from './errors';
import type { Logger } from './logger';

export type SessionUser = {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  role: string;
  /** Set when the caller authenticated with a personal API key instead of a session. */
  apiKeyId?: string;
};

export type AppEnv = {
  Variables: {
    requestId: string;
    logger: Logger;
    clientIp: string;
    user: SessionUser;
  };
};

/** The signed-in user, or null without a session (routes open to everyone that note who calls). */
export async function sessionUser(auth: Auth, c: Context<AppEnv>): Promise<SessionUser | null> {
  const result = await auth.api.getSession({ headers: c.req.raw.headers });
  if (!result) return null;
  const u = result.user as typeof result.user & { role?: string | null };
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    emailVerified: u.emailVerified,
    role: u.role ?? 'customer',
  };
}

/** Loads the session; 401 without one, 403 while the e-mail is not verified. */
export async function requireVerifiedUser(auth: Auth, c: Context<AppEnv>): Promise<SessionUser> {
  const result = await auth.api.getSession({ headers: c.req.raw.headers });
  if (!result) throw new AppError('UNAUTHENTICATED');
  const u = result.user as typeof result.user & { role?: string | null };
  if (!u.emailVerified) throw new AppError('EMAIL_NOT_VERIFIED');
  const user: SessionUser = {
    id: u.id,
    name: u.name,
    email: u.email,
    emailVerified: u.emailVerified,
    role: u.role ?? 'customer',
  };
  c.set('user', user);
  return user;
}

/** Verified user with the admin role; 403 for anyone else. */
export async function requireAdmin(auth: Auth, c: Context<AppEnv>): Promise<SessionUser> {
  const u = await requireVerifiedUser(auth, c);
  if (u.role !== 'admin') throw new AppError('FORBIDDEN');
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

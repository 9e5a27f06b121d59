import { redirect } from 'react-router';
import { oncePerPage } from '../../shared/page-context';
import { AuthSessionSchema } from '../../shared/schemas/auth';
import { MeSchema } from '../../shared/schemas/me';
import { api, checkAnswer } from './api';
import type { AuthUser, SessionSnapshot } from './session-state';
import { loginUrl } from './sign-in-url';
import type { StaffArea } from '../../shared/roles';
import { staffRedirect } from './staff-access';
import { mustEnrolTwoFactor, TWO_FACTOR_SETUP_PATH } from './two-factor-gate';

// The session of a page rendered on the server (docs/decisions/0016), read once per page through
// the same endpoints the browser uses. Only server loaders import this module.

/** Whether the visitor sent a cookie at all (without one, nobody is signed in). */
function hasCookie(request: Request): boolean {
  return (request.headers.get('cookie') ?? '').trim() !== '';
}

async function readSession(): Promise<SessionSnapshot | null> {
  const answer = await api.answer('/api/auth/get-session');
  if (answer.body === null) return null;
  const data = await checkAnswer('/api/auth/get-session', AuthSessionSchema, answer);
  if (!data) return null;
  const expiresAt = new Date(data.session.expiresAt).getTime();
  const now = Date.now();
  if (!(expiresAt > now)) return null;
  const user: AuthUser = {
    id: data.user.id,
    name: data.user.name,
    email: data.user.email,
    emailVerified: data.user.emailVerified,
    role: data.user.role ?? 'customer',
    twoFactorEnabled: data.user.twoFactorEnabled === true,
  };
  // The header's name and Saldo; a failure leaves them out, as in the browser (domain.md §8).
  const me = user.emailVerified ? await api.get('/api/me', MeSchema).catch(() => null) : null;
  return { user, expiresAt, me, serverNow: now };
}

/** The visitor's session, or null when signed out (read at most once per page). */
export function pageSession(request: Request): Promise<SessionSnapshot | null> {
  if (!hasCookie(request)) return Promise.resolve(null);
  return oncePerPage('session', readSession);
}

function pathOf(request: Request): string {
  const url = new URL(request.url);
  return url.pathname.replace(/\.data$/, '') + url.search;
}

/**
 * The guard of docs/domain.md §1 on the server: signed out → /login (and back afterwards),
 * unverified → /verify-email, an admin without two-factor → /activar-dos-pasos.
 */
export async function requireSignedIn(request: Request): Promise<SessionSnapshot> {
  const session = await pageSession(request);
  const path = pathOf(request);
  if (!session) throw redirect(loginUrl(path, false));
  if (!session.user.emailVerified) throw redirect('/verify-email');
  if (mustEnrolTwoFactor(session.user) && new URL(request.url).pathname !== TWO_FACTOR_SETUP_PATH)
    throw redirect(TWO_FACTOR_SETUP_PATH);
  return session;
}

/**
 * requireSignedIn, and the back office only for staff; a page of an area the role cannot use
 * sends them to the back office's start (the API checks it again on every call).
 */
export async function requireStaff(request: Request, area?: StaffArea): Promise<SessionSnapshot> {
  const session = await requireSignedIn(request);
  const where = staffRedirect(session.user.role, area);
  if (where) throw redirect(where);
  return session;
}

import { Navigate, Outlet, redirect, useLocation } from 'react-router';
import { loadAccountParts } from '../../components/layout/account-header';
import { LoadingScreen } from '../../components/ui/spinner';
import { pendingVerificationEmail } from '../../lib/pending-verification';
import {
  mustEnrolTwoFactor,
  ready,
  reloadMe,
  TWO_FACTOR_SETUP_PATH,
  useSession,
} from '../../lib/session';
import type { Route } from './+types/layout';

function loginUrl(path: string, expired: boolean) {
  return `/login?next=${encodeURIComponent(path)}${expired ? '&motivo=expirada' : ''}`;
}

/**
 * The guard of docs/domain.md §1: no user → /login (and back after signing in); unverified →
 * /verify-email; an admin without two-factor → /activar-dos-pasos (the server answers their
 * admin calls with 403 TWO_FACTOR_REQUIRED until then).
 */
export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  // The signed-in header loads alongside the session, so the page shows with it.
  const accountParts = loadAccountParts();
  const session = await ready();
  const url = new URL(request.url);
  // Registered in this tab, no session yet (docs/decisions/0010): the e-mail comes first.
  if (session.status !== 'authenticated' && pendingVerificationEmail())
    throw redirect('/verify-email');
  if (session.status !== 'authenticated')
    throw redirect(
      loginUrl(url.pathname + url.search, session.status === 'anonymous' && session.expired),
    );
  if (!session.user.emailVerified) throw redirect('/verify-email');
  if (mustEnrolTwoFactor(session.user) && url.pathname !== TWO_FACTOR_SETUP_PATH)
    throw redirect(TWO_FACTOR_SETUP_PATH);
  // Every navigation inside the app refreshes the header's name and Saldo (an admin may have
  // credited the account meanwhile), without holding up the page.
  void reloadMe({ maxAgeMs: 2_000 });
  await accountParts;
  return null;
}
clientLoader.hydrate = true as const;

/** Runs the loader on every navigation inside the app, so the header's Saldo stays current. */
export function shouldRevalidate() {
  return true;
}

export function HydrateFallback() {
  return <LoadingScreen />;
}

export default function ProtectedLayout() {
  const session = useSession();
  const location = useLocation();
  // The session can end while the page is open (expiry, sign-out in another tab, a 401).
  if (session.status === 'anonymous') {
    // A deliberate sign-out navigates on its own (/logout → /login); an ended session goes to
    // /login and comes back here afterwards.
    return session.expired ? (
      <Navigate to={loginUrl(location.pathname + location.search, true)} replace />
    ) : (
      <LoadingScreen />
    );
  }
  if (session.status === 'loading')
    return (
      <LoadingScreen
        note={session.retrying ? 'Sin conexión con el servidor. Reintentando…' : undefined}
      />
    );
  if (!session.user.emailVerified) return <Navigate to="/verify-email" replace />;
  if (mustEnrolTwoFactor(session.user) && location.pathname !== TWO_FACTOR_SETUP_PATH)
    return <Navigate to={TWO_FACTOR_SETUP_PATH} replace />;
  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <Outlet />
    </div>
  );
}

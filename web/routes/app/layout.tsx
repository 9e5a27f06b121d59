import { Navigate, Outlet, redirect, useLoaderData, useLocation } from 'react-router';
import { registerAccountParts } from '../../components/layout/account-header';
import * as accountParts from '../../components/layout/account-parts';
import { PageSkeleton, useSlowPageChange } from '../../components/ui/page-skeleton';
import { loadMyAnnouncements } from '../../features/announcements/announcements-api';
import { AnnouncementBanner } from '../../features/announcements/banner';
import { LoadingScreen } from '../../components/ui/spinner';
import { pageLoader } from '../../lib/page-loader.server';
import { requireSignedIn } from '../../lib/page-session';
import { pendingVerificationEmail } from '../../lib/pending-verification';
import { ready, reloadMe } from '../../lib/session';
import { useSession } from '../../lib/session-state';
import { loginUrl } from '../../lib/sign-in-url';
import { mustEnrolTwoFactor, TWO_FACTOR_SETUP_PATH } from '../../lib/two-factor-gate';
import type { Route } from './+types/layout';

// Every signed-in page shows the account header at once (server-rendered with it too).
registerAccountParts(accountParts);

/**
 * The guard of docs/domain.md §1, on the server for the page the browser asks for: no user →
 * /login (and back after signing in); unverified → /verify-email; an admin without two-factor →
 * /activar-dos-pasos (the server answers their admin calls with 403 TWO_FACTOR_REQUIRED until
 * then).
 */
export async function loader({ request }: Route.LoaderArgs) {
  return pageLoader(request, async () => {
    const session = await requireSignedIn(request);
    return { announcements: await announcementsFor(session.user.role) };
  });
}

/** A customer's announcements, for the banner (staff get none). */
function announcementsFor(role: string) {
  return role === 'customer' ? loadMyAnnouncements() : Promise.resolve([]);
}

/** The same guard for navigations in the browser, with the session the browser holds. */
export async function clientLoader({ request }: Route.ClientLoaderArgs) {
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
  // credited the account meanwhile), without holding up the page. Only the loads of one
  // navigation (a redirect runs this twice) share a reading: a reading two seconds old, taken
  // right after the customer's own top-up, missed the admin's approval that came next.
  void reloadMe({ maxAgeMs: 300 });
  return { announcements: await announcementsFor(session.user.role) };
}

/** Runs the loader on every navigation inside the app, so the header's Saldo stays current. */
export function shouldRevalidate() {
  return true;
}

export function HydrateFallback() {
  return <LoadingScreen />;
}

export default function ProtectedLayout() {
  const session = useSession();
  const { announcements } = useLoaderData<typeof clientLoader>();
  const location = useLocation();
  const slow = useSlowPageChange();
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
    <div className="mx-auto max-w-6xl px-4 py-5 sm:py-8">
      {/* Moving to another page that is slow to load: the page frame in grey, not a spinner
          (the page being left stays mounted, hidden, in case the move is cancelled). */}
      {slow ? <PageSkeleton /> : null}
      <div hidden={slow}>
        {session.user.role === 'customer' ? <AnnouncementBanner items={announcements} /> : null}
        <Outlet />
      </div>
    </div>
  );
}

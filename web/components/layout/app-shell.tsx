import { isStaffRole } from '../../../shared/roles';
import { useEffect, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { PROTECTED_PATHS } from '../../../shared/routes';
import { useSession } from '../../lib/session-state';
import { customerUnreadTickets } from '../../lib/support-badge';
import { useAccountParts } from './account-header';
import { Footer } from './footer';
import { Logo } from './logo';
import { PublicNav } from './public-nav';

function isAppPath(pathname: string) {
  return (
    pathname === '/verify-email' ||
    PROTECTED_PATHS.some((p) => pathname === p || pathname.startsWith(`${p}/`))
  );
}

/** Root layout: sticky header, secondary bar when signed in, footer when signed out. */
export function AppShell({ children }: { children: ReactNode }) {
  const session = useSession();
  const { pathname } = useLocation();

  useEffect(() => {
    // Public pages have no loader: ask once who is signed in, so the header is right everywhere.
    // The session store (and the API client) loads here, after the page has started; until it
    // knows, a public page shows the signed-out header.
    import('../../lib/session')
      .then((session) => session.ready())
      .catch((err: unknown) => {
        console.warn('No se pudo cargar la sesión:', err);
      });
  }, []);

  useEffect(() => {
    const smooth = !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    window.scrollTo({ top: 0, behavior: smooth ? 'smooth' : 'auto' });
  }, [pathname]);

  const signedIn = session.status === 'authenticated' && session.user.emailVerified;
  const unverified = session.status === 'authenticated' && !session.user.emailVerified;
  const showPublic =
    session.status === 'anonymous' || (session.status === 'loading' && !isAppPath(pathname));
  const account = useAccountParts(signedIn);

  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#contenido"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded-lg focus:bg-white focus:px-4 focus:py-2"
      >
        Saltar al contenido
      </a>
      <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
          <Logo to={signedIn || unverified ? '/dashboard' : '/'} />
          {signedIn && account ? (
            <account.UserMenu
              name={session.me?.name ?? null}
              balance={session.me?.balance ?? '0.00'}
              isAdmin={isStaffRole(session.user.role)}
              unreadTickets={customerUnreadTickets(session.me)}
            />
          ) : null}
          {showPublic ? <PublicNav /> : null}
        </div>
        {signedIn && account ? <account.SecondaryBar /> : null}
      </header>
      <main id="contenido" className="flex-1">
        {children}
      </main>
      {session.status === 'authenticated' ? null : <Footer />}
    </div>
  );
}

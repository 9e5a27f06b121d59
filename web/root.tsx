import { useEffect, type ReactNode } from 'react';
import { releaseEarlySubmit } from './lib/early-submit';
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  isRouteErrorResponse,
  useLoaderData,
  useRouteError,
  useRouteLoaderData,
} from 'react-router';
// The stylesheet's address, rendered with a precedence: React writes it first in <head>, before
// the scripts it preloads, so the page paints as soon as it has its CSS.
import stylesheet from './app.css?url';
import { AppShell } from './components/layout/app-shell';
import { LoadingScreen } from './components/ui/spinner';
import { APP_NAME } from './lib/app-name';
import { resumeInterruptedNavigation, useRememberNavigationTarget } from './lib/reload-target';
import { pageLoader } from './lib/page-loader.server';
import { pageSession } from './lib/page-session';
import { currentNonce } from './lib/nonce';
import { TimeZoneContext, timeZoneFromCookie, useDisplayTimeZone } from './lib/dates';
import { SessionSnapshotContext, adoptSession, type SessionSnapshot } from './lib/session-state';
import { NotFound } from './routes/not-found';
import type { Route } from './+types/root';

resumeInterruptedNavigation();

/**
 * A page rendered on the server comes with the visitor's session (docs/decisions/0016), so its
 * header and guards need no second request; prerendered pages have none (null) and read it in the
 * browser.
 */
export async function loader({ request }: Route.LoaderArgs): Promise<PageData> {
  const session = await pageLoader(request, () => pageSession(request));
  // The CSP nonce of this answer, so that the browser renders the scripts as the server did.
  // The time zone dates are rendered in, the same on both sides (web/lib/dates.ts).
  const timeZone = timeZoneFromCookie(request.headers.get('cookie'));
  return { session, nonce: currentNonce() ?? null, timeZone };
}

type PageData = { session: SessionSnapshot | null; nonce: string | null; timeZone: string };

/** The session is read once per page load; navigations keep it current in the browser. */
export function shouldRevalidate() {
  return false;
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useRouteLoaderData<typeof loader>('root')?.nonce ?? undefined;
  return (
    <html lang="es">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#4f46e5" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <link rel="stylesheet" href={stylesheet} precedence="default" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  useRememberNavigationTarget();
  // Hydrated (effects run after the first commit): a form sent before this moment goes now.
  useEffect(releaseEarlySubmit, []);
  const data = useLoaderData<typeof loader>();
  const snapshot = data.session;
  const timeZone = useDisplayTimeZone(data.timeZone);
  // Before anything below reads the session store: it starts from what the server rendered.
  adoptSession(snapshot);
  return (
    <SessionSnapshotContext.Provider value={snapshot}>
      <TimeZoneContext.Provider value={timeZone}>
        <AppShell>
          <Outlet />
        </AppShell>
      </TimeZoneContext.Provider>
    </SessionSnapshotContext.Provider>
  );
}

/** Shown while the app starts and the session is not known yet. */
export function HydrateFallback() {
  return <LoadingScreen />;
}

/** Any routing error other than a 404 gets the default error screen (docs/domain.md §8). */
export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <AppShell>
        <NotFound />
      </AppShell>
    );
  }
  console.error(error);
  return (
    <div className="mx-auto max-w-2xl px-4 py-16">
      <h1 className="text-2xl font-bold text-slate-900">Unexpected Application Error!</h1>
      <p className="mt-4 text-slate-700">
        Ocurrió un error inesperado en {APP_NAME}. Recarga la página; si el problema continúa,
        vuelve al inicio.
      </p>
      <div className="mt-6 flex gap-3">
        <button
          type="button"
          onClick={() => window.location.reload()}
          className="min-h-11 rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
        >
          Recargar la página
        </button>
        <a
          href="/"
          className="inline-flex min-h-11 items-center rounded-lg border border-slate-300 px-4 py-2 text-sm font-semibold text-slate-900"
        >
          Ir al inicio
        </a>
      </div>
    </div>
  );
}

import type { ReactNode } from 'react';
import { Links, Meta, Outlet, Scripts, isRouteErrorResponse, useRouteError } from 'react-router';
import './app.css';
import { AppShell } from './components/layout/app-shell';
import { LoadingScreen } from './components/ui/spinner';
import { APP_NAME } from './lib/app-name';
import { resumeInterruptedNavigation, useRememberNavigationTarget } from './lib/reload-target';
import { NotFound } from './routes/not-found';

resumeInterruptedNavigation();

export function Layout({ children }: { children: ReactNode }) {
  return (
    <html lang="es">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#4f46e5" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  useRememberNavigationTarget();
  return (
    <AppShell>
      <Outlet />
    </AppShell>
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

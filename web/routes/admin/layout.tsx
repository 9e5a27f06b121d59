import { useState } from 'react';
import { Outlet, redirect, useLoaderData, useNavigate } from 'react-router';
import { LoadingScreen } from '../../components/ui/spinner';
import { AppNavLink } from '../../components/ui/app-link';
import { loadOverviewOrNull, menuBadges, queueSearchUrl } from '../../features/admin-desk/desk-api';
import { pageLoader } from '../../lib/page-loader.server';
import { requireAdmin } from '../../lib/page-session';
import { ready } from '../../lib/session';
import { useSession } from '../../lib/session-state';
import { mustEnrolTwoFactor, TWO_FACTOR_SETUP_PATH } from '../../lib/two-factor-gate';
import type { Route } from './+types/layout';

/**
 * Admin pages: the server checks the role (and two-factor) on every /api/admin call; this only
 * mirrors it. The app layout sends an admin without two-factor to /activar-dos-pasos first.
 * The menu's badges come from the admin overview (a failure only hides them).
 */
export async function loader({ request }: Route.LoaderArgs) {
  return pageLoader(request, async () => {
    await requireAdmin(request);
    return { overview: await loadOverviewOrNull() };
  });
}

export async function clientLoader() {
  const session = await ready();
  if (session.status !== 'authenticated' || session.user.role !== 'admin')
    throw redirect('/dashboard');
  if (mustEnrolTwoFactor(session.user)) throw redirect(TWO_FACTOR_SETUP_PATH);
  return { overview: await loadOverviewOrNull() };
}

export function HydrateFallback() {
  return <LoadingScreen />;
}

const ADMIN_NAV = [
  { id: 'inicio', title: 'Resumen', url: '/admin', badge: '' },
  { id: 'ordenes', title: 'Órdenes', url: '/admin/ordenes', badge: 'por atender' },
  { id: 'respuestas', title: 'Respuestas guardadas', url: '/admin/respuestas', badge: '' },
  { id: 'servicios', title: 'Servicios', url: '/admin/servicios', badge: '' },
  { id: 'proveedores', title: 'Proveedores', url: '/admin/proveedores', badge: 'con fallos' },
  { id: 'pagos', title: 'Pagos y saldo', url: '/admin/pagos', badge: 'por aprobar' },
  { id: 'clientes', title: 'Clientes', url: '/admin/clientes', badge: '' },
  { id: 'deudas', title: 'Deudas', url: '/admin/deudas', badge: '' },
];

/** Order number or IMEI, from any admin page, to the queue (every state). */
function AdminSearch() {
  const navigate = useNavigate();
  const [value, setValue] = useState('');
  return (
    <form
      role="search"
      aria-label="Buscar órdenes"
      className="flex basis-full gap-2 lg:ml-auto lg:basis-auto"
      onSubmit={(e) => {
        e.preventDefault();
        const url = queueSearchUrl(value);
        if (url) void navigate(url);
      }}
    >
      <label htmlFor="admin-search" className="sr-only">
        Buscar orden o IMEI
      </label>
      <input
        id="admin-search"
        type="search"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        placeholder="Orden o IMEI"
        autoComplete="off"
        spellCheck={false}
        className="min-h-11 w-full min-w-0 rounded-lg border border-slate-300 px-3 text-sm lg:min-h-9 lg:w-44"
      />
      <button
        type="submit"
        className="min-h-11 rounded-lg border border-slate-300 bg-white px-3 text-sm font-semibold text-slate-900 hover:bg-slate-100 lg:min-h-9"
      >
        Buscar
      </button>
    </form>
  );
}

export default function AdminLayout() {
  const session = useSession();
  const { overview } = useLoaderData<typeof clientLoader>();
  const badges = menuBadges(overview);
  if (
    session.status !== 'authenticated' ||
    session.user.role !== 'admin' ||
    mustEnrolTwoFactor(session.user)
  )
    return <LoadingScreen />;
  return (
    <div>
      <nav
        aria-label="Administración"
        className="mb-4 flex flex-wrap items-center gap-x-1 gap-y-1 border-b border-slate-200 pb-2"
      >
        <span className="basis-full text-sm font-semibold tracking-wide text-slate-500 uppercase sm:mr-2 sm:basis-auto">
          Administración
        </span>
        {ADMIN_NAV.map((item) => {
          const count = badges[item.id] ?? 0;
          return (
            <AppNavLink
              key={item.id}
              to={item.url}
              end={item.url === '/admin'}
              className={({ isActive }) =>
                `inline-flex items-center gap-1.5 rounded-lg px-2.5 py-1.5 text-sm font-medium ${isActive ? 'bg-brand-50 text-brand-800' : 'text-slate-700 hover:bg-slate-100'}`
              }
            >
              {item.title}
              {count > 0 ? (
                <span
                  className="rounded-full bg-amber-200 px-1.5 text-xs font-semibold text-amber-950 tabular-nums"
                  data-testid={`badge-${item.id}`}
                >
                  {count}
                  <span className="sr-only"> {item.badge}</span>
                </span>
              ) : null}
            </AppNavLink>
          );
        })}
        <AdminSearch />
      </nav>
      <Outlet />
    </div>
  );
}

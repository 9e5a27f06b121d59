import { Outlet, redirect } from 'react-router';
import { LoadingScreen } from '../../components/ui/spinner';
import { AppNavLink } from '../../components/ui/app-link';
import { pageLoader } from '../../lib/page-loader.server';
import { requireAdmin } from '../../lib/page-session';
import { ready } from '../../lib/session';
import { useSession } from '../../lib/session-state';
import { mustEnrolTwoFactor, TWO_FACTOR_SETUP_PATH } from '../../lib/two-factor-gate';
import type { Route } from './+types/layout';

/**
 * Admin pages: the server checks the role (and two-factor) on every /api/admin call; this only
 * mirrors it. The app layout sends an admin without two-factor to /activar-dos-pasos first.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await pageLoader(request, () => requireAdmin(request));
  return null;
}

export async function clientLoader() {
  const session = await ready();
  if (session.status !== 'authenticated' || session.user.role !== 'admin')
    throw redirect('/dashboard');
  if (mustEnrolTwoFactor(session.user)) throw redirect(TWO_FACTOR_SETUP_PATH);
  return null;
}

export function HydrateFallback() {
  return <LoadingScreen />;
}

const ADMIN_NAV = [
  { id: 'ordenes', title: 'Órdenes', url: '/admin/ordenes' },
  { id: 'servicios', title: 'Servicios', url: '/admin/servicios' },
  { id: 'proveedores', title: 'Proveedores', url: '/admin/proveedores' },
  { id: 'pagos', title: 'Pagos y saldo', url: '/admin/pagos' },
  { id: 'clientes', title: 'Clientes', url: '/admin/clientes' },
];

export default function AdminLayout() {
  const session = useSession();
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
        className="mb-6 flex flex-wrap items-center gap-x-3 gap-y-2 border-b border-slate-200 pb-3"
      >
        <span className="basis-full text-sm font-semibold tracking-wide text-slate-500 uppercase sm:basis-auto">
          Administración
        </span>
        {ADMIN_NAV.map((item) => (
          <AppNavLink
            key={item.id}
            to={item.url}
            className={({ isActive }) =>
              `rounded-lg px-3 py-1.5 text-sm font-medium ${isActive ? 'bg-brand-50 text-brand-800' : 'text-slate-700 hover:bg-slate-100'}`
            }
          >
            {item.title}
          </AppNavLink>
        ))}
      </nav>
      <Outlet />
    </div>
  );
}

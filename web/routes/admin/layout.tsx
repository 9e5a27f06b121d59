import { useState } from 'react';
import { Outlet, useLoaderData, useNavigate } from 'react-router';
import { isStaffRole, staffCan, type StaffArea } from '../../../shared/roles';
import { LoadingScreen } from '../../components/ui/spinner';
import { AppNavLink } from '../../components/ui/app-link';
import { loadOverviewOrNull, menuBadges, queueSearchUrl } from '../../features/admin-desk/desk-api';
import { pageLoader } from '../../lib/page-loader.server';
import { requireStaff } from '../../lib/page-session';
import { useSession } from '../../lib/session-state';
import { staffClientGuard } from '../../lib/staff-guard';
import { mustEnrolTwoFactor } from '../../lib/two-factor-gate';
import type { Route } from './+types/layout';

/**
 * Back-office pages, for every staff role: the server checks the role (and two-factor) on every
 * /api/admin call; this only mirrors it. The app layout sends staff without two-factor to
 * /activar-dos-pasos first. The menu shows each role only the areas it can use (`staffCan`); each
 * page's own guard sends a role elsewhere. The badges come from the overview (a failure hides them).
 */
export async function loader({ request }: Route.LoaderArgs) {
  return pageLoader(request, async () => {
    await requireStaff(request);
    return { overview: await loadOverviewOrNull() };
  });
}

export async function clientLoader() {
  await staffClientGuard();
  return { overview: await loadOverviewOrNull() };
}

export function HydrateFallback() {
  return <LoadingScreen />;
}

/** One line per back-office page; `area` says which roles see it (null: every staff role). */
type NavItem = { id: string; title: string; url: string; badge: string; area: StaffArea | null };

const ADMIN_NAV: NavItem[] = [
  { id: 'inicio', title: 'Resumen', url: '/admin', badge: '', area: null },
  { id: 'ordenes', title: 'Órdenes', url: '/admin/ordenes', badge: 'por atender', area: 'orders' },
  {
    id: 'respuestas',
    title: 'Respuestas guardadas',
    url: '/admin/respuestas',
    badge: '',
    area: 'orders',
  },
  {
    id: 'soporte',
    title: 'Soporte',
    url: '/admin/soporte',
    badge: 'tickets abiertos',
    area: 'tickets',
  },
  { id: 'servicios', title: 'Servicios', url: '/admin/servicios', badge: '', area: 'catalogue' },
  {
    id: 'proveedores',
    title: 'Proveedores',
    url: '/admin/proveedores',
    badge: 'con fallos',
    area: 'suppliers',
  },
  { id: 'pagos', title: 'Pagos y saldo', url: '/admin/pagos', badge: 'por aprobar', area: 'money' },
  { id: 'recibos', title: 'Recibos', url: '/admin/recibos', badge: '', area: 'money' },
  { id: 'clientes', title: 'Clientes', url: '/admin/clientes', badge: '', area: 'customers' },
  { id: 'grupos', title: 'Grupos de precios', url: '/admin/grupos', badge: '', area: 'catalogue' },
  { id: 'informes', title: 'Informes', url: '/admin/informes', badge: '', area: 'reports' },
  { id: 'deudas', title: 'Deudas', url: '/admin/deudas', badge: '', area: 'money' },
  {
    id: 'anuncios',
    title: 'Anuncios',
    url: '/admin/anuncios',
    badge: '',
    area: 'announcements',
  },
  { id: 'personal', title: 'Personal', url: '/admin/personal', badge: '', area: 'staff' },
  { id: 'auditoria', title: 'Auditoría', url: '/admin/auditoria', badge: '', area: 'staff' },
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
    !isStaffRole(session.user.role) ||
    mustEnrolTwoFactor(session.user)
  )
    return <LoadingScreen />;
  const role = session.user.role;
  const nav = ADMIN_NAV.filter((item) => item.area === null || staffCan(role, item.area));
  return (
    <div>
      <nav
        aria-label="Administración"
        className="mb-4 flex flex-wrap items-center gap-x-1 gap-y-1 border-b border-slate-200 pb-2"
      >
        <span className="basis-full text-sm font-semibold tracking-wide text-slate-500 uppercase sm:mr-2 sm:basis-auto">
          Administración
        </span>
        {nav.map((item) => {
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
        {staffCan(role, 'orders') ? <AdminSearch /> : null}
      </nav>
      <Outlet />
    </div>
  );
}

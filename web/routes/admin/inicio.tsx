import { useLoaderData } from 'react-router';
import { formatUsd } from '../../../shared/money';
import { Alert } from '../../components/ui/alert';
import { AppLink } from '../../components/ui/app-link';
import { Card, PageTitle } from '../../components/ui/card';
import { loadOverview, type AdminOverview } from '../../features/admin-desk/desk-api';
import { ApiError } from '../../lib/api';
import { APP_NAME } from '../../lib/app-name';
import { adminPage } from '../../lib/page-loader.server';
import { staffClientGuard } from '../../lib/staff-guard';
import type { Route } from './+types/inicio';

export function meta() {
  return [{ title: `Administración · ${APP_NAME}` }];
}

/** Rendered on the server with its data (docs/decisions/0016); navigations load it in the browser. */
export async function loader({ request }: Route.LoaderArgs) {
  return adminPage(request, homeData);
}

export async function clientLoader() {
  await staffClientGuard();
  return homeData();
}

async function homeData(): Promise<{ overview: AdminOverview | null; error: string | null }> {
  try {
    return { overview: await loadOverview(), error: null };
  } catch (err) {
    console.error('No se pudo leer el resumen de administración:', err);
    return {
      overview: null,
      error: err instanceof ApiError ? err.message : 'No pudimos cargar el resumen.',
    };
  }
}

type Tile = {
  id: string;
  count: number | null;
  title: string;
  text: string;
  url: string;
  action: string;
};

/** The tiles of what waits; a count the role may not see (null) is no tile. */
function tiles(o: AdminOverview): (Tile & { count: number })[] {
  const all: Tile[] = [
    {
      id: 'pending',
      count: o.pendingOrders,
      title: 'Órdenes pendientes',
      text: 'Esperan que alguien las tome.',
      url: '/admin/ordenes?status=pending',
      action: 'Ver pendientes',
    },
    {
      id: 'review',
      count: o.reviewOrders,
      title: 'Órdenes en «Revisar»',
      text: 'Un proveedor las dejó en duda: decide qué hacer.',
      url: '/admin/ordenes?dispatch=review',
      action: 'Revisar envíos',
    },
    {
      id: 'payments',
      count: o.pendingPayments,
      title: 'Pagos por aprobar',
      text: 'Transferencias declaradas por clientes.',
      url: '/admin/pagos',
      action: 'Ver pagos',
    },
    {
      id: 'tickets',
      count: o.openTickets,
      title: 'Tickets abiertos',
      text: 'Clientes que esperan una respuesta de soporte.',
      url: '/admin/soporte?state=open',
      action: 'Ver tickets',
    },
    {
      id: 'suppliers',
      count: o.failingSuppliers,
      title: 'Proveedores con fallos',
      text: 'Sus últimas llamadas fallaron.',
      url: '/admin/proveedores',
      action: 'Ver proveedores',
    },
  ];
  return all.filter((t): t is Tile & { count: number } => t.count !== null);
}

export default function AdminHome() {
  const { overview, error } = useLoaderData<typeof clientLoader>();
  const waiting = overview ? tiles(overview).filter((t) => t.count > 0).length : 0;
  return (
    <>
      <PageTitle
        title="Administración"
        subtitle={
          overview
            ? waiting === 0
              ? 'Nada espera a una persona ahora mismo.'
              : 'Lo que espera a una persona ahora mismo.'
            : undefined
        }
      />
      {overview ? (
        <div className="flex flex-col gap-4">
          <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5" aria-label="Lo que espera">
            {tiles(overview).map((t) => (
              <li key={t.id}>
                <Card
                  className={`flex h-full flex-col gap-1 p-4 ${t.count > 0 ? 'border-amber-300' : ''}`}
                >
                  <h2 className="text-sm font-medium text-slate-700">{t.title}</h2>
                  <p
                    className="text-3xl font-bold text-slate-900 tabular-nums"
                    data-testid={`overview-${t.id}`}
                  >
                    {t.count}
                  </p>
                  <p className="text-sm text-slate-600">{t.text}</p>
                  <AppLink
                    to={t.url}
                    className="mt-auto pt-2 text-sm font-semibold text-brand-700 underline-offset-2 hover:underline"
                  >
                    {t.action}
                    <span className="sr-only"> ({t.count})</span>
                  </AppLink>
                </Card>
              </li>
            ))}
          </ul>
          {overview.todaySales === null ? null : (
            <Card className="p-4">
              <h2 className="text-sm font-medium text-slate-700">Ventas de hoy</h2>
              <p
                className="text-3xl font-bold text-slate-900 tabular-nums"
                data-testid="overview-sales"
              >
                {formatUsd(overview.todaySales)}
              </p>
              <p className="text-sm text-slate-600">
                {overview.todayOrders === 1 ? '1 orden' : `${overview.todayOrders} órdenes`} desde
                las 00:00 UTC, sin las rechazadas ni canceladas.
              </p>
            </Card>
          )}
        </div>
      ) : (
        <Alert tone="error">{error}</Alert>
      )}
    </>
  );
}

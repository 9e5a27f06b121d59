import { isStaffRole } from '../../../shared/roles';
import { redirect, useLoaderData } from 'react-router';
import { DEFAULT_DISPLAY_NAME } from '../../../shared/display-name';
import { formatUsd, parseAmount } from '../../../shared/money';
import {
  ORDER_STATUS_LABELS,
  ORDER_STATUSES,
  OrderSummarySchema,
  type OrderStatus,
  type OrderSummary,
} from '../../../shared/schemas/orders';
import { WalletDtoSchema } from '../../../shared/schemas/wallet';
import { CreditLine } from '../../features/credit/credit-line';
import { AnnouncementList } from '../../features/announcements/announcement-list';
import { loadMyAnnouncements } from '../../features/announcements/announcements-api';
import { AppLink } from '../../components/ui/app-link';
import { Alert } from '../../components/ui/alert';
import { buttonClass } from '../../components/ui/button';
import { Card, PageTitle } from '../../components/ui/card';
import { api } from '../../lib/api';
import { APP_NAME } from '../../lib/app-name';
import { SECONDARY_NAV } from '../../lib/account-navigation';
import { ready, useSession } from '../../lib/session';
import { pageLoader } from '../../lib/page-loader.server';
import { requireSignedIn } from '../../lib/page-session';
import type { Route } from './+types/dashboard';
import { useDates } from '../../lib/dates';
import { formatDay } from '../../../shared/dates';

export function meta() {
  return [{ title: `Inicio · ${APP_NAME}` }];
}

type Summary = OrderSummary;

/** Rendered on the server with its data (docs/decisions/0016); navigations load it in the browser. */
export async function loader({ request }: Route.LoaderArgs) {
  return pageLoader(request, async () => {
    const session = await requireSignedIn(request);
    // Staff's home is the back office, not a customer's Saldo of $0.00.
    if (isStaffRole(session.user.role)) throw redirect('/admin');
    return dashboardData();
  });
}

export async function clientLoader() {
  const session = await ready();
  if (session.status === 'authenticated' && isStaffRole(session.user.role))
    throw redirect('/admin');
  return dashboardData();
}

/** A failed read shows a notice; the rest of the page still works. */
async function dashboardData() {
  const [wallet, summary, announcements] = await Promise.all([
    api.get('/api/wallet', WalletDtoSchema).catch((err: unknown) => {
      console.warn('No se pudo leer el saldo:', err);
      return null;
    }),
    api.get('/api/orders/summary', OrderSummarySchema).catch((err: unknown) => {
      console.warn('No se pudo leer el resumen de órdenes:', err);
      return null;
    }),
    loadMyAnnouncements(),
  ]);
  return { wallet, summary, announcements };
}

const SHORTCUT_TEXT: Record<string, string> = {
  'nueva-orden': 'Elige un servicio y haz tu pedido con tu saldo.',
  'anadir-creditos': 'Recarga tu saldo en dólares.',
  'historial-ordenes': 'Consulta el estado y el resultado de tus órdenes.',
  soporte: 'Escríbenos sobre una orden, un pago o tu cuenta.',
  'mi-perfil': 'Tu nombre, tu correo y tu contraseña.',
};

const BADGE: Record<OrderStatus, string> = {
  pending: 'bg-amber-100 text-amber-900',
  processing: 'bg-sky-100 text-sky-900',
  completed: 'bg-emerald-100 text-emerald-800',
  rejected: 'bg-red-100 text-red-800',
  cancelled: 'bg-slate-200 text-slate-800',
  partial: 'bg-purple-100 text-purple-900',
};

function SpendChart({ days, total }: { days: Summary['spend30d']; total: string }) {
  const cents = days.map((d) => parseAmount(d.amount) ?? 0n);
  const max = cents.reduce((m, c) => (c > m ? c : m), 0n);
  const width = 300;
  const height = 80;
  const bar = width / days.length;
  const first = formatDay(days[0]?.date ?? '', { year: false });
  const last = formatDay(days.at(-1)?.date ?? '', { year: false });
  return (
    <figure>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        className="h-24 w-full"
        role="img"
        aria-label={`Gasto de los últimos 30 días: ${formatUsd(total)} en total`}
      >
        {days.map((d, i) => {
          const value = cents[i] ?? 0n;
          // Bar heights are a drawing, not money: the ratio of two bigints scaled to pixels.
          const h = max === 0n ? 0 : Number((value * BigInt(height - 4)) / max);
          return (
            <rect
              key={d.date}
              x={i * bar + 1}
              y={height - h}
              width={bar - 2}
              height={h}
              rx={1.5}
              className="fill-brand-600"
            >
              <title>{`${formatDay(d.date)}: ${formatUsd(d.amount)}`}</title>
            </rect>
          );
        })}
        <line x1="0" y1={height - 0.5} x2={width} y2={height - 0.5} className="stroke-slate-300" />
      </svg>
      <figcaption className="mt-1 flex justify-between text-xs text-slate-600">
        <span>{first}</span>
        <span>{last}</span>
      </figcaption>
    </figure>
  );
}

export default function Dashboard() {
  const dates = useDates();
  const session = useSession();
  const { wallet, summary, announcements } = useLoaderData<typeof clientLoader>();
  if (session.status !== 'authenticated') return null;
  const me = session.me;
  const available = wallet?.available ?? me?.balance ?? '0.00';
  return (
    <>
      <PageTitle
        title={`Hola, ${(me?.name ?? session.user.name).trim() || DEFAULT_DISPLAY_NAME}`}
        subtitle="Este es el resumen de tu cuenta."
      />
      {me && wallet && summary ? null : (
        <Alert tone="warning">
          No pudimos cargar todos los datos de tu cuenta. Recarga la página en unos segundos.
        </Alert>
      )}
      <div className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <Card>
          <h2 className="text-sm font-medium text-slate-600">Saldo disponible</h2>
          <p
            className={`mt-2 text-3xl font-bold ${
              (parseAmount(available) ?? 0n) > 0n
                ? 'text-slate-900'
                : (parseAmount(available) ?? 0n) < 0n
                  ? 'text-red-700'
                  : 'text-amber-800'
            }`}
            data-testid="dashboard-balance"
          >
            {formatUsd(available)}
          </p>
          <CreditLine wallet={wallet} />
          <div className="mt-4 flex flex-wrap gap-2">
            <AppLink to="/placeorder" className={buttonClass('primary')}>
              Nueva orden
            </AppLink>
            <AppLink to="/addfunds" className={buttonClass('secondary')}>
              Añadir créditos
            </AppLink>
          </div>
        </Card>
        <Card>
          <h2 className="text-sm font-medium text-slate-600">En proceso</h2>
          <p className="mt-2 text-3xl font-bold text-slate-900" data-testid="dashboard-held">
            {formatUsd(wallet?.held ?? '0.00')}
          </p>
          <p className="mt-1 text-sm text-slate-600">Reservado para órdenes que aún no terminan.</p>
        </Card>
        <Card>
          <h2 className="text-sm font-medium text-slate-600">Gasto de los últimos 30 días</h2>
          <p className="mt-2 text-2xl font-bold text-slate-900">
            {formatUsd(summary?.spend30dTotal ?? '0.00')}
          </p>
          {summary ? <SpendChart days={summary.spend30d} total={summary.spend30dTotal} /> : null}
        </Card>
      </div>

      <AnnouncementList items={announcements} />

      {summary ? (
        <div className="mt-6 grid gap-4 lg:grid-cols-2">
          <Card>
            <h2 className="text-lg font-semibold text-slate-900">Tus órdenes por estado</h2>
            <ul className="mt-3 grid grid-cols-2 gap-2 sm:grid-cols-3">
              {ORDER_STATUSES.map((s) => (
                <li key={s}>
                  <AppLink
                    to={`/orderhistory?status=${s}`}
                    className={`flex items-center justify-between rounded-lg px-3 py-2 text-sm font-medium ${BADGE[s]}`}
                  >
                    <span>{ORDER_STATUS_LABELS[s]}</span>
                    <span className="font-bold">{summary.byStatus[s]}</span>
                  </AppLink>
                </li>
              ))}
            </ul>
          </Card>
          <Card>
            <h2 className="text-lg font-semibold text-slate-900">Últimas órdenes</h2>
            {summary.latest.length === 0 ? (
              <p className="mt-3 text-slate-600">
                Aún no tienes órdenes.{' '}
                <AppLink to="/placeorder" className="font-semibold text-brand-700 hover:underline">
                  Haz tu primera orden
                </AppLink>
                .
              </p>
            ) : (
              <ul className="mt-3 divide-y divide-slate-100">
                {summary.latest.map((o) => (
                  <li key={o.id}>
                    <AppLink
                      to={`/orderhistory?orden=${o.id}`}
                      className="flex items-center justify-between gap-3 py-2.5 hover:bg-slate-50"
                    >
                      <span>
                        <span className="block font-medium text-slate-900">
                          #{o.number} · {o.serviceName}
                        </span>
                        <span className="text-sm text-slate-600">
                          {dates.dateTime(o.createdAt)}
                        </span>
                      </span>
                      <span className="text-right">
                        <span className="block font-semibold text-slate-900">
                          {formatUsd(o.price)}
                        </span>
                        <span
                          className={`rounded-full px-2 py-0.5 text-xs font-semibold ${BADGE[o.status]}`}
                        >
                          {o.statusLabel}
                        </span>
                      </span>
                    </AppLink>
                  </li>
                ))}
              </ul>
            )}
          </Card>
        </div>
      ) : null}

      <h2 className="mt-10 text-lg font-semibold text-slate-900">Accesos directos</h2>
      <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {SECONDARY_NAV.filter((item) => item.id !== 'inicio').map((item) => (
          <li key={item.id}>
            <AppLink
              to={item.url}
              className="block h-full rounded-2xl border border-slate-200 bg-white p-5 shadow-sm transition hover:border-brand-500 hover:shadow"
            >
              <span className="font-semibold text-slate-900">{item.title}</span>
              <span className="mt-1 block text-sm text-slate-600">{SHORTCUT_TEXT[item.id]}</span>
            </AppLink>
          </li>
        ))}
      </ul>
    </>
  );
}

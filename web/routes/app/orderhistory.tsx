import { useId, useRef, useState } from 'react';
import {
  Form,
  Link,
  useLoaderData,
  useNavigate,
  useNavigation,
  useRevalidator,
  useSearchParams,
} from 'react-router';
import { CATEGORIES } from '../../../shared/categories';
import { formatUsd } from '../../../shared/money';
import { ORDER_STATUSES, ORDER_STATUS_LABELS } from '../../../shared/schemas/orders';
import { Alert } from '../../components/ui/alert';
import { Button, buttonClass } from '../../components/ui/button';
import { Card, PageTitle } from '../../components/ui/card';
import { CsvLink } from '../../components/ui/csv-link';
import { SelectField, TextAreaField, TextField } from '../../components/ui/field';
import {
  OrderDetailDialog,
  type CancelResult,
  type DetailState,
} from '../../features/order-history/order-detail';
import {
  cancelMyOrder,
  refillMyOrder,
  exportCsvUrl,
  filtersError,
  filtersFromUrl,
  getMyOrder,
  hasFilters,
  listMyOrders,
  mainField,
  type HistoryFilters,
  type OrderPage,
} from '../../features/order-history/orders-api';
import { LoadMore, useMorePages } from '../../lib/more-pages';
import { SourceBadge } from '../../features/order-history/source-badge';
import { StatusBadge } from '../../features/order-history/status-badge';
import { ApiError } from '../../lib/api';
import { APP_NAME } from '../../lib/app-name';
import { reloadMe } from '../../lib/session';
import type { Route } from './+types/orderhistory';
import { signedInPage } from '../../lib/page-loader.server';
import { useDates } from '../../lib/dates';

export function meta() {
  return [{ title: `Historial de órdenes · ${APP_NAME}` }];
}

async function loadDetail(id: string | null): Promise<DetailState> {
  if (!id) return null;
  try {
    return { order: await getMyOrder(id) };
  } catch (err) {
    return {
      error: err instanceof ApiError ? err.message : 'No pudimos cargar el detalle de la orden.',
    };
  }
}

/** Rendered on the server with its data (docs/decisions/0016); navigations load it in the browser. */
export async function loader(args: Route.LoaderArgs) {
  return signedInPage(args.request, () => clientLoader(args));
}

/**
 * Never throws: a failed list is `history: null`, shown with a «Reintentar» button; filters the
 * API would refuse are `invalid`, their message shown instead of asking.
 */
export async function clientLoader({
  request,
}: Pick<Route.ClientLoaderArgs, 'request' | 'params'>) {
  const params = new URL(request.url).searchParams;
  const filters = filtersFromUrl(params);
  const invalid = filtersError(filters);
  const [history, detail] = await Promise.all([
    invalid
      ? null
      : listMyOrders(filters).catch((err: unknown): OrderPage | null => {
          console.error('No se pudo leer el historial:', err);
          return null;
        }),
    loadDetail(params.get('orden')),
  ]);
  return { history, filters, invalid, detail };
}

export async function clientAction({ request }: Route.ClientActionArgs): Promise<CancelResult> {
  const form = await request.formData();
  const id = form.get('id');
  const intent = form.get('intent');
  if (typeof id !== 'string' || (intent !== 'cancel' && intent !== 'refill'))
    return { ok: false, message: 'Acción desconocida.' };
  try {
    if (intent === 'refill') {
      const refill = await refillMyOrder(id);
      return {
        ok: true,
        message: `Pedimos la reposición n.º ${refill.number}. Verás su estado en el historial de la orden.`,
      };
    }
    const order = await cancelMyOrder(id);
    if (order.status !== 'cancelled')
      return {
        ok: true,
        message:
          'Pedimos la cancelación al proveedor. Si la acepta, te devolveremos el importe a tu saldo.',
      };
    await reloadMe();
    return {
      ok: true,
      message: `Orden cancelada. Devolvimos ${formatUsd(order.price)} a tu saldo.`,
    };
  } catch (err) {
    if (err instanceof ApiError) return { ok: false, message: err.message };
    throw err;
  }
}

const STATUS_OPTIONS = ORDER_STATUSES.map((s) => ({ value: s, label: ORDER_STATUS_LABELS[s] }));
const CATEGORY_OPTIONS = CATEGORIES.map((c) => ({ value: c.slug, label: c.label }));

/** How many of the filters behind «Filtrar» are set (the search box is always in view). */
function advancedCount(f: HistoryFilters): number {
  return [f.status, f.category, f.from, f.to].filter(Boolean).length;
}

/**
 * The search box first; the other filters behind «Filtrar» (open when one of them is set), so
 * on a phone the orders start on the first screen.
 */
function Filters({ filters }: { filters: HistoryFilters }) {
  const navigation = useNavigation();
  const busy = navigation.state === 'loading' && navigation.location.pathname === '/orderhistory';
  const csvUrl = exportCsvUrl(filters);
  const set = advancedCount(filters);
  const [open, setOpen] = useState(set > 0);
  const panelId = useId();
  return (
    <Form method="get" role="search" aria-label="Filtrar órdenes" className="flex flex-col gap-3">
      <TextAreaField
        label="Buscar por número de orden o IMEI"
        name="q"
        rows={1}
        defaultValue={filters.q}
        placeholder="#123 o varios IMEI"
        title="Puedes pegar varios IMEI separados por espacios, comas o saltos de línea."
      />
      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" disabled={busy}>
          {busy ? 'Buscando…' : 'Aplicar'}
        </Button>
        <Button
          type="button"
          variant="secondary"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((o) => !o)}
        >
          {set > 0 ? `Filtrar (${set})` : 'Filtrar'}
        </Button>
        {hasFilters(filters) ? (
          <Link to="/orderhistory" className={buttonClass('ghost')}>
            Limpiar
          </Link>
        ) : null}
        {csvUrl ? (
          <CsvLink href={csvUrl} download="ordenes.csv" className={buttonClass('ghost', 'px-2')}>
            Exportar CSV
          </CsvLink>
        ) : null}
      </div>
      <div id={panelId} hidden={!open} className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <SelectField
          label="Estado"
          name="status"
          defaultValue={filters.status}
          placeholder="Todos"
          options={STATUS_OPTIONS}
        />
        <SelectField
          label="Categoría"
          name="category"
          defaultValue={filters.category}
          placeholder="Todas"
          options={CATEGORY_OPTIONS}
        />
        <TextField label="Desde" name="from" type="date" defaultValue={filters.from} />
        <TextField label="Hasta" name="to" type="date" defaultValue={filters.to} />
      </div>
    </Form>
  );
}

function OrderList({ first, filters }: { first: OrderPage; filters: HistoryFilters }) {
  const dates = useDates();
  const [params] = useSearchParams();
  const pages = useMorePages(
    first,
    (cursor) => listMyOrders(filters, cursor),
    'No pudimos cargar más órdenes.',
  );
  const { items } = pages;

  if (items.length === 0)
    return hasFilters(filters) ? (
      <p className="text-slate-700" role="status">
        Ninguna orden coincide con los filtros.
      </p>
    ) : (
      <div className="flex flex-col items-start gap-3">
        <p className="text-slate-700">Todavía no tienes órdenes.</p>
        <Link to="/placeorder" className={buttonClass('primary')}>
          Hacer mi primera orden
        </Link>
      </div>
    );

  function detailLink(id: string) {
    const next = new URLSearchParams(params);
    next.set('orden', id);
    return `?${next.toString()}`;
  }

  return (
    <div>
      <ul className="divide-y divide-slate-100" data-testid="orders">
        {items.map((o) => (
          <li key={o.id}>
            <Link
              to={detailLink(o.id)}
              data-order-link={o.id}
              preventScrollReset
              className="flex flex-col rounded-lg px-2 py-1 hover:bg-slate-50 focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none sm:py-2"
            >
              <span className="flex items-center justify-between gap-2 text-sm leading-5">
                <span className="min-w-0 truncate font-medium text-slate-900">
                  <span className="font-semibold">#{o.number}</span> {o.serviceName}
                </span>
                <span className="shrink-0 font-semibold text-slate-900 tabular-nums">
                  {formatUsd(o.price)}
                </span>
              </span>
              <span className="flex items-center justify-between gap-2 text-xs leading-5 text-slate-600">
                <span className="min-w-0 truncate">
                  <span className="font-mono text-slate-800">{mainField(o)}</span>
                  {o.result ? (
                    <>
                      {' · '}
                      <span
                        className="font-mono font-semibold text-emerald-800"
                        data-testid="row-result"
                      >
                        <span className="sr-only">Resultado: </span>
                        {o.result}
                      </span>
                    </>
                  ) : null}
                  {' · '}
                  {dates.dateTime(o.createdAt)} <SourceBadge order={o} labelled />
                </span>
                <StatusBadge status={o.status} compact />
              </span>
            </Link>
          </li>
        ))}
      </ul>
      <LoadMore pages={pages} />
    </div>
  );
}

export default function OrderHistory() {
  const { history, filters, invalid, detail } = useLoaderData<typeof clientLoader>();
  const revalidator = useRevalidator();
  const [params] = useSearchParams();
  const navigate = useNavigate();

  // The order whose dialog closes: its row takes the focus back.
  const closing = useRef<string | null>(null);

  function closeDetail() {
    closing.current = params.get('orden');
    const next = new URLSearchParams(params);
    next.delete('orden');
    const search = next.toString();
    void navigate(search ? `?${search}` : '.', { preventScrollReset: true });
  }

  const listKey = new URLSearchParams({ ...filters }).toString();

  return (
    <>
      <PageTitle
        title="Historial de órdenes"
        subtitle="Todas tus órdenes, de la más reciente a la más antigua."
        compact
      />
      <div className="flex flex-col gap-3 sm:gap-6">
        {/* On a phone the search sits on the page itself: the orders start higher. */}
        <div className="sm:rounded-2xl sm:border sm:border-slate-200 sm:bg-white sm:p-6 sm:shadow-sm">
          <Filters key={listKey} filters={filters} />
        </div>
        <Card className="p-1.5 sm:p-6">
          <h2 className="sr-only">Órdenes</h2>
          {invalid ? (
            <Alert tone="error">{invalid}</Alert>
          ) : history ? (
            <OrderList key={listKey} first={history} filters={filters} />
          ) : (
            <div className="flex flex-col items-start gap-3">
              <Alert tone="error">No pudimos cargar tu historial.</Alert>
              <Button
                variant="secondary"
                onClick={() => void revalidator.revalidate()}
                disabled={revalidator.state !== 'idle'}
              >
                {revalidator.state !== 'idle' ? 'Reintentando…' : 'Reintentar'}
              </Button>
            </div>
          )}
        </Card>
      </div>
      <OrderDetailDialog
        detail={detail}
        onClose={closeDetail}
        returnFocusTo={() =>
          closing.current
            ? document.querySelector<HTMLElement>(`[data-order-link="${closing.current}"]`)
            : null
        }
      />
    </>
  );
}

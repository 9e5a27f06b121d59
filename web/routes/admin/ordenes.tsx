import { useCallback, useEffect, useState, type KeyboardEvent } from 'react';
import {
  Form,
  Link,
  useLoaderData,
  useRevalidator,
  type ShouldRevalidateFunctionArgs,
} from 'react-router';
import { CATEGORIES } from '../../../shared/categories';
import { CategorySlugSchema } from '../../../shared/schemas/catalogue';
import { ORDER_STATUSES } from '../../../shared/schemas/orders';
import { DISPATCH_STATE_LABELS, DISPATCH_STATES } from '../../../shared/schemas/suppliers';
import { Alert } from '../../components/ui/alert';
import { Button, buttonClass } from '../../components/ui/button';
import { Card, PageTitle } from '../../components/ui/card';
import { SelectField, TextField } from '../../components/ui/field';
import {
  BulkComplete,
  type BulkCompleteActionResult,
} from '../../features/order-history/bulk-complete';
import {
  adminOrderAction,
  bulkCompleteOrders,
  confirmDispatch,
  finishRefill,
  listPendingRefills,
  listQueue,
  queueDispatchFrom,
  queueStatusFrom,
  replaceStockItem,
  resendDispatch,
  type AdminOrderPage,
  type QueueDispatch,
  type QueueStatus,
} from '../../features/order-history/orders-api';
import { LoadMore, useMorePages } from '../../lib/more-pages';
import { QueueRow, type QueueActionResult } from '../../features/order-history/queue-row';
import { BulkBar, type BulkActionActionResult } from '../../features/order-history/bulk-bar';
import { movedIndex, rowKeyAction } from '../../features/order-history/queue-keys';
import { bulkOrders, loadSnippets, saveSnippet } from '../../features/admin-desk/desk-api';
import {
  BULK_ORDER_ACTIONS,
  type BulkOrderAction,
  type SnippetDto,
} from '../../../shared/schemas/admin-desk';
import { RefillQueue, type RefillActionResult } from '../../features/order-history/refill-queue';
import { ApiError } from '../../lib/api';
import { APP_NAME } from '../../lib/app-name';
import { staffClientGuard } from '../../lib/staff-guard';
import type { Route } from './+types/ordenes';
import { adminPage } from '../../lib/page-loader.server';

export function meta() {
  return [{ title: `Órdenes · ${APP_NAME}` }];
}

type QueueFilters = { status: QueueStatus; category: string; q: string; dispatch: QueueDispatch };

/** Rendered on the server with its data (docs/decisions/0016); navigations load it in the browser. */
export async function loader({ request }: Route.LoaderArgs) {
  return adminPage(request, () => queuePage(request), 'orders');
}

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  await staffClientGuard('orders');
  return queuePage(request);
}

/** The queue for the filters in the URL, and the refills waiting for an admin. */
async function queuePage(request: Request) {
  const params = new URL(request.url).searchParams;
  const category = params.get('category') ?? '';
  const filters: QueueFilters = {
    status: queueStatusFrom(params.get('status')),
    category: CategorySlugSchema.safeParse(category).success ? category : '',
    q: (params.get('q') ?? '').trim(),
    dispatch: queueDispatchFrom(params.get('dispatch')),
  };
  // The refills waiting for an admin load beside the queue; a failure only hides that list.
  const refills = listPendingRefills().catch((err: unknown) => {
    console.error('No se pudieron leer las reposiciones:', err);
    return null;
  });
  const snippets = loadSnippets();
  try {
    return {
      filters,
      // Ages are counted from here: the same instant on the server and while the page hydrates.
      loadedAt: Date.now(),
      queue: await listQueue(filters.status, filters.category, filters.q, null, filters.dispatch),
      refills: await refills,
      snippets: await snippets,
      error: null,
    };
  } catch (err) {
    console.error('No se pudo leer la cola de órdenes:', err);
    return {
      filters,
      loadedAt: Date.now(),
      queue: null,
      refills: await refills,
      snippets: await snippets,
      error: err instanceof ApiError ? err.message : 'No pudimos cargar las órdenes.',
    };
  }
}

const FIELD_OF: Record<string, string> = {
  complete: 'result',
  reject: 'reason',
  'confirm-dispatch': 'reference',
  'replace-item': 'note',
};

export async function clientAction({
  request,
}: Route.ClientActionArgs): Promise<
  QueueActionResult | BulkCompleteActionResult | RefillActionResult | BulkActionActionResult
> {
  const form = await request.formData();
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value : '';
  };
  const intent = text('intent');
  if (intent === 'save-snippet') {
    const kind = text('kind') === 'result_template' ? 'result_template' : 'reject_reason';
    const body = text('body').trim();
    try {
      const saved = await saveSnippet(kind, body.slice(0, 40), body);
      return {
        intent: 'bulk',
        ok: false,
        saved: true,
        message: `Guardado: «${saved.title}». Lo verás en la lista al recargar la cola.`,
      };
    } catch (err) {
      if (err instanceof ApiError)
        return {
          intent: 'bulk',
          ok: false,
          field: kind === 'reject_reason' ? 'reason' : 'result',
          message: err.fields.body ?? err.message,
        };
      throw err;
    }
  }
  if (intent === 'bulk') {
    const action = text('action') as BulkOrderAction;
    const ids = text('ids').split(',').filter(Boolean);
    if (!BULK_ORDER_ACTIONS.includes(action) || ids.length === 0)
      return { intent, ok: false, message: 'Elige al menos una orden.' };
    const reason = text('reason').trim();
    const result = text('result').trim();
    if (action === 'reject' && reason.length < 3)
      return {
        intent,
        ok: false,
        field: 'reason',
        message: 'Escribe el motivo (al menos 3 caracteres).',
      };
    if (action === 'complete' && !result)
      return { intent, ok: false, field: 'result', message: 'Escribe el resultado.' };
    try {
      return {
        intent,
        ok: true,
        action,
        result: await bulkOrders(
          action,
          ids,
          action === 'reject' ? { reason } : action === 'complete' ? { result } : {},
        ),
      };
    } catch (err) {
      if (err instanceof ApiError) return { intent, ok: false, message: err.message };
      throw err;
    }
  }
  if (intent === 'bulk-complete') {
    const submitted = text('text');
    if (!submitted.trim())
      return { intent, ok: false, message: 'Pega los resultados, uno por línea.' };
    try {
      return { intent, ok: true, submitted, result: await bulkCompleteOrders(submitted) };
    } catch (err) {
      if (err instanceof ApiError)
        return { intent, ok: false, message: err.fields.text ?? err.message };
      throw err;
    }
  }
  const id = text('id');
  if (intent === 'refill-complete' || intent === 'refill-reject') {
    const reason = text('reason').trim();
    if (intent === 'refill-reject' && reason.length < 3)
      return { refillId: id, ok: false, message: 'Escribe el motivo (al menos 3 caracteres).' };
    try {
      const note = text('note').trim();
      const refill =
        intent === 'refill-complete'
          ? await finishRefill(id, 'complete', note ? { note } : {})
          : await finishRefill(id, 'reject', { reason });
      return {
        refillId: id,
        ok: true,
        message:
          refill.status === 'completed'
            ? `Reposición n.º ${refill.number} hecha: lo verá el cliente en su orden.`
            : `Reposición n.º ${refill.number} rechazada.`,
      };
    } catch (err) {
      if (err instanceof ApiError) return { refillId: id, ok: false, message: err.message };
      throw err;
    }
  }
  try {
    if (intent === 'take') {
      const order = await adminOrderAction(id, 'take');
      return { id, ok: true, order, message: `Tomaste la orden #${order.number}.` };
    }
    if (intent === 'complete') {
      const result = text('result').trim();
      if (!result) return { id, ok: false, field: 'result', message: 'Escribe el resultado.' };
      const cost = text('cost').trim().replace(',', '.');
      const order = await adminOrderAction(id, 'complete', cost ? { result, cost } : { result });
      return {
        id,
        ok: true,
        order,
        message: `Orden #${order.number} completada. Avisamos al cliente por correo.`,
      };
    }
    if (intent === 'reject') {
      const reason = text('reason').trim();
      if (reason.length < 3)
        return {
          id,
          ok: false,
          field: 'reason',
          message: 'Escribe el motivo (al menos 3 caracteres).',
        };
      const order = await adminOrderAction(id, 'reject', { reason });
      return {
        id,
        ok: true,
        order,
        message: `Orden #${order.number} rechazada. Devolvimos el importe al cliente.`,
      };
    }
    if (intent === 'confirm-dispatch') {
      const reference = text('reference').trim();
      if (!reference)
        return {
          id,
          ok: false,
          field: 'reference',
          message: 'Escribe la referencia del proveedor.',
        };
      const order = await confirmDispatch(id, reference);
      return {
        id,
        ok: true,
        order,
        message: `Orden #${order.number}: la seguimos con la referencia ${reference}${
          order.dispatch?.supplierName ? ` de ${order.dispatch.supplierName}` : ''
        }.`,
      };
    }
    if (intent === 'replace-item') {
      const note = text('note').trim();
      const order = await replaceStockItem(id, note || undefined);
      return {
        id,
        ok: true,
        order,
        message: `Orden #${order.number}: artículo reemplazado por otro del stock. El anterior quedó marcado como defectuoso; el cliente ya ve el nuevo.`,
      };
    }
    if (intent === 'resend-dispatch') {
      const order = await resendDispatch(id);
      return {
        id,
        ok: true,
        order,
        message: `Orden #${order.number}: vuelve a la cola y se envía de nuevo al proveedor.`,
      };
    }
  } catch (err) {
    if (err instanceof ApiError) {
      const field = Object.keys(err.fields)[0];
      return {
        id,
        ok: false,
        message: field ? (err.fields[field] ?? err.message) : err.message,
        ...(field && FIELD_OF[intent] === field ? { field } : {}),
      };
    }
    throw err;
  }
  return { id, ok: false, message: 'Acción desconocida.' };
}

/** A row action keeps the list as it is (the row shows the new state and its message). */
export function shouldRevalidate({
  formData,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  // Row actions update their own row; bulk actions change the queue, so it reloads.
  const intent = formData?.get('intent');
  if (intent && intent !== 'bulk-complete' && intent !== 'bulk' && intent !== 'save-snippet')
    return false;
  return defaultShouldRevalidate;
}

/** The list's title and the filter's choices, in the plural. */
const QUEUE_TITLES: Record<QueueStatus, string> = {
  '': 'En curso',
  pending: 'Pendientes',
  processing: 'En proceso',
  completed: 'Completadas',
  rejected: 'Rechazadas',
  cancelled: 'Canceladas',
  partial: 'Parciales',
  todas: 'Todas las órdenes',
};
const QUEUE_STATUS_OPTIONS = [
  { value: '', label: 'Todas en curso' },
  ...ORDER_STATUSES.map((s) => ({ value: s, label: QUEUE_TITLES[s] })),
  { value: 'todas', label: 'Todas' },
];
const CATEGORY_OPTIONS = CATEGORIES.map((c) => ({ value: c.slug, label: c.label }));
/** The forwarding filter: the review queue first, then every other state of a dispatch. */
const DISPATCH_OPTIONS = [
  { value: 'review', label: DISPATCH_STATE_LABELS.review },
  ...DISPATCH_STATES.filter((s) => s !== 'review').map((s) => ({
    value: s,
    label: DISPATCH_STATE_LABELS[s],
  })),
];

function listTitle(filters: QueueFilters): string {
  if (filters.dispatch === 'review') return 'Revisar';
  if (filters.dispatch)
    return `${QUEUE_TITLES[filters.status]} · ${DISPATCH_STATE_LABELS[filters.dispatch]}`;
  return QUEUE_TITLES[filters.status];
}

/** The dense table's column names (desktop); a phone shows each order as a compact card. */
const COLUMNS = [
  '',
  'N.º',
  'Cliente',
  'Servicio',
  'IMEI / dato',
  'Precio',
  'Edad',
  'Estado',
  'Envío',
];

function QueueList({
  first,
  filters,
  snippets,
  loadedAt,
}: {
  first: AdminOrderPage;
  filters: QueueFilters;
  snippets: SnippetDto[];
  loadedAt: number;
}) {
  const pages = useMorePages(
    first,
    (cursor) => listQueue(filters.status, filters.category, filters.q, cursor, filters.dispatch),
    'No pudimos cargar más órdenes.',
  );
  const { items } = pages;
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [focus, setFocus] = useState(0);
  // Ages are counted from the moment the list was loaded (the same on the server and while the
  // page hydrates), then move on once a minute.
  const [now, setNow] = useState(loadedAt);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  const clear = useCallback(() => setSelected(new Set()), []);
  const chosen = items.filter((o) => selected.has(o.id));

  function toggle(id: string, on: boolean) {
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }

  /** Keys on a row's checkbox: move between rows, select, open the row's buttons. */
  function onRowKey(index: number, e: KeyboardEvent<HTMLInputElement>) {
    // Space already toggles a checkbox.
    if (e.key === ' ') return;
    const action = rowKeyAction(e.key, { ctrl: e.ctrlKey, meta: e.metaKey, alt: e.altKey });
    if (!action) return;
    e.preventDefault();
    const row = e.currentTarget.closest<HTMLElement>('[data-queue-row]');
    if ('move' in action) {
      const to = movedIndex(index, action.move, items.length);
      setFocus(to);
      const boxes = row?.parentElement?.querySelectorAll<HTMLElement>(
        '[data-queue-row] input[type="checkbox"]',
      );
      boxes?.[to]?.focus();
    } else if ('toggle' in action) {
      const order = items[index];
      if (order) toggle(order.id, !selected.has(order.id));
    } else {
      row?.querySelector<HTMLElement>('button, a')?.focus();
    }
  }

  // Kept when the list empties: the outcome of the last bulk action stays on screen.
  const bulkBar = (
    <BulkBar
      ids={chosen.map((o) => o.id)}
      numbers={chosen.map((o) => o.number)}
      onClear={clear}
      reasons={snippets.filter((x) => x.kind === 'reject_reason')}
      templates={snippets.filter((x) => x.kind === 'result_template')}
    />
  );
  if (items.length === 0)
    return (
      <div className="flex flex-col gap-2">
        {bulkBar}
        <p className="text-slate-700" role="status">
          {filters.dispatch === 'review'
            ? 'No hay órdenes que revisar: todos los envíos a proveedores van bien.'
            : filters.status === '' && !filters.dispatch
              ? `No hay órdenes en curso${filters.category || filters.q ? ' con esos filtros' : ''}.`
              : 'Ninguna orden coincide con los filtros.'}
        </p>
      </div>
    );
  const allSelected = chosen.length === items.length;
  return (
    <div className="flex flex-col gap-2">
      {bulkBar}
      <div className="flex items-center gap-3 border-b border-slate-200 px-1 pb-1 text-xs font-semibold text-slate-600 lg:grid lg:grid-cols-[1.5rem_4rem_minmax(0,1.1fr)_minmax(0,1.4fr)_9.5rem_4.5rem_3.5rem_6.5rem_minmax(0,1fr)_auto] lg:gap-x-3">
        <input
          type="checkbox"
          className="size-5 accent-brand-600 lg:size-4"
          checked={allSelected}
          onChange={() => setSelected(allSelected ? new Set() : new Set(items.map((o) => o.id)))}
          aria-label="Seleccionar todas las órdenes de la lista"
        />
        <span className="lg:hidden">Seleccionar todas</span>
        {COLUMNS.slice(1).map((c) => (
          <span key={c} className="hidden lg:block" aria-hidden="true">
            {c}
          </span>
        ))}
      </div>
      <ul className="divide-y divide-slate-100" data-testid="queue" aria-label="Órdenes">
        {items.map((o, i) => (
          <QueueRow
            key={o.id}
            order={o}
            selected={selected.has(o.id)}
            onSelect={(on) => toggle(o.id, on)}
            current={i === Math.min(focus, items.length - 1)}
            onFocusRow={() => setFocus(i)}
            onRowKey={(e) => onRowKey(i, e)}
            now={now}
          />
        ))}
      </ul>
      <LoadMore pages={pages} />
    </div>
  );
}

export default function AdminOrdenes() {
  const { filters, queue, refills, snippets, error, loadedAt } =
    useLoaderData<typeof clientLoader>();
  const revalidator = useRevalidator();
  const key = new URLSearchParams({ ...filters }).toString();
  return (
    <>
      <PageTitle
        dense
        title="Órdenes"
        subtitle="Tómalas, complétalas con su resultado o recházalas. «Envío: Revisar» muestra las que un proveedor dejó en duda."
      />
      <div className="flex flex-col gap-6">
        <Card className="p-3 sm:p-4 lg:p-3">
          {/* One toolbar above the list (on a desktop, one line): the list gets the screen. */}
          <div className="flex flex-col gap-3 lg:flex-row lg:items-end lg:gap-4">
            <h2 className="text-lg font-semibold text-slate-900 lg:mb-1.5 lg:min-w-32">
              {listTitle(filters)}
            </h2>
            <Form
              key={key}
              method="get"
              role="search"
              aria-label="Filtrar órdenes"
              className="grid flex-1 gap-3 sm:grid-cols-2 lg:grid-cols-[minmax(0,10rem)_repeat(2,minmax(0,8.5rem))_minmax(10rem,1fr)_auto] lg:items-end lg:gap-2"
            >
              <SelectField
                dense
                label="Estado"
                name="status"
                defaultValue={filters.status}
                options={QUEUE_STATUS_OPTIONS}
              />
              <SelectField
                dense
                label="Categoría"
                name="category"
                defaultValue={filters.category}
                placeholder="Todas"
                options={CATEGORY_OPTIONS}
              />
              <SelectField
                dense
                label="Envío"
                name="dispatch"
                defaultValue={filters.dispatch}
                placeholder="Todos"
                options={DISPATCH_OPTIONS}
              />
              <TextField
                dense
                label="Número de orden o IMEI"
                name="q"
                type="search"
                defaultValue={filters.q}
                autoComplete="off"
              />
              <div className="flex flex-wrap gap-2 sm:col-span-2 lg:col-span-1 lg:flex-nowrap lg:gap-1">
                <Button type="submit" className="lg:min-h-9 lg:py-1.5">
                  Aplicar
                </Button>
                <Link
                  to="/admin/ordenes"
                  className={buttonClass('secondary', 'lg:min-h-9 lg:py-1.5')}
                >
                  Limpiar
                </Link>
                <Button
                  variant="ghost"
                  className="lg:min-h-9 lg:py-1.5"
                  onClick={() => void revalidator.revalidate()}
                  disabled={revalidator.state !== 'idle'}
                >
                  {revalidator.state !== 'idle' ? 'Actualizando…' : 'Actualizar'}
                </Button>
              </div>
            </Form>
          </div>
          <div className="mt-3">
            {queue ? (
              <QueueList
                key={key}
                first={queue}
                filters={filters}
                snippets={snippets}
                loadedAt={loadedAt}
              />
            ) : (
              <Alert tone="error">{error}</Alert>
            )}
          </div>
        </Card>
        {refills && refills.length > 0 ? (
          <Card className="p-4 sm:p-6">
            <h2 className="text-lg font-semibold text-slate-900">Reposiciones pendientes</h2>
            <p className="mt-1 mb-3 text-sm text-slate-600">
              Clientes que pidieron reponer una orden completada de un servicio con reposición.
            </p>
            <RefillQueue refills={refills} />
          </Card>
        ) : null}
        <Card className="p-4 sm:p-6">
          <h2 className="text-lg font-semibold text-slate-900">Completar en bloque</h2>
          <p className="mt-1 mb-3 text-sm text-slate-600">
            Pega los resultados que te devolvió el proveedor: cada línea se completa por separado y
            las que no se puedan completar no cambian nada.
          </p>
          <BulkComplete />
        </Card>
      </div>
    </>
  );
}

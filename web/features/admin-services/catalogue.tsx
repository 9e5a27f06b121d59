import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useFetcher } from 'react-router';
import { CATEGORIES, type CategorySlug } from '../../../shared/categories';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { CheckboxField, SelectField, TextField } from '../../components/ui/field';
import { Section } from '../../components/ui/section';
import type { Loaded } from '../../lib/loaded';
import { loadServiceHistory } from './actions';
import { CATEGORY_OPTIONS, categoryLabel, deliveryCell, moveId, unitLabel } from './draft';
import { formatUsd } from '../../../shared/money';
import { StepButton } from './field-editor';
import { routesCells, routesSummary, type SupplierChoice } from './routes-draft';
import { RoutesEditor } from './routes-editor';
import { ServiceForm } from './service-form';
import { ServiceHistory, type HistoryRequest } from './service-history';
import type { StockSummary } from '../../../shared/schemas/stock';
import { StockBadge } from './stock-badge';
import { StockPanel } from './stock-panel';
import {
  FETCHER_KEYS,
  routesFetcherKey,
  type AdminService,
  type Direction,
  type ServicesActionResult,
  type ServicesPayload,
} from './types';

type Notice = { id: string; tone: 'success' | 'error'; text: string };
/** Which element gets the focus back after a form closes (n makes each request new). */
type FocusRequest = { target: string; n: number };

const JSON_POST = { method: 'post', encType: 'application/json' } as const;

/**
 * Watches a shared fetcher and calls `onSettled` once per answer, during render (the React way
 * to adjust state to a change, without an effect).
 */
function useSettled(key: string, onSettled: (result: ServicesActionResult) => void) {
  const fetcher = useFetcher<ServicesActionResult>({ key });
  const [seen, setSeen] = useState(fetcher.data);
  if (fetcher.state === 'idle' && fetcher.data !== seen) {
    setSeen(fetcher.data);
    if (fetcher.data) onSettled(fetcher.data);
  }
  return fetcher;
}

/** The list grouped by category, its filters, "Nuevo servicio", and the row actions. */
export function ServiceCatalogue({
  services,
  suppliers,
  stock,
}: {
  services: AdminService[];
  /** The stock of each stock service, by id. */
  stock: Record<string, Loaded<StockSummary>>;
  /** What the routes editor offers (loaded with the page; it may fail on its own). */
  suppliers: Loaded<SupplierChoice[]>;
}) {
  const [category, setCategory] = useState<CategorySlug | ''>('');
  const [query, setQuery] = useState('');
  const [supplier, setSupplier] = useState('');
  const [selected, setSelected] = useState<string[]>([]);
  const [creating, setCreating] = useState(false);
  const [createNotice, setCreateNotice] = useState<string | null>(null);
  const [editingId, setEditingId] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [focus, setFocus] = useState<FocusRequest | null>(null);
  const newButton = useRef<HTMLDivElement>(null);

  function returnFocus(target: string) {
    setFocus((f) => ({ target, n: (f?.n ?? 0) + 1 }));
  }

  useSettled(FETCHER_KEYS.create, (result) => {
    if (!result.ok) return;
    setCreating(false);
    setCreateNotice(result.message ?? null);
    returnFocus('new');
  });
  useSettled(FETCHER_KEYS.edit, (result) => {
    if (!result.ok || !result.id) return;
    setEditingId(null);
    setNotice({ id: result.id, tone: 'success', text: result.message ?? '' });
    returnFocus(result.id);
  });
  useSettled(FETCHER_KEYS.row, (result) => {
    if (!result.id) return;
    setNotice({
      id: result.id,
      tone: result.ok ? 'success' : 'error',
      text: (result.ok ? result.message : result.formError) ?? '',
    });
  });

  useEffect(() => {
    if (focus?.target === 'new') newButton.current?.querySelector('button')?.focus();
  }, [focus]);

  const q = query.trim().toLocaleLowerCase('es');
  const bySupplier = (s: AdminService) =>
    !supplier ||
    (supplier === 'none' ? s.routes.length === 0 : s.routes.some((r) => r.supplierId === supplier));
  const groups = CATEGORIES.filter((c) => !category || c.slug === category).map((c) => {
    const all = services.filter((s) => s.category === c.slug);
    const items = all.filter(
      (s) => (!q || s.name.toLocaleLowerCase('es').includes(q)) && bySupplier(s),
    );
    return { ...c, all, items };
  });
  const shown = q || supplier ? groups.filter((g) => g.items.length > 0) : groups;
  const visibleIds = shown.flatMap((g) => g.items.map((s) => s.id));
  const supplierOptions = [
    ...new Map(
      services.flatMap((s) => s.routes.map((r) => [r.supplierId, r.supplierName] as const)),
    ),
  ]
    .map(([value, label]) => ({ value, label }))
    .sort((a, b) => a.label.localeCompare(b.label, 'es'));
  supplierOptions.push({ value: 'none', label: 'Sin proveedor (a mano)' });
  const bulk = useSettled(FETCHER_KEYS.bulkActive, (result) => {
    if (result.ok) setSelected([]);
  });
  const bulkResult = bulk.state === 'idle' ? bulk.data : undefined;

  const allChecked = visibleIds.length > 0 && visibleIds.every((id) => selected.includes(id));

  function check(id: string, on: boolean) {
    setSelected((ids) => (on ? [...ids, id] : ids.filter((i) => i !== id)));
  }

  return (
    <Section
      id="catalogo"
      title="Catálogo"
      description="Todos los servicios, activos e inactivos, en el orden en que los ven los clientes dentro de cada categoría."
    >
      <div className="flex flex-col gap-4">
        <div ref={newButton}>
          <Button
            aria-expanded={creating}
            onClick={() => {
              setCreateNotice(null);
              setCreating((v) => !v);
            }}
          >
            Nuevo servicio
          </Button>
        </div>
        <div aria-live="polite">
          {createNotice && !creating ? <Alert tone="success">{createNotice}</Alert> : null}
        </div>
        {creating ? (
          <section
            aria-labelledby="nuevo-servicio"
            className="rounded-xl border border-slate-200 bg-slate-50 p-3 sm:p-4"
          >
            <h3 id="nuevo-servicio" className="mb-3 text-base font-semibold text-slate-900">
              Nuevo servicio
            </h3>
            <ServiceForm
              fetcherKey={FETCHER_KEYS.create}
              defaultCategory={category}
              onCancel={() => {
                setCreating(false);
                returnFocus('new');
              }}
            />
          </section>
        ) : null}

        <div
          role="search"
          aria-label="Filtrar servicios"
          className="grid gap-3 border-t border-slate-200 pt-4 sm:grid-cols-3"
        >
          <SelectField
            label="Categoría"
            value={category}
            placeholder="Todas"
            options={CATEGORY_OPTIONS}
            onChange={(e) => setCategory(e.target.value as CategorySlug | '')}
          />
          <SelectField
            label="Proveedor"
            value={supplier}
            placeholder="Todos"
            options={supplierOptions}
            onChange={(e) => setSupplier(e.target.value)}
          />
          <TextField
            label="Buscar por nombre"
            type="search"
            value={query}
            autoComplete="off"
            onChange={(e) => setQuery(e.target.value)}
          />
        </div>

        <div
          role="group"
          aria-label="Acciones en bloque"
          className="flex flex-wrap items-center gap-2 rounded-xl bg-slate-50 p-2"
        >
          {/* Below lg the table's header (with its own «select all») is not shown. */}
          <div className="lg:hidden">
            <CheckboxField
              label={selectedLabel(selected.length, 'Seleccionar los que se ven')}
              checked={allChecked}
              onChange={(e) => setSelected(e.target.checked ? visibleIds : [])}
            />
          </div>
          <p className="px-2 py-1 text-sm font-medium text-slate-800 max-lg:hidden">
            {selectedLabel(selected.length, 'Marca servicios en la tabla para cambiarlos juntos.')}
          </p>
          {selected.length > 0 ? (
            <>
              <Button
                variant="secondary"
                className={DENSE}
                disabled={bulk.state !== 'idle'}
                onClick={() =>
                  void bulk.submit(
                    { intent: 'bulk-active', ids: selected, active: true },
                    JSON_POST,
                  )
                }
              >
                Activar
              </Button>
              <Button
                variant="secondary"
                className={DENSE}
                disabled={bulk.state !== 'idle'}
                onClick={() =>
                  void bulk.submit(
                    { intent: 'bulk-active', ids: selected, active: false },
                    JSON_POST,
                  )
                }
              >
                Desactivar
              </Button>
              <Button variant="ghost" className={DENSE} onClick={() => setSelected([])}>
                Quitar selección
              </Button>
            </>
          ) : null}
        </div>
        <div aria-live="polite">
          {bulkResult?.ok ? <Alert tone="success">{bulkResult.message}</Alert> : null}
        </div>
        {bulkResult && !bulkResult.ok ? <Alert tone="error">{bulkResult.formError}</Alert> : null}

        {shown.length === 0 ? (
          <p className="text-slate-600" role="status">
            Ningún servicio coincide con la búsqueda.
          </p>
        ) : (
          <table
            className="w-full border-collapse text-left text-sm max-lg:block"
            data-testid="service-table"
          >
            <caption className="sr-only">
              Servicios del catálogo por categoría, en el orden en que los ven los clientes.
            </caption>
            <thead className="border-b border-slate-300 text-xs text-slate-600 max-lg:hidden">
              <tr>
                <th scope="col" className={`${HEAD} w-8`}>
                  <SelectAll
                    checked={allChecked}
                    some={selected.length > 0}
                    onChange={(on) => setSelected(on ? visibleIds : [])}
                  />
                </th>
                <th scope="col" className={HEAD}>
                  Orden
                </th>
                {/* The name takes the width the other (unwrapped) columns leave. */}
                <th scope="col" className={`${HEAD} w-full`}>
                  Servicio
                </th>
                <th scope="col" className={`${HEAD} hidden xl:table-cell`}>
                  Categoría
                </th>
                <th scope="col" className={HEAD}>
                  Proveedor
                </th>
                <th scope="col" className={`${HEAD} text-right`}>
                  Costo
                </th>
                <th scope="col" className={HEAD}>
                  Precio
                </th>
                <th scope="col" className={HEAD}>
                  Estado
                </th>
                <th scope="col" className={HEAD}>
                  Acciones
                </th>
              </tr>
            </thead>
            {shown.map((group) => (
              <CategoryGroup
                key={group.slug}
                label={group.label}
                slug={group.slug}
                all={group.all}
                items={group.items}
                editingId={editingId}
                notice={notice}
                focus={focus}
                suppliers={suppliers}
                stock={stock}
                selected={selected}
                onCheck={check}
                onEdit={(id) => {
                  setNotice(null);
                  setEditingId(editingId === id ? null : id);
                }}
                onCancelEdit={(id) => {
                  setEditingId(null);
                  returnFocus(id);
                }}
              />
            ))}
          </table>
        )}
      </div>
    </Section>
  );
}

/** How many columns the table has (a full-width cell spans them all). */
const COLUMNS = 9;
/** Header cells and body cells: dense on a desktop, stacked in a card below lg. */
const HEAD = 'px-1.5 py-2 font-semibold whitespace-nowrap';
const CELL = 'max-lg:block lg:px-1.5 lg:py-1 lg:align-middle';
/** Buttons of the table: the usual touch size on a phone, 28 px high on a desktop. */
const DENSE = 'lg:min-h-0 lg:h-7 lg:px-2 lg:py-0 lg:text-xs';

function selectedLabel(count: number, none: string): string {
  return count === 0 ? none : count === 1 ? '1 seleccionado' : `${count} seleccionados`;
}

/** The header's checkbox: all the services shown, some of them (mixed), or none. */
function SelectAll({
  checked,
  some,
  onChange,
}: {
  checked: boolean;
  some: boolean;
  onChange: (on: boolean) => void;
}) {
  const box = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (box.current) box.current.indeterminate = some && !checked;
  }, [some, checked]);
  return (
    <input
      ref={box}
      type="checkbox"
      className="size-4 accent-brand-600"
      aria-label="Seleccionar todos los que se ven"
      checked={checked}
      onChange={(e) => onChange(e.target.checked)}
    />
  );
}

function CategoryGroup({
  label,
  slug,
  all,
  items,
  editingId,
  notice,
  focus,
  suppliers,
  stock,
  selected,
  onCheck,
  onEdit,
  onCancelEdit,
}: {
  label: string;
  slug: CategorySlug;
  all: AdminService[];
  items: AdminService[];
  editingId: string | null;
  notice: Notice | null;
  focus: FocusRequest | null;
  suppliers: Loaded<SupplierChoice[]>;
  stock: Record<string, Loaded<StockSummary>>;
  selected: string[];
  onCheck: (id: string, on: boolean) => void;
  onEdit: (id: string) => void;
  onCancelEdit: (id: string) => void;
}) {
  const headingId = `categoria-${slug}`;
  const mover = useFetcher<ServicesActionResult>({ key: FETCHER_KEYS.row });
  const [dragged, setDragged] = useState<string | null>(null);
  /** A pointer drop: the dragged service takes the place of the one it was dropped on. */
  function drop(targetId: string) {
    const from = ids.indexOf(dragged ?? '');
    const to = ids.indexOf(targetId);
    setDragged(null);
    const service = all[from];
    if (from < 0 || to < 0 || from === to || !service || mover.state !== 'idle') return;
    const next = ids.filter((id) => id !== service.id);
    next.splice(to, 0, service.id);
    void mover.submit(
      { intent: 'place', id: service.id, name: service.name, ids: next },
      JSON_POST,
    );
  }
  const inactive = all.filter((s) => !s.active).length;
  const ids = all.map((s) => s.id);
  return (
    <tbody data-testid={`categoria-${slug}`} className="max-lg:block">
      <tr className="max-lg:block">
        <td
          colSpan={COLUMNS}
          className="border-y border-slate-200 bg-slate-100 px-2 py-1.5 max-lg:mt-4 max-lg:block max-lg:rounded-t-xl max-lg:border-x"
        >
          <h3 id={headingId} className="text-sm font-semibold text-slate-900">
            {label}{' '}
            <span className="font-normal text-slate-600">
              ({all.length === 1 ? '1 servicio' : `${all.length} servicios`}
              {inactive > 0 ? `, ${inactive === 1 ? '1 inactivo' : `${inactive} inactivos`}` : ''})
            </span>
          </h3>
        </td>
      </tr>
      {items.length === 0 ? (
        <tr className="max-lg:block">
          <td
            colSpan={COLUMNS}
            className="px-2 py-2 text-sm text-slate-600 max-lg:block max-lg:rounded-b-xl max-lg:border max-lg:border-t-0 max-lg:border-slate-200"
          >
            Sin servicios en esta categoría.
          </td>
        </tr>
      ) : (
        items.map((s) => (
          <ServiceRow
            key={s.id}
            service={s}
            ids={ids}
            editing={editingId === s.id}
            notice={notice?.id === s.id ? notice : null}
            focusNonce={focus?.target === s.id ? focus.n : 0}
            suppliers={suppliers}
            stock={stock[s.id]}
            checked={selected.includes(s.id)}
            onCheck={(on) => onCheck(s.id, on)}
            dragging={dragged === s.id}
            dragActive={dragged !== null}
            onDragStart={() => setDragged(s.id)}
            onDragEnd={() => setDragged(null)}
            onDrop={() => drop(s.id)}
            onEdit={() => onEdit(s.id)}
            onCancelEdit={() => onCancelEdit(s.id)}
          />
        ))
      )}
    </tbody>
  );
}

/** One service: its row, and below it (when open) its edit form, routes editor or history. */
function ServiceRow({
  service,
  ids,
  editing,
  notice,
  focusNonce,
  suppliers,
  stock,
  checked,
  onCheck,
  dragging,
  dragActive,
  onDragStart,
  onDragEnd,
  onDrop,
  onEdit,
  onCancelEdit,
}: {
  service: AdminService;
  /** Every id of the service's category, in order: what POST /reorder receives, changed. */
  ids: string[];
  editing: boolean;
  notice: Notice | null;
  focusNonce: number;
  suppliers: Loaded<SupplierChoice[]>;
  /** Its stock (stock services only; undefined until the page has read it). */
  stock: Loaded<StockSummary> | undefined;
  checked: boolean;
  onCheck: (on: boolean) => void;
  dragging: boolean;
  /** A row of this category is being dragged: this one accepts the drop. */
  dragActive: boolean;
  onDragStart: () => void;
  onDragEnd: () => void;
  onDrop: () => void;
  onEdit: () => void;
  onCancelEdit: () => void;
}) {
  const fetcher = useFetcher<ServicesActionResult>({ key: FETCHER_KEYS.row });
  const [history, setHistory] = useState<HistoryRequest | null>(null);
  const [stockOpen, setStockOpen] = useState(false);
  const fromStock = service.delivery === 'stock';
  if (stockOpen && !fromStock) setStockOpen(false);
  const [routesOpen, setRoutesOpen] = useState(false);
  const [routesNotice, setRoutesNotice] = useState<string | null>(null);
  const [routesSaved, setRoutesSaved] = useState(0);
  const row = useRef<HTMLTableRowElement>(null);
  useSettled(routesFetcherKey(service.id), (result) => {
    if (!result.ok) return;
    setRoutesOpen(false);
    setRoutesNotice(result.message ?? null);
    setRoutesSaved((n) => n + 1);
  });

  function focusRoutesButton() {
    row.current?.querySelector<HTMLButtonElement>('button[data-action="routes"]')?.focus();
  }

  // After a save closes the editor, the focus goes back to its button.
  useEffect(() => {
    if (routesSaved > 0) focusRoutesButton();
  }, [routesSaved]);
  const nameId = useId();
  const busy = fetcher.state !== 'idle';
  const pending = busy ? (fetcher.json as ServicesPayload | undefined) : undefined;
  const mine = pending && 'id' in pending && pending.id === service.id ? pending : undefined;
  const active = mine?.intent === 'toggle' ? mine.active : service.active;
  const position = ids.indexOf(service.id);
  const cells = routesCells(service);
  const missing = service.routes.some((r) => r.missing);

  useEffect(() => {
    if (focusNonce > 0)
      row.current?.querySelector<HTMLButtonElement>('button[data-action="edit"]')?.focus();
  }, [focusNonce]);

  function send(payload: ServicesPayload) {
    if (!busy) void fetcher.submit(payload, JSON_POST);
  }

  function move(direction: Direction) {
    const next = moveId(ids, service.id, direction);
    if (next) send({ intent: 'move', id: service.id, name: service.name, direction, ids: next });
  }

  const name = <span className="sr-only"> {service.name}</span>;
  const open = editing || routesOpen || history !== null || stockOpen;
  return (
    <>
      <tr
        ref={row}
        aria-labelledby={nameId}
        data-testid="service-row"
        onDragOver={(e) => {
          if (dragActive) e.preventDefault();
        }}
        onDrop={(e) => {
          e.preventDefault();
          onDrop();
        }}
        className={`border-b border-slate-200 max-lg:flex max-lg:flex-wrap max-lg:items-start max-lg:gap-x-3 max-lg:gap-y-2 max-lg:border-x max-lg:p-3 ${
          checked ? 'bg-brand-50' : 'lg:hover:bg-slate-50'
        } ${dragging ? 'opacity-50' : ''}`}
      >
        <td className={`${CELL} max-lg:order-1`}>
          <input
            type="checkbox"
            className="block size-5 accent-brand-600 max-lg:mt-0.5 lg:size-4"
            aria-label={`Seleccionar ${service.name}`}
            checked={checked}
            onChange={(e) => onCheck(e.target.checked)}
          />
        </td>
        <td className={`${CELL} whitespace-nowrap max-lg:order-8`}>
          <span className="flex items-center gap-1">
            {/* Pointer users drag the row by its handle; Subir and Bajar do the same by keyboard. */}
            <span
              aria-hidden="true"
              draggable
              title="Arrastra para cambiar el orden"
              className="cursor-grab px-0.5 text-base leading-none text-slate-400 select-none hover:text-slate-700 max-lg:hidden"
              onDragStart={(e) => {
                e.dataTransfer.effectAllowed = 'move';
                e.dataTransfer.setData('text/plain', service.id);
                if (row.current) e.dataTransfer.setDragImage(row.current, 16, 16);
                onDragStart();
              }}
              onDragEnd={onDragEnd}
            >
              ⠿
            </span>
            <StepButton
              can={!busy && position > 0}
              onAct={() => move('up')}
              title="Subir"
              className={`${DENSE} max-lg:w-11 max-lg:px-0 lg:w-6 lg:px-0`}
            >
              <span aria-hidden="true">↑</span>
              <span className="sr-only">Subir {service.name}</span>
            </StepButton>
            <StepButton
              can={!busy && position < ids.length - 1}
              onAct={() => move('down')}
              title="Bajar"
              className={`${DENSE} max-lg:w-11 max-lg:px-0 lg:w-6 lg:px-0`}
            >
              <span aria-hidden="true">↓</span>
              <span className="sr-only">Bajar {service.name}</span>
            </StepButton>
          </span>
        </td>
        <td
          className={`${CELL} max-lg:order-2 max-lg:min-w-0 max-lg:grow max-lg:basis-[calc(100%-2rem)]`}
        >
          <span
            id={nameId}
            className="font-semibold break-words text-slate-900"
            data-testid="service-name"
          >
            {service.name}
          </span>
          <StockBadge service={service} available={stock?.ok ? stock.data.available : undefined} />
          {service.needsTranslation ? (
            <span
              className="ml-1.5 inline-flex items-center rounded-full bg-amber-100 px-2 py-px text-xs font-semibold text-amber-900"
              title="El nombre, la descripción o el tiempo de entrega tienen palabras en inglés: edítalos en español."
              data-testid="service-needs-translation"
            >
              Por traducir
            </span>
          ) : null}
          <span className="ml-1.5 text-xs text-slate-600 max-lg:block max-lg:ml-0">
            <span className="max-lg:hidden">· </span>Entrega: {service.deliveryTime}
            {service.unit === '1000' && service.minQuantity && service.maxQuantity
              ? ` · De ${service.minQuantity} a ${service.maxQuantity} unidades`
              : ''}
          </span>
          <span aria-live="polite" className="block empty:hidden">
            {notice?.tone === 'success' ? <RowNotice>{notice.text}</RowNotice> : null}
            {routesNotice && !routesOpen ? <RowNotice>{routesNotice}</RowNotice> : null}
          </span>
          {notice?.tone === 'error' ? (
            <span role="alert" className="mt-1 block text-xs font-medium text-red-700">
              {notice.text}
            </span>
          ) : null}
        </td>
        <td className="hidden px-1.5 py-1 text-xs whitespace-nowrap text-slate-700 xl:table-cell">
          {categoryLabel(service.category)}
        </td>
        <td className={`${CELL} max-lg:order-6 max-lg:basis-full`}>
          <span className="flex items-center gap-1">
            <button
              type="button"
              data-action="routes"
              aria-expanded={routesOpen}
              title={routesSummary(service)}
              className={`min-h-11 min-w-0 rounded-md text-left text-sm break-words underline decoration-dotted underline-offset-2 hover:bg-slate-100 lg:min-h-0 lg:max-w-36 lg:truncate lg:text-xs ${
                routesOpen ? 'font-semibold text-brand-800' : 'text-slate-700'
              }`}
              onClick={() => {
                setRoutesNotice(null);
                setRoutesOpen((v) => !v);
              }}
            >
              <span className="lg:hidden">Proveedor: </span>
              <span data-testid="service-routes">{deliveryCell(service, cells.supplier)}</span>
              <span className="sr-only"> (Proveedores de {service.name})</span>
            </button>
            {missing ? (
              <span
                className="ml-1 text-xs font-medium text-amber-900"
                title="Un proveedor ya no ofrece este servicio"
              >
                <span aria-hidden="true">⚠</span>
                <span className="sr-only">Un proveedor ya no ofrece este servicio</span>
              </span>
            ) : null}
          </span>
        </td>
        <td
          className={`${CELL} text-xs whitespace-nowrap text-slate-700 tabular-nums max-lg:order-5 max-lg:self-center lg:text-right`}
        >
          <span className="lg:hidden">Costo: </span>
          {cells.cost ?? (
            <>
              <span aria-hidden="true">—</span>
              <span className="sr-only">sin costo de proveedor</span>
            </>
          )}
          {cells.margin ? (
            <span className="text-slate-500" title={`Margen del ${cells.margin} sobre el costo`}>
              {' '}
              <span aria-hidden="true">+{cells.margin}</span>
              <span className="sr-only">(margen del {cells.margin})</span>
            </span>
          ) : null}
        </td>
        <td className={`${CELL} whitespace-nowrap max-lg:order-4 max-lg:self-center`}>
          <span className="text-sm text-slate-700 lg:hidden">Precio: </span>
          <InlinePrice
            service={service}
            busy={busy}
            onSave={(price) => send({ intent: 'price', id: service.id, name: service.name, price })}
          />
        </td>
        <td className={`${CELL} whitespace-nowrap max-lg:order-3 max-lg:basis-full`}>
          <span className="flex items-center gap-1.5">
            <span
              className={`inline-flex w-16 justify-center rounded-full px-2 py-px text-xs font-semibold ${
                active ? 'bg-emerald-100 text-emerald-800' : 'bg-slate-200 text-slate-700'
              }`}
            >
              {active ? 'Activo' : 'Inactivo'}
            </span>
            <StepButton
              can={!busy}
              className={DENSE}
              onAct={() =>
                send({
                  intent: 'toggle',
                  id: service.id,
                  name: service.name,
                  active: !service.active,
                })
              }
            >
              {mine?.intent === 'toggle'
                ? active
                  ? 'Activando…'
                  : 'Desactivando…'
                : active
                  ? 'Desactivar'
                  : 'Activar'}
              {name}
            </StepButton>
          </span>
        </td>
        <td className={`${CELL} whitespace-nowrap max-lg:order-9`}>
          <span className="flex items-center gap-1">
            <Button
              variant={editing ? 'primary' : 'secondary'}
              className={`${DENSE} max-lg:px-3`}
              data-action="edit"
              aria-expanded={editing}
              onClick={onEdit}
            >
              {editing ? 'Cerrar' : 'Editar'}
              <span className="sr-only">{editing ? ' edición' : ''}</span>
              {name}
            </Button>
            {fromStock ? (
              <Button
                variant={stockOpen ? 'primary' : 'secondary'}
                className={`${DENSE} max-lg:px-3`}
                aria-expanded={stockOpen}
                data-action="stock"
                onClick={() => setStockOpen((v) => !v)}
              >
                {stockOpen ? 'Ocultar' : 'Stock'}
                <span className="sr-only">{stockOpen ? ' stock' : ''}</span>
                {name}
              </Button>
            ) : null}
            <Button
              variant={history ? 'primary' : 'ghost'}
              className={`${DENSE} max-lg:px-3`}
              aria-expanded={history !== null}
              onClick={() => setHistory(history ? null : loadServiceHistory(service.id))}
            >
              {history ? 'Ocultar' : 'Historial'}
              <span className="sr-only">{history ? ' historial' : ' de cambios'}</span>
              {name}
            </Button>
          </span>
        </td>
      </tr>
      {open ? (
        <tr className="border-b border-slate-200 bg-slate-50 max-lg:block max-lg:border-x">
          <td colSpan={COLUMNS} className="max-lg:block">
            <div className="flex flex-col gap-3 p-3">
              {stockOpen ? (
                <StockPanel serviceId={service.id} serviceName={service.name} stock={stock} />
              ) : null}
              {history ? (
                <ServiceHistory
                  request={history}
                  serviceName={service.name}
                  onReload={() => setHistory(loadServiceHistory(service.id))}
                />
              ) : null}
              {routesOpen ? (
                <section
                  aria-label={`Proveedores de ${service.name}`}
                  className="rounded-xl border border-slate-200 bg-white p-3 sm:p-4"
                >
                  <RoutesEditor
                    service={service}
                    suppliers={suppliers}
                    fetcherKey={routesFetcherKey(service.id)}
                    onCancel={() => {
                      setRoutesOpen(false);
                      focusRoutesButton();
                    }}
                  />
                </section>
              ) : null}
              {editing ? (
                <section
                  aria-label={`Editar ${service.name}`}
                  className="rounded-xl border border-slate-200 bg-white p-3 sm:p-4"
                >
                  <ServiceForm
                    key={service.id}
                    service={service}
                    fetcherKey={FETCHER_KEYS.edit}
                    onCancel={onCancelEdit}
                  />
                </section>
              ) : null}
            </div>
          </td>
        </tr>
      ) : null}
    </>
  );
}

/** A row's short confirmation, under the service's name. */
function RowNotice({ children }: { children: ReactNode }) {
  return (
    <span role="status" className="mt-1 block text-xs font-medium text-emerald-800">
      <span aria-hidden="true">✓ </span>
      {children}
    </span>
  );
}

/**
 * The price in the row: a button that turns into an input. Enter saves (a decimal comma reads
 * as in every amount field), Escape cancels; the focus goes back to the button either way.
 */
function InlinePrice({
  service,
  busy,
  onSave,
}: {
  service: AdminService;
  busy: boolean;
  onSave: (price: string) => void;
}) {
  const [editing, setEditing] = useState(false);
  const [closed, setClosed] = useState(0);
  const button = useRef<HTMLButtonElement>(null);
  const hintId = useId();
  useEffect(() => {
    if (closed > 0) button.current?.focus();
  }, [closed]);
  function close() {
    setEditing(false);
    setClosed((n) => n + 1);
  }
  if (editing)
    return (
      <>
        <input
          aria-label={`Precio de ${service.name}`}
          aria-describedby={hintId}
          defaultValue={service.price.replace('.', ',')}
          inputMode="decimal"
          autoComplete="off"
          // eslint-disable-next-line jsx-a11y/no-autofocus -- opened by the person, on purpose
          autoFocus
          className="min-h-11 w-28 rounded-md border border-slate-400 px-2 py-1 tabular-nums lg:h-7 lg:min-h-0 lg:w-24 lg:py-0"
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.preventDefault();
              close();
            } else if (e.key === 'Enter') {
              e.preventDefault();
              if (!busy) onSave(e.currentTarget.value);
              close();
            }
          }}
          onBlur={() => setEditing(false)}
        />
        <span id={hintId} className="sr-only">
          Intro guarda el precio; Escape lo deja como estaba.
        </span>
      </>
    );
  return (
    <button
      ref={button}
      type="button"
      className="min-h-11 rounded-md underline decoration-dotted underline-offset-2 hover:bg-slate-100 lg:min-h-0"
      onClick={() => setEditing(true)}
    >
      <span className="tabular-nums" data-testid="service-price">
        {formatUsd(service.price)}{' '}
        <span className="text-xs text-slate-600">{unitLabel(service)}</span>
      </span>
      <span className="sr-only"> (cambiar el precio de {service.name})</span>
    </button>
  );
}

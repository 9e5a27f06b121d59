import { useEffect, useId, useRef, useState } from 'react';
import { useFetcher } from 'react-router';
import { CATEGORIES, type CategorySlug } from '../../../shared/categories';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { CheckboxField, SelectField, TextField } from '../../components/ui/field';
import { Section } from '../../components/ui/section';
import type { Loaded } from '../../lib/loaded';
import { loadServiceHistory } from './actions';
import { CATEGORY_OPTIONS, moveId, priceWithUnit } from './draft';
import { StepButton } from './field-editor';
import { routesSummary, type SupplierChoice } from './routes-draft';
import { RoutesEditor } from './routes-editor';
import { ServiceForm } from './service-form';
import { ServiceHistory, type HistoryRequest } from './service-history';
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
}: {
  services: AdminService[];
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
          <CheckboxField
            label={
              selected.length === 0
                ? 'Seleccionar los que se ven'
                : selected.length === 1
                  ? '1 seleccionado'
                  : `${selected.length} seleccionados`
            }
            checked={visibleIds.length > 0 && visibleIds.every((id) => selected.includes(id))}
            onChange={(e) => setSelected(e.target.checked ? visibleIds : [])}
          />
          {selected.length > 0 ? (
            <>
              <Button
                variant="secondary"
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
              <Button variant="ghost" onClick={() => setSelected([])}>
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
          shown.map((group) => (
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
          ))
        )}
      </div>
    </Section>
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
  selected,
  onCheck,
  onEdit,
  onCancelEdit,
}: {
  label: string;
  slug: string;
  all: AdminService[];
  items: AdminService[];
  editingId: string | null;
  notice: Notice | null;
  focus: FocusRequest | null;
  suppliers: Loaded<SupplierChoice[]>;
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
    <section aria-labelledby={headingId} data-testid={`categoria-${slug}`}>
      <h3 id={headingId} className="text-base font-semibold text-slate-900">
        {label}{' '}
        <span className="text-sm font-normal text-slate-600">
          ({all.length === 1 ? '1 servicio' : `${all.length} servicios`}
          {inactive > 0 ? `, ${inactive === 1 ? '1 inactivo' : `${inactive} inactivos`}` : ''})
        </span>
      </h3>
      {items.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">Sin servicios en esta categoría.</p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-200 rounded-xl border border-slate-200">
          {items.map((s) => (
            <ServiceRow
              key={s.id}
              service={s}
              ids={ids}
              editing={editingId === s.id}
              notice={notice?.id === s.id ? notice : null}
              focusNonce={focus?.target === s.id ? focus.n : 0}
              suppliers={suppliers}
              checked={selected.includes(s.id)}
              onCheck={(on) => onCheck(s.id, on)}
              dragging={dragged === s.id}
              onDragStart={() => setDragged(s.id)}
              onDrop={() => drop(s.id)}
              onEdit={() => onEdit(s.id)}
              onCancelEdit={() => onCancelEdit(s.id)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function ServiceRow({
  service,
  ids,
  editing,
  notice,
  focusNonce,
  suppliers,
  checked,
  onCheck,
  dragging,
  onDragStart,
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
  checked: boolean;
  onCheck: (on: boolean) => void;
  dragging: boolean;
  onDragStart: () => void;
  onDrop: () => void;
  onEdit: () => void;
  onCancelEdit: () => void;
}) {
  const fetcher = useFetcher<ServicesActionResult>({ key: FETCHER_KEYS.row });
  const [history, setHistory] = useState<HistoryRequest | null>(null);
  const [routesOpen, setRoutesOpen] = useState(false);
  const [routesNotice, setRoutesNotice] = useState<string | null>(null);
  const [routesSaved, setRoutesSaved] = useState(0);
  const row = useRef<HTMLLIElement>(null);
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
  return (
    <li
      ref={row}
      aria-labelledby={nameId}
      draggable
      onDragStart={(e) => {
        e.dataTransfer.effectAllowed = 'move';
        onDragStart();
      }}
      onDragOver={(e) => e.preventDefault()}
      onDrop={(e) => {
        e.preventDefault();
        onDrop();
      }}
      className={`flex flex-col gap-3 p-3 sm:p-4 ${dragging ? 'opacity-50' : ''}`}
    >
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <input
          type="checkbox"
          className="mt-1 size-5 shrink-0 accent-brand-600"
          aria-label={`Seleccionar ${service.name}`}
          checked={checked}
          onChange={(e) => onCheck(e.target.checked)}
        />
        <div className="min-w-0 flex-1">
          <p id={nameId} className="font-semibold break-words text-slate-900">
            {service.name}
          </p>
          <p className="mt-0.5 text-sm text-slate-700">
            <InlinePrice
              service={service}
              busy={busy}
              onSave={(price) =>
                send({ intent: 'price', id: service.id, name: service.name, price })
              }
            />
            {' · '}Entrega: {service.deliveryTime}
            {service.unit === '1000' && service.minQuantity && service.maxQuantity
              ? ` · De ${service.minQuantity} a ${service.maxQuantity} unidades`
              : ''}
          </p>
          <p className="mt-0.5 text-sm break-words text-slate-600" data-testid="service-routes">
            {routesSummary(service)}
            {service.routes.some((r) => r.missing) ? (
              <span className="font-medium text-amber-900">
                {' '}
                · Un proveedor ya no ofrece este servicio
              </span>
            ) : null}
          </p>
        </div>
        {service.needsTranslation ? (
          <span
            className="inline-flex items-center rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-semibold text-amber-900"
            title="El nombre, la descripción o el tiempo de entrega tienen palabras en inglés: edítalos en español."
            data-testid="service-needs-translation"
          >
            Por traducir
          </span>
        ) : null}
        <span
          className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ${
            active ? 'bg-emerald-100 text-emerald-800' : 'bg-slate-200 text-slate-700'
          }`}
        >
          {active ? 'Activo' : 'Inactivo'}
        </span>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button
          variant={editing ? 'primary' : 'secondary'}
          data-action="edit"
          aria-expanded={editing}
          onClick={onEdit}
        >
          {editing ? 'Cerrar edición' : 'Editar'}
          {name}
        </Button>
        <StepButton
          can={!busy}
          onAct={() =>
            send({ intent: 'toggle', id: service.id, name: service.name, active: !service.active })
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
        <StepButton can={!busy && position > 0} onAct={() => move('up')}>
          Subir{name}
        </StepButton>
        <StepButton can={!busy && position < ids.length - 1} onAct={() => move('down')}>
          Bajar{name}
        </StepButton>
        <Button
          variant={routesOpen ? 'primary' : 'secondary'}
          data-action="routes"
          aria-expanded={routesOpen}
          onClick={() => {
            setRoutesNotice(null);
            setRoutesOpen((v) => !v);
          }}
        >
          Proveedores{name}
        </Button>
        <Button
          variant="ghost"
          aria-expanded={history !== null}
          onClick={() => setHistory(history ? null : loadServiceHistory(service.id))}
        >
          {history ? 'Ocultar historial' : 'Historial de cambios'}
          {name}
        </Button>
      </div>
      <div aria-live="polite">
        {notice?.tone === 'success' ? <Alert tone="success">{notice.text}</Alert> : null}
        {routesNotice && !routesOpen ? <Alert tone="success">{routesNotice}</Alert> : null}
      </div>
      {notice?.tone === 'error' ? <Alert tone="error">{notice.text}</Alert> : null}
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
          className="rounded-xl border border-slate-200 bg-slate-50 p-3 sm:p-4"
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
          className="rounded-xl border border-slate-200 bg-slate-50 p-3 sm:p-4"
        >
          <ServiceForm
            key={service.id}
            service={service}
            fetcherKey={FETCHER_KEYS.edit}
            onCancel={onCancelEdit}
          />
        </section>
      ) : null}
    </li>
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
  useEffect(() => {
    if (closed > 0) button.current?.focus();
  }, [closed]);
  function close() {
    setEditing(false);
    setClosed((n) => n + 1);
  }
  if (editing)
    return (
      <input
        aria-label={`Precio de ${service.name}`}
        defaultValue={service.price.replace('.', ',')}
        inputMode="decimal"
        autoComplete="off"
        // eslint-disable-next-line jsx-a11y/no-autofocus -- opened by the person, on purpose
        autoFocus
        className="w-28 rounded-md border border-slate-400 px-2 py-1 tabular-nums"
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
    );
  return (
    <button
      ref={button}
      type="button"
      className="rounded-md underline decoration-dotted underline-offset-2 hover:bg-slate-100"
      onClick={() => setEditing(true)}
    >
      <span className="tabular-nums" data-testid="service-price">
        {priceWithUnit(service)}
      </span>
      <span className="sr-only"> (cambiar el precio de {service.name})</span>
    </button>
  );
}

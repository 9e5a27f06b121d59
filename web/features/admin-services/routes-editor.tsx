import { Suspense, use, useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import { useFetcher } from 'react-router';
import { formatSupplierMoney } from '../../../shared/money';
import type { RemoteServiceList } from '../../../shared/schemas/suppliers';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { SelectField, TextField } from '../../components/ui/field';
import type { Loaded } from '../../lib/loaded';
import { loadSupplierCatalogue } from './actions';
import { moveItem, priceWithUnit } from './draft';
import { StepButton } from './field-editor';
import {
  markupPreview,
  newRoute,
  routeErrorKey,
  routesErrors,
  routesInput,
  ROUTES_MAX,
  supplierStateLabel,
  toRoutesDraft,
  type RouteDraft,
  type RoutesDraft,
  type SupplierChoice,
} from './routes-draft';
import type { AdminService, Direction, ServicesActionResult, ServicesPayload } from './types';

type CatalogueRequest = Promise<Loaded<RemoteServiceList>>;
type Picked = { name: string; cost: string; currency: string };

/**
 * «Proveedores» of one service: its routes in order (the first is the primary, the others are
 * used when the one before refuses the order or is unavailable) and how its price is set.
 */
export function RoutesEditor({
  service,
  suppliers,
  fetcherKey,
  onCancel,
}: {
  service: AdminService;
  suppliers: Loaded<SupplierChoice[]>;
  fetcherKey: string;
  onCancel: () => void;
}) {
  const fetcher = useFetcher<ServicesActionResult>({ key: fetcherKey });
  const [draft, setDraft] = useState<RoutesDraft>(() => toRoutesDraft(service));
  const [local, setLocal] = useState<Record<string, string> | null>(null);
  // The key is shared with earlier editors of this service: an older answer is not ours.
  const [earlier] = useState(fetcher.data);
  const [submitted, setSubmitted] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const busy = fetcher.state !== 'idle';
  const failed =
    !busy && submitted && fetcher.data !== earlier && fetcher.data?.ok === false
      ? fetcher.data
      : undefined;
  const errors = useMemo(() => local ?? failed?.fields ?? {}, [local, failed]);
  const formError = local
    ? Object.keys(local).length > 0
      ? 'Revisa los proveedores marcados.'
      : null
    : (failed?.formError ?? null);
  const preview = markupPreview(draft);
  const unit = service.unit === '1000' ? 'por 1000' : 'por orden';

  // Take the admin to the first input refused (focus only: no data here).
  useEffect(() => {
    if (Object.keys(errors).length > 0)
      form.current?.querySelector<HTMLElement>('[aria-invalid="true"], [data-invalid]')?.focus();
  }, [errors]);

  function update(next: RoutesDraft) {
    setDraft(next);
  }

  function move(index: number, direction: Direction) {
    update({ ...draft, routes: moveItem(draft.routes, index, direction) });
  }

  function remove(index: number) {
    update({ ...draft, routes: draft.routes.filter((_, i) => i !== index) });
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const found = routesErrors(draft);
    if (Object.keys(found).length > 0) {
      setSubmitted(false);
      setLocal(found);
      return;
    }
    setLocal(null);
    setSubmitted(true);
    const payload: ServicesPayload = {
      intent: 'routes',
      id: service.id,
      name: service.name,
      uids: draft.routes.map((r) => r.uid),
      ...routesInput(draft),
    };
    void fetcher.submit(payload, { method: 'post', encType: 'application/json' });
  }

  return (
    <form ref={form} noValidate onSubmit={submit} className="flex flex-col gap-4">
      <p className="text-sm text-slate-600">
        El primero es el principal; los demás se usan, en orden, si el anterior rechaza la orden o
        no está disponible. Sin proveedores, las órdenes se atienden a mano.
      </p>
      {formError ? <Alert tone="error">{formError}</Alert> : null}
      {errors.routes ? <Alert tone="error">{errors.routes}</Alert> : null}
      {draft.routes.length === 0 ? (
        <p className="text-sm text-slate-700">Ningún proveedor: se atiende a mano.</p>
      ) : (
        <ol className="flex flex-col gap-3" aria-label="Proveedores, en orden">
          {draft.routes.map((route, index) => (
            <RouteCard
              key={route.uid}
              route={route}
              position={index}
              count={draft.routes.length}
              error={errors[routeErrorKey(route.uid)]}
              onMove={(direction) => move(index, direction)}
              onRemove={() => remove(index)}
            />
          ))}
        </ol>
      )}
      {suppliers.ok ? (
        <AddRoute
          suppliers={suppliers.data}
          unit={service.unit}
          full={draft.routes.length >= ROUTES_MAX}
          onAdd={(route) => update({ ...draft, routes: [...draft.routes, route] })}
        />
      ) : (
        <Alert tone="error">No pudimos cargar los proveedores. {suppliers.error}</Alert>
      )}
      <fieldset className="min-w-0">
        <legend className="text-base font-semibold text-slate-900">Precio</legend>
        <div className="mt-2 flex flex-col gap-1">
          <label className="flex min-h-11 items-center gap-3 text-sm font-medium text-slate-800">
            <input
              type="radio"
              name={`precio-${service.id}`}
              className="size-5 shrink-0 accent-brand-600"
              checked={draft.mode === 'fixed'}
              onChange={() => update({ ...draft, mode: 'fixed' })}
            />
            <span>Precio fijo ({priceWithUnit(service)})</span>
          </label>
          <label className="flex min-h-11 items-center gap-3 text-sm font-medium text-slate-800">
            <input
              type="radio"
              name={`precio-${service.id}`}
              className="size-5 shrink-0 accent-brand-600"
              checked={draft.mode === 'markup'}
              onChange={() => update({ ...draft, mode: 'markup' })}
            />
            <span>Margen sobre el costo (%)</span>
          </label>
        </div>
        {draft.mode === 'markup' ? (
          <div className="mt-2 max-w-xs">
            <TextField
              label="Margen (%)"
              type="number"
              min={0}
              max={1000}
              step="0.01"
              inputMode="decimal"
              value={draft.markup}
              placeholder="20"
              hint="El precio sigue al costo del proveedor principal."
              error={errors.markupPercent}
              onChange={(e) => update({ ...draft, markup: e.target.value })}
            />
          </div>
        ) : errors.markupPercent ? (
          <p className="mt-1 text-sm font-medium text-red-700">{errors.markupPercent}</p>
        ) : (
          <p className="mt-1 text-sm text-slate-600">
            El precio no cambia con el costo; si el costo lo supera, el servicio se desactiva.
          </p>
        )}
        {preview ? (
          <p className="mt-2 text-sm text-slate-800" role="status">
            Precio resultante:{' '}
            <strong className="tabular-nums">
              {preview} {unit}
            </strong>
          </p>
        ) : null}
      </fieldset>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={busy}>
          {busy ? 'Guardando…' : 'Guardar proveedores'}
        </Button>
        <Button variant="ghost" disabled={busy} onClick={onCancel}>
          Cancelar
        </Button>
      </div>
    </form>
  );
}

function RouteCard({
  route,
  position,
  count,
  error,
  onMove,
  onRemove,
}: {
  route: RouteDraft;
  position: number;
  count: number;
  error: string | undefined;
  onMove: (direction: Direction) => void;
  onRemove: () => void;
}) {
  const headingId = useId();
  const errorId = useId();
  const n = position + 1;
  const state = supplierStateLabel(route.supplierState);
  const what = `el proveedor ${n} (${route.supplierName})`;
  return (
    <li
      aria-labelledby={headingId}
      aria-describedby={error ? errorId : undefined}
      data-invalid={error ? true : undefined}
      tabIndex={error ? -1 : undefined}
      className={`rounded-xl border bg-white p-3 ${error ? 'border-red-600' : 'border-slate-200'}`}
    >
      <p id={headingId} className="font-semibold break-words text-slate-900">
        {n}. {route.supplierName}{' '}
        <span className="text-sm font-normal text-slate-600">
          ({position === 0 ? 'principal' : 'alternativo'}
          {state ? `, ${state.toLowerCase()}` : ''})
        </span>
      </p>
      <p className="text-sm break-words text-slate-700">
        Servicio <span className="font-mono">#{route.remoteId}</span>
        {route.remoteName ? ` · ${route.remoteName}` : ''}
        {route.cost ? ` · Costo ${formatSupplierMoney(route.cost, route.currency)}` : ''}
      </p>
      {route.missing ? (
        <p className="mt-1 text-sm font-medium text-amber-900">
          El proveedor ya no ofrece este servicio: no se le envían órdenes.
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
      <div className="mt-2 flex flex-wrap gap-2">
        <StepButton can={position > 0} onAct={() => onMove('up')}>
          Subir<span className="sr-only"> {what}</span>
        </StepButton>
        <StepButton can={position < count - 1} onAct={() => onMove('down')}>
          Bajar<span className="sr-only"> {what}</span>
        </StepButton>
        <Button variant="ghost" onClick={onRemove}>
          Quitar<span className="sr-only"> {what}</span>
        </Button>
      </div>
    </li>
  );
}

/** Supplier + its service number (typed, or picked from its catalogue), then «Añadir». */
function AddRoute({
  suppliers,
  unit,
  full,
  onAdd,
}: {
  suppliers: SupplierChoice[];
  unit: AdminService['unit'];
  full: boolean;
  onAdd: (route: RouteDraft) => void;
}) {
  const [supplierId, setSupplierId] = useState('');
  const [remoteId, setRemoteId] = useState('');
  const [picked, setPicked] = useState<Picked | null>(null);
  const [catalogue, setCatalogue] = useState<CatalogueRequest | null>(null);
  const [error, setError] = useState<{ supplier?: string; remote?: string }>({});
  const box = useRef<HTMLFieldSetElement>(null);
  const supplier = suppliers.find((s) => s.id === supplierId);

  function add() {
    const next = {
      ...(supplier ? {} : { supplier: 'Elige un proveedor.' }),
      ...(remoteId.trim() ? {} : { remote: 'Escribe el número del servicio en el proveedor.' }),
    };
    setError(next);
    if (!supplier || !remoteId.trim()) return;
    flushSync(() => {
      onAdd(newRoute(supplier, remoteId, picked ?? undefined));
      setRemoteId('');
      setPicked(null);
      setCatalogue(null);
    });
    box.current?.querySelector<HTMLElement>('select')?.focus();
  }

  if (suppliers.length === 0)
    return (
      <p className="text-sm text-slate-600">
        Para enviar este servicio a un proveedor, conéctalo primero en «Proveedores».
      </p>
    );
  return (
    <fieldset
      ref={box}
      className="min-w-0 rounded-xl border border-slate-200 bg-white p-3"
      disabled={full}
    >
      <legend className="px-1 text-sm font-semibold text-slate-900">Añadir proveedor</legend>
      {full ? (
        <p className="text-sm text-slate-600">Como máximo {ROUTES_MAX} proveedores por servicio.</p>
      ) : null}
      <div className="grid gap-3 sm:grid-cols-2">
        <SelectField
          label="Proveedor"
          value={supplierId}
          placeholder="Elige un proveedor"
          options={suppliers.map((s) => ({
            value: s.id,
            label:
              s.state === 'activo'
                ? s.name
                : `${s.name} (${supplierStateLabel(s.state)?.toLowerCase()})`,
          }))}
          error={error.supplier}
          onChange={(e) => {
            setSupplierId(e.target.value);
            setPicked(null);
            setCatalogue(null);
          }}
        />
        <TextField
          label="Servicio del proveedor (número)"
          value={remoteId}
          autoComplete="off"
          spellCheck={false}
          maxLength={64}
          placeholder="1382"
          error={error.remote}
          hint={
            picked
              ? `${picked.name} · Costo ${formatSupplierMoney(picked.cost, picked.currency)}`
              : undefined
          }
          onChange={(e) => {
            setRemoteId(e.target.value);
            setPicked(null);
          }}
        />
      </div>
      {supplier ? (
        <div className="mt-3">
          {catalogue ? (
            <Suspense
              fallback={
                <p role="status" className="text-sm text-slate-600">
                  Cargando el catálogo de {supplier.name}…
                </p>
              }
            >
              <CataloguePick
                request={catalogue}
                supplierName={supplier.name}
                unit={unit}
                value={remoteId}
                onPick={(id, service) => {
                  setRemoteId(id);
                  setPicked(service);
                }}
              />
            </Suspense>
          ) : (
            <Button
              variant="ghost"
              onClick={() => setCatalogue(loadSupplierCatalogue(supplier.id))}
            >
              Elegir del catálogo de {supplier.name}
            </Button>
          )}
        </div>
      ) : null}
      <div className="mt-3">
        <Button variant="secondary" onClick={add}>
          Añadir a la lista
        </Button>
      </div>
    </fieldset>
  );
}

function CataloguePick({
  request,
  supplierName,
  unit,
  value,
  onPick,
}: {
  request: CatalogueRequest;
  supplierName: string;
  unit: AdminService['unit'];
  value: string;
  onPick: (remoteId: string, service: Picked | null) => void;
}) {
  const loaded = use(request);
  if (!loaded.ok) return <Alert tone="error">No pudimos cargar el catálogo. {loaded.error}</Alert>;
  const usable = loaded.data.items.filter((s) => s.unit === unit && !s.missing);
  if (usable.length === 0)
    return (
      <p className="text-sm text-slate-600">
        {supplierName} no tiene servicios que se vendan {unit === '1000' ? 'por 1000' : 'por orden'}
        .
      </p>
    );
  return (
    <SelectField
      label={`Catálogo de ${supplierName}`}
      value={usable.some((s) => s.remoteId === value) ? value : ''}
      placeholder="Elige un servicio"
      hint="Solo los que se venden con la misma unidad que este servicio."
      options={usable.map((s) => ({
        value: s.remoteId,
        label: `#${s.remoteId} · ${s.name} · ${formatSupplierMoney(s.cost, s.currency)}`,
      }))}
      onChange={(e) => {
        const service = usable.find((s) => s.remoteId === e.target.value);
        onPick(
          e.target.value,
          service ? { name: service.name, cost: service.cost, currency: service.currency } : null,
        );
      }}
    />
  );
}

import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Form, useFetcher, useNavigation } from 'react-router';
import { CATEGORIES, type CategorySlug } from '../../../shared/categories';
import { formatSupplierMoney, formatUsd } from '../../../shared/money';
import { Alert } from '../../components/ui/alert';
import { AppLink } from '../../components/ui/app-link';
import { Button, buttonClass } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { SelectField, TextField } from '../../components/ui/field';
import { markupPrice, parseMarkup } from '../../lib/pricing';
import type { CatalogueFilters } from './actions';
import { importLabel, quantityText, toggleSelection, unitText, type Selection } from './draft';
import { useSettled } from './supplier-form';
import {
  FETCHER_KEYS,
  type RemoteCatalogue,
  type RemoteService,
  type Supplier,
  type SuppliersActionResult,
  type SuppliersPayload,
} from './types';
import { useDates } from '../../lib/dates';

const JSON_POST = { method: 'post', encType: 'application/json' } as const;
const CATEGORY_OPTIONS = CATEGORIES.map((c) => ({ value: c.slug, label: c.label }));
/** More than this is not listed at once: the admin narrows the search instead. */
const SHOWN_AT_MOST = 200;

/**
 * One supplier's catalogue: search it, choose the services to sell, and import them into a
 * category with a margin (the price of each is previewed as the server will compute it).
 */
export function CatalogueBrowser({
  supplier,
  filters,
  catalogue,
}: {
  supplier: Supplier;
  filters: CatalogueFilters;
  catalogue: RemoteCatalogue;
}) {
  const dates = useDates();
  const heading = useRef<HTMLHeadingElement>(null);
  const navigation = useNavigation();
  const refresh = useFetcher<SuppliersActionResult>();
  const [selection, setSelection] = useState<Selection>(new Map());
  const headingId = useId();
  const searching =
    navigation.state !== 'idle' && navigation.location?.search.includes('catalogo=') === true;
  const refreshing = refresh.state !== 'idle';
  const refreshed = refresh.state === 'idle' ? refresh.data : undefined;

  // Opening a catalogue takes the reader to it (focus only: the data came with the loader).
  useEffect(() => {
    heading.current?.focus();
  }, [supplier.id]);

  const shown = catalogue.items.slice(0, SHOWN_AT_MOST);
  return (
    <section aria-labelledby={headingId} data-testid="supplier-catalogue">
      <Card className="p-4 sm:p-6">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <h2
              id={headingId}
              ref={heading}
              tabIndex={-1}
              className="scroll-mt-32 text-lg font-semibold break-words text-slate-900 focus:outline-none"
            >
              Catálogo de {supplier.name}
            </h2>
            <p className="mt-1 text-sm text-slate-600">
              {catalogue.fetchedAt
                ? `Leído del proveedor el ${dates.dateTime(catalogue.fetchedAt)}.`
                : 'Todavía no se pudo leer del proveedor.'}{' '}
              Elige los servicios que quieras vender y en qué categoría.
            </p>
          </div>
          <AppLink to="/admin/proveedores" preventScrollReset className={buttonClass('ghost')}>
            Cerrar catálogo
          </AppLink>
        </div>

        <div className="mt-4 flex flex-col gap-4">
          {catalogue.stale && catalogue.message ? (
            <Alert tone="warning">{catalogue.message}</Alert>
          ) : null}
          <Form
            method="get"
            preventScrollReset
            role="search"
            aria-label="Filtrar el catálogo del proveedor"
            key={`${filters.q}|${filters.group}`}
            className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto] sm:items-start"
          >
            <input type="hidden" name="catalogo" value={supplier.id} />
            <TextField
              label="Buscar en el catálogo"
              name="q"
              type="search"
              defaultValue={filters.q}
              autoComplete="off"
              maxLength={200}
              hint="Nombre o número del servicio."
            />
            <SelectField
              label="Grupo"
              name="grupo"
              defaultValue={filters.group}
              placeholder="Todos los grupos"
              options={catalogue.groups.map((g) => ({ value: g, label: g }))}
            />
            <Button type="submit" variant="secondary" className="sm:mt-6" disabled={searching}>
              {searching ? 'Buscando…' : 'Buscar'}
            </Button>
          </Form>
          <div className="flex flex-wrap items-center gap-2">
            <Button
              variant="secondary"
              disabled={refreshing}
              onClick={() => {
                const payload: SuppliersPayload = { intent: 'refresh', id: supplier.id };
                void refresh.submit(payload, JSON_POST);
              }}
            >
              {refreshing ? 'Leyendo el catálogo…' : 'Volver a leer'}
            </Button>
            <span className="text-sm text-slate-600">
              Pide el catálogo al proveedor ahora, con sus costos actuales.
            </span>
          </div>
          <div aria-live="polite">
            {refreshed?.ok ? <Alert tone="success">{refreshed.message}</Alert> : null}
          </div>
          {refreshed && !refreshed.ok ? <Alert tone="error">{refreshed.formError}</Alert> : null}

          <p className="text-sm text-slate-700" role="status">
            {catalogue.items.length === 0
              ? filters.q || filters.group
                ? 'Ningún servicio coincide con la búsqueda.'
                : 'El catálogo está vacío.'
              : catalogue.items.length === 1
                ? '1 servicio.'
                : `${catalogue.items.length} servicios${
                    catalogue.items.length > SHOWN_AT_MOST
                      ? `; se muestran los ${SHOWN_AT_MOST} primeros: afina la búsqueda`
                      : ''
                  }.`}
          </p>
          {shown.length > 0 ? (
            <ul
              className="divide-y divide-slate-200 rounded-xl border border-slate-200"
              aria-label={`Servicios de ${supplier.name}`}
              data-testid="remote-services"
            >
              {shown.map((service) => (
                <RemoteRow
                  key={service.remoteId}
                  service={service}
                  selected={selection.has(service.remoteId)}
                  onToggle={(on) => setSelection((s) => toggleSelection(s, service, on))}
                />
              ))}
            </ul>
          ) : null}
          <ImportPanel
            supplier={supplier}
            selection={selection}
            onImported={() => setSelection(new Map())}
            onRemove={(service) => setSelection((s) => toggleSelection(s, service, false))}
          />
        </div>
      </Card>
    </section>
  );
}

function RemoteRow({
  service,
  selected,
  onToggle,
}: {
  service: RemoteService;
  selected: boolean;
  onToggle: (on: boolean) => void;
}) {
  const id = useId();
  const quantity = quantityText(service);
  const canImport = service.importable && service.importedAs.length === 0;
  const fields = service.fields
    .map((f) => (f.required ? f.label : `${f.label} (opcional)`))
    .join(', ');
  return (
    <li className="flex min-w-0 gap-3 p-3" aria-labelledby={`${id}-name`}>
      <div className="pt-0.5">
        {canImport ? (
          <input
            id={id}
            type="checkbox"
            className="size-5 accent-brand-600"
            checked={selected}
            aria-labelledby={`${id}-name`}
            aria-describedby={`${id}-details`}
            onChange={(e) => onToggle(e.target.checked)}
          />
        ) : (
          <span aria-hidden="true" className="block size-5" />
        )}
      </div>
      <div className="min-w-0 flex-1">
        {canImport ? (
          <label htmlFor={id} id={`${id}-name`} className="font-medium break-words text-slate-900">
            {service.name}
          </label>
        ) : (
          <p id={`${id}-name`} className="font-medium break-words text-slate-900">
            {service.name}
          </p>
        )}
        <div id={`${id}-details`} className="text-sm text-slate-700">
          <p>
            <span className="font-mono">#{service.remoteId}</span>
            {service.group ? ` · ${service.group}` : ''}
            {' · '}
            <span className="tabular-nums">
              {formatSupplierMoney(service.cost, service.currency)}
            </span>{' '}
            {unitText(service.unit)}
            {service.deliveryTime ? ` · Entrega: ${service.deliveryTime}` : ''}
          </p>
          {quantity ? <p>Cantidad: {quantity}</p> : null}
          <p>Datos que pide: {fields || 'ninguno'}</p>
          {service.importedAs.length > 0 ? (
            <p className="text-emerald-800">
              {service.importedAs.map((s, i) => (
                <span key={s.id}>
                  {i > 0 ? ', ' : ''}Importado como «{s.name}»
                </span>
              ))}
            </p>
          ) : null}
          {!service.importable && service.reason ? (
            <p className="text-amber-900">No se puede importar: {service.reason}</p>
          ) : null}
        </div>
        {service.info ? (
          <details className="mt-1 text-sm">
            <summary className="cursor-pointer py-1 text-brand-800">
              Descripción del proveedor
            </summary>
            <p className="break-words whitespace-pre-line text-slate-700">{service.info}</p>
          </details>
        ) : null}
      </div>
    </li>
  );
}

type ImportErrors = { category?: string; markup?: string; selection?: string };

/** Category, margin, the price each chosen service will have, and «Importar N servicios». */
function ImportPanel({
  supplier,
  selection,
  onImported,
  onRemove,
}: {
  supplier: Supplier;
  selection: Selection;
  onImported: () => void;
  onRemove: (service: RemoteService) => void;
}) {
  const [category, setCategory] = useState<CategorySlug | ''>('');
  const [markup, setMarkup] = useState('');
  const [errors, setErrors] = useState<ImportErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<SuppliersActionResult | null>(null);
  const headingId = useId();
  const fetcher = useSettled(FETCHER_KEYS.import, (result) => {
    if (result.ok) {
      setDone(result);
      setFailure(null);
      onImported();
    } else {
      setFailure(result.fields?.remoteIds ?? result.formError ?? null);
    }
  });
  const busy = fetcher.state !== 'idle';
  const chosen = [...selection.values()];
  const parsed = parseMarkup(markup);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setDone(null);
    setFailure(null);
    const next: ImportErrors = {
      ...(category ? {} : { category: 'Elige la categoría donde se venderán.' }),
      ...(parsed.ok ? {} : { markup: parsed.message }),
      ...(chosen.length > 0 ? {} : { selection: 'Elige al menos un servicio de la lista.' }),
    };
    setErrors(next);
    if (!category || !parsed.ok || chosen.length === 0) return;
    const payload: SuppliersPayload = {
      intent: 'import',
      id: supplier.id,
      remoteIds: chosen.map((s) => s.remoteId),
      category,
      markupPercent: parsed.value,
    };
    void fetcher.submit(payload, JSON_POST);
  }

  return (
    <section
      aria-labelledby={headingId}
      className="rounded-xl border border-slate-200 bg-slate-50 p-3 sm:p-4"
    >
      <h3 id={headingId} className="text-base font-semibold text-slate-900">
        Importar al catálogo
      </h3>
      <p className="mt-1 text-sm text-slate-600">
        Cada servicio se crea activo con precio = costo × (1 + margen), redondeado hacia arriba al
        centavo. El precio sigue al costo cuando el proveedor lo cambie.
      </p>
      <form noValidate onSubmit={submit} className="mt-3 flex flex-col gap-3">
        <div className="grid gap-3 sm:grid-cols-2">
          <SelectField
            label="Categoría"
            value={category}
            required
            placeholder="Elige una categoría"
            options={CATEGORY_OPTIONS}
            error={errors.category}
            onChange={(e) => setCategory(e.target.value as CategorySlug | '')}
          />
          <TextField
            label="Margen (%)"
            type="number"
            min={0}
            max={1000}
            step="0.01"
            inputMode="decimal"
            value={markup}
            required
            placeholder="20"
            hint="Lo que ganas sobre el costo del proveedor."
            error={errors.markup}
            onChange={(e) => setMarkup(e.target.value)}
          />
        </div>
        {chosen.length === 0 ? (
          <p
            className={`text-sm ${errors.selection ? 'font-medium text-red-700' : 'text-slate-600'}`}
          >
            {errors.selection ?? 'Marca en la lista los servicios que quieras importar.'}
          </p>
        ) : (
          <div className="min-w-0">
            <p className="text-sm font-medium text-slate-900">
              {chosen.length === 1 ? '1 servicio elegido' : `${chosen.length} servicios elegidos`}
            </p>
            <ul
              className="mt-1 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white"
              data-testid="import-preview"
            >
              {chosen.map((s) => {
                const price = parsed.ok ? markupPrice(s.cost, parsed.bp) : null;
                return (
                  <li
                    key={s.remoteId}
                    className="flex flex-wrap items-center gap-x-3 gap-y-1 p-2 text-sm"
                  >
                    <span className="min-w-0 flex-1 break-words text-slate-900">{s.name}</span>
                    <span className="text-slate-600 tabular-nums">
                      Costo {formatSupplierMoney(s.cost, s.currency)}
                    </span>
                    <span className="font-semibold text-slate-900 tabular-nums">
                      {price
                        ? `Precio ${formatUsd(price)} ${unitText(s.unit)}`
                        : 'Precio: escribe el margen'}
                    </span>
                    <Button variant="ghost" onClick={() => onRemove(s)}>
                      Quitar<span className="sr-only"> {s.name} de la importación</span>
                    </Button>
                  </li>
                );
              })}
            </ul>
          </div>
        )}
        {failure && !busy ? <Alert tone="error">{failure}</Alert> : null}
        <div aria-live="polite">
          {done?.ok ? (
            <Alert tone="success">
              <p>{done.message}</p>
              <ul className="mt-1 list-disc pl-5">
                {(done.imported ?? []).map((s) => (
                  <li key={s.id}>
                    «{s.name}» a {s.price}
                  </li>
                ))}
              </ul>
              <p className="mt-1">
                <AppLink to="/admin/servicios" className="font-semibold underline">
                  Ver en Servicios
                </AppLink>
              </p>
            </Alert>
          ) : null}
        </div>
        <div>
          <Button type="submit" disabled={busy}>
            {busy ? 'Importando…' : importLabel(chosen.length)}
          </Button>
        </div>
      </form>
    </section>
  );
}

import { Suspense, use, useState } from 'react';
import type { SupplierLogEntry } from '../../../shared/schemas/suppliers';
import type { Loaded } from '../../lib/loaded';
import { Alert } from './alert';
import { Button } from './button';
import { useDates } from '../../lib/dates';

/** The calls, read when the admin opens the list (a promise made in the click, not an effect). */
export type CallsRequest = Promise<Loaded<SupplierLogEntry[]>>;

/** Shown at first; the rest on request (status polls fill a log quickly). */
const SHOWN_FIRST = 20;

const OUTCOME_LABELS: Record<string, string> = {
  ok: 'Correcta',
  'refused-order': 'Orden rechazada',
  'refused-supplier': 'Rechazada por el proveedor',
  'retry-later': 'Reintentar más tarde',
  'not-sent': 'No enviada',
  ambiguous: 'Respuesta dudosa',
};

/** A logged call's outcome in Spanish (an unknown word is shown as it is). */
export function outcomeLabel(outcome: string): string {
  return OUTCOME_LABELS[outcome] ?? outcome;
}

/**
 * Calls made to suppliers: what was sent (the key already replaced by ***) and what came back,
 * shown as plain text (a supplier's answer is never rendered as HTML).
 */
export function CallLog({
  request,
  title,
  label,
  empty,
  showSupplier = false,
  onReload,
}: {
  request: CallsRequest;
  title: string;
  /** The region's accessible name (unique on the page). */
  label: string;
  empty: string;
  showSupplier?: boolean;
  onReload: () => void;
}) {
  return (
    <section aria-label={label} className="min-w-0 rounded-xl border border-slate-200 p-3 sm:p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h4 className="text-sm font-semibold text-slate-900">{title}</h4>
        <Button variant="ghost" onClick={onReload}>
          Actualizar<span className="sr-only"> {label}</span>
        </Button>
      </div>
      <Suspense
        fallback={
          <p role="status" className="text-sm text-slate-600">
            Cargando las llamadas…
          </p>
        }
      >
        <Calls request={request} empty={empty} showSupplier={showSupplier} />
      </Suspense>
    </section>
  );
}

function Calls({
  request,
  empty,
  showSupplier,
}: {
  request: CallsRequest;
  empty: string;
  showSupplier: boolean;
}) {
  const [all, setAll] = useState(false);
  const loaded = use(request);
  if (!loaded.ok) return <Alert tone="error">No pudimos cargar las llamadas. {loaded.error}</Alert>;
  if (loaded.data.length === 0) return <p className="text-sm text-slate-600">{empty}</p>;
  const shown = all ? loaded.data : loaded.data.slice(0, SHOWN_FIRST);
  return (
    <>
      <ol className="mt-2 divide-y divide-slate-100" data-testid="call-log">
        {shown.map((call) => (
          <CallEntry key={call.id} call={call} showSupplier={showSupplier} />
        ))}
      </ol>
      {shown.length < loaded.data.length ? (
        <Button variant="secondary" className="mt-2" onClick={() => setAll(true)}>
          Mostrar las {loaded.data.length} llamadas
        </Button>
      ) : null}
    </>
  );
}

function CallEntry({ call, showSupplier }: { call: SupplierLogEntry; showSupplier: boolean }) {
  const dates = useDates();
  const ok = call.outcome === 'ok';
  const request = Object.entries(call.request)
    .map(([key, value]) => `${key}: ${value}`)
    .join('\n');
  return (
    <li className="min-w-0 py-2 text-sm">
      <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-slate-700">
        <span className="font-mono font-semibold break-all text-slate-900">{call.action}</span>
        <span
          className={`rounded-full px-2 py-0.5 text-xs font-semibold ${
            ok ? 'bg-emerald-100 text-emerald-800' : 'bg-amber-100 text-amber-900'
          }`}
        >
          {outcomeLabel(call.outcome)}
        </span>
        {showSupplier ? <span>{call.supplierName}</span> : null}
        <span>{call.httpStatus === null ? 'Sin respuesta HTTP' : `HTTP ${call.httpStatus}`}</span>
        <span className="tabular-nums">{call.ms} ms</span>
        <time dateTime={call.at}>{dates.dateTime(call.at)}</time>
      </p>
      {call.error ? (
        <p className="mt-1 break-words text-red-700">
          <span className="font-medium">Error:</span> {call.error}
        </p>
      ) : null}
      <details className="mt-1">
        <summary className="cursor-pointer py-1 font-medium text-brand-800">
          Petición y respuesta
        </summary>
        <p className="mt-1 text-xs font-semibold tracking-wide text-slate-500 uppercase">
          Petición
        </p>
        <pre className="mt-1 rounded-lg bg-slate-100 p-2 font-mono text-xs break-all whitespace-pre-wrap text-slate-900">
          {request || '(vacía)'}
        </pre>
        <p className="mt-2 text-xs font-semibold tracking-wide text-slate-500 uppercase">
          Respuesta
        </p>
        <pre className="mt-1 rounded-lg bg-slate-100 p-2 font-mono text-xs break-all whitespace-pre-wrap text-slate-900">
          {call.response ?? '(sin respuesta)'}
        </pre>
      </details>
    </li>
  );
}

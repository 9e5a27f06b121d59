import { useId, useState } from 'react';
import { useFetcher, useNavigation } from 'react-router';
import type { SupplierState } from '../../../shared/schemas/suppliers';
import { Alert } from '../../components/ui/alert';
import { AppLink } from '../../components/ui/app-link';
import { Button, buttonClass } from '../../components/ui/button';
import { CallLog, type CallsRequest } from '../../components/ui/call-log';
import { Detail } from '../../components/ui/section';
import { loadSupplierCalls } from './actions';
import { balanceText, protocolLabel } from './draft';
import { EditSupplierForm, useSettled } from './supplier-form';
import type { Supplier, SuppliersActionResult, SuppliersPayload } from './types';
import { useDates } from '../../lib/dates';
import { formatSupplierMoney } from '../../../shared/money';

const JSON_POST = { method: 'post', encType: 'application/json' } as const;

const STATE_STYLES: Record<SupplierState, string> = {
  activo: 'bg-emerald-100 text-emerald-800',
  fallando: 'bg-amber-100 text-amber-900',
  desactivado: 'bg-slate-200 text-slate-700',
};

export function SupplierStateBadge({
  supplier,
}: {
  supplier: Pick<Supplier, 'state' | 'stateLabel'>;
}) {
  return (
    <span
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATE_STYLES[supplier.state]}`}
    >
      {supplier.stateLabel}
    </span>
  );
}

/** The connected suppliers, each with its state, balance and actions. */
export function SupplierList({
  suppliers,
  catalogueId,
}: {
  suppliers: Supplier[];
  catalogueId: string | null;
}) {
  if (suppliers.length === 0)
    return (
      <p className="text-slate-700" role="status">
        Todavía no hay proveedores. Conecta el primero con el formulario «Conectar proveedor».
      </p>
    );
  return (
    <ul
      className="divide-y divide-slate-200 rounded-xl border border-slate-200"
      data-testid="suppliers"
    >
      {suppliers.map((s) => (
        <SupplierRow key={s.id} supplier={s} catalogueOpen={catalogueId === s.id} />
      ))}
    </ul>
  );
}

type Notice = { tone: 'success' | 'error'; text: string };

function SupplierRow({ supplier, catalogueOpen }: { supplier: Supplier; catalogueOpen: boolean }) {
  const dates = useDates();
  const fetcher = useFetcher<SuppliersActionResult>();
  const navigation = useNavigation();
  const opening =
    navigation.state === 'loading' &&
    new URLSearchParams(navigation.location.search).get('catalogo') === supplier.id &&
    !catalogueOpen;
  const editKey = `suppliers-edit-${supplier.id}`;
  const [editing, setEditing] = useState(false);
  const [calls, setCalls] = useState<CallsRequest | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const nameId = useId();
  const busy = fetcher.state !== 'idle';
  const pending = busy ? (fetcher.json as SuppliersPayload | undefined) : undefined;

  useSettled(editKey, (result) => {
    if (!result.ok) return;
    setEditing(false);
    setNotice({ tone: 'success', text: result.message ?? '' });
  });
  const [seen, setSeen] = useState(fetcher.data);
  if (fetcher.state === 'idle' && fetcher.data !== seen) {
    setSeen(fetcher.data);
    const result = fetcher.data;
    if (result)
      setNotice({
        tone: result.ok ? 'success' : 'error',
        text: (result.ok ? result.message : result.formError) ?? '',
      });
  }

  function send(payload: SuppliersPayload) {
    if (busy) return;
    setNotice(null);
    void fetcher.submit(payload, JSON_POST);
  }

  const name = <span className="sr-only"> {supplier.name}</span>;
  const disabled = supplier.state === 'desactivado';
  return (
    <li aria-labelledby={nameId} className="flex min-w-0 flex-col gap-3 p-3 sm:p-4">
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <div className="min-w-0 flex-1">
          <h3 id={nameId} className="font-semibold break-words text-slate-900">
            {supplier.name}
          </h3>
          <p className="text-sm text-slate-600">{protocolLabel(supplier.protocol)}</p>
        </div>
        <SupplierStateBadge supplier={supplier} />
      </div>
      <dl className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        <Detail label="URL" className="sm:col-span-2 lg:col-span-3">
          <span className="font-mono break-all">{supplier.url}</span>
        </Detail>
        {supplier.username ? (
          <Detail label="Usuario">
            <span className="break-all">{supplier.username}</span>
          </Detail>
        ) : null}
        <Detail label="Saldo">
          <span className="font-semibold tabular-nums" data-testid="supplier-balance">
            {balanceText(supplier)}
          </span>
          {supplier.lowBalanceThreshold ? (
            <span className="block text-slate-600">
              Aviso por debajo de{' '}
              {formatSupplierMoney(supplier.lowBalanceThreshold, supplier.currency)}
            </span>
          ) : null}
        </Detail>
        <Detail label="Última comprobación">
          {supplier.lastCheckedAt ? (
            <time dateTime={supplier.lastCheckedAt}>{dates.dateTime(supplier.lastCheckedAt)}</time>
          ) : (
            'Nunca'
          )}
        </Detail>
        <Detail label="Servicios enrutados">
          {supplier.routedServices === 1 ? '1 servicio' : `${supplier.routedServices} servicios`}
        </Detail>
        <Detail label="Clave API">
          <span className="font-mono">{supplier.apiKeyHint}</span>
        </Detail>
        <Detail label="Último error" className="sm:col-span-2 lg:col-span-3">
          {supplier.lastError ? (
            <span className="break-words text-red-700">{supplier.lastError}</span>
          ) : (
            'Ninguno'
          )}
        </Detail>
        {supplier.catalogueIssueCount > 0 ? (
          <Detail label="Catálogo" className="sm:col-span-2 lg:col-span-3">
            <CatalogueIssues supplier={supplier} />
          </Detail>
        ) : null}
      </dl>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          disabled={busy}
          onClick={() => send({ intent: 'test', id: supplier.id })}
        >
          {pending?.intent === 'test' ? 'Probando conexión…' : 'Probar conexión'}
          {name}
        </Button>
        <AppLink
          to={`?catalogo=${encodeURIComponent(supplier.id)}`}
          preventScrollReset
          aria-current={catalogueOpen ? 'true' : undefined}
          className={buttonClass(catalogueOpen ? 'primary' : 'secondary')}
        >
          {opening ? 'Abriendo el catálogo…' : 'Ver catálogo'}
          {name}
        </AppLink>
        <Button
          variant={editing ? 'primary' : 'secondary'}
          aria-expanded={editing}
          onClick={() => {
            setNotice(null);
            setEditing((v) => !v);
          }}
        >
          {editing ? 'Cerrar edición' : 'Editar'}
          {name}
        </Button>
        <Button
          variant="secondary"
          disabled={busy}
          onClick={() =>
            send({ intent: 'toggle', id: supplier.id, state: disabled ? 'activo' : 'desactivado' })
          }
        >
          {pending?.intent === 'toggle'
            ? disabled
              ? 'Activando…'
              : 'Desactivando…'
            : disabled
              ? 'Activar'
              : 'Desactivar'}
          {name}
        </Button>
        <Button
          variant="ghost"
          aria-expanded={calls !== null}
          onClick={() => setCalls(calls ? null : loadSupplierCalls(supplier.id))}
        >
          {calls ? 'Ocultar llamadas' : 'Últimas llamadas'}
          {name}
        </Button>
      </div>
      <div aria-live="polite">
        {notice?.tone === 'success' ? <Alert tone="success">{notice.text}</Alert> : null}
      </div>
      {notice?.tone === 'error' ? <Alert tone="error">{notice.text}</Alert> : null}
      {calls ? (
        <CallLog
          request={calls}
          title="Últimas llamadas"
          label={`Últimas llamadas a ${supplier.name}`}
          empty="Todavía no hay llamadas registradas."
          onReload={() => setCalls(loadSupplierCalls(supplier.id))}
        />
      ) : null}
      {editing ? (
        <section
          aria-label={`Editar ${supplier.name}`}
          className="rounded-xl border border-slate-200 bg-slate-50 p-3 sm:p-4"
        >
          <EditSupplierForm
            supplier={supplier}
            fetcherKey={editKey}
            onCancel={() => setEditing(false)}
          />
        </section>
      ) : null}
    </li>
  );
}

/** What the last catalogue read skipped or could not price, folded under its count. */
function CatalogueIssues({ supplier }: { supplier: Supplier }) {
  const count = supplier.catalogueIssueCount;
  const shown = supplier.catalogueIssues;
  return (
    <details className="text-amber-900">
      <summary className="cursor-pointer">
        {count === 1
          ? '1 servicio del catálogo no se pudo usar'
          : `${count} servicios del catálogo no se pudieron usar`}
      </summary>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-slate-700">
        {shown.map((issue, i) => (
          <li key={`${issue.remoteId ?? ''}-${i}`} className="break-words">
            {issue.remoteId ? <span className="font-mono">{issue.remoteId}</span> : null}
            {issue.name ? ` «${issue.name}»` : null}
            {issue.remoteId || issue.name ? ': ' : null}
            {issue.reason}
          </li>
        ))}
      </ul>
      {count > shown.length ? (
        <p className="mt-1 text-slate-600">Se muestran los primeros {shown.length}.</p>
      ) : null}
    </details>
  );
}

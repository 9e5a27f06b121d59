import { useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useFetcher } from 'react-router';
import { formatUsd } from '../../../shared/money';
import { Alert } from '../../components/ui/alert';
import { Button, buttonClass } from '../../components/ui/button';
import { RejectReasonForm } from './reject-reason-form';
import { Detail, isBusy } from '../../components/ui/section';
import type { AdminActionResult, PendingRequest } from './types';
import { useDates } from '../../lib/dates';

function byCreatedAt(a: PendingRequest, b: PendingRequest): number {
  return a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);
}

/**
 * The review queue. A row the admin acted on stays in place (with its result) after the list
 * is loaded again without it, until the admin hides it.
 */
export function PendingRequests({ requests }: { requests: PendingRequest[] }) {
  const [reviewed, setReviewed] = useState<PendingRequest[]>([]);
  const pendingIds = new Set(requests.map((r) => r.id));
  const rows = [...requests, ...reviewed.filter((r) => !pendingIds.has(r.id))].sort(byCreatedAt);

  function keep(request: PendingRequest) {
    setReviewed((prev) => (prev.some((r) => r.id === request.id) ? prev : [...prev, request]));
  }
  function hide(id: string) {
    setReviewed((prev) => prev.filter((r) => r.id !== id));
  }

  if (rows.length === 0) return <p className="text-slate-600">No hay solicitudes pendientes.</p>;
  return (
    <>
      <p className="mb-3 text-sm text-slate-600" aria-live="polite">
        {requests.length === 0
          ? 'No quedan solicitudes pendientes.'
          : requests.length === 1
            ? '1 solicitud esperando revisión (la más antigua primero).'
            : `${requests.length} solicitudes esperando revisión (las más antiguas primero).`}
      </p>
      <ul className="flex flex-col gap-3">
        {rows.map((request) => (
          <RequestRow
            key={request.id}
            request={request}
            stillPending={pendingIds.has(request.id)}
            onSubmit={() => keep(request)}
            onHide={() => hide(request.id)}
          />
        ))}
      </ul>
    </>
  );
}

function RequestRow({
  request,
  stillPending,
  onSubmit,
  onHide,
}: {
  request: PendingRequest;
  stillPending: boolean;
  onSubmit: () => void;
  onHide: () => void;
}) {
  const dates = useDates();
  const fetcher = useFetcher<AdminActionResult>();
  const [rejecting, setRejecting] = useState(false);
  const rejectForm = useRef<HTMLFormElement>(null);
  const approving = isBusy(fetcher, 'approve');
  const submittingReject = isBusy(fetcher, 'reject');
  const busy = fetcher.state !== 'idle';
  const result = fetcher.data;
  const done = result?.ok === true;
  const amount = formatUsd(request.amount);
  const customer = request.customer.name || request.customer.email;

  function openReject() {
    flushSync(() => setRejecting(true));
    rejectForm.current?.querySelector('textarea')?.focus();
  }

  return (
    <li
      className={`rounded-xl border p-4 ${
        stillPending ? 'border-slate-200 bg-white' : 'border-slate-200 bg-slate-50'
      }`}
    >
      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 lg:grid-cols-[minmax(0,2fr)_minmax(0,1.2fr)_minmax(0,0.8fr)_minmax(0,1.4fr)_minmax(0,1.2fr)]">
        <Detail label="Cliente" className="col-span-2 lg:col-span-1">
          <span className="block font-medium">{request.customer.name}</span>
          <span className="block break-all text-slate-600">{request.customer.email}</span>
        </Detail>
        <Detail label="Método">{request.methodName}</Detail>
        <Detail label="Importe">
          <span className="font-semibold tabular-nums">{amount}</span>
        </Detail>
        <Detail label="Referencia">
          <span className="break-all">{request.reference ?? '—'}</span>
        </Detail>
        <Detail label="Fecha">
          <time dateTime={request.createdAt}>{dates.dateTime(request.createdAt)}</time>
        </Detail>
      </dl>

      <div className="mt-4 flex flex-wrap items-center gap-2">
        {request.hasReceipt ? (
          <a
            href={`/api/admin/funds/requests/${encodeURIComponent(request.id)}/receipt`}
            download
            className={buttonClass('ghost', 'text-brand-700 underline-offset-2 hover:underline')}
          >
            Descargar comprobante
            <span className="sr-only"> de {customer}</span>
          </a>
        ) : (
          <span className="px-1 text-sm text-slate-500">Sin comprobante</span>
        )}
        {stillPending && !done ? (
          <div className="flex w-full flex-wrap gap-2 sm:ml-auto sm:w-auto">
            <fetcher.Form method="post" onSubmit={onSubmit} className="flex-1 sm:flex-none">
              <input type="hidden" name="intent" value="approve" />
              <input type="hidden" name="id" value={request.id} />
              <Button type="submit" className="w-full" disabled={busy}>
                {approving ? 'Aprobando…' : 'Aprobar'}
                <span className="sr-only">
                  {' '}
                  {amount} de {customer}
                </span>
              </Button>
            </fetcher.Form>
            <Button
              variant="secondary"
              className="flex-1 sm:flex-none"
              disabled={busy}
              aria-expanded={rejecting}
              onClick={() => (rejecting ? setRejecting(false) : openReject())}
            >
              Rechazar
              <span className="sr-only">
                {' '}
                {amount} de {customer}
              </span>
            </Button>
          </div>
        ) : !stillPending ? (
          <Button variant="ghost" className="sm:ml-auto" onClick={onHide}>
            Quitar de la lista
          </Button>
        ) : null}
      </div>

      {rejecting && stillPending && !done ? (
        <RejectReasonForm
          Form={fetcher.Form}
          formRef={rejectForm}
          onSubmit={onSubmit}
          intent="reject"
          id={request.id}
          hint="El cliente lo verá en su historial y en el correo que le enviamos."
          error={result?.intent === 'reject' ? result.fields?.reason : undefined}
          busy={busy}
          submitting={submittingReject}
          onCancel={() => setRejecting(false)}
        />
      ) : null}

      {result && !busy ? (
        <div className="mt-3">
          {result.ok && result.intent === 'approve' ? (
            <Alert tone="success">
              Solicitud aprobada: se acreditaron {amount} a {customer}.
              {result.balance ? ` Su saldo ahora es ${formatUsd(result.balance)}.` : null}
            </Alert>
          ) : result.ok && result.intent === 'reject' ? (
            <Alert tone="success">
              Solicitud rechazada. Avisamos a {customer} por correo con el motivo.
            </Alert>
          ) : result.formError ? (
            <Alert tone="error">{result.formError}</Alert>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

import { useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useFetcher } from 'react-router';
import { formatUsd } from '../../../shared/money';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { RejectReasonForm } from './reject-reason-form';
import { Detail, isBusy } from '../../components/ui/section';
import { useDates } from '../../lib/dates';
import type { AdminActionResult, HeldTopup } from './types';

function byCreatedAt(a: HeldTopup, b: HeldTopup): number {
  return a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);
}

/**
 * Paid top-ups held for finance (the fraud hold: «En revisión»). As in the manual requests' list,
 * a row the admin acted on stays in place, with its result, until the admin hides it.
 */
export function HeldTopups({ topups }: { topups: HeldTopup[] }) {
  const [reviewed, setReviewed] = useState<HeldTopup[]>([]);
  const heldIds = new Set(topups.map((t) => t.id));
  const rows = [...topups, ...reviewed.filter((t) => !heldIds.has(t.id))].sort(byCreatedAt);

  function keep(topup: HeldTopup) {
    setReviewed((prev) => (prev.some((t) => t.id === topup.id) ? prev : [...prev, topup]));
  }
  function hide(id: string) {
    setReviewed((prev) => prev.filter((t) => t.id !== id));
  }

  if (rows.length === 0) return <p className="text-slate-600">No hay recargas en revisión.</p>;
  return (
    <>
      <p className="mb-3 text-sm text-slate-600" aria-live="polite">
        {topups.length === 0
          ? 'No quedan recargas en revisión.'
          : topups.length === 1
            ? '1 recarga pagada esperando tu aprobación (la más antigua primero).'
            : `${topups.length} recargas pagadas esperando tu aprobación (las más antiguas primero).`}
      </p>
      <ul className="flex flex-col gap-3" aria-label="Recargas en revisión">
        {rows.map((topup) => (
          <HeldRow
            key={topup.id}
            topup={topup}
            stillHeld={heldIds.has(topup.id)}
            onSubmit={() => keep(topup)}
            onHide={() => hide(topup.id)}
          />
        ))}
      </ul>
    </>
  );
}

function HeldRow({
  topup,
  stillHeld,
  onSubmit,
  onHide,
}: {
  topup: HeldTopup;
  stillHeld: boolean;
  onSubmit: () => void;
  onHide: () => void;
}) {
  const dates = useDates();
  const fetcher = useFetcher<AdminActionResult>();
  const [rejecting, setRejecting] = useState(false);
  const rejectForm = useRef<HTMLFormElement>(null);
  const approving = isBusy(fetcher, 'approve-topup');
  const submittingReject = isBusy(fetcher, 'reject-topup');
  const busy = fetcher.state !== 'idle';
  const result = fetcher.data;
  const done = result?.ok === true;
  const amount = formatUsd(topup.amount);
  const customer = topup.customer.name || topup.customer.email;

  function openReject() {
    flushSync(() => setRejecting(true));
    rejectForm.current?.querySelector('textarea')?.focus();
  }

  return (
    <li
      className={`rounded-xl border p-4 ${
        stillHeld ? 'border-slate-200 bg-white' : 'border-slate-200 bg-slate-50'
      }`}
    >
      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)_minmax(0,1fr)_minmax(0,1.2fr)]">
        <Detail label="Cliente" className="col-span-2 lg:col-span-1">
          <span className="block font-medium">{topup.customer.name}</span>
          <span className="block break-all text-slate-600">{topup.customer.email}</span>
        </Detail>
        <Detail label="Método">{topup.methodName}</Detail>
        <Detail label="Importe">
          <span className="font-semibold tabular-nums">{amount}</span>
        </Detail>
        <Detail label="Comisión">
          <span className="tabular-nums">{formatUsd(topup.fee)}</span>
        </Detail>
        <Detail label="Fecha">
          <time dateTime={topup.createdAt}>{dates.dateTime(topup.createdAt)}</time>
        </Detail>
        <Detail label="Motivo de la retención" className="col-span-2 lg:col-span-5">
          {topup.holdReason ?? topup.note ?? '—'}
        </Detail>
      </dl>

      <div className="mt-4 flex flex-wrap items-center gap-2">
        {stillHeld && !done ? (
          <div className="flex w-full flex-wrap gap-2 sm:ml-auto sm:w-auto">
            <fetcher.Form method="post" onSubmit={onSubmit} className="flex-1 sm:flex-none">
              <input type="hidden" name="intent" value="approve-topup" />
              <input type="hidden" name="id" value={topup.id} />
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
        ) : !stillHeld ? (
          <Button variant="ghost" className="sm:ml-auto" onClick={onHide}>
            Quitar de la lista
          </Button>
        ) : null}
      </div>

      {rejecting && stillHeld && !done ? (
        <RejectReasonForm
          Form={fetcher.Form}
          formRef={rejectForm}
          onSubmit={onSubmit}
          intent="reject-topup"
          id={topup.id}
          hint="El cliente lo verá en su historial. No se acredita nada a su saldo."
          error={result?.intent === 'reject-topup' ? result.fields?.reason : undefined}
          busy={busy}
          submitting={submittingReject}
          onCancel={() => setRejecting(false)}
        />
      ) : null}

      {result && !busy ? (
        <div className="mt-3">
          {result.ok && result.intent === 'approve-topup' ? (
            <Alert tone="success">
              Recarga aprobada: se acreditaron {amount} a {customer}.
              {result.balance ? ` Su saldo ahora es ${formatUsd(result.balance)}.` : null}
            </Alert>
          ) : result.ok && result.intent === 'reject-topup' ? (
            <Alert tone="success">Recarga rechazada. No se acreditó nada a {customer}.</Alert>
          ) : result.formError ? (
            <Alert tone="error">{result.formError}</Alert>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

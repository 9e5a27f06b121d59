import { useState } from 'react';
import { useFetcher } from 'react-router';
import { formatUsd } from '../../../shared/money';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { CallLog, type CallsRequest } from '../../components/ui/call-log';
import { TextAreaField, TextField } from '../../components/ui/field';
import { loadOrderSupplierCalls, mainField, type AdminOrder } from './orders-api';
import { OrderFiles } from './order-files';
import { SourceBadge } from './source-badge';
import { StatusBadge } from './status-badge';
import { useDates } from '../../lib/dates';

export type QueueActionResult = {
  id: string;
  ok: boolean;
  message: string;
  order?: AdminOrder;
  field?: string;
};

type Panel = 'complete' | 'reject' | 'confirm' | 'resend';

/** The panels a row can open now: the review decisions while an admin must decide. */
function panelsFor(order: AdminOrder): readonly Panel[] {
  if (order.status !== 'pending' && order.status !== 'processing') return [];
  const dispatch = order.dispatch;
  if (dispatch?.state !== 'review') return ['complete', 'reject'];
  // Never sent to anyone (no supplier could take it): there is no reference to confirm.
  return dispatch.supplierId ? ['confirm', 'resend', 'reject'] : ['resend', 'reject'];
}

/** "Proveedor: X · Ref. 9001 · Enviada al proveedor", with why it waits for an admin. */
function DispatchInfo({ dispatch }: { dispatch: NonNullable<AdminOrder['dispatch']> }) {
  const review = dispatch.state === 'review';
  return (
    <div
      className={`rounded-lg border px-3 py-2 text-sm break-words ${
        review
          ? 'border-amber-200 bg-amber-50 text-amber-950'
          : 'border-slate-200 bg-slate-50 text-slate-700'
      }`}
      data-testid="dispatch"
    >
      <p>
        Proveedor: {dispatch.supplierName ?? 'por asignar'}
        {dispatch.reference ? ` · Ref. ${dispatch.reference}` : ''}
        {' · '}
        <strong className="font-semibold">{dispatch.stateLabel}</strong>
        {dispatch.attempts > 1 ? ` · ${dispatch.attempts} envíos` : ''}
      </p>
      {review && dispatch.reviewReason ? (
        <p className="mt-1">
          <span className="font-medium">Motivo:</span> {dispatch.reviewReason}
        </p>
      ) : null}
      {dispatch.lastError && dispatch.lastError !== dispatch.reviewReason ? (
        <p className="mt-1">
          <span className="font-medium">Último error:</span> {dispatch.lastError}
        </p>
      ) : null}
    </div>
  );
}

/**
 * One order of the fulfilment queue with its own fetcher: take, complete or reject it; when its
 * forwarding waits for an admin, the three decisions of the review queue.
 */
export function QueueRow({ order: initial }: { order: AdminOrder }) {
  const dates = useDates();
  const fetcher = useFetcher<QueueActionResult>();
  const [open, setOpen] = useState<Panel | null>(null);
  const [calls, setCalls] = useState<CallsRequest | null>(null);
  const data = fetcher.state === 'idle' ? fetcher.data : undefined;
  const order = fetcher.data?.order ?? initial;
  const busy = fetcher.state !== 'idle';
  const panels = panelsFor(order);
  const active = order.status === 'pending' || order.status === 'processing';
  const review = panels.includes('resend');
  const label = `la orden #${order.number}`;
  if (open && !panels.includes(open)) setOpen(null);

  function toggle(panel: Panel) {
    setOpen(open === panel ? null : panel);
  }
  const fieldError = (field: string) =>
    data && !data.ok && data.field === field ? data.message : undefined;

  return (
    <li className="flex min-w-0 flex-col gap-3 py-4" aria-label={`Orden #${order.number}`}>
      <div className="grid gap-1 sm:grid-cols-[5rem_minmax(0,1fr)_minmax(0,12rem)_6rem_7rem] sm:items-center sm:gap-4">
        <span className="font-semibold text-slate-900">#{order.number}</span>
        <span className="min-w-0">
          <span className="block font-medium text-slate-900">{order.serviceName}</span>
          <span className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-600">
            <span>{dates.dateTime(order.createdAt)}</span>
            <SourceBadge order={order} labelled />
          </span>
        </span>
        <span className="font-mono text-sm break-all text-slate-700">{mainField(order)}</span>
        <span className="font-semibold text-slate-900 tabular-nums sm:text-right">
          {formatUsd(order.price)}
        </span>
        <span className="sm:text-right">
          <StatusBadge status={order.status} />
        </span>
      </div>
      {order.dispatch ? <DispatchInfo dispatch={order.dispatch} /> : null}
      <OrderFiles orderId={order.id} files={order.files} admin />
      {/* A field's error shows under that field only, not twice. */}
      {data && (data.ok || !data.field) ? (
        <Alert tone={data.ok ? 'success' : 'error'}>{data.message}</Alert>
      ) : null}
      {!active && (order.result ?? order.rejectReason) ? (
        <p className="text-sm break-words whitespace-pre-line text-slate-700">
          <span className="font-medium text-slate-900">
            {order.result ? 'Resultado' : 'Motivo del rechazo'}:
          </span>{' '}
          {order.result ?? order.rejectReason}
        </p>
      ) : null}
      {active || order.dispatch ? (
        <div className="flex flex-wrap gap-2">
          {order.status === 'pending' && !review ? (
            <fetcher.Form method="post">
              <input type="hidden" name="intent" value="take" />
              <input type="hidden" name="id" value={order.id} />
              <Button type="submit" variant="secondary" disabled={busy}>
                Tomar<span className="sr-only"> {label}</span>
              </Button>
            </fetcher.Form>
          ) : null}
          {panels.includes('confirm') ? (
            <Button
              variant={open === 'confirm' ? 'primary' : 'secondary'}
              aria-expanded={open === 'confirm'}
              onClick={() => toggle('confirm')}
            >
              El proveedor la tiene<span className="sr-only"> (orden #{order.number})</span>
            </Button>
          ) : null}
          {panels.includes('resend') ? (
            <Button
              variant={open === 'resend' ? 'primary' : 'secondary'}
              aria-expanded={open === 'resend'}
              onClick={() => toggle('resend')}
            >
              Enviar de nuevo<span className="sr-only"> {label}</span>
            </Button>
          ) : null}
          {panels.includes('complete') ? (
            <Button
              variant={open === 'complete' ? 'primary' : 'secondary'}
              aria-expanded={open === 'complete'}
              onClick={() => toggle('complete')}
            >
              Completar<span className="sr-only"> {label}</span>
            </Button>
          ) : null}
          {panels.includes('reject') ? (
            <Button
              variant={open === 'reject' ? 'danger' : 'secondary'}
              aria-expanded={open === 'reject'}
              onClick={() => toggle('reject')}
            >
              {review ? 'Rechazar y reembolsar' : 'Rechazar'}
              <span className="sr-only"> {label}</span>
            </Button>
          ) : null}
          {order.dispatch ? (
            <Button
              variant="ghost"
              aria-expanded={calls !== null}
              onClick={() => setCalls(calls ? null : loadOrderSupplierCalls(order.id))}
            >
              {calls ? 'Ocultar llamadas al proveedor' : 'Ver llamadas al proveedor'}
              <span className="sr-only"> (orden #{order.number})</span>
            </Button>
          ) : null}
        </div>
      ) : null}
      {open === 'confirm' ? (
        <fetcher.Form method="post" noValidate className="flex flex-col gap-3">
          <input type="hidden" name="intent" value="confirm-dispatch" />
          <input type="hidden" name="id" value={order.id} />
          <TextField
            label="Referencia del proveedor"
            name="reference"
            required
            maxLength={100}
            autoComplete="off"
            spellCheck={false}
            hint={`El número de la orden en el panel de ${order.dispatch?.supplierName ?? 'el proveedor'}. No se envía nada: seguiremos esa orden.`}
            error={fieldError('reference')}
          />
          <div>
            <Button type="submit" disabled={busy}>
              {busy ? 'Guardando…' : 'Confirmar referencia'}
            </Button>
          </div>
        </fetcher.Form>
      ) : null}
      {open === 'resend' ? (
        <fetcher.Form method="post" className="flex flex-col gap-3">
          <input type="hidden" name="intent" value="resend-dispatch" />
          <input type="hidden" name="id" value={order.id} />
          <p className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-950">
            Comprueba antes en el panel de {order.dispatch?.supplierName ?? 'el proveedor'} que no
            tiene esta orden: si la tiene, enviarla de nuevo puede crear una segunda orden allí (y
            pagarla dos veces).
          </p>
          <div>
            <Button type="submit" disabled={busy}>
              {busy ? 'Enviando…' : 'Sí, enviar de nuevo'}
            </Button>
          </div>
        </fetcher.Form>
      ) : null}
      {open === 'complete' ? (
        <fetcher.Form method="post" noValidate className="flex flex-col gap-3">
          <input type="hidden" name="intent" value="complete" />
          <input type="hidden" name="id" value={order.id} />
          <TextAreaField
            label="Resultado (código o texto)"
            name="result"
            rows={3}
            required
            maxLength={5000}
            error={fieldError('result')}
          />
          <div>
            <Button type="submit" disabled={busy}>
              {busy ? 'Guardando…' : 'Confirmar'}
            </Button>
          </div>
        </fetcher.Form>
      ) : null}
      {open === 'reject' ? (
        <fetcher.Form method="post" noValidate className="flex flex-col gap-3">
          <input type="hidden" name="intent" value="reject" />
          <input type="hidden" name="id" value={order.id} />
          <TextAreaField
            label="Motivo del rechazo"
            name="reason"
            rows={3}
            required
            maxLength={500}
            hint="El cliente lo verá y recibirá el reembolso."
            error={fieldError('reason')}
          />
          <div>
            <Button type="submit" variant="danger" disabled={busy}>
              {busy ? 'Rechazando…' : 'Confirmar rechazo'}
            </Button>
          </div>
        </fetcher.Form>
      ) : null}
      {calls ? (
        <CallLog
          request={calls}
          title="Llamadas al proveedor"
          label={`Llamadas al proveedor sobre la orden #${order.number}`}
          empty="Todavía no se habló con ningún proveedor sobre esta orden."
          showSupplier
          onReload={() => setCalls(loadOrderSupplierCalls(order.id))}
        />
      ) : null}
    </li>
  );
}

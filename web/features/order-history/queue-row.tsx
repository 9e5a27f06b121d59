import { useState, type KeyboardEvent } from 'react';
import { useFetcher } from 'react-router';
import { formatUsd } from '../../../shared/money';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { CallLog, type CallsRequest } from '../../components/ui/call-log';
import { TextAreaField, TextField } from '../../components/ui/field';
import {
  loadOrderSupplierCalls,
  mainField,
  type AdminOrder,
  type QueueActionResult,
} from './orders-api';
import { OrderFiles } from './order-files';
import { ReplaceItem } from './replace-item';
import { isStockOrder } from './stock-order';
import { SourceBadge } from './source-badge';
import { orderAge } from './queue-keys';
import { StatusBadge } from './status-badge';
import { useDates } from '../../lib/dates';

export type { QueueActionResult } from './orders-api';

type Panel = 'complete' | 'reject' | 'confirm' | 'resend';

/** The panels a row can open now: the review decisions while an admin must decide. */
function panelsFor(order: AdminOrder): readonly Panel[] {
  // Delivered from stock: the customer reports a bad item; it can still be refunded.
  if (order.status === 'completed' && isStockOrder(order)) return ['reject'];
  if (order.status !== 'pending' && order.status !== 'processing') return [];
  const dispatch = order.dispatch;
  if (dispatch?.state !== 'review') return ['complete', 'reject'];
  // Never sent to anyone (no supplier could take it): there is no reference to confirm.
  return dispatch.supplierId ? ['confirm', 'resend', 'reject'] : ['resend', 'reject'];
}

/** "Proveedor: X · Ref. 9001 · Enviada al proveedor". */
function dispatchLine(dispatch: NonNullable<AdminOrder['dispatch']>) {
  return `Proveedor: ${dispatch.supplierName ?? 'por asignar'}${
    dispatch.reference ? ` · Ref. ${dispatch.reference}` : ''
  } · ${dispatch.stateLabel}${dispatch.attempts > 1 ? ` · ${dispatch.attempts} envíos` : ''}`;
}

/** The forwarding needs a word more than its line: why it waits for an admin, its last error. */
function dispatchNeedsDetail(dispatch: NonNullable<AdminOrder['dispatch']>) {
  return dispatch.state === 'review' || Boolean(dispatch.lastError);
}

/** The forwarding with why it waits for an admin (below the row, full width). */
function DispatchInfo({ dispatch }: { dispatch: NonNullable<AdminOrder['dispatch']> }) {
  const review = dispatch.state === 'review';
  return (
    <div
      className={`rounded-lg border px-3 py-1.5 text-sm break-words ${
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

/** Compact on a desktop's dense rows. */
const SMALL = 'lg:min-h-6 lg:px-2 lg:py-0 lg:text-xs';

export type QueueRowProps = {
  order: AdminOrder;
  /** Selected for a bulk action. */
  selected: boolean;
  onSelect: (selected: boolean) => void;
  /** The row whose checkbox takes the list's Tab stop (roving focus). */
  current: boolean;
  onFocusRow: () => void;
  onRowKey: (e: KeyboardEvent<HTMLInputElement>) => void;
  /** The moment ages are counted from. */
  now: number;
};

/**
 * One order of the fulfilment queue with its own fetcher: take, complete or reject it; when its
 * forwarding waits for an admin, the three decisions of the review queue.
 */
export function QueueRow({
  order: initial,
  selected,
  onSelect,
  current,
  onFocusRow,
  onRowKey,
  now,
}: QueueRowProps) {
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
  // Delivered from stock: a bad item can be replaced by another one from the stock.
  const replaceable = order.status === 'completed' && isStockOrder(order);
  const label = `la orden #${order.number}`;
  if (open && !panels.includes(open)) setOpen(null);

  function toggle(panel: Panel) {
    setOpen(open === panel ? null : panel);
  }
  const fieldError = (field: string) =>
    data && !data.ok && data.field === field ? data.message : undefined;

  // The row's buttons (the last column of a desktop row).
  const rowActions =
    active || order.dispatch || replaceable ? (
      <div className="flex basis-full flex-wrap gap-2 lg:basis-auto lg:justify-end lg:gap-1">
        {order.status === 'pending' && !review ? (
          <fetcher.Form method="post">
            <input type="hidden" name="intent" value="take" />
            <input type="hidden" name="id" value={order.id} />
            <Button type="submit" variant="secondary" disabled={busy} className={SMALL}>
              Tomar<span className="sr-only"> {label}</span>
            </Button>
          </fetcher.Form>
        ) : null}
        {panels.includes('confirm') ? (
          <Button
            className={SMALL}
            variant={open === 'confirm' ? 'primary' : 'secondary'}
            aria-expanded={open === 'confirm'}
            onClick={() => toggle('confirm')}
          >
            El proveedor la tiene<span className="sr-only"> (orden #{order.number})</span>
          </Button>
        ) : null}
        {panels.includes('resend') ? (
          <Button
            className={SMALL}
            variant={open === 'resend' ? 'primary' : 'secondary'}
            aria-expanded={open === 'resend'}
            onClick={() => toggle('resend')}
          >
            Enviar de nuevo<span className="sr-only"> {label}</span>
          </Button>
        ) : null}
        {panels.includes('complete') ? (
          <Button
            className={SMALL}
            variant={open === 'complete' ? 'primary' : 'secondary'}
            aria-expanded={open === 'complete'}
            onClick={() => toggle('complete')}
          >
            Completar<span className="sr-only"> {label}</span>
          </Button>
        ) : null}
        {panels.includes('reject') ? (
          <Button
            className={SMALL}
            variant={open === 'reject' ? 'danger' : 'secondary'}
            aria-expanded={open === 'reject'}
            onClick={() => toggle('reject')}
          >
            {review || replaceable ? 'Rechazar y reembolsar' : 'Rechazar'}
            <span className="sr-only"> {label}</span>
          </Button>
        ) : null}
        {replaceable ? <ReplaceItem order={order} fetcher={fetcher} className={SMALL} /> : null}
        {order.dispatch ? (
          <Button
            className={SMALL}
            variant="ghost"
            aria-expanded={calls !== null}
            onClick={() => setCalls(calls ? null : loadOrderSupplierCalls(order.id))}
          >
            {calls ? (
              'Ocultar llamadas'
            ) : (
              <>
                <span className="sr-only">Ver </span>Llamadas
              </>
            )}
            <span className="sr-only"> al proveedor</span>
            <span className="sr-only"> (orden #{order.number})</span>
          </Button>
        ) : null}
      </div>
    ) : null;

  return (
    <li
      className={`flex min-w-0 flex-col gap-2 px-1 py-2 has-[input:focus-visible]:bg-brand-50 lg:py-0 ${selected ? 'bg-brand-50/60' : ''}`}
      aria-label={`Orden #${order.number}`}
      data-queue-row={order.id}
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm lg:grid lg:grid-cols-[1.5rem_4rem_minmax(0,1.1fr)_minmax(0,1.4fr)_9.5rem_4.5rem_3.5rem_6.5rem_minmax(0,1fr)_auto] lg:gap-x-3">
        <input
          type="checkbox"
          className="size-5 accent-brand-600 lg:size-4"
          checked={selected}
          tabIndex={current ? 0 : -1}
          onChange={(e) => onSelect(e.target.checked)}
          onFocus={onFocusRow}
          onKeyDown={onRowKey}
          aria-label={`Seleccionar la orden #${order.number}`}
          aria-keyshortcuts="j k x Enter"
        />
        <span className="font-semibold text-slate-900 tabular-nums">#{order.number}</span>
        <span className="order-last min-w-0 basis-full truncate text-slate-700 lg:order-none lg:basis-auto">
          <span className="lg:sr-only">Cliente: </span>
          <span title={order.customerEmail}>{order.customerName || order.customerEmail}</span>
          <span className="sr-only"> ({order.customerEmail})</span>
        </span>
        <span className="min-w-0 basis-full font-medium text-slate-900 lg:basis-auto lg:truncate">
          <span title={order.serviceName}>{order.serviceName}</span>{' '}
          <SourceBadge order={order} labelled />
        </span>
        <span className="min-w-0 font-mono text-xs break-all text-slate-700 lg:truncate">
          {mainField(order)}
        </span>
        <span className="font-semibold text-slate-900 tabular-nums lg:text-right">
          {order.price === null ? (
            <span className="text-slate-500">
              —<span className="sr-only">Importe no visible para tu rol</span>
            </span>
          ) : (
            formatUsd(order.price)
          )}
          {/* Admin and finance only: support's answers carry no cost. */}
          {order.cost != null ? (
            <span className="block text-xs font-normal text-slate-600" data-testid="order-cost">
              Costo {formatUsd(order.cost)}
              {order.margin != null ? ` · Margen ${formatUsd(order.margin)}` : ''}
            </span>
          ) : null}
        </span>
        <span
          className="text-slate-600 tabular-nums"
          title={dates.dateTime(order.createdAt)}
          suppressHydrationWarning
        >
          <span className="sr-only">Hace </span>
          {orderAge(order.createdAt, now)}
        </span>
        <span>
          <StatusBadge status={order.status} />
        </span>
        <span className="min-w-0 basis-full text-xs text-slate-600 lg:basis-auto">
          {order.dispatch && !dispatchNeedsDetail(order.dispatch) ? (
            <span
              className="block lg:truncate"
              title={dispatchLine(order.dispatch)}
              data-testid="dispatch"
            >
              {dispatchLine(order.dispatch)}
            </span>
          ) : order.dispatch ? (
            <strong className="font-semibold text-amber-900">{order.dispatch.stateLabel}</strong>
          ) : isStockOrder(order) ? (
            <span data-testid="from-stock">Desde stock</span>
          ) : (
            <span>A mano</span>
          )}
        </span>
        {rowActions}
      </div>
      {order.dispatch && dispatchNeedsDetail(order.dispatch) ? (
        <DispatchInfo dispatch={order.dispatch} />
      ) : null}
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
          {/* Only staff who see costs get `cost` in the order (admin, finance). */}
          {'cost' in order ? (
            <TextField
              label="Costo (opcional, USD)"
              name="cost"
              inputMode="decimal"
              autoComplete="off"
              maxLength={12}
              placeholder="4.20"
              hint="Lo que te costó atenderla, para los informes de margen."
              error={fieldError('cost')}
            />
          ) : null}
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
            hint={
              replaceable
                ? 'El cliente lo verá y recibirá el reembolso; el artículo queda marcado como defectuoso.'
                : 'El cliente lo verá y recibirá el reembolso.'
            }
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

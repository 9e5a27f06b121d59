import { Dialog } from 'radix-ui';
import { useState } from 'react';
import { Link, useFetcher } from 'react-router';
import { formatUsd } from '../../../shared/money';
import {
  ORDER_STATUS_LABELS,
  type OrderDto,
  type OrderEventDto,
} from '../../../shared/schemas/orders';
import { Alert } from '../../components/ui/alert';
import { Button, buttonClass } from '../../components/ui/button';
import { OrderFiles } from './order-files';
import { showsSource, SourceBadge } from './source-badge';
import { StatusBadge } from './status-badge';
import { useDates } from '../../lib/dates';
import { newTicketUrl } from '../../lib/support-links';

export type CancelResult = { ok: boolean; message: string };

const ACTORS: Record<OrderEventDto['actor'], string> = {
  customer: 'Tú',
  admin: 'Administración',
  system: 'Sistema',
};

export type DetailState = { order: OrderDto } | { error: string } | null;

/**
 * The order of `?orden=<id>` in a dialog; closing it removes the search param. `returnFocusTo`:
 * what takes the focus back when it closes (the order's row; the dialog opens from the URL, so
 * it has no trigger of its own).
 */
export function OrderDetailDialog({
  detail,
  onClose,
  returnFocusTo,
}: {
  detail: DetailState;
  onClose: () => void;
  returnFocusTo?: () => HTMLElement | null;
}) {
  return (
    <Dialog.Root open={detail !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/40" />
        <Dialog.Content
          onCloseAutoFocus={(event) => {
            const target = returnFocusTo?.();
            if (!target) return;
            event.preventDefault();
            target.focus();
          }}
          className="fixed inset-x-0 bottom-0 z-50 max-h-[90vh] overflow-y-auto rounded-t-2xl bg-white p-4 shadow-xl focus:outline-none sm:inset-x-auto sm:top-1/2 sm:bottom-auto sm:left-1/2 sm:w-[36rem] sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-2xl sm:p-6"
        >
          <div className="flex items-start justify-between gap-3">
            <Dialog.Title className="text-lg font-semibold text-slate-900">
              {detail && 'order' in detail
                ? `Orden #${detail.order.number}`
                : 'Detalle de la orden'}
            </Dialog.Title>
            <Dialog.Close className={buttonClass('ghost', 'px-3')}>Cerrar</Dialog.Close>
          </div>
          <Dialog.Description className="sr-only">
            Datos, estado, historial y resultado de la orden.
          </Dialog.Description>
          {detail && 'order' in detail ? (
            <OrderDetail key={detail.order.id} order={detail.order} />
          ) : detail ? (
            <div className="mt-4">
              <Alert tone="error">{detail.error}</Alert>
            </div>
          ) : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function OrderDetail({ order }: { order: OrderDto }) {
  const dates = useDates();
  const output = order.result ?? order.rejectReason;
  return (
    <div className="mt-4 flex flex-col gap-5 text-sm">
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2">
        <dt className="text-slate-600">Servicio</dt>
        <dd className="font-medium text-slate-900">{order.serviceName}</dd>
        {Object.entries(order.fields)
          .filter(([key]) => !order.files?.some((f) => f.fieldKey === key))
          .map(([key, value]) => (
            <Row key={key} label={key === 'imei' ? 'IMEI' : key} value={value} mono />
          ))}
        {order.quantity > 1 ? <Row label="Cantidad" value={quantityText(order)} /> : null}
        {order.runs !== null && order.runInterval !== null ? (
          <Row
            label="Goteo"
            value={`${order.runs} repeticiones de ${order.quantity / order.runs}, cada ${order.runInterval} min`}
          />
        ) : null}
        {order.startCount !== null ? (
          <Row label="Contador al empezar" value={order.startCount.toLocaleString('es')} />
        ) : null}
        {order.remains !== null && (order.status === 'processing' || order.status === 'pending') ? (
          <Row label="Falta por entregar" value={order.remains.toLocaleString('es')} />
        ) : null}
        <Row label="Importe" value={formatUsd(order.price)} />
        <Row label="Fecha" value={dates.dateTime(order.createdAt)} />
        {showsSource(order) ? (
          <>
            <dt className="text-slate-600">Origen</dt>
            <dd>
              <SourceBadge order={order} />
            </dd>
          </>
        ) : null}
        <dt className="text-slate-600">Estado</dt>
        <dd>
          <StatusBadge status={order.status} />
        </dd>
      </dl>

      <OrderFiles orderId={order.id} files={order.files} />

      {output ? (
        <ResultBox title={order.result ? 'Resultado' : 'Motivo del rechazo'} text={output} />
      ) : null}

      {order.events && order.events.length > 0 ? (
        <section aria-labelledby="orden-historial">
          <h3 id="orden-historial" className="font-semibold text-slate-900">
            Historial
          </h3>
          <ol className="mt-2 border-l-2 border-slate-200 pl-4">
            {order.events.map((e, i) => (
              <li key={i} className="pb-3">
                <p className="font-medium text-slate-900">{eventTitle(e)}</p>
                <p className="text-slate-600">
                  {ACTORS[e.actor]} · {dates.dateTime(e.at)}
                </p>
                {e.note ? <p className="text-slate-700">{e.note}</p> : null}
              </li>
            ))}
          </ol>
        </section>
      ) : null}

      {order.refills && order.refills.length > 0 ? (
        <section aria-labelledby="orden-reposiciones">
          <h3 id="orden-reposiciones" className="font-semibold text-slate-900">
            Reposiciones
          </h3>
          <ul className="mt-2 flex flex-col gap-2">
            {order.refills.map((r) => (
              <li key={r.id} className="rounded-lg border border-slate-200 p-3">
                <p className="font-medium text-slate-900">
                  Reposición n.º {r.number}: {r.statusLabel}
                </p>
                <p className="text-slate-600">
                  Pedida el {dates.dateTime(r.createdAt)}
                  {r.finishedAt ? ` · terminó el ${dates.dateTime(r.finishedAt)}` : ''}
                </p>
                {r.note ? <p className="text-slate-700">{r.note}</p> : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <OrderActions order={order} />
    </div>
  );
}

/** The quantity with thousands separators (a drip-feed shows the total of its runs). */
function quantityText(order: OrderDto): string {
  return order.quantity.toLocaleString('es');
}

const EVENT_KINDS: Record<OrderEventDto['kind'], string | null> = {
  status: null,
  refill: 'Reposición',
  cancel: 'Cancelación',
};

function eventTitle(e: OrderEventDto): string {
  return EVENT_KINDS[e.kind] ?? ORDER_STATUS_LABELS[e.status];
}

function Row({ label, value, mono }: { label: string; value: string; mono?: boolean }) {
  return (
    <>
      <dt className="text-slate-600">{label}</dt>
      <dd className={`break-all text-slate-900 ${mono ? 'font-mono' : ''}`}>{value}</dd>
    </>
  );
}

function ResultBox({ title, text }: { title: string; text: string }) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('yes');
    } catch {
      setCopied('no');
    }
  }
  return (
    <section aria-labelledby="orden-resultado">
      <div className="flex items-center justify-between gap-2">
        <h3 id="orden-resultado" className="font-semibold text-slate-900">
          {title}
        </h3>
        <Button variant="secondary" onClick={() => void copy()}>
          Copiar
        </Button>
      </div>
      <pre
        className="mt-2 overflow-x-auto rounded-lg bg-slate-100 p-3 font-mono text-sm whitespace-pre-wrap text-slate-900"
        data-testid="order-result"
      >
        {text}
      </pre>
      <p role="status" className="mt-1 text-sm text-slate-700">
        {copied === 'yes'
          ? 'Copiado'
          : copied === 'no'
            ? 'No se pudo copiar; selecciona el texto.'
            : ''}
      </p>
    </section>
  );
}

/** What the customer can still do with the order: cancel it, ask to cancel it, ask for a refill. */
function OrderActions({ order }: { order: OrderDto }) {
  const dates = useDates();
  const fetcher = useFetcher<CancelResult>();
  const [confirming, setConfirming] = useState<'cancel' | 'request' | null>(null);
  const data = fetcher.state === 'idle' ? fetcher.data : undefined;
  const busy = fetcher.state !== 'idle';
  const submitting = fetcher.formData?.get('intent');
  const refill = order.refill;
  return (
    <div className="flex flex-col gap-3">
      {data ? <Alert tone={data.ok ? 'success' : 'error'}>{data.message}</Alert> : null}
      {order.cancelRequested ? (
        <Alert tone="info">
          Pediste cancelar esta orden: esperamos la respuesta del proveedor. Si la acepta, te
          devolveremos el importe.
        </Alert>
      ) : null}
      {confirming ? (
        <fetcher.Form
          method="post"
          className="flex flex-col gap-3 rounded-lg border border-red-200 bg-red-50 p-3"
        >
          <input type="hidden" name="intent" value="cancel" />
          <input type="hidden" name="id" value={order.id} />
          <p className="text-red-900">
            {confirming === 'cancel'
              ? `¿Cancelar la orden #${order.number}? Te devolveremos ${formatUsd(order.price)} a tu saldo.`
              : `¿Pedir al proveedor que cancele la orden #${order.number}? Si la cancela, te devolveremos lo que no se haya entregado.`}
          </p>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" variant="danger" disabled={busy}>
              {busy
                ? confirming === 'cancel'
                  ? 'Cancelando…'
                  : 'Pidiendo…'
                : confirming === 'cancel'
                  ? 'Sí, cancelar orden'
                  : 'Sí, pedir la cancelación'}
            </Button>
            <Button variant="secondary" onClick={() => setConfirming(null)} disabled={busy}>
              No, mantenerla
            </Button>
          </div>
        </fetcher.Form>
      ) : (
        <div className="flex flex-wrap gap-2">
          {order.cancellable ? (
            <Button variant="secondary" onClick={() => setConfirming('cancel')}>
              Cancelar orden
            </Button>
          ) : null}
          {!order.cancellable && order.cancelRequestable ? (
            <Button variant="secondary" onClick={() => setConfirming('request')}>
              Pedir cancelación
            </Button>
          ) : null}
          {refill?.available ? (
            <fetcher.Form method="post">
              <input type="hidden" name="intent" value="refill" />
              <input type="hidden" name="id" value={order.id} />
              <Button type="submit" variant="secondary" disabled={busy}>
                {busy && submitting === 'refill' ? 'Pidiendo reposición…' : 'Pedir reposición'}
              </Button>
            </fetcher.Form>
          ) : null}
        </div>
      )}
      {refill?.available && refill.until ? (
        <p className="text-slate-600">
          Puedes pedir reposiciones hasta el {dates.date(refill.until)}.
        </p>
      ) : null}
      {refill && !refill.available && refill.reason && order.status === 'completed' ? (
        <p className="text-slate-600">{refill.reason}</p>
      ) : null}
      <p>
        <Link
          to={newTicketUrl({ order: order.id })}
          className="text-brand-700 hover:text-brand-800 font-medium underline"
        >
          Tengo un problema con esta orden
        </Link>
      </p>
    </div>
  );
}

import { useState } from 'react';
import { useFetcher } from 'react-router';
import { formatUsd } from '../../../shared/money';
import type { OrderDto } from '../../../shared/schemas/orders';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { TextAreaField } from '../../components/ui/field';
import { mainField } from './orders-api';
import { StatusBadge } from './status-badge';

export type QueueActionResult = {
  id: string;
  ok: boolean;
  message: string;
  order?: OrderDto;
  field?: string;
};

/** One order of the fulfilment queue with its own fetcher: take, complete or reject it. */
export function QueueRow({ order: initial }: { order: OrderDto }) {
  const fetcher = useFetcher<QueueActionResult>();
  const [open, setOpen] = useState<'complete' | 'reject' | null>(null);
  const data = fetcher.state === 'idle' ? fetcher.data : undefined;
  const order = fetcher.data?.order ?? initial;
  const busy = fetcher.state !== 'idle';
  const active = order.status === 'pending' || order.status === 'processing';
  const label = `la orden #${order.number}`;
  if (data?.ok && open && !active) setOpen(null);

  return (
    <li className="flex flex-col gap-3 py-4" aria-label={`Orden #${order.number}`}>
      <div className="grid gap-1 sm:grid-cols-[5rem_minmax(0,1fr)_minmax(0,12rem)_6rem_7rem] sm:items-center sm:gap-4">
        <span className="font-semibold text-slate-900">#{order.number}</span>
        <span className="min-w-0">
          <span className="block font-medium text-slate-900">{order.serviceName}</span>
          <span className="block text-sm text-slate-600">
            {new Date(order.createdAt).toLocaleString('es')}
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
      {active ? (
        <div className="flex flex-wrap gap-2">
          {order.status === 'pending' ? (
            <fetcher.Form method="post">
              <input type="hidden" name="intent" value="take" />
              <input type="hidden" name="id" value={order.id} />
              <Button type="submit" variant="secondary" disabled={busy}>
                Tomar<span className="sr-only"> {label}</span>
              </Button>
            </fetcher.Form>
          ) : null}
          <Button
            variant={open === 'complete' ? 'primary' : 'secondary'}
            aria-expanded={open === 'complete'}
            onClick={() => setOpen(open === 'complete' ? null : 'complete')}
          >
            Completar<span className="sr-only"> {label}</span>
          </Button>
          <Button
            variant={open === 'reject' ? 'danger' : 'secondary'}
            aria-expanded={open === 'reject'}
            onClick={() => setOpen(open === 'reject' ? null : 'reject')}
          >
            Rechazar<span className="sr-only"> {label}</span>
          </Button>
        </div>
      ) : null}
      {active && open === 'complete' ? (
        <fetcher.Form method="post" noValidate className="flex flex-col gap-3">
          <input type="hidden" name="intent" value="complete" />
          <input type="hidden" name="id" value={order.id} />
          <TextAreaField
            label="Resultado (código o texto)"
            name="result"
            rows={3}
            required
            maxLength={5000}
            error={data && !data.ok && data.field === 'result' ? data.message : undefined}
          />
          <div>
            <Button type="submit" disabled={busy}>
              {busy ? 'Guardando…' : 'Confirmar'}
            </Button>
          </div>
        </fetcher.Form>
      ) : null}
      {active && open === 'reject' ? (
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
            error={data && !data.ok && data.field === 'reason' ? data.message : undefined}
          />
          <div>
            <Button type="submit" variant="danger" disabled={busy}>
              {busy ? 'Rechazando…' : 'Confirmar rechazo'}
            </Button>
          </div>
        </fetcher.Form>
      ) : null}
    </li>
  );
}

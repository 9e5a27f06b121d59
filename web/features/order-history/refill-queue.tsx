import { useState } from 'react';
import { useFetcher } from 'react-router';
import type { AdminRefillDto } from '../../../shared/schemas/orders';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { useDates } from '../../lib/dates';

export type RefillActionResult = { refillId: string; ok: boolean; message: string };

/** Refills customers asked for that wait for an admin (services without a supplier's refill). */
export function RefillQueue({ refills }: { refills: AdminRefillDto[] }) {
  if (refills.length === 0)
    return (
      <p className="text-slate-700" role="status">
        No hay reposiciones pendientes.
      </p>
    );
  return (
    <ul className="divide-y divide-slate-100" data-testid="refill-queue">
      {refills.map((r) => (
        <RefillRow key={r.id} refill={r} />
      ))}
    </ul>
  );
}

function RefillRow({ refill }: { refill: AdminRefillDto }) {
  const dates = useDates();
  const fetcher = useFetcher<RefillActionResult>();
  const [rejecting, setRejecting] = useState(false);
  const data = fetcher.state === 'idle' ? fetcher.data : undefined;
  const busy = fetcher.state !== 'idle';
  const done = data?.ok === true;
  return (
    <li className="flex flex-col gap-2 py-3" aria-label={`Reposición n.º ${refill.number}`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="font-medium text-slate-900">
          Reposición n.º {refill.number} · orden #{refill.orderNumber}
        </p>
        <p className="text-sm text-slate-600">{dates.dateTime(refill.createdAt)}</p>
      </div>
      <p className="text-sm break-words text-slate-700">
        {refill.serviceName} · {refill.customerEmail}
        {refill.identifier ? (
          <>
            {' '}
            · <span className="font-mono break-all">{refill.identifier}</span>
          </>
        ) : null}
      </p>
      {data ? <Alert tone={data.ok ? 'success' : 'error'}>{data.message}</Alert> : null}
      {refill.routed ? (
        <p className="text-sm text-slate-600">Se envía al proveedor que entregó la orden.</p>
      ) : done ? null : rejecting ? (
        <fetcher.Form method="post" className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <input type="hidden" name="intent" value="refill-reject" />
          <input type="hidden" name="id" value={refill.id} />
          <div className="flex-1">
            <TextField label="Motivo del rechazo" name="reason" required autoComplete="off" />
          </div>
          <div className="flex gap-2">
            <Button type="submit" variant="danger" disabled={busy}>
              {busy ? 'Rechazando…' : 'Rechazar'}
            </Button>
            <Button variant="secondary" onClick={() => setRejecting(false)} disabled={busy}>
              Volver
            </Button>
          </div>
        </fetcher.Form>
      ) : (
        <fetcher.Form method="post" className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <input type="hidden" name="intent" value="refill-complete" />
          <input type="hidden" name="id" value={refill.id} />
          <div className="flex-1">
            <TextField
              label="Nota para el cliente (opcional)"
              name="note"
              autoComplete="off"
              maxLength={500}
            />
          </div>
          <div className="flex gap-2">
            <Button type="submit" disabled={busy}>
              {busy ? 'Guardando…' : 'Marcar como hecha'}
            </Button>
            <Button variant="secondary" onClick={() => setRejecting(true)} disabled={busy}>
              Rechazar…
            </Button>
          </div>
        </fetcher.Form>
      )}
    </li>
  );
}

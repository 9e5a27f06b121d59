// «Reemplazar artículo» on an order delivered from stock: a confirmation dialog, then
// POST /api/admin/orders/:id/replace-item through the queue's action (intent `replace-item`).
import { AlertDialog } from 'radix-ui';
import { useState } from 'react';
import type { FetcherWithComponents } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { Button, buttonClass } from '../../components/ui/button';
import { TextAreaField } from '../../components/ui/field';
import type { AdminOrder, QueueActionResult } from './orders-api';

export function ReplaceItem({
  order,
  fetcher,
  className = '',
}: {
  order: AdminOrder;
  /** The row's fetcher: its answer carries the order as it is now. */
  fetcher: FetcherWithComponents<QueueActionResult>;
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  // Sent, with the row's answer at that moment: a new answer is this replacement's.
  const [sent, setSent] = useState<{ before: QueueActionResult | undefined } | null>(null);
  // The row's last answer when the dialog opened: not about this replacement.
  const [earlier, setEarlier] = useState(fetcher.data);
  const busy = fetcher.state !== 'idle';
  // Once the answer is in: done, the dialog closes (the row shows the message); refused, it
  // stays open with the reason.
  if (sent && !busy && fetcher.data !== sent.before) {
    setSent(null);
    if (fetcher.data?.ok) setOpen(false);
  }
  const answer = open && !sent && fetcher.data !== earlier ? fetcher.data : undefined;
  const refused = answer && !answer.ok ? answer : undefined;
  return (
    <AlertDialog.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) setEarlier(fetcher.data);
      }}
    >
      <AlertDialog.Trigger className={buttonClass('secondary', className)}>
        Reemplazar artículo<span className="sr-only"> de la orden #{order.number}</span>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-slate-900/40" />
        <AlertDialog.Content className="fixed inset-x-4 top-1/2 z-50 max-h-[90vh] -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-4 shadow-xl focus:outline-none sm:inset-x-auto sm:left-1/2 sm:w-[30rem] sm:-translate-x-1/2 sm:p-6">
          <AlertDialog.Title className="text-lg font-semibold text-slate-900">
            ¿Reemplazar el artículo de la orden #{order.number}?
          </AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm text-slate-700">
            El artículo entregado se marca como defectuoso (queda guardado) y el cliente recibe otro
            del stock de «{order.serviceName}» como resultado de su orden. No se cobra de nuevo.
          </AlertDialog.Description>
          <fetcher.Form
            method="post"
            noValidate
            className="mt-4 flex flex-col gap-3"
            onSubmit={() => setSent({ before: fetcher.data })}
          >
            <input type="hidden" name="intent" value="replace-item" />
            <input type="hidden" name="id" value={order.id} />
            <TextAreaField
              label="Nota para el cliente (opcional)"
              name="note"
              rows={2}
              maxLength={500}
              hint="Se muestra en el historial de su orden."
              error={refused?.field === 'note' ? refused.message : undefined}
            />
            {refused && refused.field !== 'note' ? (
              <Alert tone="error">{refused.message}</Alert>
            ) : null}
            <div className="flex flex-wrap justify-end gap-2">
              <AlertDialog.Cancel className={buttonClass('secondary')}>Cancelar</AlertDialog.Cancel>
              <Button type="submit" disabled={busy}>
                {busy ? 'Reemplazando…' : 'Sí, reemplazar'}
              </Button>
            </div>
          </fetcher.Form>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

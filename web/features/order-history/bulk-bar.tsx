import { useEffect, useRef, useState } from 'react';
import { useFetcher } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { AppLink } from '../../components/ui/app-link';
import { Button } from '../../components/ui/button';
import { TextAreaField } from '../../components/ui/field';
import type { BulkActionResult, BulkOrderAction } from '../../../shared/schemas/admin-desk';

export type BulkActionActionResult =
  | { intent: 'bulk'; ok: true; action: BulkOrderAction; result: BulkActionResult }
  | { intent: 'bulk'; ok: false; message: string; field?: 'reason' | 'result'; saved?: true };

const DONE: Record<BulkOrderAction, [one: string, many: string]> = {
  take: ['orden tomada', 'órdenes tomadas'],
  complete: ['orden completada', 'órdenes completadas'],
  reject: ['orden rechazada y reembolsada', 'órdenes rechazadas y reembolsadas'],
  resend: ['orden enviada de nuevo', 'órdenes enviadas de nuevo'],
};

function plural(n: number, [one, many]: [string, string]) {
  return `${n} ${n === 1 ? one : many}`;
}

/** A saved text an admin picks instead of typing it again. */
export type Snippet = { id: string; title: string; body: string };

/**
 * The bar over the queue once orders are selected: take, complete (with a result), reject
 * (with a reason, refunded) or send again, each order on its own; the answer says what happened
 * to each one.
 */
export function BulkBar({
  ids,
  numbers,
  onClear,
  reasons = [],
  templates = [],
}: {
  ids: string[];
  numbers: number[];
  onClear: () => void;
  reasons?: Snippet[];
  templates?: Snippet[];
}) {
  const fetcher = useFetcher<BulkActionActionResult>();
  const [open, setOpen] = useState<'complete' | 'reject' | null>(null);
  const [text, setText] = useState('');
  const busy = fetcher.state !== 'idle';
  const data = fetcher.state === 'idle' ? fetcher.data : undefined;
  const count = ids.length;
  const picks = open === 'reject' ? reasons : open === 'complete' ? templates : [];
  const handled = useRef<BulkActionActionResult | undefined>(undefined);

  // Done: the selection and the open panel are cleared; the outcome stays until the next action.
  useEffect(() => {
    if (!data || handled.current === data || !data.ok) return;
    handled.current = data;
    setOpen(null);
    setText('');
    onClear();
  }, [data, onClear]);

  if (count === 0)
    return (
      <div className="flex flex-col gap-2">
        <p className="text-xs text-slate-600">
          Marca órdenes para actuar en bloque. Teclado: j/k o flechas para moverte, x o espacio para
          marcar, Intro para ir a sus botones.
        </p>
        {data?.ok ? <BulkOutcome action={data.action} result={data.result} /> : null}
      </div>
    );

  function toggle(panel: 'complete' | 'reject') {
    setOpen(open === panel ? null : panel);
    setText('');
  }

  return (
    <div
      role="region"
      aria-label="Acciones en bloque"
      className="sticky top-16 z-10 flex flex-col gap-2 rounded-lg border border-brand-200 bg-brand-50 p-2"
    >
      <div className="flex flex-wrap items-center gap-2">
        <p className="text-sm font-semibold text-slate-900" aria-live="polite">
          {count === 1 ? '1 orden seleccionada' : `${count} órdenes seleccionadas`}
          <span className="sr-only">: {numbers.map((n) => `#${n}`).join(', ')}</span>
        </p>
        <fetcher.Form method="post" className="contents">
          <input type="hidden" name="intent" value="bulk" />
          <input type="hidden" name="action" value="take" />
          <input type="hidden" name="ids" value={ids.join(',')} />
          <Button type="submit" variant="secondary" disabled={busy} className="min-h-9 py-1">
            Tomar
          </Button>
        </fetcher.Form>
        <Button
          variant={open === 'complete' ? 'primary' : 'secondary'}
          aria-expanded={open === 'complete'}
          className="min-h-9 py-1"
          onClick={() => toggle('complete')}
        >
          Completar
        </Button>
        <Button
          variant={open === 'reject' ? 'danger' : 'secondary'}
          aria-expanded={open === 'reject'}
          className="min-h-9 py-1"
          onClick={() => toggle('reject')}
        >
          Rechazar
        </Button>
        <fetcher.Form method="post" className="contents">
          <input type="hidden" name="intent" value="bulk" />
          <input type="hidden" name="action" value="resend" />
          <input type="hidden" name="ids" value={ids.join(',')} />
          <Button type="submit" variant="secondary" disabled={busy} className="min-h-9 py-1">
            Enviar de nuevo
          </Button>
        </fetcher.Form>
        <Button variant="ghost" className="min-h-9 py-1" onClick={onClear}>
          Quitar selección
        </Button>
      </div>
      {open ? (
        <fetcher.Form method="post" noValidate className="flex flex-col gap-2">
          <input type="hidden" name="action" value={open} />
          <input type="hidden" name="ids" value={ids.join(',')} />
          <div className="flex flex-wrap items-center gap-2">
            {picks.length > 0 ? (
              <span className="text-sm text-slate-700">
                {open === 'reject' ? 'Motivos guardados:' : 'Plantillas:'}
              </span>
            ) : null}
            {picks.map((p) => (
              <Button
                key={p.id}
                variant="secondary"
                className="min-h-9 py-1"
                onClick={() => setText(p.body)}
              >
                {p.title}
              </Button>
            ))}
            <AppLink
              to="/admin/respuestas"
              className="inline-flex min-h-9 items-center text-sm font-medium text-brand-800 underline underline-offset-2"
            >
              Administrar respuestas
            </AppLink>
          </div>
          <TextAreaField
            label={open === 'reject' ? 'Motivo del rechazo' : 'Resultado (código o texto)'}
            name={open === 'reject' ? 'reason' : 'result'}
            rows={2}
            value={text}
            onChange={(e) => setText(e.target.value)}
            maxLength={open === 'reject' ? 500 : 5000}
            hint={
              open === 'reject'
                ? 'Cada cliente lo verá y recibirá el reembolso de su orden.'
                : 'El mismo resultado para cada orden seleccionada.'
            }
            error={data && !data.ok && data.field ? data.message : undefined}
          />
          <div>
            <Button
              type="submit"
              name="intent"
              value="bulk"
              variant={open === 'reject' ? 'danger' : 'primary'}
              disabled={busy}
            >
              {busy
                ? 'Guardando…'
                : open === 'reject'
                  ? `Rechazar ${count === 1 ? '1 orden' : `${count} órdenes`}`
                  : `Completar ${count === 1 ? '1 orden' : `${count} órdenes`}`}
            </Button>
          </div>
        </fetcher.Form>
      ) : null}
      {data && !data.ok && !data.field ? (
        <Alert tone={data.saved ? 'success' : 'error'}>{data.message}</Alert>
      ) : null}
      {data?.ok ? <BulkOutcome action={data.action} result={data.result} /> : null}
    </div>
  );
}

function BulkOutcome({ action, result }: { action: BulkOrderAction; result: BulkActionResult }) {
  const failed = result.results.filter((r) => !r.ok);
  return (
    <Alert tone={result.failed === 0 ? 'success' : result.done === 0 ? 'error' : 'warning'}>
      {result.done > 0 ? `${plural(result.done, DONE[action])}.` : 'Ninguna orden cambió.'}
      {failed.length > 0 ? (
        <ul className="mt-1 list-disc pl-5">
          {failed.map((r) => (
            <li key={r.id}>
              {r.number ? `#${r.number}` : 'Orden'}: {r.message}
            </li>
          ))}
        </ul>
      ) : null}
    </Alert>
  );
}

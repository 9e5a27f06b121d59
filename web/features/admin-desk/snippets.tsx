import { AlertDialog } from 'radix-ui';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useFetcher } from 'react-router';
import type { SnippetDto, SnippetKind } from '../../../shared/schemas/admin-desk';
import { Alert } from '../../components/ui/alert';
import { Button, buttonClass } from '../../components/ui/button';
import { TextAreaField, TextField } from '../../components/ui/field';
import { Section } from '../../components/ui/section';
import { useDates } from '../../lib/dates';
import { useFocusFirstInvalid } from '../../lib/focus-invalid';
import type { SnippetActionResult } from './snippet-actions';

type KindText = {
  id: string;
  title: string;
  description: string;
  empty: string;
  newTitle: string;
  save: string;
  bodyLabel: string;
  bodyHint: string;
  maxLength: number;
};

export const SNIPPET_KIND_TEXT: Record<SnippetKind, KindText> = {
  reject_reason: {
    id: 'motivos-rechazo',
    title: 'Motivos de rechazo',
    description:
      'Se eligen al rechazar órdenes en bloque desde la cola: cada cliente ve el motivo y recibe el reembolso de su orden.',
    empty: 'Todavía no hay motivos de rechazo guardados.',
    newTitle: 'Nuevo motivo de rechazo',
    save: 'Guardar motivo',
    bodyLabel: 'Motivo que verá el cliente',
    bodyHint: 'Entre 3 y 500 caracteres.',
    maxLength: 500,
  },
  result_template: {
    id: 'plantillas-resultado',
    title: 'Plantillas de resultado',
    description:
      'Se eligen al completar órdenes en bloque desde la cola; el texto se puede cambiar antes de enviarlo.',
    empty: 'Todavía no hay plantillas de resultado guardadas.',
    newTitle: 'Nueva plantilla de resultado',
    save: 'Guardar plantilla',
    bodyLabel: 'Texto del resultado',
    bodyHint: 'Hasta 5000 caracteres.',
    maxLength: 5000,
  },
  ticket_reply: {
    id: 'respuestas-soporte',
    title: 'Respuestas de soporte',
    description:
      'Se eligen al responder un ticket en Soporte; el texto se puede cambiar antes de enviarlo.',
    empty: 'Todavía no hay respuestas de soporte guardadas.',
    newTitle: 'Nueva respuesta de soporte',
    save: 'Guardar respuesta',
    bodyLabel: 'Texto de la respuesta',
    bodyHint: 'Hasta 5000 caracteres.',
    maxLength: 5000,
  },
};

const TITLE_HINT = 'El nombre del botón que se elige (hasta 60 caracteres).';

/** A refused form's message for the whole form, when no field carries it. */
function formErrorOf(result: SnippetActionResult | undefined): string | undefined {
  if (!result || result.ok || !result.formError) return undefined;
  return result.fields && Object.keys(result.fields).length > 0 ? undefined : result.formError;
}

/**
 * The result of a fetcher's last submission, once, as state: `shown` is what the form shows
 * (cleared with `clear`), `fresh` is set on the render a new result arrives.
 */
function useFetcherResult() {
  const fetcher = useFetcher<SnippetActionResult>();
  const data = fetcher.state === 'idle' ? fetcher.data : undefined;
  const [seen, setSeen] = useState(data);
  const [shown, setShown] = useState<SnippetActionResult | undefined>(undefined);
  let fresh: SnippetActionResult | undefined;
  if (data !== seen) {
    setSeen(data);
    setShown(data);
    fresh = data;
  }
  return {
    fetcher,
    busy: fetcher.state !== 'idle',
    shown,
    fresh,
    clear: () => setShown(undefined),
  };
}

/** One kind of saved text: its list (each changed in place or deleted) and a form for a new one. */
export function SnippetSection({ kind, items }: { kind: SnippetKind; items: SnippetDto[] }) {
  const text = SNIPPET_KIND_TEXT[kind];
  const removal = useFetcherResult();
  const [pending, setPending] = useState<SnippetDto | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  const notice = useRef<HTMLDivElement>(null);
  // Deleted: the dialog closes once the list no longer has it.
  if (removal.fresh?.ok && pending) setPending(null);
  const deleted = removal.shown?.ok ? removal.shown : undefined;
  const refused = removal.shown && !removal.shown.ok ? removal.shown : undefined;

  function askDelete(snippet: SnippetDto, button: HTMLElement) {
    opener.current = button;
    removal.clear();
    setPending(snippet);
  }

  return (
    <Section id={text.id} title={text.title} description={text.description}>
      <div className="flex flex-col gap-4">
        <div
          ref={notice}
          tabIndex={-1}
          className="empty:hidden focus:outline-none"
          aria-live="polite"
        >
          {deleted ? <Alert tone="success">{deleted.message}</Alert> : null}
        </div>
        {items.length === 0 ? (
          <p className="text-sm text-slate-600">{text.empty}</p>
        ) : (
          <ul
            className="divide-y divide-slate-200 border-y border-slate-200"
            data-testid={`snippets-${kind}`}
          >
            {items.map((s) => (
              <SnippetItem key={s.id} snippet={s} onDelete={askDelete} />
            ))}
          </ul>
        )}
        <NewSnippet kind={kind} />
      </div>
      <AlertDialog.Root
        open={pending !== null}
        onOpenChange={(open) => (open ? undefined : setPending(null))}
      >
        <AlertDialog.Portal>
          <AlertDialog.Overlay className="fixed inset-0 z-50 bg-slate-900/40" />
          <AlertDialog.Content
            onCloseAutoFocus={(event) => {
              // Back to the «Borrar» that opened it; once deleted, to the message saying so.
              event.preventDefault();
              const back = opener.current;
              if (back?.isConnected) back.focus();
              else notice.current?.focus();
            }}
            className="fixed inset-x-4 top-1/2 z-50 -translate-y-1/2 rounded-2xl bg-white p-4 shadow-xl focus:outline-none sm:inset-x-auto sm:left-1/2 sm:w-[28rem] sm:-translate-x-1/2 sm:p-6"
          >
            <AlertDialog.Title className="text-lg font-semibold text-slate-900">
              ¿Borrar «{pending?.title}»?
            </AlertDialog.Title>
            <AlertDialog.Description className="mt-2 text-sm text-slate-700">
              {kind === 'ticket_reply'
                ? 'Dejará de ofrecerse al responder tickets. Los mensajes ya enviados no cambian.'
                : 'Dejará de ofrecerse en la cola de órdenes. Las órdenes que ya lo usaron no cambian.'}
            </AlertDialog.Description>
            {refused?.formError ? (
              <div className="mt-3">
                <Alert tone="error">{refused.formError}</Alert>
              </div>
            ) : null}
            <removal.fetcher.Form method="post" className="mt-4 flex flex-wrap justify-end gap-2">
              <input type="hidden" name="intent" value="delete" />
              <input type="hidden" name="id" value={pending?.id ?? ''} />
              <input type="hidden" name="kind" value={kind} />
              <input type="hidden" name="title" value={pending?.title ?? ''} />
              <AlertDialog.Cancel className={buttonClass('secondary')}>Cancelar</AlertDialog.Cancel>
              <Button type="submit" variant="danger" disabled={removal.busy}>
                {removal.busy ? 'Borrando…' : 'Borrar'}
              </Button>
            </removal.fetcher.Form>
          </AlertDialog.Content>
        </AlertDialog.Portal>
      </AlertDialog.Root>
    </Section>
  );
}

function SnippetItem({
  snippet,
  onDelete,
}: {
  snippet: SnippetDto;
  onDelete: (snippet: SnippetDto, button: HTMLElement) => void;
}) {
  const { dateTime } = useDates();
  const text = SNIPPET_KIND_TEXT[snippet.kind];
  const { fetcher, busy, shown, fresh, clear } = useFetcherResult();
  const [editing, setEditing] = useState(false);
  if (fresh?.ok && editing) setEditing(false);
  const form = useFocusFirstInvalid(shown);
  const editButton = useRef<HTMLButtonElement>(null);
  const titleField = useRef<HTMLInputElement>(null);
  const wasEditing = useRef(false);
  useEffect(() => {
    if (editing) titleField.current?.focus();
    else if (wasEditing.current) editButton.current?.focus();
    wasEditing.current = editing;
  }, [editing]);

  function cancel() {
    clear();
    setEditing(false);
  }
  function onKeyDown(event: KeyboardEvent) {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    cancel();
  }

  const refused = shown && !shown.ok ? shown : undefined;
  const changed = snippet.updatedAt !== snippet.createdAt;
  return (
    <li className="py-3" data-testid="snippet">
      {editing ? (
        <fetcher.Form
          ref={form}
          method="post"
          noValidate
          onKeyDown={onKeyDown}
          aria-label={`Editar «${snippet.title}»`}
          className="flex flex-col gap-3"
        >
          <input type="hidden" name="intent" value="update" />
          <input type="hidden" name="id" value={snippet.id} />
          <input type="hidden" name="kind" value={snippet.kind} />
          {formErrorOf(refused) ? <Alert tone="error">{formErrorOf(refused)}</Alert> : null}
          <TextField
            ref={titleField}
            label="Título"
            name="title"
            autoComplete="off"
            maxLength={60}
            defaultValue={snippet.title}
            hint={TITLE_HINT}
            error={refused?.fields?.title}
          />
          <TextAreaField
            label={text.bodyLabel}
            name="body"
            rows={3}
            maxLength={text.maxLength}
            defaultValue={snippet.body}
            hint={`${text.bodyHint} Escape cancela.`}
            error={refused?.fields?.body}
          />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={busy}>
              {busy ? 'Guardando…' : 'Guardar'}
            </Button>
            <Button variant="secondary" onClick={cancel}>
              Cancelar
            </Button>
          </div>
        </fetcher.Form>
      ) : (
        <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
          <div className="min-w-0">
            <p className="font-semibold break-words text-slate-900">{snippet.title}</p>
            <p className="mt-1 text-sm break-words whitespace-pre-line text-slate-800">
              {snippet.body}
            </p>
            <p className="mt-1 text-xs text-slate-600">
              Creado el {dateTime(snippet.createdAt)}
              {changed ? ` · cambiado el ${dateTime(snippet.updatedAt)}` : ''}
            </p>
          </div>
          <div className="flex shrink-0 gap-2">
            <button
              ref={editButton}
              type="button"
              className={buttonClass('secondary', 'min-h-11')}
              onClick={() => {
                clear();
                setEditing(true);
              }}
            >
              Editar<span className="sr-only"> «{snippet.title}»</span>
            </button>
            <button
              type="button"
              className={buttonClass('ghost', 'min-h-11 text-red-800 hover:bg-red-50')}
              onClick={(e) => onDelete(snippet, e.currentTarget)}
            >
              Borrar<span className="sr-only"> «{snippet.title}»</span>
            </button>
          </div>
        </div>
      )}
      {!editing && shown?.ok ? (
        <div className="mt-2">
          <Alert tone="success">{shown.message}</Alert>
        </div>
      ) : null}
    </li>
  );
}

function NewSnippet({ kind }: { kind: SnippetKind }) {
  const text = SNIPPET_KIND_TEXT[kind];
  const { fetcher, busy, shown, fresh } = useFetcherResult();
  // A new, empty form after each saved text.
  const [round, setRound] = useState(0);
  if (fresh?.ok) setRound((n) => n + 1);
  const form = useFocusFirstInvalid(shown);
  // Saved: the focus stays in the (new) form, ready for the next one.
  useEffect(() => {
    if (round > 0) form.current?.querySelector<HTMLElement>('input:not([type="hidden"])')?.focus();
  }, [round, form]);
  const refused = shown && !shown.ok ? shown : undefined;
  const headingId = `${text.id}-nuevo`;
  return (
    <div className="rounded-lg bg-slate-50 p-3 sm:p-4">
      <h3 id={headingId} className="text-base font-semibold text-slate-900">
        {text.newTitle}
      </h3>
      <fetcher.Form
        key={round}
        ref={form}
        method="post"
        noValidate
        aria-labelledby={headingId}
        className="mt-3 flex flex-col gap-3"
      >
        <input type="hidden" name="intent" value="create" />
        <input type="hidden" name="kind" value={kind} />
        {formErrorOf(refused) ? <Alert tone="error">{formErrorOf(refused)}</Alert> : null}
        <TextField
          label="Título"
          name="title"
          autoComplete="off"
          maxLength={60}
          hint={TITLE_HINT}
          error={refused?.fields?.title}
        />
        <TextAreaField
          label={text.bodyLabel}
          name="body"
          rows={3}
          maxLength={text.maxLength}
          hint={text.bodyHint}
          error={refused?.fields?.body}
        />
        <Button type="submit" disabled={busy} className="sm:self-start">
          {busy ? 'Guardando…' : text.save}
        </Button>
      </fetcher.Form>
      <div aria-live="polite" className="mt-3 empty:hidden">
        {shown?.ok ? <Alert tone="success">{shown.message}</Alert> : null}
      </div>
    </div>
  );
}

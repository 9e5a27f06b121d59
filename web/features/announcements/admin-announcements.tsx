import { AlertDialog } from 'radix-ui';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useFetcher } from 'react-router';
import { plural } from '../../../shared/plural';
import {
  ANNOUNCEMENT_BODY_MAX,
  ANNOUNCEMENT_STATE_LABELS,
  ANNOUNCEMENT_TITLE_MAX,
  type AnnouncementState,
} from '../../../shared/schemas/announcements';
import { Alert } from '../../components/ui/alert';
import { Button, buttonClass } from '../../components/ui/button';
import { CheckboxField, TextAreaField, TextField } from '../../components/ui/field';
import { Section } from '../../components/ui/section';
import { useDates } from '../../lib/dates';
import { useFocusFirstInvalid } from '../../lib/focus-invalid';
import type { AnnouncementActionResult } from './announcement-actions';
import type { AdminAnnouncementDto } from './admin-announcements-api';
import { toLocalInput } from './draft';
import { FormattedText } from './formatted-text';

export type GroupOption = { id: string; name: string; isDefault: boolean };

const STATE_BADGE: Record<AnnouncementState, string> = {
  scheduled: 'bg-sky-100 text-sky-900',
  active: 'bg-emerald-100 text-emerald-800',
  ended: 'bg-slate-200 text-slate-800',
};

/** The result of a fetcher's last submission, once (as in the saved replies' page). */
function useFetcherResult() {
  const fetcher = useFetcher<AnnouncementActionResult>();
  const data = fetcher.state === 'idle' ? fetcher.data : undefined;
  const [seen, setSeen] = useState(data);
  const [shown, setShown] = useState<AnnouncementActionResult | undefined>(undefined);
  let fresh: AnnouncementActionResult | undefined;
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

function formErrorOf(result: AnnouncementActionResult | undefined): string | undefined {
  if (!result || result.ok || !result.formError) return undefined;
  return result.fields && Object.keys(result.fields).length > 0 ? undefined : result.formError;
}

function groupLabel(g: GroupOption): string {
  return g.isDefault ? `${g.name} (predeterminado: incluye a los clientes sin grupo)` : g.name;
}

const FORMAT_HELP =
  'Formato breve: deja una línea en blanco entre párrafos; **negrita**, *cursiva* y enlaces [texto](https://…).';

/** The fields of a new or saved announcement, with a live preview of its text. */
function AnnouncementFields({
  groups,
  saved,
  errors,
}: {
  groups: GroupOption[];
  saved?: AdminAnnouncementDto;
  errors: Record<string, string> | undefined;
}) {
  const [body, setBody] = useState(saved?.body ?? '');
  const [audience, setAudience] = useState<'all' | 'groups'>(
    saved?.audience.groupIds ? 'groups' : 'all',
  );
  const chosen = new Set(saved?.audience.groupIds ?? []);
  const id = useId();
  const previewId = `${id}-preview`;
  return (
    <>
      <TextField
        label="Título"
        name="title"
        autoComplete="off"
        maxLength={ANNOUNCEMENT_TITLE_MAX}
        defaultValue={saved?.title ?? ''}
        hint={`Hasta ${ANNOUNCEMENT_TITLE_MAX} caracteres.`}
        error={errors?.title}
      />
      <TextAreaField
        label="Texto"
        name="body"
        rows={5}
        maxLength={ANNOUNCEMENT_BODY_MAX}
        value={body}
        onChange={(e) => setBody(e.target.value)}
        hint={`${FORMAT_HELP} Hasta ${ANNOUNCEMENT_BODY_MAX} caracteres.`}
        error={errors?.body}
      />
      <div>
        <p id={previewId} className="text-sm font-medium text-slate-800">
          Vista previa
        </p>
        <div
          role="region"
          aria-labelledby={previewId}
          className="mt-1 min-h-11 rounded-lg border border-dashed border-slate-300 bg-white px-3 py-2 text-sm text-slate-800"
        >
          {body.trim() ? (
            <FormattedText source={body} />
          ) : (
            <p className="text-slate-600">Escribe el texto para verlo aquí.</p>
          )}
        </div>
      </div>
      <fieldset aria-describedby={errors?.audience ? `${id}-audience-error` : undefined}>
        <legend className="text-sm font-medium text-slate-800">Audiencia</legend>
        <div className="mt-1 flex flex-wrap gap-x-6">
          <label className="flex min-h-11 items-center gap-3 text-sm text-slate-800">
            <input
              type="radio"
              name="audience"
              value="all"
              checked={audience === 'all'}
              onChange={() => setAudience('all')}
              className="size-5 accent-brand-600"
            />
            Todos
          </label>
          <label className="flex min-h-11 items-center gap-3 text-sm text-slate-800">
            <input
              type="radio"
              name="audience"
              value="groups"
              checked={audience === 'groups'}
              onChange={() => setAudience('groups')}
              className="size-5 accent-brand-600"
            />
            Grupos de precios elegidos
          </label>
        </div>
        {audience === 'groups' ? (
          <div className="mt-1 rounded-lg bg-white px-3 py-1">
            {groups.length === 0 ? (
              <p className="py-2 text-sm text-slate-600">No hay grupos de precios.</p>
            ) : (
              groups.map((g) => (
                <CheckboxField
                  key={g.id}
                  label={groupLabel(g)}
                  name="groupIds"
                  value={g.id}
                  defaultChecked={chosen.has(g.id)}
                />
              ))
            )}
          </div>
        ) : null}
        {errors?.audience ? (
          <p id={`${id}-audience-error`} className="mt-1 text-sm font-medium text-red-700">
            {errors.audience}
          </p>
        ) : null}
      </fieldset>
      <CheckboxField
        label="Fijado"
        name="pinned"
        defaultChecked={saved?.pinned ?? false}
        hint="Se muestra antes que los demás anuncios."
      />
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label="Inicio"
          name="startsAt"
          type="datetime-local"
          defaultValue={saved ? toLocalInput(saved.startsAt) : ''}
          hint={saved ? 'Vacío: se mantiene el inicio guardado.' : 'Vacío: ahora.'}
          error={errors?.startsAt}
        />
        <TextField
          label="Fin"
          name="endsAt"
          type="datetime-local"
          defaultValue={saved ? toLocalInput(saved.endsAt) : ''}
          hint="Vacío: sin fin."
          error={errors?.endsAt}
        />
      </div>
      <CheckboxField
        label="Enviar también por correo"
        name="email"
        defaultChecked={saved?.email ?? false}
        hint="A los clientes verificados de la audiencia, una sola vez, cuando empiece."
      />
    </>
  );
}

function NewAnnouncement({ groups }: { groups: GroupOption[] }) {
  const { fetcher, busy, shown, fresh } = useFetcherResult();
  const [round, setRound] = useState(0);
  if (fresh?.ok) setRound((n) => n + 1);
  const form = useFocusFirstInvalid(shown);
  const refused = shown && !shown.ok ? shown : undefined;
  return (
    <Section
      id="nuevo-anuncio"
      title="Nuevo anuncio"
      description="Los clientes lo ven en su inicio y como aviso hasta que lo cierran."
    >
      <fetcher.Form
        key={round}
        ref={form}
        method="post"
        noValidate
        aria-labelledby="nuevo-anuncio"
        className="flex flex-col gap-4"
      >
        <input type="hidden" name="intent" value="create" />
        {formErrorOf(refused) ? <Alert tone="error">{formErrorOf(refused)}</Alert> : null}
        <AnnouncementFields groups={groups} errors={refused?.fields} />
        <Button type="submit" disabled={busy} className="sm:self-start">
          {busy ? 'Publicando…' : 'Publicar anuncio'}
        </Button>
      </fetcher.Form>
      <div aria-live="polite" className="mt-3 empty:hidden">
        {shown?.ok ? <Alert tone="success">{shown.message}</Alert> : null}
      </div>
    </Section>
  );
}

function audienceText(a: AdminAnnouncementDto): string {
  if (!a.audience.groupIds) return 'Todos';
  if (a.groups.length === 0) return 'Nadie (sus grupos ya no existen)';
  return a.groups.map((g) => g.name).join(', ');
}

function AnnouncementItem({
  item,
  groups,
  onDelete,
}: {
  item: AdminAnnouncementDto;
  groups: GroupOption[];
  onDelete: (item: AdminAnnouncementDto, button: HTMLElement) => void;
}) {
  const { dateTime } = useDates();
  const { fetcher, busy, shown, fresh, clear } = useFetcherResult();
  const [editing, setEditing] = useState(false);
  if (fresh?.ok && editing) setEditing(false);
  const form = useFocusFirstInvalid(shown);
  const editButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);
  useEffect(() => {
    if (editing) form.current?.querySelector<HTMLElement>('input:not([type="hidden"])')?.focus();
    else if (wasEditing.current) editButton.current?.focus();
    wasEditing.current = editing;
  }, [editing, form]);
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
  return (
    <li className="py-4" data-testid="announcement">
      {editing ? (
        <fetcher.Form
          ref={form}
          method="post"
          noValidate
          onKeyDown={onKeyDown}
          aria-label={`Editar «${item.title}»`}
          className="flex flex-col gap-4"
        >
          <input type="hidden" name="intent" value="update" />
          <input type="hidden" name="id" value={item.id} />
          {formErrorOf(refused) ? <Alert tone="error">{formErrorOf(refused)}</Alert> : null}
          <AnnouncementFields groups={groups} saved={item} errors={refused?.fields} />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={busy}>
              {busy ? 'Guardando…' : 'Guardar cambios'}
            </Button>
            <Button variant="secondary" onClick={cancel}>
              Cancelar
            </Button>
          </div>
        </fetcher.Form>
      ) : (
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
          <div className="min-w-0 flex-1">
            <div className="flex flex-wrap items-center gap-2">
              <h3 className="font-semibold break-words text-slate-900">{item.title}</h3>
              <span
                className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATE_BADGE[item.state]}`}
              >
                {ANNOUNCEMENT_STATE_LABELS[item.state]}
              </span>
              {item.pinned ? (
                <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">
                  Fijado
                </span>
              ) : null}
            </div>
            <FormattedText source={item.body} className="mt-2 text-sm text-slate-800" />
            <dl className="mt-2 grid gap-x-4 gap-y-1 text-xs text-slate-700 sm:grid-cols-2">
              <div>
                <dt className="inline font-medium">Audiencia: </dt>
                <dd className="inline">{audienceText(item)}</dd>
              </div>
              <div>
                <dt className="inline font-medium">Correo: </dt>
                <dd className="inline">
                  {item.email || item.emailsSent > 0
                    ? `${plural(item.emailsSent, 'enviado', 'enviados')}${item.email ? '' : ' (envío detenido)'}`
                    : 'No'}
                </dd>
              </div>
              <div>
                <dt className="inline font-medium">Inicio: </dt>
                <dd className="inline">{dateTime(item.startsAt)}</dd>
              </div>
              <div>
                <dt className="inline font-medium">Fin: </dt>
                <dd className="inline">{item.endsAt ? dateTime(item.endsAt) : 'Sin fin'}</dd>
              </div>
            </dl>
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
              Editar<span className="sr-only"> «{item.title}»</span>
            </button>
            <button
              type="button"
              className={buttonClass('ghost', 'min-h-11 text-red-800 hover:bg-red-50')}
              onClick={(e) => onDelete(item, e.currentTarget)}
            >
              Eliminar<span className="sr-only"> «{item.title}»</span>
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

/** /admin/anuncios: a form for a new announcement and the list, each changed in place or deleted. */
export function AnnouncementsAdmin({
  announcements,
  groups,
}: {
  announcements: AdminAnnouncementDto[];
  groups: GroupOption[];
}) {
  const removal = useFetcherResult();
  const [pending, setPending] = useState<AdminAnnouncementDto | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  const notice = useRef<HTMLDivElement>(null);
  if (removal.fresh?.ok && pending) setPending(null);
  const deleted = removal.shown?.ok ? removal.shown : undefined;
  const refused = removal.shown && !removal.shown.ok ? removal.shown : undefined;
  return (
    <div className="flex flex-col gap-6">
      <NewAnnouncement groups={groups} />
      <Section
        id="anuncios-publicados"
        title="Anuncios"
        description="Programados, activos y terminados, el inicio más reciente primero."
      >
        <div
          ref={notice}
          tabIndex={-1}
          className="mb-3 empty:hidden focus:outline-none"
          aria-live="polite"
        >
          {deleted ? <Alert tone="success">{deleted.message}</Alert> : null}
        </div>
        {announcements.length === 0 ? (
          <p className="text-sm text-slate-600">Todavía no hay anuncios.</p>
        ) : (
          <ul
            className="divide-y divide-slate-200 border-y border-slate-200"
            data-testid="announcements"
          >
            {announcements.map((a) => (
              <AnnouncementItem
                key={a.id}
                item={a}
                groups={groups}
                onDelete={(item, button) => {
                  opener.current = button;
                  removal.clear();
                  setPending(item);
                }}
              />
            ))}
          </ul>
        )}
      </Section>
      <AlertDialog.Root
        open={pending !== null}
        onOpenChange={(open) => (open ? undefined : setPending(null))}
      >
        <AlertDialog.Portal>
          <AlertDialog.Overlay className="fixed inset-0 z-50 bg-slate-900/40" />
          <AlertDialog.Content
            onCloseAutoFocus={(event) => {
              event.preventDefault();
              const back = opener.current;
              if (back?.isConnected) back.focus();
              else notice.current?.focus();
            }}
            className="fixed inset-x-4 top-1/2 z-50 -translate-y-1/2 rounded-2xl bg-white p-4 shadow-xl focus:outline-none sm:inset-x-auto sm:left-1/2 sm:w-[28rem] sm:-translate-x-1/2 sm:p-6"
          >
            <AlertDialog.Title className="text-lg font-semibold text-slate-900">
              ¿Eliminar «{pending?.title}»?
            </AlertDialog.Title>
            <AlertDialog.Description className="mt-2 text-sm text-slate-700">
              Los clientes dejarán de verlo y su correo pendiente ya no se enviará.
            </AlertDialog.Description>
            {refused?.formError ? (
              <div className="mt-3">
                <Alert tone="error">{refused.formError}</Alert>
              </div>
            ) : null}
            <removal.fetcher.Form method="post" className="mt-4 flex flex-wrap justify-end gap-2">
              <input type="hidden" name="intent" value="delete" />
              <input type="hidden" name="id" value={pending?.id ?? ''} />
              <input type="hidden" name="title" value={pending?.title ?? ''} />
              <AlertDialog.Cancel className={buttonClass('secondary')}>Cancelar</AlertDialog.Cancel>
              <Button type="submit" variant="danger" disabled={removal.busy}>
                {removal.busy ? 'Eliminando…' : 'Eliminar'}
              </Button>
            </removal.fetcher.Form>
          </AlertDialog.Content>
        </AlertDialog.Portal>
      </AlertDialog.Root>
    </div>
  );
}

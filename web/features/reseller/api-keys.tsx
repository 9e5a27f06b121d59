import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useFetcher } from 'react-router';
import { API_KEYS_MAX, ALLOWED_IPS_MAX } from '../../../shared/schemas/api-keys';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { TextAreaField, TextField } from '../../components/ui/field';
import { Detail, LoadedList } from '../../components/ui/section';
import type { Loaded } from '../../lib/loaded';
import {
  allowedIpsText,
  keyErrors,
  lastUsedText,
  newKeyDraft,
  prefixText,
  type KeyDraft,
} from './draft';
import { JSON_POST, useFocusInvalid, useFocusOn, useSettled } from './hooks';
import { OneTimeSecret } from './one-time-secret';
import {
  FETCHER_KEYS,
  type ApiKey,
  type ResellerActionResult,
  type ResellerPayload,
} from './types';
import { useDates } from '../../lib/dates';

type Notice = { tone: 'success' | 'error'; text: string; at: number };
/** The key just created: shown once, until the person puts it away. */
type CreatedKey = { name: string; key: string };

/** «Tus claves» (each revocable, after a confirmation) and «Crear clave». */
export function ApiKeys({ keys }: { keys: Loaded<ApiKey[]> }) {
  const [notice, setNotice] = useState<Notice | null>(null);
  // A revoked key's row is gone with its button: the focus goes to the list's heading.
  const heading = useFocusOn<HTMLHeadingElement>(notice?.tone === 'success' ? notice.at : null);
  const headingId = useId();
  useSettled(FETCHER_KEYS.revokeKey, (result) => {
    setNotice({
      tone: result.ok ? 'success' : 'error',
      text: (result.ok ? result.message : result.formError) ?? '',
      at: (notice?.at ?? 0) + 1,
    });
  });

  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby={headingId} className="flex min-w-0 flex-col gap-3">
        <h3
          id={headingId}
          ref={heading}
          tabIndex={-1}
          className="text-base font-semibold text-slate-900 focus:outline-none"
        >
          Tus claves
        </h3>
        <div aria-live="polite">
          {notice?.tone === 'success' ? <Alert tone="success">{notice.text}</Alert> : null}
        </div>
        {notice?.tone === 'error' ? <Alert tone="error">{notice.text}</Alert> : null}
        <LoadedList value={keys} what="tus claves">
          {(items) =>
            items.length === 0 ? (
              <p className="text-sm text-slate-700">Todavía no tienes claves API.</p>
            ) : (
              <ul
                className="divide-y divide-slate-200 rounded-xl border border-slate-200"
                data-testid="api-keys"
              >
                {items.map((key) => (
                  <KeyRow key={key.id} apiKey={key} onRevoke={() => setNotice(null)} />
                ))}
              </ul>
            )
          }
        </LoadedList>
      </section>
      <CreateKeyForm />
    </div>
  );
}

function KeyRow({ apiKey, onRevoke }: { apiKey: ApiKey; onRevoke: () => void }) {
  const dates = useDates();
  const fetcher = useFetcher<ResellerActionResult>({ key: FETCHER_KEYS.revokeKey });
  const [confirming, setConfirming] = useState(false);
  // Set once the person opened or closed the confirmation: only then does the focus move.
  const [toggled, setToggled] = useState(false);
  const nameId = useId();
  const questionId = useId();
  const actions = useRef<HTMLDivElement>(null);
  const pending = fetcher.state !== 'idle' ? (fetcher.json as ResellerPayload | undefined) : null;
  const busy = pending?.intent === 'key-revoke' && pending.id === apiKey.id;
  const name = <span className="sr-only"> {apiKey.name}</span>;

  // Opening the confirmation takes the focus to its question; closing it, back to «Revocar».
  useEffect(() => {
    if (!toggled) return;
    actions.current?.querySelector<HTMLElement>(confirming ? '[role="group"]' : 'button')?.focus();
  }, [confirming, toggled]);

  function toggle(open: boolean) {
    setToggled(true);
    setConfirming(open);
  }

  function revoke() {
    if (fetcher.state !== 'idle') return;
    onRevoke();
    const payload: ResellerPayload = { intent: 'key-revoke', id: apiKey.id, name: apiKey.name };
    void fetcher.submit(payload, JSON_POST);
  }

  return (
    <li aria-labelledby={nameId} className="flex min-w-0 flex-col gap-3 p-3 sm:p-4">
      <h4 id={nameId} className="font-semibold break-words text-slate-900">
        {apiKey.name}
      </h4>
      <dl className="grid gap-3 sm:grid-cols-2">
        <Detail label="Clave">
          <span className="font-mono break-all" data-testid="api-key-prefix">
            {prefixText(apiKey)}
          </span>
        </Detail>
        <Detail label="Direcciones IP permitidas">
          <span className="break-words">{allowedIpsText(apiKey)}</span>
        </Detail>
        <Detail label="Creada">
          <time dateTime={apiKey.createdAt}>{dates.dateTime(apiKey.createdAt)}</time>
        </Detail>
        <Detail label="Último uso">
          {apiKey.lastUsedAt ? (
            <time dateTime={apiKey.lastUsedAt}>{lastUsedText(apiKey, dates.dateTime)}</time>
          ) : (
            lastUsedText(apiKey, dates.dateTime)
          )}
        </Detail>
      </dl>
      <div ref={actions}>
        {confirming ? (
          <div
            role="group"
            aria-labelledby={questionId}
            tabIndex={-1}
            className="flex flex-col gap-3 rounded-lg border border-red-200 bg-red-50 p-3 focus:outline-none focus-visible:ring-2 focus-visible:ring-red-600"
          >
            <p id={questionId} className="text-sm text-red-900">
              ¿Revocar la clave «{apiKey.name}»? Los paneles y programas que la usan dejarán de
              funcionar al momento. No se puede deshacer.
            </p>
            <div className="flex flex-wrap gap-2">
              <Button variant="danger" disabled={busy} onClick={revoke}>
                {busy ? 'Revocando…' : 'Sí, revocar'}
                {name}
              </Button>
              <Button variant="secondary" disabled={busy} onClick={() => toggle(false)}>
                No, mantenerla
              </Button>
            </div>
          </div>
        ) : (
          <Button variant="secondary" onClick={() => toggle(true)}>
            Revocar{name}
          </Button>
        )}
      </div>
    </li>
  );
}

/** «Crear clave»: a name and, optionally, the addresses it may be used from. */
function CreateKeyForm() {
  const [draft, setDraft] = useState<KeyDraft>(newKeyDraft);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const form = useFocusInvalid(errors);
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const fetcher = useSettled(FETCHER_KEYS.createKey, (result) => {
    if (result.ok && result.createdKey) {
      setDraft(newKeyDraft());
      setErrors({});
      setFormError(null);
      setCreated({ name: result.createdKey.name, key: result.createdKey.key });
    } else {
      setErrors(result.fields ?? {});
      setFormError(result.formError ?? null);
    }
  });
  const busy = fetcher.state !== 'idle';

  function set<K extends keyof KeyDraft>(name: K, value: KeyDraft[K]) {
    setDraft((d) => ({ ...d, [name]: value }));
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const found = keyErrors(draft);
    if (Object.keys(found).length > 0) {
      setErrors(found);
      setFormError('Revisa los campos marcados.');
      return;
    }
    setErrors({});
    setFormError(null);
    setCreated(null);
    const payload: ResellerPayload = { intent: 'key-create', draft };
    void fetcher.submit(payload, JSON_POST);
  }

  return (
    <section
      aria-labelledby={headingId}
      className="flex min-w-0 flex-col gap-3 rounded-xl border border-slate-200 bg-slate-50 p-3 sm:p-4"
    >
      <h3
        id={headingId}
        ref={headingRef}
        tabIndex={-1}
        className="text-base font-semibold text-slate-900 focus:outline-none"
      >
        Crear clave
      </h3>
      {created ? (
        <OneTimeSecret
          label={`Tu nueva clave API «${created.name}»`}
          value={created.key}
          hint="Cópiala y guárdala ahora: no la volveremos a mostrar. Si la pierdes, revócala y crea otra."
          what="la clave"
          done="Copiada"
          dismissLabel="Ya la guardé"
          testId="new-api-key"
          onDismiss={() => {
            setCreated(null);
            headingRef.current?.focus();
          }}
        />
      ) : null}
      <form ref={form} noValidate onSubmit={submit} className="flex flex-col gap-4">
        <TextField
          label="Nombre de la clave"
          value={draft.name}
          required
          maxLength={60}
          autoComplete="off"
          placeholder="Mi panel DHRU"
          hint="Para reconocerla en la lista: dónde la vas a usar."
          error={errors.name}
          onChange={(e) => set('name', e.target.value)}
        />
        <TextAreaField
          label="Direcciones IP permitidas (opcional)"
          value={draft.allowedIps}
          rows={3}
          autoComplete="off"
          spellCheck={false}
          placeholder={'203.0.113.7\n198.51.100.0/24'}
          hint={`Una por línea: una dirección o un rango (hasta ${ALLOWED_IPS_MAX}). Vacío: se acepta desde cualquier dirección.`}
          error={errors.allowedIps}
          onChange={(e) => set('allowedIps', e.target.value)}
        />
        {formError && !busy ? <Alert tone="error">{formError}</Alert> : null}
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={busy}>
            {busy ? 'Creando…' : 'Crear clave'}
          </Button>
          <span className="text-sm text-slate-600">Hasta {API_KEYS_MAX} claves activas.</span>
        </div>
      </form>
    </section>
  );
}

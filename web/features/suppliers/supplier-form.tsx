import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useFetcher } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { CheckboxField, SelectField, TextField } from '../../components/ui/field';
import {
  createErrors,
  DHRU_PARAMETERS_OPTIONS,
  DHRU_STATUS2_OPTIONS,
  newSupplierDraft,
  PROTOCOL_OPTIONS,
  toSupplierDraft,
  updateErrors,
  type SupplierDraft,
} from './draft';
import type { Supplier, SuppliersActionResult, SuppliersPayload } from './types';

const JSON_POST = { method: 'post', encType: 'application/json' } as const;

type Errors = Record<string, string>;

/**
 * Watches a fetcher and calls `onSettled` once per answer, during render (the React way to
 * adjust state to a change, without an effect).
 */
export function useSettled(key: string, onSettled: (result: SuppliersActionResult) => void) {
  const fetcher = useFetcher<SuppliersActionResult>({ key });
  const [seen, setSeen] = useState(fetcher.data);
  if (fetcher.state === 'idle' && fetcher.data !== seen) {
    setSeen(fetcher.data);
    if (fetcher.data) onSettled(fetcher.data);
  }
  return fetcher;
}

/** Moves the focus to the first input marked invalid (focus only: no data here). */
function useFocusInvalid(errors: Errors) {
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (Object.keys(errors).length > 0)
      form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);
  return form;
}

/** The API key input, hidden by default, with a button that shows what was typed. */
function KeyField({
  label,
  value,
  hint,
  error,
  required,
  onChange,
}: {
  label: string;
  value: string;
  hint?: string;
  error?: string | undefined;
  required?: boolean;
  onChange: (value: string) => void;
}) {
  const [shown, setShown] = useState(false);
  return (
    <div className="flex flex-col gap-1">
      <TextField
        label={label}
        type={shown ? 'text' : 'password'}
        value={value}
        required={required}
        autoComplete="off"
        spellCheck={false}
        maxLength={500}
        hint={hint}
        error={error}
        onChange={(e) => onChange(e.target.value)}
      />
      <div>
        <Button variant="ghost" aria-pressed={shown} onClick={() => setShown((v) => !v)}>
          Mostrar la clave
        </Button>
      </div>
    </div>
  );
}

/** The inputs both forms share. */
function CommonFields({
  draft,
  errors,
  set,
  editing,
}: {
  draft: SupplierDraft;
  errors: Errors;
  set: <K extends keyof SupplierDraft>(name: K, value: SupplierDraft[K]) => void;
  editing?: Supplier;
}) {
  return (
    <>
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label="Nombre"
          value={draft.name}
          required
          maxLength={80}
          autoComplete="off"
          placeholder="Mi proveedor de desbloqueos"
          error={errors.name}
          onChange={(e) => set('name', e.target.value)}
        />
        {editing ? null : (
          <SelectField
            label="Protocolo"
            value={draft.protocol}
            options={PROTOCOL_OPTIONS}
            error={errors.protocol}
            onChange={(e) => set('protocol', e.target.value === 'smm' ? 'smm' : 'dhru')}
          />
        )}
      </div>
      <TextField
        label="URL"
        type="url"
        value={draft.url}
        required
        maxLength={500}
        autoComplete="off"
        spellCheck={false}
        placeholder="https://proveedor.example"
        hint="La dirección del panel; añadimos /api/index.php (DHRU) o /api/v2 (SMM) si falta."
        error={errors.url}
        onChange={(e) => set('url', e.target.value)}
      />
      <div className="grid gap-3 sm:grid-cols-2">
        {draft.protocol === 'dhru' ? (
          <TextField
            label="Usuario"
            value={draft.username}
            required
            maxLength={200}
            autoComplete="off"
            spellCheck={false}
            hint="Normalmente el correo de tu cuenta en el proveedor"
            error={errors.username}
            onChange={(e) => set('username', e.target.value)}
          />
        ) : null}
        <KeyField
          label={editing ? 'Nueva clave API (opcional)' : 'Clave API'}
          value={draft.apiKey}
          required={!editing}
          hint={
            editing
              ? `Déjala vacía para seguir usando la actual (${editing.apiKeyHint}).`
              : 'La guardamos cifrada y nunca se vuelve a mostrar.'
          }
          error={errors.apiKey}
          onChange={(value) => set('apiKey', value)}
        />
      </div>
      <TextField
        label="Aviso de saldo bajo (opcional)"
        value={draft.lowBalanceThreshold}
        inputMode="decimal"
        autoComplete="off"
        placeholder="25.00"
        hint="Te avisamos por correo cuando el saldo en el proveedor baje de este importe."
        error={errors.lowBalanceThreshold}
        onChange={(e) => set('lowBalanceThreshold', e.target.value)}
      />
    </>
  );
}

/** «Conectar proveedor»: tested by the server before it is saved. */
export function ConnectSupplierForm({ fetcherKey }: { fetcherKey: string }) {
  const [draft, setDraft] = useState<SupplierDraft>(newSupplierDraft);
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const form = useFocusInvalid(errors);
  const fetcher = useSettled(fetcherKey, (result) => {
    if (result.ok) {
      setDraft(newSupplierDraft());
      setErrors({});
      setFormError(null);
      setDone(result.message ?? null);
    } else {
      setErrors(result.fields ?? {});
      setFormError(result.formError ?? null);
    }
  });
  const busy = fetcher.state !== 'idle';

  function set<K extends keyof SupplierDraft>(name: K, value: SupplierDraft[K]) {
    setDraft((d) => ({ ...d, [name]: value }));
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setDone(null);
    const found = createErrors(draft);
    if (Object.keys(found).length > 0) {
      setErrors(found);
      setFormError('Revisa los campos marcados.');
      return;
    }
    setErrors({});
    setFormError(null);
    const payload: SuppliersPayload = { intent: 'create', draft };
    void fetcher.submit(payload, JSON_POST);
  }

  return (
    <form ref={form} noValidate onSubmit={submit} className="flex flex-col gap-4">
      <CommonFields draft={draft} errors={errors} set={set} />
      <div aria-live="polite">
        {busy ? (
          <p className="text-sm font-medium text-slate-700">Probando conexión…</p>
        ) : done ? (
          <Alert tone="success">{done}</Alert>
        ) : null}
      </div>
      {formError && !busy ? <Alert tone="error">{formError}</Alert> : null}
      <div>
        <Button type="submit" disabled={busy}>
          {busy ? 'Probando conexión…' : 'Conectar proveedor'}
        </Button>
      </div>
    </form>
  );
}

/** «Editar»: a new URL, user or key is tested by the server before it is saved. */
export function EditSupplierForm({
  supplier,
  fetcherKey,
  onCancel,
}: {
  supplier: Supplier;
  fetcherKey: string;
  onCancel: () => void;
}) {
  const fetcher = useFetcher<SuppliersActionResult>({ key: fetcherKey });
  const [draft, setDraft] = useState<SupplierDraft>(() => toSupplierDraft(supplier));
  // The supplier as it was when the form opened: a save sends only what changed since then.
  const [base] = useState<SupplierDraft>(() => toSupplierDraft(supplier));
  const [local, setLocal] = useState<{ errors: Errors; formError: string | null }>({
    errors: {},
    formError: null,
  });
  // The key is shared with earlier forms: an answer from before this form opened is not ours.
  const [earlier] = useState(fetcher.data);
  const [submitted, setSubmitted] = useState(false);
  const busy = fetcher.state !== 'idle';
  const result =
    !busy && submitted && fetcher.data !== earlier && fetcher.data?.ok === false
      ? fetcher.data
      : undefined;
  const errors = result ? (result.fields ?? {}) : local.errors;
  const formError = result ? (result.formError ?? null) : local.formError;
  const form = useFocusInvalid(errors);
  const testing =
    draft.url !== base.url || draft.username !== base.username || draft.apiKey.trim() !== '';

  function set<K extends keyof SupplierDraft>(name: K, value: SupplierDraft[K]) {
    setDraft((d) => ({ ...d, [name]: value }));
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const found = updateErrors(draft, base);
    if (Object.keys(found).length > 0) {
      const { form: whole, ...fields } = found;
      setSubmitted(false);
      setLocal({ errors: fields, formError: whole ?? 'Revisa los campos marcados.' });
      return;
    }
    setLocal({ errors: {}, formError: null });
    setSubmitted(true);
    const payload: SuppliersPayload = { intent: 'update', id: supplier.id, draft, base };
    void fetcher.submit(payload, JSON_POST);
  }

  return (
    <form ref={form} noValidate onSubmit={submit} className="flex flex-col gap-4">
      <CommonFields draft={draft} errors={errors} set={set} editing={supplier} />
      <fieldset className="min-w-0 sm:rounded-xl sm:border sm:border-slate-200 sm:bg-white sm:p-4">
        <legend className="px-1 text-base font-semibold text-slate-900">Ajustes de conexión</legend>
        <div className="mt-2 grid gap-3 sm:grid-cols-2">
          {draft.protocol === 'dhru' ? (
            <>
              <SelectField
                label="Formato de los parámetros (DHRU)"
                value={draft.dhruParameters}
                options={DHRU_PARAMETERS_OPTIONS}
                error={errors.dhruParameters}
                onChange={(e) => set('dhruParameters', e.target.value === 'json' ? 'json' : 'xml')}
              />
              <SelectField
                label="El estado 2 significa (DHRU)"
                value={draft.dhruStatus2}
                options={DHRU_STATUS2_OPTIONS}
                error={errors.dhruStatus2}
                onChange={(e) =>
                  set('dhruStatus2', e.target.value === 'cancelled' ? 'cancelled' : 'processing')
                }
              />
            </>
          ) : null}
          <TextField
            label="Peticiones simultáneas"
            type="number"
            min={1}
            max={32}
            step={1}
            value={draft.maxConcurrency}
            inputMode="numeric"
            hint="Cuántas llamadas a la vez le hacemos a este proveedor (de 1 a 32)."
            error={errors.maxConcurrency}
            onChange={(e) => set('maxConcurrency', e.target.value)}
          />
        </div>
        {draft.protocol === 'dhru' ? (
          <div className="mt-2">
            <CheckboxField
              label="Admite consultas de estado en bloque (getimeiorderbulk)"
              checked={draft.dhruBulkStatus}
              error={errors.dhruBulkStatus}
              onChange={(e) => set('dhruBulkStatus', e.target.checked)}
            />
          </div>
        ) : null}
      </fieldset>
      <div aria-live="polite">
        {busy && testing ? (
          <p className="text-sm font-medium text-slate-700">Probando conexión…</p>
        ) : null}
      </div>
      {formError && !busy ? <Alert tone="error">{formError}</Alert> : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={busy}>
          {busy ? (testing ? 'Probando conexión…' : 'Guardando…') : 'Guardar cambios'}
        </Button>
        <Button variant="ghost" disabled={busy} onClick={onCancel}>
          Cancelar
        </Button>
      </div>
    </form>
  );
}

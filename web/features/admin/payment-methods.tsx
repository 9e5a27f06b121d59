import { useState } from 'react';
import { useFetcher } from 'react-router';
import { formatUsd } from '../../../shared/money';
import { feeText } from '../../lib/topup-quote';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { TextAreaField, TextField } from '../../components/ui/field';
import type { AdminActionResult, ManualMethod } from './types';

export function PaymentMethods({ methods }: { methods: ManualMethod[] }) {
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <div>
        <h3 className="text-base font-semibold text-slate-900">Métodos configurados</h3>
        {methods.length === 0 ? (
          <p className="mt-2 text-slate-600">
            Todavía no hay métodos. Crea el primero con el formulario «Nuevo método».
          </p>
        ) : (
          <ul className="mt-3 flex flex-col gap-3">
            {methods.map((method) => (
              <MethodRow key={method.id} method={method} />
            ))}
          </ul>
        )}
      </div>
      <NewMethodForm />
    </div>
  );
}

function limits(method: Pick<ManualMethod, 'minAmount' | 'maxAmount'>): string {
  return `${formatUsd(method.minAmount)} – ${formatUsd(method.maxAmount)}`;
}

function MethodRow({ method }: { method: ManualMethod }) {
  const toggle = useFetcher<AdminActionResult>();
  const edit = useFetcher<AdminActionResult>();
  const [editing, setEditing] = useState(false);
  // Shows the new state while the change is on its way.
  const pendingActive = toggle.formData?.get('active');
  const active = typeof pendingActive === 'string' ? pendingActive === 'true' : method.active;
  const toggling = toggle.state !== 'idle';
  const saving = edit.state !== 'idle';
  const toggleResult = toggle.state === 'idle' ? toggle.data : undefined;
  const editResult = edit.state === 'idle' ? edit.data : undefined;
  const saved = editResult?.ok === true;

  return (
    <li className="rounded-xl border border-slate-200 p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="font-semibold break-words text-slate-900">{method.name}</p>
          <p className="mt-0.5 text-sm text-slate-700">
            <span className="sr-only">Límites: </span>
            <span className="tabular-nums">{limits(method)}</span>
          </p>
          <p className="text-sm text-slate-700">{feeText(method.fee)}</p>
        </div>
        <span
          className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ${
            active ? 'bg-emerald-100 text-emerald-800' : 'bg-slate-200 text-slate-700'
          }`}
        >
          {active ? 'Activo' : 'Inactivo'}
        </span>
      </div>
      <p className="mt-2 line-clamp-3 text-sm whitespace-pre-line text-slate-600">
        {method.instructions}
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        <toggle.Form method="post">
          <input type="hidden" name="intent" value="update-method" />
          <input type="hidden" name="id" value={method.id} />
          <input type="hidden" name="active" value={active ? 'false' : 'true'} />
          <Button type="submit" variant="secondary" disabled={toggling}>
            {toggling
              ? active
                ? 'Activando…'
                : 'Desactivando…'
              : active
                ? 'Desactivar'
                : 'Activar'}
            <span className="sr-only"> {method.name}</span>
          </Button>
        </toggle.Form>
        <Button variant="ghost" aria-expanded={editing} onClick={() => setEditing((v) => !v)}>
          {editing ? 'Cerrar edición' : 'Editar'}
          <span className="sr-only"> {method.name}</span>
        </Button>
      </div>
      {toggleResult?.formError ? (
        <div className="mt-3">
          <Alert tone="error">{toggleResult.formError}</Alert>
        </div>
      ) : null}
      {saved && !editing ? (
        <div className="mt-3">
          <Alert tone="success">{editResult.message}</Alert>
        </div>
      ) : null}
      {editing ? (
        <edit.Form
          method="post"
          noValidate
          className="mt-4 flex flex-col gap-3 border-t border-slate-200 pt-4"
        >
          <input type="hidden" name="intent" value="update-method" />
          <input type="hidden" name="id" value={method.id} />
          {saved ? <Alert tone="success">{editResult.message}</Alert> : null}
          {editResult?.formError ? <Alert tone="error">{editResult.formError}</Alert> : null}
          <MethodFields method={method} fields={editResult?.fields} withOrder />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={saving}>
              {saving ? 'Guardando…' : 'Guardar cambios'}
            </Button>
            <Button variant="ghost" disabled={saving} onClick={() => setEditing(false)}>
              Cancelar
            </Button>
          </div>
        </edit.Form>
      ) : null}
    </li>
  );
}

/** Name, instructions and limits, shared by "Nuevo método" and "Editar". */
function MethodFields({
  method,
  fields,
  withOrder = false,
}: {
  method?: ManualMethod;
  fields: Record<string, string> | undefined;
  withOrder?: boolean;
}) {
  return (
    <>
      <TextField
        label="Nombre"
        name="name"
        required
        maxLength={80}
        defaultValue={method?.name}
        placeholder="Transferencia bancaria"
        error={fields?.name}
      />
      <TextAreaField
        label="Instrucciones para el cliente"
        name="instructions"
        required
        rows={4}
        maxLength={2000}
        defaultValue={method?.instructions}
        hint="Datos de la cuenta y qué referencia debe indicar el cliente."
        error={fields?.instructions}
      />
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label="Importe mínimo"
          name="minAmount"
          inputMode="decimal"
          autoComplete="off"
          required
          defaultValue={method?.minAmount}
          placeholder="10.00"
          hint="En dólares (USD)."
          error={fields?.minAmount}
        />
        <TextField
          label="Importe máximo"
          name="maxAmount"
          inputMode="decimal"
          autoComplete="off"
          required
          defaultValue={method?.maxAmount}
          placeholder="500.00"
          hint="En dólares (USD)."
          error={fields?.maxAmount}
        />
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label="Comisión (%)"
          name="feePercent"
          inputMode="decimal"
          autoComplete="off"
          defaultValue={method?.fee.percent}
          placeholder="0"
          hint="Sobre el importe; vacío o 0, sin porcentaje."
          error={fields?.feePercent}
        />
        <TextField
          label="Comisión fija (US$)"
          name="feeFixed"
          inputMode="decimal"
          autoComplete="off"
          defaultValue={method?.fee.fixed}
          placeholder="0.00"
          hint="Vacío o 0, sin parte fija."
          error={fields?.feeFixed}
        />
      </div>
      {withOrder ? (
        <TextField
          label="Orden en la lista"
          name="sortOrder"
          type="number"
          min={0}
          max={9999}
          step={1}
          defaultValue={method?.sortOrder}
          hint="Los números más bajos aparecen primero."
          error={fields?.sortOrder}
        />
      ) : null}
      {fields?.form ? <Alert tone="error">{fields.form}</Alert> : null}
    </>
  );
}

function NewMethodForm() {
  const fetcher = useFetcher<AdminActionResult>();
  const creating = fetcher.state !== 'idle';
  const result = fetcher.state === 'idle' ? fetcher.data : undefined;
  // A new key empties the form, only after a method was created (never after an error).
  const [formKey, setFormKey] = useState('new');
  const createdId = fetcher.data?.methodId;
  if (createdId && createdId !== formKey) setFormKey(createdId);
  return (
    <div className="rounded-xl border border-slate-200 bg-slate-50 p-4">
      <h3 className="text-base font-semibold text-slate-900">Nuevo método</h3>
      <fetcher.Form key={formKey} method="post" noValidate className="mt-3 flex flex-col gap-3">
        <input type="hidden" name="intent" value="create-method" />
        {result?.ok ? <Alert tone="success">{result.message}</Alert> : null}
        {result?.formError ? <Alert tone="error">{result.formError}</Alert> : null}
        <MethodFields fields={result?.ok ? undefined : result?.fields} />
        <Button type="submit" disabled={creating}>
          {creating ? 'Creando…' : 'Crear método'}
        </Button>
      </fetcher.Form>
    </div>
  );
}

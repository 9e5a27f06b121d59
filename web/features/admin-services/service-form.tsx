import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useFetcher } from 'react-router';
import type { CategorySlug } from '../../../shared/categories';
import { englishWords } from '../../../shared/translation';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { CheckboxField, SelectField, TextAreaField, TextField } from '../../components/ui/field';
import {
  CATEGORY_OPTIONS,
  DELIVERY_HINTS,
  DELIVERY_OPTIONS,
  UNIT_OPTIONS,
  toDraft,
  type ServiceDraft,
} from './draft';
import { FieldEditor } from './field-editor';
import { SmmSettings } from './smm-settings';
import type { AdminService, ServicesActionResult, ServicesPayload } from './types';

/**
 * "Nuevo servicio" (no `service`) and "Editar" (with one): every input, and the fields the
 * service asks for. What was typed stays on screen when the server refuses it.
 */
export function ServiceForm({
  service,
  defaultCategory = '',
  fetcherKey,
  onCancel,
}: {
  service?: AdminService;
  defaultCategory?: CategorySlug | '';
  fetcherKey: string;
  onCancel: () => void;
}) {
  const fetcher = useFetcher<ServicesActionResult>({ key: fetcherKey });
  const form = useRef<HTMLFormElement>(null);
  const [draft, setDraft] = useState<ServiceDraft>(() => toDraft(service, defaultCategory));
  // The service as it was when the form opened: a save sends only what changed since then.
  const [base] = useState<ServiceDraft>(() => toDraft(service, defaultCategory));
  // The key is shared with earlier forms: an answer from before this form opened is not ours.
  const [earlier] = useState(fetcher.data);
  const busy = fetcher.state !== 'idle';
  const result = !busy && fetcher.data !== earlier ? fetcher.data : undefined;
  const failed = result && !result.ok ? result : undefined;
  const errors = failed?.fields ?? {};
  const editing = service !== undefined;

  // Take the admin to the first input the server refused (focus only: no data here).
  useEffect(() => {
    if (failed) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [failed]);

  function set<K extends keyof ServiceDraft>(name: K, value: ServiceDraft[K]) {
    setDraft((d) => ({ ...d, [name]: value }));
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const payload: ServicesPayload = service
      ? { intent: 'update', id: service.id, draft, base }
      : { intent: 'create', draft };
    void fetcher.submit(payload, { method: 'post', encType: 'application/json' });
  }

  const english = [
    ...new Set(
      [draft.name, draft.description, draft.deliveryTime].flatMap((text) => englishWords(text)),
    ),
  ];
  return (
    <form ref={form} noValidate onSubmit={submit} className="flex flex-col gap-4">
      {failed?.formError ? <Alert tone="error">{failed.formError}</Alert> : null}
      {errors.form ? <Alert tone="error">{errors.form}</Alert> : null}
      {english.length > 0 ? (
        <p className="text-sm text-amber-900" data-testid="service-english">
          Por traducir: quedan palabras en inglés ({english.map((w) => `«${w}»`).join(', ')}).
          Escribe el nombre, la descripción y el tiempo de entrega en español.
        </p>
      ) : null}
      <div className="grid gap-3 sm:grid-cols-2">
        <SelectField
          label="Categoría"
          value={draft.category}
          required
          placeholder={editing ? undefined : 'Elige una categoría'}
          options={CATEGORY_OPTIONS}
          error={errors.category}
          onChange={(e) => set('category', e.target.value as CategorySlug | '')}
        />
        <TextField
          label="Nombre"
          value={draft.name}
          required
          maxLength={120}
          autoComplete="off"
          placeholder="Consulta IMEI básica"
          error={errors.name}
          onChange={(e) => set('name', e.target.value)}
        />
      </div>
      <TextAreaField
        label="Descripción"
        value={draft.description}
        required
        rows={3}
        maxLength={1000}
        hint="Qué recibe el cliente; se muestra al hacer la orden."
        error={errors.description}
        onChange={(e) => set('description', e.target.value)}
      />
      <div className="grid gap-3 sm:grid-cols-3">
        <TextField
          label="Tiempo de entrega"
          value={draft.deliveryTime}
          required
          maxLength={60}
          autoComplete="off"
          placeholder="1–3 días hábiles"
          error={errors.deliveryTime}
          onChange={(e) => set('deliveryTime', e.target.value)}
        />
        <TextField
          label="Precio (USD)"
          value={draft.price}
          required
          inputMode="decimal"
          autoComplete="off"
          placeholder="1,50"
          hint={
            service?.markupPercent != null
              ? `Sigue al costo del proveedor con un margen del ${service.markupPercent.toLocaleString('es', { maximumFractionDigits: 2 })} %: la próxima sincronización con el proveedor lo recalcula. Para fijarlo, elige «Precio fijo» en «Proveedores».`
              : draft.unit === '1000'
                ? 'Precio de cada 1000 unidades, por ejemplo 1,50.'
                : 'En dólares, por ejemplo 1,50.'
          }
          error={errors.price}
          onChange={(e) => set('price', e.target.value)}
        />
        <SelectField
          label="Unidad"
          value={draft.unit}
          options={UNIT_OPTIONS}
          error={errors.unit}
          disabled={draft.smmType !== ''}
          hint={draft.smmType !== '' ? 'La fija el tipo SMM.' : undefined}
          onChange={(e) => set('unit', e.target.value === '1000' ? '1000' : 'order')}
        />
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <SelectField
          label="Entrega"
          value={draft.delivery}
          options={DELIVERY_OPTIONS}
          hint={DELIVERY_HINTS[draft.delivery]}
          error={errors.delivery}
          onChange={(e) => {
            const value = DELIVERY_OPTIONS.find((o) => o.value === e.target.value)?.value;
            if (value) set('delivery', value);
          }}
        />
        {draft.delivery === 'stock' ? (
          <TextField
            label="Avisar con poco stock"
            value={draft.lowStockThreshold}
            inputMode="numeric"
            autoComplete="off"
            placeholder="5"
            hint="Avisamos al equipo por correo cuando queden estos artículos o menos; vacío o 0: solo cuando se agota."
            error={errors.lowStockThreshold}
            onChange={(e) => set('lowStockThreshold', e.target.value)}
          />
        ) : null}
      </div>
      <SmmSettings draft={draft} errors={errors} onChange={setDraft} />
      {draft.unit === '1000' ? (
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField
            label="Cantidad mínima"
            value={draft.minQuantity}
            required
            inputMode="numeric"
            autoComplete="off"
            placeholder="100"
            error={errors.minQuantity}
            onChange={(e) => set('minQuantity', e.target.value)}
          />
          <TextField
            label="Cantidad máxima"
            value={draft.maxQuantity}
            required
            inputMode="numeric"
            autoComplete="off"
            placeholder="10000"
            error={errors.maxQuantity}
            onChange={(e) => set('maxQuantity', e.target.value)}
          />
        </div>
      ) : null}
      <div className="flex flex-col gap-1">
        <CheckboxField
          label="Permitir volver a consultar el mismo dato mientras hay una orden en curso"
          checked={draft.allowRecheck}
          error={errors.allowRecheck}
          onChange={(e) => set('allowRecheck', e.target.checked)}
        />
        <CheckboxField
          label="Activo (visible para los clientes)"
          checked={draft.active}
          error={errors.active}
          onChange={(e) => set('active', e.target.checked)}
        />
      </div>
      <fieldset className="min-w-0 sm:rounded-xl sm:border sm:border-slate-200 sm:bg-white sm:p-4">
        <legend className="px-1 text-base font-semibold text-slate-900">
          Datos que pide al cliente
        </legend>
        <p className="mb-3 text-sm text-slate-600">
          Cada campo se valida al hacer la orden según su tipo. El orden aquí es el orden en el
          formulario del cliente.
        </p>
        <FieldEditor
          fields={draft.fields}
          errors={errors}
          onChange={(fields) => set('fields', fields)}
        />
      </fieldset>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={busy}>
          {busy
            ? editing
              ? 'Guardando…'
              : 'Creando…'
            : editing
              ? 'Guardar cambios'
              : 'Crear servicio'}
        </Button>
        <Button variant="ghost" disabled={busy} onClick={onCancel}>
          Cancelar
        </Button>
      </div>
    </form>
  );
}

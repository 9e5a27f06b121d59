import { useRef, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { FILE_DEFAULT_MAX_BYTES, FILE_MAX_BYTES, formatBytes } from '../../../shared/files';
import type { ServiceFieldType } from '../../../shared/schemas/catalogue';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { CheckboxField, SelectField, TextAreaField, TextField } from '../../components/ui/field';
import {
  FIELD_TYPE_OPTIONS,
  MAX_SERVICE_FIELDS,
  fieldErrorKey,
  moveItem,
  newFieldDraft,
  type FieldDraft,
} from './draft';
import type { Direction } from './types';

/** A button that stays focusable when it cannot act (a disabled one would drop the focus). */
export function StepButton({
  can,
  onAct,
  children,
  className = '',
  title,
}: {
  can: boolean;
  onAct: () => void;
  children: ReactNode;
  /** Extra classes (the catalogue table makes its buttons smaller). */
  className?: string;
  title?: string;
}) {
  return (
    <Button
      variant="secondary"
      aria-disabled={can ? undefined : true}
      title={title}
      className={`aria-disabled:cursor-not-allowed aria-disabled:opacity-50 ${className}`}
      onClick={() => {
        if (can) onAct();
      }}
    >
      {children}
    </Button>
  );
}

/** The inputs a service asks its customers for: add, remove, reorder, and each one's rules. */
export function FieldEditor({
  fields,
  errors,
  onChange,
}: {
  fields: FieldDraft[];
  errors: Record<string, string>;
  onChange: (fields: FieldDraft[]) => void;
}) {
  const list = useRef<HTMLDivElement>(null);
  const addRow = useRef<HTMLDivElement>(null);
  const full = fields.length >= MAX_SERVICE_FIELDS;

  function focusField(uid: string | undefined) {
    const target = uid
      ? list.current?.querySelector<HTMLElement>(`[data-field-uid="${uid}"] input`)
      : addRow.current?.querySelector('button');
    target?.focus();
  }

  function add() {
    const field = newFieldDraft();
    flushSync(() => onChange([...fields, field]));
    focusField(field.uid);
  }

  function remove(index: number) {
    const next = fields.filter((_, i) => i !== index);
    flushSync(() => onChange(next));
    focusField((next[index] ?? next[index - 1])?.uid);
  }

  function move(index: number, direction: Direction) {
    onChange(moveItem(fields, index, direction));
  }

  function update(index: number, patch: Partial<FieldDraft>) {
    onChange(fields.map((f, i) => (i === index ? { ...f, ...patch } : f)));
  }

  return (
    <div ref={list} className="flex flex-col gap-4">
      {errors.fields ? <Alert tone="error">{errors.fields}</Alert> : null}
      {fields.length === 0 ? (
        <p className="text-sm text-slate-600">
          Este servicio no pide ningún dato al cliente. Añade los campos que necesite (por ejemplo
          el IMEI).
        </p>
      ) : null}
      {fields.map((field, index) => (
        <FieldCard
          key={field.uid}
          field={field}
          position={index + 1}
          count={fields.length}
          errors={errors}
          onChange={(patch) => update(index, patch)}
          onMove={(direction) => move(index, direction)}
          onRemove={() => remove(index)}
        />
      ))}
      <div ref={addRow}>
        <Button variant="secondary" disabled={full} onClick={add}>
          Añadir campo
        </Button>
        {full ? (
          <p className="mt-1 text-sm text-slate-600">
            Un servicio puede pedir como máximo {MAX_SERVICE_FIELDS} campos.
          </p>
        ) : null}
      </div>
    </div>
  );
}

function FieldCard({
  field,
  position,
  count,
  errors,
  onChange,
  onMove,
  onRemove,
}: {
  field: FieldDraft;
  position: number;
  count: number;
  errors: Record<string, string>;
  onChange: (patch: Partial<FieldDraft>) => void;
  onMove: (direction: Direction) => void;
  onRemove: () => void;
}) {
  const error = (property?: string) => errors[fieldErrorKey(field.uid, property)];
  const which = ` el campo ${position}${field.label.trim() ? ` (${field.label.trim()})` : ''}`;
  const cardError = error();
  const lengths = field.type === 'serial' || field.type === 'text';

  return (
    <fieldset
      data-field-uid={field.uid}
      className={`min-w-0 rounded-xl border bg-white p-3 sm:p-4 ${cardError ? 'border-red-300' : 'border-slate-200'}`}
    >
      <legend className="px-1 text-sm font-semibold text-slate-900">
        Campo {position}
        {field.label.trim() ? `: ${field.label.trim()}` : ''}
      </legend>
      {cardError ? (
        <div className="mb-3">
          <Alert tone="error">{cardError}</Alert>
        </div>
      ) : null}
      <div className="grid gap-3 sm:grid-cols-3">
        <TextField
          label="Clave"
          value={field.key}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={32}
          hint="Minúsculas, números y _; por ejemplo imei o modelo."
          error={error('key')}
          onChange={(e) => onChange({ key: e.target.value })}
        />
        <TextField
          label="Etiqueta"
          value={field.label}
          autoComplete="off"
          maxLength={80}
          hint="Lo que lee el cliente."
          error={error('label')}
          onChange={(e) => onChange({ label: e.target.value })}
        />
        <SelectField
          label="Tipo"
          value={field.type}
          options={FIELD_TYPE_OPTIONS}
          error={error('type')}
          onChange={(e) => onChange({ type: e.target.value as ServiceFieldType })}
        />
      </div>

      {lengths || field.type === 'username' ? (
        <div className="mt-3 grid gap-3 sm:grid-cols-3">
          {lengths ? (
            <TextField
              label="Longitud mínima"
              value={field.minLength}
              inputMode="numeric"
              autoComplete="off"
              placeholder={field.type === 'serial' ? '8' : '1'}
              error={error('minLength')}
              onChange={(e) => onChange({ minLength: e.target.value })}
            />
          ) : null}
          <TextField
            label="Longitud máxima"
            value={field.maxLength}
            inputMode="numeric"
            autoComplete="off"
            placeholder={field.type === 'serial' ? '24' : field.type === 'username' ? '64' : '500'}
            error={error('maxLength')}
            onChange={(e) => onChange({ maxLength: e.target.value })}
          />
          {field.type === 'serial' ? (
            <div className="sm:pt-6">
              <CheckboxField
                label="Permitir letras además de números"
                checked={field.allowLetters}
                error={error('allowLetters')}
                onChange={(e) => onChange({ allowLetters: e.target.checked })}
              />
            </div>
          ) : null}
        </div>
      ) : null}

      {field.type === 'number' ? (
        <div className="mt-3 grid gap-3 sm:grid-cols-3">
          <TextField
            label="Mínimo"
            value={field.min}
            autoComplete="off"
            hint="Opcional."
            error={error('min')}
            onChange={(e) => onChange({ min: e.target.value })}
          />
          <TextField
            label="Máximo"
            value={field.max}
            autoComplete="off"
            hint="Opcional."
            error={error('max')}
            onChange={(e) => onChange({ max: e.target.value })}
          />
        </div>
      ) : null}

      {field.type === 'file' ? (
        <div className="mt-3 grid gap-3 sm:grid-cols-2">
          <TextField
            label="Tamaño máximo (MB)"
            value={field.maxMegabytes}
            inputMode="decimal"
            autoComplete="off"
            placeholder={String(FILE_DEFAULT_MAX_BYTES / 1024 / 1024)}
            hint={`Opcional; como mucho ${formatBytes(FILE_MAX_BYTES)}.`}
            error={error('maxBytes')}
            onChange={(e) => onChange({ maxMegabytes: e.target.value })}
          />
          <TextField
            label="Extensiones permitidas"
            value={field.extensions}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            placeholder="bin, zip"
            hint="Separadas por comas; vacío: cualquiera. El contenido se comprueba cuando se puede."
            error={error('extensions')}
            onChange={(e) => onChange({ extensions: e.target.value })}
          />
        </div>
      ) : null}

      {field.type === 'select' ? (
        <div className="mt-3">
          <TextAreaField
            label="Opciones (una por línea)"
            value={field.options}
            rows={4}
            error={error('options')}
            onChange={(e) => onChange({ options: e.target.value })}
          />
        </div>
      ) : null}

      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        <TextField
          label="Ayuda (opcional)"
          value={field.hint}
          autoComplete="off"
          maxLength={200}
          hint="Se muestra debajo del campo."
          error={error('hint')}
          onChange={(e) => onChange({ hint: e.target.value })}
        />
        <div className="flex flex-col gap-1">
          <CheckboxField
            label="Obligatorio"
            checked={field.required}
            error={error('required')}
            onChange={(e) => onChange({ required: e.target.checked })}
          />
          <CheckboxField
            label="Identificador de la orden"
            checked={field.identifier}
            hint="No se aceptan dos órdenes en curso con el mismo dato (salvo que el servicio lo permita). Solo un campo; sin ninguno, se usa el de clave imei."
            error={error('identifier')}
            onChange={(e) => onChange({ identifier: e.target.checked })}
          />
        </div>
      </div>

      <div className="mt-4 flex flex-wrap gap-2">
        <StepButton can={position > 1} onAct={() => onMove('up')}>
          Subir<span className="sr-only">{which}</span>
        </StepButton>
        <StepButton can={position < count} onAct={() => onMove('down')}>
          Bajar<span className="sr-only">{which}</span>
        </StepButton>
        <Button variant="ghost" onClick={onRemove}>
          Quitar<span className="sr-only">{which}</span>
        </Button>
      </div>
    </fieldset>
  );
}

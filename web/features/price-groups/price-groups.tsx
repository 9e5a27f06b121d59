import { useRef, useState, type FormEvent } from 'react';
import { useRevalidator } from 'react-router';
import { CATEGORIES } from '../../../shared/categories';
import { formatUsd } from '../../../shared/money';
import type { PriceGroupDto, PriceOverrideInput } from '../../../shared/schemas/price-groups';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { CheckboxField, SelectField, TextField } from '../../components/ui/field';
import { Section } from '../../components/ui/section';
import { ApiError } from '../../lib/api';
import { createGroup, deleteGroup, updateGroup } from './price-groups-api';

export type ServiceChoice = { id: string; name: string; price: string };

const categoryLabel = (slug: string) => CATEGORIES.find((c) => c.slug === slug)?.label ?? slug;

/** Below the supplier's cost: a warning admins cannot miss (text, not only colour). */
export function BelowCostFlag() {
  return (
    <span className="ml-1 inline-block rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">
      Por debajo del costo
    </span>
  );
}

function overrideText(o: PriceGroupDto['overrides'][number]): string {
  return o.price !== null
    ? `Precio fijo ${formatUsd(o.price)}`
    : `${o.discountPercent} % de descuento`;
}

/** /admin/grupos: every group with its overrides, a form to edit each, and one for a new group. */
export function PriceGroupsPage({
  groups,
  services,
}: {
  groups: PriceGroupDto[];
  services: ServiceChoice[];
}) {
  const [editing, setEditing] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const noticeRef = useRef<HTMLDivElement>(null);
  const revalidator = useRevalidator();

  async function done(message: string) {
    setEditing(null);
    setNotice(message);
    await revalidator.revalidate();
    noticeRef.current?.focus();
  }

  return (
    <div className="flex flex-col gap-6">
      <div
        ref={noticeRef}
        tabIndex={-1}
        aria-live="polite"
        className="empty:hidden focus:outline-none"
      >
        {notice ? <Alert tone="success">{notice}</Alert> : null}
      </div>
      <Section
        id="grupos"
        title="Grupos"
        description="Cada cliente paga según su grupo: precio especial → excepción del servicio → excepción de la categoría → descuento del grupo → precio base. Los descuentos se redondean hacia arriba al centavo."
      >
        <ul className="flex flex-col gap-4" data-testid="price-groups">
          {groups.map((g) => (
            <li key={g.id} className="rounded-xl border border-slate-200 p-4">
              {editing === g.id ? (
                <GroupForm
                  group={g}
                  services={services}
                  onCancel={() => setEditing(null)}
                  onSaved={(name) => done(`Guardamos los cambios de «${name}».`)}
                  onDeleted={(name) =>
                    done(`Eliminamos «${name}». Sus clientes pasan al grupo predeterminado.`)
                  }
                />
              ) : (
                <GroupSummary
                  group={g}
                  onEdit={() => {
                    setNotice(null);
                    setEditing(g.id);
                  }}
                />
              )}
            </li>
          ))}
        </ul>
      </Section>
      <Section
        id="nuevo-grupo"
        title="Nuevo grupo"
        description="Un descuento sobre el precio base y, si hace falta, excepciones por categoría o por servicio."
      >
        <GroupForm
          key={groups.length}
          group={null}
          services={services}
          onSaved={(name) => done(`Creamos el grupo «${name}».`)}
        />
      </Section>
    </div>
  );
}

function GroupSummary({ group: g, onEdit }: { group: PriceGroupDto; onEdit: () => void }) {
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="text-lg font-semibold text-slate-900">{g.name}</h3>
        {g.isDefault ? (
          <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-900">
            Predeterminado
          </span>
        ) : null}
        {g.belowCost ? <BelowCostFlag /> : null}
        <Button
          variant="secondary"
          className="ml-auto"
          onClick={onEdit}
          aria-label={`Editar ${g.name}`}
        >
          Editar
        </Button>
      </div>
      <p className="text-sm text-slate-700">
        Descuento: <strong>{g.discountPercent} %</strong> ·{' '}
        {g.customers === 1 ? '1 cliente' : `${g.customers} clientes`}
      </p>
      {g.overrides.length > 0 ? (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Excepciones de {g.name}</caption>
            <thead className="text-slate-600">
              <tr>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Se aplica a
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Regla
                </th>
                <th scope="col" className="py-1 font-medium">
                  Precio base
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {g.overrides.map((o) => (
                <tr key={o.serviceId ?? o.category}>
                  <td className="py-1 pr-3">
                    {o.category ? `Categoría: ${categoryLabel(o.category)}` : o.serviceName}
                  </td>
                  <td className="py-1 pr-3">
                    {overrideText(o)}
                    {o.belowCost ? <BelowCostFlag /> : null}
                  </td>
                  <td className="py-1 tabular-nums">
                    {o.basePrice ? formatUsd(o.basePrice) : '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="text-sm text-slate-600">Sin excepciones.</p>
      )}
    </div>
  );
}

type Row = { key: number; target: string; kind: 'discount' | 'price'; value: string };

function rowsOf(group: PriceGroupDto | null): Row[] {
  return (group?.overrides ?? []).map((o, i) => ({
    key: i,
    target: o.category ? `c:${o.category}` : `s:${o.serviceId ?? ''}`,
    kind: o.price !== null ? 'price' : 'discount',
    value: o.price ?? o.discountPercent ?? '',
  }));
}

function toInput(r: Row): PriceOverrideInput {
  const target = r.target.startsWith('c:')
    ? { category: r.target.slice(2) as PriceOverrideInput['category'] }
    : { serviceId: r.target.slice(2) };
  return r.kind === 'price'
    ? { ...target, price: r.value.trim() }
    : { ...target, discountPercent: r.value.trim() };
}

function GroupForm({
  group,
  services,
  onSaved,
  onCancel,
  onDeleted,
}: {
  group: PriceGroupDto | null;
  services: ServiceChoice[];
  onSaved: (name: string) => void | Promise<void>;
  onCancel?: () => void;
  onDeleted?: (name: string) => void | Promise<void>;
}) {
  const [name, setName] = useState(group?.name ?? '');
  const [discount, setDiscount] = useState(group?.discountPercent ?? '0');
  const [isDefault, setIsDefault] = useState(group?.isDefault ?? false);
  const [rows, setRows] = useState<Row[]>(() => rowsOf(group));
  const [nextKey, setNextKey] = useState(1000);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const prefix = group ? `grupo-${group.id}` : 'grupo-nuevo';

  const targets = [
    ...CATEGORIES.map((c) => ({ value: `c:${c.slug}`, label: `Categoría: ${c.label}` })),
    ...services.map((s) => ({ value: `s:${s.id}`, label: `${s.name} (${formatUsd(s.price)})` })),
  ];

  function fail(err: unknown) {
    if (err instanceof ApiError) {
      setErrors(err.fields);
      setFormError(
        Object.keys(err.fields).length > 0 ? 'Revisa los campos marcados.' : err.message,
      );
    } else throw err;
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setErrors({});
    setFormError(null);
    const body = {
      name,
      discountPercent: discount.trim(),
      isDefault,
      overrides: rows.map(toInput),
    };
    try {
      const saved = group ? await updateGroup(group.id, body) : await createGroup(body);
      await onSaved(saved.name);
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  }

  async function remove() {
    if (!group) return;
    setBusy(true);
    try {
      await deleteGroup(group.id);
      await onDeleted?.(group.name);
    } catch (err) {
      setConfirming(false);
      fail(err);
    } finally {
      setBusy(false);
    }
  }

  const rowError = (i: number) =>
    errors[`overrides.${i}.category`] ??
    errors[`overrides.${i}.serviceId`] ??
    errors[`overrides.${i}.discountPercent`] ??
    errors[`overrides.${i}.price`];

  return (
    <form
      onSubmit={submit}
      noValidate
      className="flex flex-col gap-4"
      aria-label={group ? `Editar ${group.name}` : 'Nuevo grupo'}
    >
      {formError ? <Alert tone="error">{formError}</Alert> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Nombre del grupo"
          name="name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={errors.name}
          maxLength={60}
          required
        />
        <TextField
          label="Descuento sobre el precio base (%)"
          name="discountPercent"
          inputMode="decimal"
          value={discount}
          onChange={(e) => setDiscount(e.target.value)}
          error={errors.discountPercent}
          hint="De 0 a 99.99, con hasta dos decimales (por ejemplo 12.5)."
        />
      </div>
      <CheckboxField
        label="Grupo predeterminado (el de toda cuenta sin grupo)"
        checked={isDefault}
        disabled={group?.isDefault === true}
        onChange={(e) => setIsDefault(e.target.checked)}
        hint={
          group?.isDefault ? 'Para cambiarlo, marca otro grupo como predeterminado.' : undefined
        }
      />
      <fieldset className="flex flex-col gap-3">
        <legend className="text-sm font-semibold text-slate-900">Excepciones</legend>
        {rows.length === 0 ? <p className="text-sm text-slate-600">Sin excepciones.</p> : null}
        {rows.map((r, i) => (
          <div
            key={r.key}
            className="grid gap-2 rounded-lg border border-slate-200 p-3 sm:grid-cols-[2fr_1fr_1fr_auto] sm:items-end"
          >
            <SelectField
              label={`Excepción ${i + 1}: se aplica a`}
              dense
              options={targets}
              value={r.target}
              error={rowError(i)}
              onChange={(e) =>
                setRows(rows.map((x) => (x.key === r.key ? { ...x, target: e.target.value } : x)))
              }
            />
            <SelectField
              label="Tipo"
              dense
              options={[
                { value: 'discount', label: 'Descuento (%)' },
                { value: 'price', label: 'Precio fijo (US$)' },
              ]}
              value={r.kind}
              onChange={(e) =>
                setRows(
                  rows.map((x) =>
                    x.key === r.key
                      ? { ...x, kind: e.target.value === 'price' ? 'price' : 'discount' }
                      : x,
                  ),
                )
              }
            />
            <TextField
              label={r.kind === 'price' ? 'Precio' : 'Descuento'}
              dense
              inputMode="decimal"
              value={r.value}
              onChange={(e) =>
                setRows(rows.map((x) => (x.key === r.key ? { ...x, value: e.target.value } : x)))
              }
            />
            <Button
              variant="ghost"
              onClick={() => setRows(rows.filter((x) => x.key !== r.key))}
              aria-label={`Quitar excepción ${i + 1}`}
            >
              Quitar
            </Button>
          </div>
        ))}
        <div>
          <Button
            variant="secondary"
            onClick={() => {
              setRows([
                ...rows,
                { key: nextKey, target: targets[0]?.value ?? '', kind: 'discount', value: '' },
              ]);
              setNextKey(nextKey + 1);
            }}
          >
            Añadir excepción
          </Button>
        </div>
      </fieldset>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={busy} id={`${prefix}-guardar`}>
          {group ? 'Guardar cambios' : 'Crear grupo'}
        </Button>
        {onCancel ? (
          <Button variant="secondary" onClick={onCancel} disabled={busy}>
            Cancelar
          </Button>
        ) : null}
        {group && !group.isDefault ? (
          confirming ? (
            <span
              className="flex flex-wrap items-center gap-2"
              role="group"
              aria-label="Confirmar eliminación"
            >
              <span className="text-sm text-slate-800">
                ¿Eliminar «{group.name}»? Sus clientes pasan al grupo predeterminado.
              </span>
              <Button variant="danger" onClick={() => void remove()} disabled={busy}>
                Sí, eliminar
              </Button>
              <Button variant="secondary" onClick={() => setConfirming(false)}>
                No
              </Button>
            </span>
          ) : (
            <Button variant="ghost" onClick={() => setConfirming(true)}>
              Eliminar grupo
            </Button>
          )
        ) : null}
      </div>
    </form>
  );
}

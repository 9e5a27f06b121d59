import { useEffect, useState, type FormEvent } from 'react';
import { formatUsd } from '../../../shared/money';
import type { CustomerPricesDto, PriceGroupDto } from '../../../shared/schemas/price-groups';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { SelectField, TextField } from '../../components/ui/field';
import { Section } from '../../components/ui/section';
import { ApiError } from '../../lib/api';
import {
  fetchCustomerPrices,
  fetchGroups,
  fetchServiceChoices,
  setCustomerGroup,
  setSpecialPrices,
} from './price-groups-api';
import { BelowCostFlag, type ServiceChoice } from './price-groups';

type Data = { prices: CustomerPricesDto; groups: PriceGroupDto[]; services: ServiceChoice[] };

/** On a customer's page: their price group and their special prices (admins only). */
export function CustomerPricesSection({ userId }: { userId: string }) {
  const [data, setData] = useState<Data | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    Promise.all([fetchCustomerPrices(userId), fetchGroups(), fetchServiceChoices()])
      .then(([prices, groups, services]) => live && setData({ prices, groups, services }))
      .catch((err: unknown) => {
        if (!live) return;
        if (err instanceof ApiError) setLoadError(err.message);
        else throw err;
      });
    return () => {
      live = false;
    };
  }, [userId]);

  return (
    <Section
      id="precios-cliente"
      title="Precios"
      description="Su grupo de precios y sus precios especiales. Los cambios se aplican desde su próxima orden."
    >
      {loadError ? (
        <Alert tone="error">No pudimos cargar sus precios: {loadError}</Alert>
      ) : !data ? (
        <p className="text-sm text-slate-600">Cargando sus precios…</p>
      ) : (
        <div className="flex flex-col gap-6">
          <GroupPicker
            userId={userId}
            data={data}
            onChange={(prices) => setData({ ...data, prices })}
          />
          <SpecialPrices
            userId={userId}
            data={data}
            onChange={(prices) => setData({ ...data, prices })}
          />
        </div>
      )}
    </Section>
  );
}

function GroupPicker({
  userId,
  data,
  onChange,
}: {
  userId: string;
  data: Data;
  onChange: (prices: CustomerPricesDto) => void;
}) {
  const current = data.prices.assigned ? (data.prices.group?.id ?? '') : '';
  const [value, setValue] = useState(current);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const def = data.groups.find((g) => g.isDefault);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    try {
      const prices = await setCustomerGroup(userId, value === '' ? null : value);
      onChange(prices);
      setMessage({
        tone: 'success',
        text: `Ahora está en «${prices.group?.name ?? 'sin grupo'}». Se aplica desde su próxima orden.`,
      });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      setMessage({ tone: 'error', text: err.message });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      onSubmit={submit}
      className="flex flex-col gap-3"
      aria-label="Cambiar el grupo de precios"
    >
      <p className="text-sm text-slate-700" data-testid="customer-price-group">
        Grupo actual: <strong>{data.prices.group?.name ?? 'ninguno'}</strong>
        {data.prices.assigned ? '' : ' (predeterminado)'}
      </p>
      <div className="flex flex-wrap items-end gap-2">
        <div className="min-w-60 flex-1">
          <SelectField
            label="Grupo de precios"
            options={[
              { value: '', label: `Predeterminado${def ? ` (${def.name})` : ''}` },
              ...data.groups
                .filter((g) => !g.isDefault)
                .map((g) => ({ value: g.id, label: `${g.name} (${g.discountPercent} %)` })),
            ]}
            value={value}
            onChange={(e) => setValue(e.target.value)}
          />
        </div>
        <Button type="submit" disabled={busy}>
          Cambiar grupo
        </Button>
      </div>
      <div aria-live="polite" className="empty:hidden">
        {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
      </div>
    </form>
  );
}

type Row = { key: number; serviceId: string; price: string };

function SpecialPrices({
  userId,
  data,
  onChange,
}: {
  userId: string;
  data: Data;
  onChange: (prices: CustomerPricesDto) => void;
}) {
  const [rows, setRows] = useState<Row[]>(() =>
    data.prices.specialPrices.map((s, i) => ({ key: i, serviceId: s.serviceId, price: s.price })),
  );
  const [nextKey, setNextKey] = useState(1000);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const saved = new Map(data.prices.specialPrices.map((s) => [s.serviceId, s]));
  const options = data.services.map((s) => ({
    value: s.id,
    label: `${s.name} (${formatUsd(s.price)})`,
  }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setErrors({});
    try {
      const prices = await setSpecialPrices(userId, {
        items: rows.map((r) => ({ serviceId: r.serviceId, price: r.price.trim() })),
      });
      onChange(prices);
      setMessage({ tone: 'success', text: 'Guardamos sus precios especiales.' });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      setErrors(err.fields);
      setMessage({ tone: 'error', text: err.message });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      onSubmit={submit}
      noValidate
      className="flex flex-col gap-3"
      aria-label="Precios especiales"
    >
      <h3 className="text-base font-semibold text-slate-900">Precios especiales</h3>
      <p className="text-sm text-slate-600">
        Están por encima de cualquier regla de su grupo. Para un servicio por 1000 unidades, el
        precio es por cada 1000.
      </p>
      {rows.length === 0 ? <p className="text-sm text-slate-600">Sin precios especiales.</p> : null}
      {rows.map((r, i) => {
        const stored = saved.get(r.serviceId);
        return (
          <div
            key={r.key}
            className="grid gap-2 rounded-lg border border-slate-200 p-3 sm:grid-cols-[2fr_1fr_auto] sm:items-end"
          >
            <SelectField
              label={`Servicio ${i + 1}`}
              dense
              options={options}
              value={r.serviceId}
              error={errors[`items.${i}.serviceId`]}
              onChange={(e) =>
                setRows(
                  rows.map((x) => (x.key === r.key ? { ...x, serviceId: e.target.value } : x)),
                )
              }
            />
            <TextField
              label="Precio especial (US$)"
              dense
              inputMode="decimal"
              value={r.price}
              error={errors[`items.${i}.price`]}
              onChange={(e) =>
                setRows(rows.map((x) => (x.key === r.key ? { ...x, price: e.target.value } : x)))
              }
            />
            <Button
              variant="ghost"
              onClick={() => setRows(rows.filter((x) => x.key !== r.key))}
              aria-label={`Quitar precio especial ${i + 1}`}
            >
              Quitar
            </Button>
            {stored?.belowCost && stored.price === r.price ? (
              <p className="text-sm text-amber-900 sm:col-span-3">
                <BelowCostFlag /> {formatUsd(stored.price)} está por debajo del costo actual del
                proveedor.
              </p>
            ) : null}
          </div>
        );
      })}
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          onClick={() => {
            setRows([...rows, { key: nextKey, serviceId: options[0]?.value ?? '', price: '' }]);
            setNextKey(nextKey + 1);
          }}
        >
          Añadir precio especial
        </Button>
        <Button type="submit" disabled={busy}>
          Guardar precios especiales
        </Button>
      </div>
      <div aria-live="polite" className="empty:hidden">
        {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
      </div>
    </form>
  );
}

import { useState, type FormEvent } from 'react';
import { CATEGORIES } from '../../../shared/categories';
import { validateField } from '../../../shared/fields';
import { chargeCents, formatUsd, parseAmount } from '../../../shared/money';
import type { ServiceDto, ServiceField } from '../../../shared/schemas/catalogue';
import { BULK_MAX_LINES, type OrderDto } from '../../../shared/schemas/orders';
import { Alert } from '../../components/ui/alert';
import { AppLink } from '../../components/ui/app-link';
import { Button } from '../../components/ui/button';
import { SelectField, TextAreaField, TextField } from '../../components/ui/field';
import { LineResults } from '../../components/ui/line-results';
import { ApiError } from '../../lib/api';
import { reloadMe } from '../../lib/session';
import { placeBulkOrder, placeOrder, type BulkResponse } from './orders-api';

export function categoryLabel(slug: string): string {
  return CATEGORIES.find((c) => c.slug === slug)?.label ?? slug;
}

/** "$0.50 por orden" or "$1.50 por cada 1000". */
export function priceText(service: ServiceDto): string {
  return `${formatUsd(service.price)} ${service.unit === '1000' ? 'por cada 1000' : 'por orden'}`;
}

function quantityRange(service: ServiceDto) {
  const min = service.minQuantity ?? 1;
  return { min, max: service.maxQuantity ?? min };
}

/** The total in cents, or null while the quantity is not valid. */
function totalCents(service: ServiceDto, quantity: string): bigint | null {
  const price = parseAmount(service.price) ?? 0n;
  if (service.unit !== '1000') return price;
  if (!/^\d{1,9}$/.test(quantity.trim())) return null;
  return chargeCents(price, BigInt(quantity.trim()), 1000n);
}

function inputPropsFor(field: ServiceField) {
  switch (field.type) {
    case 'imei':
      return { inputMode: 'numeric' as const, autoComplete: 'off', maxLength: 20 };
    case 'number':
      return { inputMode: 'numeric' as const, autoComplete: 'off' };
    case 'email':
      return { type: 'email', inputMode: 'email' as const, autoComplete: 'email' };
    case 'url':
      return { type: 'url', inputMode: 'url' as const, autoComplete: 'off' };
    case 'serial':
      return { autoComplete: 'off', autoCapitalize: 'characters' };
    default:
      return { autoComplete: 'off' };
  }
}

/** The fields a service needs, as a plain list (for the overview). */
export function FieldList({ fields }: { fields: ServiceField[] }) {
  if (fields.length === 0) return <p className="text-slate-600">No necesita datos adicionales.</p>;
  return (
    <ul className="list-disc pl-5 text-slate-700">
      {fields.map((f) => (
        <li key={f.key}>
          {f.label}
          {f.required ? '' : ' (opcional)'}
          {f.hint ? <span className="text-slate-600"> — {f.hint}</span> : null}
        </li>
      ))}
    </ul>
  );
}

type Outcome =
  | { kind: 'order'; order: OrderDto }
  | { kind: 'bulk'; result: BulkResponse }
  | { kind: 'funds' }
  | { kind: 'error'; message: string };

/** The order form of one service: single order, or one per IMEI line for IMEI services. */
export function OrderForm({ service }: { service: ServiceDto }) {
  const [round, setRound] = useState(0);
  return (
    <OrderFormInner
      key={`${service.id}-${round}`}
      service={service}
      onAgain={() => setRound((r) => r + 1)}
    />
  );
}

function OrderFormInner({ service, onAgain }: { service: ServiceDto; onAgain: () => void }) {
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(service.fields.map((f) => [f.key, ''])),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const { min, max } = quantityRange(service);
  const [quantity, setQuantity] = useState(String(min));
  const [bulk, setBulk] = useState(false);
  const [imeis, setImeis] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const hasImei = service.fields.some((f) => f.type === 'imei');
  const imeiField = service.fields.find((f) => f.type === 'imei');
  const otherFields = bulk ? service.fields.filter((f) => f.type !== 'imei') : service.fields;

  const lines = imeis
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const unit = totalCents(service, quantity);
  const total = unit === null ? null : bulk ? unit * BigInt(lines.length) : unit;

  function check(field: ServiceField, raw: string): string | undefined {
    const r = validateField(field, raw);
    return r.ok ? undefined : r.message;
  }

  function change(field: ServiceField, raw: string) {
    setValues((v) => ({ ...v, [field.key]: raw }));
    // Live: once the person has left the field (or already sees an error), re-check as they type.
    if (touched[field.key] || errors[field.key]) {
      setErrors((e) => ({ ...e, [field.key]: check(field, raw) ?? '' }));
    }
  }

  function blur(field: ServiceField) {
    setTouched((t) => ({ ...t, [field.key]: true }));
    setErrors((e) => ({ ...e, [field.key]: check(field, values[field.key] ?? '') ?? '' }));
  }

  function quantityError(): string | undefined {
    if (service.unit !== '1000') return undefined;
    const q = quantity.trim();
    if (!/^\d+$/.test(q)) return 'La cantidad debe ser un número entero.';
    const n = Number(q);
    if (n < min || n > max) return `La cantidad debe estar entre ${min} y ${max}.`;
    return undefined;
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const next: Record<string, string> = {};
    const clean: Record<string, string> = {};
    for (const f of otherFields) {
      const r = validateField(f, values[f.key] ?? '');
      if (!r.ok) next[f.key] = r.message;
      else if (r.value !== '') clean[f.key] = r.value;
    }
    const qErr = quantityError();
    if (qErr) next.quantity = qErr;
    if (bulk && lines.length === 0) next.imeis = 'Pega al menos un IMEI.';
    if (bulk && lines.length > BULK_MAX_LINES)
      next.imeis = `Puedes enviar hasta ${BULK_MAX_LINES} IMEI a la vez.`;
    setErrors(next);
    setTouched(Object.fromEntries(service.fields.map((f) => [f.key, true])));
    if (Object.keys(next).length > 0) {
      setOutcome(null);
      return;
    }
    setBusy(true);
    setOutcome(null);
    try {
      if (bulk) {
        const result = await placeBulkOrder(service.id, lines.join('\n'));
        setOutcome({ kind: 'bulk', result });
      } else {
        const order = await placeOrder(
          {
            serviceId: service.id,
            ...(service.unit === '1000' ? { quantity: Number(quantity.trim()) } : {}),
            fields: clean,
          },
          idempotencyKey,
        );
        setOutcome({ kind: 'order', order });
      }
      void reloadMe();
    } catch (err) {
      if (err instanceof ApiError) {
        if (err.code === 'INSUFFICIENT_FUNDS' || err.status === 402) setOutcome({ kind: 'funds' });
        else {
          if (Object.keys(err.fields).length > 0) setErrors(err.fields);
          setOutcome({ kind: 'error', message: err.message });
        }
      } else {
        setOutcome({ kind: 'error', message: 'No pudimos enviar la orden. Inténtalo de nuevo.' });
      }
    } finally {
      setBusy(false);
    }
  }

  if (outcome?.kind === 'order') {
    const o = outcome.order;
    return (
      <div className="flex flex-col gap-3">
        <Alert tone="success">
          <p className="font-semibold">
            Orden #{o.number} creada: {o.serviceName} · {formatUsd(o.price)} · {o.statusLabel}
          </p>
          <p className="mt-2 flex flex-wrap gap-4">
            <AppLink to="/orderhistory" className="font-semibold underline">
              Ver en el historial
            </AppLink>
            <button type="button" className="font-semibold underline" onClick={onAgain}>
              Hacer otra orden
            </button>
          </p>
        </Alert>
      </div>
    );
  }

  const totalLabel = total === null ? '—' : formatUsd(total);

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="flex flex-col gap-4">
      {outcome?.kind === 'funds' ? (
        <Alert tone="warning">
          Tu saldo no alcanza para esta orden.{' '}
          <AppLink to="/addfunds" className="font-semibold underline">
            Añadir créditos
          </AppLink>
        </Alert>
      ) : null}
      {outcome?.kind === 'error' ? <Alert tone="error">{outcome.message}</Alert> : null}
      {outcome?.kind === 'bulk' ? <BulkResult result={outcome.result} /> : null}

      {hasImei ? (
        <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
          <input
            type="checkbox"
            className="h-5 w-5"
            checked={bulk}
            onChange={(e) => {
              setBulk(e.target.checked);
              setOutcome(null);
            }}
          />
          Varios IMEI (uno por línea, hasta {BULK_MAX_LINES})
        </label>
      ) : null}

      {bulk && imeiField ? (
        <TextAreaField
          label="IMEI (uno por línea)"
          name="imeis"
          rows={6}
          inputMode="numeric"
          value={imeis}
          onChange={(e) => setImeis(e.target.value)}
          hint={`${lines.length} línea(s). Las líneas no válidas se rechazan sin cargo.`}
          error={errors.imeis || undefined}
        />
      ) : null}

      {otherFields.map((f) =>
        f.type === 'select' ? (
          <SelectField
            key={f.key}
            label={f.required ? f.label : `${f.label} (opcional)`}
            name={f.key}
            value={values[f.key] ?? ''}
            required={f.required}
            placeholder="Elige una opción"
            options={(f.options ?? []).map((o) => ({ value: o, label: o }))}
            hint={f.hint}
            error={errors[f.key] || undefined}
            onChange={(e) => {
              const v = e.target.value;
              setValues((s) => ({ ...s, [f.key]: v }));
              setErrors((es) => ({ ...es, [f.key]: check(f, v) ?? '' }));
            }}
          />
        ) : (
          <TextField
            key={f.key}
            label={f.required ? f.label : `${f.label} (opcional)`}
            name={f.key}
            value={values[f.key] ?? ''}
            required={f.required}
            hint={f.hint}
            error={errors[f.key] || undefined}
            onChange={(e) => change(f, e.target.value)}
            onBlur={() => blur(f)}
            {...inputPropsFor(f)}
          />
        ),
      )}

      {service.unit === '1000' ? (
        <TextField
          label="Cantidad"
          name="quantity"
          inputMode="numeric"
          value={quantity}
          onChange={(e) => {
            setQuantity(e.target.value);
            if (errors.quantity) setErrors((s) => ({ ...s, quantity: '' }));
          }}
          onBlur={() => setErrors((s) => ({ ...s, quantity: quantityError() ?? '' }))}
          hint={`Entre ${min} y ${max}`}
          error={errors.quantity || undefined}
        />
      ) : null}

      <p className="text-lg font-semibold text-slate-900" aria-live="polite">
        Total: {totalLabel}
      </p>
      <Button type="submit" disabled={busy}>
        {busy ? 'Enviando…' : `Confirmar orden (Total ${totalLabel})`}
      </Button>
    </form>
  );
}

function BulkResult({ result }: { result: BulkResponse }) {
  return (
    <div className="flex flex-col gap-3">
      <Alert tone={result.placed > 0 ? 'success' : 'warning'}>
        {result.placed} orden(es) creada(s), {result.refused} línea(s) rechazada(s). Cargo total:{' '}
        {formatUsd(result.charged)}.{' '}
        <AppLink to="/orderhistory" className="font-semibold underline">
          Ver en el historial
        </AppLink>
      </Alert>
      <LineResults
        caption="Resultado por línea"
        referenceLabel="IMEI"
        testId="bulk-results"
        rows={result.results.map((r) => ({
          line: r.line,
          reference: r.imei,
          ok: r.ok,
          text: r.ok ? `Orden #${r.order.number}` : r.message,
        }))}
      />
    </div>
  );
}

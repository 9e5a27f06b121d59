import { useState, type FormEvent } from 'react';
import { CATEGORIES } from '../../../shared/categories';
import { validateField } from '../../../shared/fields';
import { chargeCents, formatUsd, parseAmount } from '../../../shared/money';
import { useFocusFirstInvalid } from '../../lib/focus-invalid';
import { parseIntegerInput } from '../../../shared/number-input';
import type { ServiceDto, ServiceField } from '../../../shared/schemas/catalogue';
import { BULK_MAX_LINES, type OrderDto } from '../../../shared/schemas/orders';
import { DRIPFEED_LIMITS, listLines, SMM_TYPE_SPECS, smmQuantity } from '../../../shared/smm-types';
import { Alert } from '../../components/ui/alert';
import { AppLink } from '../../components/ui/app-link';
import { Button } from '../../components/ui/button';
import { SelectField, TextAreaField, TextField } from '../../components/ui/field';
import { LineResults } from '../../components/ui/line-results';
import { ApiError } from '../../lib/api';
import { reloadMe } from '../../lib/session';
import { boxHint, checkBox, plural, refusedLines } from './bulk-lines';
import { CopyButton } from '../../components/ui/copy-button';
import { FileField } from './file-field';
import { isSoldOut, SOLD_OUT_REASON } from './stock-availability';
import { placeBulkOrder, placeOrder, type BulkResponse } from './orders-api';

export function categoryLabel(slug: string): string {
  return CATEGORIES.find((c) => c.slug === slug)?.label ?? slug;
}

/** "US$0.50 por orden" or "US$1.50 por cada 1000". */
export function priceText(service: ServiceDto): string {
  return `${formatUsd(service.price)} ${service.unit === '1000' ? 'por cada 1000' : 'por orden'}`;
}

function quantityRange(service: ServiceDto) {
  const min = service.minQuantity ?? 1;
  return { min, max: service.maxQuantity ?? min };
}

/** Whether the customer types a quantity (per-1000 services whose type does not count it). */
function asksQuantity(service: ServiceDto): boolean {
  if (service.smmType) return SMM_TYPE_SPECS[service.smmType].quantity.kind === 'input';
  return service.unit === '1000';
}

/** The units of one order (one run when drip-fed), or null while they cannot be counted yet. */
function unitsOf(
  service: ServiceDto,
  values: Record<string, string>,
  quantity: string,
): number | null {
  const read = parseIntegerInput(quantity);
  const typed = read.ok && read.value >= 0 ? read.value : undefined;
  if (service.smmType) {
    const counted = smmQuantity(service.smmType, values, typed, quantityRange(service));
    return counted.ok ? counted.quantity : null;
  }
  if (service.unit !== '1000') return 1;
  return typed ?? null;
}

/** The total in cents, or null while the quantity is not valid. */
function totalCents(
  service: ServiceDto,
  values: Record<string, string>,
  quantity: string,
  runs: number | null,
): bigint | null {
  const price = parseAmount(service.price) ?? 0n;
  if (service.unit !== '1000') return price;
  const units = unitsOf(service, values, quantity);
  if (units === null) return null;
  return chargeCents(price, BigInt(units) * BigInt(runs ?? 1), 1000n);
}

/** A whole number as typed («1.000») and as the API and the field rules take it («1000»). */
function wholeNumber(text: string): number | null {
  const read = parseIntegerInput(text);
  return read.ok ? read.value : null;
}

/** A field's value as checked and sent: number fields read «1.000» as 1000, the rest as typed. */
function typedValue(field: ServiceField, raw: string): string {
  if (field.type !== 'number') return raw;
  const value = wholeNumber(raw);
  return value === null ? raw : String(value);
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
    case 'date':
      return { type: 'date', autoComplete: 'off' };
    case 'serial':
      return { autoComplete: 'off', autoCapitalize: 'characters' };
    default:
      return { autoComplete: 'off' };
  }
}

/** How many items a list field holds so far, and the limits when they set the quantity. */
function linesHint(service: ServiceDto, field: ServiceField, text: string): string {
  const count = listLines(text).length;
  const rule = service.smmType ? SMM_TYPE_SPECS[service.smmType].quantity : null;
  const { min, max } = quantityRange(service);
  const range =
    rule?.kind === 'lines' && rule.field === field.key ? ` (entre ${min} y ${max})` : '';
  const counted = `${count} ${count === 1 ? 'línea' : 'líneas'}${range}`;
  return field.hint ? `${field.hint} ${counted}.` : `${counted}.`;
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
  | { kind: 'funds'; credit: boolean }
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
  // A refused submit (here or by the API) moves the focus to the first field marked invalid.
  const [refused, setRefused] = useState<{ fields: Record<string, string> } | null>(null);
  const form = useFocusFirstInvalid(refused);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const { min, max } = quantityRange(service);
  const [quantity, setQuantity] = useState(String(min));
  const [bulk, setBulk] = useState(false);
  const [imeis, setImeis] = useState('');
  const [drip, setDrip] = useState(false);
  const [runs, setRuns] = useState('2');
  const [interval, setRunInterval] = useState('30');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  // The stock ran out between loading the page and ordering (409 OUT_OF_STOCK): the API's
  // message is shown and the button stays disabled.
  const [ranOut, setRanOut] = useState(false);
  // One file is one order: a service that asks for a file is not ordered in bulk.
  const hasImei =
    service.fields.some((f) => f.type === 'imei') && !service.fields.some((f) => f.type === 'file');
  const imeiField = service.fields.find((f) => f.type === 'imei');
  const otherFields = bulk ? service.fields.filter((f) => f.type !== 'imei') : service.fields;

  // Bulk: every line checked as it is typed; only the valid ones count towards the total.
  const box = checkBox(imeiField, imeis);
  const lines = box.lines;
  const runValue = wholeNumber(runs);
  const runCount = drip && runValue !== null && runValue > 0 && runValue <= 9999 ? runValue : null;
  const unit = drip && runCount === null ? null : totalCents(service, values, quantity, runCount);
  const total = unit === null ? null : bulk ? unit * BigInt(box.valid) : unit;

  function check(field: ServiceField, raw: string): string | undefined {
    const r = validateField(field, typedValue(field, raw));
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

  function dripErrors(): Record<string, string> {
    if (!drip) return {};
    const errors: Record<string, string> = {};
    const { runsMin, runsMax, intervalMin, intervalMax } = DRIPFEED_LIMITS;
    const r = wholeNumber(runs);
    const i = wholeNumber(interval);
    if (r === null || r < runsMin || r > runsMax)
      errors.runs = `Las repeticiones deben estar entre ${runsMin} y ${runsMax}.`;
    if (i === null || i < intervalMin || i > intervalMax)
      errors.interval = `El intervalo debe estar entre ${intervalMin} y ${intervalMax} minutos.`;
    return errors;
  }

  function quantityError(): string | undefined {
    if (!asksQuantity(service)) return undefined;
    const read = parseIntegerInput(quantity, 'La cantidad');
    if (!read.ok) return read.message;
    const n = read.value;
    if (n < min || n > max) return `La cantidad debe estar entre ${min} y ${max}.`;
    return undefined;
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const next: Record<string, string> = {};
    const clean: Record<string, string> = {};
    for (const f of otherFields) {
      const r = validateField(f, typedValue(f, values[f.key] ?? ''));
      if (!r.ok) next[f.key] = r.message;
      else if (r.value !== '') clean[f.key] = r.value;
    }
    const qErr = quantityError();
    if (qErr) next.quantity = qErr;
    Object.assign(next, dripErrors());
    if (bulk && lines.length === 0) next.imeis = 'Pega al menos un IMEI.';
    else if (bulk && box.valid === 0)
      next.imeis = 'Ninguna línea tiene un IMEI válido: corrige las marcadas.';
    if (bulk && lines.length > BULK_MAX_LINES)
      next.imeis = `Puedes enviar hasta ${BULK_MAX_LINES} IMEI a la vez.`;
    setErrors(next);
    setTouched(Object.fromEntries(service.fields.map((f) => [f.key, true])));
    if (Object.keys(next).length > 0) {
      setOutcome(null);
      setRefused({ fields: next });
      return;
    }
    setBusy(true);
    setOutcome(null);
    try {
      if (bulk) {
        const result = await placeBulkOrder(service.id, lines.join('\n'), clean);
        // The lines now ordered leave the box; the refused ones stay, as typed, to be fixed.
        setImeis(refusedLines(lines, result.results));
        setOutcome({ kind: 'bulk', result });
      } else {
        const order = await placeOrder(
          {
            serviceId: service.id,
            ...(asksQuantity(service) ? { quantity: wholeNumber(quantity) ?? 0 } : {}),
            ...(drip ? { runs: wholeNumber(runs) ?? 0, interval: wholeNumber(interval) ?? 0 } : {}),
            fields: clean,
          },
          idempotencyKey,
        );
        setOutcome({ kind: 'order', order });
      }
      void reloadMe();
    } catch (err) {
      if (err instanceof ApiError) {
        if (err.code === 'INSUFFICIENT_FUNDS' || err.status === 402)
          setOutcome({ kind: 'funds', credit: err.message.includes('crédito') });
        else {
          if (Object.keys(err.fields).length > 0) {
            setErrors(err.fields);
            setRefused({ fields: err.fields });
          }
          if (err.code === 'OUT_OF_STOCK') setRanOut(true);
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
          {o.status === 'completed' && o.result ? <DeliveredItem result={o.result} /> : null}
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
  // A stock service with nothing left and no supplier to fall back on refuses orders.
  const soldOut = isSoldOut(service) || ranOut;
  const soldOutId = `agotado-${service.id}`;

  return (
    <form ref={form} noValidate onSubmit={(e) => void submit(e)} className="flex flex-col gap-4">
      {outcome?.kind === 'funds' ? (
        <Alert tone="warning">
          {outcome.credit
            ? 'Tu saldo y tu crédito disponible no alcanzan para esta orden.'
            : 'Tu saldo no alcanza para esta orden.'}{' '}
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
          onChange={(e) => {
            setImeis(e.target.value);
            if (errors.imeis) setErrors((s) => ({ ...s, imeis: '' }));
          }}
          hint={boxHint(box)}
          error={errors.imeis || undefined}
        />
      ) : null}
      {bulk && box.invalid > 0 ? (
        <ul className="-mt-2 list-disc pl-5 text-sm text-red-700" data-testid="bulk-line-errors">
          {box.checked
            .filter((l) => !l.ok)
            .slice(0, 10)
            .map((l) => (
              <li key={l.line}>
                Línea {l.line} ({l.text}): {l.ok ? '' : l.message}
              </li>
            ))}
          {box.invalid > 10 ? <li>Y {box.invalid - 10} más.</li> : null}
        </ul>
      ) : null}

      {otherFields.map((f) =>
        f.type === 'file' ? (
          <FileField
            key={f.key}
            serviceId={service.id}
            field={f}
            error={errors[f.key] || undefined}
            onChange={(uploadId, problem) => {
              setValues((s) => ({ ...s, [f.key]: uploadId }));
              setErrors((es) => ({ ...es, [f.key]: problem ?? '' }));
            }}
          />
        ) : f.type === 'lines' ? (
          <TextAreaField
            key={f.key}
            label={f.required ? f.label : `${f.label} (opcional)`}
            name={f.key}
            rows={5}
            value={values[f.key] ?? ''}
            required={f.required}
            hint={linesHint(service, f, values[f.key] ?? '')}
            error={errors[f.key] || undefined}
            onChange={(e) => change(f, e.target.value)}
            onBlur={() => blur(f)}
          />
        ) : f.type === 'select' ? (
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

      {asksQuantity(service) ? (
        <TextField
          label={drip ? 'Cantidad por repetición' : 'Cantidad'}
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

      {service.dripfeed && !bulk ? (
        <fieldset className="flex flex-col gap-3 rounded-lg border border-slate-200 p-3">
          <legend className="px-1 text-sm font-semibold text-slate-900">Goteo (drip-feed)</legend>
          <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
            <input
              type="checkbox"
              className="h-5 w-5"
              checked={drip}
              onChange={(e) => setDrip(e.target.checked)}
            />
            Repartir la entrega en varias repeticiones
          </label>
          {drip ? (
            <div className="grid gap-3 sm:grid-cols-2">
              <TextField
                label="Repeticiones"
                name="runs"
                inputMode="numeric"
                value={runs}
                hint={`Entre ${DRIPFEED_LIMITS.runsMin} y ${DRIPFEED_LIMITS.runsMax}; se cobra la cantidad por cada una.`}
                error={errors.runs || undefined}
                onChange={(e) => setRuns(e.target.value)}
              />
              <TextField
                label="Minutos entre repeticiones"
                name="interval"
                inputMode="numeric"
                value={interval}
                hint={`Entre ${DRIPFEED_LIMITS.intervalMin} y ${DRIPFEED_LIMITS.intervalMax}`}
                error={errors.interval || undefined}
                onChange={(e) => setRunInterval(e.target.value)}
              />
            </div>
          ) : null}
        </fieldset>
      ) : null}

      <p className="text-lg font-semibold text-slate-900" aria-live="polite">
        Total: {totalLabel}
      </p>
      {isSoldOut(service) ? (
        <p id={soldOutId} className="text-sm font-medium text-red-800" data-testid="sold-out">
          {SOLD_OUT_REASON} Vuelve a intentarlo más tarde.
        </p>
      ) : null}
      <Button
        type="submit"
        disabled={busy || soldOut}
        aria-describedby={isSoldOut(service) ? soldOutId : undefined}
      >
        {busy
          ? 'Enviando…'
          : soldOut
            ? 'Agotado'
            : bulk
              ? `Confirmar ${plural(box.valid, 'orden', 'órdenes')} (Total ${totalLabel})`
              : `Confirmar orden (Total ${totalLabel})`}
      </Button>
    </form>
  );
}

/** A stock order's item, delivered with the order: shown in full, as it is, with «Copiar». */
function DeliveredItem({ result }: { result: string }) {
  return (
    <div className="mt-3 flex flex-col gap-2">
      <p className="font-semibold">Tu artículo:</p>
      <pre
        className="overflow-x-auto rounded-lg bg-white p-3 font-mono text-sm break-all whitespace-pre-wrap text-slate-900"
        data-testid="delivered-item"
      >
        {result}
      </pre>
      <CopyButton text={result} what="el artículo" done="Copiado" />
    </div>
  );
}

function BulkResult({ result }: { result: BulkResponse }) {
  return (
    <div className="flex flex-col gap-3">
      <Alert tone={result.placed > 0 ? 'success' : 'warning'}>
        {plural(result.placed, 'orden creada', 'órdenes creadas')},{' '}
        {plural(result.refused, 'línea rechazada', 'líneas rechazadas')}
        {result.refused > 0 ? ' (quedan en el cuadro para corregirlas)' : ''}. Cargo total:{' '}
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

import { useState } from 'react';
import { useFetcher } from 'react-router';
import { formatUsd } from '../../../shared/money';
import type { GatewayMethod } from '../../../shared/schemas/wallet';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { useDates } from '../../lib/dates';
import { useFocusFirstInvalid } from '../../lib/focus-invalid';
import { feeText } from '../../lib/topup-quote';
import type { AdminActionResult, GatewaySetting } from './types';

/** The variables that turn each method on (docs/operations.md "Payments"). */
export const GATEWAY_VARIABLES: Record<GatewayMethod, readonly string[]> = {
  stripe: ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'],
  paypal: ['PAYPAL_CLIENT_ID', 'PAYPAL_CLIENT_SECRET', 'PAYPAL_WEBHOOK_ID'],
  crypto: ['NOWPAYMENTS_API_KEY', 'NOWPAYMENTS_IPN_SECRET'],
  mercadopago: ['MERCADOPAGO_ACCESS_TOKEN', 'MERCADOPAGO_WEBHOOK_SECRET', 'MERCADOPAGO_CURRENCY'],
};

/** Card, PayPal, crypto and Mercado Pago: whether each is on, and its fee and limits. */
export function GatewaySettings({ gateways }: { gateways: GatewaySetting[] }) {
  return (
    <ul className="grid gap-3 lg:grid-cols-2" aria-label="Métodos automáticos">
      {gateways.map((g) => (
        <GatewayRow key={g.method} gateway={g} />
      ))}
    </ul>
  );
}

function GatewayRow({ gateway }: { gateway: GatewaySetting }) {
  const dates = useDates();
  const fetcher = useFetcher<AdminActionResult>();
  const [editing, setEditing] = useState(false);
  const saving = fetcher.state !== 'idle';
  const result = fetcher.state === 'idle' ? fetcher.data : undefined;
  const saved = result?.ok === true;
  const fields = result?.ok ? undefined : result?.fields;
  const form = useFocusFirstInvalid(result);
  return (
    <li
      className="rounded-xl border border-slate-200 p-4"
      data-testid={`gateway-${gateway.method}`}
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="font-semibold text-slate-900">{gateway.name}</h3>
          <p className="mt-0.5 text-sm text-slate-700">
            {feeText(gateway.fee)} · Entre{' '}
            <span className="tabular-nums">{formatUsd(gateway.minAmount)}</span> y{' '}
            <span className="tabular-nums">{formatUsd(gateway.maxAmount)}</span>
          </p>
          {gateway.updatedAt ? (
            <p className="text-xs text-slate-500">
              Cambiado el {dates.dateTime(gateway.updatedAt)}
            </p>
          ) : null}
        </div>
        <span
          className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ${
            gateway.enabled ? 'bg-emerald-100 text-emerald-800' : 'bg-slate-200 text-slate-700'
          }`}
        >
          {gateway.enabled ? 'Activo' : 'Sin configurar'}
        </span>
      </div>
      {gateway.enabled ? null : (
        <p className="mt-2 text-sm break-words text-slate-600">
          Sin configurar: faltan las variables {GATEWAY_VARIABLES[gateway.method].join(', ')} en el
          servidor. Los clientes no lo ven hasta entonces.
        </p>
      )}
      <div className="mt-3">
        <Button variant="ghost" aria-expanded={editing} onClick={() => setEditing((v) => !v)}>
          {editing ? 'Cerrar edición' : 'Editar'}
          <span className="sr-only"> {gateway.name}</span>
        </Button>
      </div>
      {saved && !editing ? (
        <div className="mt-3">
          <Alert tone="success">{result.message}</Alert>
        </div>
      ) : null}
      {editing ? (
        <fetcher.Form
          ref={form}
          method="post"
          noValidate
          className="mt-3 flex flex-col gap-3 border-t border-slate-200 pt-4"
          aria-label={`Comisión y límites de ${gateway.name}`}
        >
          <input type="hidden" name="intent" value="update-gateway" />
          <input type="hidden" name="method" value={gateway.method} />
          {saved ? <Alert tone="success">{result.message}</Alert> : null}
          {result?.formError ? <Alert tone="error">{result.formError}</Alert> : null}
          <div className="grid gap-3 sm:grid-cols-2">
            <TextField
              label="Comisión (%)"
              name="feePercent"
              inputMode="decimal"
              autoComplete="off"
              defaultValue={gateway.fee.percent}
              hint="Sobre el importe; 0 sin porcentaje."
              error={fields?.feePercent}
            />
            <TextField
              label="Comisión fija (US$)"
              name="feeFixed"
              inputMode="decimal"
              autoComplete="off"
              defaultValue={gateway.fee.fixed}
              hint="Se suma a cada recarga; 0 sin parte fija."
              error={fields?.feeFixed}
            />
            <TextField
              label="Importe mínimo"
              name="minAmount"
              inputMode="decimal"
              autoComplete="off"
              defaultValue={gateway.minAmount}
              hint="En dólares (USD), lo que recibe el saldo."
              error={fields?.minAmount}
            />
            <TextField
              label="Importe máximo"
              name="maxAmount"
              inputMode="decimal"
              autoComplete="off"
              defaultValue={gateway.maxAmount}
              hint="En dólares (USD)."
              error={fields?.maxAmount}
            />
          </div>
          {fields?.form ? <Alert tone="error">{fields.form}</Alert> : null}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={saving}>
              {saving ? 'Guardando…' : 'Guardar cambios'}
            </Button>
            <Button variant="ghost" disabled={saving} onClick={() => setEditing(false)}>
              Cancelar
            </Button>
          </div>
        </fetcher.Form>
      ) : null}
    </li>
  );
}

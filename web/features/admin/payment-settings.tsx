import { useFetcher } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { TextAreaField, TextField } from '../../components/ui/field';
import { useDates } from '../../lib/dates';
import { useFocusFirstInvalid } from '../../lib/focus-invalid';
import { formatRateEs } from '../../lib/topup-quote';
import type { AdminActionResult, PaymentSettings as Settings } from './types';

/** The fraud hold, Mercado Pago's exchange rate and the shop's details printed on receipts. */
export function PaymentSettings({ settings }: { settings: Settings }) {
  const dates = useDates();
  const fetcher = useFetcher<AdminActionResult>();
  const saving = fetcher.state !== 'idle';
  const result = fetcher.state === 'idle' ? fetcher.data : undefined;
  const fields = result?.ok ? undefined : result?.fields;
  const currency = settings.mercadopagoCurrency;
  const form = useFocusFirstInvalid(result);
  return (
    <fetcher.Form ref={form} method="post" noValidate className="flex flex-col gap-5">
      <input type="hidden" name="intent" value="update-settings" />
      {result?.ok ? <Alert tone="success">{result.message}</Alert> : null}
      {result?.formError ? <Alert tone="error">{result.formError}</Alert> : null}
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-1 text-base font-semibold text-slate-900">
          Retención por fraude
        </legend>
        <TextField
          label="Retener la primera recarga con tarjeta o PayPal de más de… (US$)"
          name="holdThreshold"
          inputMode="decimal"
          autoComplete="off"
          placeholder="100.00"
          defaultValue={settings.holdThreshold ?? ''}
          hint="La primera recarga de una cuenta por encima de este importe espera tu aprobación en «Recargas en revisión». Déjalo vacío para no retener ninguna."
          error={fields?.holdThreshold}
        />
      </fieldset>
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-1 text-base font-semibold text-slate-900">
          Tipo de cambio de Mercado Pago
        </legend>
        {currency ? (
          <TextField
            label={`Unidades de ${currency} por dólar`}
            name="mercadopagoRate"
            inputMode="decimal"
            autoComplete="off"
            placeholder="1045.50"
            defaultValue={settings.mercadopagoRate ?? ''}
            hint={
              settings.mercadopagoRate && settings.mercadopagoRateUpdatedAt
                ? `Ahora 1 US$ = ${formatRateEs(settings.mercadopagoRate)} ${currency}, desde el ${dates.dateTime(settings.mercadopagoRateUpdatedAt)}. Los clientes pagan en ${currency} a este tipo.`
                : `Los clientes pagan en ${currency} a este tipo. Sin él, Mercado Pago no se ofrece.`
            }
            error={fields?.mercadopagoRate}
          />
        ) : (
          <p className="text-sm text-slate-600">
            Mercado Pago no está configurado en el servidor (MERCADOPAGO_ACCESS_TOKEN).
          </p>
        )}
      </fieldset>
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-1 text-base font-semibold text-slate-900">
          Datos del negocio en los recibos
        </legend>
        <TextField
          label="Nombre del negocio"
          name="shopName"
          autoComplete="organization"
          maxLength={120}
          defaultValue={settings.shopName}
          error={fields?.shopName}
        />
        <TextField
          label="Identificación fiscal"
          name="shopTaxId"
          autoComplete="off"
          maxLength={40}
          defaultValue={settings.shopTaxId}
          hint="CUIT, RFC, NIF…"
          error={fields?.shopTaxId}
        />
        <TextAreaField
          label="Dirección"
          name="shopAddress"
          rows={3}
          maxLength={300}
          defaultValue={settings.shopAddress}
          error={fields?.shopAddress}
        />
      </fieldset>
      {fields?.form ? <Alert tone="error">{fields.form}</Alert> : null}
      <div>
        <Button type="submit" disabled={saving}>
          {saving ? 'Guardando…' : 'Guardar ajustes'}
        </Button>
      </div>
    </fetcher.Form>
  );
}

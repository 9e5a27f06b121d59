import { useEffect, useId, useState } from 'react';
import { useFetcher } from 'react-router';
import type { PaymentMethodDto } from '../../../shared/schemas/payments';
import type { GatewayMethod } from '../../../shared/schemas/wallet';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { useFocusFirstInvalid } from '../../lib/focus-invalid';
import type { FormResult } from '../../lib/form-data';
import { feeText, limitsText, quotePreview } from '../../lib/topup-quote';

/** What /addfunds' clientAction answers; each form reads the answers of its own intent. */
export type AddFundsResult = FormResult & { intent?: string; redirectTo?: string };

/**
 * An automatic method as the form offers it. `feeUnknown`: the methods list could not be read,
 * so the card is offered with its limits only (no fee shown, no preview).
 */
export type GatewayOption = PaymentMethodDto & { method: GatewayMethod; feeUnknown?: boolean };

const DESCRIPTIONS: Record<GatewayMethod, (m: PaymentMethodDto) => string> = {
  stripe: () => 'Tarjeta de crédito o débito.',
  paypal: () => 'Con tu cuenta de PayPal o una tarjeta, en la página de PayPal.',
  crypto: () => 'USDT (TRON) y otras monedas, en la página de NOWPayments.',
  mercadopago: (m) =>
    m.currency === 'USD'
      ? 'En la página de Mercado Pago.'
      : `En la página de Mercado Pago, en ${m.currency} al tipo de cambio del día.`,
};

const PAY_WITH: Record<GatewayMethod, string> = {
  stripe: 'Pagar con tarjeta',
  paypal: 'Pagar con PayPal',
  crypto: 'Pagar con criptomonedas',
  mercadopago: 'Pagar con Mercado Pago',
};

/** Only the automatic methods (card, PayPal, crypto, Mercado Pago) of the methods list. */
export function gatewayOptions(methods: PaymentMethodDto[]): GatewayOption[] {
  return methods.filter((m): m is GatewayOption =>
    ['stripe', 'paypal', 'crypto', 'mercadopago'].includes(m.method),
  );
}

function QuoteLine({ method, amount }: { method: GatewayOption; amount: string }) {
  if (method.feeUnknown) return null;
  const preview = quotePreview(method, amount);
  return (
    <div
      aria-live="polite"
      data-testid="topup-quote"
      className="min-h-[3.5rem] rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700"
    >
      {preview.kind === 'quote' ? (
        <>
          <p className="font-semibold text-slate-900 tabular-nums">{preview.text}</p>
          {preview.charged ? <p className="tabular-nums">{preview.charged}</p> : null}
          <p>{feeText(method.fee)}</p>
        </>
      ) : preview.kind === 'out-of-range' ? (
        <p className="text-amber-900">{preview.text}</p>
      ) : (
        <>
          <p>Escribe el importe para ver cuánto pagas.</p>
          <p>{feeText(method.fee)}</p>
        </>
      )}
    </div>
  );
}

function MethodTile({
  option,
  checked,
  onSelect,
  disabled,
}: {
  option: GatewayOption;
  checked: boolean;
  onSelect: () => void;
  disabled: boolean;
}) {
  const id = useId();
  return (
    <label
      htmlFor={`${id}-radio`}
      className={`flex min-h-11 cursor-pointer items-start gap-3 rounded-xl border p-3 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-600/40 ${
        checked ? 'border-brand-600 bg-brand-50' : 'border-slate-200 bg-white hover:bg-slate-50'
      }`}
    >
      <input
        id={`${id}-radio`}
        type="radio"
        name="method"
        value={option.method}
        checked={checked}
        onChange={onSelect}
        disabled={disabled}
        aria-labelledby={`${id}-name`}
        aria-describedby={`${id}-details`}
        className="mt-1 size-5 shrink-0 accent-brand-600"
      />
      <span className="min-w-0">
        <span id={`${id}-name`} className="block font-semibold text-slate-900">
          {option.name}
        </span>
        <span id={`${id}-details`} className="block text-sm text-slate-600">
          {DESCRIPTIONS[option.method](option)}
          {option.feeUnknown ? '' : ` ${feeText(option.fee)}.`} {limitsText(option)}
        </span>
      </span>
    </label>
  );
}

/**
 * The automatic methods: the customer chooses one, types the amount, reads what they pay and
 * what they get (live), and goes to the provider's page.
 */
export function GatewayTopupForm({ options }: { options: GatewayOption[] }) {
  const fetcher = useFetcher<AddFundsResult>();
  const data = fetcher.data?.intent === 'gateway' ? fetcher.data : undefined;
  const [chosen, setChosen] = useState<GatewayMethod>(options[0]?.method ?? 'stripe');
  const [amount, setAmount] = useState('');
  const redirectTo = data?.redirectTo;
  useEffect(() => {
    if (redirectTo) window.location.assign(redirectTo);
  }, [redirectTo]);
  const busy = fetcher.state !== 'idle' || Boolean(redirectTo);
  const form = useFocusFirstInvalid(data);
  // What was chosen and typed before the page hydrated is in the form, not in the state yet
  // (the form is sent as it stands: web/lib/early-submit.ts); the quote and the button follow it.
  useEffect(() => {
    const element = form.current;
    if (!element) return;
    const picked = element.querySelector<HTMLInputElement>('input[name="method"]:checked');
    const typed = element.querySelector<HTMLInputElement>('input[name="amount"]');
    const method = options.find((o) => o.method === picked?.value)?.method;
    if (method) setChosen(method);
    if (typed?.value) setAmount(typed.value);
    // Once, right after hydration.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const option = options.find((o) => o.method === chosen) ?? options[0];
  if (!option) return null;
  return (
    <fetcher.Form ref={form} method="post" noValidate className="flex flex-col gap-3">
      <input type="hidden" name="intent" value="gateway" />
      {data?.formError ? <Alert tone="error">{data.formError}</Alert> : null}
      {options.length > 1 ? (
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-medium text-slate-800">
            Elige el medio de pago
          </legend>
          {options.map((o) => (
            <MethodTile
              key={o.method}
              option={o}
              checked={o.method === option.method}
              onSelect={() => setChosen(o.method)}
              disabled={busy}
            />
          ))}
        </fieldset>
      ) : (
        <>
          <input type="hidden" name="method" value={option.method} />
          {option.feeUnknown ? null : (
            <p className="text-sm text-slate-600">{feeText(option.fee)}.</p>
          )}
        </>
      )}
      <TextField
        label="Importe en dólares"
        name="amount"
        inputMode="decimal"
        autoComplete="off"
        placeholder="25.00"
        required
        value={amount}
        onChange={(e) => setAmount(e.target.value)}
        hint={limitsText(option)}
        error={data?.fields?.amount}
      />
      <QuoteLine method={option} amount={amount} />
      <Button type="submit" disabled={busy}>
        {busy ? 'Abriendo el pago…' : PAY_WITH[option.method]}
      </Button>
    </fetcher.Form>
  );
}

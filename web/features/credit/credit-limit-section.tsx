import { useFetcher } from 'react-router';
import { formatUsd, parseAmount } from '../../../shared/money';
import { staffCan } from '../../../shared/roles';
import type { CustomerDetail } from '../../../shared/schemas/admin';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { Detail, Section } from '../../components/ui/section';
import { useSession } from '../../lib/session-state';
import type { CreditActionResult } from './credit-api';

/**
 * «Crédito» on the customer's page (admin and finance only): the limit in force, what they owe
 * and can still spend, and the form that gives, changes or removes it (intent `credit-limit`,
 * PUT /api/admin/users/:id/credit-limit). A lower limit than the debt is allowed: the debt stays.
 */
export function CreditLimitSection({ customer }: { customer: CustomerDetail }) {
  const session = useSession();
  const fetcher = useFetcher<CreditActionResult>();
  if (session.status !== 'authenticated' || !staffCan(session.user.role, 'money')) return null;
  const busy = fetcher.state !== 'idle';
  const result = fetcher.state === 'idle' ? fetcher.data : undefined;
  const done = result?.ok ? result.credit : undefined;
  const balance = parseAmount(customer.balance ?? '0') ?? 0n;
  const limit = parseAmount(customer.creditLimit ?? '0') ?? 0n;
  const spendable = balance + limit > 0n ? balance + limit : 0n;
  return (
    <Section
      id="credito"
      title="Crédito"
      description="Con un límite de crédito, sus órdenes pueden dejar su saldo en negativo hasta ese importe. Cada recarga paga primero lo que debe."
    >
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3" data-testid="customer-credit">
        <Detail label="Límite de crédito">
          <span className="tabular-nums">{limit > 0n ? formatUsd(limit) : 'Sin crédito'}</span>
        </Detail>
        <Detail label="Debe">
          <span className={`tabular-nums ${balance < 0n ? 'font-semibold text-red-800' : ''}`}>
            {balance < 0n ? formatUsd(-balance) : 'Nada'}
          </span>
        </Detail>
        <Detail label="Disponible para gastar">
          <span className="tabular-nums">{formatUsd(spendable)}</span>
        </Detail>
      </dl>
      <fetcher.Form
        key={done ? `${done.creditLimit}:${done.available}` : 'credit'}
        method="post"
        noValidate
        className="mt-4 flex flex-col gap-3"
      >
        <input type="hidden" name="intent" value="credit-limit" />
        <div aria-live="polite">
          {done ? (
            <Alert tone="success">
              {done.creditLimit === '0.00'
                ? 'Crédito quitado.'
                : `Límite de crédito guardado: ${formatUsd(done.creditLimit)}.`}{' '}
              Puede gastar {formatUsd(done.spendable)}
              {done.debt !== '0.00' ? ` y debe ${formatUsd(done.debt)}` : ''}.
            </Alert>
          ) : null}
        </div>
        {result?.formError ? <Alert tone="error">{result.formError}</Alert> : null}
        <TextField
          label="Nuevo límite de crédito"
          name="amount"
          inputMode="decimal"
          autoComplete="off"
          required
          defaultValue={limit > 0n ? (customer.creditLimit ?? '').replace('.', ',') : ''}
          placeholder="150,00"
          hint="En dólares. 0 quita el crédito; si debe más, la deuda se mantiene y no podrá pedir hasta pagarla."
          error={result?.ok ? undefined : result?.fields?.amount}
        />
        <Button type="submit" disabled={busy} className="sm:self-start">
          {busy ? 'Guardando…' : 'Guardar límite'}
        </Button>
      </fetcher.Form>
    </Section>
  );
}

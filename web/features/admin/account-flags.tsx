import { useFetcher } from 'react-router';
import { formatUsd } from '../../../shared/money';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Detail } from '../../components/ui/section';
import { useDates } from '../../lib/dates';
import type { AccountFlag, AdminActionResult } from './types';

/** Customers who cannot order because a credited top-up was reversed (refund, chargeback). */
export function AccountFlags({ flags }: { flags: AccountFlag[] }) {
  if (flags.length === 0)
    return <p className="text-slate-600">Ninguna cuenta está bloqueada por una reversión.</p>;
  return (
    <ul className="flex flex-col gap-3" aria-label="Cuentas bloqueadas">
      {flags.map((flag) => (
        <FlagRow key={flag.id} flag={flag} />
      ))}
    </ul>
  );
}

function FlagRow({ flag }: { flag: AccountFlag }) {
  const dates = useDates();
  const fetcher = useFetcher<AdminActionResult>();
  const busy = fetcher.state !== 'idle';
  const result = fetcher.state === 'idle' ? fetcher.data : undefined;
  const customer = flag.customer.name || flag.customer.email;
  const negative = flag.balance.startsWith('-');
  return (
    <li className="rounded-xl border border-slate-200 p-4">
      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,2fr)_minmax(0,1.2fr)]">
        <Detail label="Cliente" className="col-span-2 lg:col-span-1">
          <span className="block font-medium">{flag.customer.name}</span>
          <span className="block break-all text-slate-600">{flag.customer.email}</span>
        </Detail>
        <Detail label="Saldo">
          <span
            className={`font-semibold tabular-nums ${negative ? 'text-red-700' : 'text-slate-900'}`}
          >
            {formatUsd(flag.balance)}
          </span>
        </Detail>
        <Detail label="Motivo">{flag.reason}</Detail>
        <Detail label="Desde">
          <time dateTime={flag.createdAt}>{dates.dateTime(flag.createdAt)}</time>
        </Detail>
      </dl>
      {result?.ok ? (
        <div className="mt-3">
          <Alert tone="success">Cuenta desbloqueada: {customer} ya puede hacer órdenes.</Alert>
        </div>
      ) : (
        <div className="mt-4 flex flex-wrap items-center gap-2">
          <fetcher.Form method="post">
            <input type="hidden" name="intent" value="clear-flag" />
            <input type="hidden" name="id" value={flag.id} />
            <Button type="submit" variant="secondary" disabled={busy}>
              {busy ? 'Desbloqueando…' : 'Desbloquear'}
              <span className="sr-only"> la cuenta de {customer}</span>
            </Button>
          </fetcher.Form>
          {negative ? (
            <p className="text-sm text-slate-600">
              Debe {formatUsd(flag.balance.slice(1))}: cada recarga paga primero la deuda.
            </p>
          ) : null}
        </div>
      )}
      {result?.formError ? (
        <div className="mt-3">
          <Alert tone="error">{result.formError}</Alert>
        </div>
      ) : null}
    </li>
  );
}

import { useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useFetcher } from 'react-router';
import { formatUsd } from '../../../shared/money';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { TextAreaField, TextField } from '../../components/ui/field';
import { SEARCH_MIN_LENGTH } from './actions';
import { newRequestKey } from './admin-api';
import type { AdjustResponse, AdminActionResult, AdminUser } from './types';

/** Search a customer, pick one, then credit or debit their balance. */
export function BalanceAdjust() {
  const search = useFetcher<AdminActionResult>();
  const [selected, setSelected] = useState<AdminUser | null>(null);
  const searchForm = useRef<HTMLFormElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const searching = search.state !== 'idle';
  const result = search.data;
  const query = result?.query ?? '';

  function choose(user: AdminUser) {
    flushSync(() => setSelected(user));
    panel.current?.querySelector<HTMLInputElement>('input[name="amount"]')?.focus();
  }

  function backToResults() {
    flushSync(() => setSelected(null));
    searchForm.current?.querySelector<HTMLInputElement>('input[name="q"]')?.focus();
    // Saldos may have changed: search again with the same words.
    if (query.length >= SEARCH_MIN_LENGTH)
      void search.submit({ intent: 'search', q: query }, { method: 'post' });
  }

  return (
    <div className="flex flex-col gap-4">
      <search.Form
        ref={searchForm}
        method="post"
        noValidate
        role="search"
        aria-label="Buscar cliente"
        onSubmit={() => setSelected(null)}
        className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-start"
      >
        <input type="hidden" name="intent" value="search" />
        <TextField
          label="Nombre o correo del cliente"
          name="q"
          type="search"
          autoComplete="off"
          required
          minLength={SEARCH_MIN_LENGTH}
          maxLength={100}
          defaultValue={query}
          placeholder="ana@ejemplo.com"
          error={result?.fields?.q}
        />
        <Button type="submit" className="sm:mt-6" disabled={searching}>
          {searching ? 'Buscando…' : 'Buscar'}
        </Button>
      </search.Form>

      {result?.formError ? <Alert tone="error">{result.formError}</Alert> : null}

      {selected ? (
        <div ref={panel}>
          <AdjustPanel key={selected.id} user={selected} onBack={backToResults} />
        </div>
      ) : result?.users ? (
        <SearchResults users={result.users} query={query} onChoose={choose} />
      ) : null}
    </div>
  );
}

function SearchResults({
  users,
  query,
  onChoose,
}: {
  users: AdminUser[];
  query: string;
  onChoose: (user: AdminUser) => void;
}) {
  if (users.length === 0)
    return (
      <p className="text-slate-600" role="status">
        No encontramos clientes con «{query}».
      </p>
    );
  return (
    <div>
      <p className="text-sm text-slate-600" role="status">
        {users.length === 1 ? '1 resultado' : `${users.length} resultados`} para «{query}»
        {users.length >= 20 ? ' (se muestran los 20 primeros; afina la búsqueda)' : ''}.
      </p>
      <ul className="mt-2 divide-y divide-slate-200 rounded-xl border border-slate-200">
        {users.map((user) => (
          <li key={user.id} className="flex flex-wrap items-center gap-3 p-3">
            <div className="min-w-0 flex-1">
              <p className="font-medium text-slate-900">
                {user.name}
                {user.role === 'admin' ? (
                  <span className="ml-2 rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-800">
                    Administrador
                  </span>
                ) : null}
                {user.emailVerified ? null : (
                  <span className="ml-2 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">
                    Correo sin verificar
                  </span>
                )}
              </p>
              <p className="text-sm break-all text-slate-600">{user.email}</p>
            </div>
            <p className="text-sm text-slate-700">
              Saldo: <strong className="tabular-nums">{formatUsd(user.available ?? '0.00')}</strong>
            </p>
            <Button variant="secondary" onClick={() => onChoose(user)}>
              Elegir<span className="sr-only"> a {user.name || user.email}</span>
            </Button>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The Idempotency-Key of one adjustment: made when the form is shown, new after a success. */
function RequestKeyInput() {
  const [key] = useState(newRequestKey);
  return <input type="hidden" name="idempotencyKey" value={key} />;
}

function AdjustPanel({ user, onBack }: { user: AdminUser; onBack: () => void }) {
  const fetcher = useFetcher<AdminActionResult>();
  const adjusting = fetcher.state !== 'idle';
  const result = fetcher.state === 'idle' ? fetcher.data : undefined;
  // The last adjustment that went through: its balance, and its id keys the form (so the fields
  // empty and a new Idempotency-Key is made only after a success).
  const [done, setDone] = useState<AdjustResponse | null>(null);
  const just = fetcher.data?.adjusted;
  if (just && just.transferId !== done?.transferId) setDone(just);
  const available = done?.available ?? user.available ?? '0.00';
  const fields = result?.ok ? undefined : result?.fields;

  return (
    <div className="rounded-xl border border-slate-200 p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="font-semibold text-slate-900">{user.name}</h3>
          <p className="text-sm break-all text-slate-600">{user.email}</p>
          <p className="mt-1 text-sm text-slate-700">
            Saldo disponible: <strong className="tabular-nums">{formatUsd(available)}</strong>
          </p>
        </div>
        <Button variant="ghost" onClick={onBack}>
          Cambiar de cliente
        </Button>
      </div>
      <fetcher.Form
        key={done?.transferId ?? 'new'}
        method="post"
        noValidate
        className="mt-4 flex flex-col gap-3"
      >
        <input type="hidden" name="intent" value="adjust" />
        <input type="hidden" name="userId" value={user.id} />
        <RequestKeyInput />
        {result?.ok && result.adjusted ? (
          <Alert tone="success">
            {result.adjusted.replayed
              ? 'Este ajuste ya se había aplicado; no se movió dinero otra vez. '
              : null}
            Saldo actualizado: {formatUsd(result.adjusted.available)}
          </Alert>
        ) : null}
        {result?.formError ? <Alert tone="error">{result.formError}</Alert> : null}
        <TextField
          label="Importe"
          name="amount"
          autoComplete="off"
          required
          placeholder="5.00"
          hint="Positivo para añadir, negativo para descontar, por ejemplo -2,00."
          error={fields?.amount}
        />
        <TextAreaField
          label="Motivo"
          name="reason"
          required
          rows={2}
          maxLength={500}
          hint="El cliente lo verá en su historial de movimientos."
          error={fields?.reason}
        />
        <Button type="submit" disabled={adjusting} className="sm:self-start">
          {adjusting ? 'Aplicando…' : 'Aplicar ajuste'}
        </Button>
      </fetcher.Form>
    </div>
  );
}

import { useEffect, useId, useRef, useState } from 'react';
import { Form, Link, useFetcher, useNavigation } from 'react-router';
import { formatUsd } from '../../../shared/money';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { TextAreaField, TextField } from '../../components/ui/field';
import { Detail, LoadedList } from '../../components/ui/section';
import { SEARCH_MIN_LENGTH } from './admin-actions';
import { useSettled } from './hooks';
import { MethodList } from './sign-in-methods';
import { SessionList } from './session-list';
import type { AdminCustomerResult, Customer, CustomerSecurity } from './types';
import type { Loaded } from '../../lib/loaded';

const ACTION_KEY = 'admin-customer';

function customerUrl(query: string, id: string): string {
  return `?${new URLSearchParams({ q: query, id }).toString()}`;
}

/** The search form (`?q=`) and what it found, each with «Ver seguridad» (`?id=`). */
export function CustomerSearch({
  query,
  customers,
  selectedId,
}: {
  query: string;
  customers: Loaded<Customer[]> | null;
  selectedId: string | null;
}) {
  const navigation = useNavigation();
  const searching =
    navigation.state === 'loading' && navigation.location.search.includes('q=') && !selectedId;
  return (
    <div className="flex flex-col gap-4">
      <Form
        method="get"
        role="search"
        aria-label="Buscar cliente"
        className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-start"
      >
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
          hint={`Al menos ${SEARCH_MIN_LENGTH} caracteres.`}
        />
        <Button type="submit" className="sm:mt-6" disabled={searching}>
          {searching ? 'Buscando…' : 'Buscar'}
        </Button>
      </Form>
      {customers ? (
        <LoadedList value={customers} what="los clientes">
          {(items) => <Results customers={items} query={query} selectedId={selectedId} />}
        </LoadedList>
      ) : query !== '' ? (
        <p className="text-sm text-slate-600" role="status">
          Escribe al menos {SEARCH_MIN_LENGTH} caracteres para buscar.
        </p>
      ) : null}
    </div>
  );
}

function Results({
  customers,
  query,
  selectedId,
}: {
  customers: Customer[];
  query: string;
  selectedId: string | null;
}) {
  if (customers.length === 0)
    return (
      <p className="text-slate-600" role="status">
        No encontramos clientes con «{query}».
      </p>
    );
  return (
    <div>
      <p className="text-sm text-slate-600" role="status">
        {customers.length === 1 ? '1 resultado' : `${customers.length} resultados`} para «{query}»
        {customers.length >= 20 ? ' (se muestran los 20 primeros; afina la búsqueda)' : ''}.
      </p>
      <ul
        className="mt-2 divide-y divide-slate-200 rounded-xl border border-slate-200"
        data-testid="customer-results"
      >
        {customers.map((customer) => (
          <li
            key={customer.id}
            className={`flex flex-wrap items-center gap-3 p-3 ${customer.id === selectedId ? 'bg-brand-50' : ''}`}
          >
            <div className="min-w-0 flex-1">
              <p className="font-medium break-words text-slate-900">
                {customer.name}
                {customer.role === 'admin' ? (
                  <span className="ml-2 rounded-full bg-brand-100 px-2 py-0.5 text-xs font-semibold text-brand-800">
                    Administrador
                  </span>
                ) : null}
              </p>
              <p className="text-sm break-all text-slate-600">{customer.email}</p>
            </div>
            <p className="text-sm text-slate-700">
              Saldo: <strong className="tabular-nums">{formatUsd(customer.available)}</strong>
            </p>
            <Link
              to={customerUrl(query, customer.id)}
              aria-current={customer.id === selectedId ? 'true' : undefined}
              className="inline-flex min-h-11 items-center justify-center rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-900 hover:bg-slate-100"
            >
              Ver seguridad<span className="sr-only"> de {customer.email}</span>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

type Notice = { tone: 'success' | 'error'; text: string; at: number };

/** One customer's security: state, ways in, sessions; end them all, block or unblock. */
export function CustomerPanel({ customer }: { customer: CustomerSecurity }) {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  useSettled<AdminCustomerResult>(ACTION_KEY, (result) => {
    // A refused block reason is shown on its field (see BlockForm).
    if (!result.ok && result.fields?.reason) return;
    setNotice({
      tone: result.ok ? 'success' : 'error',
      text: (result.ok ? result.message : result.formError) ?? '',
      at: (notice?.at ?? 0) + 1,
    });
  });

  // A customer chosen (or the state changed by an action): the focus goes to the heading.
  useEffect(() => {
    heading.current?.focus();
  }, [customer.id, notice]);

  return (
    <section aria-labelledby={headingId} className="flex min-w-0 flex-col gap-5">
      <div>
        <h3
          id={headingId}
          ref={heading}
          tabIndex={-1}
          className="text-lg font-semibold break-words text-slate-900 focus:outline-none"
        >
          {customer.name}
        </h3>
        <p className="text-sm break-all text-slate-600">{customer.email}</p>
      </div>
      <div aria-live="polite">
        {notice?.tone === 'success' ? <Alert tone="success">{notice.text}</Alert> : null}
      </div>
      {notice?.tone === 'error' ? <Alert tone="error">{notice.text}</Alert> : null}
      <dl className="grid gap-3 sm:grid-cols-3">
        <Detail label="Cuenta">
          {customer.blocked ? (
            <strong className="text-red-800" data-testid="customer-state">
              Bloqueada
            </strong>
          ) : (
            <span data-testid="customer-state">Activa</span>
          )}
          {customer.blocked && customer.blockReason ? (
            <span className="block break-words text-slate-700">Motivo: {customer.blockReason}</span>
          ) : null}
        </Detail>
        <Detail label="Rol">{customer.role === 'admin' ? 'Administrador' : 'Cliente'}</Detail>
        <Detail label="Verificación en dos pasos">
          {customer.twoFactorEnabled ? 'Activada' : 'Desactivada'}
        </Detail>
      </dl>
      <div className="flex flex-col gap-2">
        <h4 className="font-semibold text-slate-900">Métodos de acceso</h4>
        <MethodList methods={customer.methods} />
      </div>
      <div className="flex flex-col gap-2">
        <h4 className="font-semibold text-slate-900">Sesiones activas</h4>
        <SessionList sessions={customer.sessions} testId="customer-sessions" />
      </div>
      <div className="flex flex-col gap-3">
        {customer.sessions.length > 0 ? <RevokeSessions customer={customer} /> : null}
        {customer.blocked ? (
          <Unblock customer={customer} />
        ) : (
          <BlockForm customer={customer} onStart={() => setNotice(null)} />
        )}
      </div>
    </section>
  );
}

/** A button that opens a confirmation (focus to it), whose «No» closes it (focus back). */
function useConfirmation() {
  const [open, setOpen] = useState(false);
  const [toggled, setToggled] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!toggled) return;
    box.current?.querySelector<HTMLElement>(open ? 'textarea, [role="group"]' : 'button')?.focus();
  }, [open, toggled]);
  function toggle(next: boolean) {
    setToggled(true);
    setOpen(next);
  }
  return { open, box, toggle };
}

function RevokeSessions({ customer }: { customer: CustomerSecurity }) {
  const { open, box, toggle } = useConfirmation();
  const fetcher = useSettled<AdminCustomerResult>(ACTION_KEY, (result) => {
    if (result.intent === 'revoke-sessions') toggle(false);
  });
  const questionId = useId();
  const busy = fetcher.state !== 'idle' && fetcher.formData?.get('intent') === 'revoke-sessions';
  return (
    <div ref={box}>
      {open ? (
        <fetcher.Form
          method="post"
          role="group"
          aria-labelledby={questionId}
          tabIndex={-1}
          className="flex flex-col gap-3 rounded-lg border border-red-200 bg-red-50 p-3 focus:outline-none"
        >
          <input type="hidden" name="intent" value="revoke-sessions" />
          <input type="hidden" name="id" value={customer.id} />
          <p id={questionId} className="text-sm text-red-900">
            ¿Cerrar todas las sesiones de {customer.email}? Tendrá que volver a iniciar sesión en
            todos sus dispositivos.
          </p>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" variant="danger" disabled={busy}>
              {busy ? 'Cerrando…' : 'Sí, cerrarlas'}
            </Button>
            <Button variant="secondary" disabled={busy} onClick={() => toggle(false)}>
              No
            </Button>
          </div>
        </fetcher.Form>
      ) : (
        <Button variant="secondary" onClick={() => toggle(true)}>
          Cerrar todas sus sesiones
        </Button>
      )}
    </div>
  );
}

function BlockForm({ customer, onStart }: { customer: CustomerSecurity; onStart: () => void }) {
  const { open, box, toggle } = useConfirmation();
  const [reasonError, setReasonError] = useState<string | undefined>();
  const fetcher = useSettled<AdminCustomerResult>(ACTION_KEY, (result) => {
    if (result.intent !== 'block') return;
    if (result.ok) toggle(false);
    else setReasonError(result.fields?.reason);
  });
  const busy = fetcher.state !== 'idle' && fetcher.formData?.get('intent') === 'block';
  const questionId = useId();
  const area = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (reasonError) area.current?.querySelector('textarea')?.focus();
  }, [reasonError]);

  return (
    <div ref={box}>
      {open ? (
        <fetcher.Form
          method="post"
          noValidate
          role="group"
          aria-labelledby={questionId}
          className="flex flex-col gap-3 rounded-lg border border-red-200 bg-red-50 p-3"
          onSubmit={() => {
            onStart();
            setReasonError(undefined);
          }}
        >
          <input type="hidden" name="intent" value="block" />
          <input type="hidden" name="id" value={customer.id} />
          <p id={questionId} className="text-sm text-red-900">
            ¿Bloquear la cuenta de {customer.email}? Cerramos sus sesiones al momento, no podrá
            entrar de ninguna forma y sus claves API dejarán de funcionar hasta que la desbloquees.
          </p>
          <div ref={area}>
            <TextAreaField
              label="Motivo del bloqueo"
              name="reason"
              rows={2}
              required
              maxLength={300}
              hint="Queda en el registro de auditoría. Entre 3 y 300 caracteres."
              error={reasonError}
            />
          </div>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" variant="danger" disabled={busy}>
              {busy ? 'Bloqueando…' : 'Sí, bloquear'}
            </Button>
            <Button
              variant="secondary"
              disabled={busy}
              onClick={() => {
                setReasonError(undefined);
                toggle(false);
              }}
            >
              No
            </Button>
          </div>
        </fetcher.Form>
      ) : (
        <Button variant="danger" onClick={() => toggle(true)}>
          Bloquear cuenta
        </Button>
      )}
    </div>
  );
}

function Unblock({ customer }: { customer: CustomerSecurity }) {
  const fetcher = useFetcher<AdminCustomerResult>({ key: ACTION_KEY });
  const busy = fetcher.state !== 'idle' && fetcher.formData?.get('intent') === 'unblock';
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value="unblock" />
      <input type="hidden" name="id" value={customer.id} />
      <Button type="submit" variant="secondary" disabled={busy}>
        {busy ? 'Desbloqueando…' : 'Desbloquear'}
      </Button>
    </fetcher.Form>
  );
}

/** The chosen customer, or why it could not be read. */
export function SelectedCustomer({ selected }: { selected: Loaded<CustomerSecurity> }) {
  return (
    <LoadedList value={selected} what="la seguridad de este cliente">
      {(customer) => <CustomerPanel key={customer.id} customer={customer} />}
    </LoadedList>
  );
}

import { ROLE_LABELS } from '../../../shared/roles';
import { useEffect, useId, useRef, useState } from 'react';
import { useFetcher } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { TextAreaField } from '../../components/ui/field';
import { Detail } from '../../components/ui/section';
import { useSettled } from './hooks';
import { MethodList } from './sign-in-methods';
import { SessionList } from './session-list';
import type { AdminCustomerResult, CustomerSecurity } from './types';

const ACTION_KEY = 'admin-customer';

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
        <Detail label="Rol">{ROLE_LABELS[customer.role]}</Detail>
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

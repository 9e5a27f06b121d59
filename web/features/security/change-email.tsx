import { useId, useRef, useState, type FormEvent } from 'react';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { JSON_POST, useSettled } from './hooks';
import { FETCHER_KEYS, type SecurityActionResult, type SecurityPayload } from './types';

/** «Cambiar correo»: the new address, confirmed first from the current one, then the new one. */
export function ChangeEmail({ email }: { email: string }) {
  const headingId = useId();
  const form = useRef<HTMLFormElement>(null);
  const [newEmail, setNewEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const fetcher = useSettled<SecurityActionResult>(FETCHER_KEYS.email, (result) => {
    if (result.ok) {
      setSent(result.message ?? null);
      setNewEmail('');
      setError(null);
    } else {
      setError(result.fields?.newEmail ?? result.formError ?? null);
      requestAnimationFrame(() => form.current?.querySelector('input')?.focus());
    }
  });
  const busy = fetcher.state !== 'idle';

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const value = newEmail.trim();
    if (value === '') {
      setError('Escribe tu nuevo correo electrónico.');
      form.current?.querySelector('input')?.focus();
      return;
    }
    setError(null);
    setSent(null);
    const payload: SecurityPayload = { intent: 'email-change', newEmail: value };
    void fetcher.submit(payload, JSON_POST);
  }

  return (
    <section aria-labelledby={headingId} className="flex min-w-0 flex-col gap-3">
      <h3 id={headingId} className="text-base font-semibold text-slate-900">
        Cambiar correo
      </h3>
      <p className="text-sm text-slate-600">
        Tu correo actual es <strong className="break-all text-slate-900">{email}</strong>. Para
        cambiarlo confirmarás el cambio desde tu correo actual y después desde el nuevo.
      </p>
      <div aria-live="polite">{sent ? <Alert tone="success">{sent}</Alert> : null}</div>
      <form ref={form} noValidate onSubmit={submit} className="flex flex-col gap-4">
        <TextField
          label="Nuevo correo electrónico"
          type="email"
          autoComplete="email"
          required
          maxLength={254}
          value={newEmail}
          error={error ?? undefined}
          onChange={(e) => setNewEmail(e.target.value)}
        />
        <div>
          <Button type="submit" variant="secondary" disabled={busy}>
            {busy ? 'Enviando…' : 'Cambiar correo'}
          </Button>
        </div>
      </form>
    </section>
  );
}

import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useRevalidator } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { CopyButton } from '../../components/ui/copy-button';
import { TextField } from '../../components/ui/field';
import { APP_NAME } from '../../lib/app-name';
import { JSON_POST, useSettled } from './hooks';
import {
  FETCHER_KEYS,
  type Overview,
  type SecurityActionResult,
  type SecurityPayload,
} from './types';

/**
 * «Verificación en dos pasos»: on or off; turning it on is the shared enrolment, turning it off
 * and new backup codes ask the password, or a code of the app when the account has no password.
 * Admins cannot turn it off.
 */
export function TwoFactor({
  overview,
  enrolment,
}: {
  overview: Overview;
  /** The enrolment (web/features/two-factor, given by the route): calls `onDone` at its end. */
  enrolment: (onDone: () => void) => ReactNode;
}) {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const revalidator = useRevalidator();
  const [enrolling, setEnrolling] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const on = overview.twoFactorEnabled;

  useSettled<SecurityActionResult>(FETCHER_KEYS.twoFactorDisable, (result) => {
    if (result.ok) setNotice(result.message ?? null);
  });

  // Back from the enrolment or after turning it off: the focus goes to the heading.
  useEffect(() => {
    if (notice) heading.current?.focus();
  }, [notice]);

  function finishEnrolment() {
    setEnrolling(false);
    setNotice('Verificación en dos pasos activada.');
    void revalidator.revalidate();
  }

  return (
    <section aria-labelledby={headingId} className="flex min-w-0 flex-col gap-3">
      <h3
        id={headingId}
        ref={heading}
        tabIndex={-1}
        className="text-base font-semibold text-slate-900 focus:outline-none"
      >
        Verificación en dos pasos
      </h3>
      <p className="text-sm text-slate-700">
        Estado:{' '}
        <strong
          data-testid="two-factor-state"
          className={on ? 'text-emerald-800' : 'text-slate-900'}
        >
          {on ? 'Activada' : 'Desactivada'}
        </strong>
      </p>
      <p className="text-sm text-slate-600">
        {on
          ? 'Al entrar te pedimos también el código de 6 dígitos de tu aplicación de autenticación (o uno de tus códigos de respaldo).'
          : 'Además de tu contraseña, enlace o código, te pediremos el código de 6 dígitos de una aplicación de autenticación en tu teléfono.'}
      </p>
      <div aria-live="polite">{notice ? <Alert tone="success">{notice}</Alert> : null}</div>
      {enrolling ? (
        <div className="rounded-xl border border-slate-200 p-3 sm:p-4">
          {enrolment(finishEnrolment)}
        </div>
      ) : on ? (
        <>
          <NewBackupCodes hasPassword={overview.hasPassword} email={overview.email} />
          {overview.twoFactorRequired ? (
            <Alert tone="info">
              Las cuentas de administración deben tener la verificación en dos pasos activada, por
              eso no puedes desactivarla.
            </Alert>
          ) : (
            <DisableTwoFactor hasPassword={overview.hasPassword} onStart={() => setNotice(null)} />
          )}
        </>
      ) : (
        <div>
          <Button
            onClick={() => {
              setNotice(null);
              setEnrolling(true);
            }}
          >
            Activar la verificación en dos pasos
          </Button>
        </div>
      )}
    </section>
  );
}

/** A password prompt behind a button: opens, asks, sends; Cancel closes it. */
function PasswordStep({
  opener,
  submitLabel,
  busyLabel,
  hasPassword,
  danger,
  busy,
  error,
  question,
  onSubmit,
  onCancel,
  open,
  onOpen,
}: {
  opener: string;
  submitLabel: string;
  busyLabel: string;
  hasPassword: boolean;
  danger?: boolean;
  busy: boolean;
  error: string | null;
  question: string;
  /** The password, or (an account without one) the code of the app. */
  onSubmit: (confirmation: { password: string } | { code: string }) => void;
  onCancel: () => void;
  open: boolean;
  onOpen: () => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const questionId = useId();
  const [toggled, setToggled] = useState(false);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [localError, setLocalError] = useState<string | null>(null);
  const shown = localError ?? error;

  useEffect(() => {
    if (!toggled) return;
    box.current?.querySelector<HTMLElement>(open ? 'input, [role="group"]' : 'button')?.focus();
  }, [open, toggled, shown]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    if (hasPassword && password === '') {
      setLocalError('Escribe tu contraseña.');
      return;
    }
    if (!hasPassword && !/^\d{6}$/.test(code.replace(/\s/g, ''))) {
      setLocalError('Escribe el código de 6 dígitos de tu aplicación.');
      return;
    }
    setLocalError(null);
    onSubmit(hasPassword ? { password } : { code: code.replace(/\s/g, '') });
  }

  return (
    <div ref={box}>
      {open ? (
        <form
          noValidate
          onSubmit={submit}
          role="group"
          aria-labelledby={questionId}
          tabIndex={-1}
          className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-slate-50 p-3 focus:outline-none"
        >
          <p id={questionId} className="text-sm text-slate-800">
            {question}
          </p>
          {hasPassword ? (
            <TextField
              label="Tu contraseña"
              type="password"
              autoComplete="current-password"
              required
              value={password}
              error={shown ?? undefined}
              onChange={(e) => setPassword(e.target.value)}
            />
          ) : (
            <TextField
              label="Código de tu aplicación"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={7}
              required
              value={code}
              error={shown ?? undefined}
              onChange={(e) => setCode(e.target.value)}
            />
          )}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" variant={danger ? 'danger' : 'primary'} disabled={busy}>
              {busy ? busyLabel : submitLabel}
            </Button>
            <Button
              variant="secondary"
              disabled={busy}
              onClick={() => {
                setToggled(true);
                setPassword('');
                setCode('');
                setLocalError(null);
                onCancel();
              }}
            >
              Cancelar
            </Button>
          </div>
        </form>
      ) : (
        <Button
          variant="secondary"
          onClick={() => {
            setToggled(true);
            onOpen();
          }}
        >
          {opener}
        </Button>
      )}
    </div>
  );
}

function DisableTwoFactor({ hasPassword, onStart }: { hasPassword: boolean; onStart: () => void }) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fetcher = useSettled<SecurityActionResult>(FETCHER_KEYS.twoFactorDisable, (result) => {
    if (result.ok) setOpen(false);
    else setError(result.fields?.password ?? result.fields?.code ?? result.formError ?? null);
  });
  return (
    <PasswordStep
      opener="Desactivar"
      question="¿Desactivar la verificación en dos pasos? Tu cuenta quedará protegida solo por tu contraseña, enlace o código."
      submitLabel="Sí, desactivar"
      busyLabel="Desactivando…"
      danger
      hasPassword={hasPassword}
      busy={fetcher.state !== 'idle'}
      error={error}
      open={open}
      onOpen={() => {
        onStart();
        setError(null);
        setOpen(true);
      }}
      onCancel={() => setOpen(false)}
      onSubmit={(confirmation) => {
        setError(null);
        const payload: SecurityPayload = { intent: 'two-factor-disable', ...confirmation };
        void fetcher.submit(payload, JSON_POST);
      }}
    />
  );
}

/** The contents of the backup codes file («Descargar códigos»). */
function backupCodesText(codes: readonly string[], account: string): string {
  return [
    `Códigos de respaldo de ${APP_NAME}`,
    `Cuenta: ${account}`,
    '',
    'Cada código sirve una sola vez para entrar si no tienes tu aplicación de autenticación.',
    'Guárdalos en un lugar seguro.',
    '',
    ...codes,
    '',
  ].join('\n');
}

function NewBackupCodes({ hasPassword, email }: { hasPassword: boolean; email: string }) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const fetcher = useSettled<SecurityActionResult>(FETCHER_KEYS.backupCodes, (result) => {
    if (result.ok && result.backupCodes) {
      setOpen(false);
      setCodes(result.backupCodes);
    } else setError(result.fields?.password ?? result.fields?.code ?? result.formError ?? null);
  });

  useEffect(() => {
    if (codes) listRef.current?.focus();
  }, [codes]);

  function download() {
    if (!codes) return;
    const text = backupCodesText(codes, email);
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `codigos-de-respaldo-${APP_NAME.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.txt`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1_000);
  }

  return (
    <div className="flex flex-col gap-3">
      {codes ? (
        <div className="flex min-w-0 flex-col gap-3 rounded-xl border border-amber-300 bg-amber-50 p-3 sm:p-4">
          <p className="text-sm text-slate-800" role="status">
            Tus nuevos códigos de respaldo. Los anteriores ya no sirven. Cada código te deja entrar
            una sola vez: guárdalos fuera del teléfono, no volveremos a mostrarlos.
          </p>
          <ul
            ref={listRef}
            tabIndex={-1}
            aria-label="Nuevos códigos de respaldo"
            className="grid grid-cols-2 gap-2 font-mono text-sm text-slate-900 focus:outline-none sm:grid-cols-3"
            data-testid="new-backup-codes"
          >
            {codes.map((code) => (
              <li key={code} className="break-all">
                {code}
              </li>
            ))}
          </ul>
          <div className="flex flex-wrap items-start gap-3">
            <Button variant="secondary" onClick={download}>
              Descargar códigos
            </Button>
            <CopyButton
              text={codes.join('\n')}
              what="los nuevos códigos de respaldo"
              done="Códigos copiados"
            />
            <Button variant="ghost" onClick={() => setCodes(null)}>
              Ya los guardé
            </Button>
          </div>
        </div>
      ) : null}
      <PasswordStep
        opener="Generar nuevos códigos de respaldo"
        question="Los códigos de respaldo que tienes ahora dejarán de servir."
        submitLabel="Generar códigos"
        busyLabel="Generando…"
        hasPassword={hasPassword}
        busy={fetcher.state !== 'idle'}
        error={error}
        open={open}
        onOpen={() => {
          setError(null);
          setCodes(null);
          setOpen(true);
        }}
        onCancel={() => setOpen(false)}
        onSubmit={(confirmation) => {
          setError(null);
          const payload: SecurityPayload = { intent: 'backup-codes', ...confirmation };
          void fetcher.submit(payload, JSON_POST);
        }}
      />
    </div>
  );
}

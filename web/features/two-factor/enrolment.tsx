import { useEffect, useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import { QrCode } from './qr-code';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { CopyButton } from '../../components/ui/copy-button';
import { TextField } from '../../components/ui/field';
import { ApiError } from '../../lib/api';
import { APP_NAME } from '../../lib/app-name';
import { formToObject } from '../../lib/form-data';
import { refresh } from '../../lib/session';
import { backupCodesText, cleanCode, groupedKey, secretOf } from './key';
import { twoFactorMessage } from './challenge';
import { confirmTwoFactor, enableTwoFactor, readSecurity, type Enrolment } from './two-factor-api';

type Step =
  | { name: 'loading' }
  | { name: 'failed'; error: string }
  | { name: 'already' }
  | { name: 'start'; email: string; hasPassword: boolean }
  | { name: 'confirm'; email: string; enrolment: Enrolment }
  | { name: 'codes'; email: string; codes: string[] };

const CODE_PATTERN = /^\d{6}$/;

/** Moves the focus to the returned element whenever `key` changes (not on the first render). */
function useFocusOnChange<T extends HTMLElement>(key: string) {
  const ref = useRef<T>(null);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    ref.current?.focus();
  }, [key]);
  return ref;
}

/**
 * Turns on the verification in two steps with an authenticator app: the password (when the
 * account has one), the key to add to the app (QR code or typed by hand), a code from the app to
 * confirm it, then the 10 backup codes to keep. «Continuar» at the end calls `onDone`.
 * Used by /activar-dos-pasos and by Mi perfil → Seguridad.
 */
export function TwoFactorEnrolment({ onDone }: { onDone: () => void }) {
  const [step, setStep] = useState<Step>({ name: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const heading = useFocusOnChange<HTMLHeadingElement>(step.name);

  useEffect(() => {
    let live = true;
    readSecurity()
      .then((security) => {
        if (!live) return;
        setStep(
          security.twoFactorEnabled
            ? { name: 'already' }
            : { name: 'start', email: security.email, hasPassword: security.hasPassword },
        );
      })
      .catch((err: unknown) => {
        if (live) setStep({ name: 'failed', error: twoFactorMessage(err) });
      });
    return () => {
      live = false;
    };
  }, [attempt]);

  const headingClass = 'text-base font-semibold text-slate-900 focus:outline-none';

  switch (step.name) {
    case 'loading':
      return (
        <p className="text-sm text-slate-700" role="status">
          Cargando…
        </p>
      );
    case 'failed':
      return (
        <div className="flex flex-col items-start gap-3">
          <Alert tone="error">No pudimos preparar la verificación en dos pasos. {step.error}</Alert>
          <Button
            variant="secondary"
            onClick={() => {
              setStep({ name: 'loading' });
              setAttempt((n) => n + 1);
            }}
          >
            Reintentar
          </Button>
        </div>
      );
    case 'already':
      return (
        <div className="flex flex-col items-start gap-3">
          <Alert tone="success">La verificación en dos pasos ya está activada en tu cuenta.</Alert>
          <Button onClick={onDone}>Continuar</Button>
        </div>
      );
    case 'start':
      return (
        <StartStep
          headingRef={heading}
          headingClass={headingClass}
          hasPassword={step.hasPassword}
          onStarted={(enrolment) => setStep({ name: 'confirm', email: step.email, enrolment })}
          onAlreadyOn={() => setStep({ name: 'already' })}
        />
      );
    case 'confirm':
      return (
        <ConfirmStep
          headingClass={headingClass}
          enrolment={step.enrolment}
          onConfirmed={() =>
            setStep({ name: 'codes', email: step.email, codes: step.enrolment.backupCodes })
          }
        />
      );
    case 'codes':
      return (
        <BackupCodes
          headingRef={heading}
          headingClass={headingClass}
          email={step.email}
          codes={step.codes}
          onDone={onDone}
        />
      );
  }
}

type HeadingProps = {
  headingRef: RefObject<HTMLHeadingElement | null>;
  headingClass: string;
};

function StartStep({
  headingRef,
  headingClass,
  hasPassword,
  onStarted,
  onAlreadyOn,
}: HeadingProps & {
  hasPassword: boolean;
  onStarted: (enrolment: Enrolment) => void;
  onAlreadyOn: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [passwordError, setPasswordError] = useState<string | undefined>();
  const headingId = useId();

  async function start(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const password = hasPassword
      ? (formToObject(new FormData(event.currentTarget)).password ?? '')
      : undefined;
    if (hasPassword && !password) {
      setPasswordError('Escribe tu contraseña.');
      return;
    }
    setBusy(true);
    setError(null);
    setPasswordError(undefined);
    try {
      onStarted(await enableTwoFactor(password));
    } catch (err) {
      const code = err instanceof ApiError ? err.code : '';
      if (code === 'TOTP_ALREADY_ENABLED') onAlreadyOn();
      else if (hasPassword && code === 'INVALID_PASSWORD') setPasswordError(twoFactorMessage(err));
      else setError(twoFactorMessage(err));
      setBusy(false);
    }
  }

  return (
    <form
      onSubmit={(e) => void start(e)}
      noValidate
      aria-labelledby={headingId}
      className="flex flex-col gap-4"
    >
      <h3 id={headingId} ref={headingRef} tabIndex={-1} className={headingClass}>
        Prepara tu aplicación de autenticación
      </h3>
      <p className="text-sm text-slate-700">
        Necesitas una aplicación de autenticación en tu teléfono, por ejemplo Google Authenticator,
        Microsoft Authenticator o 1Password. Cada vez que entres te pediremos el código de 6 dígitos
        que muestra.
      </p>
      {error ? <Alert tone="error">{error}</Alert> : null}
      {hasPassword ? (
        <TextField
          label="Tu contraseña"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          hint="Para confirmar que eres tú."
          error={passwordError}
        />
      ) : null}
      <div>
        <Button type="submit" disabled={busy}>
          {busy ? 'Preparando…' : 'Empezar'}
        </Button>
      </div>
    </form>
  );
}

function ConfirmStep({
  headingClass,
  enrolment,
  onConfirmed,
}: Omit<HeadingProps, 'headingRef'> & { enrolment: Enrolment; onConfirmed: () => void }) {
  const [busy, setBusy] = useState(false);
  const [codeError, setCodeError] = useState<string | undefined>();
  // The code field takes the focus when the step opens and after a refused code (the form is
  // named by its heading, which a screen reader reads on the way in).
  const codeField = useRef<HTMLInputElement>(null);
  useEffect(() => {
    codeField.current?.focus();
  }, [codeError]);
  const headingId = useId();
  const secret = secretOf(enrolment.totpURI) ?? '';
  const key = groupedKey(secret);

  async function confirm(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const code = cleanCode(formToObject(new FormData(event.currentTarget)).code ?? '');
    if (!CODE_PATTERN.test(code)) {
      setCodeError('Escribe el código de 6 dígitos que muestra tu aplicación.');
      return;
    }
    setBusy(true);
    setCodeError(undefined);
    try {
      await confirmTwoFactor(code);
      // The server replaced the session (now with two-factor on): read it again, so the admin
      // gate lifts and the header stays signed in.
      await refresh();
      onConfirmed();
    } catch (err) {
      setCodeError(
        twoFactorMessage(err) +
          (err instanceof ApiError && err.code === 'INVALID_CODE'
            ? ' Revisa que la hora de tu teléfono sea correcta y escribe el código que se ve ahora.'
            : ''),
      );
      setBusy(false);
    }
  }

  return (
    <form
      onSubmit={(e) => void confirm(e)}
      noValidate
      aria-labelledby={headingId}
      className="flex min-w-0 flex-col gap-4"
    >
      <h3 id={headingId} className={headingClass}>
        Añade tu cuenta a la aplicación
      </h3>
      <ol className="list-decimal space-y-2 pl-5 text-sm text-slate-700">
        <li>
          En tu aplicación, elige añadir una cuenta y escanea el código QR, o escribe a mano la
          clave de abajo (tipo «basada en tiempo»).
        </li>
        <li>Escribe aquí el código de 6 dígitos que te muestre la aplicación.</li>
      </ol>
      <QrCode
        value={enrolment.totpURI}
        label="Código QR para añadir la cuenta a tu aplicación de autenticación"
      />
      <div className="min-w-0 rounded-xl border border-slate-200 bg-slate-50 p-3 sm:p-4">
        <p className="text-sm font-medium text-slate-800" id={`${headingId}-key`}>
          Clave para escribir a mano
        </p>
        <p
          className="mt-1 font-mono text-base font-semibold tracking-wider break-all text-slate-900"
          aria-labelledby={`${headingId}-key`}
          data-testid="two-factor-key"
        >
          {key}
        </p>
        <div className="mt-3 flex flex-wrap items-center gap-3">
          <CopyButton text={secret} what="la clave" done="Clave copiada" />
          <a
            href={enrolment.totpURI}
            className="text-sm font-medium text-brand-700 underline hover:no-underline"
          >
            Abrir en mi aplicación de autenticación
          </a>
        </div>
      </div>
      <TextField
        ref={codeField}
        label="Código de 6 dígitos"
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]*"
        maxLength={7}
        required
        error={codeError}
      />
      <div>
        <Button type="submit" disabled={busy}>
          {busy ? 'Comprobando…' : 'Activar la verificación en dos pasos'}
        </Button>
      </div>
    </form>
  );
}

function BackupCodes({
  headingRef,
  headingClass,
  email,
  codes,
  onDone,
}: HeadingProps & { email: string; codes: string[]; onDone: () => void }) {
  const headingId = useId();
  const text = backupCodesText(codes, email, APP_NAME);

  function download() {
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
    <section aria-labelledby={headingId} className="flex min-w-0 flex-col gap-4">
      <div aria-live="polite">
        <Alert tone="success">La verificación en dos pasos está activada.</Alert>
      </div>
      <h3 id={headingId} ref={headingRef} tabIndex={-1} className={headingClass}>
        Guarda tus códigos de respaldo
      </h3>
      <p className="text-sm text-slate-700">
        Si pierdes el teléfono, cada código te deja entrar una sola vez. Guárdalos fuera del
        teléfono (descárgalos o cópialos en tu gestor de contraseñas): no volveremos a mostrarlos.
      </p>
      <ul
        className="grid grid-cols-2 gap-2 rounded-xl border border-amber-300 bg-amber-50 p-3 font-mono text-sm text-slate-900 sm:grid-cols-3 sm:p-4"
        aria-label="Códigos de respaldo"
        data-testid="backup-codes"
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
          what="los códigos de respaldo"
          done="Códigos copiados"
        />
      </div>
      <div>
        <Button onClick={onDone}>Continuar</Button>
      </div>
    </section>
  );
}

import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { ApiError, api } from '../../lib/api';
import { normalizePhone, phoneProblem } from '../../lib/phone-number';
import { safeNextPath } from '../../lib/safe-next';
import { afterSignIn, signInMessage } from './after-sign-in';

// «Otras formas de entrar» on /login and /register: an e-mailed link, an e-mailed code, an SMS
// code, and a button per federated provider this instance offers. The page loads this module
// after it has rendered (the public pages' JavaScript budget), so nothing here is in the way of
// the password form. No zod here either: the one answer read (the providers) is checked by hand.

type Mode = 'login' | 'register';
type Way = 'link' | 'code' | 'phone';
type Provider = { id: string; name: string };

const LINK_SENT =
  'Si la dirección es correcta, te enviamos un enlace para entrar. Caduca en 10 minutos.';
const CODE_SENT =
  'Si la dirección es correcta, te enviamos un código de 6 dígitos. Caduca en 10 minutos.';
const SMS_SENT =
  'Si ese teléfono está vinculado a una cuenta, te enviamos un SMS con un código de 6 dígitos. Caduca en 10 minutos.';
const EMAIL_MISSING = 'Escribe tu correo electrónico.';
const EMAIL_INVALID = 'Escribe un correo electrónico válido.';
const CODE_INVALID = 'Escribe el código de 6 dígitos que te enviamos.';
/** A secondary action that reads as a link (resend, start again). */
const LINK_BUTTON =
  'min-h-11 text-sm font-medium text-brand-700 underline hover:no-underline disabled:opacity-60';
const GENERIC =
  'No pudimos completar el inicio de sesión. Inténtalo de nuevo o entra de otra forma.';

type Notice = { tone: 'success' | 'warning' | 'error' | 'info'; text: string };

/** Why the person is on /login (`?motivo=`). */
const REASONS: Record<string, Notice> = {
  expirada: {
    tone: 'warning',
    text: 'Tu sesión ha caducado. Inicia sesión de nuevo para continuar.',
  },
  salida: { tone: 'success', text: 'Cerraste sesión correctamente.' },
  restablecida: {
    tone: 'success',
    text: 'Tu contraseña se cambió. Inicia sesión con la nueva contraseña.',
  },
};

/** What the sign-in callbacks (magic link, providers) put in `?error=`, in Spanish. */
const CALLBACK_ERRORS: Record<string, Notice> = {
  account_not_linked: {
    tone: 'warning',
    text: 'Ya existe una cuenta con ese correo. Inicia sesión con tu contraseña o con un enlace y vincula el proveedor desde Mi perfil → Seguridad.',
  },
  INVALID_TOKEN: { tone: 'warning', text: 'El enlace no es válido o ha caducado. Pide uno nuevo.' },
  EXPIRED_TOKEN: { tone: 'warning', text: 'El enlace no es válido o ha caducado. Pide uno nuevo.' },
  TOKEN_EXPIRED: { tone: 'warning', text: 'El enlace no es válido o ha caducado. Pide uno nuevo.' },
  ATTEMPTS_EXCEEDED: {
    tone: 'warning',
    text: 'Ese enlace ya se usó. Pide uno nuevo si lo necesitas.',
  },
  LINK_USED: {
    tone: 'info',
    text: 'Ese enlace de verificación ya se usó. Inicia sesión para continuar.',
  },
  BANNED_USER: {
    tone: 'error',
    text: 'Esta cuenta está bloqueada. Escríbenos desde la página de contacto.',
  },
  banned: {
    tone: 'error',
    text: 'Esta cuenta está bloqueada. Escríbenos desde la página de contacto.',
  },
  access_denied: {
    tone: 'info',
    text: 'No se completó el inicio de sesión con el proveedor. Puedes intentarlo de nuevo o entrar de otra forma.',
  },
};

/**
 * The notice at the top of /login: why the person is here (`?motivo=`), or what went wrong in a
 * sign-in callback that came back with `?error=`.
 */
export function LoginNotice() {
  const [params] = useSearchParams();
  const reason = REASONS[params.get('motivo') ?? ''];
  const code = params.get('error');
  const notice =
    reason ?? (code ? (CALLBACK_ERRORS[code] ?? { tone: 'error', text: GENERIC }) : null);
  return notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null;
}

function readProviders(body: unknown): Provider[] {
  if (typeof body !== 'object' || body === null) return [];
  const providers = (body as { providers?: unknown }).providers;
  if (!Array.isArray(providers)) return [];
  return providers.flatMap((p: unknown) => {
    if (typeof p !== 'object' || p === null) return [];
    const { id, name } = p as { id?: unknown; name?: unknown };
    return typeof id === 'string' && typeof name === 'string' ? [{ id, name }] : [];
  });
}

function emailProblem(email: string): string | null {
  if (email === '') return EMAIL_MISSING;
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) ? null : EMAIL_INVALID;
}

function failure(err: unknown): string {
  return err instanceof ApiError ? signInMessage(err) : GENERIC;
}

/** The value of one field of a submitted form. */
function field(event: FormEvent<HTMLFormElement>, name: string): string {
  const value = new FormData(event.currentTarget).get(name);
  return typeof value === 'string' ? value.trim() : '';
}

/** Focuses the first field inside the returned element when it appears (the person opened it). */
function useFocusFirstField<T extends HTMLElement>(key: unknown) {
  const ref = useRef<T>(null);
  useEffect(() => {
    ref.current?.querySelector('input')?.focus();
  }, [key]);
  return ref;
}

/** The «Otras formas de entrar» block. */
export function OtherWays({ mode }: { mode: Mode }) {
  const [open, setOpen] = useState<Way | null>(null);
  const [providers, setProviders] = useState<Provider[]>([]);
  const headingId = useId();
  const panelId = useId();

  useEffect(() => {
    let live = true;
    api('/api/sign-in-methods')
      .then((body) => {
        if (live) setProviders(readProviders(body));
      })
      .catch((err: unknown) => {
        console.warn('No se pudieron leer las formas de entrar:', err);
      });
    return () => {
      live = false;
    };
  }, []);

  const ways: Array<{ id: Way; label: string }> =
    mode === 'login'
      ? [
          { id: 'link', label: 'Enviarme un enlace' },
          { id: 'code', label: 'Enviarme un código' },
          { id: 'phone', label: 'Entrar con mi teléfono' },
        ]
      : [{ id: 'link', label: 'Enviarme un enlace' }];

  return (
    <section aria-labelledby={headingId} className="mt-8 border-t border-slate-200 pt-6">
      <h2 id={headingId} className="text-base font-semibold text-slate-900">
        {mode === 'login' ? 'Otras formas de entrar' : 'Otras formas de crear tu cuenta'}
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        {mode === 'register'
          ? 'Con un enlace en tu correo tu cuenta queda creada y verificada al abrirlo, sin contraseña.'
          : providers.length > 0
            ? 'Sin contraseña: con un enlace o un código que te enviamos, o con tu cuenta de otro servicio.'
            : 'Sin contraseña: con un enlace o un código que te enviamos.'}
      </p>
      <div className="mt-4 flex flex-col gap-3">
        {ways.map((way) => (
          <div key={way.id} className="flex flex-col gap-3">
            <Button
              variant="secondary"
              aria-expanded={open === way.id}
              aria-controls={open === way.id ? `${panelId}-${way.id}` : undefined}
              onClick={() => setOpen(open === way.id ? null : way.id)}
            >
              {way.label}
            </Button>
            {open === way.id ? (
              <div
                id={`${panelId}-${way.id}`}
                className="rounded-xl border border-slate-200 bg-slate-50 p-3 sm:p-4"
              >
                {way.id === 'link' ? <MagicLinkForm label={way.label} /> : null}
                {way.id === 'code' ? <EmailCodeForm label={way.label} /> : null}
                {way.id === 'phone' ? <PhoneForm label={way.label} /> : null}
              </div>
            ) : null}
          </div>
        ))}
        {providers.map((provider) => (
          <ProviderButton key={provider.id} provider={provider} />
        ))}
      </div>
    </section>
  );
}

/** A panel's form: named after its button, with a live line for what happened. */
function WayForm({
  label,
  step = '',
  status,
  error,
  onSubmit,
  children,
}: {
  label: string;
  /** The form's step: when it changes, the focus goes to its first field. */
  step?: string;
  status: string;
  error: string | null;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
}) {
  const box = useFocusFirstField<HTMLFormElement>(step);
  return (
    <form ref={box} aria-label={label} noValidate onSubmit={onSubmit}>
      {/* Always in the page, so what is added to it is announced; spaced only when it says something. */}
      <div aria-live="polite" className={status ? 'mb-3' : undefined}>
        {status ? <p className="text-sm text-emerald-800">{status}</p> : null}
      </div>
      <div className="flex flex-col gap-3">
        {error ? <Alert tone="error">{error}</Alert> : null}
        {children}
      </div>
    </form>
  );
}

function useNext(): string | null {
  const [params] = useSearchParams();
  return params.get('next');
}

function MagicLinkForm({ label }: { label: string }) {
  const next = useNext();
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [emailError, setEmailError] = useState<string | undefined>();

  async function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = field(event, 'email').toLowerCase();
    const problem = emailProblem(email);
    setEmailError(problem ?? undefined);
    if (problem) return;
    setBusy(true);
    setError(null);
    setSent(false);
    try {
      const target = safeNextPath(next);
      await api('/api/auth/sign-in/magic-link', {
        body: {
          email,
          callbackURL: target,
          newUserCallbackURL: target,
          errorCallbackURL: '/login',
        },
      });
      setSent(true);
    } catch (err) {
      setError(failure(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <WayForm
      label={label}
      status={sent ? LINK_SENT : ''}
      error={error}
      onSubmit={(e) => void send(e)}
    >
      <TextField
        label="Correo electrónico"
        name="email"
        type="email"
        autoComplete="email"
        required
        error={emailError}
      />
      <Button type="submit" disabled={busy}>
        {busy ? 'Enviando…' : sent ? 'Enviar otro enlace' : 'Enviar el enlace'}
      </Button>
    </WayForm>
  );
}

function EmailCodeForm({ label }: { label: string }) {
  const next = useNext();
  const navigate = useNavigate();
  const [email, setEmail] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<string | undefined>();

  async function sendCode(address: string) {
    setBusy(true);
    setError(null);
    try {
      await api('/api/auth/email-otp/send-verification-otp', {
        body: { email: address, type: 'sign-in' },
      });
      setEmail(address);
    } catch (err) {
      setError(failure(err));
    } finally {
      setBusy(false);
    }
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (email === null) {
      const address = field(event, 'email').toLowerCase();
      const problem = emailProblem(address);
      setFieldError(problem ?? undefined);
      if (!problem) await sendCode(address);
      return;
    }
    const otp = field(event, 'otp').replace(/[\s-]/g, '');
    if (!/^\d{6}$/.test(otp)) {
      setFieldError(CODE_INVALID);
      return;
    }
    setFieldError(undefined);
    setBusy(true);
    setError(null);
    try {
      const body = await api('/api/auth/sign-in/email-otp', { body: { email, otp } });
      await navigate(await afterSignIn(body, next));
    } catch (err) {
      if (err instanceof ApiError && err.code === 'INVALID_OTP') setFieldError(failure(err));
      else setError(failure(err));
      setBusy(false);
    }
  }

  return (
    <WayForm
      label={label}
      step={email ?? ''}
      status={email ? CODE_SENT : ''}
      error={error}
      onSubmit={(e) => void submit(e)}
    >
      {email === null ? (
        <>
          <TextField
            label="Correo electrónico"
            name="email"
            type="email"
            autoComplete="email"
            required
            error={fieldError}
          />
          <Button type="submit" disabled={busy}>
            {busy ? 'Enviando…' : 'Enviar el código'}
          </Button>
        </>
      ) : (
        <>
          <p className="text-sm text-slate-700">
            Código enviado a <strong className="break-all">{email}</strong>.
          </p>
          <TextField
            key="otp"
            label="Código de 6 dígitos"
            name="otp"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={7}
            required
            error={fieldError}
          />
          <Button type="submit" disabled={busy}>
            {busy ? 'Entrando…' : 'Entrar con el código'}
          </Button>
          <div className="flex flex-wrap gap-x-4 gap-y-1">
            <button
              type="button"
              className={LINK_BUTTON}
              disabled={busy}
              onClick={() => void sendCode(email)}
            >
              Enviar otro código
            </button>
            <button
              type="button"
              className={LINK_BUTTON}
              onClick={() => {
                setEmail(null);
                setFieldError(undefined);
                setError(null);
              }}
            >
              Usar otro correo
            </button>
          </div>
        </>
      )}
    </WayForm>
  );
}

function PhoneForm({ label }: { label: string }) {
  const next = useNext();
  const navigate = useNavigate();
  const [phone, setPhone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<string | undefined>();

  async function sendCode(number: string) {
    setBusy(true);
    setError(null);
    try {
      await api('/api/auth/phone-number/send-otp', { body: { phoneNumber: number } });
      setPhone(number);
    } catch (err) {
      setError(failure(err));
    } finally {
      setBusy(false);
    }
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (phone === null) {
      const number = normalizePhone(field(event, 'phoneNumber'));
      const problem = phoneProblem(number);
      setFieldError(problem ?? undefined);
      if (!problem) await sendCode(number);
      return;
    }
    const code = field(event, 'code').replace(/[\s-]/g, '');
    if (!/^\d{6}$/.test(code)) {
      setFieldError('Escribe el código de 6 dígitos del SMS.');
      return;
    }
    setFieldError(undefined);
    setBusy(true);
    setError(null);
    try {
      const body = await api('/api/auth/phone-number/verify', {
        body: { phoneNumber: phone, code },
      });
      await navigate(await afterSignIn(body, next));
    } catch (err) {
      if (err instanceof ApiError && err.code === 'INVALID_OTP') setFieldError(failure(err));
      else setError(failure(err));
      setBusy(false);
    }
  }

  return (
    <WayForm
      label={label}
      step={phone ?? ''}
      status={phone ? SMS_SENT : ''}
      error={error}
      onSubmit={(e) => void submit(e)}
    >
      {phone === null ? (
        <>
          <TextField
            label="Teléfono"
            name="phoneNumber"
            type="tel"
            autoComplete="tel"
            required
            hint="Con el prefijo del país, por ejemplo +34 600 111 222. Debe estar vinculado a tu cuenta desde Mi perfil."
            error={fieldError}
          />
          <Button type="submit" disabled={busy}>
            {busy ? 'Enviando…' : 'Enviarme un SMS'}
          </Button>
        </>
      ) : (
        <>
          <p className="text-sm text-slate-700">
            SMS enviado al <strong>{phone}</strong>.
          </p>
          <TextField
            key="code"
            label="Código del SMS"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={7}
            required
            error={fieldError}
          />
          <Button type="submit" disabled={busy}>
            {busy ? 'Entrando…' : 'Entrar'}
          </Button>
          <div className="flex flex-wrap gap-x-4 gap-y-1">
            <button
              type="button"
              className={LINK_BUTTON}
              disabled={busy}
              onClick={() => void sendCode(phone)}
            >
              Enviar otro SMS
            </button>
            <button
              type="button"
              className={LINK_BUTTON}
              onClick={() => {
                setPhone(null);
                setFieldError(undefined);
                setError(null);
              }}
            >
              Usar otro teléfono
            </button>
          </div>
        </>
      )}
    </WayForm>
  );
}

function ProviderButton({ provider }: { provider: Provider }) {
  const next = useNext();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function go() {
    setBusy(true);
    setError(null);
    try {
      const target = safeNextPath(next);
      const body = await api('/api/auth/sign-in/social', {
        body: {
          provider: provider.id,
          callbackURL: target,
          newUserCallbackURL: target,
          errorCallbackURL: '/login',
        },
      });
      const url = (body as { url?: unknown } | null)?.url;
      if (typeof url !== 'string') throw new Error('sign-in/social answered without a url');
      window.location.href = url;
    } catch (err) {
      if (!(err instanceof ApiError)) console.error(err);
      setError(failure(err));
      setBusy(false);
    }
  }

  return (
    <div className="flex flex-col">
      <Button variant="secondary" disabled={busy} onClick={() => void go()}>
        {busy ? 'Redirigiendo…' : `Continuar con ${provider.name}`}
      </Button>
      <div aria-live="polite" className={error ? 'mt-2' : undefined}>
        {error ? <Alert tone="error">{error}</Alert> : null}
      </div>
    </div>
  );
}

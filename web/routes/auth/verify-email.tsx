import { useEffect, useState } from 'react';
import { redirect, useFetcher, useNavigate, useSearchParams } from 'react-router';
import { AppLink } from '../../components/ui/app-link';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { LoadingScreen } from '../../components/ui/spinner';
import { AuthCard } from '../../features/auth/auth-card';
import { apiFailure, type FormResult } from '../../lib/form-data';
import { api } from '../../lib/api';
import { APP_NAME } from '../../lib/app-name';
import {
  forgetPendingVerification,
  pendingVerificationEmail,
} from '../../lib/pending-verification';
import { getSessionState, ready, refresh, useSession } from '../../lib/session';
import type { Route } from './+types/verify-email';

const RESEND_COOLDOWN_S = 60;

export function meta() {
  return [{ title: `Verifica tu correo · ${APP_NAME}` }];
}

/**
 * Only for a signed-in user whose e-mail is not verified (docs/domain.md §1), or for the person
 * who has just registered in this tab: registering signs nobody in (docs/decisions/0010).
 */
export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const session = await ready();
  const error = new URL(request.url).searchParams.get('error');
  if (session.status === 'authenticated') {
    if (!session.user.emailVerified) return null;
    forgetPendingVerification();
    throw redirect('/dashboard');
  }
  if (pendingVerificationEmail()) return null;
  throw redirect(error ? `/login?error=${encodeURIComponent(error)}` : '/login');
}

/** Where the link went: the signed-in account's address, or the one this tab registered. */
function addressToVerify(): string | null {
  const session = getSessionState();
  return session.status === 'authenticated' ? session.user.email : pendingVerificationEmail();
}
clientLoader.hydrate = true as const;

export async function clientAction(): Promise<FormResult> {
  const email = addressToVerify();
  if (!email) return { formError: 'Tu sesión ha terminado. Inicia sesión de nuevo.' };
  try {
    // Without a session Better Auth answers the same whether or not the address has an
    // unverified account, and sends the link only when it has one.
    await api('/api/auth/send-verification-email', {
      body: { email, callbackURL: '/verify-email' },
    });
  } catch (err) {
    return apiFailure(err);
  }
  return { ok: true, message: `Te enviamos un nuevo enlace a ${email}.` };
}

export function HydrateFallback() {
  return <LoadingScreen />;
}

const LINK_ERRORS: Record<string, string> = {
  LINK_USED: 'Ese enlace ya se usó. Si tu correo sigue sin verificar, pide uno nuevo.',
  INVALID_TOKEN: 'El enlace no es válido. Pide uno nuevo.',
  TOKEN_EXPIRED: 'El enlace caducó. Pide uno nuevo.',
};

export default function VerifyEmail() {
  const session = useSession();
  const fetcher = useFetcher<typeof clientAction>();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [cooldown, setCooldown] = useState(0);
  const [checking, setChecking] = useState(false);
  const [stillUnverified, setStillUnverified] = useState(false);
  const linkError = LINK_ERRORS[(params.get('error') ?? '').toUpperCase()];

  useEffect(() => {
    if (cooldown <= 0) return;
    const timer = setTimeout(() => setCooldown((c) => c - 1), 1000);
    return () => clearTimeout(timer);
  }, [cooldown]);

  const signedIn = session.status === 'authenticated';
  const email = signedIn ? session.user.email : pendingVerificationEmail();
  if (!email) return <LoadingScreen />;

  async function checkAgain() {
    setChecking(true);
    const next = await refresh();
    setChecking(false);
    if (next.status === 'authenticated' && next.user.emailVerified) {
      forgetPendingVerification();
      void navigate('/dashboard', { replace: true });
    }
    // Registered in this tab but no session: the link signs in where it is opened; here the
    // person signs in with the password.
    else if (next.status !== 'authenticated') void navigate('/login', { replace: true });
    else setStillUnverified(true);
  }

  const sending = fetcher.state !== 'idle';
  return (
    <AuthCard title="Verifica tu correo electrónico">
      <div className="flex flex-col gap-4">
        {linkError ? <Alert tone="warning">{linkError}</Alert> : null}
        <p className="text-slate-700">
          Te enviamos un enlace a <strong className="break-all">{email}</strong>. Ábrelo para
          activar tu cuenta. El enlace caduca en 1 hora.
        </p>
        <p className="text-sm text-slate-600">
          ¿No lo ves? Revisa la carpeta de correo no deseado o pide otro enlace.
        </p>
        {fetcher.data?.ok ? <Alert tone="success">{fetcher.data.message}</Alert> : null}
        {fetcher.data?.formError ? <Alert tone="error">{fetcher.data.formError}</Alert> : null}
        {stillUnverified ? (
          <Alert tone="info">
            Tu correo todavía no está verificado. Abre el enlace que te enviamos.
          </Alert>
        ) : null}
        <fetcher.Form method="post" onSubmit={() => setCooldown(RESEND_COOLDOWN_S)}>
          <Button type="submit" className="w-full" disabled={sending || cooldown > 0}>
            {sending
              ? 'Enviando…'
              : cooldown > 0
                ? `Reenviar correo (${cooldown} s)`
                : 'Reenviar correo'}
          </Button>
        </fetcher.Form>
        <Button variant="secondary" onClick={() => void checkAgain()} disabled={checking}>
          {checking ? 'Comprobando…' : 'Ya verifiqué mi correo'}
        </Button>
        {signedIn ? (
          <AppLink
            to="/logout"
            className="text-center text-sm font-medium text-brand-700 hover:underline"
          >
            Cerrar sesión
          </AppLink>
        ) : (
          <AppLink
            to="/login"
            onClick={forgetPendingVerification}
            className="text-center text-sm font-medium text-brand-700 hover:underline"
          >
            Iniciar sesión con otra cuenta
          </AppLink>
        )}
      </div>
    </AuthCard>
  );
}

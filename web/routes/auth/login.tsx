import { useEffect, useState } from 'react';
import { Form, useActionData, useNavigate, useNavigation, useSearchParams } from 'react-router';
import { AppLink } from '../../components/ui/app-link';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { AuthCard } from '../../features/auth/auth-card';
import type * as OtherWaysModule from '../../features/auth/other-ways';
import { APP_NAME } from '../../lib/app-name';
import type { FormResult } from '../../lib/form-data';
import { useSession } from '../../lib/session-state';
import { useActionWithQuery } from '../../lib/form-action';
import { pendingVerificationEmail } from '../../lib/pending-verification';
import { safeNextPath } from '../../lib/safe-next';
import { SUBMIT_CODE_FAILED, loadSubmitCode } from '../../lib/submit-code';
import type { Route } from './+types/login';
import { useFocusFirstInvalid } from '../../lib/focus-invalid';

export function meta() {
  return [
    { title: `Iniciar sesión · ${APP_NAME}` },
    {
      name: 'description',
      content: `Entra a tu cuenta de ${APP_NAME} para ver tu saldo, ordenar servicios y seguir tus órdenes.`,
    },
  ];
}

/** The sign-in code (schemas, API client, session store): loaded on focus, or when sent. */
const loadSignIn = () => loadSubmitCode(() => import('../../features/auth/sign-in'));

export async function clientAction({
  request,
}: Route.ClientActionArgs): Promise<FormResult | Response> {
  const code = await loadSignIn();
  return code ? code.signIn(request) : { formError: SUBMIT_CODE_FAILED };
}

/**
 * «Otras formas de entrar» and the notices of `?motivo=` and `?error=`: loaded once the page has
 * rendered (the public pages' JavaScript budget).
 */
type Extras = typeof OtherWaysModule;

export default function Login() {
  const result = useActionData<typeof clientAction>();
  const form = useFocusFirstInvalid(result);
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const session = useSession();
  const navigate = useNavigate();
  const busy = navigation.state !== 'idle';
  const [extras, setExtras] = useState<Extras>();
  const action = useActionWithQuery();

  useEffect(() => {
    import('../../features/auth/other-ways').then(setExtras, console.warn);
  }, []);

  useEffect(() => {
    // Sent here by a signed-in page after registering in this tab, before verifying: the e-mail
    // comes first (docs/decisions/0010; the server cannot see this tab's pending registration).
    if (params.has('next') && pendingVerificationEmail())
      void navigate('/verify-email', { replace: true });
    // Only on arrival: later changes of the query are the person's own.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    // Already signed in (e.g. opened /login in a second tab): go where the person was going.
    if (session.status === 'authenticated' && navigation.state === 'idle') {
      void navigate(
        session.user.emailVerified ? safeNextPath(params.get('next')) : '/verify-email',
        { replace: true },
      );
    }
  }, [session, navigation.state, navigate, params]);

  return (
    <AuthCard
      title="Iniciar sesión"
      subtitle={`Entra a tu cuenta de ${APP_NAME} para ver tu saldo y tus órdenes.`}
      footer={
        <>
          ¿No tienes cuenta?{' '}
          <AppLink to="/register" className="font-semibold text-brand-700 hover:underline">
            Crear una cuenta
          </AppLink>
        </>
      }
    >
      <Form
        ref={form}
        method="post"
        action={action}
        noValidate
        className="flex flex-col gap-4"
        onFocus={() => void loadSignIn()}
      >
        {extras ? <extras.LoginNotice /> : null}
        {result?.formError ? <Alert tone="error">{result.formError}</Alert> : null}
        <TextField
          label="Correo electrónico"
          name="email"
          type="email"
          autoComplete="email"
          required
          error={result?.fields?.email}
        />
        <TextField
          label="Contraseña"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          error={result?.fields?.password}
        />
        <div className="text-right text-sm">
          <AppLink to="/recuperar" className="font-medium text-brand-700 hover:underline">
            ¿Olvidaste tu contraseña?
          </AppLink>
        </div>
        <Button type="submit" disabled={busy}>
          {busy ? 'Entrando…' : 'Iniciar sesión'}
        </Button>
      </Form>
      {/* The block arrives after the first paint: its height is kept for it, so the footer
          does not jump when it appears (layout shift). */}
      <div className="min-h-[297px]">{extras ? <extras.OtherWays mode="login" /> : null}</div>
    </AuthCard>
  );
}

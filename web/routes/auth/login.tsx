import { useEffect } from 'react';
import { Form, useActionData, useNavigate, useNavigation, useSearchParams } from 'react-router';
import { AppLink } from '../../components/ui/app-link';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { AuthCard } from '../../features/auth/auth-card';
import { APP_NAME } from '../../lib/app-name';
import type { FormResult } from '../../lib/form-data';
import { useSession } from '../../lib/session-state';
import { safeNextPath } from '../../lib/session-timing';
import { SUBMIT_CODE_FAILED, loadSubmitCode } from '../../lib/submit-code';
import type { Route } from './+types/login';

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

const NOTICES: Record<string, { tone: 'info' | 'success' | 'warning'; text: string }> = {
  expirada: {
    tone: 'warning',
    text: 'Tu sesión ha caducado. Inicia sesión de nuevo para continuar.',
  },
  salida: { tone: 'success', text: 'Cerraste sesión correctamente.' },
  restablecida: {
    tone: 'success',
    text: 'Tu contraseña se cambió. Inicia sesión con la nueva contraseña.',
  },
  LINK_USED: {
    tone: 'info',
    text: 'Ese enlace de verificación ya se usó. Inicia sesión para continuar.',
  },
  INVALID_TOKEN: {
    tone: 'warning',
    text: 'El enlace de verificación no es válido. Inicia sesión para pedir uno nuevo.',
  },
  TOKEN_EXPIRED: {
    tone: 'warning',
    text: 'El enlace de verificación caducó. Inicia sesión para pedir uno nuevo.',
  },
};

export default function Login() {
  const result = useActionData<typeof clientAction>();
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const session = useSession();
  const navigate = useNavigate();
  const busy = navigation.state !== 'idle';
  const notice = NOTICES[params.get('motivo') ?? params.get('error') ?? ''];

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
        method="post"
        noValidate
        className="flex flex-col gap-4"
        onFocus={() => void loadSignIn()}
      >
        {notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}
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
    </AuthCard>
  );
}

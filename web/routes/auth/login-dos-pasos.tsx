import { useEffect, useRef, useState } from 'react';
import {
  Form,
  redirect,
  useActionData,
  useNavigate,
  useNavigation,
  useSearchParams,
} from 'react-router';
import { Alert } from '../../components/ui/alert';
import { AppLink } from '../../components/ui/app-link';
import { Button } from '../../components/ui/button';
import { CheckboxField, TextField } from '../../components/ui/field';
import { AuthCard } from '../../features/auth/auth-card';
import { cleanCode } from '../../features/two-factor/key';
import { postTwoFactor, twoFactorMessage } from '../../features/two-factor/challenge';
import { ApiError } from '../../lib/api';
import { APP_NAME } from '../../lib/app-name';
import { refresh, useSession, type AuthUser } from '../../lib/session';
import { safeNextPath } from '../../lib/session-timing';
import type { Route } from './+types/login-dos-pasos';

export function meta() {
  return [{ title: `Verificación en dos pasos · ${APP_NAME}` }];
}

type ChallengeResult = {
  fields?: { code?: string };
  formError?: string;
  /** The sign-in this code belonged to is over: only «Volver a iniciar sesión» helps. */
  restart?: boolean;
};

/** Codes after which the challenge cannot go on: the 2FA cookie is gone or used up. */
const RESTART_CODES = new Set(['INVALID_TWO_FACTOR_COOKIE', 'TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE']);

/** Where a person goes once through: `next`, or their usual first page. */
function landing(next: string | null, user: AuthUser | null): string {
  return safeNextPath(next, user?.role === 'admin' ? '/admin/ordenes' : '/dashboard');
}

export async function clientAction({
  request,
}: Route.ClientActionArgs): Promise<ChallengeResult | Response> {
  const form = await request.formData();
  const typed = form.get('code');
  const backup = form.get('kind') === 'backup';
  const code = typeof typed !== 'string' ? '' : backup ? typed.trim() : cleanCode(typed);
  if (!code)
    return {
      fields: {
        code: backup
          ? 'Escribe uno de tus códigos de respaldo.'
          : 'Escribe el código de 6 dígitos de tu aplicación.',
      },
    };
  if (!backup && !/^\d{6}$/.test(code))
    return { fields: { code: 'El código de tu aplicación tiene 6 dígitos.' } };
  try {
    await postTwoFactor(
      backup ? '/api/auth/two-factor/verify-backup-code' : '/api/auth/two-factor/verify-totp',
      { code, trustDevice: form.get('trustDevice') === 'on' },
    );
  } catch (err) {
    const apiCode = err instanceof ApiError ? err.code : '';
    if (apiCode === 'INVALID_CODE' || apiCode === 'INVALID_BACKUP_CODE')
      return { fields: { code: twoFactorMessage(err) } };
    return { formError: twoFactorMessage(err), restart: RESTART_CODES.has(apiCode) };
  }
  const session = await refresh();
  return redirect(
    landing(
      new URL(request.url).searchParams.get('next'),
      session.status === 'authenticated' ? session.user : null,
    ),
  );
}

export default function TwoFactorChallenge() {
  const result = useActionData<typeof clientAction>();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const session = useSession();
  const [params] = useSearchParams();
  const [backup, setBackup] = useState(false);
  const codeBox = useRef<HTMLDivElement>(null);
  const busy = navigation.state !== 'idle';
  const next = params.get('next');
  const loginUrl = next ? `/login?next=${encodeURIComponent(next)}` : '/login';

  useEffect(() => {
    // Already through (a second tab, the back button): go on.
    if (session.status === 'authenticated' && navigation.state === 'idle')
      void navigate(landing(next, session.user), { replace: true });
  }, [session, navigation.state, navigate, next]);

  function toggle() {
    setBackup((b) => !b);
    // The field changes meaning: put the person back in it.
    requestAnimationFrame(() => codeBox.current?.querySelector('input')?.focus());
  }

  return (
    <AuthCard
      title="Verificación en dos pasos"
      subtitle={
        backup
          ? 'Escribe uno de los códigos de respaldo que guardaste al activar la verificación. Cada código sirve una sola vez.'
          : 'Abre tu aplicación de autenticación y escribe el código de 6 dígitos que muestra ahora.'
      }
      footer={
        <AppLink to={loginUrl} className="font-semibold text-brand-700 hover:underline">
          Volver a iniciar sesión
        </AppLink>
      }
    >
      <Form method="post" noValidate className="flex flex-col gap-4">
        {result?.formError ? (
          <Alert tone="error">
            {result.formError}
            {result.restart ? (
              <>
                {' '}
                <AppLink to={loginUrl} className="font-semibold underline">
                  Iniciar sesión de nuevo
                </AppLink>
              </>
            ) : null}
          </Alert>
        ) : null}
        <input type="hidden" name="kind" value={backup ? 'backup' : 'totp'} />
        <div ref={codeBox}>
          <TextField
            key={backup ? 'backup' : 'totp'}
            label={backup ? 'Código de respaldo' : 'Código de tu aplicación'}
            name="code"
            autoComplete="one-time-code"
            inputMode={backup ? 'text' : 'numeric'}
            autoCapitalize="off"
            spellCheck={false}
            maxLength={backup ? 32 : 7}
            required
            error={result?.fields?.code}
          />
        </div>
        <div>
          <Button variant="ghost" className="px-0 text-brand-700 underline" onClick={toggle}>
            {backup ? 'Usar el código de mi aplicación' : 'Usar un código de respaldo'}
          </Button>
        </div>
        <CheckboxField
          label="Confiar en este dispositivo durante 30 días"
          name="trustDevice"
          hint="No te pediremos el código en este navegador durante 30 días. No lo marques en un ordenador compartido."
        />
        <Button type="submit" disabled={busy}>
          {busy ? 'Verificando…' : 'Verificar'}
        </Button>
      </Form>
    </AuthCard>
  );
}

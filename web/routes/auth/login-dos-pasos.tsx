import { isStaffRole } from '../../../shared/roles';
import { staffHome } from '../../lib/staff-access';
import { useEffect, useRef, useState } from 'react';
import { Form, useActionData, useNavigate, useNavigation, useSearchParams } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { AppLink } from '../../components/ui/app-link';
import { Button } from '../../components/ui/button';
import { CheckboxField, TextField } from '../../components/ui/field';
import { AuthCard } from '../../features/auth/auth-card';
import type { ChallengeResult } from '../../features/two-factor/verify-challenge';
import { APP_NAME } from '../../lib/app-name';
import { useSession, type AuthUser } from '../../lib/session-state';
import { safeNextPath } from '../../lib/safe-next';
import { SUBMIT_CODE_FAILED, loadSubmitCode } from '../../lib/submit-code';
import type { Route } from './+types/login-dos-pasos';

export function meta() {
  return [{ title: `Verificación en dos pasos · ${APP_NAME}` }];
}

/** Where a person goes once through: `next`, or their usual first page. */
function landing(next: string | null, user: AuthUser | null): string {
  return safeNextPath(next, isStaffRole(user?.role) ? staffHome(user?.role) : '/dashboard');
}

/** The code that checks the code (API client, session store): loaded on focus, or when sent. */
const loadChallenge = () =>
  loadSubmitCode(() => import('../../features/two-factor/verify-challenge'));

export async function clientAction({
  request,
}: Route.ClientActionArgs): Promise<ChallengeResult | Response> {
  const code = await loadChallenge();
  return code ? code.verifyChallenge(request, landing) : { formError: SUBMIT_CODE_FAILED };
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

  // The code field is where the person starts, and where a refused code sends them back.
  useEffect(() => {
    codeBox.current?.querySelector('input')?.focus();
  }, [result]);

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
      <Form
        method="post"
        noValidate
        className="flex flex-col gap-4"
        onFocus={() => void loadChallenge()}
      >
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
          <button
            type="button"
            className="min-h-11 text-sm font-medium text-brand-700 underline hover:no-underline"
            onClick={toggle}
          >
            {backup ? 'Usar el código de mi aplicación' : 'Usar un código de respaldo'}
          </button>
        </div>
        <CheckboxField
          label="Confiar en este dispositivo durante 30 días"
          name="trustDevice"
          hint="No te pediremos el código en este navegador durante 30 días. No lo marques en una computadora compartida."
        />
        <Button type="submit" disabled={busy}>
          {busy ? 'Verificando…' : 'Verificar'}
        </Button>
      </Form>
    </AuthCard>
  );
}

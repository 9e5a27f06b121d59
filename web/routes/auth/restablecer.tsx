import { Form, redirect, useActionData, useNavigation, useSearchParams } from 'react-router';
import { PASSWORD_MAX, PASSWORD_MIN, ResetPasswordSchema } from '../../../shared/schemas/auth';
import { AppLink } from '../../components/ui/app-link';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { AuthCard } from '../../features/auth/auth-card';
import { apiFailure, parseForm, type FormResult } from '../../lib/form-data';
import { api } from '../../lib/api';
import { APP_NAME } from '../../lib/app-name';
import { endSession } from '../../lib/session';
import type { Route } from './+types/restablecer';

export function meta() {
  return [{ title: `Nueva contraseña · ${APP_NAME}` }];
}

export async function clientAction({
  request,
}: Route.ClientActionArgs): Promise<FormResult | Response> {
  const parsed = parseForm(ResetPasswordSchema, await request.formData());
  if ('error' in parsed) return parsed.error;
  try {
    await api('/api/auth/reset-password', {
      body: { token: parsed.data.token, newPassword: parsed.data.password },
    });
  } catch (err) {
    return apiFailure(err, {
      PASSWORD_TOO_COMMON: 'password',
      PASSWORD_TOO_SHORT: 'password',
      PASSWORD_TOO_LONG: 'password',
    });
  }
  // Every session of the account was revoked on the server.
  endSession(false);
  return redirect('/login?motivo=restablecida');
}

export default function ResetPassword() {
  const result = useActionData<typeof clientAction>();
  const busy = useNavigation().state !== 'idle';
  const [params] = useSearchParams();
  const token = params.get('token');
  const linkError = params.get('error');

  if (!token || linkError) {
    return (
      <AuthCard title="Enlace no válido">
        <Alert tone="warning">
          El enlace para restablecer la contraseña no es válido o ya caducó. Pide uno nuevo.
        </Alert>
        <AppLink
          to="/recuperar"
          className="mt-6 inline-block font-semibold text-brand-700 hover:underline"
        >
          Pedir un enlace nuevo
        </AppLink>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Elige una nueva contraseña"
      subtitle="Al guardarla se cerrarán todas tus sesiones abiertas."
    >
      <Form method="post" noValidate className="flex flex-col gap-4">
        {result?.formError ? (
          <Alert tone="error">
            {result.formError}{' '}
            <AppLink to="/recuperar" className="font-semibold underline">
              Pedir un enlace nuevo
            </AppLink>
          </Alert>
        ) : null}
        <input type="hidden" name="token" value={token} />
        <TextField
          label="Nueva contraseña"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN}
          maxLength={PASSWORD_MAX}
          hint={`Entre ${PASSWORD_MIN} y ${PASSWORD_MAX} caracteres. Evita contraseñas comunes.`}
          error={result?.fields?.password}
        />
        <TextField
          label="Repite la nueva contraseña"
          name="confirmPassword"
          type="password"
          autoComplete="new-password"
          required
          error={result?.fields?.confirmPassword}
        />
        <Button type="submit" disabled={busy}>
          {busy ? 'Guardando…' : 'Guardar contraseña'}
        </Button>
      </Form>
    </AuthCard>
  );
}

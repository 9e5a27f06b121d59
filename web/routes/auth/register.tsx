import { Form, redirect, useActionData, useNavigation } from 'react-router';
import { PASSWORD_MAX, PASSWORD_MIN, RegisterSchema } from '../../../shared/schemas/auth';
import { AppLink } from '../../components/ui/app-link';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { AuthCard } from '../../features/auth/auth-card';
import { apiFailure, parseForm, type FormResult } from '../../lib/form-data';
import { api } from '../../lib/api';
import { APP_NAME } from '../../lib/app-name';
import { rememberPendingVerification } from '../../lib/pending-verification';
import type { Route } from './+types/register';

export function meta() {
  return [{ title: `Crear cuenta · ${APP_NAME}` }];
}

export async function clientAction({
  request,
}: Route.ClientActionArgs): Promise<FormResult | Response> {
  const parsed = parseForm(RegisterSchema, await request.formData());
  if ('error' in parsed) return parsed.error;
  try {
    await api('/api/auth/sign-up/email', {
      body: {
        name: parsed.data.name,
        email: parsed.data.email,
        password: parsed.data.password,
        callbackURL: '/verify-email',
      },
    });
  } catch (err) {
    return apiFailure(err, {
      PASSWORD_TOO_COMMON: 'password',
      PASSWORD_TOO_SHORT: 'password',
      PASSWORD_TOO_LONG: 'password',
      INVALID_EMAIL: 'email',
    });
  }
  // The answer is the same for a new address and one that already has an account, and signs
  // nobody in (docs/decisions/0010): the e-mailed link does. /verify-email says where it went.
  rememberPendingVerification(parsed.data.email);
  return redirect('/verify-email');
}

export default function Register() {
  const result = useActionData<typeof clientAction>();
  const busy = useNavigation().state !== 'idle';
  return (
    <AuthCard
      title="Crear cuenta"
      subtitle="Regístrate, confirma tu correo y empieza a usar tu saldo."
      footer={
        <>
          ¿Ya tienes cuenta?{' '}
          <AppLink to="/login" className="font-semibold text-brand-700 hover:underline">
            Iniciar sesión
          </AppLink>
        </>
      }
    >
      <Form method="post" noValidate className="flex flex-col gap-4">
        {result?.formError ? <Alert tone="error">{result.formError}</Alert> : null}
        <TextField
          label="Nombre"
          name="name"
          autoComplete="name"
          required
          maxLength={80}
          error={result?.fields?.name}
        />
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
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN}
          maxLength={PASSWORD_MAX}
          hint={`Entre ${PASSWORD_MIN} y ${PASSWORD_MAX} caracteres. Evita contraseñas comunes.`}
          error={result?.fields?.password}
        />
        <TextField
          label="Repite la contraseña"
          name="confirmPassword"
          type="password"
          autoComplete="new-password"
          required
          error={result?.fields?.confirmPassword}
        />
        <p className="text-sm text-slate-600">
          Al crear la cuenta aceptas los{' '}
          <AppLink
            to="/terminosycondiciones"
            className="font-medium text-brand-700 hover:underline"
          >
            Términos y condiciones
          </AppLink>
          .
        </p>
        <Button type="submit" disabled={busy}>
          {busy ? 'Creando la cuenta…' : 'Crear cuenta'}
        </Button>
      </Form>
    </AuthCard>
  );
}

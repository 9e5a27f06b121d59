import { Form, useActionData, useNavigation } from 'react-router';
import { ForgotPasswordSchema } from '../../../shared/schemas/auth';
import { AppLink } from '../../components/ui/app-link';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { AuthCard } from '../../features/auth/auth-card';
import { apiFailure, parseForm, type FormResult } from '../../lib/form-data';
import { api } from '../../lib/api';
import { APP_NAME } from '../../lib/app-name';
import type { Route } from './+types/recuperar';

export function meta() {
  return [{ title: `Recuperar contraseña · ${APP_NAME}` }];
}

export async function clientAction({ request }: Route.ClientActionArgs): Promise<FormResult> {
  const parsed = parseForm(ForgotPasswordSchema, await request.formData());
  if ('error' in parsed) return parsed.error;
  try {
    await api('/api/auth/request-password-reset', {
      body: { email: parsed.data.email, redirectTo: '/restablecer' },
    });
  } catch (err) {
    return apiFailure(err);
  }
  // The same answer whether or not the account exists.
  return {
    ok: true,
    message: `Si existe una cuenta con ${parsed.data.email}, te enviamos un enlace para elegir una nueva contraseña. Caduca en 30 minutos.`,
  };
}

export default function ForgotPassword() {
  const result = useActionData<typeof clientAction>();
  const busy = useNavigation().state !== 'idle';
  return (
    <AuthCard
      title="Recuperar contraseña"
      subtitle="Escribe el correo de tu cuenta y te enviaremos un enlace para restablecerla."
      footer={
        <AppLink to="/login" className="font-semibold text-brand-700 hover:underline">
          Volver a iniciar sesión
        </AppLink>
      }
    >
      {result?.ok ? (
        <Alert tone="success">{result.message}</Alert>
      ) : (
        <Form method="post" noValidate className="flex flex-col gap-4">
          {result?.formError ? <Alert tone="error">{result.formError}</Alert> : null}
          <TextField
            label="Correo electrónico"
            name="email"
            type="email"
            autoComplete="email"
            required
            error={result?.fields?.email}
          />
          <Button type="submit" disabled={busy}>
            {busy ? 'Enviando…' : 'Enviar enlace'}
          </Button>
        </Form>
      )}
    </AuthCard>
  );
}

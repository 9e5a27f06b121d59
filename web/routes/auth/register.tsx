import { useEffect, useState } from 'react';
import { Form, useActionData, useNavigation } from 'react-router';
import { NAME_MAX, PASSWORD_MAX, PASSWORD_MIN } from '../../../shared/auth-limits';
import { AppLink } from '../../components/ui/app-link';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { AuthCard } from '../../features/auth/auth-card';
import type * as OtherWaysModule from '../../features/auth/other-ways';
import { APP_NAME } from '../../lib/app-name';
import type { FormResult } from '../../lib/form-data';
import { SUBMIT_CODE_FAILED, loadSubmitCode } from '../../lib/submit-code';
import type { Route } from './+types/register';
import { useFocusFirstInvalid } from '../../lib/focus-invalid';

export function meta() {
  return [
    { title: `Crear cuenta · ${APP_NAME}` },
    {
      name: 'description',
      content: `Crea tu cuenta gratuita de ${APP_NAME}, confirma tu correo y paga servicios digitales y para celulares con tu saldo prepago.`,
    },
  ];
}

/** The sign-up code (schemas, API client): loaded on focus, or when sent. */
const loadRegister = () => loadSubmitCode(() => import('../../features/auth/register'));

export async function clientAction({
  request,
}: Route.ClientActionArgs): Promise<FormResult | Response> {
  const code = await loadRegister();
  return code ? code.register(request) : { formError: SUBMIT_CODE_FAILED };
}

/** «Otras formas de crear tu cuenta»: loaded once the page has rendered. */
type Extras = typeof OtherWaysModule;

export default function Register() {
  const result = useActionData<typeof clientAction>();
  const form = useFocusFirstInvalid(result);
  const busy = useNavigation().state !== 'idle';
  const [extras, setExtras] = useState<Extras>();

  useEffect(() => {
    import('../../features/auth/other-ways').then(setExtras, console.warn);
  }, []);
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
      <Form
        ref={form}
        method="post"
        noValidate
        className="flex flex-col gap-4"
        onFocus={() => void loadRegister()}
      >
        {result?.formError ? <Alert tone="error">{result.formError}</Alert> : null}
        <TextField
          label="Nombre"
          name="name"
          autoComplete="name"
          required
          maxLength={NAME_MAX}
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
      {/* The block arrives after the first paint: its height is kept for it, so the footer
          does not jump when it appears (layout shift). */}
      <div className="min-h-[185px]">{extras ? <extras.OtherWays mode="register" /> : null}</div>
    </AuthCard>
  );
}

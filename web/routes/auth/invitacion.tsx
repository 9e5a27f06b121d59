import {
  Form,
  useActionData,
  useLoaderData,
  useNavigation,
  type ShouldRevalidateFunctionArgs,
} from 'react-router';
import { PASSWORD_MAX, PASSWORD_MIN } from '../../../shared/schemas/auth';
import {
  AcceptedStaffInvitationSchema,
  AcceptStaffInvitationSchema,
  StaffInvitationInfoSchema,
} from '../../../shared/schemas/staff';
import { AppLink } from '../../components/ui/app-link';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { AuthCard } from '../../features/auth/auth-card';
import { api } from '../../lib/api';
import { APP_NAME } from '../../lib/app-name';
import { apiFailure, parseForm, type FormResult } from '../../lib/form-data';
import { settle } from '../../lib/loaded';
import { pageLoader } from '../../lib/page-loader.server';
import type { Route } from './+types/invitacion';

export function meta() {
  return [{ title: `Invitación al equipo · ${APP_NAME}` }];
}

async function invitation(request: Request) {
  const token = new URL(request.url).searchParams.get('token') ?? '';
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return { token, info: null };
  const info = await settle(
    api.get(`/api/staff-invitation?token=${encodeURIComponent(token)}`, StaffInvitationInfoSchema),
  );
  return { token, info: info.ok ? info.data : null };
}

/** Rendered on the server with the invitation (docs/decisions/0016). */
export async function loader({ request }: Route.LoaderArgs) {
  return pageLoader(request, () => invitation(request));
}

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  return invitation(request);
}

/** Accepting uses the link up: reading it again would only answer 404. */
export function shouldRevalidate({
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  return formMethod ? false : defaultShouldRevalidate;
}

export async function clientAction({
  request,
}: Route.ClientActionArgs): Promise<FormResult & { done?: boolean }> {
  const form = await request.formData();
  const parsed = parseForm(AcceptStaffInvitationSchema, form);
  if ('error' in parsed) return parsed.error;
  try {
    await api.post('/api/staff-invitation/accept', AcceptedStaffInvitationSchema, parsed.data);
  } catch (err) {
    return apiFailure(err);
  }
  return { ok: true, done: true };
}

/** The link of a staff invitation: accept it (and, for a new address, create the account). */
export default function StaffInvitationPage() {
  const { token, info } = useLoaderData<typeof loader>();
  const result = useActionData<typeof clientAction>();
  const busy = useNavigation().state !== 'idle';

  if (result?.done)
    return (
      <AuthCard title="Ya formas parte del equipo">
        <Alert tone="success">
          Invitación aceptada. Inicia sesión con tu correo; antes de usar el panel tendrás que
          activar la verificación en dos pasos.
        </Alert>
        <AppLink
          to="/login"
          className="mt-6 inline-block font-semibold text-brand-700 hover:underline"
        >
          Iniciar sesión
        </AppLink>
      </AuthCard>
    );

  if (!info)
    return (
      <AuthCard title="Invitación no válida">
        <Alert tone="warning">
          El enlace de la invitación no es válido, ya se usó o caducó. Pide a un administrador que
          te envíe otra.
        </Alert>
      </AuthCard>
    );

  return (
    <AuthCard
      title={`Únete al equipo de ${APP_NAME}`}
      subtitle={`Te invitan con el rol «${info.roleLabel}», con el correo ${info.email}.`}
    >
      <Form method="post" noValidate className="flex flex-col gap-4">
        {result?.formError ? <Alert tone="error">{result.formError}</Alert> : null}
        <input type="hidden" name="token" value={token} />
        {info.hasAccount ? (
          <p className="text-slate-700">
            Ya tienes una cuenta con este correo: al aceptar recibirá el rol. Después inicia sesión
            como siempre.
          </p>
        ) : (
          <>
            <TextField
              label="Tu nombre"
              name="name"
              autoComplete="name"
              required
              error={result?.fields?.name}
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
          </>
        )}
        <Button type="submit" disabled={busy}>
          {busy ? 'Aceptando…' : 'Aceptar la invitación'}
        </Button>
      </Form>
    </AuthCard>
  );
}

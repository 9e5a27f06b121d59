import { lazy, Suspense } from 'react';
import {
  Form,
  useActionData,
  useLoaderData,
  useLocation,
  useNavigate,
  useNavigation,
  type ShouldRevalidateFunctionArgs,
} from 'react-router';
import {
  PASSWORD_MAX,
  PASSWORD_MIN,
  PasswordSchema,
  UpdateProfileSchema,
} from '../../../shared/schemas/auth';
import { z } from 'zod';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card, PageTitle } from '../../components/ui/card';
import { TextField } from '../../components/ui/field';
import { Section } from '../../components/ui/section';
import { Tabs, type TabItem } from '../../components/ui/tabs';
import {
  isResellerRequest,
  loadApiKeys,
  loadServices,
  loadWebhookEndpoints,
  runResellerAction,
} from '../../features/reseller/actions';
import { ApiKeys } from '../../features/reseller/api-keys';
import { ConnectGuide } from '../../features/reseller/connect-guide';
import type { ResellerActionResult } from '../../features/reseller/types';
import { Webhooks } from '../../features/reseller/webhooks';
import { TelegramSection } from '../../features/telegram/telegram-section';
import { NotificationSettingsSchema } from '../../../shared/schemas/notifications';
import { settle } from '../../lib/loaded';
import {
  isSecurityPayload,
  loadSecurity,
  runSecurityAction,
} from '../../features/security/actions';
import { SecuritySection } from '../../features/security/security-section';
import type { SecurityActionResult } from '../../features/security/types';
import { apiFailure, parseForm, type FormResult } from '../../lib/form-data';
import { api } from '../../lib/api';
import { useFocusFirstInvalid } from '../../lib/focus-invalid';
import { useHydrated } from '../../lib/hydrated';
import { pageOrigin, signedInPage } from '../../lib/page-loader.server';
import { APP_NAME } from '../../lib/app-name';
import { ready, reloadMe, useSession } from '../../lib/session';
import type { Route } from './+types/profile';

// Loaded when the person starts the enrolment: the route entry every page downloads stays small.
const TwoFactorEnrolment = lazy(() =>
  import('../../features/two-factor/enrolment').then((m) => ({ default: m.TwoFactorEnrolment })),
);

export function meta() {
  return [{ title: `Mi perfil · ${APP_NAME}` }];
}

const ChangePasswordSchema = z
  .object({
    currentPassword: z.string().min(1, 'Escribe tu contraseña actual.'),
    newPassword: PasswordSchema,
    confirmPassword: z.string(),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    path: ['confirmPassword'],
    message: 'Las contraseñas no coinciden.',
  });

type ProfileResult = FormResult & { intent?: 'name' | 'password' };

/**
 * The account's security and sessions, the API keys, the webhook endpoints and the services (for
 * their numbers), each loaded on its own; nothing before the session is known (the layout sends
 * everyone else away).
 */
export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const session = await ready();
  if (session.status !== 'authenticated' || !session.user.emailVerified) return null;
  const url = new URL(request.url);
  return profilePage(url, url.origin);
}

/** The same data on the server, so the page arrives whole (docs/decisions/0016). */
export async function loader({ request }: Route.LoaderArgs) {
  return signedInPage(request, () => profilePage(new URL(request.url), pageOrigin(request)));
}

/** `origin`: where the app is reached, for the API addresses the page shows. */
async function profilePage(url: URL, origin: string) {
  const [security, keys, endpoints, services, notifications] = await Promise.all([
    loadSecurity(url),
    loadApiKeys(),
    loadWebhookEndpoints(),
    loadServices(),
    settle(api.get('/api/me/notifications', NotificationSettingsSchema)),
  ]);
  return { origin, security, keys, endpoints, services, notifications };
}

type ProfileTab = 'datos' | 'seguridad' | 'api' | 'notificaciones';

const TABS: readonly TabItem<ProfileTab>[] = [
  { key: 'datos', label: 'Datos' },
  { key: 'seguridad', label: 'Seguridad' },
  { key: 'api', label: 'API' },
  { key: 'notificaciones', label: 'Notificaciones' },
];

/** The sections' old anchors (links in e-mails and redirects: /profile#seguridad). */
const HASH_TABS: Record<string, ProfileTab> = {
  '#seguridad': 'seguridad',
  '#api': 'api',
  '#avisos': 'notificaciones',
};

/** The tab in the URL (`?tab=`), or the one an old anchor names; Datos otherwise. */
function profileTab(search: string, hash: string): ProfileTab {
  const asked = new URLSearchParams(search).get('tab');
  return TABS.find((t) => t.key === asked)?.key ?? HASH_TABS[hash] ?? 'datos';
}

/** Switching tabs changes only `?tab=`: nothing to read again. */
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  // (A revalidation asked for on the same URL, after an action of a section, still reads.)
  if (
    !formMethod &&
    currentUrl.pathname === nextUrl.pathname &&
    currentUrl.search !== nextUrl.search
  ) {
    const withoutTab = (url: URL) => {
      const params = new URLSearchParams(url.search);
      params.delete('tab');
      return params.toString();
    };
    if (withoutTab(currentUrl) === withoutTab(nextUrl)) return false;
  }
  return defaultShouldRevalidate;
}

/**
 * The name and password forms (form data); the Seguridad, key and webhook forms (JSON, by
 * `intent`).
 */
export async function clientAction({
  request,
}: Route.ClientActionArgs): Promise<
  ProfileResult | ResellerActionResult | SecurityActionResult | Response
> {
  if (isResellerRequest(request)) {
    const payload: unknown = await request
      .clone()
      .json()
      .catch(() => null);
    if (isSecurityPayload(payload)) return runSecurityAction(payload);
    return runResellerAction(request);
  }
  const formData = await request.formData();
  if (formData.get('intent') === 'password') {
    const parsed = parseForm(ChangePasswordSchema, formData);
    if ('error' in parsed) return { ...parsed.error, intent: 'password' };
    try {
      await api('/api/auth/change-password', {
        body: {
          currentPassword: parsed.data.currentPassword,
          newPassword: parsed.data.newPassword,
          revokeOtherSessions: true,
        },
      });
    } catch (err) {
      return {
        ...apiFailure(err, {
          INVALID_PASSWORD: 'currentPassword',
          PASSWORD_TOO_COMMON: 'newPassword',
          PASSWORD_TOO_SHORT: 'newPassword',
        }),
        intent: 'password',
      };
    }
    return {
      ok: true,
      intent: 'password',
      message: 'Contraseña cambiada. Cerramos tus sesiones en otros dispositivos.',
    };
  }
  const parsed = parseForm(UpdateProfileSchema, formData);
  if ('error' in parsed) return { ...parsed.error, intent: 'name' };
  try {
    await api('/api/me', { method: 'PATCH', body: parsed.data });
  } catch (err) {
    return { ...apiFailure(err), intent: 'name' };
  }
  await reloadMe();
  return { ok: true, intent: 'name', message: 'Nombre actualizado.' };
}

export default function Profile() {
  const session = useSession();
  const data = useLoaderData<typeof clientLoader>();
  const result = useActionData<typeof clientAction>();
  const navigation = useNavigation();
  const pendingIntent = navigation.state !== 'idle' ? navigation.formData?.get('intent') : null;
  const location = useLocation();
  const navigate = useNavigate();
  const nameForm = useFocusFirstInvalid(result?.intent === 'name' ? result : undefined);
  const passwordForm = useFocusFirstInvalid(result?.intent === 'password' ? result : undefined);
  // The server never sees an old link's #anchor: it is read once the page has hydrated, so the
  // browser's first render is the server's.
  const hydrated = useHydrated();
  const tab = profileTab(location.search, hydrated ? location.hash : '');
  if (session.status !== 'authenticated') return null;

  function selectTab(next: ProfileTab) {
    const params = new URLSearchParams(location.search);
    params.set('tab', next);
    void navigate(`?${params.toString()}`, { replace: true, preventScrollReset: true });
  }
  const nameResult = result?.intent === 'name' ? result : undefined;
  const passwordResult = result?.intent === 'password' ? result : undefined;
  return (
    <>
      <PageTitle
        title="Mi perfil"
        subtitle="Tus datos de acceso y cómo te mostramos en el panel."
      />
      <Tabs label="Secciones de Mi perfil" tabs={TABS} selected={tab} onSelect={selectTab}>
        {tab === 'datos' ? (
          <div className="max-w-2xl">
            <Card>
              <h2 className="text-lg font-semibold text-slate-900">Datos personales</h2>
              <Form ref={nameForm} method="post" noValidate className="mt-4 flex flex-col gap-4">
                <input type="hidden" name="intent" value="name" />
                {nameResult?.ok ? <Alert tone="success">{nameResult.message}</Alert> : null}
                {nameResult?.formError ? <Alert tone="error">{nameResult.formError}</Alert> : null}
                <TextField
                  label="Nombre"
                  name="name"
                  autoComplete="name"
                  required
                  maxLength={80}
                  defaultValue={session.me?.name ?? session.user.name}
                  error={nameResult?.fields?.name}
                />
                <TextField
                  label="Correo electrónico"
                  name="email-readonly"
                  value={session.user.email}
                  readOnly
                  hint="Para cambiarlo, ve a Seguridad → Cambiar correo."
                />
                {session.me?.priceGroup ? (
                  <TextField
                    label="Grupo de precios"
                    name="price-group-readonly"
                    value={session.me.priceGroup.name}
                    readOnly
                    hint="Los precios que ves en el catálogo son los de tu grupo."
                  />
                ) : null}
                <Button type="submit" disabled={pendingIntent === 'name'}>
                  {pendingIntent === 'name' ? 'Guardando…' : 'Guardar cambios'}
                </Button>
              </Form>
            </Card>
          </div>
        ) : null}
        {tab === 'seguridad' ? (
          <div className="flex flex-col gap-6">
            <div className="max-w-2xl">
              <Card>
                <h2 className="text-lg font-semibold text-slate-900">Cambiar contraseña</h2>
                <Form
                  ref={passwordForm}
                  method="post"
                  noValidate
                  className="mt-4 flex flex-col gap-4"
                  key={passwordResult?.ok ? 'done' : 'form'}
                >
                  <input type="hidden" name="intent" value="password" />
                  {passwordResult?.ok ? (
                    <Alert tone="success">{passwordResult.message}</Alert>
                  ) : null}
                  {passwordResult?.formError ? (
                    <Alert tone="error">{passwordResult.formError}</Alert>
                  ) : null}
                  <TextField
                    label="Contraseña actual"
                    name="currentPassword"
                    type="password"
                    autoComplete="current-password"
                    required
                    error={passwordResult?.fields?.currentPassword}
                  />
                  <TextField
                    label="Nueva contraseña"
                    name="newPassword"
                    type="password"
                    autoComplete="new-password"
                    required
                    minLength={PASSWORD_MIN}
                    maxLength={PASSWORD_MAX}
                    error={passwordResult?.fields?.newPassword}
                  />
                  <TextField
                    label="Repite la nueva contraseña"
                    name="confirmPassword"
                    type="password"
                    autoComplete="new-password"
                    required
                    error={passwordResult?.fields?.confirmPassword}
                  />
                  <Button type="submit" variant="secondary" disabled={pendingIntent === 'password'}>
                    {pendingIntent === 'password' ? 'Guardando…' : 'Cambiar contraseña'}
                  </Button>
                </Form>
              </Card>
            </div>
            {data ? (
              <>
                <SecuritySection
                  data={data.security}
                  enrolment={(onDone) => (
                    <Suspense
                      fallback={
                        <p role="status" className="text-sm text-slate-700">
                          Cargando…
                        </p>
                      }
                    >
                      <TwoFactorEnrolment onDone={onDone} />
                    </Suspense>
                  )}
                />
              </>
            ) : null}
          </div>
        ) : null}
        {tab === 'api' && data ? (
          <Section
            id="api"
            title="API"
            description="Con una clave API, tu panel DHRU Fusion, tu panel SMM o tus propios programas hacen pedidos con tu saldo, como si fueras tú."
          >
            <div className="flex flex-col gap-6">
              <ApiKeys keys={data.keys} />
              <ConnectGuide
                origin={data.origin}
                email={session.user.email}
                services={data.services}
              />
            </div>
          </Section>
        ) : null}
        {tab === 'notificaciones' && data ? (
          <div className="flex flex-col gap-6">
            <TelegramSection initial={data.notifications} />
            <Section
              id="avisos"
              title="Avisos (webhooks)"
              description="Te avisamos al momento, con un POST firmado a la dirección que elijas, cada vez que una de tus órdenes cambia de estado."
            >
              <Webhooks endpoints={data.endpoints} />
            </Section>
          </div>
        ) : null}
      </Tabs>
    </>
  );
}

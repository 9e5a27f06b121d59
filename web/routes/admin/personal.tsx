import { useFetcher, useLoaderData } from 'react-router';
import { ROLE_LABELS, STAFF_ROLES } from '../../../shared/roles';
import type { StaffInvitation, StaffMember } from '../../../shared/schemas/staff';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { PageTitle } from '../../components/ui/card';
import { SelectField, TextField } from '../../components/ui/field';
import { LoadedList, Section } from '../../components/ui/section';
import {
  runStaffAction,
  staffPage,
  type StaffActionResult,
} from '../../features/admin-staff/staff-api';
import { APP_NAME } from '../../lib/app-name';
import { useDates } from '../../lib/dates';
import { adminPage } from '../../lib/page-loader.server';
import { useSession } from '../../lib/session-state';
import { staffClientGuard } from '../../lib/staff-guard';
import type { Route } from './+types/personal';

export function meta() {
  return [{ title: `Personal · ${APP_NAME}` }];
}

/** Rendered on the server with its data (docs/decisions/0016); navigations load it in the browser. */
export async function loader({ request }: Route.LoaderArgs) {
  return adminPage(request, staffPage, 'staff');
}

export async function clientLoader() {
  await staffClientGuard('staff');
  return staffPage();
}

export async function clientAction({
  request,
}: Route.ClientActionArgs): Promise<StaffActionResult> {
  return runStaffAction(await request.formData());
}

const ROLE_OPTIONS = STAFF_ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }));

const ROLE_HINT =
  'Administrador: todo. Soporte: la cola de órdenes y los clientes, sin saldos, pagos, costes ni precios. Finanzas: pagos, ajustes de saldo, límites de crédito e informes.';

/** The team: who works in the back office, with which role; invitations; changing roles. */
export default function AdminPersonal() {
  const { staff } = useLoaderData<typeof loader>();
  return (
    <>
      <PageTitle
        title="Personal"
        subtitle="Quién trabaja en el panel y con qué rol. Cada persona del equipo debe activar la verificación en dos pasos."
      />
      <div className="flex flex-col gap-6">
        <Section id="invitar" title="Invitar a alguien" description={ROLE_HINT}>
          <InviteForm />
        </Section>
        <LoadedList value={staff} what="el equipo">
          {(list) => (
            <>
              <Section id="equipo" title="El equipo">
                <StaffTable items={list.items} />
              </Section>
              <Section id="invitaciones" title="Invitaciones pendientes">
                <Invitations items={list.invitations} />
              </Section>
            </>
          )}
        </LoadedList>
      </div>
    </>
  );
}

function InviteForm() {
  const fetcher = useFetcher<StaffActionResult>();
  const busy = fetcher.state !== 'idle';
  const result = fetcher.state === 'idle' ? fetcher.data : undefined;
  return (
    <fetcher.Form method="post" noValidate className="flex flex-col gap-3 sm:flex-row sm:items-end">
      <input type="hidden" name="intent" value="invite" />
      <div className="sm:flex-1">
        <TextField
          label="Correo"
          name="email"
          type="email"
          autoComplete="off"
          required
          error={result?.fields?.email}
        />
      </div>
      <div className="sm:w-48">
        <SelectField
          label="Rol"
          name="role"
          options={ROLE_OPTIONS}
          defaultValue="support"
          error={result?.fields?.role}
        />
      </div>
      <Button type="submit" disabled={busy}>
        {busy ? 'Enviando…' : 'Enviar invitación'}
      </Button>
      <div aria-live="polite" className="sm:basis-full">
        {result?.ok ? <Alert tone="success">{result.message}</Alert> : null}
        {result?.formError ? <Alert tone="error">{result.formError}</Alert> : null}
      </div>
    </fetcher.Form>
  );
}

function StaffTable({ items }: { items: StaffMember[] }) {
  const { dateTime } = useDates();
  if (items.length === 0) return <p className="text-slate-600">Nadie todavía.</p>;
  return (
    <ul className="divide-y divide-slate-200" aria-label="Miembros del equipo">
      {items.map((m) => (
        <li
          key={m.id}
          className="flex flex-col gap-2 py-3 lg:flex-row lg:items-center"
          data-testid="staff-row"
        >
          <div className="min-w-0 lg:flex-1">
            <p className="font-medium break-words text-slate-900">{m.name || m.email}</p>
            <p className="text-sm break-all text-slate-600">{m.email}</p>
            <p className="text-xs text-slate-600">
              {m.twoFactorEnabled
                ? 'Dos pasos activados'
                : 'Sin dos pasos (no puede usar el panel)'}
              {' · '}
              {m.lastSignInAt ? `Último acceso: ${dateTime(m.lastSignInAt)}` : 'Nunca entró'}
            </p>
          </div>
          <MemberActions member={m} />
        </li>
      ))}
    </ul>
  );
}

function MemberActions({ member }: { member: StaffMember }) {
  const session = useSession();
  const fetcher = useFetcher<StaffActionResult>();
  const busy = fetcher.state !== 'idle';
  const result = fetcher.state === 'idle' ? fetcher.data : undefined;
  const me = session.status === 'authenticated' && session.user.id === member.id;
  const who = member.name || member.email;
  return (
    <div className="flex flex-col gap-2 lg:items-end">
      <fetcher.Form method="post" className="flex flex-wrap items-end gap-2">
        <input type="hidden" name="id" value={member.id} />
        <div className="w-44">
          <SelectField
            label={`Rol de ${who}`}
            name="role"
            options={ROLE_OPTIONS}
            defaultValue={member.role}
            dense
          />
        </div>
        <Button type="submit" name="intent" value="role" variant="secondary" disabled={busy}>
          Cambiar rol<span className="sr-only"> de {who}</span>
        </Button>
        <Button
          type="submit"
          name="intent"
          value="remove"
          variant="ghost"
          disabled={busy}
          onClick={(e) => {
            const text = me
              ? '¿Salir del equipo? Tu cuenta pasará a ser de cliente y se cerrarán tus sesiones.'
              : `¿Quitar a ${who} del equipo? Su cuenta pasará a ser de cliente y se cerrarán sus sesiones.`;
            if (!window.confirm(text)) e.preventDefault();
          }}
        >
          Quitar del equipo<span className="sr-only"> a {who}</span>
        </Button>
      </fetcher.Form>
      <div aria-live="polite">
        {result?.ok ? <Alert tone="success">{result.message}</Alert> : null}
        {result?.formError ? <Alert tone="error">{result.formError}</Alert> : null}
      </div>
    </div>
  );
}

function Invitations({ items }: { items: StaffInvitation[] }) {
  const { dateTime } = useDates();
  if (items.length === 0) return <p className="text-slate-600">No hay invitaciones pendientes.</p>;
  return (
    <ul className="divide-y divide-slate-200" aria-label="Invitaciones pendientes">
      {items.map((i) => (
        <li key={i.id} className="py-2 text-sm" data-testid="invitation-row">
          <span className="font-medium break-all text-slate-900">{i.email}</span>
          {' · '}
          {ROLE_LABELS[i.role]}
          {' · '}
          <span className="text-slate-600">caduca el {dateTime(i.expiresAt)}</span>
        </li>
      ))}
    </ul>
  );
}

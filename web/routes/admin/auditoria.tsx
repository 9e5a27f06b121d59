import { useState } from 'react';
import { Form, useLoaderData } from 'react-router';
import { ROLE_LABELS, isStaffRole } from '../../../shared/roles';
import { AUDIT_TARGET_LABELS, type AuditItem, type AuditPage } from '../../../shared/schemas/staff';
import { Alert } from '../../components/ui/alert';
import { AppLink } from '../../components/ui/app-link';
import { Button } from '../../components/ui/button';
import { PageTitle } from '../../components/ui/card';
import { SelectField, TextField } from '../../components/ui/field';
import { LoadedList, Section } from '../../components/ui/section';
import {
  auditPage,
  auditQuery,
  fetchAudit,
  type AuditFilters,
} from '../../features/admin-staff/staff-api';
import { ApiError } from '../../lib/api';
import { APP_NAME } from '../../lib/app-name';
import { useDates } from '../../lib/dates';
import { adminPage } from '../../lib/page-loader.server';
import { staffClientGuard } from '../../lib/staff-guard';
import type { Route } from './+types/auditoria';

export function meta() {
  return [{ title: `Auditoría · ${APP_NAME}` }];
}

/** Rendered on the server with its data (docs/decisions/0016); navigations load it in the browser. */
export async function loader({ request }: Route.LoaderArgs) {
  return adminPage(request, () => auditPage(request), 'staff');
}

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  await staffClientGuard('staff');
  return auditPage(request);
}

const TARGET_OPTIONS = Object.entries(AUDIT_TARGET_LABELS).map(([value, label]) => ({
  value,
  label,
}));

/** The audit log: every staff action, filtered, newest first; nobody can change it. */
export default function AdminAuditoria() {
  const { filters, page, staff } = useLoaderData<typeof loader>();
  const people = staff.ok
    ? staff.data.items.map((m) => ({ value: m.id, label: `${m.name || m.email} (${m.email})` }))
    : [];
  return (
    <>
      <PageTitle
        title="Auditoría"
        subtitle="Cada acción del equipo: quién, con qué rol, qué cambió y cuándo. El registro no se puede modificar ni borrar."
      />
      <div className="flex flex-col gap-6">
        <Section id="filtros-auditoria" title="Filtrar">
          <Form method="get" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            <SelectField
              label="Persona"
              name="actor"
              options={people}
              placeholder="Todas"
              defaultValue={filters.actor}
              dense
            />
            <TextField
              label="Acción"
              name="action"
              defaultValue={filters.action}
              hint="Exacta (order.complete) o su comienzo (order.)."
              dense
            />
            <SelectField
              label="Sobre"
              name="targetType"
              options={TARGET_OPTIONS}
              placeholder="Cualquier cosa"
              defaultValue={filters.targetType}
              dense
            />
            <TextField
              label="Identificador"
              name="targetId"
              defaultValue={filters.targetId}
              dense
            />
            <TextField label="Desde" name="from" type="date" defaultValue={filters.from} dense />
            <TextField label="Hasta" name="to" type="date" defaultValue={filters.to} dense />
            <div className="flex gap-2 sm:col-span-2 lg:col-span-3">
              <Button type="submit">Filtrar</Button>
              <AppLink
                to="/admin/auditoria"
                className="inline-flex min-h-11 items-center px-2 text-sm font-semibold text-brand-800 underline-offset-2 hover:underline"
              >
                Quitar filtros
              </AppLink>
            </div>
          </Form>
        </Section>
        <Section id="registro" title="Registro">
          <LoadedList value={page} what="el registro">
            {(first) => <AuditTable key={auditQuery(filters)} filters={filters} first={first} />}
          </LoadedList>
        </Section>
      </div>
    </>
  );
}

function AuditTable({ filters, first }: { filters: AuditFilters; first: AuditPage }) {
  const { dateTime } = useDates();
  const [extra, setExtra] = useState<AuditItem[]>([]);
  const [cursor, setCursor] = useState(first.nextCursor);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const items = [...first.items, ...extra];

  async function more() {
    if (!cursor) return;
    setLoading(true);
    setError(null);
    try {
      const next = await fetchAudit(filters, cursor);
      setExtra((e) => [...e, ...next.items]);
      setCursor(next.nextCursor);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'No pudimos cargar más filas.');
    } finally {
      setLoading(false);
    }
  }

  if (items.length === 0)
    return (
      <p className="text-slate-600" role="status">
        No hay nada con estos filtros.
      </p>
    );
  return (
    <div>
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm" data-testid="audit-table">
          <caption className="sr-only">El registro de auditoría, lo más reciente primero</caption>
          <thead className="border-b border-slate-200 text-slate-700">
            <tr>
              <th scope="col" className="px-2 py-2">
                Cuándo
              </th>
              <th scope="col" className="px-2 py-2">
                Quién
              </th>
              <th scope="col" className="px-2 py-2">
                Acción
              </th>
              <th scope="col" className="px-2 py-2">
                Sobre
              </th>
              <th scope="col" className="px-2 py-2">
                Cambio
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {items.map((r) => (
              <tr key={r.id} data-testid="audit-row" className="align-top">
                <td className="px-2 py-2 whitespace-nowrap tabular-nums">
                  {dateTime(r.createdAt)}
                  {r.ipAddress ? (
                    <span className="block text-xs text-slate-600">{r.ipAddress}</span>
                  ) : null}
                </td>
                <td className="px-2 py-2">
                  {r.actor ? (
                    <>
                      <span className="block break-words">{r.actor.name || r.actor.email}</span>
                      <span className="block text-xs text-slate-600">
                        {isStaffRole(r.actor.role)
                          ? ROLE_LABELS[r.actor.role]
                          : (r.actor.role ?? '')}
                      </span>
                    </>
                  ) : (
                    <span className="text-slate-600">Sistema</span>
                  )}
                </td>
                <td className="px-2 py-2 font-mono text-xs">{r.action}</td>
                <td className="px-2 py-2">
                  <span className="block">{AUDIT_TARGET_LABELS[r.targetType] ?? r.targetType}</span>
                  {r.targetPath ? (
                    <AppLink
                      to={r.targetPath}
                      className="text-xs break-all text-brand-800 underline-offset-2 hover:underline"
                    >
                      {r.targetId}
                    </AppLink>
                  ) : (
                    <span className="text-xs break-all text-slate-600">{r.targetId}</span>
                  )}
                </td>
                <td className="px-2 py-2">
                  <Diff before={r.before} after={r.after} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {error ? <Alert tone="error">{error}</Alert> : null}
      {cursor ? (
        <Button variant="secondary" className="mt-3" disabled={loading} onClick={() => void more()}>
          {loading ? 'Cargando…' : 'Cargar más'}
        </Button>
      ) : null}
    </div>
  );
}

function show(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

function asRecord(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** Before → after, one line per property that changed (or was set). */
function Diff({ before, after }: { before: unknown; after: unknown }) {
  const b = asRecord(before);
  const a = asRecord(after);
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])].filter(
    (k) => JSON.stringify(b[k]) !== JSON.stringify(a[k]),
  );
  if (keys.length === 0) return <span className="text-slate-600">—</span>;
  return (
    <dl className="flex flex-col gap-0.5 text-xs">
      {keys.map((k) => (
        <div key={k} className="break-words">
          <dt className="inline font-semibold">{k}: </dt>
          <dd className="inline">
            {k in b ? (
              <>
                <span className="text-red-800 line-through">{show(b[k])}</span>
                <span aria-hidden="true"> → </span>
                <span className="sr-only"> cambia a </span>
              </>
            ) : null}
            <span className="text-emerald-800">{k in a ? show(a[k]) : '—'}</span>
          </dd>
        </div>
      ))}
    </dl>
  );
}

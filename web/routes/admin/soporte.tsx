// /admin/soporte «Soporte»: the desk's tickets in a dense table — filters, selection with
// «Cerrar seleccionados», first-response and resolution times, «Cargar más» (admin and support).
import { useId, useState } from 'react';
import { Form, Link, useFetcher, useLoaderData, useNavigation } from 'react-router';
import {
  TICKET_CATEGORIES,
  TICKET_CATEGORY_LABELS,
  TICKET_STATE_LABELS,
  TICKET_STATES,
  type StaffTicketList,
} from '../../../shared/schemas/tickets';
import { Alert } from '../../components/ui/alert';
import { Button, buttonClass } from '../../components/ui/button';
import { Card, PageTitle } from '../../components/ui/card';
import { SelectField, TextField } from '../../components/ui/field';
import { LoadedList } from '../../components/ui/section';
import { runBulkClose, type StaffTicketResult } from '../../features/tickets/staff-actions';
import {
  durationText,
  hasStaffFilters,
  staffFiltersFrom,
  type StaffTicketFilters,
} from '../../features/tickets/staff-filters';
import { TicketStateBadge, UnreadMark } from '../../features/tickets/ticket-badges';
import { listStaffTickets } from '../../features/tickets/tickets-api';
import { APP_NAME } from '../../lib/app-name';
import { useDates } from '../../lib/dates';
import { settle } from '../../lib/loaded';
import { LoadMore, useMorePages } from '../../lib/more-pages';
import { adminPage } from '../../lib/page-loader.server';
import { staffClientGuard } from '../../lib/staff-guard';
import type { Route } from './+types/soporte';

export function meta() {
  return [{ title: `Soporte · ${APP_NAME}` }];
}

async function load(request: Request) {
  const filters = staffFiltersFrom(new URL(request.url).searchParams);
  return { filters, tickets: await settle(listStaffTickets(filters)) };
}

/** Rendered on the server with its data (docs/decisions/0016); admin and support only. */
export async function loader({ request }: Route.LoaderArgs) {
  return adminPage(request, () => load(request), 'tickets');
}

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  await staffClientGuard('tickets');
  return load(request);
}

export async function clientAction({ request }: Route.ClientActionArgs) {
  return runBulkClose(await request.formData());
}

export default function AdminSoporte() {
  const { filters, tickets } = useLoaderData<typeof loader>();
  const key = new URLSearchParams(Object.entries(filters)).toString();
  return (
    <>
      <PageTitle
        dense
        title="Soporte"
        subtitle="Los tickets de los clientes: filtra, asigna y responde; los tiempos son de primera respuesta y de resolución."
      />
      <div className="flex min-w-0 flex-col gap-4 [&>*]:min-w-0">
        <Filters key={key} filters={filters} />
        <LoadedList value={tickets} what="los tickets">
          {(first) => <TicketTable key={key} first={first} filters={filters} />}
        </LoadedList>
      </div>
    </>
  );
}

const STATE_OPTIONS = TICKET_STATES.map((s) => ({ value: s, label: TICKET_STATE_LABELS[s] }));
const CATEGORY_OPTIONS = TICKET_CATEGORIES.map((c) => ({
  value: c,
  label: TICKET_CATEGORY_LABELS[c],
}));
const ASSIGNEE_OPTIONS = [
  { value: 'me', label: 'Yo' },
  { value: 'none', label: 'Sin asignar' },
];

/** How many filters behind «Más filtros» are set (the text box is always in view). */
function moreCount(f: StaffTicketFilters): number {
  return [f.state, f.category, f.assignee, f.customer, f.order].filter(Boolean).length;
}

/**
 * The text box first; on a phone the other filters fold behind «Más filtros» (open when one of
 * them is set), so the tickets start on the first screen. On a desktop they are one row.
 */
function Filters({ filters }: { filters: StaffTicketFilters }) {
  const navigation = useNavigation();
  const busy = navigation.state === 'loading' && navigation.location.pathname === '/admin/soporte';
  const set = moreCount(filters);
  const [open, setOpen] = useState(set > 0);
  const panelId = useId();
  return (
    <Card className="p-3 sm:p-4">
      <Form
        method="get"
        role="search"
        aria-label="Filtrar tickets"
        className="grid grid-cols-1 gap-3 lg:grid-cols-[repeat(6,minmax(0,1fr))_auto] lg:items-end"
      >
        <TextField
          dense
          label="Texto"
          name="q"
          type="search"
          defaultValue={filters.q}
          placeholder="Asunto o mensaje"
          autoComplete="off"
        />
        <div
          id={panelId}
          className={`${open ? 'grid' : 'hidden'} grid-cols-1 gap-3 sm:grid-cols-2 lg:contents`}
        >
          <SelectField
            dense
            label="Estado"
            name="state"
            defaultValue={filters.state}
            placeholder="Todos"
            options={STATE_OPTIONS}
          />
          <SelectField
            dense
            label="Categoría"
            name="category"
            defaultValue={filters.category}
            placeholder="Todas"
            options={CATEGORY_OPTIONS}
          />
          <SelectField
            dense
            label="Asignado"
            name="assignee"
            defaultValue={
              filters.assignee === 'me' || filters.assignee === 'none' ? filters.assignee : ''
            }
            placeholder="Todos"
            options={ASSIGNEE_OPTIONS}
          />
          <TextField
            dense
            label="Cliente"
            name="customer"
            defaultValue={filters.customer}
            placeholder="Correo o nombre"
            autoComplete="off"
          />
          <TextField
            dense
            label="Orden"
            name="order"
            defaultValue={filters.order}
            placeholder="N.º de orden"
            inputMode="numeric"
            autoComplete="off"
          />
        </div>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={busy} className="lg:min-h-9">
            {busy ? 'Buscando…' : 'Filtrar'}
          </Button>
          <Button
            variant="secondary"
            className="lg:hidden"
            aria-expanded={open}
            aria-controls={panelId}
            onClick={() => setOpen((o) => !o)}
          >
            {set > 0 ? `Más filtros (${set})` : 'Más filtros'}
          </Button>
          {hasStaffFilters(filters) ? (
            <Link to="/admin/soporte" className={buttonClass('ghost', 'lg:min-h-9')}>
              Limpiar
            </Link>
          ) : null}
        </div>
      </Form>
    </Card>
  );
}

function TicketTable({ first, filters }: { first: StaffTicketList; filters: StaffTicketFilters }) {
  const dates = useDates();
  const pages = useMorePages(first, (cursor) => listStaffTickets(filters, cursor));
  const fetcher = useFetcher<StaffTicketResult>();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const open = pages.items.filter((t) => t.state !== 'closed');
  const chosen = open.filter((t) => selected.has(t.id));
  const busy = fetcher.state !== 'idle';
  const toggle = (id: string, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  if (pages.items.length === 0)
    return (
      <Card>
        <p className="text-slate-700">
          {hasStaffFilters(filters)
            ? 'Ningún ticket coincide con los filtros.'
            : 'No hay tickets todavía.'}
        </p>
      </Card>
    );
  const cell = 'px-2 py-2 align-top';
  return (
    <section aria-labelledby="tickets-lista">
      <h2 id="tickets-lista" className="sr-only">
        Tickets
      </h2>
      <fetcher.Form
        method="post"
        aria-label="Acciones en bloque"
        className="mb-2 flex flex-wrap items-center gap-3"
        onSubmit={() => setSelected(new Set())}
      >
        {chosen.map((t) => (
          <input key={t.id} type="hidden" name="ids" value={t.id} />
        ))}
        <Button
          type="submit"
          variant="secondary"
          disabled={busy || chosen.length === 0}
          className="lg:min-h-9"
        >
          {busy ? 'Cerrando…' : `Cerrar seleccionados (${chosen.length})`}
        </Button>
        {fetcher.data?.message ? (
          <p role="status" className="text-sm font-medium text-emerald-800">
            {fetcher.data.message}
          </p>
        ) : null}
        {fetcher.data?.formError ? <Alert tone="error">{fetcher.data.formError}</Alert> : null}
      </fetcher.Form>
      <Card className="p-0">
        <table className="w-full table-fixed text-sm" data-testid="tickets-table">
          <caption className="sr-only">Tickets de soporte</caption>
          <thead>
            <tr className="border-b border-slate-200 text-left text-slate-600">
              <th scope="col" className="w-10 px-2 py-2">
                <span className="sr-only">Seleccionar</span>
              </th>
              <th scope="col" className="hidden w-16 px-2 py-2 font-medium sm:table-cell">
                N.º
              </th>
              <th scope="col" className="px-2 py-2 font-medium">
                Asunto
              </th>
              <th scope="col" className="hidden w-40 px-2 py-2 font-medium md:table-cell">
                Cliente
              </th>
              <th scope="col" className="hidden w-20 px-2 py-2 font-medium lg:table-cell">
                Categoría
              </th>
              <th scope="col" className="w-28 px-2 py-2 font-medium sm:w-36">
                Estado
              </th>
              <th scope="col" className="hidden w-28 px-2 py-2 font-medium lg:table-cell">
                Asignado
              </th>
              <th scope="col" className="hidden w-24 px-2 py-2 font-medium lg:table-cell">
                1.ª respuesta
              </th>
              <th scope="col" className="hidden w-24 px-2 py-2 font-medium lg:table-cell">
                Resolución
              </th>
            </tr>
          </thead>
          <tbody>
            {pages.items.map((t) => (
              <tr key={t.id} className="border-b border-slate-100" data-testid="ticket-row">
                <td className={cell}>
                  {t.state === 'closed' ? null : (
                    <input
                      type="checkbox"
                      className="accent-brand-600 size-5"
                      aria-label={`Seleccionar el ticket #${t.number}`}
                      checked={selected.has(t.id)}
                      onChange={(e) => toggle(t.id, e.currentTarget.checked)}
                    />
                  )}
                </td>
                <td className={`${cell} hidden tabular-nums sm:table-cell`}>#{t.number}</td>
                <td className={`${cell} min-w-0`}>
                  <Link
                    to={`/admin/soporte/${t.id}`}
                    className={`text-brand-800 line-clamp-2 break-words underline ${t.unread > 0 ? 'font-bold' : 'font-medium'}`}
                    title={t.subject}
                  >
                    {t.subject}
                  </Link>
                  <span className="mt-0.5 block truncate text-xs text-slate-600">
                    <span className="sm:hidden">#{t.number} · </span>
                    <span className="md:hidden">{t.customer.email} · </span>
                    <span className="sr-only">Última actividad: </span>
                    {dates.dateTime(t.lastMessageAt)}
                  </span>
                  {t.unread > 0 ? (
                    <span className="mt-1 block">
                      <UnreadMark count={t.unread} />
                    </span>
                  ) : null}
                </td>
                <td className={`${cell} hidden md:table-cell`}>
                  <span className="block truncate" title={t.customer.name || t.customer.email}>
                    {t.customer.name || t.customer.email}
                  </span>
                  <span className="block truncate text-xs text-slate-600" title={t.customer.email}>
                    {t.customer.email}
                  </span>
                </td>
                <td className={`${cell} hidden lg:table-cell`}>
                  {TICKET_CATEGORY_LABELS[t.category]}
                </td>
                <td className={cell}>
                  <TicketStateBadge state={t.state} wrap />
                </td>
                <td className={`${cell} hidden truncate lg:table-cell`}>
                  {t.assignee ? (
                    t.assignee.name
                  ) : (
                    <span className="text-slate-600">Sin asignar</span>
                  )}
                </td>
                <td className={`${cell} hidden tabular-nums lg:table-cell`}>
                  {durationText(t.firstResponseSeconds)}
                </td>
                <td className={`${cell} hidden tabular-nums lg:table-cell`}>
                  {durationText(t.resolutionSeconds)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
      <LoadMore pages={pages} />
    </section>
  );
}

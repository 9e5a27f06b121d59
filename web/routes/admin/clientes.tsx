import { useState } from 'react';
import { useDates } from '../../lib/dates';
import { Form, Link, useLoaderData } from 'react-router';
import { formatUsd } from '../../../shared/money';
import type { CustomerList, CustomerSort, CustomerSummary } from '../../../shared/schemas/admin';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { PageTitle } from '../../components/ui/card';
import { SelectField, TextField } from '../../components/ui/field';
import { LoadedList, Section } from '../../components/ui/section';
import {
  customerListPage,
  customerQuery,
  fetchCustomers,
  type CustomerFilters,
} from '../../features/admin-customers/data';
import { ApiError } from '../../lib/api';
import { APP_NAME } from '../../lib/app-name';
import { adminPage } from '../../lib/page-loader.server';
import { staffClientGuard } from '../../lib/staff-guard';
import type { Route } from './+types/clientes';

export function meta() {
  return [{ title: `Clientes · ${APP_NAME}` }];
}

/** Rendered on the server with its data (docs/decisions/0016); navigations load it in the browser. */
export async function loader({ request }: Route.LoaderArgs) {
  return adminPage(request, (session) => customerListPage(request, session.user.role), 'customers');
}

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const user = await staffClientGuard('customers');
  return customerListPage(request, user.role);
}

const BLOCKED_OPTIONS = [
  { value: 'false', label: 'No bloqueados' },
  { value: 'true', label: 'Solo bloqueados' },
];

export default function AdminClientes() {
  const { filters, list, money } = useLoaderData<typeof loader>();
  return (
    <>
      <PageTitle
        title="Clientes"
        subtitle={
          money
            ? 'Todas las cuentas con su saldo, su última orden y lo que gastaron. Abre una para ver sus órdenes, movimientos, pagos, seguridad y notas.'
            : 'Todas las cuentas con su última orden. Abre una para ver sus órdenes, su seguridad y sus notas.'
        }
      />
      <Section id="lista-clientes" title="Lista de clientes">
        <div className="flex flex-col gap-4">
          <Form
            method="get"
            role="search"
            aria-label="Buscar cliente"
            className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_12rem_auto] sm:items-end"
          >
            <input type="hidden" name="sort" value={filters.sort} />
            <input type="hidden" name="dir" value={filters.dir} />
            <TextField
              label="Nombre o correo del cliente"
              name="q"
              type="search"
              autoComplete="off"
              maxLength={100}
              defaultValue={filters.q}
              placeholder="ana@ejemplo.com"
            />
            <SelectField
              label="Bloqueo"
              name="blocked"
              placeholder="Todos"
              options={BLOCKED_OPTIONS}
              defaultValue={filters.blocked}
            />
            <Button type="submit">Buscar</Button>
          </Form>
          <LoadedList value={list} what="los clientes">
            {(first) => (
              <CustomerTable
                key={customerQuery(filters)}
                filters={filters}
                first={first}
                money={money}
              />
            )}
          </LoadedList>
        </div>
      </Section>
    </>
  );
}

const COLUMNS: { sort: CustomerSort | null; label: string; className: string }[] = [
  { sort: 'balance', label: 'Saldo', className: 'text-right' },
  { sort: 'lastOrder', label: 'Última orden', className: 'hidden md:table-cell' },
  { sort: 'spend', label: 'Gastado', className: 'hidden text-right sm:table-cell' },
  { sort: 'created', label: 'Alta', className: 'hidden lg:table-cell' },
  { sort: null, label: 'Bloqueado', className: 'hidden sm:table-cell' },
];

function CustomerTable({
  filters,
  first,
  money,
}: {
  filters: CustomerFilters;
  first: CustomerList;
  /** The role sees balances and spend (support does not: those columns are left out). */
  money: boolean;
}) {
  const columns = money
    ? COLUMNS
    : COLUMNS.filter((c) => c.sort !== 'balance' && c.sort !== 'spend');
  const { dateTime: formatDateTime } = useDates();
  const [extra, setExtra] = useState<CustomerSummary[]>([]);
  const [cursor, setCursor] = useState(first.nextCursor);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const seen = new Set(first.items.map((c) => c.id));
  const items = [...first.items, ...extra.filter((c) => !seen.has(c.id))];

  async function more() {
    if (!cursor) return;
    setLoading(true);
    setError(null);
    try {
      const page = await fetchCustomers(filters, cursor);
      setExtra((e) => [...e, ...page.items]);
      setCursor(page.nextCursor);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'No pudimos cargar más clientes.');
    } finally {
      setLoading(false);
    }
  }

  function sortLink(sort: CustomerSort): string {
    const dir = filters.sort === sort && filters.dir === 'desc' ? 'asc' : 'desc';
    return `?${customerQuery({ ...filters, sort, dir })}`;
  }

  if (items.length === 0)
    return (
      <p className="text-slate-600" role="status">
        {filters.q ? `No encontramos clientes con «${filters.q}».` : 'Todavía no hay clientes.'}
      </p>
    );
  return (
    <div>
      <table className="w-full table-fixed text-left text-sm" data-testid="customer-table">
        <caption className="sr-only">Clientes; los encabezados con botón ordenan la lista.</caption>
        <thead className="border-b border-slate-200 text-slate-700">
          <tr>
            <th scope="col" className="w-1/2 py-2 pr-2 sm:w-auto">
              Cliente
            </th>
            {columns.map((col) => {
              const active = col.sort !== null && filters.sort === col.sort;
              return (
                <th
                  key={col.label}
                  scope="col"
                  className={`px-2 py-2 ${col.className}`}
                  aria-sort={
                    active ? (filters.dir === 'desc' ? 'descending' : 'ascending') : undefined
                  }
                >
                  {col.sort ? (
                    <Link
                      to={sortLink(col.sort)}
                      preventScrollReset
                      className="inline-flex min-h-11 items-center gap-1 font-semibold text-brand-800 underline-offset-2 hover:underline"
                    >
                      {col.label}
                      <span aria-hidden="true">
                        {active ? (filters.dir === 'desc' ? '↓' : '↑') : '↕'}
                      </span>
                    </Link>
                  ) : (
                    col.label
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {items.map((c) => (
            <tr key={c.id} data-testid="customer-row">
              <td className="py-2 pr-2 align-top">
                <Link
                  to={`/admin/clientes/${encodeURIComponent(c.id)}`}
                  className="font-medium break-words text-brand-800 underline-offset-2 hover:underline"
                >
                  {c.name || c.email}
                </Link>
                <span className="block text-xs break-all text-slate-600">{c.email}</span>
                {c.blocked ? (
                  <span className="text-xs font-semibold text-red-800 sm:hidden">Bloqueado</span>
                ) : null}
              </td>
              {c.balance !== null ? (
                <td className="px-2 py-2 text-right align-top tabular-nums">
                  {formatUsd(c.balance)}
                </td>
              ) : null}
              <td className="hidden px-2 py-2 align-top md:table-cell">
                {c.lastOrderAt ? formatDateTime(c.lastOrderAt) : 'Nunca'}
              </td>
              {c.spend !== null ? (
                <td className="hidden px-2 py-2 text-right align-top tabular-nums sm:table-cell">
                  {formatUsd(c.spend)}
                </td>
              ) : null}
              <td className="hidden px-2 py-2 align-top lg:table-cell">
                {formatDateTime(c.createdAt)}
              </td>
              <td className="hidden px-2 py-2 align-top sm:table-cell">
                {c.blocked ? <strong className="text-red-800">Sí</strong> : 'No'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {error ? <Alert tone="error">{error}</Alert> : null}
      {cursor ? (
        <Button variant="secondary" className="mt-4" onClick={() => void more()} disabled={loading}>
          {loading ? 'Cargando…' : 'Cargar más'}
        </Button>
      ) : null}
    </div>
  );
}

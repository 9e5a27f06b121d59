// The admin's customers: the sortable list (/admin/clientes) and one customer's page
// (/admin/clientes/:id), one API call per tab. Used by the server loaders and the clientLoaders.
import {
  CUSTOMER_SORTS,
  CustomerDetailSchema,
  CustomerListSchema,
  CustomerNoteListSchema,
  CustomerNoteSchema,
  CreateCustomerNoteSchema,
  StaffOrdersPageSchema,
  type CustomerSort,
} from '../../../shared/schemas/admin';
import { staffCan } from '../../../shared/roles';
import { AdminUserSecuritySchema } from '../../../shared/schemas/security';
import { MovementsPageSchema, PaymentListSchema } from '../../../shared/schemas/wallet';
import { api, ApiError } from '../../lib/api';
import { settle } from '../../lib/loaded';

export type CustomerFilters = {
  q: string;
  sort: CustomerSort;
  dir: 'asc' | 'desc';
  /** '' all, 'true' only blocked, 'false' only the others. */
  blocked: '' | 'true' | 'false';
};

/** The list's filters from the address, anything unknown left at its default. */
export function customerFilters(url: URL): CustomerFilters {
  const p = url.searchParams;
  const sort = p.get('sort') ?? '';
  const blocked = p.get('blocked') ?? '';
  return {
    q: (p.get('q') ?? '').trim().slice(0, 100),
    sort: (CUSTOMER_SORTS as readonly string[]).includes(sort) ? (sort as CustomerSort) : 'created',
    dir: p.get('dir') === 'asc' ? 'asc' : 'desc',
    blocked: blocked === 'true' || blocked === 'false' ? blocked : '',
  };
}

/** The query string of the list for these filters (and a cursor for the next page). */
export function customerQuery(f: CustomerFilters, cursor?: string): string {
  const params = new URLSearchParams();
  if (f.q) params.set('q', f.q);
  params.set('sort', f.sort);
  params.set('dir', f.dir);
  if (f.blocked) params.set('blocked', f.blocked);
  if (cursor) params.set('cursor', cursor);
  return params.toString();
}

export function fetchCustomers(f: CustomerFilters, cursor?: string) {
  return api.get(`/api/admin/users?${customerQuery(f, cursor)}`, CustomerListSchema);
}

/** /admin/clientes: the filters and the first page (no money columns nor sorts for support). */
export async function customerListPage(request: Request, role: string) {
  const money = staffCan(role, 'money');
  const filters = customerFilters(new URL(request.url));
  if (!money && (filters.sort === 'balance' || filters.sort === 'spend')) filters.sort = 'created';
  return { filters, money, list: await settle(fetchCustomers(filters)) };
}

export const CUSTOMER_TABS = ['ordenes', 'movimientos', 'pagos', 'seguridad', 'notas'] as const;
export type CustomerTab = (typeof CUSTOMER_TABS)[number];

export const TAB_LABELS: Record<CustomerTab, string> = {
  ordenes: 'Órdenes',
  movimientos: 'Movimientos',
  pagos: 'Pagos',
  seguridad: 'Seguridad',
  notas: 'Notas',
};

export function userPath(id: string): string {
  return `/api/admin/users/${encodeURIComponent(id)}`;
}

export function fetchCustomerOrders(id: string, cursor?: string) {
  const q = cursor ? `?cursor=${encodeURIComponent(cursor)}` : '';
  return api.get(`${userPath(id)}/orders${q}`, StaffOrdersPageSchema);
}

export function fetchCustomerLedger(id: string, cursor?: string) {
  const q = cursor ? `?cursor=${encodeURIComponent(cursor)}` : '';
  return api.get(`${userPath(id)}/ledger${q}`, MovementsPageSchema);
}

/** The open tab's data: one call, whichever tab `?tab=` names. */
async function tabData(id: string, tab: CustomerTab) {
  switch (tab) {
    case 'ordenes':
      return { tab, orders: await settle(fetchCustomerOrders(id)) } as const;
    case 'movimientos':
      return { tab, ledger: await settle(fetchCustomerLedger(id)) } as const;
    case 'pagos':
      return {
        tab,
        payments: await settle(api.get(`${userPath(id)}/payments`, PaymentListSchema)),
      } as const;
    case 'seguridad':
      return {
        tab,
        security: await settle(api.get(`${userPath(id)}/security`, AdminUserSecuritySchema)),
      } as const;
    case 'notas':
      return {
        tab,
        notes: await settle(api.get(`${userPath(id)}/notes`, CustomerNoteListSchema)),
      } as const;
  }
}
export type TabData = Awaited<ReturnType<typeof tabData>>;

/** The tabs a staff role sees: balances and payments only for the roles that handle money. */
export function customerTabsFor(role: string): readonly CustomerTab[] {
  return staffCan(role, 'money')
    ? CUSTOMER_TABS
    : CUSTOMER_TABS.filter((t) => t !== 'movimientos' && t !== 'pagos');
}

export function tabFrom(url: URL, tabs: readonly CustomerTab[] = CUSTOMER_TABS): CustomerTab {
  const tab = url.searchParams.get('tab') ?? '';
  return (tabs as readonly string[]).includes(tab) ? (tab as CustomerTab) : 'ordenes';
}

/** /admin/clientes/:id: the header and the open tab, in parallel (the tabs the role may see). */
export async function customerPage(request: Request, id: string, role: string) {
  const tabs = customerTabsFor(role);
  const tab = tabFrom(new URL(request.url), tabs);
  const [customer, data] = await Promise.all([
    settle(api.get(userPath(id), CustomerDetailSchema)),
    tabData(id, tab),
  ]);
  return { id, customer, data, tabs, role };
}

export type NoteResult = { intent: 'note'; ok: boolean; message?: string; error?: string };

/** «Guardar nota»: the note through the schema, then the API. */
export async function addNote(id: string, text: string): Promise<NoteResult> {
  const parsed = CreateCustomerNoteSchema.safeParse({ body: text });
  if (!parsed.success)
    return {
      intent: 'note',
      ok: false,
      error: parsed.error.issues[0]?.message ?? 'Escribe la nota.',
    };
  try {
    await api.post(`${userPath(id)}/notes`, CustomerNoteSchema, parsed.data);
    return { intent: 'note', ok: true, message: 'Nota guardada.' };
  } catch (err) {
    if (err instanceof ApiError)
      return { intent: 'note', ok: false, error: err.fields.body ?? err.message };
    throw err;
  }
}

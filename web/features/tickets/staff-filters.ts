// The staff list's filters (/admin/soporte), between the address bar and the API's query.
import {
  TICKET_CATEGORIES,
  TICKET_STATES,
  type TicketCategory,
  type TicketState,
} from '../../../shared/schemas/tickets';

/** '' is «todos» for each; `assignee`: '' (everyone), 'me', 'none' or a staff id. */
export type StaffTicketFilters = {
  state: '' | TicketState;
  category: '' | TicketCategory;
  assignee: string;
  customer: string;
  order: string;
  q: string;
};

/** A staff member's account id (Better Auth ids are not UUIDs), as the API accepts it. */
const STAFF_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The filters of `/admin/soporte?…`; anything unknown is left out. */
export function staffFiltersFrom(params: URLSearchParams): StaffTicketFilters {
  const state = params.get('state') ?? '';
  const category = params.get('category') ?? '';
  const assignee = params.get('assignee') ?? '';
  const text = (name: string, max: number) => (params.get(name) ?? '').trim().slice(0, max);
  return {
    state: (TICKET_STATES as readonly string[]).includes(state) ? (state as TicketState) : '',
    category: (TICKET_CATEGORIES as readonly string[]).includes(category)
      ? (category as TicketCategory)
      : '',
    assignee: assignee === 'me' || assignee === 'none' || STAFF_ID.test(assignee) ? assignee : '',
    customer: text('customer', 200),
    order: text('order', 60).replace(/^#/, ''),
    q: text('q', 200),
  };
}

/** The API's query for these filters (and the page's address: the same names). */
export function staffQuery(f: StaffTicketFilters, cursor?: string | null): string {
  const query = new URLSearchParams();
  if (f.state) query.set('state', f.state);
  if (f.category) query.set('category', f.category);
  if (f.assignee) query.set('assignee', f.assignee);
  if (f.customer) query.set('customer', f.customer);
  if (f.order) query.set('order', f.order);
  if (f.q) query.set('q', f.q);
  if (cursor) query.set('cursor', cursor);
  return query.toString();
}

/** True when any filter is set (the «Limpiar» link shows). */
export function hasStaffFilters(f: StaffTicketFilters): boolean {
  return Object.values(f).some(Boolean);
}

/** «3 h 20 min», «2 d 4 h», «45 min», «menos de 1 min»: a first-response or resolution time. */
export function durationText(seconds: number | null): string {
  if (seconds === null) return '—';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 1) return 'menos de 1 min';
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  if (days > 0) return hours > 0 ? `${days} d ${hours} h` : `${days} d`;
  if (hours > 0) return mins > 0 ? `${hours} h ${mins} min` : `${hours} h`;
  return `${mins} min`;
}

// The support desk's API calls, for the customer's pages (/soporte…) and the staff's
// (/admin/soporte…). Used by the server loaders, the clientLoaders and the clientActions.
import {
  BulkCloseTicketsResultSchema,
  CreatedTicketSchema,
  StaffTicketDetailSchema,
  StaffTicketListSchema,
  TicketDetailSchema,
  TicketListSchema,
  TicketUnreadSchema,
  type BulkCloseTicketsResult,
  type CreatedTicket,
  type StaffTicketDetail,
  type StaffTicketList,
  type TicketDetail,
  type TicketList,
  type TicketState,
} from '../../../shared/schemas/tickets';
import { api } from '../../lib/api';
import { staffQuery, type StaffTicketFilters } from './staff-filters';

/** Uploads take longer than the usual time-out: three files of 5 MB on a phone's network. */
const UPLOAD_TIMEOUT_MS = 120_000;

const path = (id: string) => `/api/tickets/${encodeURIComponent(id)}`;
const staffPath = (id: string) => `/api/admin/tickets/${encodeURIComponent(id)}`;

export function listMyTickets(cursor?: string | null): Promise<TicketList> {
  const query = cursor ? `?cursor=${encodeURIComponent(cursor)}` : '';
  return api.get(`/api/tickets${query}`, TicketListSchema);
}

export function getMyTicket(id: string): Promise<TicketDetail> {
  return api.get(path(id), TicketDetailSchema);
}

/** The number of the customer's tickets with answers they have not read. */
export function unreadTickets(): Promise<number> {
  return api.get('/api/tickets/unread', TicketUnreadSchema).then((r) => r.unread);
}

/** A FormData with files goes as multipart; without them, the same fields as JSON. */
type Fields = Record<string, string | string[] | undefined>;

function withFiles(fields: Fields, files: File[]): FormData | Fields {
  if (files.length === 0) return fields;
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    form.set(key, Array.isArray(value) ? value.join(',') : value);
  }
  for (const file of files) form.append('files', file);
  return form;
}

export function createTicket(
  ticket: { subject: string; category: string; orderIds?: string[] | undefined; message: string },
  files: File[],
): Promise<CreatedTicket> {
  return api.post('/api/tickets', CreatedTicketSchema, withFiles(ticket, files), {
    timeoutMs: UPLOAD_TIMEOUT_MS,
  });
}

export async function replyToTicket(id: string, body: string, files: File[]): Promise<void> {
  await api(`${path(id)}/messages`, {
    method: 'POST',
    body: withFiles({ body }, files),
    timeoutMs: UPLOAD_TIMEOUT_MS,
  });
}

export async function closeMyTicket(id: string): Promise<void> {
  await api(`${path(id)}/close`, { method: 'POST' });
}

export async function reopenMyTicket(id: string): Promise<void> {
  await api(`${path(id)}/reopen`, { method: 'POST' });
}

// ---- Staff ----

export function listStaffTickets(
  filters: StaffTicketFilters,
  cursor?: string | null,
): Promise<StaffTicketList> {
  return api.get(`/api/admin/tickets?${staffQuery(filters, cursor)}`, StaffTicketListSchema);
}

export function getStaffTicket(id: string): Promise<StaffTicketDetail> {
  return api.get(staffPath(id), StaffTicketDetailSchema);
}

export async function staffReply(
  id: string,
  reply: { body: string; internal: boolean; state?: TicketState | undefined },
  files: File[] = [],
): Promise<void> {
  const fields = { body: reply.body, internal: String(reply.internal), state: reply.state };
  await api(`${staffPath(id)}/messages`, {
    method: 'POST',
    body: files.length > 0 ? withFiles(fields, files) : reply,
    timeoutMs: UPLOAD_TIMEOUT_MS,
  });
}

export async function updateTicket(
  id: string,
  patch: { state?: TicketState; assigneeId?: string | null },
): Promise<void> {
  await api(staffPath(id), { method: 'PATCH', body: patch });
}

/** Closes the tickets chosen; those already closed are left as they were (not counted). */
export function bulkCloseTickets(ids: string[]): Promise<BulkCloseTicketsResult> {
  return api.post('/api/admin/tickets/bulk-close', BulkCloseTicketsResultSchema, { ids });
}

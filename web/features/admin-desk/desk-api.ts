import { searchTerms } from '../../../shared/search-terms';
import {
  AdminOverviewSchema,
  BulkActionResultSchema,
  SnippetDtoSchema,
  SnippetListSchema,
  type AdminOverview,
  type SnippetDto,
  type SnippetKind,
  type BulkActionResult,
  type BulkOrderAction,
} from '../../../shared/schemas/admin-desk';
import { api } from '../../lib/api';

export type { AdminOverview, BulkActionResult, BulkOrderAction, SnippetDto };

/** The saved reasons and templates; an empty list when they cannot be read (typing still works). */
export function loadSnippets(): Promise<SnippetDto[]> {
  return api
    .get('/api/admin/snippets', SnippetListSchema)
    .then((r) => r.items)
    .catch((err: unknown) => {
      console.warn('No se pudieron leer los textos guardados:', err);
      return [];
    });
}

/** The saved reasons and templates, or the API's error (the page that manages them). */
export function fetchSnippets(): Promise<SnippetDto[]> {
  return api.get('/api/admin/snippets', SnippetListSchema).then((r) => r.items);
}

function snippetPath(id: string): string {
  return `/api/admin/snippets/${encodeURIComponent(id)}`;
}

export function updateSnippet(
  id: string,
  patch: { title: string; body: string },
): Promise<SnippetDto> {
  return api.patch(snippetPath(id), SnippetDtoSchema, patch);
}

export async function deleteSnippet(id: string): Promise<void> {
  await api(snippetPath(id), { method: 'DELETE' });
}

export function saveSnippet(kind: SnippetKind, title: string, body: string): Promise<SnippetDto> {
  return api.post('/api/admin/snippets', SnippetDtoSchema, { kind, title, body });
}

/** What needs an admin now (the home and the menu's badges). */
export function loadOverview(): Promise<AdminOverview> {
  return api.get('/api/admin/overview', AdminOverviewSchema);
}

/** The overview, or null when it cannot be read (the menu then shows no badges). */
export function loadOverviewOrNull(): Promise<AdminOverview | null> {
  return loadOverview().catch((err: unknown) => {
    console.warn('No se pudo leer el resumen de administración:', err);
    return null;
  });
}

export function bulkOrders(
  action: BulkOrderAction,
  ids: string[],
  text?: { result?: string; reason?: string },
): Promise<BulkActionResult> {
  return api.post('/api/admin/orders/bulk', BulkActionResultSchema, { action, ids, ...text });
}

/**
 * Where the admin header's search goes: the queue, every state, searching the order numbers and
 * IMEIs typed (an IMEI written with spaces or dashes becomes its 15 digits); null when empty.
 */
export function queueSearchUrl(typed: string): string | null {
  const terms = searchTerms(typed);
  if (terms.length === 0) return null;
  return `/admin/ordenes?${new URLSearchParams({ status: 'todas', q: terms.join(' ') }).toString()}`;
}

/** The count shown on a menu entry of the admin layout, by the entry's id. */
export function menuBadges(o: AdminOverview | null): Record<string, number> {
  if (!o) return {};
  return {
    ordenes: o.pendingOrders + o.reviewOrders,
    pagos: o.pendingPayments ?? 0,
    proveedores: o.failingSuppliers ?? 0,
    soporte: o.openTickets ?? 0,
  };
}

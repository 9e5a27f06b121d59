import { BulkCompletePreviewSchema, BulkCompleteResultSchema } from '../../../shared/bulk-results';
import { CategorySlugSchema } from '../../../shared/schemas/catalogue';
import {
  OrderDtoSchema,
  OrderFiltersQuerySchema,
  OrderListQuerySchema,
  OrderStatusSchema,
  OrdersPageSchema,
  AdminRefillListSchema,
  RefillDtoSchema,
  type AdminRefillDto,
  type AnyOrderDto,
  type OrderDto,
  type RefillDto,
  type OrderStatus,
  type OrdersPage,
} from '../../../shared/schemas/orders';
import {
  AdminOrderDtoSchema,
  AdminOrdersPageSchema,
  DISPATCH_STATES,
  SupplierLogSchema,
  type AdminOrderDto,
  type AdminOrdersPage,
  type DispatchState,
  type SupplierLogEntry,
} from '../../../shared/schemas/suppliers';
import { STOCK_PATHS } from '../../../shared/schemas/stock';
import { ApiError, api } from '../../lib/api';
import { settle, type Loaded } from '../../lib/loaded';

export type OrderPage = OrdersPage;
export type AdminOrder = AdminOrderDto;
export type AdminOrderPage = AdminOrdersPage;

/** The filters of the history, as they are in the page URL. */
export type HistoryFilters = {
  status: string;
  category: string;
  q: string;
  from: string;
  to: string;
};

/** The list's query parameters before validation: strings, as in a query string. */
type ListQueryInput = {
  status?: string;
  category?: string;
  q?: string;
  from?: string;
  to?: string;
  cursor?: string;
};

/** The form's values, each kept only when it is one the API takes (a hand-edited URL may lie). */
export function filtersFromUrl(params: URLSearchParams): HistoryFilters {
  const status = params.get('status') ?? '';
  const category = params.get('category') ?? '';
  const date = (name: string) => {
    const value = params.get(name) ?? '';
    return /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : '';
  };
  return {
    status: OrderStatusSchema.safeParse(status).success ? status : '',
    category: CategorySlugSchema.safeParse(category).success ? category : '',
    q: (params.get('q') ?? '').trim(),
    from: date('from'),
    to: date('to'),
  };
}

export function hasFilters(f: HistoryFilters): boolean {
  return Boolean(f.status || f.category || f.q || f.from || f.to);
}

/** A local calendar day ("2026-05-01") as the instant it starts, `days` later. */
function dayStart(day: string, days = 0): string {
  const start = new Date(`${day}T00:00:00`);
  start.setDate(start.getDate() + days);
  return start.toISOString();
}

/**
 * The list's query string, checked with the schema the server reads it with (OrderListQuerySchema,
 * or OrderFiltersQuerySchema without a cursor): the Spanish message of the first problem, or the
 * query with only the parameters given.
 */
function listQuery(
  input: ListQueryInput,
  paged = true,
): { ok: true; query: string } | { ok: false; message: string } {
  const given = Object.fromEntries(
    Object.entries(input).filter((entry): entry is [string, string] => Boolean(entry[1])),
  );
  const parsed = (paged ? OrderListQuerySchema : OrderFiltersQuerySchema).safeParse(given);
  if (!parsed.success)
    return { ok: false, message: parsed.error.issues[0]?.message ?? 'Los filtros no son válidos.' };
  return { ok: true, query: new URLSearchParams(given).toString() };
}

function queryOrThrow(input: ListQueryInput): string {
  const result = listQuery(input);
  if (!result.ok) throw new ApiError(400, 'VALIDATION_FAILED', result.message);
  return result.query;
}

/** The history's filters as API parameters: dates are whole local days (`to` includes its day). */
function historyInput(f: HistoryFilters, cursor?: string | null): ListQueryInput {
  return {
    status: f.status,
    category: f.category,
    q: f.q,
    from: f.from ? dayStart(f.from) : '',
    to: f.to ? dayStart(f.to, 1) : '',
    cursor: cursor ?? '',
  };
}

/** Filters the API would refuse (e.g. a year out of range): its Spanish message, else null. */
export function filtersError(f: HistoryFilters): string | null {
  const result = listQuery(historyInput(f));
  return result.ok ? null : result.message;
}

export function listMyOrders(f: HistoryFilters, cursor?: string | null): Promise<OrderPage> {
  return api.get(`/api/orders?${queryOrThrow(historyInput(f, cursor))}`, OrdersPageSchema);
}

export function getMyOrder(id: string): Promise<OrderDto> {
  return api.get(`/api/orders/${encodeURIComponent(id)}`, OrderDtoSchema);
}

export function cancelMyOrder(id: string): Promise<OrderDto> {
  return api.post(`/api/orders/${encodeURIComponent(id)}/cancel`, OrderDtoSchema);
}

export function listPendingRefills(): Promise<AdminRefillDto[]> {
  return api.get('/api/admin/refills', AdminRefillListSchema).then((r) => r.items);
}

export function finishRefill(
  id: string,
  outcome: 'complete' | 'reject',
  body: Record<string, string>,
): Promise<RefillDto> {
  return api.post(`/api/admin/refills/${encodeURIComponent(id)}/${outcome}`, RefillDtoSchema, body);
}

export function refillMyOrder(id: string): Promise<RefillDto> {
  return api.post(`/api/orders/${encodeURIComponent(id)}/refill`, RefillDtoSchema);
}

/** The CSV export of the filtered history; null while the filters are not valid. */
export function exportCsvUrl(f: HistoryFilters): string | null {
  const result = listQuery(historyInput(f), false);
  if (!result.ok) return null;
  return `/api/orders/export.csv${result.query ? `?${result.query}` : ''}`;
}

/** The admin queue's status filter: '' is every order in flight, 'todas' every order. */
export type QueueStatus = '' | 'todas' | OrderStatus;

export function queueStatusFrom(value: string | null): QueueStatus {
  if (value === 'todas') return value;
  const parsed = OrderStatusSchema.safeParse(value);
  return parsed.success ? parsed.data : '';
}

/** The admin queue's forwarding filter: '' is any (or none), else one dispatch state. */
export type QueueDispatch = '' | DispatchState;

export function queueDispatchFrom(value: string | null): QueueDispatch {
  return (DISPATCH_STATES as readonly string[]).includes(value ?? '')
    ? (value as DispatchState)
    : '';
}

export function listQueue(
  status: QueueStatus,
  category: string,
  q: string,
  cursor?: string | null,
  dispatch: QueueDispatch = '',
): Promise<AdminOrderPage> {
  const query = queryOrThrow({
    status: status === '' ? 'pending,processing' : status === 'todas' ? '' : status,
    category,
    q,
    cursor: cursor ?? '',
  });
  const params = new URLSearchParams(query);
  if (dispatch) params.set('dispatch', dispatch);
  return api.get(`/api/admin/orders?${params.toString()}`, AdminOrdersPageSchema);
}

function adminOrderPath(id: string): string {
  return `/api/admin/orders/${encodeURIComponent(id)}`;
}

export function adminOrderAction(
  id: string,
  action: 'take' | 'complete' | 'reject',
  body?: Record<string, string>,
): Promise<AdminOrder> {
  return api.post(`${adminOrderPath(id)}/${action}`, AdminOrderDtoSchema, body);
}

/**
 * «Reemplazar artículo» on an order delivered from stock: its item is marked bad (and kept) and
 * another one from the service's stock becomes the result.
 */
export function replaceStockItem(id: string, note?: string): Promise<AdminOrder> {
  return api.post(
    STOCK_PATHS.replaceItem(encodeURIComponent(id)),
    AdminOrderDtoSchema,
    note ? { note } : {},
  );
}

/** «El proveedor la tiene»: the order is followed under the supplier's reference. */
export function confirmDispatch(id: string, reference: string): Promise<AdminOrder> {
  return api.post(`${adminOrderPath(id)}/dispatch/confirm`, AdminOrderDtoSchema, { reference });
}

/** «Enviar de nuevo»: the order goes back to the queue and is sent once more. */
export function resendDispatch(id: string): Promise<AdminOrder> {
  return api.post(`${adminOrderPath(id)}/dispatch/resend`, AdminOrderDtoSchema);
}

/** What was said to suppliers about one order, newest first (never rejects). */
export function loadOrderSupplierCalls(id: string): Promise<Loaded<SupplierLogEntry[]>> {
  return settle(
    api.get(`${adminOrderPath(id)}/supplier-log`, SupplierLogSchema).then((r) => r.items),
  );
}

/** The IMEI, or the first field, of an order. */
export function mainField(order: AnyOrderDto): string {
  if (order.fields.imei) return order.fields.imei;
  // A file's field holds its upload id: its name says more.
  const files = new Map((order.files ?? []).map((f) => [f.fieldKey, f.name]));
  const first = Object.entries(order.fields)[0];
  return first ? (files.get(first[0]) ?? first[1]) : '—';
}

/** What completing `text` would do, line by line; nothing changes. */
export function previewBulkComplete(text: string) {
  return api.post('/api/admin/orders/bulk-complete/preview', BulkCompletePreviewSchema, { text });
}

export function bulkCompleteOrders(text: string) {
  return api.post(
    '/api/admin/orders/bulk-complete',
    BulkCompleteResultSchema,
    { text },
    { timeoutMessage: 'Completar tantas órdenes está tardando. Revisa la cola antes de repetir.' },
  );
}

/** What a queue row's action answers (take, complete, reject, resend, replace the item). */
export type QueueActionResult = {
  id: string;
  ok: boolean;
  message: string;
  order?: AdminOrder;
  field?: string;
};

import { CATEGORIES } from '../../../shared/categories';
import type { BulkCompleteResult } from '../../../shared/bulk-results';
import {
  ORDER_STATUSES,
  type OrderDto,
  type OrderStatus,
  type OrdersPage,
} from '../../../shared/schemas/orders';
import { api } from '../../lib/api';

export type OrderPage = OrdersPage;

/** The filters of the history, as they are in the page URL. */
export type HistoryFilters = {
  status: string;
  category: string;
  q: string;
  from: string;
  to: string;
};

export function filtersFromUrl(params: URLSearchParams): HistoryFilters {
  const status = params.get('status') ?? '';
  const category = params.get('category') ?? '';
  const date = (name: string) => {
    const value = params.get(name) ?? '';
    return /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : '';
  };
  return {
    status: (ORDER_STATUSES as readonly string[]).includes(status) ? status : '',
    category: CATEGORIES.some((c) => c.slug === category) ? category : '',
    q: (params.get('q') ?? '').trim(),
    from: date('from'),
    to: date('to'),
  };
}

export function hasFilters(f: HistoryFilters): boolean {
  return Boolean(f.status || f.category || f.q || f.from || f.to);
}

/** The API's query string: dates are whole local days (`to` includes its day). */
export function apiQuery(f: HistoryFilters, cursor?: string | null): string {
  const query = new URLSearchParams();
  if (f.status) query.set('status', f.status);
  if (f.category) query.set('category', f.category);
  if (f.q) query.set('q', f.q);
  if (f.from) query.set('from', new Date(`${f.from}T00:00:00`).toISOString());
  if (f.to) {
    const end = new Date(`${f.to}T00:00:00`);
    end.setDate(end.getDate() + 1);
    query.set('to', end.toISOString());
  }
  if (cursor) query.set('cursor', cursor);
  return query.toString();
}

export function listMyOrders(f: HistoryFilters, cursor?: string | null): Promise<OrderPage> {
  return api<OrderPage>(`/api/orders?${apiQuery(f, cursor)}`);
}

export function getMyOrder(id: string): Promise<OrderDto> {
  return api<OrderDto>(`/api/orders/${encodeURIComponent(id)}`);
}

export function cancelMyOrder(id: string): Promise<OrderDto> {
  return api<OrderDto>(`/api/orders/${encodeURIComponent(id)}/cancel`, { method: 'POST' });
}

export function exportCsvUrl(f: HistoryFilters): string {
  const query = apiQuery(f);
  return `/api/orders/export.csv${query ? `?${query}` : ''}`;
}

/** The admin queue's status filter: '' is every order in flight, 'todas' every order. */
export type QueueStatus = '' | 'todas' | OrderStatus;

export function queueStatusFrom(value: string | null): QueueStatus {
  if (value === 'todas') return value;
  return (ORDER_STATUSES as readonly string[]).includes(value ?? '') ? (value as OrderStatus) : '';
}

export function listQueue(
  status: QueueStatus,
  category: string,
  q: string,
  cursor?: string | null,
): Promise<OrderPage> {
  const query = new URLSearchParams();
  if (status === '') query.set('status', 'pending,processing');
  else if (status !== 'todas') query.set('status', status);
  if (category) query.set('category', category);
  if (q) query.set('q', q);
  if (cursor) query.set('cursor', cursor);
  return api<OrderPage>(`/api/admin/orders?${query.toString()}`);
}

export function adminOrderAction(
  id: string,
  action: 'take' | 'complete' | 'reject',
  body?: Record<string, string>,
): Promise<OrderDto> {
  return api<OrderDto>(`/api/admin/orders/${encodeURIComponent(id)}/${action}`, {
    method: 'POST',
    body,
  });
}

/** The IMEI, or the first field, of an order. */
export function mainField(order: OrderDto): string {
  if (order.fields.imei) return order.fields.imei;
  const first = Object.values(order.fields)[0];
  return first ?? '—';
}

export function bulkCompleteOrders(text: string): Promise<BulkCompleteResult> {
  return api<BulkCompleteResult>('/api/admin/orders/bulk-complete', {
    method: 'POST',
    body: { text },
    timeoutMessage: 'Completar tantas órdenes está tardando. Revisa la cola antes de repetir.',
  });
}

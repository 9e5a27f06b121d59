import type { ServiceDto } from '../../../shared/schemas/catalogue';
import type { BulkOrderResult, OrderDto } from '../../../shared/schemas/orders';
import { api } from '../../lib/api';

export type CategoryCount = { slug: string; label: string; count: number };

export type BulkResponse = BulkOrderResult;

export function getCategories() {
  return api<CategoryCount[]>('/api/services/categories');
}

export async function getServices(category: string) {
  const { items } = await api<{ items: ServiceDto[] }>(
    `/api/services?category=${encodeURIComponent(category)}`,
  );
  return items;
}

export function getService(id: string) {
  return api<ServiceDto>(`/api/services/${encodeURIComponent(id)}`);
}

export function placeBulkOrder(serviceId: string, imeis: string) {
  return api<BulkResponse>('/api/orders/bulk', { body: { serviceId, imeis } });
}

/** POST /api/orders with an Idempotency-Key, so a repeated submit is charged once. */
export async function placeOrder(
  input: { serviceId: string; quantity?: number; fields: Record<string, string> },
  idempotencyKey: string,
): Promise<OrderDto> {
  return api<OrderDto>('/api/orders', {
    body: input,
    headers: { 'Idempotency-Key': idempotencyKey },
    timeoutMessage: 'La solicitud tardó demasiado. Revisa tu historial antes de repetir la orden.',
  });
}

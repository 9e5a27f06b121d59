import {
  CategoryCountListSchema,
  ServiceDtoSchema,
  ServiceListSchema,
  type CategoryCountDto,
} from '../../../shared/schemas/catalogue';
import {
  BulkOrderResultSchema,
  OrderDtoSchema,
  type BulkOrderResult,
} from '../../../shared/schemas/orders';
import { api } from '../../lib/api';

export type CategoryCount = CategoryCountDto;

export type BulkResponse = BulkOrderResult;

export function getCategories() {
  return api.get('/api/services/categories', CategoryCountListSchema);
}

export async function getServices(category: string) {
  const { items } = await api.get(
    `/api/services?category=${encodeURIComponent(category)}`,
    ServiceListSchema,
  );
  return items;
}

export function getService(id: string) {
  return api.get(`/api/services/${encodeURIComponent(id)}`, ServiceDtoSchema);
}

/** POST /api/orders/bulk: one IMEI a line, with the service's other fields for every line. */
export function placeBulkOrder(
  serviceId: string,
  imeis: string,
  fields: Record<string, string> = {},
) {
  return api.post('/api/orders/bulk', BulkOrderResultSchema, { serviceId, imeis, fields });
}

/** POST /api/orders with an Idempotency-Key, so a repeated submit is charged once. */
export function placeOrder(
  input: { serviceId: string; quantity?: number; fields: Record<string, string> },
  idempotencyKey: string,
) {
  return api.post('/api/orders', OrderDtoSchema, input, {
    headers: { 'Idempotency-Key': idempotencyKey },
    timeoutMessage: 'La solicitud tardó demasiado. Revisa tu historial antes de repetir la orden.',
  });
}

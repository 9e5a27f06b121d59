import { ERROR_MESSAGES } from '../../../shared/error-codes';
import type { ServiceDto } from '../../../shared/schemas/catalogue';
import type { BulkLineResult, OrderDto } from '../../../shared/schemas/orders';
import { api, ApiError } from '../../lib/api';

export type CategoryCount = { slug: string; label: string; count: number };

export type BulkResponse = {
  results: BulkLineResult[];
  placed: number;
  refused: number;
  charged: string;
};

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
  const timeout = AbortSignal.timeout(30_000);
  let response: Response;
  try {
    response = await fetch('/api/orders', {
      method: 'POST',
      headers: {
        Accept: 'application/json',
        'Content-Type': 'application/json',
        'Idempotency-Key': idempotencyKey,
      },
      body: JSON.stringify(input),
      credentials: 'same-origin',
      signal: timeout,
    });
  } catch {
    if (timeout.aborted)
      throw new ApiError(
        0,
        'TIMEOUT',
        'La solicitud tardó demasiado. Revisa tu historial antes de repetir la orden.',
      );
    throw new ApiError(
      0,
      'NETWORK',
      'No hay conexión con el servidor. Revisa tu conexión e inténtalo de nuevo.',
    );
  }
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!response.ok) {
    const err = (body ?? {}) as {
      code?: string;
      message?: string;
      fields?: Record<string, string>;
    };
    const code = err.code ?? `HTTP_${response.status}`;
    const message =
      err.message && code in ERROR_MESSAGES
        ? err.message
        : response.status >= 500
          ? ERROR_MESSAGES.INTERNAL
          : (err.message ?? ERROR_MESSAGES.BAD_REQUEST);
    throw new ApiError(response.status, code, message, err.fields ?? {});
  }
  return body as OrderDto;
}

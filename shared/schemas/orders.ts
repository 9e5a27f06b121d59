import { z } from 'zod';
import type { CategorySlug } from '../categories';

export const ORDER_STATUSES = [
  'pending',
  'processing',
  'completed',
  'rejected',
  'cancelled',
  'partial',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  pending: 'Pendiente',
  processing: 'En proceso',
  completed: 'Completada',
  rejected: 'Rechazada',
  cancelled: 'Cancelada',
  partial: 'Parcial',
};

export const PlaceOrderSchema = z.object({
  serviceId: z.string({ error: 'Elige un servicio.' }).min(1, 'Elige un servicio.'),
  quantity: z
    .number({ error: 'La cantidad debe ser un número entero.' })
    .int('La cantidad debe ser un número entero.')
    .optional(),
  fields: z
    .record(z.string(), z.unknown(), { error: 'Faltan los datos del servicio.' })
    .default({}),
});
export type PlaceOrder = z.infer<typeof PlaceOrderSchema>;

export const BULK_MAX_LINES = 500;

export const BulkOrderSchema = z.object({
  serviceId: z.string({ error: 'Elige un servicio.' }).min(1, 'Elige un servicio.'),
  /** One IMEI a line (or an array). */
  imeis: z.union([z.string(), z.array(z.string())], { error: 'Pega al menos un IMEI.' }),
  fields: z.record(z.string(), z.unknown()).default({}),
});
export type BulkOrder = z.infer<typeof BulkOrderSchema>;

export type OrderEventDto = {
  status: OrderStatus;
  note: string | null;
  actor: 'customer' | 'admin' | 'system';
  at: string;
};

export type OrderDto = {
  id: string;
  number: number;
  serviceId: string;
  serviceName: string;
  category: CategorySlug;
  quantity: number;
  fields: Record<string, string>;
  price: string;
  status: OrderStatus;
  statusLabel: string;
  result: string | null;
  rejectReason: string | null;
  cancellable: boolean;
  createdAt: string;
  updatedAt: string;
  events?: OrderEventDto[];
};

export type BulkLineResult =
  | { line: number; imei: string; ok: true; order: OrderDto }
  | { line: number; imei: string; ok: false; code: string; message: string };

import { z } from 'zod';
import { CategorySlugSchema } from './catalogue';
import { DateTimeSchema, MoneySchema } from './common';

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

/** POST /api/admin/orders/:id/complete. */
export const CompleteOrderSchema = z.object({
  result: z
    .string({ error: 'Escribe el resultado.' })
    .trim()
    .min(1, 'Escribe el resultado.')
    .max(5000, 'El resultado es demasiado largo.'),
});
/** POST /api/admin/orders/:id/reject. */
export const RejectOrderSchema = z.object({
  reason: z
    .string({ error: 'Escribe el motivo.' })
    .trim()
    .min(3, 'Escribe el motivo (al menos 3 caracteres).')
    .max(500, 'El motivo es demasiado largo.'),
});

export const BULK_MAX_LINES = 500;

export const BulkOrderSchema = z.object({
  serviceId: z.string({ error: 'Elige un servicio.' }).min(1, 'Elige un servicio.'),
  /** One IMEI a line (or an array). */
  imeis: z.union([z.string(), z.array(z.string())], { error: 'Pega al menos un IMEI.' }),
  fields: z.record(z.string(), z.unknown()).default({}),
});
export type BulkOrder = z.infer<typeof BulkOrderSchema>;

export const OrderStatusSchema = z.enum(ORDER_STATUSES);

/** One change of an order's status, with when and who. */
export const OrderEventDtoSchema = z.strictObject({
  status: OrderStatusSchema,
  note: z.string().nullable(),
  actor: z.enum(['customer', 'admin', 'system']),
  at: DateTimeSchema,
});
export type OrderEventDto = z.infer<typeof OrderEventDtoSchema>;

export const OrderDtoSchema = z.strictObject({
  id: z.uuid(),
  number: z.number().int(),
  serviceId: z.uuid(),
  serviceName: z.string(),
  category: CategorySlugSchema,
  quantity: z.number().int(),
  fields: z.record(z.string(), z.string()),
  price: MoneySchema,
  status: OrderStatusSchema,
  statusLabel: z.string(),
  result: z.string().nullable(),
  rejectReason: z.string().nullable(),
  cancellable: z.boolean(),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
  /** Only on the detail (GET /api/orders/:id). */
  events: z.array(OrderEventDtoSchema).optional(),
});
export type OrderDto = z.infer<typeof OrderDtoSchema>;

/** One line of a bulk IMEI order: placed (with its order) or refused (with why). */
export const BulkLineResultSchema = z.discriminatedUnion('ok', [
  z.strictObject({
    line: z.number().int(),
    imei: z.string(),
    ok: z.literal(true),
    order: OrderDtoSchema,
  }),
  z.strictObject({
    line: z.number().int(),
    imei: z.string(),
    ok: z.literal(false),
    code: z.string(),
    message: z.string(),
  }),
]);
export type BulkLineResult = z.infer<typeof BulkLineResultSchema>;

/** POST /api/orders/bulk. */
export const BulkOrderResultSchema = z.strictObject({
  results: z.array(BulkLineResultSchema),
  placed: z.number().int(),
  refused: z.number().int(),
  charged: MoneySchema,
});
export type BulkOrderResult = z.infer<typeof BulkOrderResultSchema>;

/** A keyset page of orders, newest first (GET /api/orders). */
export const OrdersPageSchema = z.strictObject({
  items: z.array(OrderDtoSchema),
  nextCursor: z.string().nullable(),
});
export type OrdersPage = z.infer<typeof OrdersPageSchema>;

/** What the dashboard shows (GET /api/orders/summary). */
export const OrderSummarySchema = z.strictObject({
  /** Every status, 0 when the customer has none in it. */
  byStatus: z.record(OrderStatusSchema, z.number().int()),
  latest: z.array(OrderDtoSchema),
  spend30d: z.array(z.strictObject({ date: z.iso.date(), amount: MoneySchema })),
  spend30dTotal: MoneySchema,
});
export type OrderSummary = z.infer<typeof OrderSummarySchema>;

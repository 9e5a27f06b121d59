import { z } from 'zod';
import { parseAmount } from '../money';
import { OrderFileDtoSchema } from './order-files';
import { CategorySlugSchema } from './catalogue';
import { DateTimeSchema, MoneySchema } from './common';
import { OpaqueCursorSchema, dateTimeQuery, enumListQuery } from './query';

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

export const OrderStatusSchema = z.enum(ORDER_STATUSES);

export const ORDER_SOURCES = ['web', 'api', 'dhru', 'smm'] as const;
export type OrderSourceName = (typeof ORDER_SOURCES)[number];
export const ORDER_SOURCE_LABELS: Record<OrderSourceName, string> = {
  web: 'Web',
  api: 'API',
  dhru: 'API DHRU',
  smm: 'API SMM',
};

export const PlaceOrderSchema = z.object({
  serviceId: z.string({ error: 'Elige un servicio.' }).min(1, 'Elige un servicio.'),
  quantity: z
    .number({ error: 'La cantidad debe ser un número entero.' })
    .int('La cantidad debe ser un número entero.')
    .optional(),
  /** Drip-feed: `quantity` is per run, repeated `runs` times every `interval` minutes. */
  runs: z
    .number({ error: 'Las repeticiones deben ser un número entero.' })
    .int('Las repeticiones deben ser un número entero.')
    .optional(),
  interval: z
    .number({ error: 'El intervalo debe ser un número entero de minutos.' })
    .int('El intervalo debe ser un número entero de minutos.')
    .optional(),
  fields: z
    .record(z.string(), z.unknown(), { error: 'Faltan los datos del servicio.' })
    .default({}),
});
export type PlaceOrder = z.infer<typeof PlaceOrderSchema>;

/** POST /api/admin/orders/:id/complete. */
/** A cost typed by staff: money with up to two decimals, from 0 to 100 000. */
export const OrderCostSchema = z
  .string()
  .trim()
  .refine((v) => {
    const cents = parseAmount(v);
    return cents !== null && cents >= 0n && cents <= 10_000_000n;
  }, 'Escribe el costo como un importe, por ejemplo 4.20.');

export const CompleteOrderSchema = z.object({
  result: z
    .string({ error: 'Escribe el resultado.' })
    .trim()
    .min(1, 'Escribe el resultado.')
    .max(5000, 'El resultado es demasiado largo.'),
  /**
   * What the order cost (money "4.20"), typed by the admin who completes it by hand: replaces
   * the recorded cost. Only admin and finance may set it (ignored for support).
   */
  cost: OrderCostSchema.optional(),
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

export const ORDER_EVENT_KINDS = ['status', 'refill', 'cancel'] as const;

/** One change of an order's status (or a refill or cancel request on it), with when and who. */
export const OrderEventDtoSchema = z.strictObject({
  /** `status`: the order changed status; `refill`, `cancel`: a request and its answer. */
  kind: z.enum(ORDER_EVENT_KINDS),
  status: OrderStatusSchema,
  note: z.string().nullable(),
  actor: z.enum(['customer', 'admin', 'system']),
  at: DateTimeSchema,
});
export type OrderEventDto = z.infer<typeof OrderEventDtoSchema>;

export const REFILL_STATES = ['pending', 'in_progress', 'completed', 'rejected'] as const;
export type RefillState = (typeof REFILL_STATES)[number];
export const REFILL_STATE_LABELS: Record<RefillState, string> = {
  pending: 'Pendiente',
  in_progress: 'En proceso',
  completed: 'Completada',
  rejected: 'Rechazada',
};

/** A refill asked for on a completed order. */
export const RefillDtoSchema = z.strictObject({
  id: z.uuid(),
  /** Its number in the SMM API (`refill`). */
  number: z.number().int(),
  orderId: z.uuid(),
  orderNumber: z.number().int(),
  status: z.enum(REFILL_STATES),
  statusLabel: z.string(),
  note: z.string().nullable(),
  createdAt: DateTimeSchema,
  finishedAt: DateTimeSchema.nullable(),
});
export type RefillDto = z.infer<typeof RefillDtoSchema>;

/** A refill as admins see it (GET /api/admin/refills). */
export const AdminRefillDtoSchema = z.strictObject({
  ...RefillDtoSchema.shape,
  customerEmail: z.string(),
  serviceName: z.string(),
  /** The order's identifier (link, username…), when it has one. */
  identifier: z.string().nullable(),
  /** Sent to the supplier that fulfilled the order (followed automatically), not an admin's. */
  routed: z.boolean(),
});
export type AdminRefillDto = z.infer<typeof AdminRefillDtoSchema>;

export const AdminRefillListSchema = z.strictObject({ items: z.array(AdminRefillDtoSchema) });

export const AdminRefillQuerySchema = z.object({
  state: z.enum(REFILL_STATES, { error: 'El estado del filtro no es válido.' }).optional().meta({
    description:
      'Solo las reposiciones en este estado (`pending` por defecto: las que esperan a un administrador o a enviarse).',
  }),
});

/** POST /api/admin/refills/:id/complete. */
export const CompleteRefillSchema = z.object({
  note: z.string().trim().max(500, 'La nota es demasiado larga.').optional(),
});

/** POST /api/admin/refills/:id/reject. */
export const RejectRefillSchema = z.object({
  reason: z
    .string({ error: 'Escribe el motivo.' })
    .trim()
    .min(3, 'Escribe el motivo (al menos 3 caracteres).')
    .max(500, 'El motivo es demasiado largo.'),
});

/** Whether a refill can be asked for now, until when, or why not. */
export const RefillAvailabilitySchema = z.strictObject({
  available: z.boolean(),
  until: DateTimeSchema.nullable(),
  reason: z.string().nullable(),
});

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
  /** The customer asked to cancel it while in progress; the supplier's answer is awaited. */
  cancelRequested: z.boolean(),
  /** Drip-feed runs and minutes between them (null: a plain order). */
  runs: z.number().int().nullable(),
  runInterval: z.number().int().nullable(),
  /** As the supplier reports them: the count when it started, and what is left to deliver. */
  startCount: z.number().int().nullable(),
  remains: z.number().int().nullable(),
  /** Where it was placed: web, api (REST with a key), dhru or smm (those protocols' APIs). */
  source: z.enum(ORDER_SOURCES),
  sourceLabel: z.string(),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
  /** Only on the detail (GET /api/orders/:id). */
  events: z.array(OrderEventDtoSchema).optional(),
  /** Only on the detail: the files its file fields carry (downloads). */
  files: z.array(OrderFileDtoSchema).optional(),
  /** Only on the detail: the refills asked for, oldest first. */
  refills: z.array(RefillDtoSchema).optional(),
  /** Only on the detail: whether a refill can be asked for now. */
  refill: RefillAvailabilitySchema.optional(),
  /** Only on the detail: whether a cancel can be asked for now (in progress at a supplier). */
  cancelRequestable: z.boolean().optional(),
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

/**
 * The filters of an order list, as query parameters: the customer's history, its CSV export and
 * the admin queue read them with this one schema, and the web app builds its URLs from it.
 */
export const OrderFiltersQuerySchema = z.object({
  status: enumListQuery(ORDER_STATUSES, 'El estado del filtro no es válido.', {
    description:
      'Solo las órdenes en este estado, o en cualquiera de varios separados por comas (por ejemplo `pending,processing`).',
    example: 'pending,processing',
  }),
  category: z
    .union([CategorySlugSchema, z.literal('')], { error: 'La categoría del filtro no es válida.' })
    .transform((v) => v || undefined)
    .optional()
    .meta({ description: 'Solo las órdenes de esta categoría.' }),
  from: dateTimeQuery(
    'Solo las órdenes creadas en este momento o después (fecha ISO 8601).',
    '2026-05-01T00:00:00Z',
  ).optional(),
  to: dateTimeQuery(
    'Solo las órdenes creadas antes de este momento (fecha ISO 8601, sin incluirlo).',
    '2026-06-01T00:00:00Z',
  ).optional(),
  q: z.string().max(20_000, 'La búsqueda es demasiado larga.').optional().meta({
    description:
      'Búsqueda: números de orden (`#123` o `123`) o datos identificadores (IMEI, enlace…), separados por espacios, comas o saltos de línea.',
    example: '359702373699048 #42',
  }),
});
export type OrderFiltersQuery = z.output<typeof OrderFiltersQuerySchema>;

/** The filters plus the page cursor (the history and the admin queue are paged). */
export const OrderListQuerySchema = OrderFiltersQuerySchema.extend({
  cursor: OpaqueCursorSchema.optional(),
});

/** An order as any list shows it: the customer's shape, or staff's (price null for support). */
export type AnyOrderDto = Omit<OrderDto, 'price'> & { price: string | null };

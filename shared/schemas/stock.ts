import { z } from 'zod';

// Instant delivery from stock (issue 24): a service's items (licence keys, gift cards, accounts)
// are uploaded by admins, sealed at rest, and one is taken by each order in the transaction that
// places it. Staff only ever see an item's last 4 characters; the buyer sees it in full as the
// order's result. docs/decisions/0023-stock-delivery.md.

/** How a service's orders are fulfilled. */
export const DELIVERY_MODES = ['manual', 'supplier', 'stock'] as const;
export type DeliveryMode = (typeof DELIVERY_MODES)[number];

export const DELIVERY_LABELS: Record<DeliveryMode, string> = {
  manual: 'Manual (a mano)',
  supplier: 'Proveedor (por sus rutas)',
  stock: 'Desde stock (entrega inmediata)',
};

export const DeliveryModeSchema = z.enum(DELIVERY_MODES, {
  error: 'La entrega debe ser «manual», «supplier» o «stock».',
});

/** Largest threshold for the low-stock alert. */
export const MAX_LOW_STOCK_THRESHOLD = 100_000;

export const LowStockThresholdSchema = z
  .number({ error: 'El umbral de poco stock debe ser un número.' })
  .int('El umbral de poco stock debe ser un número entero.')
  .min(0, 'El umbral de poco stock no puede ser negativo.')
  .max(
    MAX_LOW_STOCK_THRESHOLD,
    `El umbral de poco stock no puede pasar de ${MAX_LOW_STOCK_THRESHOLD}.`,
  );

/** Items per upload, and characters per item. */
export const STOCK_UPLOAD_MAX_ITEMS = 10_000;
export const STOCK_ITEM_MAX_LENGTH = 500;
/** An upload's body: 10 000 items of 500 characters at up to 3 bytes each, plus line breaks. */
export const STOCK_UPLOAD_MAX_BYTES = 16 * 1024 * 1024;

/** Why a line of an upload was refused (Spanish, shown next to its line number). */
export const STOCK_REFUSALS = {
  empty: 'Línea vacía.',
  tooLong: `El artículo es demasiado largo (máximo ${STOCK_ITEM_MAX_LENGTH} caracteres).`,
  duplicateInUpload: 'Repetido en esta misma carga.',
  duplicateInStock: 'Ya está en el stock de este servicio.',
  invalidText: 'Contiene caracteres no permitidos.',
} as const;

/** The whole upload is refused beyond this many lines (400 VALIDATION_FAILED, nothing added). */
export const STOCK_TOO_MANY_LINES = `Puedes cargar como máximo ${STOCK_UPLOAD_MAX_ITEMS.toLocaleString('en-US')} artículos a la vez.`;

/** The customer-facing refusal when a stock service has no items and no supplier to fall back on. */
export const OUT_OF_STOCK_MESSAGE = 'Agotado: este servicio no tiene existencias en este momento.';

/**
 * POST /api/admin/services/:id/stock → 200. Partial add: the good lines are added, the bad ones
 * refused with their line number (1-based, as in the text) and a Spanish reason.
 */
export const StockUploadResultSchema = z.strictObject({
  added: z.number().int(),
  refused: z.array(z.strictObject({ line: z.number().int(), reason: z.string() })),
});
export type StockUploadResult = z.infer<typeof StockUploadResultSchema>;

export const STOCK_ITEM_STATES = ['available', 'sold', 'bad'] as const;
export type StockItemState = (typeof STOCK_ITEM_STATES)[number];
export const STOCK_ITEM_STATE_LABELS: Record<StockItemState, string> = {
  available: 'Disponible',
  sold: 'Vendido',
  bad: 'Defectuoso',
};

/** One item as staff see it: never the item itself, only its last 4 characters. */
export const StockItemDtoSchema = z.strictObject({
  id: z.uuid(),
  /** «…AB12»: the last 4 characters (fewer when the item is shorter). */
  last4: z.string(),
  state: z.enum(STOCK_ITEM_STATES),
  /** The order it was sold to (sold or bad), or null. */
  orderId: z.uuid().nullable(),
  orderNumber: z.number().int().nullable(),
  createdAt: z.iso.datetime(),
  soldAt: z.iso.datetime().nullable(),
});
export type StockItemDto = z.infer<typeof StockItemDtoSchema>;

/** GET /api/admin/services/:id/stock: counts, threshold and the newest 100 items (masked). */
export const StockSummarySchema = z.strictObject({
  available: z.number().int(),
  sold: z.number().int(),
  bad: z.number().int(),
  lowStockThreshold: z.number().int(),
  delivery: z.enum(DELIVERY_MODES),
  items: z.array(StockItemDtoSchema),
});
export type StockSummary = z.infer<typeof StockSummarySchema>;

/** What customers see of a stock service's availability (never the count). */
export const STOCK_AVAILABILITY = ['available', 'out'] as const;
export type StockAvailability = (typeof STOCK_AVAILABILITY)[number];
export const STOCK_AVAILABILITY_LABELS: Record<StockAvailability, string> = {
  available: 'Entrega inmediata',
  out: 'Agotado',
};

/** POST /api/admin/orders/:id/replace-item: an optional note for the customer's timeline. */
export const ReplaceItemSchema = z.strictObject({
  note: z
    .string({ error: 'La nota debe ser texto.' })
    .trim()
    .max(500, 'La nota es demasiado larga (máximo 500 caracteres).')
    .optional(),
});
export type ReplaceItemInput = z.infer<typeof ReplaceItemSchema>;

/** The route paths (the web app builds its calls from these). */
export const STOCK_PATHS = {
  stock: (serviceId: string) => `/api/admin/services/${serviceId}/stock`,
  exportCsv: (serviceId: string) => `/api/admin/services/${serviceId}/stock/export`,
  replaceItem: (orderId: string) => `/api/admin/orders/${orderId}/replace-item`,
} as const;

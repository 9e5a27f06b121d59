// Suppliers we forward orders to (admin only): how the API shows them, their remote catalogues,
// imports, a service's routes, and the forwarding of an order.
import { OrderCostFieldsSchema } from './reports';
import { z } from 'zod';
import { parseAmount } from '../money';
import { CategorySlugSchema } from './catalogue';
import { DateTimeSchema, DecimalSchema, MoneySchema } from './common';
import { OrderDtoSchema, OrderListQuerySchema } from './orders';
import { enumListQuery } from './query';
import { ServiceFieldTypeSchema } from './service-fields';
import { SUPPLIER_STATES } from './service-routes';

export {
  SUPPLIER_STATES,
  SUPPLIER_STATE_LABELS,
  ServiceRouteDtoSchema,
  type ServiceRouteDto,
  type SupplierState,
} from './service-routes';

export const SUPPLIER_PROTOCOLS = ['dhru', 'smm'] as const;
export type SupplierProtocolName = (typeof SUPPLIER_PROTOCOLS)[number];
export const SUPPLIER_PROTOCOL_LABELS: Record<SupplierProtocolName, string> = {
  dhru: 'DHRU Fusion',
  smm: 'Panel SMM (API v2)',
};

export const SupplierSettingsSchema = z.strictObject({
  /** DHRU: how `parameters` is sent: XML (what most panels send) or base64 JSON. */
  dhruParameters: z.enum(['xml', 'json']),
  /** DHRU: what STATUS 2 means for this supplier. */
  dhruStatus2: z.enum(['processing', 'cancelled']),
  /** DHRU: the supplier answers getimeiorderbulk. */
  dhruBulkStatus: z.boolean(),
  /** Requests to this supplier in flight at once, per instance. */
  maxConcurrency: z.number().int(),
});
export type SupplierSettingsDto = z.infer<typeof SupplierSettingsSchema>;

/** A catalogue entry the last read could not use, and why (in Spanish). */
export const CatalogueIssueSchema = z.strictObject({
  remoteId: z.string().nullable(),
  name: z.string().nullable(),
  reason: z.string(),
});
export type CatalogueIssueDto = z.infer<typeof CatalogueIssueSchema>;

export const SupplierDtoSchema = z.strictObject({
  id: z.uuid(),
  name: z.string(),
  protocol: z.enum(SUPPLIER_PROTOCOLS),
  url: z.string(),
  username: z.string().nullable(),
  /** The key's last characters ("••••9c1f"); the key itself is never returned. */
  apiKeyHint: z.string(),
  state: z.enum(SUPPLIER_STATES),
  stateLabel: z.string(),
  balance: DecimalSchema.nullable(),
  currency: z.string().nullable(),
  lowBalanceThreshold: DecimalSchema.nullable(),
  lastError: z.string().nullable(),
  lastCheckedAt: DateTimeSchema.nullable(),
  settings: SupplierSettingsSchema,
  catalogueFetchedAt: DateTimeSchema.nullable(),
  /** What the last catalogue read skipped or could not price (the first ones). */
  catalogueIssues: z.array(CatalogueIssueSchema),
  /** How many issues the last catalogue read had in all. */
  catalogueIssueCount: z.number().int(),
  /** Catalogue services bought from this supplier (any route). */
  routedServices: z.number().int(),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
});
export type SupplierDto = z.infer<typeof SupplierDtoSchema>;

export const SupplierListSchema = z.strictObject({ items: z.array(SupplierDtoSchema) });
export type SupplierList = z.infer<typeof SupplierListSchema>;

/** POST /api/admin/suppliers/:id/test. */
export const SupplierTestResultSchema = z.strictObject({
  ok: z.boolean(),
  /** Spanish: the balance read, or what the supplier answered. */
  message: z.string(),
  supplier: SupplierDtoSchema,
});
export type SupplierTestResult = z.infer<typeof SupplierTestResultSchema>;

// ─── Requests ────────────────────────────────────────────────────────────────────────────────

const ThresholdSchema = z
  .string({ error: 'Escribe el umbral como importe, por ejemplo 25.00.' })
  .trim()
  .refine((v) => {
    const cents = parseAmount(v);
    return cents !== null && cents >= 0n;
  }, 'Escribe el umbral como importe, por ejemplo 25.00.')
  .transform((v) => parseAmount(v) ?? 0n);

const settingsInput = z
  .object({
    dhruParameters: z.enum(['xml', 'json'], { error: 'Elige XML o JSON.' }),
    dhruStatus2: z.enum(['processing', 'cancelled'], {
      error: 'Elige qué significa el estado 2.',
    }),
    dhruBulkStatus: z.boolean({ error: 'Indica si el proveedor admite consultas en bloque.' }),
    maxConcurrency: z
      .number({ error: 'Las peticiones simultáneas deben ser un número.' })
      .int('Las peticiones simultáneas deben ser un número entero.')
      .min(1, 'Al menos 1 petición simultánea.')
      .max(32, 'Como máximo 32 peticiones simultáneas.'),
  })
  .partial();

const supplierShape = {
  name: z
    .string({ error: 'Escribe un nombre para el proveedor.' })
    .trim()
    .min(2, 'El nombre debe tener al menos 2 caracteres.')
    .max(80, 'El nombre es demasiado largo (máximo 80 caracteres).'),
  url: z
    .string({ error: 'Escribe la dirección del proveedor.' })
    .trim()
    .max(500, 'La dirección es demasiado larga.')
    .regex(/^https?:\/\/\S+$/i, 'La dirección debe empezar por http:// o https://.'),
  username: z
    .string({ error: 'El usuario debe ser un texto.' })
    .trim()
    .max(200, 'El usuario es demasiado largo.')
    .nullable(),
  apiKey: z
    .string({ error: 'Escribe la clave API del proveedor.' })
    .trim()
    .min(4, 'La clave API es demasiado corta.')
    .max(500, 'La clave API es demasiado larga.'),
  lowBalanceThreshold: ThresholdSchema.nullable(),
  settings: settingsInput,
};

/** POST /api/admin/suppliers: tested before it is saved. */
export const CreateSupplierSchema = z
  .object({
    ...supplierShape,
    protocol: z.enum(SUPPLIER_PROTOCOLS, { error: 'Elige el protocolo: dhru o smm.' }),
    username: supplierShape.username.optional(),
    lowBalanceThreshold: supplierShape.lowBalanceThreshold.optional(),
    settings: supplierShape.settings.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.protocol === 'dhru' && !v.username) {
      ctx.addIssue({
        code: 'custom',
        path: ['username'],
        message: 'Un proveedor DHRU necesita el usuario (normalmente el correo de la cuenta).',
      });
    }
  });
export type CreateSupplierInput = z.infer<typeof CreateSupplierSchema>;

/** PATCH /api/admin/suppliers/:id: a new URL, user or key is tested before it is saved. */
export const UpdateSupplierSchema = z
  .object({
    ...supplierShape,
    state: z.enum(['activo', 'desactivado'], { error: 'El estado debe ser activo o desactivado.' }),
  })
  .partial()
  .refine((v) => Object.keys(v).length > 0, 'No hay cambios que guardar.');
export type UpdateSupplierInput = z.infer<typeof UpdateSupplierSchema>;

// ─── Remote catalogue and imports ────────────────────────────────────────────────────────────

export const RemoteFieldDtoSchema = z.strictObject({
  key: z.string(),
  label: z.string(),
  type: ServiceFieldTypeSchema,
  required: z.boolean(),
});

export const RemoteServiceDtoSchema = z.strictObject({
  remoteId: z.string(),
  name: z.string(),
  group: z.string(),
  type: z.string(),
  /** The supplier's price, per order or per 1000 (`unit`), in its currency. */
  cost: DecimalSchema,
  currency: z.string(),
  deliveryTime: z.string(),
  unit: z.enum(['order', '1000']),
  minQuantity: z.number().int().optional(),
  maxQuantity: z.number().int().optional(),
  info: z.string(),
  fields: z.array(RemoteFieldDtoSchema),
  importable: z.boolean(),
  /** Why it cannot be imported yet. */
  reason: z.string().nullable(),
  /** The supplier no longer lists it. */
  missing: z.boolean(),
  /** Our services bought through it. */
  importedAs: z.array(z.strictObject({ id: z.uuid(), name: z.string() })),
});
export type RemoteServiceDto = z.infer<typeof RemoteServiceDtoSchema>;

export const RemoteServiceListSchema = z.strictObject({
  items: z.array(RemoteServiceDtoSchema),
  /** Every group of the catalogue (for the filter). */
  groups: z.array(z.string()),
  fetchedAt: DateTimeSchema.nullable(),
  /** The supplier could not be read now: this is the last copy. */
  stale: z.boolean(),
  message: z.string().nullable(),
});
export type RemoteServiceList = z.infer<typeof RemoteServiceListSchema>;

/** Remote catalogue filters (GET /api/admin/suppliers/:id/services). */
export const RemoteServiceQuerySchema = z.object({
  q: z.string().max(200, 'La búsqueda es demasiado larga.').optional().meta({
    description: 'Texto del nombre o número de servicio del proveedor.',
  }),
  group: z.string().max(300, 'El grupo es demasiado largo.').optional().meta({
    description: 'Solo los servicios de este grupo del proveedor.',
  }),
  refresh: z
    .enum(['true', 'false'], { error: 'refresh debe ser true o false.' })
    .optional()
    .meta({ description: '`true` vuelve a leer el catálogo del proveedor ahora.' }),
});

export const MarkupPercentSchema = z
  .number({ error: 'El margen debe ser un número (por ejemplo 20 o 12.5).' })
  .min(0, 'El margen no puede ser negativo.')
  .max(1000, 'El margen no puede pasar de 1000 %.')
  .refine(
    (p) => Math.abs(p * 100 - Math.round(p * 100)) < 1e-6,
    'El margen admite como máximo dos decimales.',
  );

export const IMPORT_MAX = 200;

/** POST /api/admin/suppliers/:id/import. */
export const ImportServicesSchema = z.object({
  remoteIds: z
    .array(z.string({ error: 'Cada servicio debe ser un identificador.' }).trim().min(1).max(64), {
      error: 'Elige al menos un servicio.',
    })
    .min(1, 'Elige al menos un servicio.')
    .max(IMPORT_MAX, `Como máximo ${IMPORT_MAX} servicios a la vez.`)
    .refine((ids) => new Set(ids).size === ids.length, 'Hay servicios repetidos en la lista.'),
  category: CategorySlugSchema,
  markupPercent: MarkupPercentSchema,
});
export type ImportServicesInput = z.infer<typeof ImportServicesSchema>;

// ─── A service's routes ──────────────────────────────────────────────────────────────────────

export const ROUTES_MAX = 5;

/** PUT /api/admin/services/:id/routes: the whole list, in order (first = primary). */
export const SetServiceRoutesSchema = z.object({
  routes: z
    .array(
      z.object({
        supplierId: z.string({ error: 'Elige un proveedor.' }),
        remoteId: z.string({ error: 'Escribe el servicio del proveedor.' }).trim().min(1).max(64),
      }),
      { error: 'Envía la lista de rutas.' },
    )
    .max(ROUTES_MAX, `Como máximo ${ROUTES_MAX} proveedores por servicio.`),
  /** Price = primary cost × (1 + markup); null keeps the price fixed. */
  markupPercent: MarkupPercentSchema.nullable(),
});
export type SetServiceRoutesInput = z.infer<typeof SetServiceRoutesSchema>;

// ─── Forwarding of an order (admin view) ─────────────────────────────────────────────────────

export const DISPATCH_STATES = ['queued', 'sending', 'sent', 'waiting', 'review', 'done'] as const;
export type DispatchState = (typeof DISPATCH_STATES)[number];
export const DISPATCH_STATE_LABELS: Record<DispatchState, string> = {
  queued: 'En cola',
  sending: 'Enviando',
  sent: 'Enviada al proveedor',
  waiting: 'En espera del proveedor',
  review: 'Revisar',
  done: 'Terminada',
};

export const DispatchDtoSchema = z.strictObject({
  supplierId: z.uuid().nullable(),
  supplierName: z.string().nullable(),
  reference: z.string().nullable(),
  state: z.enum(DISPATCH_STATES),
  stateLabel: z.string(),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  reviewReason: z.string().nullable(),
  nextAttemptAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
});
export type DispatchDto = z.infer<typeof DispatchDtoSchema>;

/**
 * An order as staff see it: the customer's view plus its forwarding. `price` (what the customer
 * was charged) is null for the support role.
 */
export const AdminOrderDtoSchema = z.strictObject({
  ...OrderDtoSchema.shape,
  price: MoneySchema.nullable(),
  dispatch: DispatchDtoSchema.nullable(),
  /** Whose order it is (the queue's customer column). */
  customerEmail: z.string(),
  customerName: z.string(),
  /** Admin and finance only (shared/roles.ts `reports`): absent for support. */
  ...OrderCostFieldsSchema.shape,
});
export type AdminOrderDto = z.infer<typeof AdminOrderDtoSchema>;

export const AdminOrdersPageSchema = z.strictObject({
  items: z.array(AdminOrderDtoSchema),
  nextCursor: z.string().nullable(),
});
export type AdminOrdersPage = z.infer<typeof AdminOrdersPageSchema>;

export const SupplierLogEntrySchema = z.strictObject({
  id: z.string(),
  supplierId: z.uuid(),
  supplierName: z.string(),
  action: z.string(),
  /** The form sent, credentials replaced by "***". */
  request: z.record(z.string(), z.string()),
  httpStatus: z.number().int().nullable(),
  response: z.string().nullable(),
  error: z.string().nullable(),
  outcome: z.string(),
  ms: z.number().int(),
  at: DateTimeSchema,
});
export type SupplierLogEntry = z.infer<typeof SupplierLogEntrySchema>;

export const SupplierLogSchema = z.strictObject({ items: z.array(SupplierLogEntrySchema) });
export type SupplierLog = z.infer<typeof SupplierLogSchema>;

/** POST /api/admin/orders/:id/dispatch/confirm: the supplier has it, under this reference. */
export const ConfirmDispatchSchema = z.object({
  reference: z
    .string({ error: 'Escribe la referencia del proveedor.' })
    .trim()
    .min(1, 'Escribe la referencia del proveedor.')
    .max(100, 'La referencia es demasiado larga.'),
});

/** The admin queue's filters: the customer's, plus the state of the forwarding. */
export const AdminOrderListQuerySchema = OrderListQuerySchema.extend({
  dispatch: enumListQuery(DISPATCH_STATES, 'El estado de envío del filtro no es válido.', {
    description:
      'Solo las órdenes cuyo envío al proveedor está en este estado (o en varios, separados por comas): `queued`, `sending`, `sent`, `waiting`, `review` o `done`. `review`: las que esperan una decisión.',
    example: 'review',
  }),
});

import { z } from 'zod';
import { CATEGORIES, type CategorySlug } from '../categories';
import { parseAmount } from '../money';
import { SMM_TYPES } from '../smm-types';
import { DateTimeSchema, MoneySchema } from './common';
import {
  DELIVERY_MODES,
  DeliveryModeSchema,
  LowStockThresholdSchema,
  STOCK_AVAILABILITY,
} from './stock';
import { ServiceRouteDtoSchema } from './service-routes';
import {
  ServiceFieldSchema,
  duplicateFieldKey,
  serviceFieldListSchema,
  type ServiceField,
} from './service-fields';

export {
  ServiceFieldSchema,
  ServiceFieldTypeSchema,
  type ServiceField,
  type ServiceFieldType,
} from './service-fields';

export const CATEGORY_SLUGS = CATEGORIES.map((c) => c.slug) as [CategorySlug, ...CategorySlug[]];

export const CategorySlugSchema = z.enum(CATEGORY_SLUGS);

export function isCategorySlug(value: string): value is CategorySlug {
  return (CATEGORY_SLUGS as string[]).includes(value);
}

// ─── Responses ───────────────────────────────────────────────────────────────────────────────

/** A service as verified customers see it (GET /api/services). */
export const ServiceDtoSchema = z.strictObject({
  id: z.uuid(),
  /** Stable number: SERVICEID (DHRU) and `service` (SMM) in the reseller APIs. */
  number: z.number().int(),
  category: CategorySlugSchema,
  name: z.string(),
  description: z.string(),
  deliveryTime: z.string(),
  price: MoneySchema,
  unit: z.enum(['order', '1000']),
  minQuantity: z.number().int().optional(),
  maxQuantity: z.number().int().optional(),
  allowRecheck: z.boolean(),
  fields: z.array(ServiceFieldSchema),
  /** The SMM order type it is sold as (`Default`, `Custom Comments`…); null: not SMM-typed. */
  smmType: z.enum(SMM_TYPES).nullable(),
  /** Orders may be drip-fed (`runs` × quantity every `interval` minutes). */
  dripfeed: z.boolean(),
  /** Days after completion a refill may be asked for; null: no refill. */
  refillDays: z.number().int().nullable(),
  /** An order in progress can be asked to be cancelled (forwarded to the supplier). */
  cancelable: z.boolean(),
  /**
   * Services delivered from stock: `available` (an order is delivered at once, or forwarded to a
   * supplier when the stock ran out) or `out` («Agotado»: orders are refused). Never the count.
   * Null: not a stock service.
   */
  stock: z.enum(STOCK_AVAILABILITY).nullable(),
});
export type ServiceDto = z.infer<typeof ServiceDtoSchema>;

/** GET /api/services. */
export const ServiceListSchema = z.strictObject({ items: z.array(ServiceDtoSchema) });
export type ServiceList = z.infer<typeof ServiceListSchema>;

/** One category with how many active services it has (GET /api/categories). */
export const CategoryCountSchema = z.strictObject({
  slug: CategorySlugSchema,
  label: z.string(),
  count: z.number().int(),
});
export type CategoryCountDto = z.infer<typeof CategoryCountSchema>;
export const CategoryCountListSchema = z.array(CategoryCountSchema);

/** What admins see: the customer view plus the state customers never see. */
export const AdminServiceDtoSchema = z.strictObject({
  ...ServiceDtoSchema.shape,
  active: z.boolean(),
  sortOrder: z.number().int(),
  /** The price follows the primary supplier's cost with this margin (%); null: a fixed price. */
  markupPercent: z.number().nullable(),
  /** Where it is bought, in order (first = primary); empty: fulfilled by hand. */
  routes: z.array(ServiceRouteDtoSchema),
  /** Its name, description or delivery time still has English words (shared/translation.ts). */
  needsTranslation: z.boolean(),
  /**
   * How orders are fulfilled: `supplier` (forwarded by its routes, by hand when it has none),
   * `manual` (always by hand), `stock` (an item from stock at once; out of stock, its routes).
   */
  delivery: z.enum(DELIVERY_MODES),
  /** Stock services: the admins are alerted when available items drop to this many. */
  lowStockThreshold: z.number().int(),
});
export type AdminServiceDto = z.infer<typeof AdminServiceDtoSchema>;

/** GET /api/admin/services. */
export const AdminServiceListSchema = z.strictObject({ items: z.array(AdminServiceDtoSchema) });
export type AdminServiceList = z.infer<typeof AdminServiceListSchema>;

/** One audited change of a service, as its history shows it (newest first). */
export const ServiceHistoryEntrySchema = z.strictObject({
  id: z.string(),
  /** service.create | service.update | service.activate | service.deactivate | service.reorder | service.price_bulk */
  action: z.string(),
  /** Who did it; null when the account no longer exists. */
  actor: z.strictObject({ name: z.string(), email: z.string() }).nullable(),
  createdAt: DateTimeSchema,
  /** What changed: one entry per property whose value differs before and after. */
  changes: z.array(z.strictObject({ field: z.string(), before: z.unknown(), after: z.unknown() })),
});
export type ServiceHistoryEntryDto = z.infer<typeof ServiceHistoryEntrySchema>;

/** GET /api/admin/services/:id/audit. */
export const ServiceHistorySchema = z.strictObject({ items: z.array(ServiceHistoryEntrySchema) });
export type ServiceHistory = z.infer<typeof ServiceHistorySchema>;

/** POST /api/admin/services/bulk-price. */
export const BulkPriceResultSchema = z.strictObject({ updated: z.number().int() });
export type BulkPriceResult = z.infer<typeof BulkPriceResultSchema>;

// ─── Requests ────────────────────────────────────────────────────────────────────────────────

/** 100 000.00 dollars: a typo guard, far above any real service price. */
export const MAX_PRICE_CENTS = 10_000_000n;
export const MAX_QUANTITY = 10_000_000;

const CategorySchema = z.enum(CATEGORY_SLUGS, { error: 'Elige una categoría válida.' });

const PriceSchema = z
  .string({ error: 'Escribe el precio, por ejemplo 1.50.' })
  .trim()
  .refine(
    (v) => parseAmount(v) !== null,
    'Escribe un precio válido, con hasta dos decimales (por ejemplo 1.50).',
  )
  .refine((v) => (parseAmount(v) ?? 0n) > 0n, 'El precio debe ser mayor que cero.')
  .refine(
    (v) => (parseAmount(v) ?? 0n) <= MAX_PRICE_CENTS,
    'El precio no puede pasar de US$100,000.00.',
  )
  .transform((v) => parseAmount(v) ?? 0n);

const QuantitySchema = (what: string) =>
  z
    .number({ error: `${what} debe ser un número.` })
    .int(`${what} debe ser un número entero.`)
    .min(1, `${what} debe ser al menos 1.`)
    .max(MAX_QUANTITY, `${what} no puede pasar de ${MAX_QUANTITY}.`);

/** The fields a service asks for, with the position of the first problem in each message. */
const FieldsSchema = z.unknown().transform((raw, ctx): ServiceField[] => {
  const parsed = serviceFieldListSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const index = issue?.path[0];
    const prefix = typeof index === 'number' ? `Campo ${index + 1}: ` : '';
    ctx.addIssue({ code: 'custom', message: `${prefix}${issue?.message ?? 'Campos no válidos.'}` });
    return z.NEVER;
  }
  const duplicate = duplicateFieldKey(parsed.data);
  if (duplicate) {
    ctx.addIssue({ code: 'custom', message: `La clave «${duplicate}» está repetida.` });
    return z.NEVER;
  }
  if (parsed.data.filter((f) => f.identifier === true).length > 1) {
    ctx.addIssue({ code: 'custom', message: 'Solo un campo puede ser el identificador.' });
    return z.NEVER;
  }
  return parsed.data;
});

const serviceShape = {
  category: CategorySchema,
  name: z
    .string({ error: 'Escribe el nombre del servicio.' })
    .trim()
    .min(3, 'El nombre debe tener al menos 3 caracteres.')
    .max(120, 'El nombre es demasiado largo (máximo 120 caracteres).'),
  description: z
    .string({ error: 'Escribe una descripción.' })
    .trim()
    .min(1, 'Escribe una descripción.')
    .max(1000, 'La descripción es demasiado larga (máximo 1000 caracteres).'),
  deliveryTime: z
    .string({ error: 'Escribe el tiempo de entrega.' })
    .trim()
    .min(1, 'Escribe el tiempo de entrega.')
    .max(60, 'El tiempo de entrega es demasiado largo (máximo 60 caracteres).'),
  price: PriceSchema,
  unit: z.enum(['order', '1000'], { error: 'La unidad debe ser «order» o «1000».' }),
  minQuantity: QuantitySchema('La cantidad mínima').nullable(),
  maxQuantity: QuantitySchema('La cantidad máxima').nullable(),
  fields: FieldsSchema,
  active: z.boolean({ error: 'Indica si el servicio está activo.' }),
  sortOrder: z
    .number({ error: 'El orden debe ser un número.' })
    .int('El orden debe ser un número entero.')
    .min(0, 'El orden no puede ser negativo.')
    .max(1_000_000, 'El orden es demasiado grande.'),
  allowRecheck: z.boolean({ error: 'Indica si se permite volver a consultar.' }),
  smmType: z.enum(SMM_TYPES, { error: 'Elige un tipo de servicio SMM válido.' }).nullable(),
  dripfeed: z.boolean({ error: 'Indica si admite goteo.' }),
  refillDays: z
    .number({ error: 'Los días de reposición deben ser un número.' })
    .int('Los días de reposición deben ser un número entero.')
    .min(1, 'Los días de reposición deben ser al menos 1.')
    .max(3650, 'Los días de reposición no pueden pasar de 3650.')
    .nullable(),
  cancelable: z.boolean({ error: 'Indica si se puede pedir la cancelación.' }),
  delivery: DeliveryModeSchema,
  lowStockThreshold: LowStockThresholdSchema,
};

export const CreateServiceSchema = z.object({
  ...serviceShape,
  unit: serviceShape.unit.default('order'),
  minQuantity: serviceShape.minQuantity.optional(),
  maxQuantity: serviceShape.maxQuantity.optional(),
  active: serviceShape.active.default(true),
  sortOrder: serviceShape.sortOrder.optional(),
  allowRecheck: serviceShape.allowRecheck.default(false),
  smmType: serviceShape.smmType.default(null),
  dripfeed: serviceShape.dripfeed.default(false),
  refillDays: serviceShape.refillDays.default(null),
  cancelable: serviceShape.cancelable.default(false),
  delivery: serviceShape.delivery.default('supplier'),
  lowStockThreshold: serviceShape.lowStockThreshold.default(5),
});
export type CreateServiceInput = z.infer<typeof CreateServiceSchema>;

export const UpdateServiceSchema = z
  .object(serviceShape)
  .partial()
  .refine((v) => Object.keys(v).length > 0, 'No hay cambios que guardar.');
export type UpdateServiceInput = z.infer<typeof UpdateServiceSchema>;

/**
 * Unit and quantities together: per-1000 services need 1 ≤ min ≤ max; per-order services have none.
 * Returns field errors (empty when fine).
 */
export function quantityErrors(v: {
  unit: string;
  minQuantity: number | null | undefined;
  maxQuantity: number | null | undefined;
}): Record<string, string> {
  const errors: Record<string, string> = {};
  if (v.unit !== '1000') return errors;
  if (v.minQuantity == null) errors.minQuantity = 'Indica la cantidad mínima.';
  if (v.maxQuantity == null) errors.maxQuantity = 'Indica la cantidad máxima.';
  if (v.minQuantity != null && v.maxQuantity != null && v.maxQuantity < v.minQuantity) {
    errors.maxQuantity = 'La cantidad máxima no puede ser menor que la mínima.';
  }
  return errors;
}

export const ReorderSchema = z.object({
  ids: z
    .array(z.string({ error: 'Cada servicio debe ser un identificador.' }), {
      error: 'Envía la lista de servicios en el nuevo orden.',
    })
    .min(1, 'Envía al menos un servicio.')
    .max(1000, 'Demasiados servicios a la vez.')
    .refine((ids) => new Set(ids).size === ids.length, 'Hay servicios repetidos en la lista.'),
});

/** PATCH /api/admin/services/bulk: activate or deactivate several services at once. */
export const BulkServicesSchema = z.strictObject({
  ids: z
    .array(z.guid({ error: 'Algún servicio no existe.' }), {
      error: 'Envía la lista de servicios.',
    })
    .min(1, 'Elige al menos un servicio.')
    .max(1000, 'Demasiados servicios a la vez.')
    .refine((ids) => new Set(ids).size === ids.length, 'Hay servicios repetidos en la lista.'),
  active: z.boolean({ error: 'Indica si quedan activos (true) o inactivos (false).' }),
});
export type BulkServicesInput = z.infer<typeof BulkServicesSchema>;

export const BulkPriceSchema = z.object({
  percent: z
    .number({ error: 'Escribe el porcentaje como número (por ejemplo 10 o -5.5).' })
    .min(-90, 'El porcentaje no puede ser menor que -90.')
    .max(500, 'El porcentaje no puede ser mayor que 500.')
    .refine(
      (p) => Math.abs(p * 100 - Math.round(p * 100)) < 1e-6,
      'El porcentaje admite como máximo dos decimales.',
    )
    .refine((p) => Math.round(p * 100) !== 0, 'El porcentaje no puede ser cero.'),
  category: CategorySchema.optional(),
});
export type BulkPriceInput = z.infer<typeof BulkPriceSchema>;

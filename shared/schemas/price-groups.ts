// Price groups and special prices: the shapes of /api/admin/price-groups and the customer's
// prices (docs/domain.md "Price groups"). Percentages travel as decimal strings ("12.5"), prices
// as money strings ("1.20").
import { z } from 'zod';
import { CATEGORY_SLUGS } from './catalogue';
import { parseAmount } from '../money';
import { parsePercent } from '../pricing';

const MAX_PRICE_CENTS = 10_000_000n;

export const PercentSchema = z
  .string({ error: 'Indica el porcentaje.' })
  .refine((v) => parsePercent(v) !== null, {
    message: 'Escribe un porcentaje entre 0 y 99.99, con hasta dos decimales (por ejemplo 12.5).',
  })
  .meta({ description: 'Porcentaje de descuento como texto decimal ("12.5").', example: '12.5' });

export const PriceSchema = z
  .string({ error: 'Indica el precio.' })
  .refine(
    (v) => {
      const cents = parseAmount(v);
      return cents !== null && cents > 0n && cents <= MAX_PRICE_CENTS;
    },
    { message: 'Escribe un precio mayor que 0 y hasta 100000, con hasta dos decimales.' },
  )
  .meta({ description: 'Precio en dólares como texto ("1.20").', example: '1.20' });

const UuidSchema = z.uuid({ error: 'El servicio no es válido.' });

export const PriceOverrideInputSchema = z
  .strictObject({
    category: z.enum(CATEGORY_SLUGS, { error: 'La categoría no existe.' }).optional(),
    serviceId: UuidSchema.optional(),
    discountPercent: PercentSchema.optional(),
    price: PriceSchema.optional(),
  })
  .superRefine((o, ctx) => {
    if ((o.category === undefined) === (o.serviceId === undefined))
      ctx.addIssue({
        code: 'custom',
        path: ['category'],
        message: 'Indica una categoría o un servicio (no ambos).',
      });
    if ((o.discountPercent === undefined) === (o.price === undefined))
      ctx.addIssue({
        code: 'custom',
        path: ['discountPercent'],
        message: 'Indica un descuento o un precio fijo (no ambos).',
      });
  })
  .meta({
    description:
      'Una excepción del grupo: para una categoría (`category`) o un servicio (`serviceId`), un descuento (`discountPercent`) o un precio fijo (`price`).',
  });
export type PriceOverrideInput = z.infer<typeof PriceOverrideInputSchema>;

export const PriceGroupInputSchema = z.strictObject({
  name: z
    .string({ error: 'Indica el nombre.' })
    .trim()
    .min(1, { error: 'Indica el nombre.' })
    .max(60, { error: 'El nombre admite hasta 60 caracteres.' }),
  discountPercent: PercentSchema,
  isDefault: z.boolean().default(false),
  overrides: z
    .array(PriceOverrideInputSchema)
    .max(500, { error: 'Un grupo admite hasta 500 excepciones.' })
    .default([]),
});
export type PriceGroupInput = z.input<typeof PriceGroupInputSchema>;

export const PriceGroupPatchSchema = PriceGroupInputSchema.partial();
export type PriceGroupPatch = z.input<typeof PriceGroupPatchSchema>;

export const PriceOverrideSchema = z.strictObject({
  category: z.string().nullable(),
  serviceId: z.string().nullable(),
  /** The service's name and base price, for an override of one service. */
  serviceName: z.string().nullable(),
  basePrice: z.string().nullable(),
  discountPercent: z.string().nullable(),
  price: z.string().nullable(),
  /** The price it gives is below the supplier's current cost (primary route). */
  belowCost: z.boolean(),
});
export type PriceOverrideDto = z.infer<typeof PriceOverrideSchema>;

export const PriceGroupSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  discountPercent: z.string(),
  isDefault: z.boolean(),
  /** Customers in the group (the default group: every customer without one). */
  customers: z.number().int(),
  overrides: z.array(PriceOverrideSchema),
  /** Some override gives a price below the supplier's cost. */
  belowCost: z.boolean(),
});
export type PriceGroupDto = z.infer<typeof PriceGroupSchema>;

export const PriceGroupListSchema = z.strictObject({ items: z.array(PriceGroupSchema) });
export type PriceGroupList = z.infer<typeof PriceGroupListSchema>;

export const SetPriceGroupSchema = z.strictObject({
  groupId: z.uuid({ error: 'El grupo no es válido.' }).nullable(),
});

export const SpecialPricesInputSchema = z.strictObject({
  items: z
    .array(z.strictObject({ serviceId: UuidSchema, price: PriceSchema }))
    .max(500, { error: 'Hasta 500 precios especiales por cliente.' }),
});
export type SpecialPricesInput = z.infer<typeof SpecialPricesInputSchema>;

export const SpecialPriceSchema = z.strictObject({
  serviceId: z.string(),
  serviceName: z.string(),
  basePrice: z.string(),
  price: z.string(),
  belowCost: z.boolean(),
});
export type SpecialPriceDto = z.infer<typeof SpecialPriceSchema>;

/** A customer's prices as the admin edits them. */
export const CustomerPricesSchema = z.strictObject({
  /** The customer's group (the default group when none was chosen). */
  group: z.strictObject({ id: z.string(), name: z.string(), isDefault: z.boolean() }).nullable(),
  /** The customer was put in this group by an admin (false: the default applies). */
  assigned: z.boolean(),
  specialPrices: z.array(SpecialPriceSchema),
});
export type CustomerPricesDto = z.infer<typeof CustomerPricesSchema>;

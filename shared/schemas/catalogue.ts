import { z } from 'zod';
import { CATEGORIES, type CategorySlug } from '../categories';
import { MoneySchema } from './common';

export const CategorySlugSchema = z.enum(
  CATEGORIES.map((c) => c.slug) as [CategorySlug, ...CategorySlug[]],
);

export const ServiceFieldTypeSchema = z.enum([
  'imei',
  'serial',
  'email',
  'username',
  'url',
  'number',
  'text',
  'select',
]);
export type ServiceFieldType = z.infer<typeof ServiceFieldTypeSchema>;

/** The input a service asks for. The IMEI field has the key `imei`. */
export const ServiceFieldSchema = z.strictObject({
  key: z.string(),
  label: z.string(),
  type: ServiceFieldTypeSchema,
  required: z.boolean(),
  /** serial: allowed lengths; text/username: max length. */
  minLength: z.number().int().optional(),
  maxLength: z.number().int().optional(),
  /** serial: letters allowed besides digits (default true). */
  allowLetters: z.boolean().optional(),
  /** number: bounds. */
  min: z.number().int().optional(),
  max: z.number().int().optional(),
  /** select: the choices. */
  options: z.array(z.string()).optional(),
  /** Shown under the field. */
  hint: z.string().optional(),
  /** This field is the identifier the duplicate-in-flight rule looks at. */
  identifier: z.boolean().optional(),
});
export type ServiceField = z.infer<typeof ServiceFieldSchema>;

/** A service as verified customers see it (GET /api/services). */
export const ServiceDtoSchema = z.strictObject({
  id: z.uuid(),
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
});
export type ServiceDto = z.infer<typeof ServiceDtoSchema>;

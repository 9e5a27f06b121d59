import { z } from 'zod';
import { parseAmount } from '../../../shared/money';
import { AmountSchema } from '../../../shared/schemas/wallet';

/** Most requests a customer can have waiting for review at once. */
export const MAX_PENDING_REQUESTS = 5;
/** Largest receipt file accepted. */
export const MAX_RECEIPT_BYTES = 5 * 1024 * 1024;
/** Largest request body accepted by POST /api/funds/requests (receipt + fields + multipart overhead). */
export const MAX_REQUEST_BODY_BYTES = 6 * 1024 * 1024;

export const RECEIPT_TOO_LARGE_MESSAGE = 'El comprobante no puede superar 5 MB.';
export const RECEIPT_TYPE_MESSAGE = 'El comprobante debe ser una imagen PNG, JPG o WEBP, o un PDF.';

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

const ReferenceSchema = z
  .string({ error: 'Escribe la referencia del pago.' })
  .trim()
  .min(3, 'La referencia debe tener al menos 3 caracteres.')
  .max(120, 'La referencia no puede tener más de 120 caracteres.')
  .refine((v) => !CONTROL_CHARACTERS.test(v), 'La referencia contiene caracteres no válidos.');

/** What the customer declares: the method, the amount sent and the bank/PayPal/transaction reference. */
export const ManualRequestSchema = z.object({
  methodId: z
    .string({ error: 'Elige un método de pago.' })
    .trim()
    .min(1, 'Elige un método de pago.')
    .max(100, 'Elige un método de pago.'),
  amount: AmountSchema,
  reference: ReferenceSchema,
});
export type ManualRequestInput = z.infer<typeof ManualRequestSchema>;

export const RejectSchema = z.object({
  reason: z
    .string({ error: 'Escribe el motivo del rechazo.' })
    .trim()
    .min(3, 'Escribe el motivo del rechazo (al menos 3 caracteres).')
    .max(500, 'El motivo no puede tener más de 500 caracteres.'),
});
export type RejectInput = z.infer<typeof RejectSchema>;

const MethodFields = z.object({
  name: z
    .string({ error: 'Escribe el nombre del método.' })
    .trim()
    .min(1, 'Escribe el nombre del método.')
    .max(80, 'El nombre no puede tener más de 80 caracteres.'),
  instructions: z
    .string({ error: 'Escribe las instrucciones de pago.' })
    .trim()
    .min(1, 'Escribe las instrucciones de pago.')
    .max(2000, 'Las instrucciones no pueden tener más de 2000 caracteres.'),
  minAmount: AmountSchema,
  maxAmount: AmountSchema,
  active: z.boolean({ error: 'Indica si el método está activo.' }),
  sortOrder: z
    .number({ error: 'El orden debe ser un número entero.' })
    .int('El orden debe ser un número entero.')
    .min(0, 'El orden no puede ser negativo.')
    .max(9999, 'El orden no puede ser mayor que 9999.'),
});

export const MIN_OVER_MAX_MESSAGE = 'El máximo debe ser mayor o igual que el mínimo.';

function minNotOverMax(v: { minAmount?: string; maxAmount?: string }): boolean {
  if (v.minAmount === undefined || v.maxAmount === undefined) return true;
  const min = parseAmount(v.minAmount);
  const max = parseAmount(v.maxAmount);
  return min === null || max === null || min <= max;
}

/** A new manual method; active and sortOrder may be left out. */
export const CreateMethodSchema = MethodFields.extend({
  active: MethodFields.shape.active.default(true),
  sortOrder: MethodFields.shape.sortOrder.default(0),
}).refine(minNotOverMax, { message: MIN_OVER_MAX_MESSAGE, path: ['maxAmount'] });
export type CreateMethodInput = z.infer<typeof CreateMethodSchema>;

/** A change to a method: any subset of the fields (min ≤ max is checked against the stored values too). */
export const UpdateMethodSchema = MethodFields.partial()
  .refine((v) => Object.values(v).some((x) => x !== undefined), {
    message: 'Indica al menos un cambio.',
    path: ['form'],
  })
  .refine(minNotOverMax, { message: MIN_OVER_MAX_MESSAGE, path: ['maxAmount'] });
export type UpdateMethodInput = z.infer<typeof UpdateMethodSchema>;

export const ADMIN_REQUEST_STATUSES = ['pending', 'completed', 'rejected'] as const;
export const AdminRequestStatusSchema = z.enum(ADMIN_REQUEST_STATUSES, {
  error: 'El estado debe ser pending, completed o rejected.',
});
export type AdminRequestStatus = z.infer<typeof AdminRequestStatusSchema>;

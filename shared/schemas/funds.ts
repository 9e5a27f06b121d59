import { z } from 'zod';
import { parseAmount } from '../money';
import { BalanceSchema, DateTimeSchema, MoneySchema } from './common';
import { AmountInputSchema, AmountSchema, PaymentDtoSchema } from './wallet';
import { FeeDtoSchema, FixedFeeSchema, PercentSchema } from './payments';

/** Most requests a customer can have waiting for review at once. */
export const MAX_PENDING_REQUESTS = 5;
/** Largest receipt file accepted. */
export const MAX_RECEIPT_BYTES = 5 * 1024 * 1024;
/** Largest request body accepted by POST /api/funds/requests (receipt + fields + multipart overhead). */
export const MAX_REQUEST_BODY_BYTES = 6 * 1024 * 1024;

/** The receipt files accepted (the server also checks the file's first bytes). */
export const RECEIPT_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'application/pdf'] as const;

export const RECEIPT_TOO_LARGE_MESSAGE = 'El comprobante no puede superar 5 MB.';
export const RECEIPT_TYPE_MESSAGE = 'El comprobante debe ser una imagen PNG, JPG o WEBP, o un PDF.';

// eslint-disable-next-line no-control-regex
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

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

/** The declaration as the /addfunds form reads it: the amount as typed («25,50»). */
export const ManualRequestTypedSchema = ManualRequestSchema.extend({ amount: AmountInputSchema });

/** The same declaration sent as a form (multipart), with the optional receipt file. */
export const ManualRequestFormSchema = ManualRequestSchema.extend({
  receipt: z
    .file()
    .mime([...RECEIPT_TYPES])
    .max(MAX_RECEIPT_BYTES)
    .optional(),
});

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
  /** The customer's fee on top of the amount: a percentage ("2.90") and a fixed part ("0.30"). */
  feePercent: PercentSchema,
  feeFixed: FixedFeeSchema,
});

export const MIN_OVER_MAX_MESSAGE = 'El máximo debe ser mayor o igual que el mínimo.';

function minNotOverMax(v: { minAmount?: string; maxAmount?: string }): boolean {
  if (v.minAmount === undefined || v.maxAmount === undefined) return true;
  const min = parseAmount(v.minAmount);
  const max = parseAmount(v.maxAmount);
  return min === null || max === null || min <= max;
}

/** A new manual method; active, sortOrder and the fee (none) may be left out. */
export const CreateMethodSchema = MethodFields.extend({
  active: MethodFields.shape.active.default(true),
  sortOrder: MethodFields.shape.sortOrder.default(0),
  feePercent: MethodFields.shape.feePercent.default('0.00'),
  feeFixed: MethodFields.shape.feeFixed.default('0.00'),
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

/** GET /api/admin/funds/requests?status=… */
export const AdminRequestsQuerySchema = z.object({
  status: AdminRequestStatusSchema.default('pending').meta({
    description: 'Estado de las solicitudes (por defecto `pending`).',
  }),
});

// ─── Responses ───────────────────────────────────────────────────────────────────────────────

/** What a customer sees of a manual method. */
export const PublicMethodDtoSchema = z.strictObject({
  id: z.uuid(),
  name: z.string(),
  instructions: z.string(),
  minAmount: MoneySchema,
  maxAmount: MoneySchema,
  /** What the customer pays on top of the amount they declare. */
  fee: FeeDtoSchema,
});
export type PublicMethodDto = z.infer<typeof PublicMethodDtoSchema>;

/** A manual method as admins see it. */
export const MethodDtoSchema = z.strictObject({
  ...PublicMethodDtoSchema.shape,
  active: z.boolean(),
  sortOrder: z.number().int(),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
});
export type MethodDto = z.infer<typeof MethodDtoSchema>;

/** GET /api/admin/funds/methods. */
export const MethodListSchema = z.strictObject({ items: z.array(MethodDtoSchema) });
export type MethodList = z.infer<typeof MethodListSchema>;

/** A manual top-up request as the review queue shows it. */
export const AdminRequestDtoSchema = z.strictObject({
  ...PaymentDtoSchema.shape,
  customer: z.strictObject({ id: z.string(), name: z.string(), email: z.string() }),
  methodId: z.uuid().nullable(),
});
export type AdminRequestDto = z.infer<typeof AdminRequestDtoSchema>;

/** GET /api/admin/funds/requests. */
export const AdminRequestListSchema = z.strictObject({ items: z.array(AdminRequestDtoSchema) });
export type AdminRequestList = z.infer<typeof AdminRequestListSchema>;

/** Approving a request: the payment as credited and the customer's available balance after. */
export const ApproveResultSchema = z.strictObject({
  payment: PaymentDtoSchema,
  balance: BalanceSchema,
});
export type ApproveResult = z.infer<typeof ApproveResultSchema>;

export const RejectResultSchema = z.strictObject({ payment: PaymentDtoSchema });
export type RejectResult = z.infer<typeof RejectResultSchema>;

/** GET /api/funds/methods: the card (null when not configured), manual methods, vouchers. */
export const FundingMethodsSchema = z.strictObject({
  card: z.strictObject({ minAmount: MoneySchema, maxAmount: MoneySchema }).nullable(),
  manual: z.array(PublicMethodDtoSchema),
  voucher: z.literal(true),
});
export type FundingMethods = z.infer<typeof FundingMethodsSchema>;

/** GET /api/funds/stripe: whether card top-ups are possible, and their limits. */
export const CardTopupConfigSchema = z.discriminatedUnion('available', [
  z.strictObject({ available: z.literal(true), minAmount: MoneySchema, maxAmount: MoneySchema }),
  z.strictObject({ available: z.literal(false), minAmount: z.null(), maxAmount: z.null() }),
]);
export type CardTopupConfig = z.infer<typeof CardTopupConfigSchema>;

/** POST /api/funds/stripe/checkout: the Stripe Checkout page to open. */
export const CardCheckoutSchema = z.strictObject({ paymentId: z.uuid(), url: z.url() });
export type CardCheckout = z.infer<typeof CardCheckoutSchema>;

/** POST /api/funds/stripe/checkout (the card limits are checked by the service). */
export const CardCheckoutRequestSchema = z.object(
  { amount: AmountSchema },
  { error: 'Envía el importe, por ejemplo { "amount": "25.00" }.' },
);

/** The card form on /addfunds: the amount as typed («25,50»), read into the API's "25.50". */
export const CardCheckoutTypedSchema = z.object({ amount: AmountInputSchema });

import { z } from 'zod';
import { parseAmount } from '../money';
import { parseAmountInput } from '../number-input';
import { BalanceSchema, DateTimeSchema, MoneySchema, SignedMoneySchema } from './common';

/** A positive amount in dollars with at most two decimals, as a string ("25" or "25.50"). */
export const AmountSchema = z
  .string({ error: 'Escribe un importe.' })
  .trim()
  .min(1, 'Escribe un importe.')
  .refine(
    (v) => parseAmount(v) !== null,
    'Escribe un importe válido, con hasta dos decimales (por ejemplo 25.50).',
  )
  .refine((v) => (parseAmount(v) ?? 0n) > 0n, 'El importe debe ser mayor que cero.');

/** A signed amount for admin adjustments ("-2.00" or "5.00"), never zero. */
export const SignedAmountSchema = z
  .string({ error: 'Escribe un importe.' })
  .trim()
  .refine((v) => parseAmount(v) !== null, 'Escribe un importe válido, con hasta dos decimales.')
  .refine((v) => parseAmount(v) !== 0n, 'El importe no puede ser cero.');

/**
 * An amount as a person types it in a form («25,50», «1.234,50», «1,234.50»: shared/number-input.ts),
 * read into the API's decimal string and then checked by the API's own schema. Forms only: the
 * JSON API takes the strict dot-decimal strings above.
 */
function amountInput<T extends z.ZodType<string, string>>(api: T) {
  return z
    .string({ error: 'Escribe un importe.' })
    .transform((text, ctx) => {
      const read = parseAmountInput(text);
      if (read.ok) return read.amount;
      ctx.addIssue({ code: 'custom', message: read.message });
      return z.NEVER;
    })
    .pipe(api);
}

/** AmountSchema for forms: what a person typed, decimal comma included, as "25.50". */
export const AmountInputSchema = amountInput(AmountSchema);
/** SignedAmountSchema for forms («-2,00»). */
export const SignedAmountInputSchema = amountInput(SignedAmountSchema);

export const AdjustmentSchema = z.object({
  amount: SignedAmountSchema,
  reason: z
    .string({ error: 'Escribe el motivo.' })
    .trim()
    .min(3, 'Escribe el motivo (al menos 3 caracteres).')
    .max(500, 'El motivo es demasiado largo.'),
});

export const WalletDtoSchema = z.strictObject({
  /** Saldo: negative while the customer owes on credit. */
  available: BalanceSchema,
  held: MoneySchema,
  /** How far below zero orders may take `available` ("0.00": no credit). */
  creditLimit: MoneySchema,
  /** What the customer can still spend: available + creditLimit, never below "0.00". */
  spendable: MoneySchema,
  currency: z.literal('USD'),
});
export type WalletDto = z.infer<typeof WalletDtoSchema>;

export const MovementDtoSchema = z.strictObject({
  id: z.string(),
  date: DateTimeSchema,
  kind: z.string(),
  description: z.string(),
  /** Signed: "+25.00" credits the account, "-3.00" debits it. */
  amount: SignedMoneySchema,
  balanceAfter: BalanceSchema,
  /** The numbered receipt of a top-up's credit (PDF at /api/receipts/:id/pdf), else null. */
  receipt: z.strictObject({ id: z.uuid(), number: z.string() }).nullable(),
});
export type MovementDto = z.infer<typeof MovementDtoSchema>;

export const MovementsPageSchema = z.strictObject({
  items: z.array(MovementDtoSchema),
  nextCursor: z.string().nullable(),
});
export type MovementsPage = z.infer<typeof MovementsPageSchema>;

export const PAYMENT_METHODS = [
  'stripe',
  'paypal',
  'crypto',
  'mercadopago',
  'manual',
  'voucher',
] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
/** The methods the customer pays through a provider's page (fees and limits set by the admin). */
export const GATEWAY_METHODS = ['stripe', 'paypal', 'crypto', 'mercadopago'] as const;
export type GatewayMethod = (typeof GATEWAY_METHODS)[number];
/**
 * pending: not paid yet (gateways) or waiting for review (manual); review: paid, waiting for
 * finance before it is credited (fraud hold, «En revisión»); completed: credited; reversed:
 * credited, then refunded or charged back (debited again); rejected; expired.
 */
export const PAYMENT_STATUSES = [
  'pending',
  'review',
  'completed',
  'reversed',
  'rejected',
  'expired',
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const PAYMENT_STATUS_LABELS: Record<PaymentStatus, string> = {
  pending: 'Pendiente de revisión',
  review: 'En revisión',
  completed: 'Acreditado',
  reversed: 'Revertido',
  rejected: 'Rechazado',
  expired: 'Caducado',
};

/** The status as the customer reads it: a gateway top-up that is pending is waiting for the payment. */
export function paymentStatusLabel(method: PaymentMethod, status: PaymentStatus): string {
  if (status === 'pending' && (GATEWAY_METHODS as readonly string[]).includes(method))
    return 'Esperando el pago';
  return PAYMENT_STATUS_LABELS[status];
}

export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  stripe: 'Tarjeta',
  paypal: 'PayPal',
  crypto: 'Criptomonedas',
  mercadopago: 'Mercado Pago',
  manual: 'Pago manual',
  voucher: 'Código de recarga',
};

export const PaymentDtoSchema = z.strictObject({
  id: z.uuid(),
  method: z.enum(PAYMENT_METHODS),
  methodName: z.string(),
  /** What the balance receives (or received). */
  amount: MoneySchema,
  /** The fee paid on top of `amount` ("0.00" when none). */
  fee: MoneySchema,
  status: z.enum(PAYMENT_STATUSES),
  reference: z.string().nullable(),
  rejectReason: z.string().nullable(),
  /** A line about how it was credited or why it waits (partial crypto payment, fraud hold). */
  note: z.string().nullable(),
  /** The customer's uploaded proof of a manual transfer exists. */
  hasReceipt: z.boolean(),
  /** The receipts issued for this top-up (one per credit; numbered R-YYYY-NNNNNN). */
  receipts: z.array(z.strictObject({ id: z.uuid(), number: z.string() })),
  createdAt: DateTimeSchema,
  reviewedAt: DateTimeSchema.nullable(),
});
export type PaymentDto = z.infer<typeof PaymentDtoSchema>;

/** GET /api/wallet/topups and GET /api/funds/requests. */
export const PaymentListSchema = z.strictObject({ items: z.array(PaymentDtoSchema) });
export type PaymentList = z.infer<typeof PaymentListSchema>;

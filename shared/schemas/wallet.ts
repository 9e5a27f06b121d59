import { z } from 'zod';
import { parseAmount } from '../money';

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

export const AdjustmentSchema = z.object({
  amount: SignedAmountSchema,
  reason: z
    .string({ error: 'Escribe el motivo.' })
    .trim()
    .min(3, 'Escribe el motivo (al menos 3 caracteres).')
    .max(500, 'El motivo es demasiado largo.'),
});

export type WalletDto = { available: string; held: string; currency: 'USD' };

export type MovementDto = {
  id: string;
  date: string;
  kind: string;
  description: string;
  /** Signed: "+25.00" credits the account, "-3.00" debits it. */
  amount: string;
  balanceAfter: string;
};

export type MovementsPage = { items: MovementDto[]; nextCursor: string | null };

export type PaymentMethod = 'stripe' | 'manual' | 'voucher';
export type PaymentStatus = 'pending' | 'completed' | 'rejected' | 'expired';

export const PAYMENT_STATUS_LABELS: Record<PaymentStatus, string> = {
  pending: 'Pendiente de revisión',
  completed: 'Acreditado',
  rejected: 'Rechazado',
  expired: 'Caducado',
};

export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  stripe: 'Tarjeta',
  manual: 'Pago manual',
  voucher: 'Código de recarga',
};

export type PaymentDto = {
  id: string;
  method: PaymentMethod;
  methodName: string;
  amount: string;
  status: PaymentStatus;
  reference: string | null;
  rejectReason: string | null;
  hasReceipt: boolean;
  createdAt: string;
  reviewedAt: string | null;
};

import { z } from 'zod';
import { BalanceSchema, DateTimeSchema, MoneySchema } from './common';
import { CONTROL_CHARACTERS } from './funds';
import { AmountSchema } from './wallet';

export const MAX_BATCH_SIZE = 1000;
export const MAX_NOTE_LENGTH = 200;

/** Blank form fields ("" or null) count as "not given". */
function blankToUndefined(value: unknown): unknown {
  if (value === null) return undefined;
  if (typeof value === 'string' && value.trim() === '') return undefined;
  return value;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;

/** True when year-month-day is a real calendar day (no "2026-02-31"). */
function isCalendarDay(year: number, month: number, day: number): boolean {
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

/**
 * An ISO date or date-time with a zone; null for anything else. A date alone means the end of
 * that day (UTC).
 */
export function parseExpiry(value: string): Date | null {
  const text = value.trim();
  const match = ISO_DATE.exec(text) ?? ISO_DATE_TIME.exec(text);
  if (!match) return null;
  if (!isCalendarDay(Number(match[1]), Number(match[2]), Number(match[3]))) return null;
  const date = new Date(ISO_DATE.test(text) ? `${text}T23:59:59.999Z` : text);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "2026-12-31T23:59:00Z", "2026-12-31T20:00:00-03:00" or a date alone ("2026-12-31"). */
const ExpiresAtSchema = z
  .string({ error: 'Escribe una fecha de caducidad válida.' })
  .trim()
  .refine(
    (v) => parseExpiry(v) !== null,
    'Escribe una fecha de caducidad válida (por ejemplo 2026-12-31).',
  )
  .refine(
    (v) => (parseExpiry(v)?.getTime() ?? 0) > Date.now(),
    'La fecha de caducidad debe ser futura.',
  );

export const CreateBatchSchema = z.object({
  amount: AmountSchema,
  // A JSON number, never coerced: "0x10", "1e3", true or ["5"] are refused (see vouchers.test.ts).
  count: z
    .number({ error: 'Escribe cuántos códigos quieres crear, como número entero.' })
    .int('La cantidad de códigos debe ser un número entero.')
    .min(1, 'Crea al menos 1 código.')
    .max(MAX_BATCH_SIZE, `No puedes crear más de ${MAX_BATCH_SIZE} códigos a la vez.`),
  expiresAt: z.preprocess(blankToUndefined, ExpiresAtSchema.optional()),
  note: z.preprocess(
    blankToUndefined,
    z
      .string({ error: 'La nota debe ser texto.' })
      .trim()
      .max(MAX_NOTE_LENGTH, `La nota no puede tener más de ${MAX_NOTE_LENGTH} caracteres.`)
      .refine((v) => !CONTROL_CHARACTERS.test(v), 'La nota contiene caracteres no válidos.')
      .optional(),
  ),
});

export type CreateBatchInput = z.infer<typeof CreateBatchSchema>;

export const RedeemSchema = z.object({
  code: z
    .string({ error: 'Escribe el código.' })
    .trim()
    .min(1, 'Escribe el código.')
    .max(64, 'El código no es válido.')
    .refine((v) => !CONTROL_CHARACTERS.test(v), 'El código no es válido.'),
});

export type RedeemInput = z.infer<typeof RedeemSchema>;

export type VoucherState = 'disponible' | 'canjeado' | 'caducado';

// ─── Responses ───────────────────────────────────────────────────────────────────────────────

export const VoucherBatchDtoSchema = z.strictObject({
  id: z.uuid(),
  /** Value of each code, "10.00". */
  amount: MoneySchema,
  count: z.number().int(),
  redeemed: z.number().int(),
  expiresAt: DateTimeSchema.nullable(),
  note: z.string().nullable(),
  createdAt: DateTimeSchema,
  createdBy: z.string(),
});
export type VoucherBatchDto = z.infer<typeof VoucherBatchDtoSchema>;

/** GET /api/admin/vouchers. */
export const VoucherBatchListSchema = z.strictObject({ items: z.array(VoucherBatchDtoSchema) });
export type VoucherBatchList = z.infer<typeof VoucherBatchListSchema>;

/** POST /api/admin/vouchers: the batch and its codes, shown once. */
export const CreatedBatchDtoSchema = z.strictObject({
  batch: VoucherBatchDtoSchema,
  codes: z.array(z.string()),
});
export type CreatedBatchDto = z.infer<typeof CreatedBatchDtoSchema>;

/** POST /api/funds/redeem. */
export const RedeemResultSchema = z.strictObject({
  amount: MoneySchema,
  available: BalanceSchema,
  message: z.string(),
});
export type RedeemResultDto = z.infer<typeof RedeemResultSchema>;

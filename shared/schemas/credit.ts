import { z } from 'zod';
import { parseAmount } from '../money';
import { parseAmountInput } from '../number-input';
import { BalanceSchema, MoneySchema } from './common';

/** The most credit one customer may be given, in cents (US$1,000,000.00). */
export const MAX_CREDIT_LIMIT = 100_000_000n;

/** PUT /api/admin/users/:id/credit-limit: the new limit in dollars; "0.00" removes it. */
export const CreditLimitInputSchema = z.strictObject({
  amount: z
    .string({ error: 'Escribe un límite.' })
    .trim()
    .min(1, 'Escribe un límite.')
    .refine((v) => {
      const cents = parseAmount(v);
      return cents !== null && cents >= 0n;
    }, 'Escribe un límite válido, con hasta dos decimales (0 lo quita).')
    .refine(
      (v) => (parseAmount(v) ?? 0n) <= MAX_CREDIT_LIMIT,
      'El límite no puede pasar de US$1,000,000.00.',
    ),
});
export type CreditLimitInput = z.infer<typeof CreditLimitInputSchema>;

/** A customer's credit as the back office sees it. */
export const CreditLimitResultSchema = z.strictObject({
  userId: z.string(),
  /** The limit now in force ("0.00": no credit). */
  creditLimit: MoneySchema,
  /** Saldo (negative while they owe). */
  available: BalanceSchema,
  /** What they can still spend: available + limit, never below "0.00". */
  spendable: MoneySchema,
  /** What they owe: minus the balance when it is negative, else "0.00". */
  debt: MoneySchema,
});
export type CreditLimitResult = z.infer<typeof CreditLimitResultSchema>;

/** One customer who owes money (GET /api/admin/debts). */
export const DebtorSchema = z.strictObject({
  userId: z.string(),
  name: z.string(),
  email: z.string(),
  available: BalanceSchema,
  debt: MoneySchema,
  creditLimit: MoneySchema,
  /** true when the debt is larger than the limit now in force (the limit was lowered). */
  overLimit: z.boolean(),
});
export type Debtor = z.infer<typeof DebtorSchema>;

export const DebtorListSchema = z.strictObject({
  items: z.array(DebtorSchema),
  /** The sum of every debt listed. */
  total: MoneySchema,
});
export type DebtorList = z.infer<typeof DebtorListSchema>;

/** The credit-limit form: the amount as a person types it («150», «1.250,00»), "0" removes it. */
export const CreditLimitFormSchema = z.strictObject({
  amount: z
    .string({ error: 'Escribe un límite.' })
    .transform((text, ctx) => {
      const read = parseAmountInput(text);
      if (read.ok) return read.amount;
      ctx.addIssue({ code: 'custom', message: read.message });
      return z.NEVER;
    })
    .pipe(CreditLimitInputSchema.shape.amount),
});

import { z } from 'zod';
import { MoneySchema } from './common';

/** The admin customer search (GET /api/admin/users?q=…) looks for at least this many characters. */
export const CUSTOMER_SEARCH_MIN_LENGTH = 2;
/** …and reads at most this many. */
export const CUSTOMER_SEARCH_MAX_LENGTH = 100;

/** A customer found by the admin search, with their available balance. */
export const CustomerSummarySchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.string(),
  emailVerified: z.boolean(),
  available: MoneySchema,
});
export type CustomerSummary = z.infer<typeof CustomerSummarySchema>;

/** GET /api/admin/users?q=… */
export const CustomerListSchema = z.strictObject({ items: z.array(CustomerSummarySchema) });
export type CustomerList = z.infer<typeof CustomerListSchema>;

/** POST /api/admin/users/:id/adjustments: the balances after, and whether it was a replay. */
export const AdjustmentResultSchema = z.strictObject({
  available: MoneySchema,
  held: MoneySchema,
  transferId: z.string(),
  replayed: z.boolean(),
});
export type AdjustmentResult = z.infer<typeof AdjustmentResultSchema>;

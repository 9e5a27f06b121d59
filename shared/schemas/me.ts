import { z } from 'zod';
import { roleSchema } from './roles';

export const MeSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  role: roleSchema,
  balance: z.string(),
  /** TOTP is on; staff without it reach only /activar-dos-pasos (403 TWO_FACTOR_REQUIRED). */
  twoFactorEnabled: z.boolean(),
  /** The price group the customer's prices come from (the default group when none was chosen). */
  priceGroup: z.strictObject({ id: z.string(), name: z.string() }).nullable(),
});
export type Me = z.infer<typeof MeSchema>;

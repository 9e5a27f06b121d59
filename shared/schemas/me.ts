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
  /**
   * The header's support badge: a customer's tickets with answers not read yet; for staff of
   * the desk, tickets waiting for the shop (open); null for staff without the desk.
   */
  unreadTickets: z.number().int().nullable(),
});
export type Me = z.infer<typeof MeSchema>;

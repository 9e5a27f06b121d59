import { z } from 'zod';
import { roleSchema } from '../roles';

export const MeSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  role: roleSchema,
  balance: z.string(),
  /** TOTP is on; staff without it reach only /activar-dos-pasos (403 TWO_FACTOR_REQUIRED). */
  twoFactorEnabled: z.boolean(),
});
export type Me = z.infer<typeof MeSchema>;

import { z } from 'zod';

export const MeSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  role: z.enum(['customer', 'admin']),
  balance: z.string(),
});
export type Me = z.infer<typeof MeSchema>;

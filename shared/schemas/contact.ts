import { z } from 'zod';
import { EmailSchema } from './auth';

export const ContactSchema = z.object({
  name: z
    .string({ error: 'Escribe tu nombre.' })
    .trim()
    .min(1, 'Escribe tu nombre.')
    .max(80, 'El nombre no puede tener más de 80 caracteres.'),
  email: EmailSchema,
  subject: z
    .string({ error: 'Escribe el asunto.' })
    .trim()
    .min(3, 'El asunto debe tener al menos 3 caracteres.')
    .max(120, 'El asunto no puede tener más de 120 caracteres.'),
  message: z
    .string({ error: 'Escribe tu mensaje.' })
    .trim()
    .min(10, 'El mensaje debe tener al menos 10 caracteres.')
    .max(5000, 'El mensaje no puede tener más de 5000 caracteres.'),
});
export type Contact = z.infer<typeof ContactSchema>;

/** POST /api/contact: the message's id and a Spanish confirmation. */
export const ContactReceiptSchema = z.strictObject({ id: z.string(), message: z.string() });
export type ContactReceipt = z.infer<typeof ContactReceiptSchema>;

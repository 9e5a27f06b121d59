// Files for a service's file field: the upload form (POST /api/order-files), what it answers,
// and the file an order carries (on its detail). Limits and checks: shared/files.ts.
import { z } from 'zod';

/** The text fields of the upload form; the file itself is the part named `file`. */
export const OrderFileUploadSchema = z.object({
  serviceId: z
    .string({ error: 'Indica el servicio.' })
    .min(1, 'Indica el servicio.')
    .max(64, 'Indica el servicio.'),
  field: z
    .string({ error: 'Indica el campo del archivo.' })
    .min(1, 'Indica el campo del archivo.')
    .max(32, 'Indica el campo del archivo.'),
});
export type OrderFileUpload = z.infer<typeof OrderFileUploadSchema>;

/** The form as documented (the `file` part is binary). */
export const OrderFileUploadFormSchema = OrderFileUploadSchema.extend({
  file: z.string().describe('El archivo (parte binaria del formulario).'),
});

/** An order's file, as its detail lists it (download: GET /api/orders/:id/files/:fileId). */
export const OrderFileDtoSchema = z.strictObject({
  id: z.uuid(),
  fieldKey: z.string(),
  name: z.string(),
  size: z.number().int(),
});
export type OrderFileDto = z.infer<typeof OrderFileDtoSchema>;

/** What an upload answers: the id the order's file field then carries. */
export const UploadedOrderFileSchema = z.strictObject({
  ...OrderFileDtoSchema.shape,
  serviceId: z.uuid(),
});
export type UploadedOrderFile = z.infer<typeof UploadedOrderFileSchema>;

/** `/api/orders/:id/files/:fileId`. */
export const OrderFileParamsSchema = z.object({
  id: z.guid().describe('Identificador de la orden (UUID).'),
  fileId: z.guid().describe('Identificador del archivo (UUID).'),
});

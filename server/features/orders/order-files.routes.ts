// Files for a service's file field: the upload an order then names, and the downloads of an
// order's file for its owner and for admins (docs/domain.md §4, "File fields").
import type { Context } from 'hono';
import { FILE_MAX_BYTES, formatBytes } from '../../../shared/files';
import {
  OrderFileParamsSchema,
  OrderFileUploadFormSchema,
  OrderFileUploadSchema,
} from '../../../shared/schemas/order-files';
import { attachmentDisposition } from '../../lib/download';
import { AppError } from '../../lib/errors';
import type { AppEnv } from '../../lib/http';
import { defineRoute, type SuccessSpec } from '../../lib/route';
import { orderFileForDownload, storeOrderFile } from './order-files.service';

const FILE_RESPONSE: SuccessSpec = {
  status: 200,
  description: 'El archivo, siempre como descarga.',
  body: {
    media: ['application/octet-stream'],
    description: 'El archivo tal como se subió.',
  },
};

/** Never displayed on our origin: a download, in a sandbox, never sniffed. */
function sendFile(c: Context<AppEnv>, file: { name: string; size: number; data: Buffer }) {
  return c.body(new Uint8Array(file.data), 200, {
    'Content-Type': 'application/octet-stream',
    'Content-Length': String(file.size),
    'Content-Disposition': attachmentDisposition(file.name),
    'Content-Security-Policy': "sandbox; default-src 'none'",
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'private, no-store',
  });
}

/** POST /api/order-files and the customer's download. */
export const orderFileRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/order-files',
    operationId: 'uploadOrderFile',
    tag: 'Órdenes',
    summary: 'Subir el archivo que pide un servicio',
    description: `Para los servicios con un campo de tipo \`file\`: sube el archivo (formulario \`multipart/form-data\` con \`serviceId\`, \`field\`, la clave del campo, y \`file\`) y responde su \`id\`, que la orden lleva después en ese campo (\`POST /api/orders\` con \`fields: { "<clave>": "<id>" }\`). Se comprueban el tamaño y las extensiones que admite el campo (como mucho ${formatBytes(FILE_MAX_BYTES)}) y, cuando se puede, que el contenido corresponda a la extensión. Un archivo sirve para una sola orden; si ninguna lo usa en 24 horas, se borra.`,
    access: 'customer',
    body: { schema: OrderFileUploadSchema, form: OrderFileUploadFormSchema },
    // The largest file plus the form's other fields and the multipart overhead.
    bodyLimit: FILE_MAX_BYTES + 64 * 1024,
    bodyLimitMessage: `El archivo es demasiado grande (máximo ${formatBytes(FILE_MAX_BYTES)}).`,
    rateLimit: {
      name: 'order-file',
      per: 'user',
      window: 600,
      max: 60,
      message: 'Has subido demasiados archivos seguidos. Espera unos minutos.',
    },
    responses: [{ status: 201, description: 'Archivo guardado.', body: 'UploadedOrderFile' }],
    errors: ['NOT_FOUND', 'CONFLICT', 'PAYLOAD_TOO_LARGE'],
    handler: async ({ c, deps, user, body, files }) => {
      const file = files.file;
      if (!file || file.size === 0)
        throw new AppError('VALIDATION_FAILED', undefined, {
          file: file ? 'El archivo está vacío.' : 'Adjunta el archivo.',
        });
      const stored = await storeOrderFile(deps.db, user.id, {
        serviceId: body.serviceId,
        fieldKey: body.field,
        name: file.name,
        bytes: new Uint8Array(await file.arrayBuffer()),
      });
      c.get('logger').info(
        { fileId: stored.id, size: stored.size, serviceId: stored.serviceId },
        'order file uploaded',
      );
      return c.json(stored, 201);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/orders/:id/files/:fileId',
    operationId: 'downloadOrderFile',
    tag: 'Órdenes',
    summary: 'Descargar el archivo de una orden propia',
    description:
      'Siempre como descarga (`Content-Disposition: attachment`), nunca para mostrarlo en la página.',
    access: 'customer',
    params: OrderFileParamsSchema,
    responses: [FILE_RESPONSE],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, user, params }) =>
      sendFile(c, await orderFileForDownload(deps.db, params.id, params.fileId, user.id)),
  }),
];

/** The admin's download of any order's file. */
export const orderFileAdminRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/admin/orders/:id/files/:fileId',
    operationId: 'adminDownloadOrderFile',
    tag: 'Administración',
    summary: 'Descargar el archivo de una orden',
    description:
      'El archivo que el cliente dio al pedir, siempre como descarga (`Content-Disposition: attachment`).',
    access: 'admin',
    roles: ['admin', 'support'],
    params: OrderFileParamsSchema,
    responses: [FILE_RESPONSE],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, params }) =>
      sendFile(c, await orderFileForDownload(deps.db, params.id, params.fileId, null)),
  }),
];

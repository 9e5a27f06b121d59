// /api/admin/services/:id/stock and /api/admin/orders/:id/replace-item (decision 0023).
import { idParams } from '../../../shared/schemas/query';
import { ReplaceItemSchema, STOCK_UPLOAD_MAX_BYTES } from '../../../shared/schemas/stock';
import { CSV_CONTENT_TYPE, csvDateTime, toCsv } from '../../lib/csv';
import { attachmentDisposition } from '../../lib/download';
import { AppError } from '../../lib/errors';
import { defineRoute } from '../../lib/route';
import { notifyCustomer } from '../orders/orders.notify';
import { adminOrderFor } from '../staff/staff-view';
import { adminGetOrder } from '../suppliers/admin-orders.service';
import { notifyLowStock } from './stock.emails';
import { exportUnsold, replaceItem, stockSummary, uploadStock } from './stock.service';
import type { Context } from 'hono';

const SERVICE_ID = idParams('Identificador del servicio (UUID).');
const ORDER_ID = idParams('Identificador de la orden (UUID).');

const TEXT_TYPE = /^text\/(?:plain|csv)\s*(?:;|$)/i;
const MULTIPART_TYPE = /^multipart\/form-data\s*(?:;|$)/i;

/** The upload's text: a `text/plain` body, or the `file` of a multipart form (TXT or CSV). */
async function uploadText(c: Context): Promise<string> {
  const type = c.req.header('content-type') ?? '';
  if (TEXT_TYPE.test(type)) return c.req.text();
  if (MULTIPART_TYPE.test(type)) {
    let form: Record<string, string | File | (string | File)[]>;
    try {
      form = await c.req.parseBody({ all: true });
    } catch {
      throw new AppError('BAD_REQUEST', 'El formulario enviado no es válido.');
    }
    const file = form.file;
    if (file instanceof File) return file.text();
    if (typeof file === 'string') return file;
    throw new AppError('VALIDATION_FAILED', undefined, {
      file: 'Adjunta el archivo con los artículos (campo «file»), uno por línea.',
    });
  }
  throw new AppError(
    'UNSUPPORTED_MEDIA_TYPE',
    'Envía los artículos como texto (Content-Type: text/plain), uno por línea, o como archivo en un formulario multipart (campo «file»).',
  );
}

export const stockAdminRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/admin/services/:id/stock',
    operationId: 'adminGetStock',
    tag: 'Administración',
    summary: 'Stock de un servicio: disponibles, vendidos, defectuosos',
    description:
      'Los conteos, el umbral de poco stock y los 100 artículos más recientes, de cada uno solo sus últimos 4 caracteres.',
    access: 'admin',
    roles: ['admin'],
    params: SERVICE_ID,
    responses: [{ status: 200, description: 'El stock del servicio.', body: 'StockSummary' }],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, params }) => c.json(await stockSummary(deps.db, params.id)),
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/services/:id/stock',
    operationId: 'adminUploadStock',
    tag: 'Administración',
    summary: 'Cargar artículos al stock de un servicio (uno por línea)',
    description:
      'El cuerpo es texto (`Content-Type: text/plain`), un artículo por línea, o un formulario `multipart/form-data` con el archivo TXT o CSV en el campo `file`. Hasta 10 000 líneas y 500 caracteres por artículo. Se añaden las líneas válidas y se rechazan las demás con su número de línea y el motivo (vacía, demasiado larga, repetida en la carga o ya en el stock del servicio). Los artículos se guardan cifrados.',
    access: 'admin',
    roles: ['admin'],
    params: SERVICE_ID,
    bodyLimit: STOCK_UPLOAD_MAX_BYTES,
    responses: [
      {
        status: 200,
        description: 'Cuántos se añadieron y qué líneas se rechazaron.',
        body: 'StockUploadResult',
      },
    ],
    errors: ['NOT_FOUND', 'VALIDATION_FAILED', 'BAD_REQUEST', 'UNSUPPORTED_MEDIA_TYPE'],
    handler: async ({ c, deps, user, params }) => {
      const text = await uploadText(c);
      return c.json(
        await uploadStock(deps.db, deps.env, user.id, params.id, text, c.get('clientIp')),
      );
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/services/:id/stock/export',
    operationId: 'adminExportStock',
    tag: 'Administración',
    summary: 'Descargar los artículos sin vender (CSV, queda en la auditoría)',
    description:
      'Los artículos disponibles completos, en CSV (UTF-8 con BOM y `;`): la única forma de volver a leerlos después de cargarlos. Cada descarga queda registrada en la auditoría.',
    access: 'admin',
    roles: ['admin'],
    params: SERVICE_ID,
    responses: [
      {
        status: 200,
        description: 'El archivo `stock-<servicio>.csv`.',
        body: { media: ['text/csv'], description: 'CSV con las columnas Artículo y Cargado.' },
      },
    ],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, user, params }) => {
      const exported = await exportUnsold(deps.db, deps.env, user.id, params.id, c.get('clientIp'));
      const style = { format: 'excel' as const, timeZone: null };
      c.header('Content-Type', CSV_CONTENT_TYPE);
      c.header('Content-Disposition', attachmentDisposition(`stock-${exported.name}.csv`));
      c.header('Cache-Control', 'no-store');
      return c.body(
        toCsv(
          ['Artículo', 'Cargado'],
          exported.items.map((i) => [i.item, csvDateTime(i.createdAt, style)]),
          'excel',
        ),
      );
    },
  }),
];

export const stockOrderAdminRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/admin/orders/:id/replace-item',
    operationId: 'adminReplaceStockItem',
    tag: 'Administración',
    summary: 'Reemplazar el artículo de una orden entregada desde stock',
    description:
      'El artículo entregado se marca como defectuoso (ambos quedan con la orden), la orden pasa a tener otro artículo disponible como resultado y se avisa al cliente. Queda en la auditoría. Sin otro artículo: 409 `OUT_OF_STOCK`.',
    access: 'admin',
    roles: ['admin', 'support'],
    params: ORDER_ID,
    body: { schema: ReplaceItemSchema, required: false },
    responses: [
      { status: 200, description: 'La orden con su nuevo artículo.', body: 'AdminOrderDto' },
    ],
    errors: ['NOT_FOUND', 'CONFLICT', 'OUT_OF_STOCK'],
    handler: async ({ c, deps, user, params, body }) => {
      const { row, lowStock } = await replaceItem(
        deps.db,
        deps.env,
        user.id,
        params.id,
        body?.note,
        c.get('clientIp'),
      );
      notifyCustomer(deps, row, 'completed');
      if (lowStock) notifyLowStock(deps, row.serviceId);
      return c.json(adminOrderFor(user.role, await adminGetOrder(deps.db, row.id, user.role)));
    },
  }),
];

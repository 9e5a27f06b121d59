// GET /api/receipts (the customer's numbered receipts and their PDFs) and /api/admin/receipts
// (finance: every receipt of a range of days, as JSON or CSV, and any receipt's PDF).
import type { Context } from 'hono';
import { AdminReceiptsQuerySchema, ReceiptsQuerySchema } from '../../../shared/schemas/payments';
import { idParams } from '../../../shared/schemas/query';
import { CSV_CONTENT_TYPE } from '../../lib/csv';
import { attachmentDisposition } from '../../lib/download';
import type { AppEnv } from '../../lib/http';
import { defineRoute, type SuccessSpec } from '../../lib/route';
import {
  dayRange,
  listMyReceipts,
  listReceipts,
  receiptPdf,
  receiptsCsv,
} from './receipts.service';

const RECEIPT_ID = 'Identificador del recibo (UUID).';

const PDF_RESPONSE: SuccessSpec = {
  status: 200,
  description: 'El recibo en PDF, siempre como descarga (`R-AAAA-NNNNNN.pdf`).',
  body: {
    media: ['application/pdf'],
    description:
      'Una página A4 en español: número, fecha de emisión, datos de la tienda y del cliente tal como eran al emitirlo, concepto, método, importe acreditado, comisión y total pagado.',
  },
};

/** A download, never displayed on our origin, never cached, never sniffed. */
function sendPdf(c: Context<AppEnv>, file: { number: string; pdf: Buffer }) {
  return c.body(new Uint8Array(file.pdf), 200, {
    'Content-Type': 'application/pdf',
    'Content-Length': String(file.pdf.length),
    'Content-Disposition': attachmentDisposition(`${file.number}.pdf`),
    'Content-Security-Policy': "sandbox; default-src 'none'",
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'private, no-store',
  });
}

/** The customer's receipts. */
export const receiptRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/receipts',
    operationId: 'listMyReceipts',
    tag: 'Recargas',
    summary: 'Mis recibos de recarga',
    description:
      'Un recibo numerado por cada abono de una recarga (tarjeta, PayPal, cripto, Mercado Pago, pago manual o código), del más reciente al más antiguo, en páginas de 50. Los números (`R-AAAA-NNNNNN`) no tienen huecos dentro de un año.',
    access: 'customer',
    query: ReceiptsQuerySchema,
    responses: [{ status: 200, description: 'Una página de recibos.', body: 'ReceiptList' }],
    errors: ['BAD_REQUEST'],
    handler: async ({ c, deps, user, query }) =>
      c.json(await listMyReceipts(deps.db, user.id, query.cursor)),
  }),
  defineRoute({
    method: 'get',
    path: '/api/receipts/:id/pdf',
    operationId: 'downloadMyReceiptPdf',
    tag: 'Recargas',
    summary: 'Descargar el PDF de un recibo propio',
    description:
      'Siempre como descarga (`Content-Disposition: attachment`). Un recibo de otra cuenta responde 404, igual que uno que no existe.',
    access: 'customer',
    params: idParams(RECEIPT_ID),
    rateLimit: {
      name: 'receipt-pdf',
      per: 'user',
      window: 600,
      max: 300,
      message: 'Has descargado demasiados recibos seguidos. Espera unos minutos.',
    },
    responses: [PDF_RESPONSE],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, user, params }) =>
      sendPdf(c, await receiptPdf(deps.db, params.id, user.id, deps.env.APP_NAME)),
  }),
];

/** Finance's receipts. */
export const receiptAdminRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/admin/receipts',
    operationId: 'adminListReceipts',
    tag: 'Administración',
    summary: 'Recibos emitidos entre dos fechas (JSON o CSV)',
    description:
      'Los recibos emitidos entre `from` y `to` (días UTC `AAAA-MM-DD`, ambos incluidos; sin `to`, hoy; sin `from`, el primer día del mes de `to`). En JSON, del más reciente al más antiguo, en páginas de 50. Con `format=csv`, todos los del periodo en un archivo `recibos-<from>-<to>.csv` (UTF-8, separado por comas, saltos de línea CRLF, del más antiguo al más reciente, fechas ISO 8601 en UTC, importes como en la API), con las columnas número, fecha, cliente, correo, método, concepto, importe, comisión, total, importe cobrado, moneda cobrada e id de pago. Solo administradores y finanzas.',
    access: 'admin',
    roles: ['admin', 'finance'],
    query: AdminReceiptsQuerySchema,
    responses: [
      {
        status: 200,
        description:
          'Una página de recibos (o el archivo `recibos-<from>-<to>.csv` con `format=csv`).',
        body: 'ReceiptList',
      },
    ],
    errors: ['BAD_REQUEST', 'VALIDATION_FAILED'],
    handler: async ({ c, deps, query }) => {
      const range = dayRange(query);
      if (query.format === 'csv') {
        return c.body(await receiptsCsv(deps.db, range), 200, {
          'Content-Type': CSV_CONTENT_TYPE,
          'Content-Disposition': `attachment; filename="recibos-${range.from}-${range.to}.csv"`,
          'Cache-Control': 'private, no-store',
        });
      }
      return c.json(await listReceipts(deps.db, range, query.cursor));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/receipts/:id/pdf',
    operationId: 'adminDownloadReceiptPdf',
    tag: 'Administración',
    summary: 'Descargar el PDF de un recibo',
    description:
      'El recibo de cualquier cliente, siempre como descarga. Solo administradores y finanzas.',
    access: 'admin',
    roles: ['admin', 'finance'],
    params: idParams(RECEIPT_ID),
    responses: [PDF_RESPONSE],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, params }) =>
      sendPdf(c, await receiptPdf(deps.db, params.id, null, deps.env.APP_NAME)),
  }),
];

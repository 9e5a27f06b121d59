import { formatUsd } from '../../../shared/money';
import { CsvExportQuerySchema, idParams } from '../../../shared/schemas/query';
import {
  CreateBatchSchema,
  RedeemSchema,
  type RedeemResultDto,
} from '../../../shared/schemas/vouchers';
import { CSV_CONTENT_TYPE } from '../../lib/csv';
import { defineRoute } from '../../lib/route';
import { batchCsv, createBatch, listBatches, redeem } from './vouchers.service';

/** POST /api/funds/redeem: a verified customer spends a code and gets its value as balance. */
export const voucherRedeemRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/funds/redeem',
    operationId: 'redeemVoucher',
    tag: 'Recargas',
    summary: 'Canjear un código de recarga',
    description:
      'Suma al saldo el valor del código, una sola vez. Un código desconocido responde 404; uno ya canjeado, 409; uno caducado, 400. Como máximo 10 intentos cada 10 minutos.',
    access: 'customer',
    // Guessing limit per customer: every attempt counts, right or wrong (checked before the body).
    rateLimit: {
      name: 'voucher',
      per: 'user',
      window: 10 * 60,
      max: 10,
      message: 'Has probado demasiados códigos. Espera unos minutos e inténtalo de nuevo.',
    },
    body: { schema: RedeemSchema },
    responses: [{ status: 200, description: 'Código canjeado.', body: 'RedeemResult' }],
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ c, deps, user, body }) => {
      const result = await redeem(deps.db, user.id, body.code);
      const answer: RedeemResultDto = {
        ...result,
        message: `Código canjeado: se añadieron ${formatUsd(result.amount)} a tu saldo.`,
      };
      return c.json(answer, 200);
    },
  }),
];

/** /api/admin/vouchers: batches of prepaid codes (admins only). */
export const voucherAdminRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/admin/vouchers',
    operationId: 'adminCreateVoucherBatch',
    tag: 'Administración',
    summary: 'Crear un lote de códigos de recarga',
    description: 'Los códigos solo se devuelven aquí y en la exportación CSV del lote.',
    access: 'admin',
    roles: ['admin', 'finance'],
    body: { schema: CreateBatchSchema },
    responses: [{ status: 201, description: 'El lote y sus códigos.', body: 'CreatedBatchDto' }],
    handler: async ({ c, deps, user, body }) =>
      c.json(await createBatch(deps.db, user.id, body, c.get('clientIp')), 201),
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/vouchers',
    operationId: 'adminListVoucherBatches',
    tag: 'Administración',
    summary: 'Lotes de códigos de recarga',
    access: 'admin',
    roles: ['admin', 'finance'],
    responses: [{ status: 200, description: 'Los lotes.', body: 'VoucherBatchList' }],
    handler: async ({ c, deps }) => c.json({ items: await listBatches(deps.db) }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/vouchers/:id/export.csv',
    operationId: 'adminExportVoucherBatch',
    tag: 'Administración',
    summary: 'Exportar los códigos de un lote a CSV',
    access: 'admin',
    roles: ['admin', 'finance'],
    description:
      'Por defecto, el archivo que abre tal cual un Excel en español (UTF-8 con BOM, `;`, fechas locales, importes con coma decimal); con `format=rfc4180`, CSV simple para programas (columnas codigo, importe, estado, canjeado_por, canjeado_el y caduca).',
    params: idParams('Identificador del lote (UUID).'),
    query: CsvExportQuerySchema,
    responses: [
      {
        status: 200,
        description: 'El archivo `vales-<id>.csv`.',
        body: {
          media: ['text/csv'],
          description:
            'Un código por línea, con su estado, en UTF-8 y saltos de línea CRLF: con BOM y `;` por defecto, separado por comas y sin BOM con `format=rfc4180`.',
        },
      },
    ],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, params, query }) =>
      c.body(
        await batchCsv(deps.db, params.id, {
          format: query.format ?? 'excel',
          timeZone: query.tz ?? null,
        }),
        200,
        {
          'Content-Type': CSV_CONTENT_TYPE,
          'Content-Disposition': `attachment; filename="vales-${params.id}.csv"`,
          'Cache-Control': 'no-store',
        },
      ),
  }),
];

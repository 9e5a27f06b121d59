import type { Context } from 'hono';
import { formatAmount } from '../../../shared/money';
import {
  AdminRequestsQuerySchema,
  CreateMethodSchema,
  MAX_RECEIPT_BYTES,
  MAX_REQUEST_BODY_BYTES,
  ManualRequestFormSchema,
  ManualRequestSchema,
  RECEIPT_TOO_LARGE_MESSAGE,
  RejectSchema,
  UpdateMethodSchema,
} from '../../../shared/schemas/funds';
import { idParams } from '../../../shared/schemas/query';
import { downloadHeaders } from '../../lib/download';
import { AppError } from '../../lib/errors';
import type { AppEnv } from '../../lib/http';
import { defineRoute, type RouteDeps, type SuccessSpec } from '../../lib/route';
import { gatewayTerms } from '../payments/topup-terms';
import {
  approve,
  createMethod,
  createRequest,
  listMethods,
  listRequests,
  listRequestsByStatus,
  receiptFile,
  reject,
  toPublicMethodDto,
  updateMethod,
  type ReceiptFile,
  type ReviewNotifier,
} from './funds.service';
import type { ReceiptUpload } from './receipts';

const REQUEST_ID = 'Identificador de la solicitud (UUID).';

const RECEIPT_RESPONSE: SuccessSpec = {
  status: 200,
  description: 'El archivo del comprobante.',
  body: {
    media: ['image/png', 'image/jpeg', 'image/webp', 'application/pdf'],
    description: 'El comprobante tal como se subió.',
  },
};

/**
 * The optional `receipt` file of a form body. A form sent without choosing a file still carries
 * an empty file part; a `receipt` sent as text (curl's `-F receipt=x` instead of `-F receipt=@x`)
 * is refused rather than silently dropped.
 */
async function receiptUpload(
  c: Context<AppEnv>,
  files: Record<string, File>,
): Promise<ReceiptUpload | null> {
  const file = files.receipt;
  if (!file) {
    // Hono keeps the form the route wrapper already parsed; a JSON body gives {}.
    const text = (await c.req.parseBody()).receipt;
    if (typeof text === 'string' && text !== '') {
      throw new AppError('VALIDATION_FAILED', undefined, {
        receipt: 'Adjunta el comprobante como archivo.',
      });
    }
    return null;
  }
  if (file.size === 0) return null;
  if (file.size > MAX_RECEIPT_BYTES)
    throw new AppError('PAYLOAD_TOO_LARGE', RECEIPT_TOO_LARGE_MESSAGE);
  return { bytes: new Uint8Array(await file.arrayBuffer()), mime: file.type };
}

/** A receipt is always a download: a PDF may carry JavaScript, so it is never shown inline. */
function sendReceipt(c: Context<AppEnv>, file: ReceiptFile) {
  return c.body(file.stream, 200, downloadHeaders(file));
}

function notifier(deps: RouteDeps): ReviewNotifier {
  return {
    mailer: deps.mailer,
    logger: deps.logger,
    appName: deps.env.APP_NAME,
    appUrl: deps.env.APP_URL,
  };
}

/** /api/funds: the customer's side of manual top-ups. */
export const fundsRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/funds/methods',
    operationId: 'listFundingMethods',
    tag: 'Recargas',
    summary: 'Métodos de recarga disponibles',
    description:
      'La tarjeta (con los límites que fija el administrador, o `null` si no está configurada), los métodos de pago manual activos con sus instrucciones y su comisión, y los códigos de recarga.',
    access: 'customer',
    responses: [{ status: 200, description: 'Los métodos.', body: 'FundingMethods' }],
    handler: async ({ c, deps }) => {
      const methods = await listMethods(deps.db, { activeOnly: true });
      const card = deps.env.stripe ? await gatewayTerms(deps.db, deps.env, 'stripe') : null;
      return c.json({
        card: card
          ? { minAmount: formatAmount(card.minAmount), maxAmount: formatAmount(card.maxAmount) }
          : null,
        manual: methods.map(toPublicMethodDto),
        voucher: true,
      });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/funds/requests',
    operationId: 'createManualTopup',
    tag: 'Recargas',
    summary: 'Declarar un pago manual (transferencia, PayPal, cripto…)',
    description:
      'Registra el pago como pendiente de revisión; el saldo se acredita cuando un administrador lo aprueba. El importe es lo que recibe el saldo: el cliente envía ese importe más la comisión del método. Se puede enviar como JSON o como formulario con un comprobante (PNG, JPG, WEBP o PDF de hasta 5 MB). Como máximo 5 solicitudes pendientes a la vez.',
    access: 'customer',
    body: { schema: ManualRequestSchema, form: ManualRequestFormSchema },
    // The receipt (5 MB) plus the fields and the multipart overhead.
    bodyLimit: MAX_REQUEST_BODY_BYTES,
    bodyLimitMessage: RECEIPT_TOO_LARGE_MESSAGE,
    responses: [{ status: 201, description: 'Solicitud registrada.', body: 'PaymentDto' }],
    errors: ['NOT_FOUND', 'CONFLICT', 'PAYLOAD_TOO_LARGE'],
    handler: async ({ c, deps, user, body, files }) => {
      const receipt = await receiptUpload(c, files);
      const created = await createRequest(deps.db, user.id, body, receipt, deps.env.DATA_DIR);
      c.get('logger').info(
        { paymentId: created.id, amount: created.amount },
        'manual top-up requested',
      );
      return c.json(created, 201);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/funds/requests',
    operationId: 'listManualTopups',
    tag: 'Recargas',
    summary: 'Mis pagos manuales declarados',
    access: 'customer',
    responses: [{ status: 200, description: 'Las solicitudes.', body: 'PaymentList' }],
    handler: async ({ c, deps, user }) => c.json({ items: await listRequests(deps.db, user.id) }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/funds/requests/:id/receipt',
    operationId: 'getManualTopupReceipt',
    tag: 'Recargas',
    summary: 'Descargar el comprobante de un pago manual propio',
    access: 'customer',
    params: idParams(REQUEST_ID),
    responses: [RECEIPT_RESPONSE],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, user, params }) =>
      sendReceipt(c, await receiptFile(deps.db, user, params.id, deps.env.DATA_DIR)),
  }),
];

/** /api/admin/funds: methods and the review queue. */
export const fundsAdminRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/admin/funds/requests',
    operationId: 'adminListManualTopups',
    tag: 'Administración',
    summary: 'Pagos manuales por revisar (o ya revisados)',
    description: 'Los pendientes, del más antiguo al más reciente; los demás, del más reciente.',
    access: 'admin',
    roles: ['admin', 'finance'],
    query: AdminRequestsQuerySchema,
    responses: [{ status: 200, description: 'Las solicitudes.', body: 'AdminRequestList' }],
    errors: ['VALIDATION_FAILED'],
    handler: async ({ c, deps, query }) =>
      c.json({ items: await listRequestsByStatus(deps.db, query.status) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/funds/requests/:id/approve',
    operationId: 'adminApproveManualTopup',
    tag: 'Administración',
    summary: 'Aprobar un pago manual y acreditarlo',
    description:
      'Acredita el importe una sola vez, aunque se apruebe dos veces a la vez. Nadie puede aprobar una solicitud propia.',
    access: 'admin',
    roles: ['admin', 'finance'],
    params: idParams(REQUEST_ID),
    responses: [
      { status: 200, description: 'Solicitud aprobada y saldo acreditado.', body: 'ApproveResult' },
    ],
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ c, deps, user, params }) =>
      c.json(await approve(deps.db, user.id, params.id, c.get('clientIp'), notifier(deps))),
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/funds/requests/:id/reject',
    operationId: 'adminRejectManualTopup',
    tag: 'Administración',
    summary: 'Rechazar un pago manual con un motivo',
    access: 'admin',
    roles: ['admin', 'finance'],
    params: idParams(REQUEST_ID),
    body: { schema: RejectSchema },
    responses: [{ status: 200, description: 'Solicitud rechazada.', body: 'RejectResult' }],
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ c, deps, user, params, body }) =>
      c.json(
        await reject(deps.db, user.id, params.id, body.reason, c.get('clientIp'), notifier(deps)),
      ),
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/funds/requests/:id/receipt',
    operationId: 'adminGetManualTopupReceipt',
    tag: 'Administración',
    summary: 'Descargar el comprobante de un pago manual',
    access: 'admin',
    roles: ['admin', 'finance'],
    params: idParams(REQUEST_ID),
    responses: [RECEIPT_RESPONSE],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, user, params }) =>
      sendReceipt(c, await receiptFile(deps.db, user, params.id, deps.env.DATA_DIR)),
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/funds/methods',
    operationId: 'adminListFundingMethods',
    tag: 'Administración',
    summary: 'Métodos de pago manual, también los inactivos',
    access: 'admin',
    roles: ['admin', 'finance'],
    responses: [{ status: 200, description: 'Los métodos.', body: 'MethodList' }],
    handler: async ({ c, deps }) =>
      c.json({ items: await listMethods(deps.db, { activeOnly: false }) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/funds/methods',
    operationId: 'adminCreateFundingMethod',
    tag: 'Administración',
    summary: 'Crear un método de pago manual',
    access: 'admin',
    roles: ['admin', 'finance'],
    body: { schema: CreateMethodSchema },
    responses: [{ status: 201, description: 'El método creado.', body: 'MethodDto' }],
    handler: async ({ c, deps, user, body }) =>
      c.json(await createMethod(deps.db, user.id, body, c.get('clientIp')), 201),
  }),
  defineRoute({
    method: 'patch',
    path: '/api/admin/funds/methods/:id',
    operationId: 'adminUpdateFundingMethod',
    tag: 'Administración',
    summary: 'Modificar un método de pago manual',
    access: 'admin',
    roles: ['admin', 'finance'],
    params: idParams('Identificador del método (UUID).'),
    body: { schema: UpdateMethodSchema },
    responses: [{ status: 200, description: 'El método modificado.', body: 'MethodDto' }],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, user, params, body }) =>
      c.json(await updateMethod(deps.db, user.id, params.id, body, c.get('clientIp'))),
  }),
];

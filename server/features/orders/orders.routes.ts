import { BulkCompleteSchema } from '../../../shared/bulk-results';
import { categoryLabel } from '../../../shared/categories';
import { parseAmount } from '../../../shared/money';
import { staffCan } from '../../../shared/roles';
import { CsvExportQuerySchema, idParams } from '../../../shared/schemas/query';
import {
  BULK_MAX_LINES,
  AdminRefillQuerySchema,
  BulkOrderSchema,
  CompleteOrderSchema,
  CompleteRefillSchema,
  ORDER_STATUS_LABELS,
  OrderFiltersQuerySchema,
  OrderListQuerySchema,
  PlaceOrderSchema,
  RejectOrderSchema,
  RejectRefillSchema,
  type OrderDto,
  type OrderFiltersQuery,
} from '../../../shared/schemas/orders';
import { AdminOrderListQuerySchema } from '../../../shared/schemas/suppliers';
import { CSV_CONTENT_TYPE, csvAmount, csvDateTime, toCsv, type CsvStyle } from '../../lib/csv';
import { idempotencyKey } from '../../lib/http';
import { defineRoute } from '../../lib/route';
import { z } from 'zod';
import {
  BulkOrderActionSchema,
  CreateSnippetSchema,
  SNIPPET_KINDS,
  UpdateSnippetSchema,
} from '../../../shared/schemas/admin-desk';
import { adminGetOrder, adminListOrders } from '../suppliers/admin-orders.service';
import { adminOrderFor, adminOrdersFor, overviewFor } from '../staff/staff-view';
import { resendDispatch } from '../suppliers/dispatch.service';
import { adminOverview, bulkOrderAction } from './admin-desk.service';
import { createSnippet, deleteSnippet, listSnippets, updateSnippet } from './snippets.service';
import { bulkCompleteOrders, previewBulkComplete } from './bulk-complete.service';
import { notifyCustomer, notifyCustomers } from './orders.notify';
import {
  completeOrder,
  listOrders,
  placeBulkOrder,
  placeOrder,
  rejectOrder,
  takeOrder,
  type OrderFilters,
} from './orders.service';
import { orderSummary } from './summary.service';
import {
  finishRefillByAdmin,
  getOrderDetail,
  listAdminRefills,
  requestCancel,
  requestRefill,
} from './lifecycle.service';
import type { OrderRow } from './order-dto';

const ORDER_ID = idParams('Identificador de la orden (UUID).');
const REFILL_ID = idParams('Identificador de la reposición (UUID).');
const SNIPPET_ID = idParams('Identificador del texto guardado (UUID).');

function toFilters(query: OrderFiltersQuery): OrderFilters {
  return {
    status: query.status,
    category: query.category,
    q: query.q || undefined,
    from: query.from ? new Date(query.from) : undefined,
    to: query.to ? new Date(query.to) : undefined,
  };
}

/** The columns for scripts (`?format=rfc4180`): the API's names, unchanged since the first export. */
const CSV_HEADER = [
  'numero',
  'fecha',
  'servicio',
  'categoria',
  'cantidad',
  'datos',
  'importe',
  'estado',
  'resultado',
];

/** The columns a person reads in Excel. */
function excelHeader(style: CsvStyle): string[] {
  return [
    'Número',
    style.timeZone ? 'Fecha' : 'Fecha (UTC)',
    'Servicio',
    'Categoría',
    'Cantidad',
    'Datos',
    'Importe (USD)',
    'Estado',
    'Resultado',
  ];
}

function ordersCsv(items: OrderDto[], style: CsvStyle): string {
  const excel = style.format === 'excel';
  return toCsv(
    excel ? excelHeader(style) : CSV_HEADER,
    items.map((o) => [
      String(o.number),
      csvDateTime(new Date(o.createdAt), style),
      o.serviceName,
      excel ? categoryLabel(o.category) : o.category,
      String(o.quantity),
      Object.entries(o.fields)
        .map(([k, v]) => `${k}=${v}`)
        .join('; '),
      csvAmount(o.price, style),
      ORDER_STATUS_LABELS[o.status],
      o.result ?? o.rejectReason ?? '',
    ]),
    style.format,
  );
}

/** /api/orders: the customer's orders. */
export const ordersRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/orders',
    operationId: 'placeOrder',
    tag: 'Órdenes',
    summary: 'Pedir un servicio',
    description:
      'Valida los datos que pide el servicio (`fields`, por su `key`), calcula el precio y lo pasa del saldo disponible al retenido en la misma transacción. Con la cabecera `Idempotency-Key`, repetir la misma petición devuelve la orden ya creada (200 y `Idempotent-Replayed: true`) sin cobrar otra vez; la misma clave con otra petición responde 409 `IDEMPOTENCY_MISMATCH`. Una orden en curso con el mismo dato identificador en el mismo servicio responde 409 `DUPLICATE_IN_FLIGHT`. Un servicio entregado desde stock responde 201 con la orden ya `completed` y el artículo en `result`; sin stock y sin proveedor, 409 `OUT_OF_STOCK` («Agotado: …»).',
    access: 'customer',
    idempotencyKey:
      'Clave única por intento de compra (por ejemplo un UUID nuevo). Repetir la petición con la misma clave no cobra dos veces.',
    body: { schema: PlaceOrderSchema },
    responses: [
      { status: 201, description: 'Orden creada y precio retenido.', body: 'OrderDto' },
      {
        status: 200,
        description:
          'Repetición con la misma `Idempotency-Key`: la orden ya creada, sin cobrar otra vez.',
        body: 'OrderDto',
        headers: {
          'Idempotent-Replayed': {
            description: '`true` cuando la respuesta es la de una petición anterior.',
            schema: { type: 'string', const: 'true' },
          },
        },
      },
    ],
    errors: [
      'INSUFFICIENT_FUNDS',
      'NOT_FOUND',
      'DUPLICATE_IN_FLIGHT',
      'IDEMPOTENCY_MISMATCH',
      'OUT_OF_STOCK',
    ],
    codeSamples: [
      {
        lang: 'Shell',
        label: 'curl',
        source: (base) =>
          [
            '# 1. Iniciar sesión: guarda la cookie de sesión en cookies.txt',
            `curl -c cookies.txt -H 'Content-Type: application/json' -H 'Origin: ${base}' \\`,
            `  -d '{"email":"ana@example.com","password":"tu-contraseña"}' \\`,
            `  ${base}/api/auth/sign-in/email`,
            '',
            '# 2. Pedir el servicio con una clave de idempotencia nueva',
            `curl -b cookies.txt -H 'Content-Type: application/json' \\`,
            `  -H "Idempotency-Key: $(uuidgen)" \\`,
            `  -d '{"serviceId":"<id del servicio>","fields":{"imei":"359702373699048"}}' \\`,
            `  ${base}/api/orders`,
          ].join('\n'),
      },
    ],
    handler: async ({ c, deps, user, body }) => {
      const key = idempotencyKey(c);
      const result = await placeOrder(
        deps.db,
        user.id,
        body,
        key,
        deps.jobs,
        user.apiKeyId ? 'api' : 'web',
        deps,
      );
      if (result.replayed) c.header('Idempotent-Replayed', 'true');
      return c.json(result.order, result.replayed ? 200 : 201);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/orders/bulk',
    operationId: 'placeBulkImeiOrder',
    tag: 'Órdenes',
    summary: 'Pedido masivo de IMEI (una orden por línea)',
    description:
      'Hasta 500 IMEI, uno por línea (o una lista). Cada línea se valida, se cobra y se responde por separado: una línea rechazada (IMEI no válido, repetido, en curso o sin saldo) no impide las demás. Solo para servicios con un campo IMEI.',
    access: 'customer',
    body: { schema: BulkOrderSchema },
    // 500 lines of an IMEI and its separators, with room for the other fields.
    bodyLimit: 64 * 1024,
    responses: [
      { status: 200, description: 'El resultado de cada línea.', body: 'BulkOrderResult' },
    ],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, user, body }) =>
      c.json(
        await placeBulkOrder(
          deps.db,
          user.id,
          body,
          BULK_MAX_LINES,
          deps.jobs,
          user.apiKeyId ? 'api' : 'web',
          deps,
        ),
      ),
  }),
  defineRoute({
    method: 'get',
    path: '/api/orders',
    operationId: 'listOrders',
    tag: 'Órdenes',
    summary: 'Historial de órdenes, con filtros',
    description: 'De la más reciente a la más antigua, en páginas de 25.',
    access: 'customer',
    query: OrderListQuerySchema,
    responses: [{ status: 200, description: 'Una página de órdenes.', body: 'OrdersPage' }],
    errors: ['BAD_REQUEST'],
    handler: async ({ c, deps, user, query }) =>
      c.json(await listOrders(deps.db, user.id, toFilters(query), query.cursor)),
  }),
  defineRoute({
    method: 'get',
    path: '/api/orders/summary',
    operationId: 'getOrderSummary',
    tag: 'Órdenes',
    summary: 'Resumen para el panel: órdenes por estado, últimas y gasto de 30 días',
    access: 'customer',
    responses: [{ status: 200, description: 'El resumen.', body: 'OrderSummary' }],
    handler: async ({ c, deps, user }) => c.json(await orderSummary(deps.db, user.id)),
  }),
  defineRoute({
    method: 'get',
    path: '/api/orders/export.csv',
    operationId: 'exportOrdersCsv',
    tag: 'Órdenes',
    summary: 'Exportar el historial a CSV',
    description:
      'Las órdenes que cumplen los mismos filtros que el historial (hasta 50 000). Por defecto, el archivo que abre tal cual un Excel en español (UTF-8 con BOM, `;`, fechas locales, importes con coma decimal, categorías en español, columnas Número, Fecha, Servicio, Categoría, Cantidad, Datos, Importe (USD), Estado y Resultado); con `format=rfc4180`, CSV simple para programas con las columnas numero, fecha, servicio, categoria, cantidad, datos, importe, estado y resultado.',
    access: 'customer',
    query: OrderFiltersQuerySchema.extend(CsvExportQuerySchema.shape),
    responses: [
      {
        status: 200,
        description: 'El archivo `ordenes.csv`.',
        body: {
          media: ['text/csv'],
          description:
            'CSV en UTF-8 con saltos de línea CRLF: con BOM y `;` por defecto, separado por comas y sin BOM con `format=rfc4180`.',
        },
      },
    ],
    handler: async ({ c, deps, user, query }) => {
      const filters = toFilters(query);
      const items: OrderDto[] = [];
      let cursor: string | undefined;
      // Bounded: at most 50,000 orders in one file.
      for (let i = 0; i < 100; i++) {
        const page = await listOrders(deps.db, user.id, filters, cursor, 500);
        items.push(...page.items);
        if (!page.nextCursor) break;
        cursor = page.nextCursor;
      }
      c.header('Content-Type', CSV_CONTENT_TYPE);
      c.header('Content-Disposition', 'attachment; filename="ordenes.csv"');
      c.header('Cache-Control', 'no-store');
      return c.body(
        ordersCsv(items, { format: query.format ?? 'excel', timeZone: query.tz ?? null }),
      );
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/orders/:id',
    operationId: 'getOrder',
    tag: 'Órdenes',
    summary: 'Una orden, con su historial, sus reposiciones y lo que se puede pedir ahora',
    access: 'customer',
    params: ORDER_ID,
    responses: [{ status: 200, description: 'La orden, con `events`.', body: 'OrderDto' }],
    handler: async ({ c, deps, user, params }) =>
      c.json(await getOrderDetail(deps.db, user.id, params.id)),
  }),
  defineRoute({
    method: 'post',
    path: '/api/orders/:id/cancel',
    operationId: 'cancelOrder',
    tag: 'Órdenes',
    summary: 'Cancelar una orden (o pedir su cancelación al proveedor)',
    description:
      'Pendiente y sin enviar a un proveedor (`cancellable`): se cancela al momento y el importe vuelve al saldo disponible una sola vez. En proceso en un proveedor, si el servicio lo admite (`cancelRequestable` en el detalle): se pide la cancelación al proveedor (`cancelRequested` pasa a `true`) y la orden se reembolsa solo cuando el proveedor confirme que la canceló; si no la acepta, la orden sigue su curso.',
    access: 'customer',
    params: ORDER_ID,
    responses: [
      {
        status: 200,
        description: 'La orden cancelada, o en proceso con la cancelación pedida.',
        body: 'OrderDto',
      },
    ],
    errors: ['CONFLICT'],
    handler: async ({ c, deps, user, params }) =>
      c.json(await requestCancel(deps.db, user.id, params.id, deps.jobs)),
  }),
  defineRoute({
    method: 'post',
    path: '/api/orders/:id/refill',
    operationId: 'requestRefill',
    tag: 'Órdenes',
    summary: 'Pedir una reposición de una orden completada',
    description:
      'En los servicios con reposición (`refillDays`), dentro de su plazo tras completarse, una a la vez por orden. Se envía al proveedor que entregó la orden si ofrece reposiciones; si no, la atiende un administrador. No tiene costo.',
    access: 'customer',
    params: ORDER_ID,
    responses: [{ status: 201, description: 'La reposición pedida.', body: 'RefillDto' }],
    errors: ['CONFLICT'],
    handler: async ({ c, deps, user, params }) =>
      c.json(await requestRefill(deps.db, user.id, params.id, deps.jobs), 201),
  }),
];

/** /api/admin/refills: refills waiting for an admin (services without a supplier's refill). */
export const refillsAdminRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/admin/refills',
    operationId: 'adminListRefills',
    tag: 'Administración',
    summary: 'Reposiciones pedidas por los clientes',
    description:
      'Las más antiguas primero (hasta 100). Por defecto las pendientes: las que atiende un administrador y las que esperan enviarse al proveedor (`routed`).',
    access: 'admin',
    roles: ['admin', 'support'],
    query: AdminRefillQuerySchema,
    responses: [{ status: 200, description: 'Las reposiciones.', body: 'AdminRefillList' }],
    handler: async ({ c, deps, query }) =>
      c.json({ items: await listAdminRefills(deps.db, query.state) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/refills/:id/complete',
    operationId: 'adminCompleteRefill',
    tag: 'Administración',
    summary: 'Dar por hecha una reposición',
    access: 'admin',
    roles: ['admin', 'support'],
    params: REFILL_ID,
    body: { schema: CompleteRefillSchema, required: false },
    responses: [{ status: 200, description: 'La reposición completada.', body: 'RefillDto' }],
    errors: ['CONFLICT'],
    handler: async ({ c, deps, user, params, body }) =>
      c.json(
        await finishRefillByAdmin(deps.db, user.id, params.id, 'completed', body?.note || null),
      ),
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/refills/:id/reject',
    operationId: 'adminRejectRefill',
    tag: 'Administración',
    summary: 'Rechazar una reposición, con el motivo',
    access: 'admin',
    roles: ['admin', 'support'],
    params: REFILL_ID,
    body: { schema: RejectRefillSchema },
    responses: [{ status: 200, description: 'La reposición rechazada.', body: 'RefillDto' }],
    errors: ['CONFLICT'],
    handler: async ({ c, deps, user, params, body }) =>
      c.json(await finishRefillByAdmin(deps.db, user.id, params.id, 'rejected', body.reason)),
  }),
];

/** /api/admin/orders: the fulfilment queue. */
export const ordersAdminRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/admin/overview',
    operationId: 'adminOverview',
    tag: 'Administración',
    summary: 'Lo que espera a un administrador ahora, y las ventas de hoy',
    description:
      'Órdenes pendientes (sin las que están en «Revisar»), órdenes en «Revisar» (su envío al proveedor espera una decisión), recargas manuales por aprobar y proveedores que fallan, contadas por la base de datos; y las ventas de hoy (día UTC): lo que cobran las órdenes de hoy no reembolsadas, sin la parte devuelta de las parciales.',
    access: 'admin',
    roles: ['admin', 'support', 'finance'],
    responses: [{ status: 200, description: 'Los recuentos.', body: 'AdminOverview' }],
    handler: async ({ c, deps, user }) =>
      c.json(overviewFor(user.role, await adminOverview(deps.db))),
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/snippets',
    operationId: 'adminListSnippets',
    tag: 'Administración',
    summary:
      'Textos guardados: motivos de rechazo, plantillas de resultado y respuestas de soporte',
    description:
      'Los textos que el equipo guarda para rechazar (`reject_reason`) o completar (`result_template`) órdenes desde la cola, y para responder tickets de soporte (`ticket_reply`), por tipo y posición. `kind` filtra por tipo.',
    access: 'admin',
    roles: ['admin', 'support'],
    query: z.object({ kind: z.enum(SNIPPET_KINDS).optional() }),
    responses: [{ status: 200, description: 'Los textos guardados.', body: 'SnippetList' }],
    errors: ['BAD_REQUEST'],
    handler: async ({ c, deps, query }) => c.json(await listSnippets(deps.db, query.kind)),
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/snippets',
    operationId: 'adminCreateSnippet',
    tag: 'Administración',
    summary: 'Guardar un motivo de rechazo o una plantilla de resultado',
    description:
      'Un motivo de rechazo sigue las reglas del motivo de una orden (3 a 500 caracteres); una plantilla de resultado, las de un resultado (hasta 5000).',
    access: 'admin',
    roles: ['admin', 'support'],
    body: { schema: CreateSnippetSchema },
    responses: [{ status: 201, description: 'El texto guardado.', body: 'SnippetDto' }],
    handler: async ({ c, deps, user, body }) =>
      c.json(await createSnippet(deps.db, body, user.id), 201),
  }),
  defineRoute({
    method: 'patch',
    path: '/api/admin/snippets/:id',
    operationId: 'adminUpdateSnippet',
    tag: 'Administración',
    summary: 'Cambiar un texto guardado',
    access: 'admin',
    roles: ['admin', 'support'],
    params: SNIPPET_ID,
    body: { schema: UpdateSnippetSchema },
    responses: [{ status: 200, description: 'El texto guardado.', body: 'SnippetDto' }],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, user, params, body }) =>
      c.json(await updateSnippet(deps.db, params.id, body, user.id)),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/admin/snippets/:id',
    operationId: 'adminDeleteSnippet',
    tag: 'Administración',
    summary: 'Borrar un texto guardado',
    access: 'admin',
    roles: ['admin', 'support'],
    params: SNIPPET_ID,
    responses: [{ status: 200, description: 'Borrado.', body: 'Deleted' }],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, user, params }) => {
      await deleteSnippet(deps.db, params.id, user.id);
      return c.json({ deleted: true as const });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/orders',
    operationId: 'adminListOrders',
    tag: 'Administración',
    summary: 'Cola de órdenes de todos los clientes',
    description:
      'Con los mismos filtros que el historial del cliente, en páginas de 50, y cada orden con su envío al proveedor (`dispatch`, o `null` si se atiende a mano). `dispatch=review` lista las que esperan una decisión.',
    access: 'admin',
    roles: ['admin', 'support', 'finance'],
    query: AdminOrderListQuerySchema,
    responses: [{ status: 200, description: 'Una página de órdenes.', body: 'AdminOrdersPage' }],
    errors: ['BAD_REQUEST'],
    handler: async ({ c, deps, user, query }) =>
      c.json(
        adminOrdersFor(
          user.role,
          await adminListOrders(
            deps.db,
            { ...toFilters(query), dispatch: query.dispatch },
            query.cursor,
            50,
            // Cost and margin only for admin and finance.
            user.role,
          ),
        ),
      ),
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/orders/bulk-complete/preview',
    operationId: 'adminPreviewBulkComplete',
    tag: 'Administración',
    summary: 'Revisar resultados pegados antes de completar en bloque',
    description:
      'No cambia nada: dice, línea por línea, qué orden nombra (número, cliente, servicio y estado actual) y qué pasará al completar en bloque el mismo texto: se completa con su resultado, o por qué no cambia nada (no existe, ya terminó, el IMEI tiene varias órdenes en curso, está repetida…).',
    access: 'admin',
    roles: ['admin', 'support'],
    body: { schema: BulkCompleteSchema },
    bodyLimit: 1024 * 1024,
    responses: [
      { status: 200, description: 'Lo que haría cada línea.', body: 'BulkCompletePreview' },
    ],
    handler: async ({ c, deps, body }) => c.json(await previewBulkComplete(deps.db, body.text)),
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/orders/bulk-complete',
    operationId: 'adminBulkCompleteOrders',
    tag: 'Administración',
    summary: 'Completar órdenes en bloque pegando sus resultados',
    description:
      'Cada línea se resuelve por número de orden o por el IMEI de una orden en curso y se completa por separado, una sola vez; una línea que no se puede completar no cambia nada y dice por qué. Se avisa por correo a cada cliente.',
    access: 'admin',
    roles: ['admin', 'support'],
    body: { schema: BulkCompleteSchema },
    // 500 lines, each an order reference and a result of up to a few hundred characters.
    bodyLimit: 1024 * 1024,
    responses: [
      { status: 200, description: 'El resultado de cada línea.', body: 'BulkCompleteResult' },
    ],
    handler: async ({ c, deps, user, body }) => {
      // One e-mail per customer once the whole list is done: a summary when several of theirs.
      const completed: OrderRow[] = [];
      const result = await bulkCompleteOrders(deps.db, user.id, body.text, (row) => {
        completed.push(row);
      });
      notifyCustomers(
        deps,
        completed.map((row) => ({ row, kind: 'completed' as const })),
      );
      return c.json(result);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/orders/bulk',
    operationId: 'adminBulkOrderAction',
    tag: 'Administración',
    summary: 'Tomar, completar, rechazar o enviar de nuevo varias órdenes',
    description:
      'La misma acción sobre las órdenes elegidas (`ids`, hasta 100), cada una por separado y en su propia transacción, como su ruta individual: `take`, `complete` (con `result`), `reject` (con `reason`: cada una se reembolsa una sola vez) o `resend` (las que están en «Revisar»). Una orden que no se puede cambiar no cambia nada y dice por qué; las demás siguen. Se avisa por correo a cada cliente de una orden completada o rechazada.',
    access: 'admin',
    roles: ['admin', 'support'],
    body: { schema: BulkOrderActionSchema },
    responses: [
      { status: 200, description: 'El resultado de cada orden.', body: 'BulkActionResult' },
    ],
    handler: async ({ c, deps, user, body }) => {
      const { db, env, metrics, mailer, logger, jobs } = deps;
      return c.json(
        await bulkOrderAction(db, user.id, body, {
          resend: (id) =>
            resendDispatch(
              { db, env, metrics, mailer, logger, jobs },
              user.id,
              id,
              c.get('clientIp'),
            ),
          notify: (row, status) => notifyCustomer(deps, row, status),
        }),
      );
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/orders/:id',
    operationId: 'adminGetOrder',
    tag: 'Administración',
    summary: 'Una orden de cualquier cliente, con su historial y su envío al proveedor',
    access: 'admin',
    roles: ['admin', 'support', 'finance'],
    params: ORDER_ID,
    responses: [{ status: 200, description: 'La orden.', body: 'AdminOrderDto' }],
    handler: async ({ c, deps, user, params }) =>
      c.json(adminOrderFor(user.role, await adminGetOrder(deps.db, params.id, user.role))),
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/orders/:id/take',
    operationId: 'adminTakeOrder',
    tag: 'Administración',
    summary: 'Tomar una orden pendiente (pasa a «En proceso»)',
    access: 'admin',
    roles: ['admin', 'support'],
    params: ORDER_ID,
    responses: [{ status: 200, description: 'La orden en proceso.', body: 'AdminOrderDto' }],
    errors: ['CONFLICT'],
    handler: async ({ c, deps, user, params }) => {
      await takeOrder(deps.db, user.id, params.id, c.get('clientIp'));
      return c.json(adminOrderFor(user.role, await adminGetOrder(deps.db, params.id, user.role)));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/orders/:id/complete',
    operationId: 'adminCompleteOrder',
    tag: 'Administración',
    summary: 'Completar una orden con su resultado',
    description:
      'El importe retenido pasa a ingresos y se avisa al cliente por correo. Con `cost` (opcional, solo administradores y finanzas) se guarda lo que costó la orden.',
    access: 'admin',
    roles: ['admin', 'support'],
    params: ORDER_ID,
    body: { schema: CompleteOrderSchema },
    responses: [{ status: 200, description: 'La orden completada.', body: 'AdminOrderDto' }],
    errors: ['CONFLICT'],
    handler: async ({ c, deps, user, params, body }) => {
      // A typed cost is kept only from staff who may see costs (admin, finance).
      const cost =
        body.cost !== undefined && staffCan(user.role, 'reports')
          ? (parseAmount(body.cost) ?? undefined)
          : undefined;
      const row = await completeOrder(
        deps.db,
        user.id,
        params.id,
        body.result,
        cost,
        c.get('clientIp'),
      );
      notifyCustomer(deps, row, 'completed');
      return c.json(adminOrderFor(user.role, await adminGetOrder(deps.db, row.id, user.role)));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/orders/:id/reject',
    operationId: 'adminRejectOrder',
    tag: 'Administración',
    summary: 'Rechazar una orden y reembolsarla',
    description:
      'El importe vuelve al saldo disponible del cliente una sola vez y se le avisa por correo.',
    access: 'admin',
    roles: ['admin', 'support'],
    params: ORDER_ID,
    body: { schema: RejectOrderSchema },
    responses: [{ status: 200, description: 'La orden rechazada.', body: 'AdminOrderDto' }],
    errors: ['CONFLICT'],
    handler: async ({ c, deps, user, params, body }) => {
      const row = await rejectOrder(deps.db, user.id, params.id, body.reason, c.get('clientIp'));
      notifyCustomer(deps, row, 'rejected');
      return c.json(adminOrderFor(user.role, await adminGetOrder(deps.db, row.id, user.role)));
    },
  }),
];

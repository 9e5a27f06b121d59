import { BulkCompleteSchema } from '../../../shared/bulk-results';
import { idParams } from '../../../shared/schemas/query';
import {
  BULK_MAX_LINES,
  BulkOrderSchema,
  CompleteOrderSchema,
  ORDER_STATUS_LABELS,
  OrderFiltersQuerySchema,
  OrderListQuerySchema,
  PlaceOrderSchema,
  RejectOrderSchema,
  type OrderDto,
  type OrderFiltersQuery,
} from '../../../shared/schemas/orders';
import { AdminOrderListQuerySchema } from '../../../shared/schemas/suppliers';
import { toCsv } from '../../lib/csv';
import { idempotencyKey } from '../../lib/http';
import { defineRoute } from '../../lib/route';
import { adminGetOrder, adminListOrders } from '../suppliers/admin-orders.service';
import { bulkCompleteOrders } from './bulk-complete.service';
import { notifyCustomer } from './orders.notify';
import {
  cancelOrder,
  completeOrder,
  getOrder,
  listOrders,
  placeBulkOrder,
  placeOrder,
  rejectOrder,
  takeOrder,
  type OrderFilters,
} from './orders.service';
import { orderSummary } from './summary.service';

const ORDER_ID = idParams('Identificador de la orden (UUID).');

function toFilters(query: OrderFiltersQuery): OrderFilters {
  return {
    status: query.status,
    category: query.category,
    q: query.q || undefined,
    from: query.from ? new Date(query.from) : undefined,
    to: query.to ? new Date(query.to) : undefined,
  };
}

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

function ordersCsv(items: OrderDto[]): string {
  return toCsv(
    CSV_HEADER,
    items.map((o) => [
      String(o.number),
      o.createdAt,
      o.serviceName,
      o.category,
      String(o.quantity),
      Object.entries(o.fields)
        .map(([k, v]) => `${k}=${v}`)
        .join('; '),
      o.price,
      ORDER_STATUS_LABELS[o.status],
      o.result ?? o.rejectReason ?? '',
    ]),
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
      'Valida los datos que pide el servicio (`fields`, por su `key`), calcula el precio y lo pasa del saldo disponible al retenido en la misma transacción. Con la cabecera `Idempotency-Key`, repetir la misma petición devuelve la orden ya creada (200 y `Idempotent-Replayed: true`) sin cobrar otra vez; la misma clave con otra petición responde 409 `IDEMPOTENCY_MISMATCH`. Una orden en curso con el mismo dato identificador en el mismo servicio responde 409 `DUPLICATE_IN_FLIGHT`.',
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
    errors: ['INSUFFICIENT_FUNDS', 'NOT_FOUND', 'DUPLICATE_IN_FLIGHT', 'IDEMPOTENCY_MISMATCH'],
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
      'Las órdenes que cumplen los mismos filtros que el historial (hasta 50 000), con las columnas numero, fecha, servicio, categoria, cantidad, datos, importe, estado y resultado.',
    access: 'customer',
    query: OrderFiltersQuerySchema,
    responses: [
      {
        status: 200,
        description: 'El archivo `ordenes.csv`.',
        body: { media: ['text/csv'], description: 'CSV en UTF-8 con saltos de línea CRLF.' },
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
      c.header('Content-Type', 'text/csv; charset=utf-8');
      c.header('Content-Disposition', 'attachment; filename="ordenes.csv"');
      c.header('Cache-Control', 'no-store');
      return c.body(ordersCsv(items));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/orders/:id',
    operationId: 'getOrder',
    tag: 'Órdenes',
    summary: 'Una orden, con su historial de estados',
    access: 'customer',
    params: ORDER_ID,
    responses: [{ status: 200, description: 'La orden, con `events`.', body: 'OrderDto' }],
    handler: async ({ c, deps, user, params }) =>
      c.json(await getOrder(deps.db, user.id, params.id)),
  }),
  defineRoute({
    method: 'post',
    path: '/api/orders/:id/cancel',
    operationId: 'cancelOrder',
    tag: 'Órdenes',
    summary: 'Cancelar una orden pendiente',
    description:
      'Solo mientras esté pendiente y no se haya enviado a un proveedor (`cancellable`). El importe vuelve al saldo disponible una sola vez.',
    access: 'customer',
    params: ORDER_ID,
    responses: [{ status: 200, description: 'La orden cancelada.', body: 'OrderDto' }],
    errors: ['CONFLICT'],
    handler: async ({ c, deps, user, params }) =>
      c.json(await cancelOrder(deps.db, user.id, params.id)),
  }),
];

/** /api/admin/orders: the fulfilment queue. */
export const ordersAdminRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/admin/orders',
    operationId: 'adminListOrders',
    tag: 'Administración',
    summary: 'Cola de órdenes de todos los clientes',
    description:
      'Con los mismos filtros que el historial del cliente, en páginas de 50, y cada orden con su envío al proveedor (`dispatch`, o `null` si se atiende a mano). `dispatch=review` lista las que esperan una decisión.',
    access: 'admin',
    query: AdminOrderListQuerySchema,
    responses: [{ status: 200, description: 'Una página de órdenes.', body: 'AdminOrdersPage' }],
    errors: ['BAD_REQUEST'],
    handler: async ({ c, deps, query }) =>
      c.json(
        await adminListOrders(
          deps.db,
          { ...toFilters(query), dispatch: query.dispatch },
          query.cursor,
          50,
        ),
      ),
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
    body: { schema: BulkCompleteSchema },
    // 500 lines, each an order reference and a result of up to a few hundred characters.
    bodyLimit: 1024 * 1024,
    responses: [
      { status: 200, description: 'El resultado de cada línea.', body: 'BulkCompleteResult' },
    ],
    handler: async ({ c, deps, user, body }) =>
      c.json(
        await bulkCompleteOrders(deps.db, user.id, body.text, (row) =>
          notifyCustomer(deps, row, 'completed'),
        ),
      ),
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/orders/:id',
    operationId: 'adminGetOrder',
    tag: 'Administración',
    summary: 'Una orden de cualquier cliente, con su historial y su envío al proveedor',
    access: 'admin',
    params: ORDER_ID,
    responses: [{ status: 200, description: 'La orden.', body: 'AdminOrderDto' }],
    handler: async ({ c, deps, params }) => c.json(await adminGetOrder(deps.db, params.id)),
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/orders/:id/take',
    operationId: 'adminTakeOrder',
    tag: 'Administración',
    summary: 'Tomar una orden pendiente (pasa a «En proceso»)',
    access: 'admin',
    params: ORDER_ID,
    responses: [{ status: 200, description: 'La orden en proceso.', body: 'AdminOrderDto' }],
    errors: ['CONFLICT'],
    handler: async ({ c, deps, user, params }) => {
      await takeOrder(deps.db, user.id, params.id);
      return c.json(await adminGetOrder(deps.db, params.id));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/orders/:id/complete',
    operationId: 'adminCompleteOrder',
    tag: 'Administración',
    summary: 'Completar una orden con su resultado',
    description: 'El importe retenido pasa a ingresos y se avisa al cliente por correo.',
    access: 'admin',
    params: ORDER_ID,
    body: { schema: CompleteOrderSchema },
    responses: [{ status: 200, description: 'La orden completada.', body: 'AdminOrderDto' }],
    errors: ['CONFLICT'],
    handler: async ({ c, deps, user, params, body }) => {
      const row = await completeOrder(deps.db, user.id, params.id, body.result);
      notifyCustomer(deps, row, 'completed');
      return c.json(await adminGetOrder(deps.db, row.id));
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
    params: ORDER_ID,
    body: { schema: RejectOrderSchema },
    responses: [{ status: 200, description: 'La orden rechazada.', body: 'AdminOrderDto' }],
    errors: ['CONFLICT'],
    handler: async ({ c, deps, user, params, body }) => {
      const row = await rejectOrder(deps.db, user.id, params.id, body.reason);
      notifyCustomer(deps, row, 'rejected');
      return c.json(await adminGetOrder(deps.db, row.id));
    },
  }),
];

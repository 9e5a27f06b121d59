import { idParams } from '../../../shared/schemas/query';
import {
  ConfirmDispatchSchema,
  CreateSupplierSchema,
  ImportServicesSchema,
  RemoteServiceQuerySchema,
  SetServiceRoutesSchema,
  UpdateSupplierSchema,
} from '../../../shared/schemas/suppliers';
import { defineRoute, type RouteDeps } from '../../lib/route';
import { adminGetOrder, orderSupplierLog, supplierCalls } from './admin-orders.service';
import { adminOrderFor } from '../staff/staff-view';
import { confirmDispatch, resendDispatch } from './dispatch.service';
import {
  createSupplier,
  findSupplier,
  getSupplier,
  importServices,
  listRemoteServices,
  listSuppliers,
  setServiceRoutes,
  testSupplier,
  updateSupplier,
  type SupplierDeps,
} from './suppliers.service';

const SUPPLIER_ID = idParams('Identificador del proveedor (UUID).');
const SERVICE_ID = idParams('Identificador del servicio (UUID).');

function supplierDeps(deps: RouteDeps): SupplierDeps {
  const { db, env, metrics, mailer, logger, jobs } = deps;
  return { db, env, metrics, mailer, logger, jobs };
}

/** /api/admin/suppliers: the upstream suppliers orders are forwarded to. */
export const supplierAdminRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/admin/suppliers',
    operationId: 'adminListSuppliers',
    tag: 'Administración',
    summary: 'Proveedores conectados',
    description:
      'Cada proveedor con su estado (`activo`, `fallando`, `desactivado`), su saldo y moneda, el último error y cuándo se comprobó. La clave API nunca se devuelve.',
    access: 'admin',
    roles: ['admin'],
    responses: [{ status: 200, description: 'Los proveedores.', body: 'SupplierList' }],
    handler: async ({ c, deps }) => c.json({ items: await listSuppliers(deps.db) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/suppliers',
    operationId: 'adminCreateSupplier',
    tag: 'Administración',
    summary: 'Conectar un proveedor (DHRU Fusion o SMM v2)',
    description:
      'Prueba la conexión leyendo el saldo (DHRU `accountinfo`, SMM `balance`) y solo guarda el proveedor si responde bien; si no, responde 422 `SUPPLIER_TEST_FAILED` con el mensaje del propio proveedor (por ejemplo «Authentication Failed»). La URL puede ser la base del panel (se añade `/api/index.php` o `/api/v2`) o la dirección completa. La clave se guarda cifrada.',
    access: 'admin',
    roles: ['admin'],
    body: { schema: CreateSupplierSchema },
    responses: [{ status: 201, description: 'Proveedor conectado.', body: 'SupplierDto' }],
    errors: ['SUPPLIER_TEST_FAILED'],
    handler: async ({ c, deps, user, body }) =>
      c.json(await createSupplier(supplierDeps(deps), user.id, body, c.get('clientIp')), 201),
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/suppliers/:id',
    operationId: 'adminGetSupplier',
    tag: 'Administración',
    summary: 'Un proveedor',
    access: 'admin',
    roles: ['admin'],
    params: SUPPLIER_ID,
    responses: [{ status: 200, description: 'El proveedor.', body: 'SupplierDto' }],
    handler: async ({ c, deps, params }) => c.json(await getSupplier(deps.db, params.id)),
  }),
  defineRoute({
    method: 'patch',
    path: '/api/admin/suppliers/:id',
    operationId: 'adminUpdateSupplier',
    tag: 'Administración',
    summary: 'Cambiar un proveedor, o activarlo y desactivarlo',
    description:
      'Una URL, usuario o clave nuevos se prueban antes de guardarse (422 `SUPPLIER_TEST_FAILED` si el proveedor no los acepta). `state: "desactivado"` deja de enviarle órdenes; las que ya tiene se siguen consultando.',
    access: 'admin',
    roles: ['admin'],
    params: SUPPLIER_ID,
    body: { schema: UpdateSupplierSchema },
    responses: [{ status: 200, description: 'El proveedor cambiado.', body: 'SupplierDto' }],
    errors: ['SUPPLIER_TEST_FAILED'],
    handler: async ({ c, deps, user, params, body }) =>
      c.json(await updateSupplier(supplierDeps(deps), user.id, params.id, body, c.get('clientIp'))),
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/suppliers/:id/test',
    operationId: 'adminTestSupplier',
    tag: 'Administración',
    summary: 'Probar la conexión (lee el saldo)',
    description:
      'Lee el saldo del proveedor ahora y actualiza su estado: `activo` si responde, `fallando` si no. Responde 200 en los dos casos, con `ok` y el mensaje.',
    access: 'admin',
    roles: ['admin'],
    params: SUPPLIER_ID,
    responses: [
      { status: 200, description: 'El resultado de la prueba.', body: 'SupplierTestResult' },
    ],
    handler: async ({ c, deps, params }) =>
      c.json(await testSupplier(supplierDeps(deps), params.id)),
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/suppliers/:id/services',
    operationId: 'adminListRemoteServices',
    tag: 'Administración',
    summary: 'Catálogo del proveedor',
    description:
      'Los servicios que ofrece el proveedor, con su costo, tiempo de entrega, datos que piden y límites de cantidad. Se lee del proveedor si la copia guardada tiene más de 10 minutos (o con `refresh=true`); si el proveedor no responde se devuelve la última copia con `stale: true`.',
    access: 'admin',
    roles: ['admin'],
    params: SUPPLIER_ID,
    query: RemoteServiceQuerySchema,
    responses: [
      { status: 200, description: 'El catálogo del proveedor.', body: 'RemoteServiceList' },
    ],
    handler: async ({ c, deps, params, query }) =>
      c.json(await listRemoteServices(supplierDeps(deps), params.id, query)),
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/suppliers/:id/import',
    operationId: 'adminImportServices',
    tag: 'Administración',
    summary: 'Importar servicios del proveedor al catálogo',
    description:
      'Cada servicio elegido se crea en la categoría indicada con precio = costo × (1 + margen / 100), redondeado hacia arriba al centavo, y queda enrutado a este proveedor. El precio sigue al costo en cada sincronización. Los servicios IMEI llevan el campo `imei` (y los datos que pida el proveedor); los de redes sociales se venden por cada 1000 con el mínimo y máximo del proveedor y un campo `link`.',
    access: 'admin',
    roles: ['admin'],
    params: SUPPLIER_ID,
    body: { schema: ImportServicesSchema },
    responses: [{ status: 200, description: 'Los servicios creados.', body: 'AdminServiceList' }],
    errors: ['CONFLICT', 'SUPPLIER_TEST_FAILED'],
    handler: async ({ c, deps, user, params, body }) =>
      c.json({
        items: await importServices(
          supplierDeps(deps),
          user.id,
          params.id,
          body,
          c.get('clientIp'),
        ),
      }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/suppliers/:id/log',
    operationId: 'adminSupplierLog',
    tag: 'Administración',
    summary: 'Últimas llamadas al proveedor',
    description:
      'Las 100 llamadas más recientes con lo que se envió (la clave sustituida por `***`) y lo que respondió.',
    access: 'admin',
    roles: ['admin'],
    params: SUPPLIER_ID,
    responses: [{ status: 200, description: 'Las llamadas.', body: 'SupplierLog' }],
    handler: async ({ c, deps, params }) => {
      await findSupplier(deps.db, params.id);
      return c.json(await supplierCalls(deps.db, params.id));
    },
  }),
];

/** PUT /api/admin/services/:id/routes: where a catalogue service is bought. */
export const serviceRouteAdminRoutes = [
  defineRoute({
    method: 'put',
    path: '/api/admin/services/:id/routes',
    operationId: 'adminSetServiceRoutes',
    tag: 'Administración',
    summary: 'Proveedores de un servicio (principal y alternativos)',
    description:
      'La lista completa, en orden: el primero es el principal y los demás se usan si el anterior rechaza la orden o no está disponible. Una lista vacía deja el servicio manual. Con `markupPercent` el precio sigue el costo del principal; con `null` el precio queda fijo (y el servicio se desactiva si el costo lo supera).',
    access: 'admin',
    roles: ['admin'],
    params: SERVICE_ID,
    body: { schema: SetServiceRoutesSchema },
    responses: [
      { status: 200, description: 'El servicio con sus rutas.', body: 'AdminServiceDto' },
    ],
    errors: ['NOT_FOUND', 'SUPPLIER_TEST_FAILED'],
    handler: async ({ c, deps, user, params, body }) =>
      c.json(
        await setServiceRoutes(supplierDeps(deps), user.id, params.id, body, c.get('clientIp')),
      ),
  }),
];

const ORDER_ID = idParams('Identificador de la orden (UUID).');

/** Decisions on orders whose forwarding needs an admin (review), and what was said upstream. */
export const dispatchAdminRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/admin/orders/:id/supplier-log',
    operationId: 'adminOrderSupplierLog',
    tag: 'Administración',
    summary: 'Lo que se habló con el proveedor sobre una orden',
    description:
      'Envíos y consultas de estado de la orden, del más reciente al más antiguo, con lo enviado (la clave sustituida por `***`) y la respuesta.',
    access: 'admin',
    roles: ['admin'],
    params: ORDER_ID,
    responses: [{ status: 200, description: 'Las llamadas.', body: 'SupplierLog' }],
    handler: async ({ c, deps, params }) => c.json(await orderSupplierLog(deps.db, params.id)),
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/orders/:id/dispatch/confirm',
    operationId: 'adminConfirmDispatch',
    tag: 'Administración',
    summary: 'El proveedor tiene la orden: seguirla con su referencia',
    description:
      'Para una orden en revisión (`dispatch.state = review`) que el proveedor sí recibió: se guarda su referencia y se sigue consultando su estado. No se envía nada.',
    access: 'admin',
    roles: ['admin', 'support'],
    params: ORDER_ID,
    body: { schema: ConfirmDispatchSchema },
    responses: [{ status: 200, description: 'La orden.', body: 'AdminOrderDto' }],
    errors: ['CONFLICT', 'NOT_FOUND'],
    handler: async ({ c, deps, user, params, body }) => {
      await confirmDispatch(supplierDeps(deps), user.id, params.id, body, c.get('clientIp'));
      return c.json(adminOrderFor(user.role, await adminGetOrder(deps.db, params.id, user.role)));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/orders/:id/dispatch/resend',
    operationId: 'adminResendDispatch',
    tag: 'Administración',
    summary: 'Enviar la orden de nuevo al proveedor',
    description:
      'Para una orden en revisión que el proveedor no recibió (compruébalo en su panel antes: enviarla otra vez puede crear una segunda orden allí). Vuelve a la cola y se envía una vez más.',
    access: 'admin',
    roles: ['admin', 'support'],
    params: ORDER_ID,
    responses: [{ status: 200, description: 'La orden.', body: 'AdminOrderDto' }],
    errors: ['CONFLICT', 'NOT_FOUND'],
    handler: async ({ c, deps, user, params }) => {
      await resendDispatch(supplierDeps(deps), user.id, params.id, c.get('clientIp'));
      return c.json(adminOrderFor(user.role, await adminGetOrder(deps.db, params.id, user.role)));
    },
  }),
];

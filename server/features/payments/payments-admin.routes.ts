import { RejectSchema } from '../../../shared/schemas/funds';
import {
  GatewayMethodParamSchema,
  UpdateGatewaySettingSchema,
  UpdatePaymentSettingsSchema,
} from '../../../shared/schemas/payments';
import { idParams } from '../../../shared/schemas/query';
import { defineRoute, type RouteDeps } from '../../lib/route';
import {
  approveHeldTopup,
  clearAccountFlag,
  getPaymentSettings,
  listAccountFlags,
  listGatewaySettings,
  listHeldTopups,
  listPaymentMethods,
  rejectHeldTopup,
  topupResult,
  updateGatewaySetting,
  updatePaymentSettings,
  type PaymentNotifier,
} from './payments-admin.service';

const TOPUP_ID = 'Identificador de la recarga (UUID).';
const FINANCE = ['admin', 'finance'] as const;

function notifier(deps: RouteDeps): PaymentNotifier {
  return {
    mailer: deps.mailer,
    logger: deps.logger,
    appName: deps.env.APP_NAME,
    appUrl: deps.env.APP_URL,
  };
}

/** The methods list (public: prices are seen before signing in) and a customer's top-up. */
export const paymentRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/payment-methods',
    operationId: 'listPaymentMethods',
    tag: 'Recargas',
    summary: 'Métodos de pago disponibles, con comisión y límites',
    description:
      'Cada método activo: primero los automáticos (tarjeta, PayPal, criptomonedas, Mercado Pago), después los de pago manual. Con su comisión (porcentaje y parte fija, que se suman al importe), el importe mínimo y máximo, y la moneda en que se cobra (Mercado Pago: la local, al tipo de cambio indicado). Los códigos de recarga no aparecen: no son un método de pago.',
    access: 'public',
    responses: [{ status: 200, description: 'Los métodos.', body: 'PaymentMethodList' }],
    handler: async ({ c, deps }) => c.json({ items: await listPaymentMethods(deps.db, deps.env) }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/payments/:id',
    operationId: 'getTopup',
    tag: 'Recargas',
    summary: 'Estado de una recarga propia y el saldo',
    description:
      'Las páginas de vuelta del proveedor la consultan hasta que la recarga deja de estar pendiente: acreditada, «En revisión», rechazada o caducada.',
    access: 'customer',
    params: idParams(TOPUP_ID),
    responses: [{ status: 200, description: 'La recarga y el saldo.', body: 'TopupResult' }],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, user, params }) =>
      c.json(await topupResult(deps.db, user.id, params.id)),
  }),
];

/** /api/admin: fees, limits, payment settings, held top-ups and flagged accounts (finance). */
export const paymentAdminRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/admin/payment-methods',
    operationId: 'adminListGatewaySettings',
    tag: 'Administración',
    summary: 'Comisión y límites de los métodos automáticos',
    description:
      'Tarjeta, PayPal, criptomonedas y Mercado Pago, estén configurados o no (`enabled`).',
    access: 'admin',
    roles: FINANCE,
    responses: [{ status: 200, description: 'Los métodos.', body: 'GatewaySettingList' }],
    handler: async ({ c, deps }) => c.json({ items: await listGatewaySettings(deps.db, deps.env) }),
  }),
  defineRoute({
    method: 'patch',
    path: '/api/admin/payment-methods/:method',
    operationId: 'adminUpdateGatewaySetting',
    tag: 'Administración',
    summary: 'Cambiar la comisión o los límites de un método automático',
    description:
      'Cualquier subconjunto de comisión porcentual, comisión fija, mínimo y máximo; el mínimo no puede quedar por encima del máximo guardado.',
    access: 'admin',
    roles: FINANCE,
    params: GatewayMethodParamSchema,
    body: { schema: UpdateGatewaySettingSchema },
    responses: [{ status: 200, description: 'El método modificado.', body: 'GatewaySettingDto' }],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, user, params, body }) =>
      c.json(
        await updateGatewaySetting(
          deps.db,
          deps.env,
          user.id,
          params.method,
          body,
          c.get('clientIp'),
        ),
      ),
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/payment-settings',
    operationId: 'adminGetPaymentSettings',
    tag: 'Administración',
    summary: 'Ajustes de pagos: retención, tipo de cambio y datos de los recibos',
    access: 'admin',
    roles: FINANCE,
    responses: [{ status: 200, description: 'Los ajustes.', body: 'PaymentSettingsDto' }],
    handler: async ({ c, deps }) => c.json(await getPaymentSettings(deps.db, deps.env)),
  }),
  defineRoute({
    method: 'patch',
    path: '/api/admin/payment-settings',
    operationId: 'adminUpdatePaymentSettings',
    tag: 'Administración',
    summary: 'Cambiar los ajustes de pagos',
    description:
      'Cualquier subconjunto. `holdThreshold: null` desactiva la retención de las primeras recargas; un tipo de cambio nuevo de Mercado Pago guarda cuándo se fijó.',
    access: 'admin',
    roles: FINANCE,
    body: { schema: UpdatePaymentSettingsSchema },
    responses: [{ status: 200, description: 'Los ajustes.', body: 'PaymentSettingsDto' }],
    handler: async ({ c, deps, user, body }) =>
      c.json(await updatePaymentSettings(deps.db, deps.env, user.id, body, c.get('clientIp'))),
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/payments/review',
    operationId: 'adminListHeldTopups',
    tag: 'Administración',
    summary: 'Recargas en revisión',
    description:
      'Recargas pagadas que esperan a finanzas antes de acreditarse (la primera con tarjeta o PayPal por encima del umbral), de la más antigua a la más reciente.',
    access: 'admin',
    roles: FINANCE,
    responses: [{ status: 200, description: 'Las recargas.', body: 'AdminPaymentList' }],
    handler: async ({ c, deps }) => c.json({ items: await listHeldTopups(deps.db) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/payments/:id/approve',
    operationId: 'adminApproveHeldTopup',
    tag: 'Administración',
    summary: 'Aprobar una recarga en revisión y acreditarla',
    description:
      'Acredita el importe una sola vez (con su recibo), aunque se apruebe varias veces a la vez; 409 si no está en revisión. Nadie puede aprobar una recarga propia.',
    access: 'admin',
    roles: FINANCE,
    params: idParams(TOPUP_ID),
    responses: [{ status: 200, description: 'Recarga acreditada.', body: 'AdminPaymentResult' }],
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ c, deps, user, params }) =>
      c.json(
        await approveHeldTopup(deps.db, user.id, params.id, c.get('clientIp'), notifier(deps)),
      ),
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/payments/:id/reject',
    operationId: 'adminRejectHeldTopup',
    tag: 'Administración',
    summary: 'Rechazar una recarga en revisión',
    description:
      'No se acredita nada; la tienda devuelve el dinero a través del proveedor. Se avisa al cliente por correo con el motivo.',
    access: 'admin',
    roles: FINANCE,
    params: idParams(TOPUP_ID),
    body: { schema: RejectSchema },
    responses: [{ status: 200, description: 'Recarga rechazada.', body: 'AdminPaymentResult' }],
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ c, deps, user, params, body }) =>
      c.json(
        await rejectHeldTopup(
          deps.db,
          user.id,
          params.id,
          body.reason,
          c.get('clientIp'),
          notifier(deps),
        ),
      ),
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/account-flags',
    operationId: 'adminListAccountFlags',
    tag: 'Administración',
    summary: 'Cuentas bloqueadas por una recarga revertida',
    description:
      'Clientes a los que se debitó un reembolso o contracargo de una recarga ya acreditada: no pueden hacer órdenes hasta que finanzas lo resuelva. Con su saldo actual (negativo mientras deben).',
    access: 'admin',
    roles: FINANCE,
    responses: [{ status: 200, description: 'Las alertas abiertas.', body: 'AccountFlagList' }],
    handler: async ({ c, deps }) => c.json({ items: await listAccountFlags(deps.db) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/account-flags/:id/clear',
    operationId: 'adminClearAccountFlag',
    tag: 'Administración',
    summary: 'Resolver una alerta: el cliente puede volver a hacer órdenes',
    access: 'admin',
    roles: FINANCE,
    params: idParams('Identificador de la alerta (UUID).'),
    responses: [{ status: 200, description: 'La alerta resuelta.', body: 'AccountFlagDto' }],
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ c, deps, user, params }) =>
      c.json(await clearAccountFlag(deps.db, user.id, params.id, c.get('clientIp'))),
  }),
];

// The API's operations as the OpenAPI document describes them: one entry per route the Hono app
// registers under /api (Better Auth's /api/auth/* excepted). Paths are written as in Hono
// (`:id`); the document writes them `{id}`. A test walks `app.routes` and fails when this list and
// the app disagree, so a new route cannot go undocumented.
import { CATEGORIES } from '../../shared/categories';
import type { ErrorCode } from '../../shared/error-codes';
import { ORDER_STATUSES } from '../../shared/schemas/orders';
import { ADMIN_REQUEST_STATUSES } from '../../shared/schemas/funds';
import type { RequestSchemaName, ResponseSchemaName } from './schemas';

export const TAGS = [
  {
    name: 'Catálogo',
    description:
      'Los servicios activos que se pueden pedir, por categoría, con los datos que pide cada uno.',
  },
  {
    name: 'Órdenes',
    description:
      'Pedir servicios con el saldo, seguirlos, cancelarlos mientras estén pendientes y exportar el historial.',
  },
  {
    name: 'Saldo',
    description:
      'El saldo disponible y el retenido por órdenes en curso, los movimientos y las recargas hechas.',
  },
  {
    name: 'Recargas',
    description:
      'Añadir saldo: con tarjeta (Stripe Checkout), con un pago manual que revisa un administrador o canjeando un código.',
  },
  {
    name: 'Cuenta',
    description:
      'La persona que ha iniciado sesión: su nombre, su rol y su saldo disponible. El registro y el inicio de sesión están en `/api/auth/*` (ver la introducción).',
  },
  {
    name: 'Contacto',
    description: 'El formulario de contacto de la web pública.',
  },
  {
    name: 'Pagos',
    description:
      'Avisos firmados de Stripe. No los llama una persona: Stripe los envía cuando un pago con tarjeta se completa, caduca o falla.',
  },
  {
    name: 'Administración',
    description:
      'Solo para cuentas con el rol de administrador: catálogo, cola de órdenes, revisión de pagos manuales, métodos de pago, códigos de recarga y ajustes de saldo.',
  },
  {
    name: 'Documentación',
    description: 'Este documento, en JSON (OpenAPI 3.1) y como página.',
  },
] as const;

export type TagName = (typeof TAGS)[number]['name'];

/**
 * Who may call an operation:
 * - `public`: anyone, no session;
 * - `optional`: anyone; a session, if sent, is recorded;
 * - `customer`: a session of a verified account (401 without one, 403 before verifying);
 * - `admin`: as `customer`, and the account has the admin role (403 otherwise);
 * - `stripe`: Stripe, with a `Stripe-Signature` header instead of a session.
 */
export type Access = 'public' | 'optional' | 'customer' | 'admin' | 'stripe';

export type QueryParam = {
  name: string;
  description: string;
  schema: Record<string, unknown>;
  required?: boolean;
  example?: string;
};

export type RequestBodySpec = {
  /** Component name of the JSON body (parsed with readJson: 400 BAD_REQUEST / VALIDATION_FAILED). */
  json?: RequestSchemaName;
  /** Component name of the same body sent as a form (multipart and urlencoded). */
  form?: RequestSchemaName;
  required?: boolean;
  description?: string;
};

export type SuccessSpec = {
  status: 200 | 201;
  description: string;
  /** A JSON body described by a response component; or a file of one of these media types. */
  body: ResponseSchemaName | { media: string[]; description: string };
  headers?: Record<string, { description: string; schema: Record<string, unknown> }>;
};

export type OperationSpec = {
  method: 'get' | 'post' | 'patch';
  path: string;
  operationId: string;
  tag: TagName;
  summary: string;
  description?: string;
  access: Access;
  /** The route reads an `Idempotency-Key` header (optional in both routes that do). */
  idempotencyKey?: string;
  pathParams?: Record<string, string>;
  query?: QueryParam[];
  body?: RequestBodySpec;
  responses: SuccessSpec[];
  /** Error codes the route itself can answer, beyond those of its access level and body. */
  errors?: ErrorCode[];
  /** Examples shown with the operation (curl). */
  codeSamples?: { lang: string; label: string; source: (baseUrl: string) => string }[];
};

const CURSOR: QueryParam = {
  name: 'cursor',
  description:
    'El `nextCursor` de la página anterior, para pedir la siguiente. Sin él se pide la primera página.',
  schema: { type: 'string' },
};

const ORDER_FILTERS: QueryParam[] = [
  {
    name: 'status',
    description:
      'Solo las órdenes en este estado, o en cualquiera de varios separados por comas (por ejemplo `pending,processing`).',
    schema: {
      type: 'string',
      pattern: `^(${ORDER_STATUSES.join('|')})(,(${ORDER_STATUSES.join('|')}))*$`,
      examples: ['completed', 'pending,processing'],
    },
  },
  {
    name: 'category',
    description: 'Solo las órdenes de esta categoría.',
    schema: { type: 'string', enum: CATEGORIES.map((c) => c.slug) },
  },
  {
    name: 'from',
    description: 'Solo las órdenes creadas en este momento o después (fecha ISO 8601).',
    schema: { type: 'string', format: 'date-time' },
    example: '2026-05-01T00:00:00Z',
  },
  {
    name: 'to',
    description: 'Solo las órdenes creadas antes de este momento (fecha ISO 8601, sin incluirlo).',
    schema: { type: 'string', format: 'date-time' },
    example: '2026-06-01T00:00:00Z',
  },
  {
    name: 'q',
    description:
      'Búsqueda: números de orden (`#123` o `123`) o datos identificadores (IMEI, enlace…), separados por espacios, comas o saltos de línea.',
    schema: { type: 'string' },
    example: '359702373699048 #42',
  },
];

export const OPERATIONS: OperationSpec[] = [
  // ─── Documentación ─────────────────────────────────────────────────────────────────────────
  {
    method: 'get',
    path: '/api/openapi.json',
    operationId: 'getOpenApiDocument',
    tag: 'Documentación',
    summary: 'Documento OpenAPI 3.1 de la API',
    description:
      'Este documento en JSON, generado a partir de los esquemas zod que usa el servidor. Público; se puede guardar en caché 5 minutos.',
    access: 'public',
    responses: [
      {
        status: 200,
        description: 'El documento OpenAPI.',
        body: { media: ['application/json'], description: 'Documento OpenAPI 3.1.' },
      },
    ],
  },
  {
    method: 'get',
    path: '/api/docs',
    operationId: 'getApiDocsPage',
    tag: 'Documentación',
    summary: 'Documentación de la API como página',
    description: 'Esta misma documentación en HTML, para leerla en el navegador.',
    access: 'public',
    responses: [
      {
        status: 200,
        description: 'La página de documentación.',
        body: { media: ['text/html'], description: 'Página HTML en español.' },
      },
    ],
  },

  // ─── Cuenta ────────────────────────────────────────────────────────────────────────────────
  {
    method: 'get',
    path: '/api/me',
    operationId: 'getMe',
    tag: 'Cuenta',
    summary: 'Datos de la cuenta y saldo disponible',
    access: 'customer',
    responses: [{ status: 200, description: 'La cuenta que ha iniciado sesión.', body: 'Me' }],
  },
  {
    method: 'patch',
    path: '/api/me',
    operationId: 'updateMe',
    tag: 'Cuenta',
    summary: 'Cambiar el nombre de la cuenta',
    access: 'customer',
    body: { json: 'UpdateProfileRequest' },
    responses: [{ status: 200, description: 'La cuenta con el nombre nuevo.', body: 'Me' }],
  },

  // ─── Contacto ──────────────────────────────────────────────────────────────────────────────
  {
    method: 'post',
    path: '/api/contact',
    operationId: 'sendContactMessage',
    tag: 'Contacto',
    summary: 'Enviar un mensaje de contacto',
    description:
      'Abierto a todos; si llega con sesión, el mensaje queda asociado a la cuenta. Como máximo 5 mensajes por hora y dirección IP.',
    access: 'optional',
    body: { json: 'ContactRequest' },
    responses: [
      {
        status: 201,
        description: 'Mensaje recibido.',
        body: 'ContactReceipt',
      },
    ],
    errors: ['RATE_LIMITED'],
  },

  // ─── Saldo ─────────────────────────────────────────────────────────────────────────────────
  {
    method: 'get',
    path: '/api/wallet',
    operationId: 'getWallet',
    tag: 'Saldo',
    summary: 'Saldo disponible y retenido',
    description:
      'El saldo disponible (Saldo) y el retenido por órdenes en curso (En proceso), en dólares estadounidenses.',
    access: 'customer',
    responses: [{ status: 200, description: 'El saldo.', body: 'WalletDto' }],
  },
  {
    method: 'get',
    path: '/api/wallet/movements',
    operationId: 'listWalletMovements',
    tag: 'Saldo',
    summary: 'Movimientos del saldo disponible',
    description: 'El extracto, del más reciente al más antiguo, en páginas de 20.',
    access: 'customer',
    query: [CURSOR],
    responses: [{ status: 200, description: 'Una página de movimientos.', body: 'MovementsPage' }],
    errors: ['BAD_REQUEST'],
  },
  {
    method: 'get',
    path: '/api/wallet/topups',
    operationId: 'listTopups',
    tag: 'Saldo',
    summary: 'Recargas hechas, de todos los métodos',
    description: 'Las 50 recargas más recientes (tarjeta, pago manual y códigos).',
    access: 'customer',
    responses: [{ status: 200, description: 'Las recargas.', body: 'PaymentList' }],
  },

  // ─── Recargas ──────────────────────────────────────────────────────────────────────────────
  {
    method: 'get',
    path: '/api/funds/methods',
    operationId: 'listFundingMethods',
    tag: 'Recargas',
    summary: 'Métodos de recarga disponibles',
    description:
      'La tarjeta (con sus límites, o `null` si no está configurada), los métodos de pago manual activos con sus instrucciones, y los códigos de recarga.',
    access: 'customer',
    responses: [{ status: 200, description: 'Los métodos.', body: 'FundingMethods' }],
  },
  {
    method: 'get',
    path: '/api/funds/stripe',
    operationId: 'getCardTopupConfig',
    tag: 'Recargas',
    summary: 'Si se puede recargar con tarjeta, y sus límites',
    access: 'customer',
    responses: [{ status: 200, description: 'Disponibilidad y límites.', body: 'CardTopupConfig' }],
  },
  {
    method: 'post',
    path: '/api/funds/stripe/checkout',
    operationId: 'createCardCheckout',
    tag: 'Recargas',
    summary: 'Empezar una recarga con tarjeta',
    description:
      'Crea un pago pendiente y una sesión de Stripe Checkout por ese importe; hay que abrir la `url` devuelta. El saldo se acredita solo cuando Stripe confirma el pago (aviso firmado), una sola vez. Como máximo 10 intentos cada 10 minutos.',
    access: 'customer',
    body: { json: 'CardCheckoutRequest' },
    responses: [
      {
        status: 201,
        description: 'Sesión de pago creada.',
        body: 'CardCheckout',
      },
    ],
    errors: ['NOT_FOUND', 'RATE_LIMITED'],
  },
  {
    method: 'post',
    path: '/api/funds/redeem',
    operationId: 'redeemVoucher',
    tag: 'Recargas',
    summary: 'Canjear un código de recarga',
    description:
      'Suma al saldo el valor del código, una sola vez. Un código desconocido responde 404; uno ya canjeado, 409; uno caducado, 400. Como máximo 10 intentos cada 10 minutos.',
    access: 'customer',
    body: { json: 'RedeemRequest' },
    responses: [
      {
        status: 200,
        description: 'Código canjeado.',
        body: 'RedeemResult',
      },
    ],
    errors: ['NOT_FOUND', 'CONFLICT', 'RATE_LIMITED'],
  },
  {
    method: 'post',
    path: '/api/funds/requests',
    operationId: 'createManualTopup',
    tag: 'Recargas',
    summary: 'Declarar un pago manual (transferencia, PayPal, cripto…)',
    description:
      'Registra el pago como pendiente de revisión; el saldo se acredita cuando un administrador lo aprueba. Se puede enviar como JSON o como formulario con un comprobante (PNG, JPG, WEBP o PDF de hasta 5 MB). Como máximo 5 solicitudes pendientes a la vez.',
    access: 'customer',
    body: { json: 'ManualTopupRequest', form: 'ManualTopupForm' },
    responses: [{ status: 201, description: 'Solicitud registrada.', body: 'PaymentDto' }],
    errors: ['NOT_FOUND', 'CONFLICT', 'PAYLOAD_TOO_LARGE'],
  },
  {
    method: 'get',
    path: '/api/funds/requests',
    operationId: 'listManualTopups',
    tag: 'Recargas',
    summary: 'Mis pagos manuales declarados',
    access: 'customer',
    responses: [{ status: 200, description: 'Las solicitudes.', body: 'PaymentList' }],
  },
  {
    method: 'get',
    path: '/api/funds/requests/:id/receipt',
    operationId: 'getManualTopupReceipt',
    tag: 'Recargas',
    summary: 'Descargar el comprobante de un pago manual propio',
    access: 'customer',
    pathParams: { id: 'Identificador de la solicitud (UUID).' },
    responses: [
      {
        status: 200,
        description: 'El archivo del comprobante.',
        body: {
          media: ['image/png', 'image/jpeg', 'image/webp', 'application/pdf'],
          description: 'El comprobante tal como se subió.',
        },
      },
    ],
    errors: ['NOT_FOUND'],
  },

  // ─── Pagos ─────────────────────────────────────────────────────────────────────────────────
  {
    method: 'post',
    path: '/api/webhooks/stripe',
    operationId: 'receiveStripeWebhook',
    tag: 'Pagos',
    summary: 'Aviso firmado de Stripe',
    description:
      'Configura en Stripe un endpoint con esta URL y los eventos `checkout.session.completed`, `checkout.session.async_payment_succeeded`, `checkout.session.async_payment_failed` y `checkout.session.expired`. La firma se comprueba sobre el cuerpo exacto; un aviso repetido no acredita dos veces. Responde 404 si el pago con tarjeta no está configurado.',
    access: 'stripe',
    body: { json: 'StripeEvent', description: 'El evento, tal como lo envía Stripe.' },
    responses: [{ status: 200, description: 'Aviso recibido.', body: 'StripeWebhookAck' }],
    errors: ['BAD_REQUEST', 'NOT_FOUND', 'PAYLOAD_TOO_LARGE'],
  },

  // ─── Catálogo ──────────────────────────────────────────────────────────────────────────────
  {
    method: 'get',
    path: '/api/services',
    operationId: 'listServices',
    tag: 'Catálogo',
    summary: 'Servicios activos',
    access: 'customer',
    query: [
      {
        name: 'category',
        description: 'Solo los servicios de esta categoría.',
        schema: { type: 'string', enum: CATEGORIES.map((c) => c.slug) },
      },
    ],
    responses: [
      { status: 200, description: 'Los servicios, en el orden del catálogo.', body: 'ServiceList' },
    ],
    errors: ['BAD_REQUEST'],
  },
  {
    method: 'get',
    path: '/api/services/categories',
    operationId: 'listCategories',
    tag: 'Catálogo',
    summary: 'Categorías con el número de servicios activos',
    access: 'customer',
    responses: [
      { status: 200, description: 'Las siete categorías, en orden.', body: 'CategoryCountList' },
    ],
  },
  {
    method: 'get',
    path: '/api/services/:id',
    operationId: 'getService',
    tag: 'Catálogo',
    summary: 'Un servicio activo',
    access: 'customer',
    pathParams: { id: 'Identificador del servicio (UUID).' },
    responses: [{ status: 200, description: 'El servicio.', body: 'ServiceDto' }],
    errors: ['NOT_FOUND'],
  },

  // ─── Órdenes ───────────────────────────────────────────────────────────────────────────────
  {
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
    body: { json: 'PlaceOrderRequest' },
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
  },
  {
    method: 'post',
    path: '/api/orders/bulk',
    operationId: 'placeBulkImeiOrder',
    tag: 'Órdenes',
    summary: 'Pedido masivo de IMEI (una orden por línea)',
    description:
      'Hasta 500 IMEI, uno por línea (o una lista). Cada línea se valida, se cobra y se responde por separado: una línea rechazada (IMEI no válido, repetido, en curso o sin saldo) no impide las demás. Solo para servicios con un campo IMEI.',
    access: 'customer',
    body: { json: 'BulkOrderRequest' },
    responses: [
      { status: 200, description: 'El resultado de cada línea.', body: 'BulkOrderResult' },
    ],
    errors: ['NOT_FOUND'],
  },
  {
    method: 'get',
    path: '/api/orders',
    operationId: 'listOrders',
    tag: 'Órdenes',
    summary: 'Historial de órdenes, con filtros',
    description: 'De la más reciente a la más antigua, en páginas de 25.',
    access: 'customer',
    query: [...ORDER_FILTERS, CURSOR],
    responses: [{ status: 200, description: 'Una página de órdenes.', body: 'OrdersPage' }],
    errors: ['BAD_REQUEST'],
  },
  {
    method: 'get',
    path: '/api/orders/summary',
    operationId: 'getOrderSummary',
    tag: 'Órdenes',
    summary: 'Resumen para el panel: órdenes por estado, últimas y gasto de 30 días',
    access: 'customer',
    responses: [{ status: 200, description: 'El resumen.', body: 'OrderSummary' }],
  },
  {
    method: 'get',
    path: '/api/orders/export.csv',
    operationId: 'exportOrdersCsv',
    tag: 'Órdenes',
    summary: 'Exportar el historial a CSV',
    description:
      'Las órdenes que cumplen los mismos filtros que el historial (hasta 50 000), con las columnas numero, fecha, servicio, categoria, cantidad, datos, importe, estado y resultado.',
    access: 'customer',
    query: ORDER_FILTERS,
    responses: [
      {
        status: 200,
        description: 'El archivo `ordenes.csv`.',
        body: { media: ['text/csv'], description: 'CSV en UTF-8 con saltos de línea CRLF.' },
      },
    ],
    errors: ['BAD_REQUEST'],
  },
  {
    method: 'get',
    path: '/api/orders/:id',
    operationId: 'getOrder',
    tag: 'Órdenes',
    summary: 'Una orden, con su historial de estados',
    access: 'customer',
    pathParams: { id: 'Identificador de la orden (UUID).' },
    responses: [{ status: 200, description: 'La orden, con `events`.', body: 'OrderDto' }],
    errors: ['NOT_FOUND'],
  },
  {
    method: 'post',
    path: '/api/orders/:id/cancel',
    operationId: 'cancelOrder',
    tag: 'Órdenes',
    summary: 'Cancelar una orden pendiente',
    description:
      'Solo mientras esté pendiente y no se haya enviado a un proveedor (`cancellable`). El importe vuelve al saldo disponible una sola vez.',
    access: 'customer',
    pathParams: { id: 'Identificador de la orden (UUID).' },
    responses: [{ status: 200, description: 'La orden cancelada.', body: 'OrderDto' }],
    errors: ['NOT_FOUND', 'CONFLICT'],
  },

  // ─── Administración: catálogo ──────────────────────────────────────────────────────────────
  {
    method: 'get',
    path: '/api/admin/services',
    operationId: 'adminListServices',
    tag: 'Administración',
    summary: 'Todos los servicios, también los inactivos',
    access: 'admin',
    responses: [{ status: 200, description: 'Los servicios.', body: 'AdminServiceList' }],
  },
  {
    method: 'post',
    path: '/api/admin/services',
    operationId: 'adminCreateService',
    tag: 'Administración',
    summary: 'Crear un servicio',
    access: 'admin',
    body: { json: 'CreateServiceRequest' },
    responses: [{ status: 201, description: 'El servicio creado.', body: 'AdminServiceDto' }],
  },
  {
    method: 'post',
    path: '/api/admin/services/reorder',
    operationId: 'adminReorderServices',
    tag: 'Administración',
    summary: 'Cambiar el orden del catálogo',
    access: 'admin',
    body: { json: 'ReorderServicesRequest' },
    responses: [
      { status: 200, description: 'Los servicios en el orden nuevo.', body: 'AdminServiceList' },
    ],
  },
  {
    method: 'post',
    path: '/api/admin/services/bulk-price',
    operationId: 'adminBulkPriceChange',
    tag: 'Administración',
    summary: 'Subir o bajar precios en bloque por un porcentaje',
    description:
      'Todos los servicios, o los de una categoría; cada precio se redondea hacia arriba al centavo.',
    access: 'admin',
    body: { json: 'BulkPriceRequest' },
    responses: [
      { status: 200, description: 'Cuántos precios cambiaron.', body: 'BulkPriceResult' },
    ],
  },
  {
    method: 'get',
    path: '/api/admin/services/:id',
    operationId: 'adminGetService',
    tag: 'Administración',
    summary: 'Un servicio, activo o no',
    access: 'admin',
    pathParams: { id: 'Identificador del servicio (UUID).' },
    responses: [{ status: 200, description: 'El servicio.', body: 'AdminServiceDto' }],
    errors: ['NOT_FOUND'],
  },
  {
    method: 'get',
    path: '/api/admin/services/:id/audit',
    operationId: 'adminServiceHistory',
    tag: 'Administración',
    summary: 'Historial de cambios de un servicio',
    description:
      'Lo que el registro de auditoría guarda de ese servicio: altas, cambios, activaciones, reordenaciones que lo movieron y cambios de precio en bloque.',
    access: 'admin',
    pathParams: { id: 'Identificador del servicio (UUID).' },
    responses: [{ status: 200, description: 'Los cambios.', body: 'ServiceHistory' }],
    errors: ['NOT_FOUND'],
  },
  {
    method: 'patch',
    path: '/api/admin/services/:id',
    operationId: 'adminUpdateService',
    tag: 'Administración',
    summary: 'Modificar, activar o desactivar un servicio',
    access: 'admin',
    pathParams: { id: 'Identificador del servicio (UUID).' },
    body: { json: 'UpdateServiceRequest' },
    responses: [{ status: 200, description: 'El servicio modificado.', body: 'AdminServiceDto' }],
    errors: ['NOT_FOUND'],
  },

  // ─── Administración: órdenes ───────────────────────────────────────────────────────────────
  {
    method: 'get',
    path: '/api/admin/orders',
    operationId: 'adminListOrders',
    tag: 'Administración',
    summary: 'Cola de órdenes de todos los clientes',
    description: 'Con los mismos filtros que el historial del cliente, en páginas de 50.',
    access: 'admin',
    query: [...ORDER_FILTERS, CURSOR],
    responses: [{ status: 200, description: 'Una página de órdenes.', body: 'OrdersPage' }],
    errors: ['BAD_REQUEST'],
  },
  {
    method: 'post',
    path: '/api/admin/orders/bulk-complete',
    operationId: 'adminBulkCompleteOrders',
    tag: 'Administración',
    summary: 'Completar órdenes en bloque pegando sus resultados',
    description:
      'Cada línea se resuelve por número de orden o por el IMEI de una orden en curso y se completa por separado, una sola vez; una línea que no se puede completar no cambia nada y dice por qué. Se avisa por correo a cada cliente.',
    access: 'admin',
    body: { json: 'BulkCompleteRequest' },
    responses: [
      { status: 200, description: 'El resultado de cada línea.', body: 'BulkCompleteResult' },
    ],
    errors: ['VALIDATION_FAILED'],
  },
  {
    method: 'get',
    path: '/api/admin/orders/:id',
    operationId: 'adminGetOrder',
    tag: 'Administración',
    summary: 'Una orden de cualquier cliente, con su historial',
    access: 'admin',
    pathParams: { id: 'Identificador de la orden (UUID).' },
    responses: [{ status: 200, description: 'La orden.', body: 'OrderDto' }],
    errors: ['NOT_FOUND'],
  },
  {
    method: 'post',
    path: '/api/admin/orders/:id/take',
    operationId: 'adminTakeOrder',
    tag: 'Administración',
    summary: 'Tomar una orden pendiente (pasa a «En proceso»)',
    access: 'admin',
    pathParams: { id: 'Identificador de la orden (UUID).' },
    responses: [{ status: 200, description: 'La orden en proceso.', body: 'OrderDto' }],
    errors: ['NOT_FOUND', 'CONFLICT'],
  },
  {
    method: 'post',
    path: '/api/admin/orders/:id/complete',
    operationId: 'adminCompleteOrder',
    tag: 'Administración',
    summary: 'Completar una orden con su resultado',
    description: 'El importe retenido pasa a ingresos y se avisa al cliente por correo.',
    access: 'admin',
    pathParams: { id: 'Identificador de la orden (UUID).' },
    body: { json: 'CompleteOrderRequest' },
    responses: [{ status: 200, description: 'La orden completada.', body: 'OrderDto' }],
    errors: ['NOT_FOUND', 'CONFLICT'],
  },
  {
    method: 'post',
    path: '/api/admin/orders/:id/reject',
    operationId: 'adminRejectOrder',
    tag: 'Administración',
    summary: 'Rechazar una orden y reembolsarla',
    description:
      'El importe vuelve al saldo disponible del cliente una sola vez y se le avisa por correo.',
    access: 'admin',
    pathParams: { id: 'Identificador de la orden (UUID).' },
    body: { json: 'RejectOrderRequest' },
    responses: [{ status: 200, description: 'La orden rechazada.', body: 'OrderDto' }],
    errors: ['NOT_FOUND', 'CONFLICT'],
  },

  // ─── Administración: pagos ─────────────────────────────────────────────────────────────────
  {
    method: 'get',
    path: '/api/admin/funds/requests',
    operationId: 'adminListManualTopups',
    tag: 'Administración',
    summary: 'Pagos manuales por revisar (o ya revisados)',
    description: 'Los pendientes, del más antiguo al más reciente; los demás, del más reciente.',
    access: 'admin',
    query: [
      {
        name: 'status',
        description: 'Estado de las solicitudes (por defecto `pending`).',
        schema: { type: 'string', enum: [...ADMIN_REQUEST_STATUSES], default: 'pending' },
      },
    ],
    responses: [{ status: 200, description: 'Las solicitudes.', body: 'AdminRequestList' }],
    errors: ['VALIDATION_FAILED'],
  },
  {
    method: 'post',
    path: '/api/admin/funds/requests/:id/approve',
    operationId: 'adminApproveManualTopup',
    tag: 'Administración',
    summary: 'Aprobar un pago manual y acreditarlo',
    description:
      'Acredita el importe una sola vez, aunque se apruebe dos veces a la vez. Nadie puede aprobar una solicitud propia.',
    access: 'admin',
    pathParams: { id: 'Identificador de la solicitud (UUID).' },
    responses: [
      { status: 200, description: 'Solicitud aprobada y saldo acreditado.', body: 'ApproveResult' },
    ],
    errors: ['NOT_FOUND', 'CONFLICT'],
  },
  {
    method: 'post',
    path: '/api/admin/funds/requests/:id/reject',
    operationId: 'adminRejectManualTopup',
    tag: 'Administración',
    summary: 'Rechazar un pago manual con un motivo',
    access: 'admin',
    pathParams: { id: 'Identificador de la solicitud (UUID).' },
    body: { json: 'RejectTopupRequest' },
    responses: [{ status: 200, description: 'Solicitud rechazada.', body: 'RejectResult' }],
    errors: ['NOT_FOUND', 'CONFLICT'],
  },
  {
    method: 'get',
    path: '/api/admin/funds/requests/:id/receipt',
    operationId: 'adminGetManualTopupReceipt',
    tag: 'Administración',
    summary: 'Descargar el comprobante de un pago manual',
    access: 'admin',
    pathParams: { id: 'Identificador de la solicitud (UUID).' },
    responses: [
      {
        status: 200,
        description: 'El archivo del comprobante.',
        body: {
          media: ['image/png', 'image/jpeg', 'image/webp', 'application/pdf'],
          description: 'El comprobante tal como se subió.',
        },
      },
    ],
    errors: ['NOT_FOUND'],
  },
  {
    method: 'get',
    path: '/api/admin/funds/methods',
    operationId: 'adminListFundingMethods',
    tag: 'Administración',
    summary: 'Métodos de pago manual, también los inactivos',
    access: 'admin',
    responses: [{ status: 200, description: 'Los métodos.', body: 'MethodList' }],
  },
  {
    method: 'post',
    path: '/api/admin/funds/methods',
    operationId: 'adminCreateFundingMethod',
    tag: 'Administración',
    summary: 'Crear un método de pago manual',
    access: 'admin',
    body: { json: 'CreateMethodRequest' },
    responses: [{ status: 201, description: 'El método creado.', body: 'MethodDto' }],
  },
  {
    method: 'patch',
    path: '/api/admin/funds/methods/:id',
    operationId: 'adminUpdateFundingMethod',
    tag: 'Administración',
    summary: 'Modificar un método de pago manual',
    access: 'admin',
    pathParams: { id: 'Identificador del método (UUID).' },
    body: { json: 'UpdateMethodRequest' },
    responses: [{ status: 200, description: 'El método modificado.', body: 'MethodDto' }],
    errors: ['NOT_FOUND'],
  },

  // ─── Administración: códigos de recarga ────────────────────────────────────────────────────
  {
    method: 'post',
    path: '/api/admin/vouchers',
    operationId: 'adminCreateVoucherBatch',
    tag: 'Administración',
    summary: 'Crear un lote de códigos de recarga',
    description: 'Los códigos solo se devuelven aquí y en la exportación CSV del lote.',
    access: 'admin',
    body: { json: 'CreateVoucherBatchRequest' },
    responses: [{ status: 201, description: 'El lote y sus códigos.', body: 'CreatedBatchDto' }],
  },
  {
    method: 'get',
    path: '/api/admin/vouchers',
    operationId: 'adminListVoucherBatches',
    tag: 'Administración',
    summary: 'Lotes de códigos de recarga',
    access: 'admin',
    responses: [{ status: 200, description: 'Los lotes.', body: 'VoucherBatchList' }],
  },
  {
    method: 'get',
    path: '/api/admin/vouchers/:id/export.csv',
    operationId: 'adminExportVoucherBatch',
    tag: 'Administración',
    summary: 'Exportar los códigos de un lote a CSV',
    access: 'admin',
    pathParams: { id: 'Identificador del lote (UUID).' },
    responses: [
      {
        status: 200,
        description: 'El archivo `vales-<id>.csv`.',
        body: {
          media: ['text/csv'],
          description: 'Un código por línea, con su estado, en UTF-8 y saltos de línea CRLF.',
        },
      },
    ],
    errors: ['NOT_FOUND'],
  },

  // ─── Administración: clientes ──────────────────────────────────────────────────────────────
  {
    method: 'get',
    path: '/api/admin/users',
    operationId: 'adminSearchCustomers',
    tag: 'Administración',
    summary: 'Buscar clientes por correo o nombre',
    description: 'Hasta 20 resultados; con menos de 2 caracteres devuelve una lista vacía.',
    access: 'admin',
    query: [
      {
        name: 'q',
        description: 'Parte del correo o del nombre (al menos 2 caracteres).',
        schema: { type: 'string', maxLength: 100 },
        example: 'ana@',
      },
    ],
    responses: [{ status: 200, description: 'Los clientes encontrados.', body: 'CustomerList' }],
  },
  {
    method: 'post',
    path: '/api/admin/users/:id/adjustments',
    operationId: 'adminAdjustBalance',
    tag: 'Administración',
    summary: 'Ajustar el saldo de un cliente',
    description:
      'Un abono (importe positivo) o un cargo (negativo) con un motivo, auditado. Un cargo que dejaría el saldo por debajo de cero responde 402.',
    access: 'admin',
    idempotencyKey:
      'Clave única por ajuste. Repetir la petición con la misma clave no mueve el saldo otra vez y responde 200. Sin ella, cada petición es un ajuste nuevo.',
    pathParams: { id: 'Identificador del cliente.' },
    body: { json: 'AdjustmentRequest' },
    responses: [
      { status: 201, description: 'Ajuste hecho.', body: 'AdjustmentResult' },
      {
        status: 200,
        description: 'Repetición con la misma `Idempotency-Key`: el ajuste ya hecho.',
        body: 'AdjustmentResult',
      },
    ],
    errors: ['INSUFFICIENT_FUNDS', 'NOT_FOUND', 'CONFLICT'],
  },
];

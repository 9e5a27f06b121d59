// What each schema of the document means, in Spanish, for the people who read it: one entry per
// component and one line per property. A test fails when a property has no line here or a line
// names a property the schema does not have.

export type SchemaDocs = { description: string; properties?: Record<string, string> };

const MONEY = 'Importe en dólares, texto con dos decimales (por ejemplo "1.50").';
const CREATED = 'Cuándo se creó (ISO 8601, UTC).';
const UPDATED = 'Cuándo cambió por última vez (ISO 8601, UTC).';
const NEXT_CURSOR =
  'Cursor de la página siguiente: pásalo como `?cursor=`. `null` en la última página.';

const TICKET_STATE_TEXT =
  'Estado: `open` (espera a la tienda), `answered` (respondido), `waiting_customer` (esperando al cliente) o `closed` (cerrado).';
const TICKET_CATEGORY_TEXT = 'Categoría: `order`, `payment`, `account`, `api` u `other`.';
const TICKET_SUMMARY: Record<string, string> = {
  id: 'Identificador del ticket.',
  number: 'Número del ticket, para citarlo (#1042).',
  subject: 'Asunto.',
  category: TICKET_CATEGORY_TEXT,
  state: TICKET_STATE_TEXT,
  unread:
    'Mensajes del otro lado sin leer (el cliente: respuestas del equipo; el equipo: mensajes del cliente).',
  lastMessageAt: 'Cuándo se escribió el último mensaje (ISO 8601, UTC).',
  createdAt: 'Cuándo se abrió (ISO 8601, UTC).',
  closedAt: 'Cuándo se cerró (ISO 8601, UTC); `null` si no está cerrado.',
};
const STAFF_TICKET_SUMMARY: Record<string, string> = {
  ...TICKET_SUMMARY,
  customer: 'El cliente (`id`, `email`, `name`).',
  assignee: 'Quién del equipo lo lleva (`id`, `name`); `null` si nadie.',
  firstResponseSeconds:
    'Segundos desde que se abrió hasta la primera respuesta del equipo; `null` si aún no hay.',
  resolutionSeconds: 'Segundos desde que se abrió hasta que se cerró; `null` si no está cerrado.',
};
const TICKET_DETAIL: Record<string, string> = {
  orders:
    'Las órdenes vinculadas (`id`, `number`, `serviceName`, `status`), sin precios ni costos.',
  messages: 'Los mensajes, del más antiguo al más reciente.',
};
const TICKET_FILES =
  'Archivos adjuntos (campo `files` repetido, hasta 3): imágenes PNG, JPEG, GIF o WebP y PDF de hasta 5 MB; el tipo se decide por el contenido.';

const TICKET_DOCS: Record<string, SchemaDocs> = {
  CreatedTicket: {
    description: 'El ticket recién abierto.',
    properties: {
      id: 'Identificador del ticket.',
      number: 'Número del ticket (#1042).',
      state: 'Estado: `open` (espera a la tienda).',
    },
  },
  TicketMessageDto: {
    description: 'Un mensaje de un ticket.',
    properties: {
      id: 'Identificador del mensaje.',
      authorKind: 'Quién lo escribió: `customer` (el cliente), `staff` (el equipo) o `system`.',
      authorName: 'Nombre de quien lo escribió.',
      body: 'El texto.',
      internal:
        'Nota interna del equipo: el cliente nunca la ve (siempre `false` en la vista del cliente).',
      attachments:
        'Archivos adjuntos (`id`, `name`, `contentType`, `size` en bytes, `url` de descarga).',
      createdAt: 'Cuándo se escribió (ISO 8601, UTC).',
    },
  },
  TicketList: {
    description: 'Una página de tickets del cliente, del de actividad más reciente al más antiguo.',
    properties: { items: 'Los tickets.', nextCursor: NEXT_CURSOR },
  },
  TicketDetail: {
    description: 'Un ticket del cliente con sus mensajes (sin notas internas).',
    properties: { ...TICKET_SUMMARY, ...TICKET_DETAIL },
  },
  StaffTicketSummary: {
    description: 'Un ticket en la lista del equipo.',
    properties: STAFF_TICKET_SUMMARY,
  },
  StaffTicketList: {
    description: 'Una página de tickets, del de actividad más reciente al más antiguo.',
    properties: { items: 'Los tickets.', nextCursor: NEXT_CURSOR },
  },
  StaffTicketDetail: {
    description: 'Un ticket con sus mensajes y las notas internas del equipo.',
    properties: { ...STAFF_TICKET_SUMMARY, ...TICKET_DETAIL },
  },
  TicketAssigneeList: {
    description: 'Las personas del equipo a las que se puede asignar un ticket, por nombre.',
    properties: { items: 'Las personas (`id`, `name`).' },
  },
  TicketUnread: {
    description: 'Tickets con respuestas sin leer.',
    properties: { unread: 'Cuántos.' },
  },
  BulkCloseTicketsResult: {
    description: 'Lo que cerró un cierre en bloque.',
    properties: {
      closed: 'Cuántos tickets se cerraron (los ya cerrados no cuentan).',
      ids: 'Los tickets cerrados.',
    },
  },
  CreateTicketRequest: {
    description: 'Un ticket nuevo.',
    properties: {
      subject: 'Asunto (3 a 150 caracteres).',
      category: `${TICKET_CATEGORY_TEXT} También en español: orden, pago, cuenta, otro.`,
      orderIds:
        'Las órdenes tuyas a las que se refiere (identificadores; en un formulario, separados por comas).',
      message: 'El mensaje (hasta 10 000 caracteres).',
    },
  },
  CreateTicketForm: {
    description: 'Un ticket nuevo como `multipart/form-data`, con archivos adjuntos.',
    properties: {
      subject: 'Asunto (3 a 150 caracteres).',
      category: TICKET_CATEGORY_TEXT,
      orderIds: 'Las órdenes a las que se refiere, separadas por comas.',
      message: 'El mensaje.',
      files: TICKET_FILES,
    },
  },
  TicketReplyRequest: {
    description: 'Un mensaje del cliente en su ticket.',
    properties: { body: 'El texto (hasta 10 000 caracteres).' },
  },
  TicketReplyForm: {
    description: 'Un mensaje del cliente como `multipart/form-data`, con archivos adjuntos.',
    properties: { body: 'El texto.', files: TICKET_FILES },
  },
  StaffTicketReplyRequest: {
    description: 'Una respuesta del equipo o una nota interna.',
    properties: {
      body: 'El texto (hasta 10 000 caracteres).',
      internal: 'Nota interna: solo la ve el equipo (por defecto `false`).',
      state:
        'Estado tras la respuesta: `answered` (por defecto), `waiting_customer` o `closed`; no se usa en las notas internas.',
    },
  },
  StaffTicketReplyForm: {
    description: 'Una respuesta o nota interna como `multipart/form-data`, con archivos adjuntos.',
    properties: {
      body: 'El texto.',
      internal: 'Nota interna (`true` o `false`).',
      state: 'Estado tras la respuesta.',
      files: TICKET_FILES,
    },
  },
  UpdateTicketRequest: {
    description: 'Cambiar el estado o la persona asignada (al menos uno).',
    properties: {
      state: TICKET_STATE_TEXT,
      assigneeId: 'Identificador de alguien del equipo de soporte, o `null` para nadie.',
    },
  },
  BulkCloseTicketsRequest: {
    description: 'Los tickets que cerrar.',
    properties: { ids: 'Identificadores de los tickets (1 a 100).' },
  },
};

const SERVICE_FIELD: Record<string, string> = {
  key: 'Clave del dato en `fields` al pedir (minúsculas, números y guiones bajos; el IMEI usa `imei`).',
  label: 'Etiqueta que ve el cliente.',
  type: 'Tipo de dato, con sus propias reglas (el IMEI, por ejemplo, se comprueba con Luhn).',
  required: 'Si el dato es obligatorio.',
  minLength: 'Longitud mínima (número de serie).',
  maxLength: 'Longitud máxima (número de serie, texto, usuario).',
  allowLetters: 'Número de serie: si admite letras además de números (por defecto sí).',
  min: 'Valor mínimo (número).',
  max: 'Valor máximo (número).',
  options: 'Opciones posibles (lista de selección).',
  hint: 'Ayuda que se muestra bajo el campo.',
  identifier:
    'Este dato identifica la orden: no se admite otra orden en curso con el mismo valor en el mismo servicio.',
  maxBytes: 'Archivo: el tamaño máximo en bytes (10 MB si no se indica; como mucho 20 MB).',
  extensions:
    'Archivo: las extensiones que acepta, en minúsculas y sin el punto (cualquiera si no se indican).',
};

const SERVICE: Record<string, string> = {
  id: 'Identificador del servicio (UUID).',
  number:
    'Número estable del servicio: su `SERVICEID` en la API DHRU Fusion y su `service` en la API SMM.',
  category: 'Categoría del servicio.',
  name: 'Nombre del servicio.',
  description: 'Descripción para el cliente.',
  deliveryTime: 'Tiempo de entrega orientativo (por ejemplo "1–24 horas").',
  price: `Precio por orden, o por cada 1000 unidades si \`unit\` es "1000". ${MONEY}`,
  unit: '"order": precio por orden; "1000": precio por cada 1000 unidades.',
  minQuantity: 'Cantidad mínima (solo servicios por 1000).',
  maxQuantity: 'Cantidad máxima (solo servicios por 1000).',
  allowRecheck:
    'Si se puede volver a pedir con el mismo dato mientras hay otra orden en curso (consultas).',
  fields: 'Los datos que hay que enviar al pedir.',
  smmType:
    'El tipo de orden SMM con el que se vende (`Default`, `Package`, `Custom Comments`, `Mentions with Hashtags`, `Poll`, `Subscriptions`…): sus datos son los parámetros de ese tipo; `null` si no es un servicio SMM.',
  dripfeed:
    'Si admite goteo (drip-feed): `runs` repeticiones de la cantidad, una cada `interval` minutos.',
  refillDays:
    'Días después de completarse en los que se puede pedir una reposición; `null` si no tiene reposición.',
  cancelable:
    'Si se puede pedir la cancelación de una orden que ya está en proceso en el proveedor (se reembolsa cuando el proveedor la cancela).',
  stock:
    'Servicios entregados desde stock: `available` (la orden se entrega al instante, o pasa a un proveedor si el stock se acabó) o `out` («Agotado»: las órdenes se rechazan). Nunca la cantidad. `null`: no se entrega desde stock.',
};

const PAYMENT: Record<string, string> = {
  id: 'Identificador de la recarga (UUID).',
  method:
    'Método: `stripe` (tarjeta), `paypal`, `crypto` (NOWPayments), `mercadopago`, `manual` o `voucher` (código).',
  methodName: 'Nombre del método para mostrar.',
  amount: `Lo que recibe (o recibió) el saldo. ${MONEY}`,
  fee: `Comisión pagada además del importe ("0.00" si no hay). ${MONEY}`,
  status:
    'Estado: `pending` (esperando el pago o la revisión de un pago manual), `review` (pagada, en revisión antes de acreditarse), `completed` (acreditada), `reversed` (reembolsada o revertida después de acreditarse), `rejected` o `expired`.',
  reference: 'Referencia declarada por el cliente (pagos manuales), o `null`.',
  rejectReason: 'Motivo del rechazo o de la reversión, o `null`.',
  note: 'Cómo se acreditó o por qué espera (pago parcial en cripto, revisión), o `null`.',
  hasReceipt: 'Si el cliente adjuntó un comprobante de su transferencia (pagos manuales).',
  receipts:
    'Recibos numerados emitidos al acreditarla (uno por abono): `id` y `number` (R-AAAA-NNNNNN); el PDF está en `/api/receipts/{id}/pdf`.',
  createdAt: CREATED,
  reviewedAt: 'Cuándo la revisó un administrador, o `null`.',
};

const METHOD: Record<string, string> = {
  id: 'Identificador del método (UUID).',
  name: 'Nombre del método (por ejemplo "Transferencia bancaria").',
  instructions: 'Instrucciones de pago para el cliente (cuenta, dirección…).',
  minAmount: `Importe mínimo. ${MONEY}`,
  maxAmount: `Importe máximo. ${MONEY}`,
  fee: 'Comisión que el cliente paga además del importe: `percent` (porcentaje del importe, "2.90" = 2,90 %) y `fixed` (parte fija en dólares).',
};

const METHOD_INPUT: Record<string, string> = {
  name: 'Nombre del método.',
  instructions: 'Instrucciones de pago que verá el cliente.',
  minAmount: 'Importe mínimo, con hasta dos decimales (por ejemplo "10" o "10.50").',
  maxAmount: 'Importe máximo, mayor o igual que el mínimo.',
  active: 'Si los clientes pueden usarlo.',
  sortOrder: 'Posición en la lista (de 0 a 9999).',
  feePercent:
    'Comisión porcentual que paga el cliente además del importe, de 0 a 50 con hasta dos decimales (por ejemplo "2.90"); por defecto "0.00".',
  feeFixed:
    'Comisión fija en dólares que paga el cliente además del importe (por ejemplo "0.30"); por defecto "0.00".',
};

const FEE_TEXT =
  'Comisión que el cliente paga además del importe: `percent` (porcentaje del importe, "2.90" = 2,90 %) y `fixed` (parte fija en dólares).';
const CUSTOMER_TEXT = 'El cliente (identificador, nombre y correo).';

const ADMIN_PAYMENT: Record<string, string> = {
  ...PAYMENT,
  customer: CUSTOMER_TEXT,
  holdReason:
    'Por qué se retuvo para revisión (por ejemplo, primera recarga con tarjeta por encima del umbral), o `null`.',
  reversedAmount: `Lo debitado de vuelta por reembolsos y contracargos. ${MONEY}`,
  providerRef:
    'Referencia en el proveedor (el pago o, si aún no lo hay, la sesión u orden de pago), o `null`.',
};

const SERVICE_INPUT: Record<string, string> = {
  category: 'Categoría.',
  name: 'Nombre (de 3 a 120 caracteres).',
  description: 'Descripción para el cliente.',
  deliveryTime: 'Tiempo de entrega orientativo.',
  price: 'Precio en dólares con hasta dos decimales, mayor que cero (por ejemplo "1.50").',
  unit: '"order" (por orden) o "1000" (por cada 1000 unidades, con cantidades mínima y máxima).',
  minQuantity: 'Cantidad mínima (servicios por 1000).',
  maxQuantity: 'Cantidad máxima (servicios por 1000).',
  fields:
    'Los datos que pedirá el servicio (como máximo 10, claves distintas, un solo identificador).',
  active: 'Si los clientes lo ven y pueden pedirlo.',
  sortOrder: 'Posición en el catálogo.',
  allowRecheck: 'Si se admite pedirlo otra vez con el mismo dato mientras hay otra orden en curso.',
  smmType:
    'Tipo de orden SMM (`Default`, `Package`, `Custom Comments`…): los campos deben ser exactamente los parámetros de ese tipo. `null`: no es un servicio SMM.',
  dripfeed: 'Si admite goteo (solo servicios por 1000 cuyo tipo lo permite).',
  refillDays: 'Días de reposición tras completarse (de 1 a 3650), o `null` sin reposición.',
  cancelable: 'Si se puede pedir la cancelación de una orden en proceso (servicios con proveedor).',
  delivery:
    'Cómo se entrega: `supplier` (por sus proveedores; a mano si no tiene), `manual` (siempre a mano) o `stock` (un artículo del stock al instante; sin stock, por sus proveedores o «Agotado»).',
  lowStockThreshold:
    'Servicios desde stock: se avisa a los administradores cuando los artículos disponibles bajan a esta cantidad (0 o más).',
};

const ORDER_FILE: Record<string, string> = {
  id: 'Identificador del archivo (UUID).',
  fieldKey: 'Clave del campo del servicio que lo pide.',
  name: 'Nombre del archivo, tal como se subió.',
  size: 'Tamaño en bytes.',
};

const ORDER: Record<string, string> = {
  id: 'Identificador de la orden (UUID).',
  number: 'Número de la orden, para las personas (#123).',
  serviceId: 'Identificador del servicio pedido.',
  serviceName: 'Nombre del servicio en el momento de pedirlo.',
  category: 'Categoría del servicio.',
  quantity: 'Cantidad (1 salvo en los servicios por 1000).',
  fields: 'Los datos enviados, ya normalizados, por su clave.',
  price: `Importe cobrado. ${MONEY}`,
  status: 'Estado de la orden.',
  statusLabel: 'El estado en español (Pendiente, En proceso, Completada…).',
  result: 'Resultado entregado al completarse, o `null`.',
  rejectReason: 'Motivo del rechazo, o `null`.',
  cancellable:
    'Si el cliente aún puede cancelarla (pendiente y sin enviar: se reembolsa al momento).',
  cancelRequested:
    'Si el cliente pidió cancelarla mientras estaba en proceso; se reembolsa cuando el proveedor confirma la cancelación.',
  runs: 'Goteo: cuántas repeticiones (la cantidad es el total); `null` si no es goteo.',
  runInterval: 'Goteo: minutos entre repeticiones; `null` si no es goteo.',
  startCount: 'El contador al empezar, según el proveedor (`start_count`), o `null`.',
  remains: 'Lo que falta por entregar, según el proveedor, o `null`.',
  source:
    'Dónde se pidió: `web`, `api` (esta API con una clave), `dhru` o `smm` (las APIs de esos protocolos).',
  sourceLabel: 'El origen, para mostrarlo (Web, API, API DHRU, API SMM).',
  createdAt: CREATED,
  updatedAt: UPDATED,
  events: 'Historial de estados, reposiciones y cancelaciones (solo en el detalle de una orden).',
  files:
    'Los archivos que lleva (campos de tipo archivo), para descargarlos (solo en el detalle de una orden).',
  refills: 'Las reposiciones pedidas, de la más antigua a la más reciente (solo en el detalle).',
  refill:
    'Si ahora se puede pedir una reposición, hasta cuándo, o por qué no (solo en el detalle).',
  cancelRequestable:
    'Si ahora se puede pedir la cancelación de la orden en proceso (solo en el detalle).',
};

const REFILL: Record<string, string> = {
  id: 'Identificador de la reposición (UUID).',
  number: 'Número de la reposición: su `refill` en la API SMM.',
  orderId: 'Identificador de la orden.',
  orderNumber: 'Número de la orden.',
  status: '`pending` (pendiente), `in_progress` (en el proveedor), `completed` o `rejected`.',
  statusLabel: 'El estado en español.',
  note: 'Motivo del rechazo o lo que dijo quien la atendió, o `null`.',
  createdAt: CREATED,
  finishedAt: 'Cuándo terminó, o `null`.',
};

const BATCH: Record<string, string> = {
  id: 'Identificador del lote (UUID).',
  amount: `Valor de cada código. ${MONEY}`,
  count: 'Cuántos códigos tiene el lote.',
  redeemed: 'Cuántos se han canjeado.',
  expiresAt: 'Cuándo caducan los códigos, o `null` si no caducan.',
  note: 'Nota interna, o `null`.',
  createdAt: CREATED,
  createdBy: 'Correo del administrador que lo creó.',
};

const ITEMS = (what: string) => ({ items: what });

const REPORT_FIGURES: Record<string, string> = {
  revenue: `Ingresos: lo cobrado por órdenes completadas y por la parte entregada de las parciales, neto de reembolsos. ${MONEY}`,
  cost: `Costo de esas órdenes (un costo desconocido cuenta como 0). ${MONEY}`,
  margin: 'Ingresos − costo, con signo («-1.50» si se perdió dinero).',
  orders: 'Órdenes completadas o entregadas en parte.',
  refunds: `Reembolsos: lo devuelto a los clientes (la parte no entregada de las parciales, las rechazadas y canceladas). ${MONEY}`,
};

/** Numbered receipts (server/features/receipts). */
const RECEIPT_DOCS: Record<string, SchemaDocs> = {
  ReceiptDto: {
    description:
      'Un recibo numerado: se emite uno por cada abono de una recarga, con los datos de la tienda y del cliente tal como eran entonces, y nunca cambia.',
    properties: {
      id: 'Identificador del recibo (UUID); su PDF está en `/api/receipts/{id}/pdf`.',
      number:
        'Número del recibo, `R-AAAA-NNNNNN` (por ejemplo R-2026-000123), sin huecos dentro de un año.',
      paymentId: 'La recarga que acredita (UUID).',
      method:
        'Método: `stripe` (tarjeta), `paypal`, `crypto` (NOWPayments), `mercadopago`, `manual` o `voucher` (código).',
      methodName: 'Nombre del método para mostrar (el del método de pago manual, si lo es).',
      description: 'Concepto (por ejemplo "Recarga con PayPal").',
      amount: `Lo acreditado al saldo. ${MONEY}`,
      fee: `Comisión pagada además del importe ("0.00" si no hay). ${MONEY}`,
      total: `Lo pagado: importe más comisión. ${MONEY}`,
      chargedAmount:
        'Lo cobrado en otra moneda (Mercado Pago), texto con dos decimales en esa moneda (por ejemplo "10455.50"), o `null`.',
      chargedCurrency: 'La moneda de `chargedAmount` (ISO 4217, por ejemplo `ARS`), o `null`.',
      customer: 'El cliente (`id`, y `name` y `email` tal como eran al emitirlo).',
      issuedAt: 'Cuándo se emitió (ISO 8601, UTC).',
    },
  },
  ReceiptList: {
    description: 'Recibos, del más reciente al más antiguo (por número).',
    properties: { items: 'Los recibos.', nextCursor: NEXT_CURSOR },
  },
};

export const SCHEMA_DOCS: Record<string, SchemaDocs> = {
  // ─── Responses ─────────────────────────────────────────────────────────────────────────────
  ApiErrorBody: {
    description: 'El cuerpo de toda respuesta de error.',
    properties: {
      code: 'Código estable del error, para los programas.',
      message: 'Mensaje en español, para mostrar a la persona.',
      fields: 'Un mensaje por campo con problemas, cuando los hay.',
    },
  },
  InternalErrorBody: {
    description: 'El cuerpo de un error inesperado (500).',
    properties: {
      code: 'Siempre `INTERNAL`.',
      message: 'Mensaje en español, para mostrar a la persona.',
      fields: 'No se usa en este error.',
      requestId: 'Identificador de la petición, para citarlo al informar del problema.',
    },
  },
  Me: {
    description: 'La cuenta que ha iniciado sesión.',
    properties: {
      id: 'Identificador de la cuenta.',
      name: 'Nombre.',
      email: 'Correo electrónico.',
      emailVerified: 'Si el correo está verificado (siempre `true` aquí).',
      role: 'Rol: `customer` (cliente), `admin`, `support` o `finance` (equipo).',
      balance: `Saldo disponible. ${MONEY}`,
      twoFactorEnabled:
        'Si la verificación en dos pasos está activada (los administradores sin ella reciben 403 `TWO_FACTOR_REQUIRED`).',
      priceGroup:
        'El grupo de precios de la cuenta (`id`, `name`): el predeterminado si no tiene uno asignado; `null` si no hay grupos.',
      unreadTickets:
        'Para un cliente, sus tickets de soporte con respuestas sin leer; para el equipo de soporte, los tickets que esperan a la tienda (abiertos); `null` para el resto del equipo.',
    },
  },
  ContactReceipt: {
    description: 'Acuse de recibo de un mensaje de contacto.',
    properties: { id: 'Identificador del mensaje.', message: 'Confirmación para mostrar.' },
  },
  WalletDto: {
    description: 'El saldo de la cuenta.',
    properties: {
      available: `Saldo disponible para pedir (Saldo). ${MONEY}`,
      held: `Saldo retenido por órdenes en curso (En proceso). ${MONEY}`,
      creditLimit: `Límite de crédito: cuánto por debajo de cero pueden dejar el saldo sus órdenes ("0.00": sin crédito). ${MONEY}`,
      spendable: `Lo que todavía puede gastar: saldo más límite de crédito, nunca menos de "0.00". ${MONEY}`,
      currency: 'Moneda: siempre dólares estadounidenses.',
    },
  },
  MovementDto: {
    description: 'Un movimiento del saldo disponible.',
    properties: {
      id: 'Identificador del movimiento.',
      date: 'Cuándo ocurrió (ISO 8601, UTC).',
      kind: 'Tipo: `topup_stripe`, `topup_paypal`, `topup_crypto`, `topup_mercadopago`, `topup_manual`, `topup_voucher`, `topup_reversal` (recarga reembolsada o revertida), `adjustment_credit`, `adjustment_debit`, `order_hold`, `order_release`…',
      description: 'Descripción para la persona (por ejemplo "Orden #12: Consulta IMEI").',
      amount: 'Importe con signo: "+25.00" abona, "-3.00" carga.',
      balanceAfter: `Saldo disponible después del movimiento. ${MONEY}`,
      receipt:
        'El recibo numerado de una recarga acreditada (`id`, `number`; PDF en `/api/receipts/{id}/pdf`), o `null`.',
    },
  },
  MovementsPage: {
    description: 'Una página del extracto, del movimiento más reciente al más antiguo.',
    properties: { items: 'Los movimientos.', nextCursor: NEXT_CURSOR },
  },
  PaymentDto: { description: 'Una recarga de saldo.', properties: PAYMENT },
  PaymentList: {
    description: 'Recargas, de la más reciente a la más antigua.',
    properties: ITEMS('Las recargas.'),
  },
  CardTopupConfig: {
    description: 'Si se puede recargar con tarjeta y entre qué importes.',
    properties: {
      available: 'Si el pago con tarjeta está configurado.',
      minAmount: 'Importe mínimo con tarjeta, o `null` si no está disponible.',
      maxAmount: 'Importe máximo con tarjeta, o `null` si no está disponible.',
    },
  },
  CardCheckout: {
    description: 'Una sesión de pago con tarjeta recién creada.',
    properties: {
      paymentId: 'Identificador de la recarga pendiente.',
      url: 'Página de pago de Stripe Checkout a la que hay que llevar al cliente.',
    },
  },
  RedeemResult: {
    description: 'Un código canjeado.',
    properties: {
      amount: `Valor abonado. ${MONEY}`,
      available: `Saldo disponible después del canje. ${MONEY}`,
      message: 'Confirmación para mostrar.',
    },
  },
  PublicMethodDto: {
    description: 'Un método de pago manual, tal como lo ve el cliente.',
    properties: METHOD,
  },
  FundingMethods: {
    description: 'Los métodos de recarga disponibles.',
    properties: {
      card: 'Límites del pago con tarjeta, o `null` si no está configurado.',
      manual: 'Métodos de pago manual activos.',
      voucher: 'Los códigos de recarga siempre están disponibles.',
    },
  },
  PaymentMethodDto: {
    description: 'Un método con el que recargar saldo.',
    properties: {
      id: '`stripe`, `paypal`, `crypto`, `mercadopago`, o `manual:<UUID>` para un método de pago manual.',
      method:
        'Método: `stripe` (tarjeta), `paypal`, `crypto` (NOWPayments), `mercadopago` o `manual`.',
      name: 'Nombre del método para mostrar.',
      fee: FEE_TEXT,
      minAmount: `Importe mínimo que recibe el saldo. ${MONEY}`,
      maxAmount: `Importe máximo que recibe el saldo. ${MONEY}`,
      currency:
        'Moneda en que se cobra (ISO 4217): "USD"; en Mercado Pago, la moneda local configurada.',
      rate: 'Unidades de `currency` por dólar (texto decimal) cuando se cobra en otra moneda; si no, `null`.',
      instructions: 'Cómo pagar (métodos de pago manual), o `null`.',
    },
  },
  PaymentMethodList: {
    description: 'Los métodos de pago disponibles: primero los automáticos, después los manuales.',
    properties: ITEMS('Los métodos.'),
  },
  TopupResult: {
    description: 'Una recarga tal como está ahora, y el saldo.',
    properties: {
      payment: 'La recarga (acreditada, en revisión, pendiente…).',
      balance: `Saldo disponible del cliente. ${MONEY}`,
    },
  },
  GatewaySettingDto: {
    description: 'Comisión y límites de un método automático.',
    properties: {
      method: 'Método: `stripe`, `paypal`, `crypto` o `mercadopago`.',
      name: 'Nombre del método para mostrar.',
      enabled:
        'Si está configurado en el servidor (sus variables están puestas): los clientes lo ven.',
      fee: FEE_TEXT,
      minAmount: `Importe mínimo por recarga. ${MONEY}`,
      maxAmount: `Importe máximo por recarga. ${MONEY}`,
      updatedAt:
        'Cuándo lo cambió un administrador por última vez (ISO 8601, UTC); `null` si usa los valores por defecto.',
    },
  },
  GatewaySettingList: {
    description: 'Los cuatro métodos automáticos.',
    properties: ITEMS('Los métodos.'),
  },
  PaymentSettingsDto: {
    description: 'Ajustes de pagos de la tienda.',
    properties: {
      holdThreshold: `La primera recarga con tarjeta o PayPal de una cuenta por encima de este importe espera a finanzas; \`null\`: sin retención. ${MONEY}`,
      mercadopagoCurrency:
        'Moneda de cobro de Mercado Pago (MERCADOPAGO_CURRENCY), o `null` si no está configurado.',
      mercadopagoRate: 'Unidades de esa moneda por dólar, o `null` hasta que se fije.',
      mercadopagoRateUpdatedAt: 'Cuándo se fijó el tipo de cambio (ISO 8601, UTC), o `null`.',
      shopName: 'Nombre del negocio, impreso en los recibos.',
      shopTaxId: 'Identificación fiscal del negocio, impresa en los recibos.',
      shopAddress: 'Dirección del negocio, impresa en los recibos.',
    },
  },
  AdminPaymentDto: { description: 'Una recarga, para finanzas.', properties: ADMIN_PAYMENT },
  AdminPaymentList: {
    description: 'Recargas en revisión, de la más antigua a la más reciente.',
    properties: ITEMS('Las recargas.'),
  },
  AdminPaymentResult: {
    description: 'Una recarga después de revisarla.',
    properties: {
      payment: 'La recarga.',
      balance: `Saldo disponible del cliente después. ${MONEY}`,
    },
  },
  AccountFlagDto: {
    description: 'Un cliente bloqueado para hacer órdenes por una recarga revertida.',
    properties: {
      id: 'Identificador de la alerta (UUID).',
      customer: CUSTOMER_TEXT,
      paymentId: 'La recarga revertida, o `null`.',
      reason: 'Motivo (reembolso, contracargo…).',
      balance: `Saldo disponible actual del cliente (negativo mientras debe). ${MONEY}`,
      createdAt: CREATED,
    },
  },
  AccountFlagList: {
    description: 'Las alertas abiertas, de la más antigua a la más reciente.',
    properties: ITEMS('Las alertas.'),
  },
  StripeWebhookAck: {
    description: 'Acuse de recibo para Stripe.',
    properties: { received: 'Siempre `true`.' },
  },
  PaypalTopup: {
    description: 'Una recarga con PayPal recién creada.',
    properties: {
      id: 'Identificador de la recarga pendiente (para confirmarla al volver de PayPal).',
      approveUrl: 'Página de PayPal donde el cliente aprueba el pago.',
    },
  },
  PaypalWebhookAck: {
    description: 'Acuse de recibo para PayPal.',
    properties: { received: 'Siempre `true`.' },
  },
  CryptoTopup: {
    description: 'Una recarga con criptomonedas recién creada, con su factura de NOWPayments.',
    properties: {
      id: 'Identificador de la recarga pendiente.',
      invoiceUrl: 'Página de la factura de NOWPayments a la que hay que llevar al cliente.',
    },
  },
  NowPaymentsAck: {
    description: 'Acuse de recibo para NOWPayments.',
    properties: { received: 'Siempre `true`.' },
  },
  MercadoPagoTopup: {
    description: 'Una recarga con Mercado Pago recién creada.',
    properties: {
      id: 'Identificador de la recarga pendiente (UUID).',
      initPoint: 'Página de pago de Mercado Pago Checkout Pro a la que hay que llevar al cliente.',
    },
  },
  MercadoPagoWebhookAck: {
    description: 'Acuse de recibo para Mercado Pago.',
    properties: { received: 'Siempre `true`.' },
  },
  TelegramAck: {
    description: 'Acuse de recibo para Telegram.',
    properties: { ok: 'Siempre `true`.' },
  },
  NotificationSettings: {
    description: 'Los avisos por Telegram de esta cuenta.',
    properties: {
      telegram: 'Los tipos de aviso elegidos.',
      available: 'Los tipos que esta cuenta puede elegir (según su rol).',
      telegramLink:
        'La cuenta de Telegram vinculada (`username`, `linkedAt`, `active`: falso si la persona bloqueó el bot), o `null`.',
      telegramEnabled: 'Si la tienda tiene un bot de Telegram.',
    },
  },
  TelegramLink: {
    description: 'Un código de un solo uso para vincular Telegram.',
    properties: {
      code: 'El código: se envía al bot como `/start <código>`.',
      url: 'El enlace `https://t.me/<bot>?start=<código>`, que abre el bot con el código.',
      expiresAt: 'Cuándo caduca el código (ISO 8601, UTC; 15 minutos).',
    },
  },
  ServiceField: {
    description: 'Un dato que pide un servicio al hacer una orden.',
    properties: SERVICE_FIELD,
  },
  ServiceDto: { description: 'Un servicio del catálogo.', properties: SERVICE },
  ServiceList: {
    description: 'Servicios, en el orden del catálogo.',
    properties: ITEMS('Los servicios.'),
  },
  CategoryCount: {
    description: 'Una categoría con cuántos servicios activos tiene.',
    properties: {
      slug: 'Identificador de la categoría (también en las rutas de la web).',
      label: 'Nombre en español.',
      count: 'Servicios activos en la categoría.',
    },
  },
  CategoryCountList: { description: 'Las siete categorías, en el orden en que se muestran.' },
  OrderFileDto: {
    description:
      'Un archivo de una orden; se descarga con `GET /api/orders/{id}/files/{fileId}` (o la ruta de administración).',
    properties: ORDER_FILE,
  },
  UploadedOrderFile: {
    description:
      'Un archivo subido: su `id` va en el campo de tipo archivo al pedir. Sirve para una sola orden y caduca en 24 horas si ninguna lo usa.',
    properties: {
      ...ORDER_FILE,
      serviceId: 'El servicio para el que se subió.',
    },
  },
  OrderEventDto: {
    description: 'Un cambio de estado de una orden, o una reposición o cancelación pedida.',
    properties: {
      kind: '`status` (cambió de estado), `refill` (una reposición) o `cancel` (una petición de cancelación).',
      status: 'El estado al que pasó (o en el que estaba, si no es un cambio de estado).',
      note: 'Nota (por ejemplo el motivo de un rechazo), o `null`.',
      actor: 'Quién lo hizo: el cliente, un administrador o el sistema.',
      at: 'Cuándo (ISO 8601, UTC).',
    },
  },
  OrderDto: { description: 'Una orden.', properties: ORDER },
  RefillDto: {
    description: 'Una reposición pedida sobre una orden completada.',
    properties: REFILL,
  },
  AdminRefillDto: {
    description: 'Una reposición, como la ve un administrador.',
    properties: {
      ...REFILL,
      customerEmail: 'Correo del cliente.',
      serviceName: 'Servicio de la orden.',
      identifier: 'El dato identificador de la orden (enlace, usuario…), o `null`.',
      routed:
        'Si se envía al proveedor que entregó la orden (se sigue sola) en lugar de atenderla un administrador.',
    },
  },
  AdminRefillList: { description: 'Reposiciones.', properties: ITEMS('Las reposiciones.') },
  OrdersPage: {
    description: 'Una página de órdenes, de la más reciente a la más antigua.',
    properties: { items: 'Las órdenes.', nextCursor: NEXT_CURSOR },
  },
  BulkLineResult: {
    description: 'El resultado de una línea de un pedido masivo: la orden creada o por qué no.',
    properties: {
      line: 'Número de línea en lo enviado (desde 1).',
      imei: 'El IMEI de la línea.',
      ok: 'Si se creó la orden.',
      order: 'La orden creada.',
      code: 'Por qué no: un código de error (`VALIDATION_FAILED`, `DUPLICATE_IN_FLIGHT`, `DUPLICATE_IN_LIST`, `INSUFFICIENT_FUNDS`…).',
      message: 'Por qué no, en español.',
    },
  },
  BulkOrderResult: {
    description: 'El resultado de un pedido masivo de IMEI.',
    properties: {
      results: 'Una entrada por línea no vacía, en orden.',
      placed: 'Órdenes creadas.',
      refused: 'Líneas rechazadas.',
      charged: `Total cobrado. ${MONEY}`,
    },
  },
  OrderSummary: {
    description: 'El resumen del panel del cliente.',
    properties: {
      byStatus: 'Número de órdenes en cada estado (todos los estados, 0 si no hay).',
      latest: 'Las 5 órdenes más recientes.',
      spend30d: 'Gasto por día de los últimos 30 días (UTC), sin las órdenes reembolsadas.',
      spend30dTotal: `Gasto total de esos 30 días. ${MONEY}`,
    },
  },
  BulkCompleteLine: {
    description:
      'Lo que pasó con una línea de resultados pegados: la orden completada o por qué no.',
    properties: {
      line: 'Número de línea en lo enviado (desde 1).',
      reference: 'La referencia leída: `#123` o el IMEI/identificador.',
      ok: 'Si la orden quedó completada.',
      orderId: 'Identificador de la orden completada.',
      number: 'Número de la orden completada.',
      code: 'Por qué no: `VALIDATION_FAILED` (línea mal escrita o repetida), `NOT_FOUND` (no hay tal orden) o `CONFLICT` (ya terminó, o el IMEI tiene varias órdenes en curso).',
      message: 'Por qué no, en español.',
    },
  },
  BulkPreviewOrder: {
    description: 'La orden que nombra una línea, como está ahora.',
    properties: {
      id: 'Identificador de la orden.',
      number: 'Número de la orden.',
      customerEmail: 'Correo del cliente.',
      customerName: 'Nombre del cliente.',
      serviceName: 'Servicio pedido.',
      identifier: 'Su dato identificador (IMEI, serie…), o `null`.',
      status: 'Estado actual (`pending`, `processing`, `completed`…).',
      statusLabel: 'Estado actual, en español.',
    },
  },
  BulkPreviewLine: {
    description: 'Una línea de resultados pegados, antes de completar nada.',
    properties: {
      line: 'Número de línea en lo enviado (desde 1).',
      reference: 'La referencia leída: `#123` o el IMEI/identificador.',
      action:
        '`complete`: la orden se completaría con `result`; `skip`: la línea no cambiaría nada.',
      order: 'La orden que nombra, o `null` si no nombra ninguna.',
      result: 'El resultado con el que se completaría, o `null`.',
      message: 'Qué pasará, en español.',
    },
  },
  BulkCompletePreview: {
    description: 'Lo que haría completar en bloque el texto pegado, sin cambiar nada.',
    properties: {
      lines: 'Una entrada por línea no vacía, en orden.',
      ready: 'Líneas que completarían su orden.',
      skipped: 'Líneas que no cambiarían nada.',
    },
  },
  BulkCompleteResult: {
    description: 'El resultado de completar órdenes en bloque.',
    properties: {
      results: 'Una entrada por línea no vacía, en orden.',
      completed: 'Órdenes completadas.',
      failed: 'Líneas que no completaron nada.',
    },
  },
  AdminServiceDto: {
    description: 'Un servicio, con lo que solo ven los administradores.',
    properties: {
      ...SERVICE,
      active: 'Si los clientes lo ven y pueden pedirlo.',
      sortOrder: 'Posición en el catálogo.',
      markupPercent:
        'Margen sobre el costo del proveedor principal, en %: el precio sigue al costo en cada sincronización. `null`: precio fijo.',
      routes:
        'Proveedores a los que se compra, en orden (el primero es el principal). Vacío: se atiende a mano.',
      delivery:
        'Cómo se entrega: `supplier` (por sus proveedores; a mano si no tiene), `manual` (siempre a mano) o `stock` (un artículo del stock al instante; sin stock, por sus proveedores).',
      lowStockThreshold: 'Aviso de poco stock: cuando los disponibles bajan a esta cantidad.',
      needsTranslation:
        'Por traducir: el nombre, la descripción o el plazo de entrega aún tienen palabras en inglés (típico de un servicio importado de un proveedor). Se calcula al leer: deja de serlo al reescribir esos textos en español.',
    },
  },
  AdminServiceList: {
    description: 'Todos los servicios, también los inactivos.',
    properties: ITEMS('Los servicios.'),
  },
  ServiceHistoryEntry: {
    description: 'Un cambio auditado de un servicio.',
    properties: {
      id: 'Identificador de la entrada de auditoría.',
      action:
        'Qué se hizo: `service.create`, `service.update`, `service.activate`, `service.deactivate`, `service.reorder`, `service.price_bulk`, `service.routes` (proveedores) o `service.price_sync` (precio que siguió al costo).',
      actor:
        'Quién lo hizo (nombre y correo), o `null` si fue el sistema (sincronización de precios) o la cuenta ya no existe.',
      createdAt: 'Cuándo (ISO 8601, UTC).',
      changes: 'Una entrada por propiedad cuyo valor cambió, con el valor anterior y el nuevo.',
    },
  },
  ServiceHistory: {
    description:
      'El historial de cambios de un servicio, del más reciente al más antiguo (hasta 50).',
    properties: ITEMS('Los cambios.'),
  },
  BulkPriceResult: {
    description: 'Resultado de un cambio de precios en bloque.',
    properties: { updated: 'Cuántos precios cambiaron.' },
  },
  StockUploadResult: {
    description:
      'Resultado de una carga de stock: se añaden las líneas válidas y se rechazan las demás.',
    properties: {
      added: 'Cuántos artículos se añadieron.',
      refused:
        'Las líneas rechazadas: su número (desde 1, como en el texto) y el motivo (vacía, demasiado larga, repetida en la carga o ya en el stock).',
    },
  },
  StockSummary: {
    description:
      'El stock de un servicio. De cada artículo solo se muestran sus últimos 4 caracteres.',
    properties: {
      available: 'Artículos disponibles para vender.',
      sold: 'Artículos vendidos (cada uno a una orden).',
      bad: 'Artículos marcados como defectuosos (reemplazados o reembolsados; siguen con su orden).',
      lowStockThreshold: 'Se avisa cuando los disponibles bajan a esta cantidad.',
      delivery: 'Cómo se entrega el servicio: `manual`, `supplier` o `stock`.',
      items:
        'Los 100 artículos más recientes: identificador, últimos 4 caracteres (`last4`), estado, orden a la que se vendió, fecha de carga y de venta.',
    },
  },
  AdminRequestDto: {
    description: 'Un pago manual para revisar, con su cliente.',
    properties: {
      ...PAYMENT,
      customer: 'El cliente que lo declaró (identificador, nombre y correo).',
      methodId: 'Identificador del método de pago manual, o `null`.',
    },
  },
  AdminRequestList: {
    description: 'Pagos manuales en un estado.',
    properties: ITEMS('Las solicitudes.'),
  },
  ApproveResult: {
    description: 'Un pago manual aprobado.',
    properties: {
      payment: 'La recarga, ya acreditada.',
      balance: `Saldo disponible del cliente después de acreditarla. ${MONEY}`,
    },
  },
  RejectResult: {
    description: 'Un pago manual rechazado.',
    properties: { payment: 'La recarga rechazada.' },
  },
  MethodDto: {
    description: 'Un método de pago manual.',
    properties: {
      ...METHOD,
      active: 'Si los clientes pueden usarlo.',
      sortOrder: 'Posición en la lista.',
      createdAt: CREATED,
      updatedAt: UPDATED,
    },
  },
  MethodList: {
    description: 'Métodos de pago manual, también los inactivos.',
    properties: ITEMS('Los métodos.'),
  },
  VoucherBatchDto: { description: 'Un lote de códigos de recarga.', properties: BATCH },
  VoucherBatchList: {
    description: 'Lotes de códigos, del más reciente al más antiguo.',
    properties: ITEMS('Los lotes.'),
  },
  CreatedBatchDto: {
    description: 'Un lote recién creado, con sus códigos.',
    properties: { batch: 'El lote.', codes: 'Los códigos (solo se muestran aquí y en el CSV).' },
  },
  CustomerSummary: {
    description: 'Un cliente de la lista de administración.',
    properties: {
      id: 'Identificador de la cuenta.',
      name: 'Nombre.',
      email: 'Correo electrónico.',
      role: 'Rol: `customer`, `admin`, `support` o `finance`.',
      emailVerified: 'Si verificó su correo.',
      balance: `Saldo disponible; \`null\` para el rol \`support\`, que no ve dinero. ${MONEY}`,
      available: `Lo mismo que \`balance\` (el nombre de la primera versión de esta lista). ${MONEY}`,
      lastOrderAt: 'Cuándo hizo su última orden (`null` si nunca pidió).',
      spend: `Lo que cobraron sus órdenes: las completadas y la parte entregada de las parciales; \`null\` para el rol \`support\`, que no ve dinero. ${MONEY}`,
      createdAt: 'Cuándo se creó la cuenta.',
      blocked: 'Si un administrador la bloqueó (no puede entrar).',
    },
  },
  CustomerList: {
    description: 'Una página de clientes.',
    properties: { items: 'Los clientes, en el orden pedido.', nextCursor: NEXT_CURSOR },
  },
  CustomerDetail: {
    description: 'Un cliente, como lo ve la página del cliente del panel.',
    properties: {
      id: 'Identificador de la cuenta.',
      name: 'Nombre.',
      email: 'Correo.',
      role: 'Rol: `customer`, `admin`, `support` o `finance`.',
      emailVerified: 'Si verificó su correo.',
      blocked: 'Si un administrador la bloqueó (no puede entrar).',
      twoFactorEnabled: 'Si tiene activada la verificación en dos pasos.',
      balance: `Saldo disponible; \`null\` para el rol \`support\`, que no ve dinero. ${MONEY}`,
      held: `Saldo retenido por órdenes en curso; \`null\` para el rol \`support\`, que no ve dinero. ${MONEY}`,
      spend: `Lo que cobraron sus órdenes; \`null\` para el rol \`support\`, que no ve dinero. ${MONEY}`,
      creditLimit: `Límite de crédito ("0.00": sin crédito); \`null\` para el rol \`support\`, que no ve dinero. ${MONEY}`,
      orders: 'Cuántas órdenes hizo.',
      lastOrderAt: 'Cuándo hizo su última orden (`null` si nunca pidió).',
      sessions: 'Sesiones abiertas ahora.',
      lastSignInAt: 'Cuándo entró por última vez (`null` si nunca).',
      createdAt: 'Cuándo se creó la cuenta.',
    },
  },
  CustomerNote: {
    description: 'Una nota interna de un administrador sobre un cliente.',
    properties: {
      id: 'Identificador de la nota (UUID).',
      body: 'El texto de la nota.',
      authorName: 'Quién la escribió (`null` si esa cuenta ya no existe).',
      createdAt: CREATED,
    },
  },
  CustomerNoteList: {
    description: 'Las notas de un cliente, de la más reciente a la más antigua.',
    properties: { items: 'Las notas.' },
  },
  CreditLimitResult: {
    description: 'El crédito de un cliente.',
    properties: {
      userId: 'Identificador del cliente.',
      creditLimit: `Límite de crédito en vigor ("0.00": sin crédito). ${MONEY}`,
      available: `Saldo disponible; negativo mientras debe (por ejemplo "-12.50"). ${MONEY}`,
      spendable: `Lo que todavía puede gastar: saldo más límite, nunca menos de "0.00". ${MONEY}`,
      debt: `Lo que debe: el saldo negativo en positivo, o "0.00". ${MONEY}`,
    },
  },
  Debtor: {
    description: 'Un cliente que debe dinero.',
    properties: {
      userId: 'Identificador del cliente.',
      name: 'Nombre del cliente (vacío si no lo dio).',
      email: 'Correo del cliente.',
      available: `Saldo disponible, negativo. ${MONEY}`,
      debt: `Lo que debe. ${MONEY}`,
      creditLimit: `Límite de crédito en vigor. ${MONEY}`,
      overLimit: '`true` si debe más que su límite actual (se le bajó o quitó el límite).',
    },
  },
  DebtorList: {
    description: 'Quién debe cuánto.',
    properties: {
      items: 'Los clientes con deuda, de la mayor a la menor.',
      total: `La suma de las deudas. ${MONEY}`,
    },
  },
  AdjustmentResult: {
    description: 'Un ajuste de saldo hecho.',
    properties: {
      available: `Saldo disponible del cliente después del ajuste. ${MONEY}`,
      held: `Saldo retenido del cliente. ${MONEY}`,
      transferId: 'Identificador del movimiento en el libro contable.',
      replayed: '`true` si es la repetición de un ajuste ya hecho con la misma clave.',
    },
  },

  // ─── Requests ──────────────────────────────────────────────────────────────────────────────
  ServiceRouteDto: {
    description: 'Una ruta de un servicio: a qué proveedor y qué servicio suyo se compra.',
    properties: {
      position: 'Orden de la ruta: 0 es el proveedor principal; los demás, alternativos.',
      supplierId: 'Identificador del proveedor.',
      supplierName: 'Nombre del proveedor.',
      supplierState: 'Estado del proveedor: `activo`, `fallando` o `desactivado`.',
      remoteId: 'Identificador del servicio en el catálogo del proveedor.',
      remoteName: 'Nombre del servicio en el proveedor (`null` si ya no lo ofrece).',
      cost: 'Último costo conocido en el proveedor, con hasta seis decimales.',
      currency: 'Moneda del proveedor.',
      missing: 'Si el proveedor ya no ofrece el servicio.',
    },
  },
  SupplierSettings: {
    description: 'Ajustes del dialecto del proveedor.',
    properties: {
      dhruParameters:
        'DHRU: cómo se envían los parámetros: `xml` (lo que envían la mayoría de paneles) o `json` (base64 de JSON).',
      dhruStatus2: 'DHRU: qué significa el estado 2: `processing` (en proceso) o `cancelled`.',
      dhruBulkStatus: 'DHRU: si el proveedor responde a `getimeiorderbulk`.',
      maxConcurrency: 'Peticiones simultáneas como máximo a este proveedor, por instancia.',
    },
  },
  SupplierDto: {
    description: 'Un proveedor al que se reenvían órdenes. La clave API nunca se devuelve.',
    properties: {
      id: 'Identificador del proveedor (UUID).',
      name: 'Nombre que le da el administrador.',
      protocol: '`dhru` (DHRU Fusion) o `smm` (API v2 de paneles SMM).',
      url: 'Dirección del proveedor, tal como se escribió.',
      username: 'Usuario (DHRU), normalmente el correo de la cuenta.',
      apiKeyHint: 'Los últimos caracteres de la clave, para reconocerla.',
      state:
        '`activo`; `fallando` (sus últimas llamadas fallaron; se sigue intentando); `desactivado` (no se le envían órdenes).',
      stateLabel: 'El estado, para mostrarlo.',
      balance: 'Último saldo leído, con hasta seis decimales.',
      currency: 'Moneda del saldo y de los costos.',
      lowBalanceThreshold: 'Por debajo de este saldo se avisa a los administradores por correo.',
      lastError: 'El último error del proveedor, si sus últimas llamadas fallaron.',
      lastCheckedAt: 'Cuándo se leyó su saldo por última vez.',
      settings: 'Ajustes del dialecto.',
      catalogueFetchedAt: 'Cuándo se leyó su catálogo por última vez.',
      catalogueIssues:
        'Lo que la última lectura del catálogo no pudo usar: entradas omitidas (sin identificador válido, repetidas, ilegibles) y servicios cuyo costo no se puede leer (los primeros 100).',
      catalogueIssueCount: 'Cuántos problemas tuvo en total la última lectura del catálogo.',
      routedServices: 'Servicios del catálogo que se le compran.',
      createdAt: CREATED,
      updatedAt: UPDATED,
    },
  },
  SupplierList: { description: 'Los proveedores.', properties: ITEMS('Los proveedores.') },
  SupplierTestResult: {
    description: 'El resultado de probar la conexión.',
    properties: {
      ok: 'Si el proveedor respondió con su saldo.',
      message: 'El saldo leído, o lo que respondió el proveedor.',
      supplier: 'El proveedor, con su estado actualizado.',
    },
  },
  RemoteServiceDto: {
    description: 'Un servicio del catálogo de un proveedor.',
    properties: {
      remoteId: 'Identificador del servicio en el proveedor.',
      name: 'Nombre en el proveedor.',
      group: 'Grupo o categoría en el proveedor.',
      type: 'Tipo en el proveedor (DHRU: IMEI, SERVER…; SMM: Default, Package…).',
      cost: 'Costo en el proveedor, por orden o por cada 1000 (`unit`), con hasta seis decimales.',
      currency: 'Moneda del costo.',
      deliveryTime: 'Tiempo de entrega que indica el proveedor.',
      unit: '"order": por orden; "1000": por cada 1000 unidades.',
      minQuantity: 'Cantidad mínima (servicios por 1000).',
      maxQuantity: 'Cantidad máxima (servicios por 1000).',
      info: 'Descripción del proveedor, en texto.',
      fields: 'Datos que pide.',
      importable: 'Si se puede importar.',
      reason: 'Por qué no se puede importar todavía.',
      missing: 'Si el proveedor ya no lo ofrece.',
      importedAs: 'Servicios del catálogo que se compran a través de este.',
    },
  },
  RemoteServiceList: {
    description: 'El catálogo de un proveedor.',
    properties: {
      items: 'Los servicios, por grupo y nombre.',
      groups: 'Todos los grupos del catálogo.',
      fetchedAt: 'Cuándo se leyó del proveedor.',
      stale: 'Si no se pudo leer ahora y se muestra la última copia.',
      message: 'Qué pasó al leerlo, si algo falló.',
    },
  },
  DispatchDto: {
    description: 'El envío de una orden a un proveedor.',
    properties: {
      supplierId: 'Proveedor al que se envía (o se envió).',
      supplierName: 'Nombre del proveedor.',
      reference: 'Número de la orden en el proveedor, cuando la aceptó.',
      state:
        '`queued` (en cola), `sending` (enviándose), `sent` (la tiene el proveedor; se consulta su estado), `waiting` (en espera del proveedor, se reintenta), `review` (necesita una decisión), `done` (terminada).',
      stateLabel: 'El estado, para mostrarlo.',
      attempts: 'Envíos hechos.',
      lastError: 'El último error o aviso.',
      reviewReason: 'Por qué necesita una decisión.',
      nextAttemptAt: 'Cuándo se intenta de nuevo (en cola o en espera).',
      updatedAt: UPDATED,
    },
  },
  AdminOrderDto: {
    description: 'Una orden, con su envío al proveedor.',
    properties: {
      ...ORDER,
      price: `Lo que se cobró al cliente; \`null\` para el rol \`support\`, que no ve dinero. ${MONEY}`,
      dispatch: 'Su envío al proveedor; `null` si se atiende a mano.',
      customerEmail: 'Correo del cliente.',
      customerName: 'Nombre del cliente.',
      cost: `Lo que nos costó (neto de entregas parciales; 0 si se reembolsó entera); \`null\` si no se conoce. Solo para administradores y finanzas (soporte no lo recibe). ${MONEY}`,
      margin:
        'Lo cobrado (neto de reembolsos) menos el costo, con signo («-1.50»); `null` si no se conoce el costo. Solo para administradores y finanzas.',
    },
  },
  ReportFigures: {
    description: 'Las cifras de un informe.',
    properties: REPORT_FIGURES,
  },
  ReportRow: {
    description: 'Una línea del desglose de un informe.',
    properties: {
      key: 'Clave de la línea: la categoría, el id del servicio, del proveedor (`manual`: a mano), del cliente o del grupo (`none`: sin grupo).',
      label: 'Nombre de la línea, para mostrarlo.',
      ...REPORT_FIGURES,
    },
  },
  ReportPoint: {
    description: 'Un periodo de la serie de un informe.',
    properties: { period: 'Primer día del periodo (`AAAA-MM-DD`, UTC).', ...REPORT_FIGURES },
  },
  ReportTopup: {
    description: 'Las recargas de un método en el rango.',
    properties: {
      method: '`stripe` (tarjeta), `manual` (pago manual aprobado) o `voucher` (cupón).',
      label: 'Nombre del método, para mostrarlo.',
      amount: `Total recargado. ${MONEY}`,
      count: 'Número de recargas.',
    },
  },
  Report: {
    description:
      'Informe de las órdenes liquidadas en un rango de días (UTC): desglose, totales, serie por periodo, mejores clientes y recargas por método.',
    properties: {
      from: 'Primer día (`AAAA-MM-DD`).',
      to: 'Último día (`AAAA-MM-DD`, incluido).',
      period: 'Periodo de la serie: `day`, `week` o `month`.',
      by: 'Desglose de `rows`: `category`, `service`, `supplier`, `customer` o `group`.',
      rows: 'El desglose, de más a menos ingresos.',
      totals: 'Los totales del rango (la suma de `rows`).',
      series: 'Cada periodo del rango, en orden (los vacíos con ceros).',
      topCustomers: 'Los diez clientes con más ingresos.',
      topups: 'Las recargas del rango por método.',
    },
  },
  StaffOrdersPage: {
    description:
      'Una página de órdenes de un cliente, de la más reciente a la más antigua (`price` es `null` para el rol `support`).',
    properties: { items: 'Las órdenes.', nextCursor: NEXT_CURSOR },
  },
  StaffMember: {
    description: 'Un miembro del equipo.',
    properties: {
      id: 'Identificador de la cuenta.',
      name: 'Nombre.',
      email: 'Correo.',
      role: 'Rol: `admin`, `support` o `finance`.',
      twoFactorEnabled: 'Si activó la verificación en dos pasos (sin ella no puede usar el panel).',
      lastSignInAt: 'Cuándo entró por última vez (`null` si nunca).',
      createdAt: 'Cuándo se creó la cuenta.',
    },
  },
  StaffInvitation: {
    description: 'Una invitación al equipo enviada y aún sin aceptar.',
    properties: {
      id: 'Identificador de la invitación.',
      email: 'Correo invitado.',
      role: 'Rol que recibirá: `admin`, `support` o `finance`.',
      invitedBy: 'Quién la envió (`null` si esa cuenta ya no existe).',
      createdAt: 'Cuándo se envió.',
      expiresAt: 'Cuándo caduca el enlace.',
    },
  },
  StaffList: {
    description: 'El equipo y las invitaciones pendientes.',
    properties: {
      items: 'Las cuentas del equipo, por correo.',
      invitations: 'Las invitaciones pendientes, de la más antigua a la más reciente.',
    },
  },
  StaffInvitationInfo: {
    description: 'Lo que ofrece una invitación al equipo.',
    properties: {
      email: 'Correo invitado.',
      role: 'Rol que recibirá.',
      roleLabel: 'El rol, como se muestra a las personas.',
      hasAccount: 'Si el correo ya tiene cuenta (aceptar le da el rol); si no, se crea al aceptar.',
      expiresAt: 'Cuándo caduca el enlace.',
    },
  },
  AcceptedStaffInvitation: {
    description: 'Una invitación aceptada.',
    properties: {
      email: 'Correo de la cuenta.',
      role: 'Su rol ahora.',
      created: 'Si se creó una cuenta nueva (con el correo ya verificado).',
    },
  },
  AuditPage: {
    description: 'Una página del registro de auditoría, de lo más reciente a lo más antiguo.',
    properties: { items: 'Las filas del registro.', nextCursor: NEXT_CURSOR },
  },
  InviteStaffRequest: {
    description: 'A quién invitar y con qué rol.',
    properties: { email: 'Correo de la persona.', role: 'Rol: `admin`, `support` o `finance`.' },
  },
  ChangeStaffRoleRequest: {
    description: 'El nuevo rol.',
    properties: { role: 'Rol: `admin`, `support` o `finance`.' },
  },
  AcceptStaffInvitationRequest: {
    description:
      'Aceptar una invitación: el código del enlace y, si el correo aún no tiene cuenta, el nombre y la contraseña.',
    properties: {
      token: 'El código del enlace.',
      name: 'Tu nombre (solo para una cuenta nueva).',
      password: 'Tu contraseña (solo para una cuenta nueva; al menos 8 caracteres).',
    },
  },
  AdminOrdersPage: {
    description: 'Una página de órdenes, de la más reciente a la más antigua.',
    properties: { items: 'Las órdenes.', nextCursor: NEXT_CURSOR },
  },
  AdminOverview: {
    description: 'Lo que espera a un administrador ahora, y las ventas de hoy.',
    properties: {
      pendingOrders: 'Órdenes pendientes (sin tomar), sin contar las que están en «Revisar».',
      reviewOrders: 'Órdenes en curso cuyo envío al proveedor espera una decisión («Revisar»).',
      pendingPayments:
        'Recargas manuales declaradas por clientes que esperan aprobación; `null` para los roles que no llevan pagos (`support`).',
      failingSuppliers:
        'Proveedores cuyas últimas llamadas fallaron; `null` para los roles que no llevan proveedores.',
      todayOrders: 'Órdenes de hoy (día UTC) no reembolsadas del todo.',
      todaySales: `Lo que cobran las órdenes de hoy, sin la parte devuelta de las parciales; \`null\` para el rol \`support\`, que no ve dinero. ${MONEY}`,
      since: 'Inicio del día que cuentan las ventas (ISO 8601, UTC).',
      openTickets:
        'Tickets de soporte que esperan a la tienda (estado `open`); `null` para los roles sin soporte (`finance`).',
    },
  },
  SnippetDto: {
    description: 'Un motivo de rechazo o una plantilla de resultado guardados.',
    properties: {
      id: 'Identificador.',
      kind: '`reject_reason`, `result_template` o `ticket_reply` (respuesta guardada del soporte).',
      title: 'Nombre corto.',
      body: 'El texto.',
      position: 'Orden en su lista.',
      createdAt: CREATED,
      updatedAt: UPDATED,
    },
  },
  ...TICKET_DOCS,
  ...RECEIPT_DOCS,
  SnippetList: {
    description: 'Los textos guardados, por tipo y posición.',
    properties: { items: 'Los textos.' },
  },
  BulkActionItem: {
    description: 'Lo que pasó con una orden.',
    properties: {
      id: 'La orden.',
      ok: 'Si la acción se hizo.',
      number: 'Su número, si existe.',
      message: 'Por qué no cambió nada; `null` si se hizo.',
    },
  },
  BulkActionResult: {
    description: 'El resultado de una acción en bloque, orden por orden.',
    properties: {
      done: 'Órdenes en las que se hizo.',
      failed: 'Órdenes que no cambiaron.',
      results: 'Una entrada por orden, en el orden pedido.',
    },
  },
  SupplierLogEntry: {
    description: 'Una llamada a un proveedor y su respuesta.',
    properties: {
      id: 'Identificador de la entrada.',
      supplierId: 'Proveedor.',
      supplierName: 'Nombre del proveedor.',
      action: 'Acción del protocolo (`placeimeiorder`, `add`, `status`…).',
      request: 'Lo enviado, con la clave sustituida por `***`.',
      httpStatus: 'Estado HTTP de la respuesta, si la hubo.',
      response: 'La respuesta (recortada a 64 KB).',
      error: 'Error de conexión, si lo hubo.',
      outcome:
        'Cómo se entendió: `ok`, `refused-order`, `refused-supplier`, `retry-later`, `not-sent` o `ambiguous`.',
      ms: 'Milisegundos que tardó.',
      at: 'Cuándo (ISO 8601, UTC).',
    },
  },
  SupplierLog: {
    description: 'Llamadas a proveedores.',
    properties: ITEMS('Las llamadas, de la más reciente a la más antigua.'),
  },
  ApiKeyDto: {
    description: 'Una clave API personal (sin la clave).',
    properties: {
      id: 'Identificador de la clave (UUID).',
      name: 'Nombre que le diste.',
      prefix: 'Los primeros caracteres de la clave, para reconocerla.',
      allowedIps: 'Direcciones o rangos desde los que se acepta; vacío: cualquiera.',
      createdAt: CREATED,
      lastUsedAt: 'Cuándo se usó por última vez (aproximado, al minuto), o `null`.',
    },
  },
  CreatedApiKey: {
    description: 'La clave creada: `key` solo se muestra esta vez.',
    properties: {
      id: 'Identificador de la clave (UUID).',
      name: 'Nombre que le diste.',
      prefix: 'Los primeros caracteres de la clave.',
      allowedIps: 'Direcciones o rangos desde los que se acepta; vacío: cualquiera.',
      createdAt: CREATED,
      lastUsedAt: 'Cuándo se usó por última vez (`null`: nunca).',
      key: 'La clave: guárdala, no se vuelve a mostrar.',
    },
  },
  ApiKeyList: { description: 'Tus claves activas.', properties: ITEMS('Las claves.') },
  Revoked: { description: 'Clave revocada.', properties: { revoked: 'Siempre `true`.' } },
  Deleted: { description: 'Borrado.', properties: { deleted: 'Siempre `true`.' } },
  AdminAnnouncement: {
    description: 'Un anuncio, como lo ve la administración.',
    properties: {
      id: 'Identificador del anuncio (UUID).',
      title: 'Título (hasta 120 caracteres).',
      body: 'Texto con formato breve: párrafos, saltos de línea, `**negrita**`, `*cursiva*` y enlaces `[texto](https://…)`.',
      pinned: 'Fijado: se muestra antes que los demás.',
      startsAt: 'Desde cuándo se muestra (ISO 8601, UTC).',
      endsAt: 'Hasta cuándo se muestra (ISO 8601, UTC); `null` sin fin.',
      audience: 'A quién va: `{}` a todos; `groupIds`, a los clientes de esos grupos de precios.',
      groups: 'Los grupos de precios de su audiencia, con su nombre (vacío si va a todos).',
      email: 'Se envía también por correo a su audiencia.',
      state: 'Estado: `scheduled` (programado), `active` (se muestra) o `ended` (terminado).',
      emailsSent: 'Correos enviados hasta ahora (uno por cliente).',
      emailDoneAt:
        'Cuándo el correo llegó a toda su audiencia; `null` si aún no, o si no va por correo.',
      createdAt: 'Cuándo se creó (ISO 8601, UTC).',
      updatedAt: 'Cuándo cambió por última vez (ISO 8601, UTC).',
    },
  },
  AdminAnnouncementList: {
    description: 'Los anuncios no eliminados, el inicio más reciente primero.',
    properties: { items: 'Los anuncios.' },
  },
  Announcement: {
    description: 'Un anuncio para el cliente.',
    properties: {
      id: 'Identificador del anuncio (UUID).',
      title: 'Título (hasta 120 caracteres).',
      body: 'Texto con formato breve: párrafos, saltos de línea, `**negrita**`, `*cursiva*` y enlaces `[texto](https://…)`.',
      pinned: 'Fijado: se muestra antes que los demás.',
      startsAt: 'Desde cuándo se muestra (ISO 8601, UTC).',
      endsAt: 'Hasta cuándo se muestra (ISO 8601, UTC); `null` sin fin.',
      read: 'El cliente ya lo cerró (no se muestra como aviso).',
    },
  },
  AnnouncementList: {
    description: 'Los anuncios que el cliente ve ahora: los fijados primero, luego los más nuevos.',
    properties: { items: 'Los anuncios.' },
  },
  PriceOverride: {
    description: 'Una excepción de un grupo de precios, para una categoría o un servicio.',
    properties: {
      category: 'La categoría a la que se aplica (`null` si es de un servicio).',
      serviceId: 'El servicio al que se aplica (`null` si es de una categoría).',
      serviceName: 'El nombre de ese servicio (`null` para una categoría).',
      basePrice: `El precio base de ese servicio (\`null\` para una categoría). ${MONEY}`,
      discountPercent:
        'Descuento sobre el precio base, como texto ("12.5"); `null` si es un precio fijo.',
      price: `Precio fijo; \`null\` si es un descuento. ${MONEY}`,
      belowCost: 'El precio que da queda por debajo del costo actual del proveedor principal.',
    },
  },
  PriceGroup: {
    description: 'Un grupo de precios: un descuento sobre el precio base y sus excepciones.',
    properties: {
      id: 'Identificador del grupo (UUID).',
      name: 'Nombre del grupo.',
      discountPercent: 'Descuento sobre el precio base, como texto ("12.5"; "0" sin descuento).',
      isDefault: 'Es el grupo de toda cuenta sin grupo asignado (hay exactamente uno).',
      customers: 'Clientes en el grupo (en el predeterminado, también los que no tienen grupo).',
      overrides: 'Las excepciones por categoría o por servicio.',
      belowCost: 'Alguna excepción queda por debajo del costo del proveedor.',
    },
  },
  PriceGroupList: {
    description: 'Los grupos de precios, el predeterminado primero.',
    properties: { items: 'Los grupos.' },
  },
  SpecialPrice: {
    description: 'El precio especial de un cliente para un servicio.',
    properties: {
      serviceId: 'Identificador del servicio (UUID).',
      serviceName: 'Nombre del servicio.',
      basePrice: `Precio base del servicio. ${MONEY}`,
      price: `Precio especial del cliente. ${MONEY}`,
      belowCost: 'El precio especial queda por debajo del costo actual del proveedor principal.',
    },
  },
  CustomerPrices: {
    description: 'El grupo de precios y los precios especiales de un cliente.',
    properties: {
      group: 'Su grupo (el predeterminado si no tiene uno asignado); `null` si no hay grupos.',
      assigned: 'Un administrador le asignó el grupo (`false`: se aplica el predeterminado).',
      specialPrices: 'Sus precios especiales, por encima de cualquier regla de grupo.',
    },
  },
  Resent: { description: 'Aviso en cola.', properties: { resent: 'Siempre `true`.' } },
  WebhookEndpointDto: {
    description: 'Un destino de avisos (webhook).',
    properties: {
      id: 'Identificador del destino (UUID).',
      url: 'La dirección que recibe los avisos.',
      state: '`active` o `disabled` (tras 3 días sin poder entregar).',
      stateLabel: 'El estado, para mostrarlo.',
      failures: 'Intentos fallidos seguidos.',
      disabledReason: 'Por qué se desactivó.',
      createdAt: CREATED,
    },
  },
  CreatedWebhookEndpoint: {
    description:
      'El destino creado: `secret` (para comprobar las firmas) solo se muestra esta vez.',
    properties: {
      id: 'Identificador del destino (UUID).',
      url: 'La dirección que recibe los avisos.',
      state: '`active`.',
      stateLabel: 'El estado, para mostrarlo.',
      failures: 'Intentos fallidos seguidos.',
      disabledReason: 'Por qué se desactivó.',
      createdAt: CREATED,
      secret: 'El secreto de firma (`whsec_…`): guárdalo.',
    },
  },
  WebhookEndpointList: {
    description: 'Tus destinos de avisos.',
    properties: ITEMS('Los destinos.'),
  },
  WebhookAttemptDto: {
    description: 'Un intento de entrega.',
    properties: {
      at: 'Cuándo (ISO 8601, UTC).',
      httpStatus: 'El código HTTP que respondió tu servidor, si respondió.',
      reason:
        'Por qué falló, en pocas palabras (por ejemplo «El servidor respondió HTTP 500», «No se pudo conectar», «Tiempo de espera agotado»); `null` si respondió 2xx. No incluye el cuerpo de la respuesta.',
      ms: 'Milisegundos que tardó.',
    },
  },
  WebhookDeliveryDto: {
    description: 'Un aviso enviado a un destino.',
    properties: {
      id: 'Identificador del aviso (UUID).',
      eventId: 'Identificador del evento (`id` en el cuerpo): el mismo en cada reintento.',
      type: '`order.updated`.',
      orderId: 'La orden.',
      state: '`pending` (se reintenta), `delivered` o `failed`.',
      stateLabel: 'El estado, para mostrarlo.',
      attempts: 'Intentos hechos.',
      nextAttemptAt: 'Cuándo se intenta de nuevo (si está pendiente).',
      deliveredAt: 'Cuándo se entregó.',
      createdAt: CREATED,
      body: 'El JSON enviado, tal cual (lo que cubre la firma).',
      lastAttempts: 'Los últimos intentos, del más reciente al más antiguo.',
    },
  },
  WebhookDeliveryList: {
    description: 'Avisos de un destino.',
    properties: ITEMS('Los avisos, del más reciente al más antiguo.'),
  },
  CreateApiKeyRequest: {
    description: 'Una clave API nueva.',
    properties: {
      name: 'Un nombre para reconocerla (por ejemplo el panel que la usa).',
      allowedIps: 'Opcional: direcciones IP o rangos CIDR desde los que se acepta.',
    },
  },
  CreateWebhookEndpointRequest: {
    description: 'Un destino de avisos nuevo.',
    properties: { url: 'La dirección (http o https, pública) que recibirá los avisos.' },
  },
  DhruRequest: {
    description: 'El formulario de una petición DHRU Fusion.',
    properties: {
      username: 'El correo de la cuenta.',
      apiaccesskey: 'Una clave API personal.',
      action: 'La acción.',
      requestformat: '`JSON`.',
      parameters: 'Los parámetros de la acción (XML o base64 de JSON).',
    },
  },
  SmmRequest: {
    description: 'El formulario de una petición SMM v2.',
    properties: {
      key: 'Una clave API personal.',
      action: 'La acción.',
      service: 'Número de servicio (`add`).',
      link: 'Enlace (`add`).',
      quantity: 'Cantidad (`add`).',
      order: 'Número de orden (`status`).',
      orders: 'Números de orden separados por comas (`status`, `cancel`).',
    },
  },
  CreateSupplierRequest: {
    description: 'Un proveedor nuevo. Se prueba la conexión antes de guardarlo.',
    properties: {
      name: 'Nombre para reconocerlo (único).',
      protocol: '`dhru` (DHRU Fusion) o `smm` (API v2 de paneles SMM).',
      url: 'Dirección del panel del proveedor (la base, o la dirección completa de su API).',
      username: 'Usuario (obligatorio en DHRU; suele ser el correo de la cuenta).',
      apiKey: 'Clave API que da el proveedor. Se guarda cifrada y no se vuelve a mostrar.',
      lowBalanceThreshold: 'Saldo por debajo del cual se avisa por correo (por ejemplo "25.00").',
      settings: 'Ajustes del dialecto (opcionales).',
    },
  },
  UpdateSupplierRequest: {
    description: 'Cambios de un proveedor: solo lo que se envía.',
    properties: {
      name: 'Nombre nuevo.',
      url: 'Dirección nueva (se prueba antes de guardar).',
      username: 'Usuario nuevo (se prueba antes de guardar).',
      apiKey: 'Clave nueva (se prueba antes de guardar).',
      lowBalanceThreshold: 'Aviso de saldo bajo; `null` lo quita.',
      settings: 'Ajustes del dialecto que cambian.',
      state: '`desactivado` deja de enviarle órdenes; `activo` lo reactiva.',
    },
  },
  ImportServicesRequest: {
    description: 'Servicios del proveedor que se añaden al catálogo.',
    properties: {
      remoteIds: 'Identificadores de los servicios en el proveedor (hasta 200).',
      category: 'Categoría del catálogo donde se crean.',
      markupPercent:
        'Margen en % sobre el costo: precio = costo × (1 + margen / 100), redondeado hacia arriba al centavo.',
    },
  },
  SetServiceRoutesRequest: {
    description: 'Los proveedores de un servicio, en orden.',
    properties: {
      routes: 'Las rutas: el primero es el principal. Vacío: servicio manual.',
      markupPercent: 'Margen sobre el costo del principal; `null` deja el precio fijo.',
    },
  },
  ConfirmDispatchRequest: {
    description: 'La referencia con la que el proveedor tiene la orden.',
    properties: { reference: 'Número de la orden en el proveedor.' },
  },
  UpdateProfileRequest: {
    description: 'El nombre nuevo.',
    properties: { name: 'Nombre (hasta 80 caracteres, sin < ni >).' },
  },
  ContactRequest: {
    description: 'Un mensaje para el equipo.',
    properties: {
      name: 'Tu nombre.',
      email: 'Correo al que responder.',
      subject: 'Asunto.',
      message: 'El mensaje.',
    },
  },
  GatewayTopupRequest: {
    description: 'El importe a recargar; la comisión del método se suma al cobro.',
    properties: {
      amount:
        'Importe en dólares que recibe el saldo, con hasta dos decimales (por ejemplo "25.00"), dentro de los límites del método.',
    },
  },
  PaypalEvent: {
    description: 'Un evento de webhook de PayPal (solo se leen los de órdenes y capturas).',
    properties: {
      id: 'Identificador del evento (un aviso repetido no se procesa dos veces).',
      event_type: 'Tipo de evento, por ejemplo `PAYMENT.CAPTURE.COMPLETED`.',
      resource: 'El objeto del evento: la orden, la captura o el reembolso.',
    },
  },
  CardCheckoutRequest: {
    description: 'El importe a recargar con tarjeta.',
    properties: {
      amount:
        'Importe en dólares con hasta dos decimales (por ejemplo "25.00"), dentro de los límites de la tarjeta.',
    },
  },
  RedeemRequest: {
    description: 'El código a canjear.',
    properties: { code: 'El código, con o sin guiones; mayúsculas o minúsculas.' },
  },
  ManualTopupRequest: {
    description: 'Un pago manual declarado.',
    properties: {
      methodId: 'Identificador del método de pago manual usado.',
      amount:
        'Importe enviado, en dólares con hasta dos decimales, dentro de los límites del método.',
      reference:
        'Referencia del pago (número de operación, correo de PayPal, hash de la transacción…).',
    },
  },
  OrderFileUploadRequest: {
    description:
      'El servicio y el campo para los que se sube un archivo (el archivo va como formulario).',
    properties: {
      serviceId: 'Identificador del servicio (UUID).',
      field: 'Clave del campo de tipo archivo del servicio.',
    },
  },
  OrderFileUploadForm: {
    description:
      'Un archivo para el campo de tipo archivo de un servicio, como `multipart/form-data`.',
    properties: {
      serviceId: 'Identificador del servicio (UUID).',
      field: 'Clave del campo de tipo archivo del servicio.',
      file: 'El archivo, dentro de los límites del campo (tamaño y extensiones).',
    },
  },
  ManualTopupForm: {
    description: 'Un pago manual declarado, como formulario, con el comprobante opcional.',
    properties: {
      methodId: 'Identificador del método de pago manual usado.',
      amount: 'Importe enviado, en dólares con hasta dos decimales.',
      reference: 'Referencia del pago.',
      receipt: 'Comprobante: imagen PNG, JPG o WEBP, o PDF, de hasta 5 MB.',
    },
  },
  NotificationPrefsRequest: {
    description: 'Los avisos que llegan por Telegram (la lista completa).',
    properties: {
      telegram:
        'Tipos de aviso: `ticket.new`, `ticket.reply`, `order.review`, `supplier.failing`, `payment.pending`, `credit.limit` (personal), `order.completed`, `order.rejected`, `ticket.reply` (clientes).',
    },
  },
  TelegramUpdate: {
    description: 'Un Update de la Bot API de Telegram (solo se leen los campos de abajo).',
    properties: {
      update_id: 'Identificador del update (uno repetido no se procesa dos veces).',
      message: 'Un mensaje al bot: se leen `/start <código>`, `/start` y `/stop`.',
      my_chat_member: 'Un cambio del bot en el chat: `kicked` (la persona bloqueó el bot).',
    },
  },
  CryptoTopupRequest: {
    description: 'El importe a recargar con criptomonedas (la comisión del método se suma aparte).',
    properties: {
      amount:
        'Importe que recibe el saldo, en dólares con hasta dos decimales (por ejemplo "25.00"), dentro de los límites del método.',
      payCurrency:
        'Opcional: la moneda con la que se pagará, con el código de NOWPayments (por ejemplo `usdttrc20`, `btc`); sin ella, el cliente la elige en la factura.',
    },
  },
  NowPaymentsIpn: {
    description:
      'Un aviso IPN de NOWPayments (solo se leen los campos de abajo; los importes, números JSON o texto, se leen como decimales exactos).',
    properties: {
      payment_id: 'Identificador del pago en NOWPayments.',
      invoice_id: 'Identificador de la factura (el que se guardó al crearla).',
      payment_status:
        'Estado: `waiting`, `confirming`, `confirmed`, `sending`, `partially_paid`, `finished`, `failed`, `expired` o `refunded`.',
      price_amount: 'Total de la factura en la moneda de precio (debe ser el de la recarga).',
      price_currency: 'Moneda del precio: `usd`.',
      pay_amount: 'Cantidad de la moneda elegida que pedía la factura.',
      actually_paid: 'Cantidad de la moneda elegida que llegó.',
      pay_currency: 'Moneda elegida (por ejemplo `usdttrc20`).',
      order_id: 'El identificador de nuestra recarga.',
      outcome_amount: 'Lo que recibe la tienda después de las comisiones de NOWPayments.',
    },
  },
  MercadoPagoNotification: {
    description:
      'Un aviso de Mercado Pago. Solo indica qué pago consultar: el importe y el estado se leen siempre de la API de Mercado Pago.',
    properties: {
      action: 'Qué ocurrió, por ejemplo `payment.created` o `payment.updated`.',
      api_version: 'Versión de la API, `v1`.',
      data: 'El recurso: `id` del pago en Mercado Pago.',
      date_created: 'Cuándo se generó el aviso.',
      id: 'Identificador del aviso.',
      live_mode: 'Falso en el entorno de pruebas.',
      type: 'Tema del aviso: solo se procesa `payment`.',
      user_id: 'La cuenta de Mercado Pago de la tienda.',
    },
  },
  StripeEvent: {
    description: 'Un evento de Stripe (solo se leen los de Checkout).',
    properties: {
      id: 'Identificador del evento (un aviso repetido no se procesa dos veces).',
      type: 'Tipo de evento.',
      data: 'El objeto del evento (la sesión de Checkout).',
    },
  },
  PlaceOrderRequest: {
    description: 'Una orden.',
    properties: {
      serviceId: 'Identificador del servicio (UUID).',
      quantity:
        'Cantidad: obligatoria en los servicios por 1000 (entre su mínimo y su máximo); en los demás, 1 o nada. En los servicios SMM cuya cantidad sale de una lista (comentarios, usuarios) o de una suscripción, no se envía. Con goteo, es la cantidad de cada repetición.',
      fields:
        'Los datos que pide el servicio, por su `key` (por ejemplo `{ "imei": "359702373699048" }`; en los servicios SMM, los parámetros de su tipo: `link`, `comments` con uno por línea, `usernames`, `answer_number`…).',
      runs: 'Goteo (servicios con `dripfeed`): repeticiones, de 2 a 1000; se cobra cantidad × repeticiones.',
      interval: 'Goteo: minutos entre repeticiones, de 1 a 1440.',
    },
  },
  BulkOrderRequest: {
    description: 'Un pedido masivo de IMEI.',
    properties: {
      serviceId: 'Identificador de un servicio con un campo IMEI.',
      imeis: 'Los IMEI: un texto con uno por línea, o una lista (como máximo 500).',
      fields: 'Los demás datos que pide el servicio, comunes a todas las líneas.',
    },
  },
  ServiceFieldInput: {
    description: 'Un dato que pedirá el servicio.',
    properties: SERVICE_FIELD,
  },
  ServiceFieldListInput: { description: 'Los datos que pedirá el servicio (como máximo 10).' },
  CreateServiceRequest: { description: 'Un servicio nuevo.', properties: SERVICE_INPUT },
  UpdateServiceRequest: {
    description: 'Los cambios de un servicio: cualquier subconjunto de sus campos, al menos uno.',
    properties: SERVICE_INPUT,
  },
  ReorderServicesRequest: {
    description: 'El orden nuevo del catálogo.',
    properties: { ids: 'Identificadores de los servicios en el orden deseado, sin repetir.' },
  },
  BulkServicesRequest: {
    description: 'Activar o desactivar varios servicios a la vez.',
    properties: {
      ids: 'Identificadores de los servicios (UUID), sin repetir.',
      active: '`true` los activa; `false` los desactiva.',
    },
  },
  BulkPriceRequest: {
    description: 'Un cambio de precios en bloque.',
    properties: {
      percent:
        'Porcentaje, con hasta dos decimales: positivo sube, negativo baja (de -90 a 500, no 0).',
      category: 'Solo esta categoría; sin ella, todo el catálogo.',
    },
  },
  CompleteOrderRequest: {
    description: 'El resultado de la orden.',
    properties: {
      result: 'Resultado que verá el cliente (código, datos de acceso, informe…).',
      cost: 'Opcional: lo que costó la orden («4.20»), si se atendió a mano; reemplaza el costo registrado. Solo lo guardan administradores y finanzas.',
    },
  },
  BulkCompleteRequest: {
    description: 'Resultados pegados, una orden por línea.',
    properties: {
      text: 'Una línea por orden: el número (`#123`) o el IMEI, un separador (tabulador, `|`, `;`, `,`, `:` o espacio) y el resultado. Hasta 500 líneas.',
    },
  },
  RejectOrderRequest: {
    description: 'El motivo del rechazo.',
    properties: { reason: 'Motivo que verá el cliente.' },
  },
  ReplaceItemRequest: {
    description: 'Reemplazo del artículo de una orden entregada desde stock.',
    properties: { note: 'Nota opcional para el historial de la orden (hasta 500 caracteres).' },
  },
  CreateSnippetRequest: {
    description: 'Un texto para reutilizar desde la cola.',
    properties: {
      kind: '`reject_reason` (motivo de rechazo), `result_template` (plantilla de resultado) o `ticket_reply` (respuesta de soporte).',
      title: 'Nombre corto que se ve en el selector (hasta 60 caracteres).',
      body: 'El texto que se usa.',
      position: 'Orden en la lista (de menor a mayor; 0 si no se indica).',
    },
  },
  UpdateSnippetRequest: {
    description: 'Los cambios de un texto guardado.',
    properties: {
      title: 'Nuevo nombre.',
      body: 'Nuevo texto.',
      position: 'Nueva posición.',
    },
  },
  BulkOrderActionRequest: {
    description: 'Una acción sobre varias órdenes.',
    properties: {
      action:
        '`take` (tomar), `complete` (completar con `result`), `reject` (rechazar y reembolsar con `reason`) o `resend` (enviar de nuevo al proveedor).',
      ids: 'Las órdenes (UUID), hasta 100.',
      result: 'Con `complete`: el resultado que verá cada cliente.',
      reason: 'Con `reject`: el motivo que verá cada cliente.',
    },
  },
  CompleteRefillRequest: {
    description: 'La reposición hecha, con una nota opcional.',
    properties: { note: 'Nota que verá el cliente (opcional).' },
  },
  RejectRefillRequest: {
    description: 'El motivo del rechazo de la reposición.',
    properties: { reason: 'Motivo que verá el cliente.' },
  },
  UpdateGatewaySettingRequest: {
    description: 'Los cambios de un método automático: cualquier subconjunto, al menos uno.',
    properties: {
      feePercent:
        'Comisión porcentual que paga el cliente además del importe, de 0 a 50 con hasta dos decimales (por ejemplo "2.90").',
      feeFixed: 'Comisión fija en dólares (por ejemplo "0.30"); puede ser "0".',
      minAmount: 'Importe mínimo por recarga, con hasta dos decimales.',
      maxAmount: 'Importe máximo por recarga, mayor o igual que el mínimo (también el guardado).',
    },
  },
  UpdatePaymentSettingsRequest: {
    description: 'Los cambios de los ajustes de pagos: cualquier subconjunto, al menos uno.',
    properties: {
      holdThreshold:
        'Importe por encima del cual la primera recarga con tarjeta o PayPal espera a finanzas (por ejemplo "100.00"); `null` desactiva la retención.',
      mercadopagoRate:
        'Tipo de cambio de Mercado Pago: unidades de la moneda local por dólar, con hasta seis decimales (por ejemplo "1045.50").',
      shopName: 'Nombre del negocio para los recibos (hasta 120 caracteres).',
      shopTaxId: 'Identificación fiscal para los recibos (hasta 40 caracteres).',
      shopAddress: 'Dirección para los recibos (hasta 300 caracteres).',
    },
  },
  RejectTopupRequest: {
    description: 'El motivo del rechazo.',
    properties: { reason: 'Motivo que verá el cliente.' },
  },
  CreateMethodRequest: { description: 'Un método de pago manual nuevo.', properties: METHOD_INPUT },
  UpdateMethodRequest: {
    description: 'Los cambios de un método: cualquier subconjunto de sus campos, al menos uno.',
    properties: METHOD_INPUT,
  },
  CreateVoucherBatchRequest: {
    description: 'Un lote de códigos nuevo.',
    properties: {
      amount: 'Valor de cada código, en dólares con hasta dos decimales.',
      count: 'Cuántos códigos crear (de 1 a 1000).',
      expiresAt:
        'Caducidad: una fecha ("2026-12-31", hasta el final de ese día en UTC) o fecha y hora con zona. Futura.',
      note: 'Nota interna (hasta 200 caracteres).',
    },
  },
  PriceOverrideRequest: {
    description:
      'Una excepción: `category` o `serviceId` (uno de los dos) y `discountPercent` o `price` (uno de los dos).',
    properties: {
      category: 'Categoría a la que se aplica.',
      serviceId: 'Servicio al que se aplica (UUID).',
      discountPercent: 'Descuento sobre el precio base, texto con hasta dos decimales ("12.5").',
      price: 'Precio fijo en dólares, texto con hasta dos decimales ("1.20").',
    },
  },
  CreatePriceGroupRequest: {
    description: 'Un grupo de precios nuevo.',
    properties: {
      name: 'Nombre (hasta 60 caracteres, único).',
      discountPercent: 'Descuento sobre el precio base ("0" a "99.99").',
      isDefault: 'Pasa a ser el grupo predeterminado.',
      overrides: 'Excepciones por categoría o servicio (hasta 500).',
    },
  },
  UpdatePriceGroupRequest: {
    description: 'Los cambios de un grupo de precios: solo lo que se envía.',
    properties: {
      name: 'Nombre nuevo.',
      discountPercent: 'Descuento nuevo ("12.5").',
      isDefault: '`true` lo hace predeterminado; `false` en el predeterminado se rechaza (409).',
      overrides: 'La lista entera de excepciones, que reemplaza la anterior.',
    },
  },
  AnnouncementAudience: {
    description: 'A quién va un anuncio.',
    properties: {
      groupIds:
        'Los grupos de precios (UUID); sin él, a todos los clientes. Los del grupo predeterminado incluyen a los clientes sin grupo.',
    },
  },
  CreateAnnouncementRequest: {
    description: 'Un anuncio nuevo.',
    properties: {
      title: 'Título (hasta 120 caracteres).',
      body: 'Texto con formato breve: párrafos, saltos de línea, `**negrita**`, `*cursiva*` y enlaces `[texto](https://…)`.',
      pinned: 'Fijado: se muestra antes que los demás.',
      startsAt: 'Desde cuándo se muestra (ISO 8601); sin él, ahora.',
      endsAt: 'Hasta cuándo se muestra (ISO 8601); `null` sin fin.',
      audience: 'A quién va (`{}`: a todos).',
      email: 'Enviarlo también por correo a los clientes verificados de su audiencia.',
    },
  },
  UpdateAnnouncementRequest: {
    description: 'Los cambios de un anuncio: solo lo que se envía.',
    properties: {
      title: 'Título (hasta 120 caracteres).',
      body: 'Texto con formato breve: párrafos, saltos de línea, `**negrita**`, `*cursiva*` y enlaces `[texto](https://…)`.',
      pinned: 'Fijado: se muestra antes que los demás.',
      startsAt: 'Desde cuándo se muestra (ISO 8601).',
      endsAt: 'Hasta cuándo se muestra (ISO 8601); `null` sin fin.',
      audience: 'A quién va (`{}`: a todos).',
      email: '`false` detiene el correo que falte por enviar.',
    },
  },
  SetPriceGroupRequest: {
    description: 'El grupo de precios de un cliente.',
    properties: { groupId: 'El grupo (UUID); `null` vuelve al grupo predeterminado.' },
  },
  SpecialPricesRequest: {
    description: 'La lista entera de precios especiales de un cliente.',
    properties: { items: 'Cada servicio (`serviceId`) con su precio (`price`, "1.20").' },
  },
  CustomerNoteRequest: {
    description: 'Una nota interna sobre un cliente.',
    properties: { body: 'El texto de la nota (hasta 2000 caracteres); el cliente no la ve.' },
  },
  CreditLimitRequest: {
    description: 'El nuevo límite de crédito de un cliente.',
    properties: {
      amount:
        'Límite en dólares, con hasta dos decimales (por ejemplo "150.00"); "0.00" quita el crédito.',
    },
  },
  AdjustmentRequest: {
    description: 'Un ajuste de saldo.',
    properties: {
      amount: 'Importe con signo, nunca cero: "5.00" abona, "-2.00" carga.',
      reason: 'Motivo (queda en el movimiento y en la auditoría).',
    },
  },
  DeleteAccountRequest: {
    description: 'La confirmación para eliminar la cuenta.',
    properties: {
      password: 'La contraseña de la cuenta (obligatoria si la cuenta tiene contraseña).',
      code: 'En cuentas sin contraseña: un código de 6 dígitos de la aplicación de verificación.',
      confirm: 'La palabra `ELIMINAR`.',
    },
  },
  BlockUserRequest: {
    description: 'El bloqueo de una cuenta.',
    properties: { reason: 'Motivo (queda en la auditoría).' },
  },
  RevokedCount: {
    description: 'Sesiones cerradas.',
    properties: { revoked: 'Cuántas sesiones terminaron.' },
  },
  SignInMethods: {
    description: 'Las formas de entrar de esta instalación.',
    properties: {
      password: 'Correo y contraseña (`/api/auth/sign-in/email`).',
      emailLink: 'Enlace por correo (`/api/auth/sign-in/magic-link`).',
      emailCode:
        'Código por correo (`/api/auth/email-otp/send-verification-otp` y `/api/auth/sign-in/email-otp`).',
      phone:
        'Código por SMS a un teléfono verificado (`/api/auth/phone-number/send-otp` y `/api/auth/phone-number/verify`).',
      providers: 'Proveedores configurados (`/api/auth/sign-in/social` con `provider`).',
      passkey: 'Llaves de acceso (no disponibles en esta versión).',
    },
  },
  SessionInfo: {
    description: 'Una sesión abierta.',
    properties: {
      id: 'Identificador de la sesión (nunca su token).',
      current: '`true` si es la sesión de esta petición.',
      device: 'Tipo de dispositivo.',
      browser: 'Navegador y sistema.',
      ip: 'Dirección acortada, o null.',
      place: 'Lugar aproximado.',
      createdAt: 'Inicio de la sesión.',
      lastUsedAt: 'Último uso registrado.',
      expiresAt: 'Caducidad si no se usa.',
    },
  },
  SessionList: {
    description: 'Sesiones abiertas.',
    properties: ITEMS('Las sesiones, la más usada primero.'),
  },
  LinkedMethod: {
    description: 'Una forma de entrar vinculada a la cuenta.',
    properties: {
      kind: '`credential`, `google`, `oidc`, `phone` o `email`.',
      label: 'Qué mostrar: el correo, el número o el proveedor.',
      accountId: 'Para desvincular un proveedor (`/api/auth/unlink-account`), o null.',
      removable: 'Si ahora se puede quitar (nunca la última forma de entrar).',
    },
  },
  SecurityOverview: {
    description: 'La seguridad de la cuenta.',
    properties: {
      email: 'Correo de la cuenta.',
      hasPassword: 'Si tiene contraseña.',
      twoFactorEnabled: 'Si la verificación en dos pasos está activada.',
      twoFactorRequired: 'Si la cuenta debe tenerla (administradores).',
      phoneNumber: 'Teléfono verificado, o null.',
      phoneNumberVerified: 'Si el teléfono está verificado.',
      methods: 'Formas de entrar vinculadas.',
      linkableProviders: 'Proveedores configurados que aún no están vinculados.',
    },
  },
  AdminUserSecurity: {
    description: 'La seguridad de un cliente, vista por un administrador.',
    properties: {
      id: 'Identificador de la cuenta.',
      name: 'Nombre.',
      email: 'Correo.',
      role: 'Rol: `customer`, `admin`, `support` o `finance`.',
      blocked: 'Si está bloqueada.',
      blockReason: 'Motivo del bloqueo, o null.',
      twoFactorEnabled: 'Si tiene la verificación en dos pasos.',
      methods: 'Formas de entrar vinculadas.',
      sessions: 'Sesiones abiertas.',
    },
  },
};

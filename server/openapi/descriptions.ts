// What each schema of the document means, in Spanish, for the people who read it: one entry per
// component and one line per property. A test fails when a property has no line here or a line
// names a property the schema does not have.

export type SchemaDocs = { description: string; properties?: Record<string, string> };

const MONEY = 'Importe en dólares, texto con dos decimales (por ejemplo "1.50").';
const CREATED = 'Cuándo se creó (ISO 8601, UTC).';
const UPDATED = 'Cuándo cambió por última vez (ISO 8601, UTC).';
const NEXT_CURSOR =
  'Cursor de la página siguiente: pásalo como `?cursor=`. `null` en la última página.';

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
};

const SERVICE: Record<string, string> = {
  id: 'Identificador del servicio (UUID).',
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
};

const PAYMENT: Record<string, string> = {
  id: 'Identificador de la recarga (UUID).',
  method: 'Método: tarjeta, pago manual o código.',
  methodName: 'Nombre del método para mostrar.',
  amount: `Importe de la recarga. ${MONEY}`,
  status: 'Estado: pendiente, acreditada, rechazada o caducada.',
  reference: 'Referencia declarada por el cliente (pagos manuales), o `null`.',
  rejectReason: 'Motivo del rechazo, o `null`.',
  hasReceipt: 'Si tiene un comprobante adjunto.',
  createdAt: CREATED,
  reviewedAt: 'Cuándo la revisó un administrador, o `null`.',
};

const METHOD: Record<string, string> = {
  id: 'Identificador del método (UUID).',
  name: 'Nombre del método (por ejemplo "Transferencia bancaria").',
  instructions: 'Instrucciones de pago para el cliente (cuenta, dirección…).',
  minAmount: `Importe mínimo. ${MONEY}`,
  maxAmount: `Importe máximo. ${MONEY}`,
};

const METHOD_INPUT: Record<string, string> = {
  name: 'Nombre del método.',
  instructions: 'Instrucciones de pago que verá el cliente.',
  minAmount: 'Importe mínimo, con hasta dos decimales (por ejemplo "10" o "10.50").',
  maxAmount: 'Importe máximo, mayor o igual que el mínimo.',
  active: 'Si los clientes pueden usarlo.',
  sortOrder: 'Posición en la lista (de 0 a 9999).',
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
  cancellable: 'Si el cliente aún puede cancelarla.',
  createdAt: CREATED,
  updatedAt: UPDATED,
  events: 'Historial de estados (solo en el detalle de una orden).',
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
      role: 'Rol: cliente o administrador.',
      balance: `Saldo disponible. ${MONEY}`,
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
      currency: 'Moneda: siempre dólares estadounidenses.',
    },
  },
  MovementDto: {
    description: 'Un movimiento del saldo disponible.',
    properties: {
      id: 'Identificador del movimiento.',
      date: 'Cuándo ocurrió (ISO 8601, UTC).',
      kind: 'Tipo: `topup_stripe`, `topup_manual`, `topup_voucher`, `adjustment_credit`, `adjustment_debit`, `order_hold`, `order_release`…',
      description: 'Descripción para la persona (por ejemplo "Orden #12: Consulta IMEI").',
      amount: 'Importe con signo: "+25.00" abona, "-3.00" carga.',
      balanceAfter: `Saldo disponible después del movimiento. ${MONEY}`,
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
  StripeWebhookAck: {
    description: 'Acuse de recibo para Stripe.',
    properties: { received: 'Siempre `true`.' },
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
  OrderEventDto: {
    description: 'Un cambio de estado de una orden.',
    properties: {
      status: 'El estado al que pasó.',
      note: 'Nota (por ejemplo el motivo de un rechazo), o `null`.',
      actor: 'Quién lo hizo: el cliente, un administrador o el sistema.',
      at: 'Cuándo (ISO 8601, UTC).',
    },
  },
  OrderDto: { description: 'Una orden.', properties: ORDER },
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
        'Qué se hizo: `service.create`, `service.update`, `service.activate`, `service.deactivate`, `service.reorder` o `service.price_bulk`.',
      actor: 'Quién lo hizo (nombre y correo), o `null` si la cuenta ya no existe.',
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
    description: 'Un cliente encontrado en la búsqueda.',
    properties: {
      id: 'Identificador de la cuenta.',
      name: 'Nombre.',
      email: 'Correo electrónico.',
      role: 'Rol (`customer` o `admin`).',
      emailVerified: 'Si verificó su correo.',
      available: `Saldo disponible. ${MONEY}`,
    },
  },
  CustomerList: {
    description: 'Clientes encontrados (como máximo 20).',
    properties: ITEMS('Los clientes.'),
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
  ManualTopupForm: {
    description: 'Un pago manual declarado, como formulario, con el comprobante opcional.',
    properties: {
      methodId: 'Identificador del método de pago manual usado.',
      amount: 'Importe enviado, en dólares con hasta dos decimales.',
      reference: 'Referencia del pago.',
      receipt: 'Comprobante: imagen PNG, JPG o WEBP, o PDF, de hasta 5 MB.',
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
        'Cantidad: obligatoria en los servicios por 1000 (entre su mínimo y su máximo); en los demás, 1 o nada.',
      fields:
        'Los datos que pide el servicio, por su `key` (por ejemplo `{ "imei": "359702373699048" }`).',
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
    properties: { result: 'Resultado que verá el cliente (código, datos de acceso, informe…).' },
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
  AdjustmentRequest: {
    description: 'Un ajuste de saldo.',
    properties: {
      amount: 'Importe con signo, nunca cero: "5.00" abona, "-2.00" carga.',
      reason: 'Motivo (queda en el movimiento y en la auditoría).',
    },
  },
};

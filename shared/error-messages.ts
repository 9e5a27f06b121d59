// One list of error codes shared by the server (status mapping) and the web app (messages).
// No zod here: the web app's API client imports this on every page (shared/error-codes.ts adds
// the schema of an error answer for the server).
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  INSUFFICIENT_FUNDS: 402,
  EMAIL_NOT_VERIFIED: 403,
  FORBIDDEN: 403,
  TWO_FACTOR_REQUIRED: 403,
  ACCOUNT_BLOCKED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  BALANCE_NOT_ZERO: 409,
  ORDERS_IN_PROGRESS: 409,
  DUPLICATE_IN_FLIGHT: 409,
  OUT_OF_STOCK: 409,
  IDEMPOTENCY_MISMATCH: 409,
  LAST_ADMIN: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  SUPPLIER_TEST_FAILED: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** Spanish, person-facing default message for each code. */
export const ERROR_MESSAGES: Record<ErrorCode, string> = {
  BAD_REQUEST: 'La solicitud no es válida.',
  VALIDATION_FAILED: 'Revisa los campos marcados.',
  UNAUTHENTICATED: 'Tu sesión ha terminado. Inicia sesión de nuevo.',
  INSUFFICIENT_FUNDS: 'Tu saldo no alcanza para esta operación.',
  EMAIL_NOT_VERIFIED: 'Debes verificar tu correo electrónico para continuar.',
  FORBIDDEN: 'No tienes permiso para hacer esto.',
  TWO_FACTOR_REQUIRED:
    'Las cuentas de administración deben activar la verificación en dos pasos antes de continuar.',
  ACCOUNT_BLOCKED: 'Esta cuenta está bloqueada. Escríbenos desde la página de contacto.',
  NOT_FOUND: 'No encontramos lo que buscas.',
  CONFLICT: 'La operación entra en conflicto con el estado actual.',
  LAST_ADMIN:
    'Es la última cuenta de administración: nombra antes a otra persona administradora para quitarle el rol.',
  BALANCE_NOT_ZERO:
    'Para eliminar tu cuenta tu saldo debe ser US$0.00. Úsalo en órdenes o escríbenos para resolverlo.',
  ORDERS_IN_PROGRESS:
    'Tienes órdenes en curso. Podrás eliminar tu cuenta cuando todas hayan terminado.',
  DUPLICATE_IN_FLIGHT: 'Ya tienes una orden en curso para ese mismo dato en este servicio.',
  OUT_OF_STOCK: 'Agotado: este servicio no tiene existencias en este momento.',
  IDEMPOTENCY_MISMATCH: 'Esa clave de idempotencia ya se usó con otra orden distinta.',
  PAYLOAD_TOO_LARGE: 'El contenido enviado es demasiado grande.',
  UNSUPPORTED_MEDIA_TYPE: 'Envía los datos como JSON (Content-Type: application/json).',
  SUPPLIER_TEST_FAILED: 'El proveedor no aceptó la conexión.',
  RATE_LIMITED: 'Demasiados intentos. Espera un momento e inténtalo de nuevo.',
  INTERNAL: 'Algo salió mal de nuestro lado. Inténtalo de nuevo en unos minutos.',
};

export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

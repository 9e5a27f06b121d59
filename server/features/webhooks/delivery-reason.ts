// What a customer is told about one webhook try: the status their server answered, or a short
// fixed Spanish reason. Never the answer's body or the network error as it is: with private
// destinations refused, those would still tell a customer things about our side (addresses,
// ports, what answers there).
import type { PostResult } from '../../suppliers/http';

export const REASONS = {
  privateAddress: 'Dirección no permitida (red privada)',
  timeout: 'Tiempo de espera agotado',
  dns: 'No se encontró el servidor',
  refused: 'No se pudo conectar',
  tls: 'Falló la conexión segura (TLS)',
  cut: 'La conexión se cortó',
  tooLarge: 'Respuesta demasiado grande',
  badUrl: 'Dirección no válida',
  other: 'No se pudo entregar',
} as const;

export type DeliveryReason =
  (typeof REASONS)[keyof typeof REASONS] | `El servidor respondió HTTP ${number}`;

const KNOWN = new Set<string>(Object.values(REASONS));

/** The reason for a failed try from the transport's error text (server/suppliers/http.ts). */
function reasonOfError(error: string): DeliveryReason {
  if (KNOWN.has(error)) return error as DeliveryReason;
  // http.ts's AddressNotAllowed: a literal address, or what the name resolved to.
  if (/is not public|ALLOW_PRIVATE_NETWORK/.test(error)) return REASONS.privateAddress;
  if (/within \d+ ms|ETIMEDOUT|timed? ?out/i.test(error)) return REASONS.timeout;
  if (/ENOTFOUND|EAI_AGAIN|EAI_NONAME|getaddrinfo/.test(error)) return REASONS.dns;
  if (/larger than/.test(error)) return REASONS.tooLarge;
  if (/cert|CERT_|SSL|TLS|self[- ]signed|handshake/i.test(error)) return REASONS.tls;
  if (/cut short|ECONNRESET|EPIPE|socket hang up/i.test(error)) return REASONS.cut;
  if (/ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL/.test(error)) return REASONS.refused;
  // checkSupplierUrl's own (Spanish) refusals.
  if (/^La dirección /.test(error)) return REASONS.badUrl;
  return REASONS.other;
}

/**
 * The reason kept and shown for one try: null when the answer was 2xx. Also applied to what
 * older rows hold, so text recorded before this existed is never shown as it is.
 */
export function deliveryReason(
  httpStatus: number | null,
  error: string | null,
): DeliveryReason | null {
  if (httpStatus !== null) {
    if (httpStatus >= 200 && httpStatus < 300) return null;
    return `El servidor respondió HTTP ${Math.trunc(httpStatus)}`;
  }
  return reasonOfError(error ?? '');
}

/** The reason for a transport result. */
export function reasonOf(result: PostResult): DeliveryReason | null {
  return result.kind === 'response'
    ? deliveryReason(result.status, null)
    : deliveryReason(null, result.error);
}

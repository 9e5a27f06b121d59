// How a supplier call ended, told apart by what it means for the order (docs/protocols.md §4.1,
// rule 4): refusals by pattern (their texts are free and vary between panels), transport
// results by whether the request may have arrived, and the exchange written to the supplier log.
import { formatMicros, plainText } from './decimal';
import type { PostResult } from './http';
import type { Balance, CallOutcome, Exchange, FailureKind } from './types';

export type Refusal = 'refused-order' | 'refused-supplier' | 'retry-later';

/** A duplicate in flight on the supplier's side: this order, later (checked first). */
const ORDER_LATER = [/active order with (?:this|the same) link/i];

/** The supplier cannot take any order now: account, credit, access, load, configuration. */
const SUPPLIER = [
  /authentication\s+failed/i,
  /\bauth(?:entication|orization)?\s+(?:error|failure)/i,
  /\b(?:invalid|incorrect|wrong|bad)\s+user\b/i,
  /\b(?:invalid|incorrect|wrong|bad|missing)\s+api[\s_-]*(?:access[\s_-]*)?key/i,
  /\bapi[\s_-]*(?:access[\s_-]*)?key\s+(?:is\s+)?(?:invalid|incorrect|wrong)/i,
  /\b(?:un|not\s+)authori[sz]ed\b/i,
  /not\s+enough\s+(?:credits?|funds?|balance)/i,
  /insufficient\s+(?:credits?|funds?|balance)/i,
  /\blow\s+(?:credits?|balance)\b/i,
  /\bbalance\s+(?:is\s+)?(?:too\s+)?low\b/i,
  /maintenance/i,
  /\bip\b.*\bnot\s+allowed\b/i,
  /\bserver\s+ip\b/i,
  /\bforbidden\b/i,
  /access\s+denied/i,
  /rate[\s_-]*limit/i,
  /too\s+many\s+requests/i,
  /temporar(?:il)?y/i,
  /\b(?:disabled|suspended|inactive|banned)\s+(?:account|user)\b/i,
  /\b(?:account|user)\s+(?:is\s+|has\s+been\s+)?(?:disabled|suspended|inactive|banned)\b/i,
  /\bsuspended\b/i,
  /invalid\s+action/i,
  /(?:command|action)\s+not\s+found/i,
  /unknown\s+(?:action|command)/i,
];

/**
 * "Blocked" is the supplier's account or address, unless the text is about the device or link
 * ("IMEI is blocked" is this order's problem).
 */
const BLOCKED = /\bblock(?:ed)?\b/i;
const ABOUT_THE_ORDER = /\b(?:imei|serial|s\/n|sn|device|phone|model|link|url|number)\b/i;

/** Transient wording without a culprit. */
const LATER = [/try\s+(?:again\s+)?later/i, /please\s+wait/i];

/**
 * What a supplier's refusal means. Everything not recognised as the supplier's or transient is
 * the order's (invalid IMEI, duplicate, unknown service, bad link, quantity out of bounds…).
 */
export function classifyRefusal(message: string): Refusal {
  if (ORDER_LATER.some((pattern) => pattern.test(message))) return 'retry-later';
  if (SUPPLIER.some((pattern) => pattern.test(message))) return 'refused-supplier';
  if (BLOCKED.test(message) && !ABOUT_THE_ORDER.test(message)) return 'refused-supplier';
  if (LATER.some((pattern) => pattern.test(message))) return 'retry-later';
  return 'refused-order';
}

/** The failure a transport result stands for, or null when an answer arrived. */
export function transportFailure(
  result: PostResult,
): { kind: FailureKind; message: string } | null {
  if (result.kind === 'not-sent') return { kind: 'not-sent', message: result.error };
  if (result.kind === 'failed-after-send') return { kind: 'ambiguous', message: result.error };
  if (result.status >= 500) {
    return { kind: 'ambiguous', message: `El proveedor respondió HTTP ${result.status}.` };
  }
  return null;
}

/** Largest answer body kept in the supplier log. */
export const LOGGED_BODY_BYTES = 64 * 1024;

/** The body cut to LOGGED_BODY_BYTES (a character cut in two becomes U+FFFD). */
export function cutBody(body: string): string {
  if (body.length * 3 <= LOGGED_BODY_BYTES) return body;
  const bytes = Buffer.from(body, 'utf8');
  if (bytes.length <= LOGGED_BODY_BYTES) return body;
  return bytes.subarray(0, LOGGED_BODY_BYTES).toString('utf8');
}

/**
 * The log record of one call. `request` must already have its key redacted; `secret` (the key)
 * is also blanked out of the answer, for suppliers that echo what they received.
 */
export function exchangeOf(
  action: string,
  request: Record<string, string>,
  result: PostResult,
  secret?: string,
): Exchange {
  if (result.kind === 'response') {
    const body = secret && secret.length >= 4 ? result.body.split(secret).join('***') : result.body;
    return {
      action,
      request,
      status: result.status,
      response: cutBody(body),
      ms: result.ms,
      error: null,
    };
  }
  return { action, request, status: null, response: null, ms: result.ms, error: result.error };
}

/** A short excerpt of an answer for messages (log lines, review notes). */
export function excerpt(body: string, max = 200): string {
  const flat = plainText(body).replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** A balance answer of either protocol: the amount read (null when unreadable) and the currency. */
export function balanceOutcome(
  micros: bigint | null,
  currency: string,
  exchanges: Exchange[],
): CallOutcome<Balance> {
  if (micros === null) {
    return {
      ok: false,
      kind: 'ambiguous',
      message: 'La respuesta no trae un saldo legible (o está fuera de rango).',
      exchanges,
    };
  }
  return {
    ok: true,
    value: { balance: formatMicros(micros), balanceMicros: micros, currency: currency || 'USD' },
    exchanges,
  };
}

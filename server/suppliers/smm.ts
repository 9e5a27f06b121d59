// The SMM panel API v2 client (docs/protocols.md §3): balance, catalogue (every order type of
// shared/smm-types.ts, with the supplier's refill, cancel and drip-feed flags), one order per call
// with its type's parameters, multi-status in groups of at most 100, refills and their status,
// and cancels. Every call is logged as an Exchange with the key redacted; every outcome is
// classified for dispatch (§4.1, rule 4).
import { balanceOutcome, classifyRefusal, exchangeOf, excerpt, transportFailure } from './classify';
import { MAX_QUANTITY } from '../../shared/schemas/catalogue';
import type { ServiceField } from '../../shared/schemas/service-fields';
import { listLines, SMM_TYPE_SPECS, smmTypeOf } from '../../shared/smm-types';
import { htmlToText, parseDecimalMicros } from './decimal';
import { isRecord, jsonDepthWithin, lookup, scalarText } from './dhru-wire';
import {
  catalogueCollector,
  currencyText,
  htmlText,
  identifierText,
  lineText,
  orderCount,
  quantityLimit,
  readBalance,
  readCost,
  TEXT_LIMITS,
} from './values';
import type {
  Balance,
  CallOutcome,
  Exchange,
  FailureKind,
  PlaceInput,
  RemoteCancel,
  RemoteCatalogue,
  RemoteField,
  RemoteRefillStatus,
  RemoteService,
  RemoteStatus,
  ConnectedAdapter,
  SupplierConnection,
  Transport,
} from './types';

type Failure = { kind: FailureKind; message: string };

type Answered =
  | { ok: true; answer: unknown; exchange: Exchange }
  | { ok: false; failure: Failure; exchange: Exchange };

/** Ids per multi call (status, refill_status, cancel): the protocol's limit. */
const STATUS_CHUNK = 100;

/** Form fields the adapter sets itself; an order's parameters never override them. */
const RESERVED = new Set([
  'key',
  'action',
  'service',
  'quantity',
  'runs',
  'interval',
  'order',
  'orders',
]);

const PROCESSING = new Set(['pending', 'in progress', 'processing', 'active', 'awaiting']);
const CANCELLED = new Set(['canceled', 'cancelled', 'refunded']);

const REFILL_PENDING = new Set(['pending', 'in progress', 'processing', 'awaiting', 'active']);
const REFILL_REJECTED = new Set(['rejected', 'canceled', 'cancelled', 'refunded', 'error', 'fail']);

/** An item error that means the panel does not know the order (or the refill). */
const NOT_FOUND =
  /incorrect\s+(?:order|refill)|invalid\s+(?:order|refill)|(?:order|refill)\s+not\s+found|not\s*found|no\s+(?:such\s+)?(?:order|refill)|does\s*n[o']?t\s+exist|not\s+exists?/i;

/** A whole-call refusal that means the panel has no such action (SmartPanel has no cancel). */
const NO_SUCH_ACTION =
  /incorrect\s+request|invalid\s+action|unknown\s+(?:action|command)|(?:action|command)\s+not\s+(?:found|supported|allowed)|not\s+supported/i;

/** An SMM type's input as a remote field: the protocol's parameter is the field's own key. */
function remoteFieldOf(field: ServiceField): RemoteField {
  const { maxBytes: _maxBytes, extensions: _extensions, ...rest } = field;
  return { ...rest, param: field.key };
}

/** A supplier's yes/no flag: true, 1, "1", "true", "yes" or "on". */
function flagOf(value: unknown): boolean {
  if (value === true || value === 1) return true;
  return (
    typeof value === 'string' && ['1', 'true', 'yes', 'on'].includes(value.trim().toLowerCase())
  );
}

function textOf(value: unknown): string {
  return lineText(value, 200);
}

/** The text of an `error` value: a string, or an object with a message. */
function errorText(value: unknown): string {
  const text = scalarText(value);
  if (text !== null) return htmlToText(text) || 'Error sin mensaje del proveedor.';
  if (isRecord(value)) {
    const inner = scalarText(lookup(value, 'message')) ?? scalarText(lookup(value, 'error'));
    if (inner !== null) return htmlToText(inner) || 'Error sin mensaje del proveedor.';
  }
  return excerpt(JSON.stringify(value) ?? '') || 'Error sin mensaje del proveedor.';
}

/** A top-level `{ error }` answer, if this is one. */
function topError(answer: unknown): string | null {
  if (!isRecord(answer)) return null;
  const error = lookup(answer, 'error');
  if (error === undefined || error === null || error === '' || error === false) return null;
  return errorText(error);
}

function refusal(message: string): Failure {
  return { kind: classifyRefusal(message), message };
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * One catalogue entry mapped to our catalogue (docs/protocols.md §3.3, §3.4), or why it cannot
 * be read at all. Every value is read into its range (server/suppliers/values.ts).
 */
function remoteService(
  entry: Record<string, unknown>,
): RemoteService | { skip: string; remoteId: string | null; name: string | null } {
  const name = htmlText(lookup(entry, 'name'), TEXT_LIMITS.name);
  const remoteId = identifierText(lookup(entry, 'service'), TEXT_LIMITS.remoteId);
  if (remoteId === null) {
    const raw = lineText(lookup(entry, 'service'), TEXT_LIMITS.remoteId);
    return {
      skip: raw
        ? 'El identificador del servicio no es válido.'
        : 'El servicio no trae identificador.',
      remoteId: raw || null,
      name: name || null,
    };
  }
  const typed = lineText(lookup(entry, 'type'), 60) || 'Default';
  const known = smmTypeOf(typed);
  const cost = readCost(lookup(entry, 'rate'));
  let reason: string | null = cost.ok ? null : cost.problem;
  const min = quantityLimit(lookup(entry, 'min'), 'min');
  const max = quantityLimit(lookup(entry, 'max'), 'max');
  let unit: 'order' | '1000' = 'order';
  let fields: RemoteField[] = [];
  let counted = false;
  if (known === null) {
    reason ??= `El tipo «${typed}» todavía no se puede importar.`;
  } else {
    const spec = SMM_TYPE_SPECS[known];
    unit = spec.unit;
    fields = spec.fields.map(remoteFieldOf);
    // Quantities, lines and subscriptions (per post) are bounded by the supplier's min and max.
    counted = spec.quantity.kind !== 'none';
    if (!counted) {
      // A package: one order, a flat price.
    } else if (min === null || max === null) {
      reason ??= 'Los límites de cantidad del proveedor no se pueden leer.';
    } else if (min > MAX_QUANTITY) {
      reason ??= `La cantidad mínima del proveedor pasa de ${MAX_QUANTITY}.`;
    } else if (min > max) {
      reason ??= 'La cantidad mínima del proveedor es mayor que la máxima.';
    }
  }
  return {
    remoteId,
    name: name || remoteId,
    group: htmlText(lookup(entry, 'category'), TEXT_LIMITS.group),
    type: known ?? typed,
    unit,
    costMicros: cost.ok ? cost.micros : 0n,
    costProblem: cost.ok ? null : cost.problem,
    minQuantity: counted && min !== null && min <= MAX_QUANTITY ? min : null,
    maxQuantity: counted ? max : null,
    deliveryTime: '',
    info: htmlText(lookup(entry, 'desc'), TEXT_LIMITS.info),
    fields,
    importable: reason === null,
    reason,
    refill: flagOf(lookup(entry, 'refill')),
    cancel: flagOf(lookup(entry, 'cancel')),
    dripfeed: flagOf(lookup(entry, 'dripfeed')),
  };
}

/** One multi-status item mapped onto our order states (docs/protocols.md §3.6). */
function itemStatus(item: unknown): RemoteStatus {
  if (typeof item === 'string') return itemError(htmlToText(item) || 'Respuesta vacía.');
  if (!isRecord(item)) return { state: 'unknown', detail: 'Respuesta ilegible del proveedor.' };
  const error = topError(item);
  if (error !== null) return itemError(error);
  const raw = textOf(lookup(item, 'status'));
  const status = raw.toLowerCase().replace(/[\s_-]+/g, ' ');
  if (PROCESSING.has(status)) return inProgress(item);
  if (status === 'completed') return withCharge(item, { state: 'completed', result: '' });
  if (status === 'partial') {
    const remains = orderCount(lookup(item, 'remains'), { negative: true });
    if (remains === null) {
      return {
        state: 'unknown',
        detail: `Parcial con un resto ilegible: ${excerpt(JSON.stringify(lookup(item, 'remains') ?? null))}`,
      };
    }
    return withCharge(item, { state: 'partial', remains, detail: null });
  }
  if (CANCELLED.has(status)) {
    return {
      state: 'cancelled',
      reason:
        status === 'refunded' ? 'Reembolsada por el proveedor.' : 'Cancelada por el proveedor.',
    };
  }
  return { state: 'unknown', detail: `Estado «${raw}» desconocido.` };
}

/** The order's `charge` (what the supplier took for it), when it is a readable amount ≥ 0. */
function withCharge(
  item: Record<string, unknown>,
  status: Extract<RemoteStatus, { state: 'completed' | 'partial' }>,
): RemoteStatus {
  const charge = parseDecimalMicros(lookup(item, 'charge'));
  if (charge !== null && charge >= 0n) status.chargeMicros = charge;
  return status;
}

/** An order in progress, with the count it started from and what remains, when readable. */
function inProgress(item: Record<string, unknown>): RemoteStatus {
  const status: RemoteStatus = { state: 'processing', detail: null };
  const start = lookup(item, 'start_count') ?? lookup(item, 'start_counter');
  const startCount = orderCount(start);
  // Over-delivery (a negative remains) is nothing left to deliver.
  const remains = orderCount(lookup(item, 'remains'));
  if (startCount !== null) status.startCount = startCount;
  if (remains !== null) status.remains = remains;
  return status;
}

/** One refill's status (a string, an `{ error }`, or an item carrying `status`). */
function refillItem(value: unknown): RemoteRefillStatus {
  if (isRecord(value)) {
    const error = topError(value);
    if (error !== null) return refillError(error);
    const inner = lookup(value, 'status');
    if (inner === undefined)
      return { state: 'unknown', detail: 'Respuesta ilegible del proveedor.' };
    const read = refillItem(inner);
    if (read.state !== 'rejected') return read;
    // A few panels say why next to the status.
    const why = htmlText(lookup(value, 'reason') ?? lookup(value, 'message'), 300)
      .replace(/\s+/g, ' ')
      .trim();
    return { state: 'rejected', reason: why || null };
  }
  if (typeof value !== 'string' && typeof value !== 'number') {
    return { state: 'unknown', detail: 'Respuesta ilegible del proveedor.' };
  }
  const raw = textOf(value);
  const status = raw.toLowerCase().replace(/[\s_-]+/g, ' ');
  if (status === 'completed' || status === 'success') return { state: 'completed' };
  if (REFILL_PENDING.has(status)) return { state: 'pending' };
  if (REFILL_REJECTED.has(status)) return { state: 'rejected', reason: null };
  if (NOT_FOUND.test(raw)) return { state: 'not-found', detail: raw };
  return { state: 'unknown', detail: `Estado de reposición «${raw}» desconocido.` };
}

function refillError(message: string): RemoteRefillStatus {
  return NOT_FOUND.test(message)
    ? { state: 'not-found', detail: message }
    : { state: 'unknown', detail: message };
}

/** One order's answer to `cancel`: 1 (accepted), or an error object or text (refused). */
function cancelItem(value: unknown): RemoteCancel {
  if (value === true || value === 1 || value === '1') return { accepted: true };
  if (typeof value === 'string' && ['ok', 'success', 'true'].includes(value.trim().toLowerCase()))
    return { accepted: true };
  if (isRecord(value)) {
    const error = topError(value);
    if (error !== null) return { accepted: false, reason: error };
    const inner = lookup(value, 'cancel');
    if (inner !== undefined) return cancelItem(inner);
  }
  const text = scalarText(value);
  if (text !== null && text.trim() !== '' && text.trim() !== '0')
    return {
      accepted: false,
      reason: htmlToText(text) || 'El proveedor no aceptó la cancelación.',
    };
  return { accepted: false, reason: 'El proveedor no aceptó la cancelación.' };
}

/** The id an item of a multi answer is about (`order`, `refill`), as text. */
function itemId(item: unknown, name: string): string | null {
  if (!isRecord(item)) return null;
  return scalarText(lookup(item, name))?.trim() ?? null;
}

function itemError(message: string): RemoteStatus {
  return NOT_FOUND.test(message)
    ? { state: 'not-found', detail: message }
    : { state: 'unknown', detail: message };
}

export function createSmmAdapter(conn: SupplierConnection, transport: Transport): ConnectedAdapter {
  async function send(
    action: string,
    params: Record<string, string>,
    keepAlive: boolean,
  ): Promise<Answered> {
    const fields = { key: conn.apiKey, action, ...params };
    const request = { ...fields, key: '***' };
    const result = await transport(action, fields, { keepAlive });
    const exchange = exchangeOf(action, request, result, conn.apiKey);
    const failure = transportFailure(result);
    if (failure) return { ok: false, failure, exchange };
    const body = result.kind === 'response' ? result.body : '';
    let answer: unknown;
    try {
      answer = jsonDepthWithin(body) ? JSON.parse(body.trim()) : undefined;
    } catch {
      answer = undefined;
    }
    if (answer === undefined || answer === null || typeof answer !== 'object') {
      return {
        ok: false,
        failure: {
          kind: 'ambiguous',
          message: `Respuesta ilegible del proveedor (HTTP ${result.kind === 'response' ? result.status : 0}): ${excerpt(body) || 'vacía'}`,
        },
        exchange,
      };
    }
    const error = topError(answer);
    if (error !== null) return { ok: false, failure: refusal(error), exchange };
    return { ok: true, answer, exchange };
  }

  async function balance(): Promise<CallOutcome<Balance>> {
    const call = await send('balance', {}, true);
    const exchanges = [call.exchange];
    if (!call.ok) return { ok: false, ...call.failure, exchanges };
    const answer = isRecord(call.answer) ? call.answer : {};
    const micros = readBalance(lookup(answer, 'balance'));
    return balanceOutcome(micros, currencyText(lookup(answer, 'currency')), exchanges);
  }

  async function services(): Promise<CallOutcome<RemoteCatalogue>> {
    const call = await send('services', {}, true);
    const exchanges = [call.exchange];
    if (!call.ok) return { ok: false, ...call.failure, exchanges };
    // Most panels answer a list; a few an object keyed by service id.
    const entries: unknown[] = Array.isArray(call.answer)
      ? (call.answer as unknown[])
      : Object.values(call.answer as Record<string, unknown>);
    const collected = catalogueCollector();
    for (const entry of entries) {
      if (!isRecord(entry)) {
        collected.skip(null, null, 'Una entrada del catálogo no es un servicio.');
        continue;
      }
      const read = remoteService(entry);
      if ('skip' in read) collected.skip(read.remoteId, read.name, read.skip);
      else collected.add(read);
    }
    return { ok: true, value: collected.result(), exchanges };
  }

  async function place(input: PlaceInput): Promise<CallOutcome<{ reference: string }>> {
    const known = input.type === undefined ? null : smmTypeOf(input.type);
    const spec = known === null ? null : SMM_TYPE_SPECS[known];
    const lists = new Set(spec?.fields.filter((f) => f.type === 'lines').map((f) => f.key) ?? []);
    const params: Record<string, string> = { service: input.remoteId };
    for (const [name, value] of Object.entries(input.params)) {
      if (RESERVED.has(name.toLowerCase())) continue;
      // Lists go one item a line, "\n"-separated, as panels split them.
      params[name] = lists.has(name) ? listLines(value).join('\n') : value;
    }
    // Only the types that take a quantity get one (comments and lists count their lines,
    // packages and subscriptions have none); an untyped service gets it as before.
    const takesQuantity = spec === null || spec.quantity.kind === 'input';
    const drip = input.dripfeed ?? null;
    if (drip) {
      if (!takesQuantity || drip.runs < 2 || input.quantity % drip.runs !== 0) {
        return {
          ok: false,
          kind: 'refused-order',
          message: `La orden no se puede repartir en ${drip.runs} repeticiones de este servicio.`,
          exchanges: [],
        };
      }
      // The protocol's quantity is per run.
      params.quantity = String(input.quantity / drip.runs);
      params.runs = String(drip.runs);
      params.interval = String(drip.interval);
    } else if (takesQuantity) {
      params.quantity = String(input.quantity);
    }
    // A fresh connection: a reused one the server just closed would look like a delivery.
    const call = await send('add', params, false);
    const exchanges = [call.exchange];
    if (!call.ok) return { ok: false, ...call.failure, exchanges };
    const raw = isRecord(call.answer) ? lookup(call.answer, 'order') : undefined;
    const order = identifierText(raw, TEXT_LIMITS.reference);
    if (order === null) {
      return {
        ok: false,
        kind: 'ambiguous',
        message:
          raw === undefined || raw === null || raw === ''
            ? `El proveedor respondió sin número de pedido: ${excerpt(JSON.stringify(call.answer))}`
            : `El proveedor respondió con una referencia de pedido no válida: ${excerpt(JSON.stringify(raw))}`,
        exchanges,
      };
    }
    return { ok: true, value: { reference: order }, exchanges };
  }

  async function status(references: string[]): Promise<CallOutcome<Map<string, RemoteStatus>>> {
    const refs = [...new Set(references)];
    const statuses = new Map<string, RemoteStatus>();
    const exchanges: Exchange[] = [];
    let failure: Failure | null = null;
    for (const group of chunks(refs, STATUS_CHUNK)) {
      const call = await send('status', { orders: group.join(',') }, true);
      exchanges.push(call.exchange);
      if (!call.ok) {
        // The rest stays unanswered: asking a failing panel again only waits.
        failure = call.failure;
        break;
      }
      const answer = isRecord(call.answer) ? call.answer : {};
      const only = group.length === 1 ? group[0] : undefined;
      for (const ref of group) {
        if (Object.hasOwn(answer, ref)) statuses.set(ref, itemStatus(answer[ref]));
      }
      // A panel that answers a lone id with the single-order shape.
      if (only !== undefined && !statuses.has(only) && lookup(answer, 'status') !== undefined) {
        statuses.set(only, itemStatus(answer));
      }
    }
    if (statuses.size === 0 && failure) return { ok: false, ...failure, exchanges };
    return { ok: true, value: statuses, exchanges };
  }

  async function refill(reference: string): Promise<CallOutcome<{ refillRef: string }>> {
    // A fresh connection, as for `add`: it creates something upstream.
    const call = await send('refill', { order: reference }, false);
    const exchanges = [call.exchange];
    if (!call.ok) return { ok: false, ...call.failure, exchanges };
    // `{ "refill": "1" }`, or the list shape of the multi form.
    const answer = Array.isArray(call.answer)
      ? (call.answer as unknown[]).find((item) => itemId(item, 'order') === reference)
      : call.answer;
    const raw = isRecord(answer) ? lookup(answer, 'refill') : undefined;
    // `{ "refill": { "error": … } }` (the multi form's refusal), or a sentence instead of an id.
    const error = isRecord(raw)
      ? topError(raw)
      : typeof raw === 'string' && raw.trim() !== '' && !identifierText(raw, TEXT_LIMITS.reference)
        ? htmlToText(raw) || 'Error sin mensaje del proveedor.'
        : null;
    if (error !== null) return { ok: false, ...refusal(error), exchanges };
    const id = identifierText(raw, TEXT_LIMITS.reference);
    if (id === null) {
      return {
        ok: false,
        kind: 'ambiguous',
        message: `El proveedor respondió sin número de reposición: ${excerpt(JSON.stringify(call.answer))}`,
        exchanges,
      };
    }
    return { ok: true, value: { refillRef: id }, exchanges };
  }

  async function refillStatus(
    refillRefs: string[],
  ): Promise<CallOutcome<Map<string, RemoteRefillStatus>>> {
    const refs = [...new Set(refillRefs)];
    const statuses = new Map<string, RemoteRefillStatus>();
    const exchanges: Exchange[] = [];
    let failure: Failure | null = null;
    // Panels without the list form (`refills`) refuse it: then one `refill` at a time.
    let multi = true;
    groups: for (const group of chunks(refs, STATUS_CHUNK)) {
      if (multi) {
        const call = await send('refill_status', { refills: group.join(',') }, true);
        exchanges.push(call.exchange);
        if (call.ok) {
          readRefillAnswer(call.answer, group, statuses);
          continue;
        }
        if (call.failure.kind !== 'refused-order') {
          failure = call.failure;
          break;
        }
        multi = false;
      }
      for (const ref of group) {
        const call = await send('refill_status', { refill: ref }, true);
        exchanges.push(call.exchange);
        if (call.ok) {
          statuses.set(ref, refillItem(call.answer));
        } else if (call.failure.kind === 'refused-order') {
          statuses.set(ref, refillError(call.failure.message));
        } else {
          failure = call.failure;
          break groups;
        }
      }
    }
    if (statuses.size === 0 && failure) return { ok: false, ...failure, exchanges };
    return { ok: true, value: statuses, exchanges };
  }

  async function cancel(references: string[]): Promise<CallOutcome<Map<string, RemoteCancel>>> {
    const refs = [...new Set(references)];
    const answers = new Map<string, RemoteCancel>();
    const exchanges: Exchange[] = [];
    let failure: Failure | null = null;
    for (const group of chunks(refs, STATUS_CHUNK)) {
      // A fresh connection: a cancel changes the order upstream.
      const call = await send('cancel', { orders: group.join(',') }, false);
      exchanges.push(call.exchange);
      if (!call.ok) {
        if (call.failure.kind !== 'ambiguous' && NO_SUCH_ACTION.test(call.failure.message)) {
          // No cancel action on this panel (SmartPanel): refused for every order.
          for (const ref of group) {
            answers.set(ref, {
              accepted: false,
              reason: `El proveedor no admite cancelaciones por API (${call.failure.message}).`,
            });
          }
          continue;
        }
        failure = call.failure;
        break;
      }
      const answer = call.answer;
      if (Array.isArray(answer)) {
        for (const item of answer as unknown[]) {
          const id = itemId(item, 'order');
          if (id !== null && group.includes(id) && isRecord(item)) {
            const error = topError(item);
            answers.set(
              id,
              error !== null
                ? { accepted: false, reason: error }
                : cancelItem(lookup(item, 'cancel')),
            );
          }
        }
      } else if (isRecord(answer)) {
        for (const ref of group) {
          if (Object.hasOwn(answer, ref)) answers.set(ref, cancelItem(answer[ref]));
        }
        // A panel that answers a lone id with `{ "cancel": 1 }`.
        const only = group.length === 1 ? group[0] : undefined;
        if (only !== undefined && !answers.has(only) && lookup(answer, 'cancel') !== undefined) {
          answers.set(only, cancelItem(lookup(answer, 'cancel')));
        }
      }
    }
    if (answers.size === 0 && failure) return { ok: false, ...failure, exchanges };
    return { ok: true, value: answers, exchanges };
  }

  return { balance, services, place, status, refill, refillStatus, cancel };
}

/** A `refill_status` answer for a group: a list of items, an object keyed by id, or one status. */
function readRefillAnswer(
  answer: unknown,
  group: string[],
  into: Map<string, RemoteRefillStatus>,
): void {
  if (Array.isArray(answer)) {
    for (const item of answer as unknown[]) {
      const id = itemId(item, 'refill');
      if (id !== null && group.includes(id)) into.set(id, refillItem(item));
    }
    return;
  }
  if (!isRecord(answer)) return;
  for (const ref of group) {
    if (Object.hasOwn(answer, ref)) into.set(ref, refillItem(answer[ref]));
  }
  const only = group.length === 1 ? group[0] : undefined;
  if (only !== undefined && !into.has(only) && lookup(answer, 'status') !== undefined) {
    into.set(only, refillItem(answer));
  }
}

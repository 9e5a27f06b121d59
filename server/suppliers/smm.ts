// The SMM panel API v2 client (docs/protocols.md §3): balance, catalogue (Default and Package
// services), one order per call, and multi-status in groups of at most 100. Every call is logged
// as an Exchange with the key redacted; every outcome is classified for dispatch (§4.1, rule 4).
import { balanceOutcome, classifyRefusal, exchangeOf, excerpt, transportFailure } from './classify';
import { htmlToText, parseDecimalMicros } from './decimal';
import { isRecord, lookup, scalarText } from './dhru-wire';
import type {
  Balance,
  CallOutcome,
  Exchange,
  FailureKind,
  PlaceInput,
  RemoteField,
  RemoteService,
  RemoteStatus,
  SupplierAdapter,
  SupplierConnection,
  Transport,
} from './types';

type Failure = { kind: FailureKind; message: string };

type Answered =
  | { ok: true; answer: unknown; exchange: Exchange }
  | { ok: false; failure: Failure; exchange: Exchange };

const STATUS_CHUNK = 100;

/** Form fields the adapter sets itself; an order's parameters never override them. */
const RESERVED = new Set(['key', 'action', 'service', 'quantity']);

const PROCESSING = new Set(['pending', 'in progress', 'processing', 'active', 'awaiting']);
const CANCELLED = new Set(['canceled', 'cancelled', 'refunded']);

/** An item error that means the panel does not know the order. */
const NOT_FOUND =
  /incorrect\s+order|invalid\s+order|order\s+not\s+found|not\s*found|no\s+(?:such\s+)?order|does\s*n[o']?t\s+exist|not\s+exists?/i;

const LINK_FIELD: RemoteField = {
  key: 'link',
  param: 'link',
  label: 'Enlace',
  type: 'url',
  required: true,
  identifier: true,
};

function textOf(value: unknown): string {
  return scalarText(value)?.trim() ?? '';
}

function integerOf(value: unknown): number | null {
  const text = textOf(value);
  if (!/^[+-]?\d{1,15}$/.test(text)) return null;
  return Number(text);
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

/** One catalogue entry mapped to our catalogue (docs/protocols.md §3.3, §3.4). */
function remoteService(entry: Record<string, unknown>): RemoteService | null {
  const remoteId = textOf(lookup(entry, 'service'));
  if (remoteId === '') return null;
  const type = textOf(lookup(entry, 'type')) || 'Default';
  const kind = type.toLowerCase();
  const cost = parseDecimalMicros(lookup(entry, 'rate'));
  let reason: string | null = null;
  if (cost === null || cost < 0n) reason = 'El precio del proveedor no se puede leer.';
  const min = integerOf(lookup(entry, 'min'));
  const max = integerOf(lookup(entry, 'max'));
  let unit: 'order' | '1000' = 'order';
  let fields: RemoteField[] = [];
  if (kind === 'default') {
    unit = '1000';
    fields = [{ ...LINK_FIELD }];
    if (min === null || max === null || min < 1 || min > max) {
      reason ??= 'Los límites de cantidad del proveedor no se pueden leer.';
    }
  } else if (kind === 'package') {
    fields = [{ ...LINK_FIELD }];
  } else {
    reason ??= `El tipo «${type}» todavía no se puede importar.`;
  }
  return {
    remoteId,
    name: htmlToText(textOf(lookup(entry, 'name'))) || remoteId,
    group: htmlToText(textOf(lookup(entry, 'category'))),
    type,
    unit,
    costMicros: cost !== null && cost >= 0n ? cost : 0n,
    minQuantity: kind === 'default' ? min : null,
    maxQuantity: kind === 'default' ? max : null,
    deliveryTime: '',
    info: htmlToText(scalarText(lookup(entry, 'desc')) ?? ''),
    fields,
    importable: reason === null,
    reason,
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
  if (PROCESSING.has(status)) return { state: 'processing', detail: null };
  if (status === 'completed') return { state: 'completed', result: '' };
  if (status === 'partial') {
    const remains = integerOf(lookup(item, 'remains'));
    if (remains === null) {
      return {
        state: 'unknown',
        detail: `Parcial con un resto ilegible: ${excerpt(JSON.stringify(lookup(item, 'remains') ?? null))}`,
      };
    }
    return { state: 'partial', remains, detail: null };
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

function itemError(message: string): RemoteStatus {
  return NOT_FOUND.test(message)
    ? { state: 'not-found', detail: message }
    : { state: 'unknown', detail: message };
}

export function createSmmAdapter(conn: SupplierConnection, transport: Transport): SupplierAdapter {
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
      answer = JSON.parse(body.trim());
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
    const micros = parseDecimalMicros(lookup(answer, 'balance'));
    return balanceOutcome(micros, textOf(lookup(answer, 'currency')), exchanges);
  }

  async function services(): Promise<CallOutcome<RemoteService[]>> {
    const call = await send('services', {}, true);
    const exchanges = [call.exchange];
    if (!call.ok) return { ok: false, ...call.failure, exchanges };
    // Most panels answer a list; a few an object keyed by service id.
    const entries: unknown[] = Array.isArray(call.answer)
      ? (call.answer as unknown[])
      : Object.values(call.answer as Record<string, unknown>);
    const out: RemoteService[] = [];
    for (const entry of entries) {
      const service = isRecord(entry) ? remoteService(entry) : null;
      if (service) out.push(service);
    }
    return { ok: true, value: out, exchanges };
  }

  async function place(input: PlaceInput): Promise<CallOutcome<{ reference: string }>> {
    const params: Record<string, string> = { service: input.remoteId };
    for (const [name, value] of Object.entries(input.params)) {
      if (!RESERVED.has(name.toLowerCase())) params[name] = value;
    }
    // Sent for every type: panels ignore it for packages, and Default needs it.
    params.quantity = String(input.quantity);
    // A fresh connection: a reused one the server just closed would look like a delivery.
    const call = await send('add', params, false);
    const exchanges = [call.exchange];
    if (!call.ok) return { ok: false, ...call.failure, exchanges };
    const order = isRecord(call.answer) ? textOf(lookup(call.answer, 'order')) : '';
    if (order === '') {
      return {
        ok: false,
        kind: 'ambiguous',
        message: `El proveedor respondió sin número de pedido: ${excerpt(JSON.stringify(call.answer))}`,
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

  return { balance, services, place, status };
}

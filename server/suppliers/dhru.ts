// The DHRU Fusion client (docs/protocols.md §2): balance, catalogue, one order per call, and
// status by bulk or one call per order. Every call is logged as an Exchange with the key
// redacted; every outcome is classified for dispatch (§4.1, rule 4).
import {
  MAX_SERVICE_FIELDS,
  SERIAL_DEFAULT_MIN,
  URL_MAX,
} from '../../shared/schemas/service-fields';
import { balanceOutcome, classifyRefusal, exchangeOf, excerpt, transportFailure } from './classify';
import { htmlToText, parseDecimalMicros } from './decimal';
import {
  encodeBase64Json,
  encodeParametersJson,
  encodeParametersXml,
  envelopeOf,
  isParameterName,
  isRecord,
  lookup,
  parseJsonObject,
  scalarText,
} from './dhru-wire';
import type { PostResult } from './http';
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

/** Answer of one call: the parsed JSON object, or why there is none. */
type Answered =
  | { ok: true; answer: Record<string, unknown>; exchange: Exchange }
  | { ok: false; failure: Failure; exchange: Exchange; reached: boolean };

/** Payload of a SUCCESS envelope, or why there is none. */
type Payload =
  | { ok: true; payload: Record<string, unknown> }
  | { ok: false; failure: Failure; refusal: boolean };

const BULK_CHUNK = 100;
const TEXT_FIELD_MAX = 200;
const TEXTAREA_FIELD_MAX = 500;
const HINT_MAX = 200;
const LABEL_MAX = 80;
const OPTION_MAX = 100;
const OPTIONS_MAX = 100;

const QUANTITY_REASON = 'Se pide por cantidad: todavía no se puede importar.';
const LISTS_REASON = 'Pide red, modelo o MEP del proveedor: todavía no se puede importar.';
const COST_REASON = 'El precio del proveedor no se puede leer.';
const TOO_MANY_REASON = `Pide más de ${MAX_SERVICE_FIELDS} datos: todavía no se puede importar.`;
const REJECTED_DEFAULT = 'Rechazada por el proveedor.';

/** Required inputs that are plain text: [`Requires.<name>`, key, parameter, label]. */
const TEXT_REQUIRES: readonly (readonly [string, string, string, string])[] = [
  ['PIN', 'pin', 'PIN', 'PIN'],
  ['KBH', 'kbh', 'KBH', 'KBH'],
  ['PRD', 'prd', 'PRD', 'PRD'],
  ['Type', 'type', 'TYPE', 'Tipo'],
  ['Reference', 'reference', 'REFERENCE', 'Referencia'],
  ['Locks', 'locks', 'LOCKS', 'Bloqueos'],
  ['SecRO', 'secro', 'SecRO', 'SecRO'],
];

/** Required inputs picked from supplier lists (networks, models, MEP codes): not supported yet. */
const LIST_REQUIRES = ['Network', 'Mobile', 'Provider', 'MEP'];

/** A bulk ERROR that means "no bulk here": fall back to one call per order. */
const NO_BULK =
  /invalid\s+action|(?:command|action)\s+not\s+found|unknown\s+(?:action|command)|not\s+supported/i;

/** A per-order error that means the supplier does not know the order. */
const NOT_FOUND =
  /not\s*found|invalid|incorrect|no\s+(?:such\s+)?order|not\s+exists?|does\s*n[o']?t\s+exist|unknown\s+order/i;

/** "1", 1, true, "on", "yes", "true". */
function truthy(value: unknown): boolean {
  if (value === true) return true;
  if (typeof value === 'number') return value === 1;
  if (typeof value !== 'string') return false;
  return ['1', 'on', 'yes', 'true'].includes(value.trim().toLowerCase());
}

function integerOf(value: unknown): number | null {
  const text = scalarText(value)?.trim();
  if (text === undefined || !/^[+-]?\d{1,15}$/.test(text)) return null;
  return Number(text);
}

function textOf(value: unknown): string {
  return scalarText(value)?.trim() ?? '';
}

function cut(text: string, max: number): string {
  return text.length > max ? text.slice(0, max).trimEnd() : text;
}

/** A local field key from a supplier's field name: `^[a-z][a-z0-9_]{0,31}$`. */
function slugKey(name: string): string {
  const slug = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  const lettered = /^[a-z]/.test(slug) ? slug : `f_${slug}`;
  return cut(lettered, 32).replace(/_+$/, '');
}

/** `key`, or `key_2`, `key_3`… (kept within 32 characters) when taken. */
function uniqueKey(key: string, taken: Set<string>): string {
  let candidate = key;
  for (let n = 2; taken.has(candidate); n += 1) {
    const suffix = `_${n}`;
    candidate = `${key.slice(0, 32 - suffix.length).replace(/_+$/, '')}${suffix}`;
  }
  taken.add(candidate);
  return candidate;
}

/** `Requires.<name>`, flat (the standard) or nested under `Requires`. */
function requirement(service: Record<string, unknown>, name: string): unknown {
  const flat = lookup(service, `Requires.${name}`);
  if (flat !== undefined) return flat;
  const nested = lookup(service, 'Requires');
  return isRecord(nested) ? lookup(nested, name) : undefined;
}

function isRequired(value: unknown): boolean {
  if (typeof value === 'string') return value.trim().toLowerCase() === 'required';
  return value === true || value === 1;
}

/** The items of a list that may come as an array or as an object keyed by id. */
function itemsOf(value: unknown): [string, unknown][] {
  if (Array.isArray(value)) return value.map((item, index) => [String(index), item as unknown]);
  if (isRecord(value)) return Object.entries(value);
  return [];
}

/** The map from one supplier's service entry to our catalogue (docs/protocols.md §2.6). */
function remoteService(
  key: string,
  service: Record<string, unknown>,
  groupName: string,
  groupType: string,
): RemoteService {
  let reason: string | null = null;
  const refuse = (why: string) => {
    reason ??= why;
  };
  const type = (textOf(lookup(service, 'SERVICETYPE')) || groupType || 'IMEI').toUpperCase();
  const cost = parseDecimalMicros(lookup(service, 'CREDIT'));
  if (cost === null || cost < 0n) refuse(COST_REASON);

  const qntOptions = textOf(lookup(service, 'QNTOPTIONS'));
  const minQnt = integerOf(lookup(service, 'MINQNT'));
  const maxQnt = integerOf(lookup(service, 'MAXQNT'));
  if (qntOptions !== '' || (minQnt ?? 0) > 1 || (maxQnt ?? 0) > 1) refuse(QUANTITY_REASON);

  const fields: RemoteField[] = [];
  const taken = new Set<string>();
  const add = (field: RemoteField) => {
    taken.add(field.key);
    fields.push(field);
  };

  if (type === 'IMEI') add(identifierField(lookup(service, 'CUSTOM')));
  if (isRequired(requirement(service, 'SN'))) {
    add({
      key: 'sn',
      param: 'SN',
      label: 'Número de serie (SN)',
      type: 'serial',
      required: true,
    });
  }
  for (const [name, key, param, label] of TEXT_REQUIRES) {
    if (isRequired(requirement(service, name)) && !taken.has(key)) {
      add({ key, param, label, type: 'text', required: true, maxLength: TEXT_FIELD_MAX });
    }
  }
  if (LIST_REQUIRES.some((name) => isRequired(requirement(service, name)))) refuse(LISTS_REASON);

  for (const [, entry] of itemsOf(requirement(service, 'Custom'))) {
    if (!isRecord(entry) || truthy(lookup(entry, 'adminonly'))) continue;
    const custom = customField(entry, taken);
    if (custom.ok) add(custom.field);
    else refuse(custom.reason);
  }
  if (fields.length > MAX_SERVICE_FIELDS) refuse(TOO_MANY_REASON);

  return {
    remoteId: textOf(lookup(service, 'SERVICEID')) || key,
    name: htmlToText(textOf(lookup(service, 'SERVICENAME'))) || key,
    group: groupName,
    type,
    unit: 'order',
    costMicros: cost !== null && cost >= 0n ? cost : 0n,
    minQuantity: null,
    maxQuantity: null,
    deliveryTime: htmlToText(textOf(lookup(service, 'TIME'))),
    info: htmlToText(scalarText(lookup(service, 'INFO')) ?? ''),
    fields,
    importable: reason === null,
    reason,
  };
}

/** The IMEI box: an IMEI, or a serial when the supplier re-labels it (V8.1 `CUSTOM.allow`). */
function identifierField(customMeta: unknown): RemoteField {
  if (!isRecord(customMeta) || !truthy(lookup(customMeta, 'allow'))) {
    return {
      key: 'imei',
      param: 'IMEI',
      label: 'IMEI',
      type: 'imei',
      required: true,
      identifier: true,
    };
  }
  const field: RemoteField = {
    key: 'serial',
    param: 'IMEI',
    label: cut(textOf(lookup(customMeta, 'customname')), LABEL_MAX) || 'Número de serie',
    type: 'serial',
    required: true,
    identifier: true,
    allowLetters: truthy(lookup(customMeta, 'isalpha')),
  };
  const maxLength = integerOf(lookup(customMeta, 'maxlength'));
  if (maxLength !== null && maxLength > 0) {
    field.maxLength = Math.min(maxLength, URL_MAX);
    // The default minimum would make a short identifier (a 5-digit code) impossible to type.
    if (maxLength < SERIAL_DEFAULT_MIN) field.minLength = 1;
  }
  return field;
}

/** One `Requires.Custom` entry as a field, or why it cannot be imported. */
function customField(
  entry: Record<string, unknown>,
  taken: Set<string>,
): { ok: true; field: RemoteField } | { ok: false; reason: string } {
  const rawName = scalarText(lookup(entry, 'fieldname')) ?? '';
  const name = rawName.trim();
  if (name === '') {
    return {
      ok: false,
      reason: 'Un campo del proveedor no tiene nombre: todavía no se puede importar.',
    };
  }
  const fieldType = (textOf(lookup(entry, 'fieldtype')) || 'text').toLowerCase();
  const field: RemoteField = {
    key: '',
    param: `CUSTOMFIELD:${rawName}`,
    label: cut(name, LABEL_MAX),
    type: 'text',
    required: truthy(lookup(entry, 'required')),
  };
  const hint = cut(htmlToText(scalarText(lookup(entry, 'description')) ?? ''), HINT_MAX);
  if (hint !== '') field.hint = hint;

  switch (fieldType) {
    case 'dropdown':
    case 'radio': {
      const options = (scalarText(lookup(entry, 'fieldoptions')) ?? '')
        .split(',')
        .map((option) => option.trim())
        .filter((option) => option !== '');
      if (options.length === 0) {
        return {
          ok: false,
          reason: `El campo «${name}» no tiene opciones: todavía no se puede importar.`,
        };
      }
      if (options.length > OPTIONS_MAX || options.some((option) => option.length > OPTION_MAX)) {
        return {
          ok: false,
          reason: `Las opciones del campo «${name}» no caben: todavía no se puede importar.`,
        };
      }
      field.type = 'select';
      field.options = options;
      break;
    }
    case 'tickbox':
    case 'checkbox':
      field.type = 'select';
      field.options = ['Sí', 'No'];
      break;
    case 'text':
    case 'textarea':
    case 'datepicker':
    case 'time':
      if (/e-?mail/i.test(name)) field.type = 'email';
      else if (/user ?name|usuario/i.test(name)) field.type = 'username';
      else field.maxLength = fieldType === 'textarea' ? TEXTAREA_FIELD_MAX : TEXT_FIELD_MAX;
      break;
    default:
      return {
        ok: false,
        reason: `El campo «${name}» es de un tipo («${fieldType}») que todavía no se puede importar.`,
      };
  }
  field.key = uniqueKey(slugKey(name), taken);
  return { ok: true, field };
}

/** One status row (`{ STATUS, CODE }`, any key case) mapped onto our order states. */
function statusOf(row: Record<string, unknown>, status2: 'processing' | 'cancelled'): RemoteStatus {
  const rawStatus = lookup(row, 'STATUS');
  const statusText = scalarText(rawStatus)?.trim() ?? '';
  const code = htmlToText(scalarText(lookup(row, 'CODE')) ?? '');
  // GSM-theme rows carry a per-order error as a status word with a message.
  if (rawStatus === undefined || /^(?:error|failed?|not\s*found)$/i.test(statusText)) {
    const message = textOf(lookup(row, 'MESSAGE')) || textOf(lookup(row, 'ERROR'));
    if (message !== '') return referenceError(htmlToText(message));
  }
  switch (/^\d+$/.test(statusText) ? Number(statusText) : null) {
    case 0:
    case 1:
      return { state: 'processing', detail: code || null };
    case 2:
      return status2 === 'cancelled'
        ? { state: 'cancelled', reason: code || null }
        : { state: 'processing', detail: code || null };
    case 3:
      return { state: 'rejected', reason: code || REJECTED_DEFAULT };
    case 4:
      return { state: 'completed', result: code };
    default:
      return {
        state: 'unknown',
        detail: `Estado «${statusText || JSON.stringify(rawStatus ?? null)}» desconocido.${code ? ` ${code}` : ''}`,
      };
  }
}

/** A supplier error about one order: "not found" wording, or something an admin should read. */
function referenceError(message: string): RemoteStatus {
  return NOT_FOUND.test(message)
    ? { state: 'not-found', detail: message }
    : { state: 'unknown', detail: message };
}

/** A bulk row: its own SUCCESS/ERROR envelope, or (GSM theme) the status object itself. */
function bulkRowStatus(row: unknown, status2: 'processing' | 'cancelled'): RemoteStatus {
  if (typeof row === 'string') return referenceError(htmlToText(row) || 'Respuesta vacía.');
  if (!isRecord(row)) return { state: 'unknown', detail: 'Respuesta ilegible del proveedor.' };
  const envelope = envelopeOf(row);
  if (envelope.kind === 'error') return referenceError(envelope.message);
  if (envelope.kind === 'success') return statusOf(envelope.payload, status2);
  return statusOf(row, status2);
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export function createDhruAdapter(conn: SupplierConnection, transport: Transport): SupplierAdapter {
  const status2 = conn.settings.dhruStatus2 === 'cancelled' ? 'cancelled' : 'processing';
  const json = conn.settings.dhruParameters === 'json';
  // Learned once per adapter: a supplier that answered "Invalid Action" to the bulk status.
  let bulkStatus = conn.settings.dhruBulkStatus !== false;

  /** Sends one action; `parameters` is what goes on the wire, `shown` its readable form. */
  async function send(
    action: string,
    parameters: string,
    shown: unknown,
    keepAlive: boolean,
  ): Promise<Answered> {
    const fields = {
      username: conn.username ?? '',
      apiaccesskey: conn.apiKey,
      action,
      requestformat: 'JSON',
      parameters,
    };
    const request = {
      ...fields,
      apiaccesskey: '***',
      'parameters (decoded)': JSON.stringify(shown),
    };
    const result: PostResult = await transport(action, fields, { keepAlive });
    const exchange = exchangeOf(action, request, result, conn.apiKey);
    const failure = transportFailure(result);
    if (failure) return { ok: false, failure, exchange, reached: result.kind === 'response' };
    const body = result.kind === 'response' ? result.body : '';
    const answer = parseJsonObject(body);
    if (!answer) {
      return {
        ok: false,
        failure: {
          kind: 'ambiguous',
          message: `Respuesta ilegible del proveedor (HTTP ${result.kind === 'response' ? result.status : 0}): ${excerpt(body) || 'vacía'}`,
        },
        exchange,
        reached: true,
      };
    }
    return { ok: true, answer, exchange };
  }

  /** Sends `params` in the supplier's dialect, custom fields shown decoded in the log. */
  function sendParams(
    action: string,
    params: Record<string, string>,
    custom: Record<string, string> | null,
    keepAlive: boolean,
  ): Promise<Answered> {
    const parameters = json ? encodeParametersJson(params) : encodeParametersXml(params);
    const shown = custom ? { ...params, CUSTOMFIELD: custom } : params;
    return send(action, parameters, shown, keepAlive);
  }

  function payloadOf(answer: Record<string, unknown>): Payload {
    const envelope = envelopeOf(answer);
    if (envelope.kind === 'success') return { ok: true, payload: envelope.payload };
    if (envelope.kind === 'error') {
      return {
        ok: false,
        failure: { kind: classifyRefusal(envelope.message), message: envelope.message },
        refusal: true,
      };
    }
    return {
      ok: false,
      failure: {
        kind: 'ambiguous',
        message: `Respuesta sin SUCCESS ni ERROR: ${excerpt(JSON.stringify(answer))}`,
      },
      refusal: false,
    };
  }

  /** One call whose answer is a single envelope. */
  async function simple(
    action: string,
    params: Record<string, string>,
    custom: Record<string, string> | null,
    keepAlive: boolean,
  ): Promise<{ exchange: Exchange } & Payload> {
    const sent = await sendParams(action, params, custom, keepAlive);
    if (!sent.ok)
      return { ok: false, failure: sent.failure, exchange: sent.exchange, refusal: false };
    return { ...payloadOf(sent.answer), exchange: sent.exchange };
  }

  async function balance(): Promise<CallOutcome<Balance>> {
    const call = await simple('accountinfo', {}, null, true);
    const exchanges = [call.exchange];
    if (!call.ok) return { ok: false, ...call.failure, exchanges };
    const info =
      [lookup(call.payload, 'AccoutInfo'), lookup(call.payload, 'AccountInfo')].find(isRecord) ??
      call.payload;
    const micros =
      parseDecimalMicros(lookup(info, 'credit')) ?? parseDecimalMicros(lookup(info, 'creditraw'));
    return balanceOutcome(micros, textOf(lookup(info, 'currency')), exchanges);
  }

  async function services(): Promise<CallOutcome<RemoteService[]>> {
    const call = await simple('imeiservicelist', {}, null, true);
    const exchanges = [call.exchange];
    if (!call.ok) return { ok: false, ...call.failure, exchanges };
    const list = lookup(call.payload, 'LIST');
    if (!isRecord(list) && !Array.isArray(list)) {
      return { ok: false, kind: 'ambiguous', message: 'La respuesta no trae LIST.', exchanges };
    }
    const out: RemoteService[] = [];
    for (const [groupKey, group] of itemsOf(list)) {
      if (!isRecord(group)) continue;
      const groupName = htmlToText(textOf(lookup(group, 'GROUPNAME'))) || groupKey;
      const groupType = textOf(lookup(group, 'GROUPTYPE'));
      for (const [key, service] of itemsOf(lookup(group, 'SERVICES'))) {
        if (isRecord(service)) out.push(remoteService(key, service, groupName, groupType));
      }
    }
    return { ok: true, value: out, exchanges };
  }

  async function place(input: PlaceInput): Promise<CallOutcome<{ reference: string }>> {
    const params: Record<string, string> = { ID: input.remoteId };
    const custom: Record<string, string> = {};
    for (const [name, value] of Object.entries(input.params)) {
      const customName = /^customfield:([\s\S]+)$/i.exec(name)?.[1];
      if (customName !== undefined) {
        custom[customName] = value;
        continue;
      }
      if (!isParameterName(name) || /^(?:id|customfield)$/i.test(name)) {
        return {
          ok: false,
          kind: 'not-sent',
          message: `Parámetro no válido para el proveedor: «${name}».`,
          exchanges: [],
        };
      }
      params[name] = value;
    }
    const hasCustom = Object.keys(custom).length > 0;
    if (hasCustom) params.CUSTOMFIELD = encodeBase64Json(custom);
    // A fresh connection: a reused one the server just closed would look like a delivery.
    const call = await simple('placeimeiorder', params, hasCustom ? custom : null, false);
    const exchanges = [call.exchange];
    if (!call.ok) return { ok: false, ...call.failure, exchanges };
    const reference = scalarText(lookup(call.payload, 'REFERENCEID'))?.trim() ?? '';
    if (reference === '') {
      return {
        ok: false,
        kind: 'ambiguous',
        message: `El proveedor respondió éxito sin REFERENCEID: ${excerpt(JSON.stringify(call.payload))}`,
        exchanges,
      };
    }
    return { ok: true, value: { reference }, exchanges };
  }

  type Batch = { statuses: Map<string, RemoteStatus>; failure: Failure | null };

  /** One `getimeiorder` per reference; stops at the first failure of the whole call. */
  async function singles(refs: string[], exchanges: Exchange[]): Promise<Batch> {
    const statuses = new Map<string, RemoteStatus>();
    for (const ref of refs) {
      const call = await simple('getimeiorder', { ID: ref }, null, true);
      exchanges.push(call.exchange);
      if (call.ok) {
        statuses.set(ref, statusOf(call.payload, status2));
      } else if (call.refusal && call.failure.kind !== 'refused-supplier') {
        statuses.set(ref, referenceError(call.failure.message));
      } else {
        return { statuses, failure: call.failure };
      }
    }
    return { statuses, failure: null };
  }

  /** One `getimeiorderbulk` call; falls back to singles when the supplier has no usable bulk. */
  async function bulk(refs: string[], exchanges: Exchange[]): Promise<Batch> {
    const rows: Record<string, { ID: string }> = {};
    for (const ref of refs) rows[ref] = { ID: ref };
    const sent = await send('getimeiorderbulk', encodeBase64Json(rows), rows, true);
    exchanges.push(sent.exchange);
    if (!sent.ok) {
      // Nothing arrived: the supplier is out of reach, one call per order would not do better.
      if (!sent.reached || sent.failure.kind === 'not-sent') {
        return { statuses: new Map(), failure: sent.failure };
      }
      return singles(refs, exchanges);
    }
    const answer = sent.answer;
    const topError = envelopeOf(answer);
    const hasRows = refs.some((ref) => Object.hasOwn(answer, ref));
    if (topError.kind === 'error' && !hasRows) {
      if (NO_BULK.test(topError.message)) {
        bulkStatus = false;
        return singles(refs, exchanges);
      }
      return {
        statuses: new Map(),
        failure: { kind: classifyRefusal(topError.message), message: topError.message },
      };
    }
    // GSM-theme panels nest the rows under a top-level SUCCESS object keyed by reference.
    const success = lookup(answer, 'SUCCESS');
    const table = !hasRows && isRecord(success) ? success : answer;
    const statuses = new Map<string, RemoteStatus>();
    for (const ref of refs) {
      if (Object.hasOwn(table, ref)) statuses.set(ref, bulkRowStatus(table[ref], status2));
    }
    if (statuses.size === 0) return singles(refs, exchanges);
    return { statuses, failure: null };
  }

  async function status(references: string[]): Promise<CallOutcome<Map<string, RemoteStatus>>> {
    const refs = [...new Set(references)];
    const statuses = new Map<string, RemoteStatus>();
    const exchanges: Exchange[] = [];
    let firstFailure: Failure | null = null;
    let answered = false;
    for (const group of chunks(refs, BULK_CHUNK)) {
      const batch = bulkStatus ? await bulk(group, exchanges) : await singles(group, exchanges);
      for (const [ref, remote] of batch.statuses) statuses.set(ref, remote);
      if (batch.statuses.size > 0) answered = true;
      // A failed batch leaves the rest unanswered: asking a failing supplier again only waits.
      if (batch.failure) {
        firstFailure ??= batch.failure;
        break;
      }
    }
    if (!answered && firstFailure) return { ok: false, ...firstFailure, exchanges };
    return { ok: true, value: statuses, exchanges };
  }

  return { balance, services, place, status };
}

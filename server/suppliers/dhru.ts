// The DHRU Fusion client (docs/protocols.md §2): balance, catalogue, one order per call, and
// status by bulk or one call per order. Every call is logged as an Exchange with the key
// redacted; every outcome is classified for dispatch (§4.1, rule 4).
import {
  MAX_SERVICE_FIELDS,
  SERIAL_DEFAULT_MIN,
  URL_MAX,
} from '../../shared/schemas/service-fields';
import { balanceOutcome, classifyRefusal, exchangeOf, excerpt, transportFailure } from './classify';
import { htmlToText, plainText } from './decimal';
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
import {
  catalogueCollector,
  currencyText,
  htmlText,
  identifierText,
  lineText,
  readBalance,
  readCost,
  readInteger,
  TEXT_LIMITS,
} from './values';
import type {
  Balance,
  CallOutcome,
  Exchange,
  FailureKind,
  PlaceInput,
  RemoteCatalogue,
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

/**
 * DHRU numbers file orders and file services apart from IMEI ones, so ours carry a prefix: a
 * file service's remote id is `file:<SERVICEID>` and a file order's reference `file:<REFERENCEID>`
 * (sent without it; the prefix tells `status` to ask `getfileorder`).
 */
export const FILE_PREFIX = 'file:';

/**
 * The parameter a file field maps to. Dispatch replaces it with FILENAME and FILEDATA (base64 of
 * the file) before the call (server/features/suppliers/dispatch-files.ts).
 */
export const FILE_PARAM = 'FILE';
const TEXT_FIELD_MAX = 200;
const TEXTAREA_FIELD_MAX = 500;
const HINT_MAX = 200;
const LABEL_MAX = 80;
const FIELD_NAME_MAX = 100;
const OPTION_MAX = 100;
const OPTIONS_MAX = 100;

const QUANTITY_REASON = 'Se pide por cantidad: todavía no se puede importar.';
const LISTS_REASON = 'Pide red, modelo o MEP del proveedor: todavía no se puede importar.';
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
  const read = readInteger(value);
  return read.ok ? read.value : null;
}

function textOf(value: unknown): string {
  return lineText(value, 200);
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
  remoteId: string,
  service: Record<string, unknown>,
  groupName: string,
  groupType: string,
  file = false,
): RemoteService {
  let reason: string | null = null;
  const refuse = (why: string) => {
    reason ??= why;
  };
  const type = file
    ? 'FILE'
    : (textOf(lookup(service, 'SERVICETYPE')) || groupType || 'IMEI').toUpperCase();
  const cost = readCost(lookup(service, 'CREDIT'));
  if (!cost.ok) refuse(cost.problem);

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
  // A file service takes the file (placefileorder's FILENAME and FILEDATA, see FILE_PARAM).
  if (file) add({ key: 'file', param: FILE_PARAM, label: 'Archivo', type: 'file', required: true });
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
    remoteId,
    name: htmlText(lookup(service, 'SERVICENAME'), TEXT_LIMITS.name) || remoteId,
    group: groupName,
    type: cut(type, 60),
    unit: 'order',
    costMicros: cost.ok ? cost.micros : 0n,
    costProblem: cost.ok ? null : cost.problem,
    minQuantity: null,
    maxQuantity: null,
    deliveryTime: htmlText(lookup(service, 'TIME'), TEXT_LIMITS.deliveryTime),
    info: htmlText(lookup(service, 'INFO'), TEXT_LIMITS.info),
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
  // The name goes back to the supplier as it is (CUSTOMFIELD key): it must be text as it is.
  if (rawName.length > FIELD_NAME_MAX || plainText(rawName) !== rawName) {
    return {
      ok: false,
      reason: 'El nombre de un campo del proveedor no es válido: todavía no se puede importar.',
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
      if (
        options.length > OPTIONS_MAX ||
        options.some((option) => option.length > OPTION_MAX || plainText(option) !== option)
      ) {
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
    loggedParameters?: string,
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
      ...(loggedParameters !== undefined ? { parameters: loggedParameters } : {}),
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
    const shown: Record<string, unknown> = custom
      ? { ...params, CUSTOMFIELD: custom }
      : { ...params };
    // A file is never logged in full: its size says enough (and the log keeps 64 KB).
    const data = lookup(params, 'FILEDATA');
    if (typeof data === 'string') {
      shown.FILEDATA = `(${Buffer.byteLength(data, 'base64')} bytes en base64, omitidos)`;
      return send(
        action,
        parameters,
        shown,
        keepAlive,
        `(${parameters.length} caracteres, con el archivo; omitidos)`,
      );
    }
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
    const micros = readBalance(lookup(info, 'credit')) ?? readBalance(lookup(info, 'creditraw'));
    return balanceOutcome(micros, currencyText(lookup(info, 'currency')), exchanges);
  }

  /** The services of one list answer (imeiservicelist or fileservicelist) into `collected`. */
  function collectList(
    list: unknown,
    collected: ReturnType<typeof catalogueCollector>,
    file: boolean,
  ): void {
    for (const [groupKey, group] of itemsOf(list)) {
      if (!isRecord(group)) continue;
      const groupName =
        htmlText(lookup(group, 'GROUPNAME'), TEXT_LIMITS.group) ||
        lineText(groupKey, TEXT_LIMITS.group);
      const groupType = textOf(lookup(group, 'GROUPTYPE'));
      for (const [key, service] of itemsOf(lookup(group, 'SERVICES'))) {
        const name = isRecord(service)
          ? htmlText(lookup(service, 'SERVICENAME'), TEXT_LIMITS.name) || null
          : null;
        if (!isRecord(service)) {
          collected.skip(
            lineText(key, TEXT_LIMITS.remoteId) || null,
            null,
            'La entrada no es un servicio.',
          );
          continue;
        }
        const given = lookup(service, 'SERVICEID');
        const id = identifierText(
          given === undefined || given === null || given === '' ? key : given,
          TEXT_LIMITS.remoteId,
        );
        const remoteId =
          id === null || id.startsWith(FILE_PREFIX)
            ? null
            : identifierText(file ? `${FILE_PREFIX}${id}` : id, TEXT_LIMITS.remoteId);
        if (remoteId === null) {
          collected.skip(
            lineText(given ?? key, TEXT_LIMITS.remoteId) || null,
            name,
            'El identificador del servicio no es válido.',
          );
          continue;
        }
        collected.add(remoteService(remoteId, service, groupName, groupType, file));
      }
    }
  }

  /**
   * imeiservicelist, then fileservicelist. A supplier without file services answers the second
   * with an ERROR ("Invalid Action"): no file services. Any other failure fails the whole read,
   * so the file services already known are kept rather than taken for gone.
   */
  async function services(): Promise<CallOutcome<RemoteCatalogue>> {
    const call = await simple('imeiservicelist', {}, null, true);
    const exchanges = [call.exchange];
    if (!call.ok) return { ok: false, ...call.failure, exchanges };
    const list = lookup(call.payload, 'LIST');
    if (!isRecord(list) && !Array.isArray(list)) {
      return { ok: false, kind: 'ambiguous', message: 'La respuesta no trae LIST.', exchanges };
    }
    const collected = catalogueCollector();
    collectList(list, collected, false);
    const files = await simple('fileservicelist', {}, null, true);
    exchanges.push(files.exchange);
    if (files.ok) {
      collectList(lookup(files.payload, 'LIST'), collected, true);
    } else if (!files.refusal) {
      return {
        ok: false,
        ...files.failure,
        message: `No se pudo leer la lista de servicios de archivo: ${files.failure.message}`,
        exchanges,
      };
    }
    return { ok: true, value: collected.result(), exchanges };
  }

  async function place(input: PlaceInput): Promise<CallOutcome<{ reference: string }>> {
    const isFile = input.remoteId.startsWith(FILE_PREFIX);
    const params: Record<string, string> = {
      ID: isFile ? input.remoteId.slice(FILE_PREFIX.length) : input.remoteId,
    };
    if (isFile && !input.params.FILEDATA) {
      return {
        ok: false,
        kind: 'not-sent',
        message: 'La orden no trae el archivo que pide el proveedor.',
        exchanges: [],
      };
    }
    const custom: Record<string, string> = {};
    for (const [name, value] of Object.entries(input.params)) {
      const customName = /^customfield:([\s\S]+)$/i.exec(name)?.[1];
      if (customName !== undefined) {
        custom[customName] = value;
        continue;
      }
      if (!isParameterName(name) || /^(?:id|customfield|file)$/i.test(name)) {
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
    const call = await simple(
      isFile ? 'placefileorder' : 'placeimeiorder',
      params,
      hasCustom ? custom : null,
      false,
    );
    const exchanges = [call.exchange];
    if (!call.ok) return { ok: false, ...call.failure, exchanges };
    const raw = lookup(call.payload, 'REFERENCEID');
    const reference = identifierText(raw, TEXT_LIMITS.reference);
    if (reference === null) {
      return {
        ok: false,
        kind: 'ambiguous',
        message:
          raw === undefined || raw === null || raw === ''
            ? `El proveedor respondió éxito sin REFERENCEID: ${excerpt(JSON.stringify(call.payload))}`
            : `El proveedor respondió éxito con una referencia no válida: ${excerpt(JSON.stringify(raw))}`,
        exchanges,
      };
    }
    // Kept whole, or refused: the prefix must not push a valid reference past its length.
    const kept = isFile
      ? identifierText(`${FILE_PREFIX}${reference}`, TEXT_LIMITS.reference)
      : reference;
    if (kept === null) {
      return {
        ok: false,
        kind: 'ambiguous',
        message: `El proveedor respondió éxito con una referencia no válida: ${excerpt(JSON.stringify(raw))}`,
        exchanges,
      };
    }
    return { ok: true, value: { reference: kept }, exchanges };
  }

  type Batch = { statuses: Map<string, RemoteStatus>; failure: Failure | null };

  /** One `getimeiorder` per reference; stops at the first failure of the whole call. */
  async function singles(refs: string[], exchanges: Exchange[]): Promise<Batch> {
    const statuses = new Map<string, RemoteStatus>();
    for (const ref of refs) {
      const call = ref.startsWith(FILE_PREFIX)
        ? await simple('getfileorder', { ID: ref.slice(FILE_PREFIX.length) }, null, true)
        : await simple('getimeiorder', { ID: ref }, null, true);
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
    const unique = [...new Set(references)];
    // File orders have no bulk status: one getfileorder each, after the IMEI orders.
    const files = unique.filter((ref) => ref.startsWith(FILE_PREFIX));
    const imeis = unique.filter((ref) => !ref.startsWith(FILE_PREFIX));
    const statuses = new Map<string, RemoteStatus>();
    const exchanges: Exchange[] = [];
    let firstFailure: Failure | null = null;
    let answered = false;
    const groups = [
      ...chunks(imeis, BULK_CHUNK).map((group) => ({ group, file: false })),
      ...chunks(files, BULK_CHUNK).map((group) => ({ group, file: true })),
    ];
    for (const { group, file } of groups) {
      const batch =
        bulkStatus && !file ? await bulk(group, exchanges) : await singles(group, exchanges);
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

// Our DHRU Fusion server (`POST /api/index.php`), so a customer's own DHRU panel buys from us
// with nothing but its standard "Other Fusion" connection: username = the account's e-mail,
// apiaccesskey = a personal API key (docs/protocols.md §2, §4.3). Answers are always the DHRU
// envelope, HTTP 200 for every logical error; our own failures are 500 with the same envelope.
import type { Context } from 'hono';
import { formatAmount } from '../../../shared/money';
import { ORDER_STATUS_LABELS, type OrderStatus } from '../../../shared/schemas/orders';
import type { ServiceField } from '../../../shared/schemas/service-fields';
import { findTextProblem } from '../../../shared/text';
import { authenticateKey } from '../../lib/api-keys';
import { decodeEntities } from '../../suppliers/decimal';
import { AppError } from '../../lib/errors';
import type { AppEnv } from '../../lib/http';
import type { RouteDeps } from '../../lib/route';
import {
  customFields,
  decodeBulkRows,
  decodeParameters,
  DHRU_API_VERSION,
  errorEnvelope,
  isEmptyParameterBlock,
  isRecord,
  lookup,
  paramLookup,
  successEnvelope,
} from '../../suppliers/dhru-wire';
import type { OrderRow } from '../orders/order-dto';
import { dropUnusedFile, fileServiceInfo, isFileService, storeDhruFile } from './dhru-files.server';
import { placeOrder } from '../orders/orders.service';
import { withCustomerPrices } from '../price-groups/pricing.service';
import { standing } from '../ledger/ledger.service';
import {
  activeServices,
  categoryLabel,
  htmlEscape,
  identifierField,
  orderNumber,
  ordersByNumber,
  readProtocolForm,
  serviceByNumber,
  textAsHtml,
  type ServiceRow,
} from './reseller.service';

/** Rows of one placeimeiorderbulk / getimeiorderbulk call, at most. */
export const DHRU_BULK_MAX = 500;

const HEADERS = {
  'X-Powered-By': 'DHRU-FUSION',
  'dhru-fusion-api-version': DHRU_API_VERSION,
  'Cache-Control': 'no-store',
};

/** Action names, with the aliases other panel families use (docs/protocols.md §2.7). */
const ACTIONS: Record<string, string> = {
  accountinfo: 'accountinfo',
  imeiservicelist: 'imeiservicelist',
  servicelist: 'imeiservicelist',
  getimeiservicedetails: 'getimeiservicedetails',
  placeimeiorder: 'placeimeiorder',
  placeorder: 'placeimeiorder',
  placeimeiorderbulk: 'placeimeiorderbulk',
  placeorderbulk: 'placeimeiorderbulk',
  placebulkorder: 'placeimeiorderbulk',
  getimeiorder: 'getimeiorder',
  orderstatus: 'getimeiorder',
  getimeiorderbulk: 'getimeiorderbulk',
  orderstatusbulk: 'getimeiorderbulk',
  fileservicelist: 'fileservicelist',
  placefileorder: 'placefileorder',
  getfileorder: 'getfileorder',
  modellist: 'modellist',
  providerlist: 'providerlist',
  meplist: 'meplist',
};

/** Actions whose `parameters` is the bulk's base64 JSON rows. */
const BULK_ACTIONS = new Set(['placeimeiorderbulk', 'getimeiorderbulk']);

/** Actions that take no parameters: whatever a client sends in `parameters` is ignored. */
const NO_PARAMETERS = new Set(['accountinfo', 'imeiservicelist', 'fileservicelist', 'meplist']);

const REQUIRES = [
  'Network',
  'Mobile',
  'Provider',
  'PIN',
  'KBH',
  'MEP',
  'PRD',
  'Type',
  'Locks',
  'Reference',
  'SN',
  'SecRO',
];

class DhruError extends Error {
  constructor(
    message: string,
    readonly full?: string,
  ) {
    super(message);
  }
}

function answer(c: Context<AppEnv>, body: Record<string, unknown>, status: 200 | 500 = 200) {
  for (const [k, v] of Object.entries(HEADERS)) c.header(k, v);
  // The charset spelled out, as DHRU servers send it: old PHP panels read the body as Latin-1
  // otherwise.
  return c.body(JSON.stringify(body), status, {
    'Content-Type': 'application/json; charset=utf-8',
  });
}

/** The custom fields a DHRU client builds its form from: every field but the identifier box. */
function customOf(svc: ServiceRow, box: ServiceField | undefined, type: string) {
  return svc.fields
    .filter((f) => f !== box && f.type !== 'file')
    .map((f) => ({
      type,
      fieldname: f.key,
      fieldtype: f.type === 'select' ? 'dropdown' : f.type === 'text' ? 'textarea' : 'text',
      description: htmlEscape(f.hint ? `${f.label}. ${f.hint}` : f.label),
      fieldoptions: (f.options ?? []).map(htmlEscape).join(','),
      required: f.required ? 'on' : '',
      regexpr: '',
      adminonly: '',
      enc: '',
    }));
}

/**
 * One service as DHRU servers list it, with every field a panel's sync reads and the types they
 * use (docs/protocols.md §2.6): ids, SERVER, prices and flags as strings, MINQNT/MAXQNT as
 * numbers (0: sold one at a time, no quantity), CUSTOM as an object of strings.
 */
export function serviceEntry(svc: ServiceRow, serviceType?: string): Record<string, unknown> {
  // The IMEI box carries an IMEI; every other input (a serial, a user name…) is a custom field,
  // as DHRU server services list them.
  const imeiBox = svc.fields.find((f) => f.type === 'imei');
  const isImei = imeiBox !== undefined;
  const type = serviceType ?? (isImei ? 'IMEI' : 'SERVER');
  return {
    SERVICEID: String(svc.number),
    SERVICETYPE: type,
    SERVICENAME: htmlEscape(svc.name),
    CREDIT: formatAmount(svc.price),
    TIME: htmlEscape(svc.deliveryTime),
    INFO: textAsHtml(svc.description),
    SERVER: type === 'SERVER' ? '1' : '0',
    QNT: '0',
    QNTOPTIONS: '',
    MINQNT: 0,
    MAXQNT: 0,
    CUSTOM: {
      allow: '0',
      bulk: isImei ? '1' : '0',
      customname: '',
      custominfo: '',
      customlen: '',
      maxlength: '',
      regex: '',
      isalpha: '0',
    },
    ...Object.fromEntries(REQUIRES.map((r) => [`Requires.${r}`, 'None'])),
    'Requires.Custom': customOf(svc, imeiBox, isImei ? 'serviceimei' : 'server'),
  };
}

/** DHRU lists the services sold per order (per-1000 services are on the SMM API). */
function dhruServices(rows: ServiceRow[]): ServiceRow[] {
  return rows.filter((s) => s.unit === 'order');
}

/** Our order's fields from a DHRU request: the IMEI box, CUSTOMFIELD by key or label, or tags. */
function fieldsFrom(svc: ServiceRow, params: Record<string, string>): Record<string, string> {
  const custom = customFields(params);
  if (custom === null)
    throw new DhruError('Invalid parameters', 'CUSTOMFIELD no es base64 de JSON.');
  // The IMEI box fills the IMEI field; lenient clients that put another identifier there fill
  // the service's identifier field with it.
  const box = identifierField(svc.fields);
  const values: Record<string, string> = {};
  const imei = paramLookup(params, 'IMEI');
  if (box && imei !== null && imei !== '') values[box.key] = imei;
  for (const f of svc.fields) {
    const fromCustom = lookup(custom, f.key) ?? lookup(custom, f.label);
    if (typeof fromCustom === 'string') {
      // Options are listed HTML-escaped: a panel may send one back as it listed it.
      const decoded = decodeEntities(fromCustom);
      values[f.key] =
        f.options && !f.options.includes(fromCustom) && f.options.includes(decoded)
          ? decoded
          : fromCustom;
      continue;
    }
    if (values[f.key] !== undefined) continue;
    const tag = paramLookup(params, f.key);
    if (tag !== null) values[f.key] = tag;
  }
  return values;
}

/** A refusal of placeOrder in the words DHRU clients recognise, with ours in full. */
function refusal(err: AppError, svc: ServiceRow): DhruError {
  switch (err.code) {
    case 'INSUFFICIENT_FUNDS':
      return new DhruError('Not enough credits', err.message);
    case 'DUPLICATE_IN_FLIGHT':
      return new DhruError('Duplicate IMEI', Object.values(err.fields ?? {})[0] ?? err.message);
    case 'NOT_FOUND':
      return new DhruError('Invalid Service ID', err.message);
    case 'OUT_OF_STOCK':
      return new DhruError(err.message);
    // A reversed top-up blocks the account: the reason, in full, is what the panel shows.
    case 'ACCOUNT_BLOCKED':
      return new DhruError(err.message);
    case 'VALIDATION_FAILED': {
      const box = identifierField(svc.fields);
      const [key, message] = Object.entries(err.fields ?? {})[0] ?? ['', err.message];
      if (box && key === box.key)
        return new DhruError(
          box.type === 'imei' ? 'Invalid IMEI' : 'Invalid Serial Number',
          message,
        );
      const label = svc.fields.find((f) => f.key === key)?.label ?? key;
      return new DhruError('Invalid parameters', label ? `${label}: ${message}` : message);
    }
    default:
      return new DhruError('Order not accepted', err.message);
  }
}

/** Places one order of a service sold per order; `extra` values win (a file's upload id). */
async function placeIn(
  deps: RouteDeps,
  userId: string,
  svc: ServiceRow,
  params: Record<string, string>,
  extra: Record<string, string> = {},
): Promise<OrderRow['number']> {
  try {
    const placed = await placeOrder(
      deps.db,
      userId,
      { serviceId: svc.id, fields: { ...fieldsFrom(svc, params), ...extra } },
      null,
      deps.jobs,
      'dhru',
      deps,
    );
    return placed.order.number;
  } catch (err) {
    if (err instanceof AppError) throw refusal(err, svc);
    throw err;
  }
}

/** placeimeiorder: a service sold per order that takes no file (a file needs placefileorder). */
async function place(
  deps: RouteDeps,
  userId: string,
  params: Record<string, string>,
): Promise<OrderRow['number']> {
  const svc = await serviceByNumber(deps.db, paramLookup(params, 'ID'));
  if (!svc || svc.unit !== 'order' || isFileService(svc)) throw new DhruError('Invalid Service ID');
  return placeIn(deps, userId, svc, params);
}

/** placefileorder: FILENAME and FILEDATA fill the service's file field. */
async function placeFile(
  deps: RouteDeps,
  userId: string,
  params: Record<string, string>,
): Promise<OrderRow['number']> {
  const svc = await serviceByNumber(deps.db, paramLookup(params, 'ID'));
  if (!svc || !isFileService(svc)) throw new DhruError('Invalid Service ID');
  const stored = await storeDhruFile(deps.db, userId, svc, params);
  if (!stored.ok) throw new DhruError(stored.message, stored.full);
  try {
    return await placeIn(deps, userId, svc, params, { [stored.fieldKey]: stored.id });
  } finally {
    // Refused: the file is not kept waiting for an order that will not come.
    await dropUnusedFile(deps.db, stored.id);
  }
}

/** STATUS and CODE of our order (docs/protocols.md §2.5): 0 new, 1 in process, 3 rejected, 4 done. */
function statusCode(row: OrderRow): { STATUS: number; CODE: string } {
  switch (row.status as OrderStatus) {
    case 'pending':
      return { STATUS: 0, CODE: '' };
    case 'processing':
      return { STATUS: 1, CODE: '' };
    case 'completed':
    case 'partial':
      return { STATUS: 4, CODE: textAsHtml(row.result ?? '') };
    case 'rejected':
      return { STATUS: 3, CODE: textAsHtml(row.rejectReason ?? 'Rechazada') };
    case 'cancelled':
      return { STATUS: 3, CODE: textAsHtml(row.rejectReason ?? 'Cancelada') };
  }
}

/**
 * A status answer as DHRU servers give it: STATUS and CODE, the order's IMEI (its identifier) and
 * COMMENTS, our own word for the state, which tells apart what STATUS cannot (a partial delivery
 * from a full one, a cancel from a rejection). Text is HTML-escaped: panels print it raw.
 */
export function statusOf(row: OrderRow): {
  STATUS: number;
  CODE: string;
  IMEI: string;
  COMMENTS: string;
} {
  return {
    ...statusCode(row),
    IMEI: htmlEscape(row.identifier ?? ''),
    COMMENTS: htmlEscape(ORDER_STATUS_LABELS[row.status as OrderStatus] ?? ''),
  };
}

/**
 * A bulk `parameters`: base64 JSON of rows keyed by the caller's own references, or a list
 * (keyed by index: "0", "1"…). Null values (a PHP module's unset MODELID) are left out.
 */
function bulkRows(raw: string): Map<string, Record<string, string>> {
  const decoded = decodeBulkRows(raw);
  if (decoded === null)
    throw new DhruError('Invalid parameters', 'parameters no es base64 de JSON.');
  const rows = new Map<string, Record<string, string>>();
  for (const [ref, parsed] of decoded) {
    const row: Record<string, string> = {};
    for (const [k, v] of Object.entries(parsed)) {
      if (typeof v === 'string') row[k] = v;
      else if (typeof v === 'number' && Number.isFinite(v)) row[k] = String(v);
      else if (isRecord(v) && k.toLowerCase() === 'customfield')
        row[k] = Buffer.from(JSON.stringify(v), 'utf8').toString('base64');
    }
    rows.set(ref, row);
  }
  if (rows.size > DHRU_BULK_MAX)
    throw new DhruError('Too many rows', `Como máximo ${DHRU_BULK_MAX} filas por llamada.`);
  return rows;
}

function errorOf(err: unknown): Record<string, unknown> {
  return err instanceof DhruError
    ? errorEnvelope(err.message, err.full)
    : errorEnvelope('Order not accepted');
}

/** POST /api/index.php. */
export async function handleDhru(c: Context<AppEnv>, deps: RouteDeps): Promise<Response> {
  try {
    const form = await readProtocolForm(c.req.raw);
    if (findTextProblem(form)) return answer(c, errorEnvelope('Invalid parameters'));
    const auth = await authenticateKey(deps.db, form.apiaccesskey ?? '', {
      ip: c.get('clientIp'),
      email: form.username ?? '',
      ratePerMinute: deps.env.API_KEY_RATE_LIMIT_PER_MINUTE,
    });
    if (!auth.ok) {
      if (auth.reason === 'rate-limited') {
        c.header('Retry-After', String(auth.retryAfter ?? 60));
        return answer(c, errorEnvelope('Too many requests, try again later'));
      }
      if (auth.reason === 'ip-not-allowed')
        return answer(c, errorEnvelope('Your Server IP is not allowed', c.get('clientIp')));
      return answer(c, errorEnvelope('Authentication Failed'));
    }
    const userId = auth.user.id;
    const action = ACTIONS[(form.action ?? '').trim().toLowerCase()];
    if (!action) return answer(c, errorEnvelope('Invalid Action'));
    const raw = form.parameters ?? '';
    // Actions that take no parameters ignore whatever arrives; an empty block is no parameters.
    const params =
      BULK_ACTIONS.has(action) || NO_PARAMETERS.has(action) || isEmptyParameterBlock(raw)
        ? {}
        : decodeParameters(raw);
    if (params === null) return answer(c, errorEnvelope('Invalid parameters'));

    switch (action) {
      case 'accountinfo': {
        // DHRU's credit limit: `credit` is the balance (negative while they owe on credit),
        // `creditlimit` how far below zero orders may take it (docs/domain.md §3).
        const { available, creditLimit } = await standing(deps.db, userId);
        const credit = formatAmount(available);
        const info = {
          credit: `${available < 0n ? '-' : ''}$${formatAmount(available < 0n ? -available : available)}`,
          creditraw: credit,
          creditlimit: formatAmount(creditLimit),
          currency: 'USD',
          mail: auth.user.email,
        };
        return answer(
          c,
          successEnvelope({ message: 'Your Accout Info', AccoutInfo: info, AccountInfo: info }),
        );
      }
      case 'imeiservicelist':
      case 'fileservicelist': {
        type Group = { GROUPNAME: string; GROUPTYPE: unknown; SERVICES: Record<string, unknown> };
        const files = action === 'fileservicelist';
        const list: Record<string, Group> = {};
        for (const svc of dhruServices(
          await withCustomerPrices(deps.db, userId, await activeServices(deps.db)),
        )) {
          if (isFileService(svc) !== files) continue;
          const group = categoryLabel(svc.category);
          const entry = files
            ? { ...serviceEntry(svc, 'FILE'), INFO: fileServiceInfo(svc) }
            : serviceEntry(svc);
          const current = list[group] ?? {
            GROUPNAME: htmlEscape(group),
            GROUPTYPE: entry.SERVICETYPE,
            SERVICES: {},
          };
          current.SERVICES[String(svc.number)] = entry;
          list[group] = current;
        }
        return answer(
          c,
          successEnvelope({
            MESSAGE: files ? 'File Service List' : 'IMEI Service List',
            LIST: list,
          }),
        );
      }
      case 'getimeiservicedetails': {
        const found = await serviceByNumber(deps.db, paramLookup(params, 'ID'));
        const [svc] = found ? await withCustomerPrices(deps.db, userId, [found]) : [];
        if (!svc || svc.unit !== 'order') return answer(c, errorEnvelope('Invalid Service ID'));
        return answer(
          c,
          successEnvelope({
            MESSAGE: 'Service Details',
            LIST: {
              service_name: htmlEscape(svc.name),
              // No service of ours is limited to models or networks.
              assigned_model: '',
              assigned_provider: '',
              ...serviceEntry(svc),
            },
          }),
        );
      }
      case 'modellist':
      case 'providerlist':
      case 'meplist': {
        // Brands and models, countries and networks, MEP codes: none of our services asks for
        // them, so the lists are empty; a panel's sync asks anyway, and must not fail.
        const id = paramLookup(params, 'ID');
        if (action !== 'meplist' && id !== null && id.trim() !== '') {
          const svc = await serviceByNumber(deps.db, id);
          if (!svc || svc.unit !== 'order') return answer(c, errorEnvelope('Invalid Service ID'));
        }
        const message =
          action === 'modellist'
            ? 'Model List'
            : action === 'providerlist'
              ? 'Provider List'
              : 'MEP List';
        return answer(c, successEnvelope({ MESSAGE: message, LIST: [] }));
      }
      case 'placeimeiorder': {
        try {
          const reference = await place(deps, userId, params);
          return answer(
            c,
            successEnvelope({ MESSAGE: 'Order received', REFERENCEID: String(reference) }),
          );
        } catch (err) {
          if (err instanceof DhruError) return answer(c, errorOf(err));
          throw err;
        }
      }
      case 'placeimeiorderbulk': {
        const rows = bulkRows(raw);
        const out: Record<string, unknown> = {};
        // One order per row, one after the other: the balance runs out row by row.
        for (const [ref, row] of rows) {
          try {
            const reference = await place(deps, userId, row);
            out[ref] = successEnvelope({
              MESSAGE: 'Order received',
              REFERENCEID: String(reference),
            });
          } catch (err) {
            if (!(err instanceof DhruError)) throw err;
            out[ref] = errorOf(err);
          }
          delete (out[ref] as Record<string, unknown>).apiversion;
        }
        return answer(c, { ...out, apiversion: DHRU_API_VERSION });
      }
      case 'placefileorder': {
        try {
          const reference = await placeFile(deps, userId, params);
          return answer(
            c,
            successEnvelope({ MESSAGE: 'Order received', REFERENCEID: String(reference) }),
          );
        } catch (err) {
          if (err instanceof DhruError) return answer(c, errorOf(err));
          throw err;
        }
      }
      case 'getimeiorder':
      case 'getfileorder': {
        const n = orderNumber(paramLookup(params, 'ID'));
        const found = n === null ? undefined : (await ordersByNumber(deps.db, userId, [n])).get(n);
        if (!found) return answer(c, errorEnvelope('Order not found'));
        // A file order has no IMEI.
        const { IMEI: _imei, ...fileStatus } = statusOf(found);
        return answer(c, successEnvelope(action === 'getfileorder' ? fileStatus : statusOf(found)));
      }
      case 'getimeiorderbulk': {
        const rows = bulkRows(raw);
        const numbers = new Map<string, number | null>();
        for (const [ref, row] of rows) numbers.set(ref, orderNumber(paramLookup(row, 'ID')));
        const found = await ordersByNumber(
          deps.db,
          userId,
          [...numbers.values()].filter((n): n is number => n !== null),
        );
        const out: Record<string, unknown> = {};
        for (const [ref, n] of numbers) {
          const row = n === null ? undefined : found.get(n);
          out[ref] = row
            ? { SUCCESS: [statusOf(row)] }
            : { ERROR: [{ MESSAGE: 'Order not found' }] };
        }
        return answer(c, { ...out, apiversion: DHRU_API_VERSION });
      }
      default:
        return answer(c, errorEnvelope('Invalid Action'));
    }
  } catch (err) {
    if (err instanceof DhruError) return answer(c, errorOf(err));
    c.get('logger').error({ err }, 'DHRU API request failed');
    return answer(c, errorEnvelope('Internal error, try again later', c.get('requestId')), 500);
  }
}

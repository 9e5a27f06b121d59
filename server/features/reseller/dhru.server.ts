// Our DHRU Fusion server (`POST /api/index.php`), so a customer's own DHRU panel buys from us
// with nothing but its standard "Other Fusion" connection: username = the account's e-mail,
// apiaccesskey = a personal API key (docs/protocols.md §2, §4.3). Answers are always the DHRU
// envelope, HTTP 200 for every logical error; our own failures are 500 with the same envelope.
import type { Context } from 'hono';
import { formatAmount } from '../../../shared/money';
import type { OrderStatus } from '../../../shared/schemas/orders';
import type { ServiceField } from '../../../shared/schemas/service-fields';
import { findTextProblem } from '../../../shared/text';
import { authenticateKey } from '../../lib/api-keys';
import { AppError } from '../../lib/errors';
import type { AppEnv } from '../../lib/http';
import type { RouteDeps } from '../../lib/route';
import {
  customFields,
  decodeBase64JsonObject,
  decodeParameters,
  DHRU_API_VERSION,
  errorEnvelope,
  isRecord,
  lookup,
  paramLookup,
  successEnvelope,
} from '../../suppliers/dhru-wire';
import type { OrderRow } from '../orders/order-dto';
import { placeOrder } from '../orders/orders.service';
import { balances } from '../ledger/ledger.service';
import {
  activeServices,
  categoryLabel,
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
};

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
  return c.json(body, status);
}

/** The custom fields a DHRU client builds its form from: every field but the identifier box. */
function customOf(svc: ServiceRow, box: ServiceField | undefined) {
  return svc.fields
    .filter((f) => f !== box)
    .map((f) => ({
      type: 'serviceimei',
      fieldname: f.key,
      fieldtype: f.type === 'select' ? 'dropdown' : f.type === 'text' ? 'textarea' : 'text',
      description: f.hint ? `${f.label}. ${f.hint}` : f.label,
      fieldoptions: (f.options ?? []).join(','),
      required: f.required ? 'on' : '',
      regexpr: '',
      adminonly: '',
    }));
}

function serviceEntry(svc: ServiceRow) {
  // The IMEI box carries an IMEI; every other input (a serial, a user name…) is a custom field,
  // as DHRU server services list them.
  const imeiBox = svc.fields.find((f) => f.type === 'imei');
  const box = imeiBox;
  const isImei = imeiBox !== undefined;
  const entry: Record<string, unknown> = {
    SERVICEID: String(svc.number),
    SERVICETYPE: isImei ? 'IMEI' : 'SERVER',
    SERVICENAME: svc.name,
    CREDIT: formatAmount(svc.price),
    TIME: svc.deliveryTime,
    INFO: textAsHtml(svc.description),
    SERVER: isImei ? '0' : '1',
    MINQNT: '1',
    MAXQNT: '1',
    ...Object.fromEntries(REQUIRES.map((r) => [`Requires.${r}`, 'None'])),
    'Requires.Custom': customOf(svc, box),
  };
  return entry;
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
      values[f.key] = fromCustom;
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

async function place(
  deps: RouteDeps,
  userId: string,
  params: Record<string, string>,
): Promise<OrderRow['number']> {
  const svc = await serviceByNumber(deps.db, paramLookup(params, 'ID'));
  if (!svc || svc.unit !== 'order') throw new DhruError('Invalid Service ID');
  try {
    const placed = await placeOrder(
      deps.db,
      userId,
      { serviceId: svc.id, fields: fieldsFrom(svc, params) },
      null,
      deps.jobs,
      'dhru',
    );
    return placed.order.number;
  } catch (err) {
    if (err instanceof AppError) throw refusal(err, svc);
    throw err;
  }
}

/** DHRU status of our order (docs/protocols.md §2.5): 0 new, 1 in process, 3 rejected, 4 done. */
function statusOf(row: OrderRow): { STATUS: number; CODE: string } {
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

/** A bulk `parameters`: base64 JSON of rows keyed by the caller's own references. */
function bulkRows(raw: string): Map<string, Record<string, string>> {
  const top = decodeBase64JsonObject(raw.trim());
  if (top === null) throw new DhruError('Invalid parameters', 'parameters no es base64 de JSON.');
  const rows = new Map<string, Record<string, string>>();
  for (const [ref, text] of Object.entries(top)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
    if (!isRecord(parsed)) continue;
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
    const params =
      action === 'placeimeiorderbulk' || action === 'getimeiorderbulk'
        ? {}
        : raw.trim() === ''
          ? {}
          : decodeParameters(raw);
    if (params === null) return answer(c, errorEnvelope('Invalid parameters'));

    switch (action) {
      case 'accountinfo': {
        const { available } = await balances(deps.db, userId);
        const credit = formatAmount(available);
        const info = {
          credit: `$${credit}`,
          creditraw: credit,
          currency: 'USD',
          mail: auth.user.email,
        };
        return answer(
          c,
          successEnvelope({ message: 'Your Accout Info', AccoutInfo: info, AccountInfo: info }),
        );
      }
      case 'imeiservicelist': {
        type Group = { GROUPNAME: string; GROUPTYPE: unknown; SERVICES: Record<string, unknown> };
        const list: Record<string, Group> = {};
        for (const svc of dhruServices(await activeServices(deps.db))) {
          const group = categoryLabel(svc.category);
          const entry = serviceEntry(svc);
          const current = list[group] ?? {
            GROUPNAME: group,
            GROUPTYPE: entry.SERVICETYPE,
            SERVICES: {},
          };
          current.SERVICES[String(svc.number)] = entry;
          list[group] = current;
        }
        return answer(c, successEnvelope({ MESSAGE: 'IMEI Service List', LIST: list }));
      }
      case 'getimeiservicedetails': {
        const svc = await serviceByNumber(deps.db, paramLookup(params, 'ID'));
        if (!svc || svc.unit !== 'order') return answer(c, errorEnvelope('Invalid Service ID'));
        return answer(
          c,
          successEnvelope({
            MESSAGE: 'Service Details',
            LIST: { service_name: svc.name, ...serviceEntry(svc) },
          }),
        );
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
      case 'getimeiorder': {
        const n = orderNumber(paramLookup(params, 'ID'));
        const found = n === null ? undefined : (await ordersByNumber(deps.db, userId, [n])).get(n);
        if (!found) return answer(c, errorEnvelope('Order not found'));
        return answer(c, successEnvelope(statusOf(found)));
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

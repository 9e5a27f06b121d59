// Our SMM panel API v2 server (`POST|GET /api/v2`), so SMM panels and scripts buy from us with
// the usual `key` + `action` (docs/protocols.md §3, §6). Every order type of the protocol, drip-
// feed, status with start count and remains, refill and refill status (single and multi), and
// cancel (at once while not yet sent; forwarded to the supplier for an order in progress). Errors
// are `{ "error": "…" }` with HTTP 200, as clients expect; our own failures are 500 with the same
// shape.
import type { Context } from 'hono';
import { formatAmount, partialRefundCents } from '../../../shared/money';
import type { OrderStatus, RefillDto } from '../../../shared/schemas/orders';
import { SMM_TYPE_SPECS, smmTypeOf, type SmmType } from '../../../shared/smm-types';
import { findTextProblem } from '../../../shared/text';
import { authenticateKey } from '../../lib/api-keys';
import { AppError } from '../../lib/errors';
import type { AppEnv } from '../../lib/http';
import type { RouteDeps } from '../../lib/route';
import { standing } from '../ledger/ledger.service';
import type { OrderRow } from '../orders/order-dto';
import {
  RefillRefused,
  refillsByNumber,
  requestCancel,
  requestRefill,
} from '../orders/lifecycle.service';
import { placeOrder } from '../orders/orders.service';
import { withCustomerPrices } from '../price-groups/pricing.service';
import {
  activeServices,
  categoryLabel,
  htmlEscape,
  orderNumber,
  ordersByNumber,
  readProtocolForm,
  routedServiceIds,
  serviceByNumber,
  textAsHtml,
  type ServiceRow,
} from './reseller.service';

/** Ids in one `status`, `cancel`, `refill` or `refill_status` call, at most (the protocol's limit). */
export const SMM_MULTI_MAX = 100;

/** How a service is sold over SMM: its type, and the field each protocol parameter fills. */
type Sold = { type: SmmType; params: Record<string, string> };

/**
 * A service's SMM type: the one it declares, or, for a service without one whose only required
 * input is a link, `Default` (per 1000) or `Package` (per order). Null: not sold over SMM.
 */
function soldAs(svc: ServiceRow): Sold | null {
  const declared = svc.smmType ? smmTypeOf(svc.smmType) : null;
  if (declared) {
    return {
      type: declared,
      params: Object.fromEntries(SMM_TYPE_SPECS[declared].fields.map((f) => [f.key, f.key])),
    };
  }
  const required = svc.fields.filter((f) => f.required);
  const link = svc.fields.find((f) => f.type === 'url');
  if (!link || required.some((f) => f.key !== link.key)) return null;
  return { type: svc.unit === '1000' ? 'Default' : 'Package', params: { link: link.key } };
}

function fail(c: Context<AppEnv>, error: string, status: 200 | 500 = 200) {
  c.header('Cache-Control', 'no-store');
  return c.json({ error }, status);
}

function ok(c: Context<AppEnv>, body: unknown) {
  c.header('Cache-Control', 'no-store');
  return c.json(body);
}

/** SMM status of our order (docs/protocols.md §3.6, as a server). */
function statusOf(row: OrderRow): Record<string, string> {
  const quantity = row.quantity;
  const base = { start_count: String(row.startCount ?? 0), currency: 'USD' };
  const inFlight = String(row.remains ?? quantity);
  switch (row.status as OrderStatus) {
    case 'pending':
      return { charge: formatAmount(row.price), ...base, status: 'Pending', remains: inFlight };
    case 'processing':
      return { charge: formatAmount(row.price), ...base, status: 'In progress', remains: inFlight };
    case 'completed':
      return { charge: formatAmount(row.price), ...base, status: 'Completed', remains: '0' };
    case 'partial': {
      const remains = row.remains ?? 0;
      const refund = partialRefundCents(row.price, remains, quantity);
      return {
        charge: formatAmount(row.price - refund),
        ...base,
        status: 'Partial',
        remains: String(remains),
      };
    }
    case 'rejected':
    case 'cancelled':
      return { charge: '0.00', ...base, status: 'Canceled', remains: String(quantity) };
  }
}

/** A refill's status word, as SMM panels write it. */
function refillStatusOf(refill: RefillDto): string {
  switch (refill.status) {
    case 'pending':
      return 'Pending';
    case 'in_progress':
      return 'In progress';
    case 'completed':
      return 'Completed';
    case 'rejected':
      return 'Rejected';
  }
}

/** A refused refill in the words SMM clients show. */
function refillRefusal(err: AppError): string {
  if (!(err instanceof RefillRefused)) return err.message;
  switch (err.why) {
    case 'no-refill':
      return 'Refill is not available for this service';
    case 'not-completed':
      return 'Order is not completed';
    case 'expired':
      return 'Refill period has expired';
    case 'open':
      return 'Refill is already in progress';
  }
}

/** A refusal of placeOrder in the words SMM clients recognise. */
function refusal(err: AppError, sold: Sold): string {
  switch (err.code) {
    case 'INSUFFICIENT_FUNDS':
      return 'Not enough funds on balance';
    case 'DUPLICATE_IN_FLIGHT':
      return 'You have active order with this link. Please wait until order being completed.';
    case 'NOT_FOUND':
      return 'Incorrect service ID';
    case 'VALIDATION_FAILED': {
      const fields = err.fields ?? {};
      const link = sold.params.link;
      if (link && fields[link]) return 'Incorrect link';
      if (fields.quantity) return 'Incorrect quantity';
      if (fields.runs || fields.interval)
        return `Incorrect request: ${fields.runs ?? fields.interval}`;
      const [key, message] = Object.entries(fields)[0] ?? ['', err.message];
      const param = Object.entries(sold.params).find(([, field]) => field === key)?.[0] ?? key;
      return param ? `Incorrect ${param}: ${message}` : `Incorrect request: ${message}`;
    }
    default:
      return err.message;
  }
}

/** `orders=1,2,3` (or one `order`): the numbers as given, at most 100. */
function idsOf(raw: string): string[] | null {
  const ids = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return ids.length > SMM_MULTI_MAX ? null : ids;
}

/** A whole number the form carries ("1000", " 5 "); undefined when absent; null when not one. */
function wholeNumber(raw: string | undefined): number | null | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const text = raw.trim();
  return /^\d{1,9}$/.test(text) ? Number(text) : null;
}

/** The `services` entry of a service sold over SMM. */
function serviceEntry(svc: ServiceRow, sold: Sold, routed: boolean) {
  const rule = SMM_TYPE_SPECS[sold.type].quantity;
  const counted = rule.kind !== 'none';
  return {
    service: svc.number,
    name: htmlEscape(svc.name),
    type: sold.type,
    category: htmlEscape(categoryLabel(svc.category)),
    rate: formatAmount(svc.price),
    min: String(counted ? (svc.minQuantity ?? 1) : 1),
    max: String(counted ? (svc.maxQuantity ?? 1) : 1),
    dripfeed: svc.dripfeed,
    refill: svc.refillDays !== null,
    // Orders wait for an admin on a service without a supplier: they can be cancelled till then.
    cancel: svc.cancelable || !routed,
    desc: textAsHtml(svc.description),
  };
}

/** POST|GET /api/v2. */
export async function handleSmm(c: Context<AppEnv>, deps: RouteDeps): Promise<Response> {
  try {
    const form = await readProtocolForm(c.req.raw);
    if (findTextProblem(form)) return fail(c, 'Incorrect request');
    const auth = await authenticateKey(deps.db, form.key ?? '', {
      ip: c.get('clientIp'),
      ratePerMinute: deps.env.API_KEY_RATE_LIMIT_PER_MINUTE,
    });
    if (!auth.ok) {
      if (auth.reason === 'rate-limited') {
        c.header('Retry-After', String(auth.retryAfter ?? 60));
        return fail(c, 'Too many requests, try again later');
      }
      if (auth.reason === 'ip-not-allowed') return fail(c, 'Your IP is not allowed');
      return fail(c, 'Incorrect API key');
    }
    const userId = auth.user.id;
    switch ((form.action ?? '').trim().toLowerCase()) {
      case 'services': {
        const services = await withCustomerPrices(deps.db, userId, await activeServices(deps.db));
        const routed = await routedServiceIds(
          deps.db,
          services.map((s) => s.id),
        );
        const list = [];
        for (const svc of services) {
          const sold = soldAs(svc);
          if (sold) list.push(serviceEntry(svc, sold, routed.has(svc.id)));
        }
        return ok(c, list);
      }
      case 'add': {
        const svc = await serviceByNumber(deps.db, form.service ?? null);
        const sold = svc ? soldAs(svc) : null;
        if (!svc || !sold) return fail(c, 'Incorrect service ID');
        const fields: Record<string, string> = {};
        for (const [param, key] of Object.entries(sold.params)) {
          const value = form[param];
          if (value !== undefined) fields[key] = value;
        }
        const link = sold.params.link;
        if (link && !(fields[link] ?? '').trim()) return fail(c, 'Incorrect link');
        const rule = SMM_TYPE_SPECS[sold.type].quantity;
        const quantity = wholeNumber(form.quantity);
        const runs = wholeNumber(form.runs);
        const interval = wholeNumber(form.interval);
        if (quantity === null) return fail(c, 'Incorrect quantity');
        if (runs === null || interval === null) return fail(c, 'Incorrect request');
        if (rule.kind === 'input') {
          if (quantity === undefined) return fail(c, 'Incorrect quantity');
          const min = svc.minQuantity ?? 1;
          const max = svc.maxQuantity ?? min;
          if (quantity < min) return fail(c, `Quantity less than minimal ${min}`);
          if (quantity > max) return fail(c, `Quantity more than maximum ${max}`);
        }
        try {
          const placed = await placeOrder(
            deps.db,
            userId,
            {
              serviceId: svc.id,
              // Only where the type takes one: a count of lines or a package has its own.
              quantity: rule.kind === 'input' ? quantity : undefined,
              fields,
              runs,
              interval,
            },
            null,
            deps.jobs,
            'smm',
            deps,
          );
          return ok(c, { order: placed.order.number });
        } catch (err) {
          if (err instanceof AppError) return fail(c, refusal(err, sold));
          throw err;
        }
      }
      case 'status': {
        const ids = idsOf(form.orders ?? form.order ?? '');
        if (ids === null) return fail(c, `Up to ${SMM_MULTI_MAX} orders at a time`);
        if (ids.length === 0) return fail(c, 'Incorrect order ID');
        const numbers = ids.map(orderNumber);
        const found = await ordersByNumber(
          deps.db,
          userId,
          numbers.filter((n): n is number => n !== null),
        );
        if (form.orders === undefined) {
          const row = numbers[0] ? found.get(numbers[0]) : undefined;
          return row ? ok(c, statusOf(row)) : fail(c, 'Incorrect order ID');
        }
        const out: Record<string, unknown> = {};
        ids.forEach((id, i) => {
          const n = numbers[i];
          const row = n ? found.get(n) : undefined;
          out[id] = row ? statusOf(row) : { error: 'Incorrect order ID' };
        });
        return ok(c, out);
      }
      case 'cancel': {
        const ids = idsOf(form.orders ?? form.order ?? '');
        if (ids === null) return fail(c, `Up to ${SMM_MULTI_MAX} orders at a time`);
        if (ids.length === 0) return fail(c, 'Incorrect order ID');
        const numbers = ids.map(orderNumber);
        const found = await ordersByNumber(
          deps.db,
          userId,
          numbers.filter((n): n is number => n !== null),
        );
        const out = [];
        for (const [i, id] of ids.entries()) {
          const n = numbers[i];
          const row = n ? found.get(n) : undefined;
          const orderValue = n ?? id;
          if (!row) {
            out.push({ order: orderValue, cancel: { error: 'Incorrect order ID' } });
            continue;
          }
          try {
            // Cancelled at once while not yet sent; otherwise asked of the supplier (refunded
            // when it reports the order cancelled): either way the request was accepted.
            await requestCancel(deps.db, userId, row.id, deps.jobs);
            out.push({ order: orderValue, cancel: 1 });
          } catch (err) {
            if (!(err instanceof AppError)) throw err;
            out.push({ order: orderValue, cancel: { error: 'Order cannot be canceled' } });
          }
        }
        // One `order`, as some clients send it: the single-order answer.
        if (form.orders === undefined && out.length === 1) {
          const only = out[0];
          return only && typeof only.cancel === 'object'
            ? fail(c, only.cancel.error)
            : ok(c, { cancel: 1 });
        }
        return ok(c, out);
      }
      case 'refill': {
        const ids = idsOf(form.orders ?? form.order ?? '');
        if (ids === null) return fail(c, `Up to ${SMM_MULTI_MAX} orders at a time`);
        if (ids.length === 0) return fail(c, 'Incorrect order ID');
        const numbers = ids.map(orderNumber);
        const found = await ordersByNumber(
          deps.db,
          userId,
          numbers.filter((n): n is number => n !== null),
        );
        const out: { order: number | string; refill: number | { error: string } }[] = [];
        for (const [i, id] of ids.entries()) {
          const n = numbers[i];
          const row = n ? found.get(n) : undefined;
          const orderValue = n ?? id;
          if (!row) {
            out.push({ order: orderValue, refill: { error: 'Incorrect order ID' } });
            continue;
          }
          try {
            const refill = await requestRefill(deps.db, userId, row.id, deps.jobs);
            out.push({ order: orderValue, refill: refill.number });
          } catch (err) {
            if (!(err instanceof AppError)) throw err;
            out.push({ order: orderValue, refill: { error: refillRefusal(err) } });
          }
        }
        if (form.orders === undefined) {
          const only = out[0];
          if (!only) return fail(c, 'Incorrect order ID');
          return typeof only.refill === 'object'
            ? fail(c, only.refill.error)
            : ok(c, { refill: String(only.refill) });
        }
        return ok(c, out);
      }
      case 'refill_status': {
        const ids = idsOf(form.refills ?? form.refill ?? '');
        if (ids === null) return fail(c, `Up to ${SMM_MULTI_MAX} refills at a time`);
        if (ids.length === 0) return fail(c, 'Incorrect refill ID');
        const numbers = ids.map(orderNumber);
        const found = await refillsByNumber(
          deps.db,
          userId,
          numbers.filter((n): n is number => n !== null),
        );
        if (form.refills === undefined) {
          const refill = numbers[0] ? found.get(numbers[0]) : undefined;
          return refill ? ok(c, { status: refillStatusOf(refill) }) : fail(c, 'Refill not found');
        }
        return ok(
          c,
          ids.map((id, i) => {
            const n = numbers[i];
            const refill = n ? found.get(n) : undefined;
            return {
              refill: n ?? id,
              status: refill ? refillStatusOf(refill) : { error: 'Refill not found' },
            };
          }),
        );
      }
      case 'balance': {
        // SMM clients compare `balance` with a charge before ordering: with credit it is what the
        // customer can still spend (balance + credit limit), docs/domain.md §3.
        const { spendable } = await standing(deps.db, userId);
        return ok(c, { balance: formatAmount(spendable), currency: 'USD' });
      }
      default:
        return fail(c, 'Incorrect request');
    }
  } catch (err) {
    c.get('logger').error({ err }, 'SMM API request failed');
    return fail(c, 'Internal error, try again later', 500);
  }
}

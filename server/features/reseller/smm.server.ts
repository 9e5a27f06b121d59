// Our SMM panel API v2 server (`POST /api/v2`), so SMM panels and scripts buy from us with the
// usual `key` + `action` (docs/protocols.md §3, §4.3). Errors are `{ "error": "…" }` with HTTP
// 200, as clients expect; our own failures are 500 with the same shape.
import type { Context } from 'hono';
import { formatAmount, partialRefundCents } from '../../../shared/money';
import type { OrderStatus } from '../../../shared/schemas/orders';
import { findTextProblem } from '../../../shared/text';
import { authenticateKey } from '../../lib/api-keys';
import { AppError } from '../../lib/errors';
import type { AppEnv } from '../../lib/http';
import type { RouteDeps } from '../../lib/route';
import { balances } from '../ledger/ledger.service';
import type { OrderRow } from '../orders/order-dto';
import { cancelOrder, placeOrder } from '../orders/orders.service';
import {
  activeServices,
  categoryLabel,
  orderNumber,
  ordersByNumber,
  readProtocolForm,
  serviceByNumber,
  type ServiceRow,
} from './reseller.service';

/** Ids in one `status` or `cancel` call, at most (the protocol's limit). */
export const SMM_MULTI_MAX = 100;

type SmmType = 'Default' | 'Package';

/** How a service is sold over SMM: Default (per 1000, link + quantity) or Package (link only). */
function smmTypeOf(svc: ServiceRow): { type: SmmType; linkKey: string } | null {
  const required = svc.fields.filter((f) => f.required);
  const link = svc.fields.find((f) => f.type === 'url');
  if (!link || required.some((f) => f.key !== link.key)) return null;
  return { type: svc.unit === '1000' ? 'Default' : 'Package', linkKey: link.key };
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
  const base = { start_count: '0', currency: 'USD' };
  switch (row.status as OrderStatus) {
    case 'pending':
      return {
        charge: formatAmount(row.price),
        ...base,
        status: 'Pending',
        remains: String(quantity),
      };
    case 'processing':
      return {
        charge: formatAmount(row.price),
        ...base,
        status: 'In progress',
        remains: String(quantity),
      };
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

/** A refusal of placeOrder in the words SMM clients recognise. */
function refusal(err: AppError, linkKey: string): string {
  switch (err.code) {
    case 'INSUFFICIENT_FUNDS':
      return 'Not enough funds on balance';
    case 'DUPLICATE_IN_FLIGHT':
      return 'You have active order with this link. Please wait until order being completed.';
    case 'NOT_FOUND':
      return 'Incorrect service ID';
    case 'VALIDATION_FAILED': {
      const fields = err.fields ?? {};
      if (fields[linkKey]) return 'Incorrect link';
      if (fields.quantity) return 'Incorrect quantity';
      return `Incorrect request: ${Object.values(fields)[0] ?? err.message}`;
    }
    default:
      return err.message;
  }
}

/** `orders=1,2,3` (or one `order`): the numbers as given, at most 100. */
function idsOf(form: Record<string, string>): string[] | null {
  const raw = form.orders ?? form.order ?? '';
  const ids = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return ids.length > SMM_MULTI_MAX ? null : ids;
}

/** POST /api/v2. */
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
        const list = [];
        for (const svc of await activeServices(deps.db)) {
          const sold = smmTypeOf(svc);
          if (!sold) continue;
          list.push({
            service: svc.number,
            name: svc.name,
            type: sold.type,
            category: categoryLabel(svc.category),
            rate: formatAmount(svc.price),
            min: String(sold.type === 'Default' ? (svc.minQuantity ?? 1) : 1),
            max: String(sold.type === 'Default' ? (svc.maxQuantity ?? 1) : 1),
            refill: false,
            cancel: true,
            desc: svc.description,
          });
        }
        return ok(c, list);
      }
      case 'add': {
        const svc = await serviceByNumber(deps.db, form.service ?? null);
        const sold = svc ? smmTypeOf(svc) : null;
        if (!svc || !sold) return fail(c, 'Incorrect service ID');
        const link = (form.link ?? '').trim();
        if (!link) return fail(c, 'Incorrect link');
        let quantity: number | undefined;
        if (sold.type === 'Default') {
          const q = (form.quantity ?? '').trim();
          if (!/^\d{1,9}$/.test(q)) return fail(c, 'Incorrect quantity');
          quantity = Number(q);
          const min = svc.minQuantity ?? 1;
          const max = svc.maxQuantity ?? min;
          if (quantity < min) return fail(c, `Quantity less than minimal ${min}`);
          if (quantity > max) return fail(c, `Quantity more than maximum ${max}`);
        }
        try {
          const placed = await placeOrder(
            deps.db,
            userId,
            { serviceId: svc.id, quantity, fields: { [sold.linkKey]: link } },
            null,
            deps.jobs,
            'smm',
          );
          return ok(c, { order: placed.order.number });
        } catch (err) {
          if (err instanceof AppError) return fail(c, refusal(err, sold.linkKey));
          throw err;
        }
      }
      case 'status': {
        const ids = idsOf(form);
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
        const ids = idsOf(form);
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
            await cancelOrder(deps.db, userId, row.id);
            out.push({ order: orderValue, cancel: 1 });
          } catch (err) {
            if (!(err instanceof AppError)) throw err;
            out.push({ order: orderValue, cancel: { error: 'Order cannot be canceled' } });
          }
        }
        return ok(c, out);
      }
      case 'balance': {
        const { available } = await balances(deps.db, userId);
        return ok(c, { balance: formatAmount(available), currency: 'USD' });
      }
      case 'refill':
      case 'refill_status':
        return fail(c, 'Refill is not available');
      default:
        return fail(c, 'Incorrect request');
    }
  } catch (err) {
    c.get('logger').error({ err }, 'SMM API request failed');
    return fail(c, 'Internal error, try again later', 500);
  }
}

import { eq } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import { CATEGORIES } from '../../../shared/categories';
import { formatAmount } from '../../../shared/money';
import {
  BULK_MAX_LINES,
  BulkOrderSchema,
  ORDER_STATUSES,
  ORDER_STATUS_LABELS,
  CompleteOrderSchema,
  PlaceOrderSchema,
  RejectOrderSchema,
  type OrderDto,
  type OrderStatus,
} from '../../../shared/schemas/orders';
import type { Db } from '../../db/client';
import { user } from '../../db/schema/auth';
import type { Env } from '../../env';
import type { Auth } from '../../lib/auth';
import { AppError } from '../../lib/errors';
import { readJson, requireAdmin, requireVerifiedUser, type AppEnv } from '../../lib/http';
import type { Logger } from '../../lib/logger';
import type { Mailer } from '../../lib/mail';
import { BulkCompleteSchema } from '../../../shared/bulk-results';
import { bulkCompleteOrders } from './bulk-complete.service';
import { orderCompletedEmail, orderRejectedEmail } from './orders.emails';
import { orderSummary } from './summary.service';
import {
  cancelOrder,
  completeOrder,
  getOrder,
  listOrders,
  placeBulkOrder,
  placeOrder,
  rejectOrder,
  takeOrder,
  type OrderFilters,
  type OrderRow,
} from './orders.service';

export type OrdersDeps = { db: Db; auth: Auth; env: Env; mailer: Mailer; logger: Logger };

function filtersFrom(c: Context): OrderFilters {
  // One status, or several separated by commas (the admin queue asks for pending,processing).
  const statuses = (c.req.query('status') ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  const category = c.req.query('category') || undefined;
  if (statuses.some((v) => !(ORDER_STATUSES as readonly string[]).includes(v)))
    throw new AppError('BAD_REQUEST', 'El estado del filtro no es válido.');
  if (category && !CATEGORIES.some((cat) => cat.slug === category))
    throw new AppError('BAD_REQUEST', 'La categoría del filtro no es válida.');
  const date = (name: string) => {
    const value = c.req.query(name);
    if (!value) return undefined;
    const d = new Date(value);
    if (Number.isNaN(d.getTime()))
      throw new AppError('BAD_REQUEST', 'La fecha del filtro no es válida.');
    return d;
  };
  return {
    status: statuses.length ? [...new Set(statuses as OrderStatus[])] : undefined,
    category,
    q: c.req.query('q') || undefined,
    from: date('from'),
    to: date('to'),
  };
}

function csvCell(value: string): string {
  const safe = /^[=+\-@]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function ordersCsv(items: OrderDto[]): string {
  const header = [
    'numero',
    'fecha',
    'servicio',
    'categoria',
    'cantidad',
    'datos',
    'importe',
    'estado',
    'resultado',
  ];
  const lines = items.map((o) =>
    [
      String(o.number),
      o.createdAt,
      o.serviceName,
      o.category,
      String(o.quantity),
      Object.entries(o.fields)
        .map(([k, v]) => `${k}=${v}`)
        .join('; '),
      o.price,
      ORDER_STATUS_LABELS[o.status],
      o.result ?? o.rejectReason ?? '',
    ]
      .map(csvCell)
      .join(','),
  );
  return `${[header.join(','), ...lines].join('\r\n')}\r\n`;
}

/** /api/orders: the customer's orders. */
export function ordersRoutes(deps: OrdersDeps) {
  return new Hono<AppEnv>()
    .post('/', async (c) => {
      const u = await requireVerifiedUser(deps.auth, c);
      const input = await readJson(c, PlaceOrderSchema);
      const key = c.req.header('idempotency-key')?.trim() || null;
      if (key && key.length > 200)
        throw new AppError('BAD_REQUEST', 'La cabecera Idempotency-Key es demasiado larga.');
      const result = await placeOrder(deps.db, u.id, input, key);
      if (result.replayed) c.header('Idempotent-Replayed', 'true');
      return c.json(result.order, result.replayed ? 200 : 201);
    })
    .post('/bulk', async (c) => {
      const u = await requireVerifiedUser(deps.auth, c);
      const input = await readJson(c, BulkOrderSchema);
      return c.json(await placeBulkOrder(deps.db, u.id, input, BULK_MAX_LINES));
    })
    .get('/', async (c) => {
      const u = await requireVerifiedUser(deps.auth, c);
      return c.json(
        await listOrders(deps.db, u.id, filtersFrom(c), c.req.query('cursor') || undefined),
      );
    })
    .get('/summary', async (c) => {
      const u = await requireVerifiedUser(deps.auth, c);
      return c.json(await orderSummary(deps.db, u.id));
    })
    .get('/export.csv', async (c) => {
      const u = await requireVerifiedUser(deps.auth, c);
      const filters = filtersFrom(c);
      const items: OrderDto[] = [];
      let cursor: string | undefined;
      // Bounded: at most 50,000 orders in one file.
      for (let i = 0; i < 100; i++) {
        const page = await listOrders(deps.db, u.id, filters, cursor, 500);
        items.push(...page.items);
        if (!page.nextCursor) break;
        cursor = page.nextCursor;
      }
      c.header('Content-Type', 'text/csv; charset=utf-8');
      c.header('Content-Disposition', 'attachment; filename="ordenes.csv"');
      c.header('Cache-Control', 'no-store');
      return c.body(ordersCsv(items));
    })
    .get('/:id', async (c) => {
      const u = await requireVerifiedUser(deps.auth, c);
      return c.json(await getOrder(deps.db, u.id, c.req.param('id')));
    })
    .post('/:id/cancel', async (c) => {
      const u = await requireVerifiedUser(deps.auth, c);
      return c.json(await cancelOrder(deps.db, u.id, c.req.param('id')));
    });
}

async function notify(deps: OrdersDeps, row: OrderRow, kind: 'completed' | 'rejected') {
  const [customer] = await deps.db
    .select({ email: user.email, name: user.name })
    .from(user)
    .where(eq(user.id, row.userId));
  if (!customer) return;
  const base = {
    appName: deps.env.APP_NAME,
    appUrl: deps.env.APP_URL,
    to: customer.email,
    name: customer.name,
    number: row.number,
    serviceName: row.serviceName,
  };
  const message =
    kind === 'completed'
      ? orderCompletedEmail({ ...base, result: row.result ?? '' })
      : orderRejectedEmail({
          ...base,
          reason: row.rejectReason ?? '',
          price: formatAmount(row.price),
        });
  await deps.mailer.send(message);
}

function notifyInBackground(deps: OrdersDeps, row: OrderRow, kind: 'completed' | 'rejected') {
  notify(deps, row, kind).catch((err: unknown) =>
    deps.logger.error({ err, orderId: row.id }, `order ${kind} e-mail failed`),
  );
}

/** /api/admin/orders: the fulfilment queue. */
export function ordersAdminRoutes(deps: OrdersDeps) {
  return new Hono<AppEnv>()
    .get('/', async (c) => {
      await requireAdmin(deps.auth, c);
      return c.json(
        await listOrders(deps.db, null, filtersFrom(c), c.req.query('cursor') || undefined, 50),
      );
    })
    .post('/bulk-complete', async (c) => {
      const admin = await requireAdmin(deps.auth, c);
      const { text } = await readJson(c, BulkCompleteSchema);
      return c.json(
        await bulkCompleteOrders(deps.db, admin.id, text, (row) =>
          notifyInBackground(deps, row, 'completed'),
        ),
      );
    })
    .get('/:id', async (c) => {
      await requireAdmin(deps.auth, c);
      return c.json(await getOrder(deps.db, null, c.req.param('id')));
    })
    .post('/:id/take', async (c) => {
      const admin = await requireAdmin(deps.auth, c);
      return c.json(await takeOrder(deps.db, admin.id, c.req.param('id')));
    })
    .post('/:id/complete', async (c) => {
      const admin = await requireAdmin(deps.auth, c);
      const { result } = await readJson(c, CompleteOrderSchema);
      const row = await completeOrder(deps.db, admin.id, c.req.param('id'), result);
      notifyInBackground(deps, row, 'completed');
      return c.json(await getOrder(deps.db, null, row.id));
    })
    .post('/:id/reject', async (c) => {
      const admin = await requireAdmin(deps.auth, c);
      const { reason } = await readJson(c, RejectOrderSchema);
      const row = await rejectOrder(deps.db, admin.id, c.req.param('id'), reason);
      notifyInBackground(deps, row, 'rejected');
      return c.json(await getOrder(deps.db, null, row.id));
    });
}

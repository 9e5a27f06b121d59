import { inArray, sql } from 'drizzle-orm';
import { formatAmount } from '../../../shared/money';
import type {
  AdminOverview,
  BulkOrderActionRequest,
  BulkActionResult,
} from '../../../shared/schemas/admin-desk';
import { queryRows, type Db } from '../../db/client';
import { order } from '../../db/schema/catalogue';
import { payment } from '../../db/schema/payments';
import { orderDispatch, supplier } from '../../db/schema/suppliers';
import { ticket } from '../../db/schema/tickets';
import { AppError } from '../../lib/errors';
import type { OrderRow } from './order-dto';
import { completeOrder, rejectOrder, takeOrder } from './orders.service';

/** The start of today's UTC day (the day the dashboard's spend uses). */
export function startOfUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/**
 * What needs an admin now, each counted by the database in one statement: orders waiting to be
 * taken (those in «Revisar» counted there only), forwardings in «Revisar», manual top-ups to approve, failing suppliers; and today's
 * sales: the charges of today's orders that were not refunded in full (a partial order counts
 * its delivered share, as its capture does); and support tickets waiting for the shop (open).
 */
export async function adminOverview(db: Db, now = new Date()): Promise<AdminOverview> {
  const since = startOfUtcDay(now);
  const [row] = await queryRows<{
    pending_orders: number;
    review_orders: number;
    pending_payments: number;
    failing_suppliers: number;
    today_orders: number;
    today_sales: string;
    open_tickets: number;
  }>(
    db,
    sql`SELECT
      (SELECT count(*)::int FROM ${order} o WHERE o.status = 'pending' AND NOT EXISTS
         (SELECT 1 FROM ${orderDispatch} d WHERE d.order_id = o.id AND d.state = 'review')) AS pending_orders,
      (SELECT count(*)::int FROM ${orderDispatch} d JOIN ${order} o ON o.id = d.order_id
         WHERE d.state = 'review' AND o.status IN ('pending', 'processing')) AS review_orders,
      (SELECT count(*)::int FROM ${payment} WHERE method = 'manual' AND status = 'pending') AS pending_payments,
      (SELECT count(*)::int FROM ${supplier} WHERE state = 'failing') AS failing_suppliers,
      (SELECT count(*)::int FROM ${order}
         WHERE created_at >= ${since} AND status NOT IN ('rejected', 'cancelled')) AS today_orders,
      (SELECT COALESCE(SUM(CASE
           WHEN status = 'partial' THEN price - (price * LEAST(GREATEST(COALESCE(remains, 0), 0), quantity)) / quantity
           ELSE price END), 0)::text
         FROM ${order}
         WHERE created_at >= ${since} AND status NOT IN ('rejected', 'cancelled')) AS today_sales,
      (SELECT count(*)::int FROM ${ticket} WHERE state = 'open') AS open_tickets`,
  );
  return {
    pendingOrders: Number(row?.pending_orders ?? 0),
    reviewOrders: Number(row?.review_orders ?? 0),
    pendingPayments: Number(row?.pending_payments ?? 0),
    failingSuppliers: Number(row?.failing_suppliers ?? 0),
    todayOrders: Number(row?.today_orders ?? 0),
    todaySales: formatAmount(BigInt(row?.today_sales ?? '0')),
    since: since.toISOString(),
    openTickets: Number(row?.open_tickets ?? 0),
  };
}

export type BulkHandlers = {
  /** «Enviar de nuevo» (the supplier service's resend, with its own transaction and audit). */
  resend: (orderId: string) => Promise<void>;
  /** Called after an order was completed or rejected (its customer's e-mail). */
  notify: (row: OrderRow, status: 'completed' | 'rejected') => void;
};

/**
 * One action on many orders, each handled by the same service function as its single-order
 * route, in its own transaction: one that cannot be changed (already finished, not found, in
 * «Revisar»…) is reported with why and changes nothing, the others go ahead. Money moves only
 * inside those functions (a rejection refunds through the ledger once).
 */
export async function bulkOrderAction(
  db: Db,
  adminId: string,
  request: BulkOrderActionRequest,
  handlers: BulkHandlers,
): Promise<BulkActionResult> {
  const ids = [...new Set(request.ids)];
  const numbers = new Map(
    (
      await db
        .select({ id: order.id, number: order.number })
        .from(order)
        .where(inArray(order.id, ids))
    ).map((r) => [r.id, Number(r.number)]),
  );
  const results: BulkActionResult['results'] = [];
  for (const id of ids) {
    const number = numbers.get(id) ?? null;
    try {
      if (number === null) throw new AppError('NOT_FOUND', 'La orden no existe.');
      if (request.action === 'take') await takeOrder(db, adminId, id);
      else if (request.action === 'resend') await handlers.resend(id);
      else if (request.action === 'complete')
        handlers.notify(await completeOrder(db, adminId, id, request.result ?? ''), 'completed');
      else handlers.notify(await rejectOrder(db, adminId, id, request.reason ?? ''), 'rejected');
      results.push({ id, ok: true, number, message: null });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      results.push({ id, ok: false, number, message: err.message });
    }
  }
  const done = results.filter((r) => r.ok).length;
  return { done, failed: results.length - done, results };
}

// Orders as admins see them: the customer's view plus the forwarding (supplier, its reference,
// the state), and the log of what was said to the supplier about each one.
import { desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import {
  DISPATCH_STATE_LABELS,
  type AdminOrderDto,
  type AdminOrdersPage,
  type DispatchDto,
  type DispatchState,
  type SupplierLog,
} from '../../../shared/schemas/suppliers';
import { formatAmount, partialRefundCents } from '../../../shared/money';
import { staffCan } from '../../../shared/roles';
import type { Db } from '../../db/client';
import { user } from '../../db/schema/auth';
import { order } from '../../db/schema/catalogue';
import { orderDispatch, supplier, supplierLog } from '../../db/schema/suppliers';
import { filesOfOrders } from '../orders/order-files.service';
import { getOrder, listOrders, type OrderFilters } from '../orders/orders.service';

/** The forwarding of these orders (absent: fulfilled by hand). */
export async function dispatchesOf(db: Db, orderIds: string[]): Promise<Map<string, DispatchDto>> {
  const found = new Map<string, DispatchDto>();
  if (orderIds.length === 0) return found;
  const rows = await db
    .select({ d: orderDispatch, supplierName: supplier.name })
    .from(orderDispatch)
    .leftJoin(supplier, eq(supplier.id, orderDispatch.supplierId))
    .where(inArray(orderDispatch.orderId, orderIds));
  for (const { d, supplierName } of rows) {
    const state = d.state as DispatchState;
    found.set(d.orderId, {
      supplierId: d.supplierId,
      supplierName,
      reference: d.reference,
      state,
      stateLabel: DISPATCH_STATE_LABELS[state],
      attempts: d.attempts,
      lastError: d.lastError,
      reviewReason: d.reviewReason,
      nextAttemptAt: d.nextAttemptAt.toISOString(),
      updatedAt: d.updatedAt.toISOString(),
    });
  }
  return found;
}

/** Whose orders these are: e-mail and name by order id. */
async function customersOf(
  db: Db,
  orderIds: string[],
): Promise<Map<string, { customerEmail: string; customerName: string }>> {
  if (orderIds.length === 0) return new Map();
  const rows = await db
    .select({ id: order.id, email: user.email, name: user.name })
    .from(order)
    .innerJoin(user, eq(user.id, order.userId))
    .where(inArray(order.id, orderIds));
  return new Map(rows.map((r) => [r.id, { customerEmail: r.email, customerName: r.name }]));
}

const NO_CUSTOMER = { customerEmail: '', customerName: '' };

/**
 * Cost and margin of these orders (docs/domain.md, Cost, margin and reports): the net cost, and
 * what the order charged net of refunds minus it (null when the cost is unknown). Only for staff
 * who may see costs (`staffCan(role, 'reports')`: admin and finance); never for support.
 */
async function costsOf(
  db: Db,
  orderIds: string[],
): Promise<Map<string, { cost: string | null; margin: string | null }>> {
  if (orderIds.length === 0) return new Map();
  const rows = await db
    .select({
      id: order.id,
      cost: order.cost,
      price: order.price,
      status: order.status,
      remains: order.remains,
      quantity: order.quantity,
    })
    .from(order)
    .where(inArray(order.id, orderIds));
  return new Map(
    rows.map((r) => {
      const charged =
        r.status === 'rejected' || r.status === 'cancelled'
          ? 0n
          : r.status === 'partial'
            ? r.price - partialRefundCents(r.price, r.remains ?? 0, r.quantity)
            : r.price;
      return [
        r.id,
        {
          cost: r.cost === null ? null : formatAmount(r.cost),
          margin: r.cost === null ? null : formatAmount(charged - r.cost),
        },
      ];
    }),
  );
}

/** GET /api/admin/orders: a keyset page of every customer's orders, with their forwarding. */
export async function adminListOrders(
  db: Db,
  filters: OrderFilters,
  cursor: string | undefined,
  limit = 50,
  role: string | null = null,
): Promise<AdminOrdersPage> {
  const page = await listOrders(db, null, filters, cursor, limit);
  const ids = page.items.map((o) => o.id);
  const dispatches = await dispatchesOf(db, ids);
  // The queue offers each order's files for download.
  const files = await filesOfOrders(db, ids);
  const customers = await customersOf(db, ids);
  const costs = staffCan(role, 'reports') ? await costsOf(db, ids) : null;
  return {
    items: page.items.map((o) => {
      const own = files.get(o.id);
      return {
        ...o,
        ...(own ? { files: own } : {}),
        dispatch: dispatches.get(o.id) ?? null,
        ...(customers.get(o.id) ?? NO_CUSTOMER),
        ...(costs ? (costs.get(o.id) ?? { cost: null, margin: null }) : {}),
      };
    }),
    nextCursor: page.nextCursor,
  };
}

/** GET /api/admin/orders/:id: one order with its events and forwarding. */
export async function adminGetOrder(
  db: Db,
  orderId: string,
  role: string | null = null,
): Promise<AdminOrderDto> {
  const dto = await getOrder(db, null, orderId);
  const dispatches = await dispatchesOf(db, [dto.id]);
  const customers = await customersOf(db, [dto.id]);
  const costs = staffCan(role, 'reports') ? await costsOf(db, [dto.id]) : null;
  return {
    ...dto,
    dispatch: dispatches.get(dto.id) ?? null,
    ...(customers.get(dto.id) ?? NO_CUSTOMER),
    ...(costs ? (costs.get(dto.id) ?? { cost: null, margin: null }) : {}),
  };
}

export const LOG_LIMIT = 100;

/** Supplier log entries matching `where`, newest first (keys were redacted when written). */
async function logEntries(db: Db, where: SQL, limit: number): Promise<SupplierLog> {
  const rows = await db
    .select({ l: supplierLog, supplierName: supplier.name })
    .from(supplierLog)
    .innerJoin(supplier, eq(supplier.id, supplierLog.supplierId))
    .where(where)
    .orderBy(desc(supplierLog.id))
    .limit(limit);
  return {
    items: rows.map(({ l, supplierName }) => ({
      id: l.id.toString(),
      supplierId: l.supplierId,
      supplierName,
      action: l.action,
      request: l.request,
      httpStatus: l.httpStatus,
      response: l.response,
      error: l.error,
      outcome: l.outcome,
      ms: l.ms,
      at: l.createdAt.toISOString(),
    })),
  };
}

/** GET /api/admin/orders/:id/supplier-log: what was said to suppliers about one order. */
export async function orderSupplierLog(db: Db, orderId: string): Promise<SupplierLog> {
  await getOrder(db, null, orderId);
  return logEntries(db, sql`${supplierLog.orderIds} @> ARRAY[${orderId}]::uuid[]`, LOG_LIMIT);
}

/** GET /api/admin/suppliers/:id/log: the latest calls to one supplier. */
export async function supplierCalls(db: Db, supplierId: string): Promise<SupplierLog> {
  return logEntries(db, eq(supplierLog.supplierId, supplierId), LOG_LIMIT);
}

/** Days the supplier log is kept. */
export const LOG_RETENTION_DAYS = 90;

/** Deletes supplier log entries older than the retention (run hourly). */
export async function pruneSupplierLog(db: Db, days = LOG_RETENTION_DAYS): Promise<number> {
  const rows = await db
    .delete(supplierLog)
    .where(sql`${supplierLog.createdAt} < now() - make_interval(days => ${days})`)
    .returning({ id: supplierLog.id });
  return rows.length;
}

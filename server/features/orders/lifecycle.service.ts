// What happens to an order after it is placed, beyond its status: refills of a completed order
// (within the service's window, one at a time, sent to the supplier that fulfilled it when it
// offers refills, otherwise handled by an admin) and a customer's cancel of an order already at
// a supplier (forwarded; the money moves only when the supplier reports it cancelled, through the
// same conditional transition as every other outcome). docs/domain.md §5.
import { recordAudit } from '../audit/audit.service';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  REFILL_STATE_LABELS,
  type OrderDto,
  type OrderEventDto,
  type OrderStatus,
  type RefillDto,
  type RefillState,
} from '../../../shared/schemas/orders';
import type { Db, Tx } from '../../db/client';
import { order, orderEvent, orderRefill, service } from '../../db/schema/catalogue';
import { orderDispatch, supplier, supplierService } from '../../db/schema/suppliers';
import type { JobQueue } from '../../jobs/queue';
import { AppError } from '../../lib/errors';
import { toOrderDto, type OrderRow } from './order-dto';
import { orderFiles } from './order-files.service';
import { cancelOrder, recordOrderEvent, type Actor } from './orders.service';

export type RefillRow = typeof orderRefill.$inferSelect;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY_MS = 24 * 3600 * 1000;
const OPEN_REFILL = ['pending', 'sent'];

function refillState(state: string): RefillState {
  if (state === 'sent') return 'in_progress';
  if (state === 'completed' || state === 'rejected') return state;
  return 'pending';
}

export function toRefillDto(r: RefillRow, orderNumber: number): RefillDto {
  const status = refillState(r.state);
  return {
    id: r.id,
    number: r.number,
    orderId: r.orderId,
    orderNumber,
    status,
    statusLabel: REFILL_STATE_LABELS[status],
    note: r.note,
    createdAt: r.createdAt.toISOString(),
    finishedAt: r.finishedAt?.toISOString() ?? null,
  };
}

function formatDay(at: Date): string {
  return at.toISOString().slice(0, 10).split('-').reverse().join('/');
}

/** When the order was completed (its completion event), or null. */
async function completedAt(db: Db | Tx, orderId: string): Promise<Date | null> {
  const [row] = await db
    .select({ at: orderEvent.createdAt })
    .from(orderEvent)
    .where(
      and(
        eq(orderEvent.orderId, orderId),
        eq(orderEvent.status, 'completed'),
        eq(orderEvent.kind, 'status'),
      ),
    )
    .orderBy(desc(orderEvent.createdAt))
    .limit(1);
  return row?.at ?? null;
}

/** Why a refill cannot be asked for: the service has none, the order is not completed, too late, one open. */
export type RefillRefusal = 'no-refill' | 'not-completed' | 'expired' | 'open';

/** A refused refill: a 409 with the Spanish reason, and why, for the protocols' own words. */
export class RefillRefused extends AppError {
  constructor(
    readonly why: RefillRefusal,
    message: string,
  ) {
    super('CONFLICT', message);
  }
}

type Availability = {
  available: boolean;
  until: Date | null;
  reason: string | null;
  why: RefillRefusal | null;
};

/** Whether this order can get a refill now: its service has refills, it is completed, in time, none open. */
async function refillAvailability(db: Db | Tx, row: OrderRow): Promise<Availability> {
  const [svc] = await db
    .select({ refillDays: service.refillDays })
    .from(service)
    .where(eq(service.id, row.serviceId));
  if (!svc || svc.refillDays === null)
    return {
      available: false,
      until: null,
      reason: 'Este servicio no tiene reposición.',
      why: 'no-refill',
    };
  if (row.status !== 'completed')
    return {
      available: false,
      until: null,
      reason: 'Solo se pueden reponer las órdenes completadas.',
      why: 'not-completed',
    };
  const done = (await completedAt(db, row.id)) ?? row.updatedAt;
  const until = new Date(done.getTime() + svc.refillDays * DAY_MS);
  if (Date.now() > until.getTime())
    return {
      available: false,
      until,
      reason: `El plazo de reposición terminó el ${formatDay(until)}.`,
      why: 'expired',
    };
  const [open] = await db
    .select({ id: orderRefill.id })
    .from(orderRefill)
    .where(and(eq(orderRefill.orderId, row.id), inArray(orderRefill.state, OPEN_REFILL)));
  if (open)
    return {
      available: false,
      until,
      reason: 'Ya hay una reposición en curso para esta orden.',
      why: 'open',
    };
  return { available: true, until, reason: null, why: null };
}

/** The supplier that fulfilled the order, when it offers refills for that service. */
async function refillSupplier(tx: Tx, orderId: string): Promise<string | null> {
  const [d] = await tx
    .select({ supplierId: orderDispatch.supplierId, refill: supplierService.refill })
    .from(orderDispatch)
    .innerJoin(supplier, eq(supplier.id, orderDispatch.supplierId))
    .innerJoin(
      supplierService,
      and(
        eq(supplierService.supplierId, orderDispatch.supplierId),
        eq(supplierService.remoteId, orderDispatch.remoteId),
      ),
    )
    .where(and(eq(orderDispatch.orderId, orderId), sql`${orderDispatch.reference} IS NOT NULL`));
  return d?.refill ? d.supplierId : null;
}

async function lockOwnOrder(tx: Tx, orderId: string, userId: string | null): Promise<OrderRow> {
  if (!UUID.test(orderId)) throw new AppError('NOT_FOUND', 'La orden no existe.');
  const [row] = await tx
    .select()
    .from(order)
    .where(and(eq(order.id, orderId), userId ? eq(order.userId, userId) : undefined))
    .for('no key update');
  if (!row) throw new AppError('NOT_FOUND', 'La orden no existe.');
  return row;
}

/**
 * POST /api/orders/:id/refill (and SMM `refill`): a refill of a completed order, within its
 * service's window, one at a time. Sent to the supplier that fulfilled the order when it offers
 * refills (a `supplier-refill` job, in this transaction), otherwise it waits for an admin.
 */
export async function requestRefill(
  db: Db,
  userId: string,
  orderId: string,
  jobs: JobQueue | null,
): Promise<RefillDto> {
  const refill = await db.transaction(async (tx) => {
    const row = await lockOwnOrder(tx, orderId, userId);
    const availability = await refillAvailability(tx, row);
    if (!availability.available)
      throw new RefillRefused(
        availability.why ?? 'no-refill',
        availability.reason ?? 'Esta orden no se puede reponer.',
      );
    const supplierId = await refillSupplier(tx, row.id);
    const [created] = await tx
      .insert(orderRefill)
      .values({ orderId: row.id, userId, supplierId })
      .onConflictDoNothing()
      .returning();
    if (!created) throw new AppError('CONFLICT', 'Ya hay una reposición en curso para esta orden.');
    await recordOrderEvent(
      tx,
      row,
      'refill',
      { id: userId, role: 'customer' },
      `Reposición n.º ${created.number} solicitada.`,
    );
    if (supplierId && jobs) await jobs.send('supplier-refill', { refillId: created.id }, { tx });
    return { created, orderNumber: row.number, routed: supplierId !== null };
  });
  if (refill.routed) jobs?.wake('supplier-refill');
  return toRefillDto(refill.created, refill.orderNumber);
}

/** A refill the supplier accepted: `pending → sent` with its reference there; null if not pending. */
export async function markRefillSentTx(
  tx: Tx,
  refillId: string,
  supplierRef: string,
): Promise<RefillRow | null> {
  const [row] = await tx
    .update(orderRefill)
    .set({ state: 'sent', supplierRef, updatedAt: new Date() })
    .where(and(eq(orderRefill.id, refillId), eq(orderRefill.state, 'pending')))
    .returning();
  return row ?? null;
}

/**
 * Finishes an open refill (`pending` or `sent` → completed or rejected) with an event on its
 * order's timeline; null when it was already finished (a repeated answer changes nothing).
 */
export async function finishRefillTx(
  tx: Tx,
  refillId: string,
  outcome: 'completed' | 'rejected',
  note: string | null,
  actor: Actor,
): Promise<RefillRow | null> {
  const now = new Date();
  const [row] = await tx
    .update(orderRefill)
    .set({ state: outcome, note, finishedAt: now, updatedAt: now })
    .where(and(eq(orderRefill.id, refillId), inArray(orderRefill.state, OPEN_REFILL)))
    .returning();
  if (!row) return null;
  const [o] = await tx.select().from(order).where(eq(order.id, row.orderId));
  if (o) {
    const text =
      outcome === 'completed'
        ? `Reposición n.º ${row.number} completada.${note ? ` ${note}` : ''}`
        : `Reposición n.º ${row.number} rechazada${note ? `: ${note}` : '.'}`;
    await recordOrderEvent(tx, o, 'refill', actor, text);
  }
  return row;
}

/** A customer's refills by their numbers (SMM `refill_status`); others' are simply not found. */
export async function refillsByNumber(
  db: Db,
  userId: string,
  numbers: number[],
): Promise<Map<number, RefillDto>> {
  if (numbers.length === 0) return new Map();
  const rows = await db
    .select({ refill: orderRefill, orderNumber: order.number })
    .from(orderRefill)
    .innerJoin(order, eq(order.id, orderRefill.orderId))
    .where(and(eq(orderRefill.userId, userId), inArray(orderRefill.number, numbers)));
  return new Map(rows.map((r) => [r.refill.number, toRefillDto(r.refill, r.orderNumber)]));
}

/**
 * The customer's cancel: a pending order not yet sent is cancelled and refunded at once; an
 * order in progress at a supplier whose service allows cancelling is asked to be cancelled there
 * (a `supplier-cancel` job): it stays in progress until the supplier reports it cancelled, and is
 * refunded then, exactly once.
 */
export async function requestCancel(
  db: Db,
  userId: string,
  orderId: string,
  jobs: JobQueue | null,
): Promise<OrderDto> {
  const [current] = UUID.test(orderId)
    ? await db
        .select()
        .from(order)
        .where(and(eq(order.id, orderId), eq(order.userId, userId)))
    : [];
  if (!current) throw new AppError('NOT_FOUND', 'La orden no existe.');
  if (current.status === 'pending' && current.supplierRef === null) {
    return cancelOrder(db, userId, orderId);
  }
  const row = await db.transaction(async (tx) => {
    const locked = await lockOwnOrder(tx, orderId, userId);
    const why = await cancelRefusal(tx, locked);
    if (why) throw new AppError('CONFLICT', why);
    const [d] = await tx
      .update(orderDispatch)
      .set({ cancelState: 'requested', updatedAt: new Date() })
      .where(
        and(
          eq(orderDispatch.orderId, locked.id),
          eq(orderDispatch.state, 'sent'),
          sql`(${orderDispatch.cancelState} IS NULL OR ${orderDispatch.cancelState} = 'refused')`,
        ),
      )
      .returning({ orderId: orderDispatch.orderId });
    if (!d) throw new AppError('CONFLICT', 'Esta orden ya no se puede cancelar.');
    const [updated] = await tx
      .update(order)
      .set({ cancelRequestedAt: new Date(), updatedAt: new Date() })
      .where(eq(order.id, locked.id))
      .returning();
    if (!updated) throw new Error('order vanished');
    await recordOrderEvent(
      tx,
      updated,
      'cancel',
      { id: userId, role: 'customer' },
      'Cancelación solicitada: se pidió al proveedor. El importe se devuelve cuando la confirme.',
    );
    if (jobs) await jobs.send('supplier-cancel', { orderId: locked.id }, { tx });
    return updated;
  });
  jobs?.wake('supplier-cancel');
  return toOrderDto(row);
}

/** Why a cancel cannot be asked for this order now, or null when it can. */
async function cancelRefusal(db: Db | Tx, row: OrderRow): Promise<string | null> {
  if (row.status !== 'pending' && row.status !== 'processing')
    return 'Esta orden ya terminó: no se puede cancelar.';
  if (row.cancelRequestedAt !== null) return 'Ya pediste cancelar esta orden.';
  const [svc] = await db
    .select({ cancelable: service.cancelable })
    .from(service)
    .where(eq(service.id, row.serviceId));
  if (!svc?.cancelable)
    return 'Esta orden ya no se puede cancelar: ya está en proceso y el servicio no admite cancelaciones.';
  const [d] = await db
    .select({ state: orderDispatch.state, cancel: supplierService.cancel })
    .from(orderDispatch)
    .leftJoin(
      supplierService,
      and(
        eq(supplierService.supplierId, orderDispatch.supplierId),
        eq(supplierService.remoteId, orderDispatch.remoteId),
      ),
    )
    .where(eq(orderDispatch.orderId, row.id));
  if (!d || d.state !== 'sent')
    return 'Esta orden ya no se puede cancelar: se está procesando a mano o todavía se está enviando.';
  if (!d.cancel) return 'El proveedor de esta orden no admite cancelaciones.';
  return null;
}

/**
 * The supplier's answer to a cancel request: `sent` (it took it: the order is refunded when it
 * reports the order cancelled) or `refused` (the order goes on; the customer may ask again).
 */
export async function resolveCancelTx(
  tx: Tx,
  orderId: string,
  outcome: 'sent' | 'refused',
  note: string | null,
): Promise<boolean> {
  const [d] = await tx
    .update(orderDispatch)
    .set({ cancelState: outcome, updatedAt: new Date() })
    .where(and(eq(orderDispatch.orderId, orderId), eq(orderDispatch.cancelState, 'requested')))
    .returning({ orderId: orderDispatch.orderId });
  if (!d) return false;
  if (outcome === 'refused') {
    const [o] = await tx
      .update(order)
      .set({ cancelRequestedAt: null, updatedAt: new Date() })
      .where(eq(order.id, orderId))
      .returning();
    if (o)
      await recordOrderEvent(
        tx,
        o,
        'cancel',
        { id: null, role: 'system' },
        `El proveedor no aceptó la cancelación${note ? `: ${note}` : '.'}`,
      );
  }
  return true;
}

/** GET /api/orders/:id: the order with its timeline, refills and what can be asked for now. */
export async function getOrderDetail(
  db: Db,
  userId: string | null,
  orderId: string,
): Promise<OrderDto> {
  if (!UUID.test(orderId)) throw new AppError('NOT_FOUND', 'La orden no existe.');
  const [row] = await db
    .select()
    .from(order)
    .where(and(eq(order.id, orderId), userId ? eq(order.userId, userId) : undefined));
  if (!row) throw new AppError('NOT_FOUND', 'La orden no existe.');
  const [events, refills, availability, files, cancelWhy] = await Promise.all([
    db.select().from(orderEvent).where(eq(orderEvent.orderId, row.id)).orderBy(asc(orderEvent.id)),
    db
      .select()
      .from(orderRefill)
      .where(eq(orderRefill.orderId, row.id))
      .orderBy(asc(orderRefill.createdAt)),
    refillAvailability(db, row),
    orderFiles(db, row.id),
    row.status === 'pending' && row.supplierRef === null
      ? Promise.resolve('cancellable')
      : cancelRefusal(db, row),
  ]);
  return {
    ...toOrderDto(
      row,
      events.map((e) => ({
        kind: e.kind as OrderEventDto['kind'],
        status: e.status as OrderStatus,
        note: e.note,
        actor: e.actorRole as OrderEventDto['actor'],
        at: e.createdAt.toISOString(),
      })),
    ),
    refills: refills.map((r) => toRefillDto(r, row.number)),
    refill: {
      available: availability.available,
      until: availability.until?.toISOString() ?? null,
      reason: availability.reason,
    },
    cancelRequestable: cancelWhy === null,
    ...(files.length ? { files } : {}),
  };
}

// ─── Refills handled by an admin ─────────────────────────────────────────────────────────────

export type AdminRefill = RefillDto & {
  customerEmail: string;
  serviceName: string;
  identifier: string | null;
  /** Sent to a supplier (followed automatically) rather than waiting for an admin. */
  routed: boolean;
};

/** GET /api/admin/refills: refills in a state, oldest first; by default those waiting for an admin. */
export async function listAdminRefills(
  db: Db,
  state: 'pending' | 'in_progress' | 'completed' | 'rejected' | undefined,
  limit = 100,
): Promise<AdminRefill[]> {
  const dbState = state === 'in_progress' ? 'sent' : (state ?? 'pending');
  const rows = await db
    .select({
      refill: orderRefill,
      orderNumber: order.number,
      serviceName: order.serviceName,
      identifier: order.identifier,
      email: sql<string>`(SELECT email FROM "user" u WHERE u.id = ${orderRefill.userId})`,
    })
    .from(orderRefill)
    .innerJoin(order, eq(order.id, orderRefill.orderId))
    .where(eq(orderRefill.state, dbState))
    .orderBy(asc(orderRefill.createdAt))
    .limit(limit);
  return rows.map((r) => ({
    ...toRefillDto(r.refill, r.orderNumber),
    customerEmail: r.email,
    serviceName: r.serviceName,
    identifier: r.identifier,
    routed: r.refill.supplierId !== null,
  }));
}

/** POST /api/admin/refills/:id/complete|reject: an admin finishes a refill waiting for them. */
export async function finishRefillByAdmin(
  db: Db,
  adminId: string,
  refillId: string,
  outcome: 'completed' | 'rejected',
  note: string | null,
): Promise<RefillDto> {
  if (!UUID.test(refillId)) throw new AppError('NOT_FOUND', 'La reposición no existe.');
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(orderRefill).where(eq(orderRefill.id, refillId));
    if (!current) throw new AppError('NOT_FOUND', 'La reposición no existe.');
    const done = await finishRefillTx(tx, refillId, outcome, note, { id: adminId, role: 'admin' });
    if (!done) throw new AppError('CONFLICT', 'Esta reposición ya terminó.');
    await recordAudit(tx, {
      actorId: adminId,
      action: outcome === 'completed' ? 'refill.complete' : 'refill.reject',
      targetType: 'refill',
      targetId: refillId,
      before: { state: current.state },
      after: { state: done.state, note },
    });
    const [o] = await tx
      .select({ number: order.number })
      .from(order)
      .where(eq(order.id, done.orderId));
    return toRefillDto(done, o?.number ?? 0);
  });
}

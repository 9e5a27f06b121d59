import { recordAudit } from '../audit/audit.service';
import { openAccountFlag } from '../payments/payments.service';
import { ACCOUNT_BLOCKED_MESSAGE } from '../../../shared/schemas/payments';
import { createHash } from 'node:crypto';
import { and, asc, eq, getTableColumns, inArray, isNull, sql } from 'drizzle-orm';
import { validateOrderFields } from '../../../shared/fields';
import { searchTerms } from '../../../shared/search-terms';
import { DRIPFEED_LIMITS, smmQuantity, smmTypeOf } from '../../../shared/smm-types';
import { chargeCents, formatAmount, formatUsd, partialRefundCents } from '../../../shared/money';
import {
  type OrderDto,
  type OrderEventDto,
  type OrderStatus,
} from '../../../shared/schemas/orders';
import { queryRows, type Db, type Tx } from '../../db/client';
import type { Env } from '../../env';
import type { Logger } from '../../lib/logger';
import type { Mailer } from '../../lib/mail';
import { order, orderEvent, service } from '../../db/schema/catalogue';
import { orderDispatch } from '../../db/schema/suppliers';
import type { JobQueue } from '../../jobs/queue';
import { AppError } from '../../lib/errors';
import {
  CREDIT_EXHAUSTED,
  customerAccounts,
  ledgerError,
  standing,
  systemAccount,
  transfer,
} from '../ledger/ledger.service';
import { customerPrice, loadCustomerPricing } from '../price-groups/pricing.service';
import { enqueueDispatch } from '../suppliers/enqueue';
import { queueOrderUpdate } from '../webhooks/enqueue';
import { checkLowStock, claimItem, markSoldItemBad } from '../stock/stock-claim';
import type { StockKeys } from '../stock/stock-crypto';
import { notifyLowStock } from '../stock/stock.emails';
import { toOrderDto, type OrderRow, type OrderView } from './order-dto';
import { notifyCustomers } from './orders.notify';
import { queueNotification } from '../notifications/events';
import { attachOrderFiles, orderFiles } from './order-files.service';

/** A service being ordered, with whether it is bought from suppliers (it has routes). */
type ServiceRow = typeof service.$inferSelect & { routed: boolean };
export type Actor = { id: string | null; role: 'customer' | 'admin' | 'system' };

/** Where an order was placed: the web app, the REST API with a key, a DHRU or SMM client. */
export type OrderSource = 'web' | 'api' | 'dhru' | 'smm';

/** The actor of changes the server makes by itself (supplier answers, price sync). */
export const SYSTEM: Actor = { id: null, role: 'system' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const IN_FLIGHT: OrderStatus[] = ['pending', 'processing'];

/**
 * The keyset cursor carries created_at to the microsecond, as PostgreSQL stores it: a JS Date
 * keeps milliseconds only, and a cursor rounded to the millisecond skips the rows that share it.
 */
const EXACT_CREATED_AT = sql<string>`to_char(${order.createdAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** The instant exists (no month 13, no 31 February) and is within years 2000–9999. */
function isRealInstant(at: string): boolean {
  const millis = Date.parse(at);
  if (!Number.isFinite(millis)) return false;
  // Date.parse rolls 2026-02-31 over to March: compare the date part back.
  const back = new Date(millis).toISOString();
  const year = Number(at.slice(0, 4));
  return back.slice(0, 19) === at.slice(0, 19) && year >= 2000 && year <= 9999;
}

/** The active service, priced for this customer (price group, special price: shared/pricing.ts). */
async function activeService(db: Db | Tx, serviceId: string, userId: string): Promise<ServiceRow> {
  if (!UUID.test(serviceId))
    throw new AppError('NOT_FOUND', 'El servicio no existe o no está disponible.');
  const [row] = await db
    .select({
      ...getTableColumns(service),
      // Written out: Drizzle leaves columns unqualified in a one-table select.
      // A 'manual' service is never forwarded, even when it has routes (decision 0023).
      routed: sql<boolean>`"service"."delivery" <> 'manual' AND EXISTS (SELECT 1 FROM service_route r WHERE r.service_id = "service"."id")`,
    })
    .from(service)
    .where(and(eq(service.id, serviceId), eq(service.active, true)));
  if (!row) throw new AppError('NOT_FOUND', 'El servicio no existe o no está disponible.');
  const pricing = await loadCustomerPricing(db, userId, {
    serviceId: row.id,
    category: row.category,
  });
  return { ...row, price: customerPrice(pricing, row) };
}

type PreparedOrder = {
  values: Record<string, string>;
  identifier: string | null;
  /** Units in all (per run × runs when drip-fed). */
  quantity: number;
  dripfeed: { runs: number; interval: number } | null;
  price: bigint;
  hash: string;
};

/** What a customer sends to order one service. */
export type OrderInput = {
  serviceId: string;
  quantity?: number | undefined;
  fields: Record<string, unknown>;
  /** Drip-feed: `quantity` is per run; this many runs, this many minutes apart. */
  runs?: number | undefined;
  interval?: number | undefined;
};

/** Largest total an order may carry (the quantity column is a 32-bit integer). */
const QUANTITY_CEILING = 2_147_483_647;

/** The units of one order (one run when drip-fed), by the service's SMM type or its unit. */
function unitsOf(
  svc: ServiceRow,
  values: Record<string, string>,
  quantity: number | undefined,
  errors: Record<string, string>,
): number {
  const min = svc.minQuantity ?? 1;
  const max = svc.maxQuantity ?? min;
  const type = svc.smmType ? smmTypeOf(svc.smmType) : null;
  if (type) {
    const counted = smmQuantity(type, values, quantity, { min, max });
    if (counted.ok) return counted.quantity;
    errors[counted.field] = counted.message;
    return 1;
  }
  if (svc.unit === '1000') {
    if (quantity === undefined) errors.quantity = 'Indica la cantidad.';
    else if (quantity < min || quantity > max)
      errors.quantity = `La cantidad debe estar entre ${min} y ${max}.`;
    else return quantity;
  } else if (quantity !== undefined && quantity !== 1) {
    errors.quantity = 'Este servicio se pide de uno en uno.';
  }
  return 1;
}

/** Drip-feed runs and interval, when asked for and the service allows them. */
function dripfeedOf(
  svc: ServiceRow,
  input: Pick<OrderInput, 'runs' | 'interval'>,
  errors: Record<string, string>,
): { runs: number; interval: number } | null {
  if (input.runs === undefined && input.interval === undefined) return null;
  if (!svc.dripfeed || svc.unit !== '1000') {
    errors.runs = 'Este servicio no admite goteo (drip-feed).';
    return null;
  }
  const { runsMin, runsMax, intervalMin, intervalMax } = DRIPFEED_LIMITS;
  const runs = input.runs;
  const interval = input.interval;
  if (runs === undefined || runs < runsMin || runs > runsMax)
    errors.runs = `Las repeticiones deben estar entre ${runsMin} y ${runsMax}.`;
  if (interval === undefined || interval < intervalMin || interval > intervalMax)
    errors.interval = `El intervalo debe estar entre ${intervalMin} y ${intervalMax} minutos.`;
  if (runs === undefined || interval === undefined || errors.runs || errors.interval) return null;
  return { runs, interval };
}

/** Validates an order against its service and prices it (per 1000 units rounds up to the cent). */
function prepare(svc: ServiceRow, input: Omit<OrderInput, 'serviceId'>): PreparedOrder {
  const checked = validateOrderFields(svc.fields, input.fields);
  const errors: Record<string, string> = checked.ok ? {} : { ...checked.errors };
  const values = checked.ok ? checked.values : {};
  const units = unitsOf(svc, values, input.quantity, errors);
  const dripfeed = dripfeedOf(svc, input, errors);
  const total = units * (dripfeed?.runs ?? 1);
  if (total > QUANTITY_CEILING)
    errors.runs = 'La cantidad total (cantidad × repeticiones) es demasiado grande.';
  if (!checked.ok || Object.keys(errors).length > 0)
    throw new AppError('VALIDATION_FAILED', undefined, errors);
  const price = svc.unit === '1000' ? chargeCents(svc.price, BigInt(total), 1000n) : svc.price;
  const hash = createHash('sha256')
    .update(
      JSON.stringify({
        serviceId: svc.id,
        quantity: total,
        fields: Object.entries(checked.values).sort(),
        ...(dripfeed ? { dripfeed } : {}),
      }),
    )
    .digest('hex');
  return {
    values: checked.values,
    identifier: checked.identifier,
    quantity: total,
    dripfeed,
    price,
    hash,
  };
}

/** What an event records: a change of status, or a refill or cancel request on the timeline. */
export type OrderEventKind = 'status' | 'refill' | 'cancel';

async function addEvent(
  tx: Tx,
  row: Pick<OrderRow, 'id' | 'userId'>,
  status: OrderStatus,
  actor: Actor,
  note: string | null = null,
  kind: OrderEventKind = 'status',
) {
  await tx
    .insert(orderEvent)
    .values({ orderId: row.id, status, kind, note, actorId: actor.id, actorRole: actor.role });
  // The customer's webhooks hear of every status change, in the same transaction.
  await queueOrderUpdate(tx, row.id, row.userId);
}

/**
 * Inserts the order and holds its price (available → held) in `tx`. A duplicate identifier in
 * flight (services without re-check) or an idempotency key already used is reported; the
 * caller's transaction rolls back on any error, so nothing is half-written.
 */
async function insertAndHold(
  tx: Tx,
  userId: string,
  svc: ServiceRow,
  prepared: PreparedOrder,
  idempotencyKey: string | null,
  jobs: JobQueue | null,
  source: OrderSource,
  stock: StockKeys | null,
): Promise<{
  row: OrderRow;
  replayed: boolean;
  routed: boolean;
  fromStock?: boolean;
  lowStock?: boolean;
}> {
  // A reversed top-up (refund, chargeback) blocks new orders until finance clears the flag.
  if (await openAccountFlag(tx, userId))
    throw new AppError('ACCOUNT_BLOCKED', ACCOUNT_BLOCKED_MESSAGE);
  const inflightKey =
    !svc.allowRecheck && prepared.identifier ? `${userId}:${svc.id}:${prepared.identifier}` : null;
  const [inserted] = await tx
    .insert(order)
    .values({
      userId,
      serviceId: svc.id,
      category: svc.category,
      serviceName: svc.name,
      quantity: prepared.quantity,
      runs: prepared.dripfeed?.runs ?? null,
      runInterval: prepared.dripfeed?.interval ?? null,
      fields: prepared.values,
      identifier: prepared.identifier,
      inflightKey,
      price: prepared.price,
      idempotencyKey,
      requestHash: prepared.hash,
      source,
    })
    .onConflictDoNothing()
    .returning();
  if (!inserted) {
    if (idempotencyKey) {
      const [existing] = await tx
        .select()
        .from(order)
        .where(and(eq(order.userId, userId), eq(order.idempotencyKey, idempotencyKey)));
      if (existing) {
        if (existing.requestHash !== prepared.hash) throw new AppError('IDEMPOTENCY_MISMATCH');
        return { row: existing, replayed: true, routed: false };
      }
    }
    throw new AppError('DUPLICATE_IN_FLIGHT', undefined, {
      [firstIdentifierKey(svc)]:
        'Ya tienes una orden en curso con este dato. Espera a que termine.',
    });
  }
  // The files its file fields name become this order's, or the order is refused.
  await attachOrderFiles(tx, {
    orderId: inserted.id,
    userId,
    serviceId: svc.id,
    fields: svc.fields,
    values: prepared.values,
  });
  // Accounts, hold (available → held) and the first event in one statement (migration 0010).
  let notifyWebhooks: boolean;
  try {
    const [held] = await queryRows<{ notify_webhooks: boolean }>(
      tx,
      sql`SELECT notify_webhooks FROM cometa_hold_order(${inserted.id}::uuid, ${userId},
            ${prepared.price}::bigint, ${`Orden #${inserted.number}: ${svc.name}`})`,
    );
    notifyWebhooks = held?.notify_webhooks === true;
  } catch (err) {
    throw ledgerError(err);
  }
  if (notifyWebhooks) await queueOrderUpdate(tx, inserted.id, userId);
  // A customer with credit who just spent the last of it: staff hear of it (credit.limit).
  const after = await standing(tx, userId);
  if (after.creditLimit > 0n && after.spendable === 0n)
    await queueNotification(tx, { kind: 'credit.limit', userId });
  if (svc.delivery === 'stock') {
    // From stock: the item is taken, the order completed and its price captured in this same
    // transaction; no item, no sale (decision 0023).
    if (!stock) throw new AppError('INTERNAL');
    const item = await claimItem(tx, stock, svc.id, inserted.id);
    if (item) {
      const completed = await transition(tx, inserted.id, ['pending'], {
        status: 'completed',
        result: item.text,
        fromStock: true,
      });
      if (!completed) throw new AppError('INTERNAL');
      await settle(tx, completed, 'capture', { id: userId, role: 'customer' });
      await addEvent(tx, completed, 'completed', SYSTEM, 'Entregada al instante desde el stock.');
      await queueNotification(tx, { kind: 'order.completed', orderId: completed.id });
      const lowStock = await checkLowStock(tx, svc.id);
      return { row: completed, replayed: false, routed: false, fromStock: true, lowStock };
    }
    // Out of stock: its supplier routes, as a 'supplier' service; none, refused.
    if (!svc.routed) throw new AppError('OUT_OF_STOCK');
  }
  // A service bought from suppliers: its forwarding is queued in this same transaction, so it
  // exists exactly when the money is held.
  const routed = svc.routed && (await enqueueDispatch(tx, jobs, inserted.id));
  return { row: inserted, replayed: false, routed };
}

function firstIdentifierKey(svc: ServiceRow): string {
  const fields = svc.fields;
  return (
    fields.find((f) => f.identifier)?.key ?? fields.find((f) => f.type === 'imei')?.key ?? 'fields'
  );
}

/**
 * An order refused because the customer's balance and credit are spent: staff hear of it
 * (credit.limit), in a transaction of its own since the order's rolled back. True when noticed.
 */
async function noticeCreditRefusal(db: Db, userId: string, err: unknown): Promise<boolean> {
  if (!(err instanceof AppError) || err.code !== 'INSUFFICIENT_FUNDS') return false;
  if (err.message !== CREDIT_EXHAUSTED) return false;
  // A notice that cannot be written never hides the refusal the customer must see.
  return db
    .transaction((tx) => queueNotification(tx, { kind: 'credit.limit', userId }))
    .then(
      () => true,
      () => false,
    );
}

/** POST /api/orders: one order, paid from the available balance, idempotent per key. */
export async function placeOrder(
  db: Db,
  userId: string,
  input: OrderInput,
  idempotencyKey: string | null,
  jobs: JobQueue | null = null,
  source: OrderSource = 'web',
  deps: StockDeps | null = null,
): Promise<{ order: OrderDto; replayed: boolean }> {
  const svc = await activeService(db, input.serviceId, userId);
  const prepared = prepare(svc, input);
  const result = await db
    .transaction((tx) =>
      insertAndHold(tx, userId, svc, prepared, idempotencyKey, jobs, source, deps?.env ?? null),
    )
    .catch(async (err: unknown) => {
      await noticeCreditRefusal(db, userId, err);
      throw err;
    });
  if (result.routed) jobs?.wake('supplier-dispatch');
  if (deps) afterStockSale(deps, [result]);
  return { order: toOrderDto(result.row), replayed: result.replayed };
}

/**
 * What a stock sale needs beyond the database: the secret the items are sealed with, and the
 * mailer for the «ready» e-mail and the low-stock alert (sent after commit).
 */
export type StockDeps = {
  env: Env;
  mailer: Mailer;
  logger: Logger;
  db: Db;
};

/** After commit: the «your order is ready» e-mail (without the item) and the low-stock alert. */
function afterStockSale(
  deps: StockDeps,
  sales: { row: OrderRow; fromStock?: boolean; lowStock?: boolean }[],
): void {
  const sold = sales.filter((s) => s.fromStock);
  if (sold.length === 0) return;
  notifyCustomers(
    deps,
    sold.map((s) => ({ row: s.row, kind: 'completed' as const })),
  );
  const low = sold.find((s) => s.lowStock);
  if (low) notifyLowStock(deps, low.row.serviceId);
}

/** POST /api/orders/bulk: one IMEI a line; each line answered, and charged, on its own. */
export async function placeBulkOrder(
  db: Db,
  userId: string,
  input: { serviceId: string; imeis: string | string[]; fields: Record<string, unknown> },
  maxLines: number,
  jobs: JobQueue | null = null,
  source: OrderSource = 'web',
  deps: StockDeps | null = null,
) {
  const svc = await activeService(db, input.serviceId, userId);
  const imeiField = svc.fields.find((f) => f.type === 'imei');
  if (!imeiField)
    throw new AppError('BAD_REQUEST', 'Este servicio no admite pedidos masivos de IMEI.');
  const lines = (Array.isArray(input.imeis) ? input.imeis : input.imeis.split(/\r?\n/)).map((l) =>
    l.trim(),
  );
  const numbered = lines.map((imei, i) => ({ line: i + 1, imei })).filter((l) => l.imei !== '');
  if (numbered.length === 0)
    throw new AppError('VALIDATION_FAILED', undefined, {
      imeis: 'Pega al menos un IMEI, uno por línea.',
    });
  if (numbered.length > maxLines)
    throw new AppError('VALIDATION_FAILED', undefined, {
      imeis: `Puedes enviar como máximo ${maxLines} IMEI a la vez.`,
    });

  type Prepared = { line: number; imei: string; prepared: PreparedOrder };
  const valid: Prepared[] = [];
  const results: (
    | { line: number; imei: string; ok: false; code: string; message: string }
    | { line: number; imei: string; ok: true; order: OrderDto }
  )[] = [];
  const seen = new Set<string>();
  for (const l of numbered) {
    try {
      const prepared = prepare(svc, { fields: { ...input.fields, [imeiField.key]: l.imei } });
      // The IMEI as stored (15 digits, whatever separators the line had) is what is answered.
      const imei = prepared.values[imeiField.key] ?? l.imei;
      if (seen.has(imei)) {
        results.push({
          line: l.line,
          imei,
          ok: false,
          code: 'DUPLICATE_IN_LIST',
          message: 'Este IMEI está repetido en la lista.',
        });
        continue;
      }
      seen.add(imei);
      valid.push({ line: l.line, imei, prepared });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      const message = err.fields ? (Object.values(err.fields)[0] ?? err.message) : err.message;
      results.push({ line: l.line, imei: l.imei, ok: false, code: err.code, message });
    }
  }
  // Each valid line is its own order in its own transaction: a duplicate in flight refuses
  // that line only; running out of balance refuses the lines that no longer fit.
  let charged = 0n;
  let routed = false;
  const sales: { row: OrderRow; fromStock?: boolean; lowStock?: boolean }[] = [];
  let creditNoticed = false;
  for (const v of valid) {
    try {
      // One transaction a line: a stock line takes its item or is refused (all or nothing).
      const placed = await db.transaction((tx) =>
        insertAndHold(tx, userId, svc, v.prepared, null, jobs, source, deps?.env ?? null),
      );
      sales.push(placed);
      routed ||= placed.routed;
      charged += placed.row.price;
      results.push({ line: v.line, imei: v.imei, ok: true, order: toOrderDto(placed.row) });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      if (!creditNoticed) creditNoticed = await noticeCreditRefusal(db, userId, err);
      results.push({
        line: v.line,
        imei: v.imei,
        ok: false,
        code: err.code,
        message:
          err.code !== 'INSUFFICIENT_FUNDS'
            ? err.message
            : err.message === CREDIT_EXHAUSTED
              ? 'Tu saldo y tu crédito disponible no alcanzan para este IMEI.'
              : 'Tu saldo no alcanza para este IMEI.',
      });
    }
  }
  if (routed) jobs?.wake('supplier-dispatch');
  if (deps) afterStockSale(deps, sales);
  results.sort((a, b) => a.line - b.line);
  const placed = results.filter((r) => r.ok);
  return {
    results,
    placed: placed.length,
    refused: results.length - placed.length,
    charged: formatAmount(charged),
  };
}

/**
 * Releases (refund) or captures held money of an order, exactly once per outcome: by default its
 * whole price; a partial order releases one share and captures the rest.
 */
async function settle(
  tx: Tx,
  row: OrderRow,
  outcome: 'release' | 'capture',
  actor: Actor,
  amount: bigint = row.price,
): Promise<void> {
  if (amount <= 0n) return;
  const accounts = await customerAccounts(tx, row.userId);
  await transfer(tx, {
    from: accounts.held,
    to: outcome === 'release' ? accounts.available : await systemAccount(tx, 'revenue'),
    amount,
    kind: outcome === 'release' ? 'order_release' : 'order_capture',
    reference: { type: 'order', id: row.id },
    idempotencyKey: `order:${row.id}:${outcome}`,
    description:
      outcome === 'release'
        ? `Reembolso de la orden #${row.number}: ${row.serviceName}`
        : `Orden #${row.number} completada: ${row.serviceName}`,
    actorId: actor.id,
  });
}

/** Conditional status change: only from `from`; returns null when the order was not there. */
async function transition(
  tx: Tx,
  orderId: string,
  from: OrderStatus[],
  set: Partial<
    Pick<OrderRow, 'status' | 'result' | 'rejectReason' | 'remains' | 'cost' | 'fromStock'>
  >,
  extra: { userId?: string; notSentToSupplier?: boolean } = {},
): Promise<OrderRow | null> {
  const leaving = set.status !== undefined && !IN_FLIGHT.includes(set.status as OrderStatus);
  // Finished: settled now (the ledger's transaction time, so reports and the ledger agree); an
  // order refunded in full cost nothing (the supplier refunds it too).
  const refunded = set.status === 'rejected' || set.status === 'cancelled';
  const [row] = await tx
    .update(order)
    .set({
      ...set,
      ...(leaving ? { inflightKey: null, settledAt: sql`now()` } : {}),
      ...(refunded ? { cost: sql`CASE WHEN ${order.cost} IS NULL THEN NULL ELSE 0 END` } : {}),
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(order.id, orderId),
        inArray(order.status, from),
        extra.userId ? eq(order.userId, extra.userId) : undefined,
        extra.notSentToSupplier ? isNull(order.supplierRef) : undefined,
      ),
    )
    .returning();
  return row ?? null;
}

async function findOrder(db: Db | Tx, orderId: string, userId?: string): Promise<OrderRow> {
  if (!UUID.test(orderId)) throw new AppError('NOT_FOUND', 'La orden no existe.');
  const [row] = await db
    .select()
    .from(order)
    .where(and(eq(order.id, orderId), userId ? eq(order.userId, userId) : undefined));
  // Another customer's order answers the same as one that does not exist.
  if (!row) throw new AppError('NOT_FOUND', 'La orden no existe.');
  return row;
}

/** The customer cancels a pending order not yet sent to a supplier: refunded at once. */
export async function cancelOrder(db: Db, userId: string, orderId: string): Promise<OrderDto> {
  await findOrder(db, orderId, userId);
  return db.transaction(async (tx) => {
    const row = await transition(
      tx,
      orderId,
      ['pending'],
      { status: 'cancelled' },
      { userId, notSentToSupplier: true },
    );
    if (!row)
      throw new AppError(
        'CONFLICT',
        'Esta orden ya no se puede cancelar: ya está en proceso o terminó.',
      );
    await settle(tx, row, 'release', { id: userId, role: 'customer' });
    await addEvent(
      tx,
      row,
      'cancelled',
      { id: userId, role: 'customer' },
      'Cancelada por el cliente; importe devuelto al saldo.',
    );
    // A queued forwarding is dropped with it (the order row is locked first, as everywhere).
    await closeDispatch(tx, row.id);
    return toOrderDto(row);
  });
}

/**
 * An event on an order's timeline that is not a change of status (a refill asked for or
 * finished, a cancel request and its answer); the customer's webhooks hear of it too.
 */
export async function recordOrderEvent(
  tx: Tx,
  row: Pick<OrderRow, 'id' | 'userId' | 'status'>,
  kind: Exclude<OrderEventKind, 'status'>,
  actor: Actor,
  note: string,
): Promise<void> {
  await addEvent(tx, row, row.status as OrderStatus, actor, note, kind);
}

/**
 * Cancels an order in flight at the supplier's word after the customer asked (held → available,
 * exactly once); null when no longer in flight.
 */
export async function cancelOrderTx(
  tx: Tx,
  orderId: string,
  note: string,
  actor: Actor,
): Promise<OrderRow | null> {
  const row = await transition(tx, orderId, ['pending', 'processing'], {
    status: 'cancelled',
    rejectReason: note,
  });
  if (!row) return null;
  await settle(tx, row, 'release', actor);
  await addEvent(tx, row, 'cancelled', actor, note);
  await closeDispatch(tx, row.id);
  return row;
}

/** Ends the order's forwarding, if it had one: a finished order is never polled or sent again. */
async function closeDispatch(tx: Tx, orderId: string): Promise<void> {
  await tx
    .update(orderDispatch)
    .set({ state: 'done', reviewReason: null, updatedAt: new Date() })
    .where(and(eq(orderDispatch.orderId, orderId), sql`${orderDispatch.state} <> 'done'`));
}

/** pending → processing (an admin took it, or it is being sent to a supplier). */
export async function startProcessingTx(
  tx: Tx,
  orderId: string,
  actor: Actor,
  note: string | null = null,
): Promise<OrderRow | null> {
  const row = await transition(tx, orderId, ['pending'], { status: 'processing' });
  if (row) await addEvent(tx, row, 'processing', actor, note);
  return row;
}

/** Completes an order in flight with its result (held → revenue); null when no longer in flight. */
export async function completeOrderTx(
  tx: Tx,
  orderId: string,
  result: string,
  actor: Actor,
  cost?: bigint,
): Promise<OrderRow | null> {
  const row = await transition(tx, orderId, ['pending', 'processing'], {
    status: 'completed',
    result,
    // What the admin who completed it says it cost (replaces the recorded one).
    ...(cost !== undefined ? { cost } : {}),
  });
  if (!row) return null;
  await settle(tx, row, 'capture', actor);
  await addEvent(tx, row, 'completed', actor);
  await queueNotification(tx, { kind: 'order.completed', orderId: row.id });
  await closeDispatch(tx, row.id);
  return row;
}

/** Rejects an order in flight (held → available, exactly once); null when no longer in flight. */
export async function rejectOrderTx(
  tx: Tx,
  orderId: string,
  reason: string,
  actor: Actor,
): Promise<OrderRow | null> {
  const row = await transition(tx, orderId, ['pending', 'processing'], {
    status: 'rejected',
    rejectReason: reason,
  });
  if (!row) return null;
  await settle(tx, row, 'release', actor);
  await addEvent(tx, row, 'rejected', actor, reason);
  await queueNotification(tx, { kind: 'order.rejected', orderId: row.id });
  await closeDispatch(tx, row.id);
  return row;
}

/**
 * Refunds a completed order delivered from stock (revenue → available, exactly once per order)
 * and marks its item bad: the customer reported it did not work. Null when it is no longer a
 * completed stock order.
 */
async function refundStockOrderTx(
  tx: Tx,
  orderId: string,
  reason: string,
  actor: Actor,
): Promise<OrderRow | null> {
  const [current] = await tx
    .select({ fromStock: order.fromStock })
    .from(order)
    .where(eq(order.id, orderId));
  if (!current?.fromStock) return null;
  const row = await transition(tx, orderId, ['completed'], {
    status: 'rejected',
    rejectReason: reason,
  });
  if (!row) return null;
  const accounts = await customerAccounts(tx, row.userId);
  await transfer(tx, {
    from: await systemAccount(tx, 'revenue'),
    to: accounts.available,
    amount: row.price,
    kind: 'order_refund',
    reference: { type: 'order', id: row.id },
    idempotencyKey: `order:${row.id}:refund`,
    description: `Reembolso de la orden #${row.number}: ${row.serviceName}`,
    actorId: actor.id,
  });
  await markSoldItemBad(tx, row.id);
  await addEvent(tx, row, 'rejected', actor, reason);
  return row;
}

/**
 * A partial delivery: the undelivered share of the price, ⌊price × remains ÷ quantity⌋ with
 * remains clamped to [0, quantity], goes back to the customer; the rest is captured. Each part
 * is keyed once, and the conditional transition lets only the first answer through.
 */
export async function partialOrderTx(
  tx: Tx,
  orderId: string,
  remains: number,
  actor: Actor,
): Promise<OrderRow | null> {
  const [current] = await tx
    .select({ price: order.price, quantity: order.quantity, cost: order.cost })
    .from(order)
    .where(eq(order.id, orderId));
  if (!current) return null;
  const clamped = Math.min(Math.max(Math.trunc(remains), 0), current.quantity);
  const refund = partialRefundCents(current.price, clamped, current.quantity);
  // The cost shrinks with the price, by the same rule: the undelivered share, rounded down.
  const cost =
    current.cost === null
      ? null
      : current.cost - partialRefundCents(current.cost, clamped, current.quantity);
  const delivered = current.quantity - clamped;
  const note =
    refund > 0n
      ? `Entrega parcial: ${delivered} de ${current.quantity}. Se devolvieron ${formatUsd(refund)} a tu saldo.`
      : `Entrega parcial: ${delivered} de ${current.quantity}.`;
  const row = await transition(tx, orderId, ['pending', 'processing'], {
    status: 'partial',
    remains: clamped,
    result: note,
    cost,
  });
  if (!row) return null;
  await settle(tx, row, 'release', actor, refund);
  await settle(tx, row, 'capture', actor, row.price - refund);
  await addEvent(tx, row, 'partial', actor, note);
  await closeDispatch(tx, row.id);
  return row;
}

/**
 * Admins act on an order only while no call to a supplier is in flight for it: the order row is
 * locked first (as the dispatch does), then its forwarding is read.
 */
async function lockForAdmin(tx: Tx, orderId: string): Promise<void> {
  await tx.select({ id: order.id }).from(order).where(eq(order.id, orderId)).for('no key update');
  const [d] = await tx
    .select({ state: orderDispatch.state })
    .from(orderDispatch)
    .where(eq(orderDispatch.orderId, orderId));
  if (d?.state === 'sending') {
    throw new AppError(
      'CONFLICT',
      'La orden se está enviando al proveedor en este momento. Espera unos segundos e inténtalo de nuevo.',
    );
  }
}

/** Admin takes a pending order: it is now being worked on (no money moves). */
export async function takeOrder(
  db: Db,
  adminId: string,
  orderId: string,
  ipAddress: string | null = null,
): Promise<OrderDto> {
  const before = await findOrder(db, orderId);
  return db.transaction(async (tx) => {
    await lockForAdmin(tx, orderId);
    const row = await startProcessingTx(tx, orderId, { id: adminId, role: 'admin' });
    if (!row) throw new AppError('CONFLICT', 'La orden ya no está pendiente.');
    // Taken by hand: it is no longer forwarded automatically.
    await closeDispatch(tx, row.id);
    await recordAudit(tx, {
      actorId: adminId,
      action: 'order.take',
      targetType: 'order',
      targetId: row.id,
      before: { status: before.status },
      after: { status: row.status },
      ipAddress,
    });
    return toOrderDto(row);
  });
}

/** Admin completes an order with its result: the held price becomes revenue. */
export async function completeOrder(
  db: Db,
  adminId: string,
  orderId: string,
  result: string,
  cost?: bigint,
  ipAddress: string | null = null,
): Promise<OrderRow> {
  const before = await findOrder(db, orderId);
  return db.transaction(async (tx) => {
    await lockForAdmin(tx, orderId);
    const row = await completeOrderTx(tx, orderId, result, { id: adminId, role: 'admin' }, cost);
    if (!row) throw new AppError('CONFLICT', 'La orden ya está completada, rechazada o cancelada.');
    await recordAudit(tx, {
      actorId: adminId,
      action: 'order.complete',
      targetType: 'order',
      targetId: row.id,
      before: { status: before.status },
      after: { status: row.status, result, ...(cost !== undefined ? { cost } : {}) },
      ipAddress,
    });
    return row;
  });
}

/** Admin rejects an order with a reason: refunded to the available balance exactly once. */
export async function rejectOrder(
  db: Db,
  adminId: string,
  orderId: string,
  reason: string,
  ipAddress: string | null = null,
): Promise<OrderRow> {
  const before = await findOrder(db, orderId);
  return db.transaction(async (tx) => {
    await lockForAdmin(tx, orderId);
    // An item from stock is delivered the moment it is paid: refunding it rejects the completed
    // order (decision 0023).
    const row =
      before.fromStock && before.status === 'completed'
        ? await refundStockOrderTx(tx, orderId, reason, { id: adminId, role: 'admin' })
        : await rejectOrderTx(tx, orderId, reason, { id: adminId, role: 'admin' });
    if (!row) throw new AppError('CONFLICT', 'La orden ya está completada, rechazada o cancelada.');
    await recordAudit(tx, {
      actorId: adminId,
      action: 'order.reject',
      targetType: 'order',
      targetId: row.id,
      before: { status: before.status },
      after: { status: row.status, reason },
      ipAddress,
    });
    return row;
  });
}

/** One order: the customer's own (`userId`), or any order for staff (null: items masked). */
export async function getOrder(db: Db, userId: string | null, orderId: string): Promise<OrderDto> {
  const row = await findOrder(db, orderId, userId ?? undefined);
  const events = await db
    .select()
    .from(orderEvent)
    .where(eq(orderEvent.orderId, row.id))
    .orderBy(asc(orderEvent.id));
  const dto = toOrderDto(
    row,
    events.map((e) => ({
      kind: e.kind as OrderEventDto['kind'],
      status: e.status as OrderStatus,
      note: e.note,
      actor: e.actorRole as OrderEventDto['actor'],
      at: e.createdAt.toISOString(),
    })),
    userId ? 'owner' : 'staff',
  );
  const files = await orderFiles(db, row.id);
  return files.length ? { ...dto, files } : dto;
}

export type OrderFilters = {
  /** Any of these statuses. */
  status?: OrderStatus[] | undefined;
  /** Admins: only orders whose forwarding to a supplier is in one of these states. */
  dispatch?: string[] | undefined;
  category?: string | undefined;
  q?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
};

/** Keyset page of a customer's (or, for admins, everyone's) orders, newest first. */
export async function listOrders(
  db: Db,
  userId: string | null,
  filters: OrderFilters,
  cursor: string | undefined,
  limit = 25,
  // Staff reading everyone's orders, or a customer's from the back office, see items masked.
  view: OrderView = userId ? 'owner' : 'staff',
) {
  let after: { at: string; id: string } | undefined;
  if (cursor) {
    const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
    // Shape and value: "2026-13-45T…" has the shape, and PostgreSQL would refuse it (a 500).
    if (!id || !UUID.test(id) || !at || !CURSOR_TIME.test(at) || !isRealInstant(at))
      throw new AppError('BAD_REQUEST', 'El cursor de la página no es válido.');
    after = { at, id };
  }
  // IMEIs as people write them are searched as stored (15 digits): shared/search-terms.ts.
  const terms = searchTerms(filters.q ?? '');
  const numbers = terms.filter((t) => /^\d{1,9}$/.test(t)).map(Number);
  const conditions = [
    userId ? eq(order.userId, userId) : undefined,
    filters.status?.length ? inArray(order.status, filters.status) : undefined,
    filters.category ? eq(order.category, filters.category) : undefined,
    filters.dispatch?.length
      ? sql`EXISTS (SELECT 1 FROM ${orderDispatch} WHERE ${orderDispatch.orderId} = ${order.id} AND ${inArray(orderDispatch.state, filters.dispatch)})`
      : undefined,
    filters.from ? sql`${order.createdAt} >= ${filters.from}` : undefined,
    filters.to ? sql`${order.createdAt} < ${filters.to}` : undefined,
    terms.length
      ? sql`(${order.identifier} IN ${terms} ${numbers.length ? sql`OR ${order.number} IN ${numbers}` : sql``})`
      : undefined,
    after
      ? sql`(${order.createdAt}, ${order.id}) < (${after.at}::timestamptz, ${after.id}::uuid)`
      : undefined,
  ];
  const rows = await db
    .select({ ...getTableColumns(order), cursorAt: EXACT_CREATED_AT })
    .from(order)
    .where(and(...conditions))
    .orderBy(sql`${order.createdAt} DESC, ${order.id} DESC`)
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map((r) => toOrderDto(r, undefined, view)),
    nextCursor:
      rows.length > limit && last
        ? Buffer.from(`${last.cursorAt}|${last.id}`).toString('base64url')
        : null,
  };
}

import { and, asc, count, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { CategorySlug } from '../../../shared/categories';
import { formatAmount } from '../../../shared/money';
import type { ServiceDto, ServiceField } from '../../../shared/schemas/catalogue';
import { smmTypeErrors, smmTypeOf, type SmmType } from '../../../shared/smm-types';
import { queryRows, type Db, type Tx } from '../../db/client';
import type { DeliveryMode, StockAvailability } from '../../../shared/schemas/stock';
import { user } from '../../db/schema/auth';
import { service } from '../../db/schema/catalogue';
import { serviceRoute, supplier, supplierService } from '../../db/schema/suppliers';
import { formatMicros } from '../../suppliers/decimal';
import { apiSupplierState } from '../suppliers/states';
import type { ServiceRouteDto } from '../../../shared/schemas/service-routes';
import { auditLog } from '../../db/schema/payments';
import { AppError } from '../../lib/errors';
import { recordAudit } from '../audit/audit.service';
import {
  CATEGORY_SLUGS,
  MAX_PRICE_CENTS,
  quantityErrors,
  type AdminServiceDto,
  type BulkPriceInput,
  type CreateServiceInput,
  type ServiceHistoryEntryDto,
  type UpdateServiceInput,
} from '../../../shared/schemas/catalogue';
import { needsTranslation } from '../../../shared/translation';

export type ServiceRow = typeof service.$inferSelect;

/** The ids of a reorder come in the body, unchecked: a malformed one is an unknown service. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NOT_FOUND_MESSAGE = 'El servicio no existe o no está disponible.';

/** A service row with, for a stock service, whether it can be ordered (`withStock`). */
export type ServiceRowWithStock = ServiceRow & { stock?: StockAvailability };

export function toServiceDto(row: ServiceRowWithStock): ServiceDto {
  const unit = row.unit === '1000' ? '1000' : 'order';
  return {
    id: row.id,
    number: row.number,
    category: row.category as CategorySlug,
    name: row.name,
    description: row.description,
    deliveryTime: row.deliveryTime,
    price: formatAmount(row.price),
    unit,
    ...(unit === '1000' && row.minQuantity !== null ? { minQuantity: row.minQuantity } : {}),
    ...(unit === '1000' && row.maxQuantity !== null ? { maxQuantity: row.maxQuantity } : {}),
    allowRecheck: row.allowRecheck,
    fields: row.fields,
    smmType: row.smmType ? smmTypeOf(row.smmType) : null,
    dripfeed: row.dripfeed,
    refillDays: row.refillDays,
    cancelable: row.cancelable,
    stock: row.delivery === 'stock' ? (row.stock ?? 'out') : null,
  };
}

/**
 * Marks stock services `available` when they have an item or a supplier route to fall back on,
 * `out` («Agotado») otherwise: one query for all, that never counts (decision 0023).
 */
export async function withStock<T extends ServiceRow>(
  db: Db | Tx,
  rows: T[],
): Promise<(T & { stock?: StockAvailability })[]> {
  const ids = rows.filter((r) => r.delivery === 'stock').map((r) => r.id);
  if (ids.length === 0) return rows;
  const open = await queryRows<{ id: string }>(
    db,
    sql`SELECT s.id FROM service s WHERE s.id IN ${ids} AND (
          EXISTS (SELECT 1 FROM stock_item i WHERE i.service_id = s.id AND i.state = 'available')
          OR (EXISTS (SELECT 1 FROM service_route r WHERE r.service_id = s.id)))`,
  );
  const available = new Set(open.map((r) => r.id));
  return rows.map((r) =>
    r.delivery === 'stock' ? { ...r, stock: available.has(r.id) ? 'available' : 'out' } : r,
  );
}

export function toAdminServiceDto(
  row: ServiceRowWithStock,
  routes: ServiceRouteDto[] = [],
): AdminServiceDto {
  return {
    ...toServiceDto(row),
    active: row.active,
    sortOrder: row.sortOrder,
    markupPercent: row.markupBp === null ? null : row.markupBp / 100,
    routes,
    // Derived when read: it clears as soon as the admin rewrites the texts in Spanish.
    needsTranslation: needsTranslation(row),
    delivery: row.delivery as DeliveryMode,
    lowStockThreshold: row.lowStockThreshold,
  };
}

/** The routes of these services (supplier, remote service and its last known cost), in order. */
export async function loadRoutes(
  db: Db | Tx,
  serviceIds: string[],
): Promise<Map<string, ServiceRouteDto[]>> {
  const byService = new Map<string, ServiceRouteDto[]>();
  if (serviceIds.length === 0) return byService;
  const rows = await db
    .select({
      serviceId: serviceRoute.serviceId,
      position: serviceRoute.position,
      supplierId: serviceRoute.supplierId,
      supplierName: supplier.name,
      supplierState: supplier.state,
      currency: supplier.currency,
      remoteId: serviceRoute.remoteId,
      remoteName: supplierService.name,
      costMicros: supplierService.costMicros,
      missingSince: supplierService.missingSince,
    })
    .from(serviceRoute)
    .innerJoin(supplier, eq(supplier.id, serviceRoute.supplierId))
    .leftJoin(
      supplierService,
      and(
        eq(supplierService.supplierId, serviceRoute.supplierId),
        eq(supplierService.remoteId, serviceRoute.remoteId),
      ),
    )
    .where(inArray(serviceRoute.serviceId, serviceIds))
    .orderBy(asc(serviceRoute.serviceId), asc(serviceRoute.position));
  for (const r of rows) {
    const list = byService.get(r.serviceId) ?? [];
    list.push({
      position: r.position,
      supplierId: r.supplierId,
      supplierName: r.supplierName,
      supplierState: apiSupplierState(r.supplierState),
      remoteId: r.remoteId,
      remoteName: r.remoteName,
      cost: r.costMicros === null ? null : formatMicros(r.costMicros),
      currency: r.currency,
      missing: r.remoteName === null || r.missingSince !== null,
    });
    byService.set(r.serviceId, list);
  }
  return byService;
}

/** Admin DTOs of these rows, with their routes (one query for all). */
export async function adminServiceDtos(
  db: Db | Tx,
  rows: ServiceRow[],
): Promise<AdminServiceDto[]> {
  const routes = await loadRoutes(
    db,
    rows.map((r) => r.id),
  );
  const stocked = await withStock(db, rows);
  return stocked.map((r) => toAdminServiceDto(r, routes.get(r.id) ?? []));
}

/** The audit snapshot of a service (amounts as decimal strings; routes are audited apart). */
function snapshot(row: ServiceRow) {
  const { routes: _routes, ...dto } = toAdminServiceDto(row);
  return { ...dto, priceCents: row.price.toString() };
}

export async function listServices(
  db: Db,
  options: { category?: CategorySlug; includeInactive?: boolean } = {},
): Promise<ServiceRow[]> {
  const conditions = [];
  if (options.category) conditions.push(eq(service.category, options.category));
  if (!options.includeInactive) conditions.push(eq(service.active, true));
  return db
    .select()
    .from(service)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(asc(service.sortOrder), asc(service.name), asc(service.id));
}

/**
 * One service; 404 for an unknown or (unless `includeInactive`) inactive id. `id` is a UUID: the
 * routes' path parameter is checked before.
 */
export async function getService(
  db: Db,
  id: string,
  options: { includeInactive?: boolean } = {},
): Promise<ServiceRow> {
  const [row] = await db.select().from(service).where(eq(service.id, id));
  if (!row || (!row.active && !options.includeInactive)) {
    throw new AppError('NOT_FOUND', NOT_FOUND_MESSAGE);
  }
  return row;
}

/** Active services per category slug (every slug present, 0 when empty). */
export async function categoryCounts(db: Db): Promise<Record<CategorySlug, number>> {
  const rows = await db
    .select({ category: service.category, n: count() })
    .from(service)
    .where(eq(service.active, true))
    .groupBy(service.category);
  const counts = Object.fromEntries(CATEGORY_SLUGS.map((slug) => [slug, 0])) as Record<
    CategorySlug,
    number
  >;
  for (const r of rows) {
    if (r.category in counts) counts[r.category as CategorySlug] = Number(r.n);
  }
  return counts;
}

/** A stock service sells one item per order: never per 1000 units. */
function deliveryErrors(delivery: string, unit: string): Record<string, string> {
  return delivery === 'stock' && unit !== 'order'
    ? { delivery: 'Un servicio entregado desde stock se vende por orden (unidad «order»).' }
    : {};
}

function throwIfErrors(errors: Record<string, string>): void {
  if (Object.keys(errors).length > 0) throw new AppError('VALIDATION_FAILED', undefined, errors);
}

export type NewService = {
  category: CategorySlug;
  name: string;
  description: string;
  deliveryTime: string;
  price: bigint;
  unit: 'order' | '1000';
  minQuantity: number | null;
  maxQuantity: number | null;
  fields: ServiceField[];
  active: boolean;
  sortOrder?: number | undefined;
  allowRecheck: boolean;
  markupBp?: number | null;
  smmType?: SmmType | null;
  dripfeed?: boolean;
  refillDays?: number | null;
  cancelable?: boolean;
  delivery?: DeliveryMode;
  lowStockThreshold?: number;
};

/** Inserts a service (last in its category unless told) and audits it, inside `tx`. */
export async function insertServiceTx(
  tx: Tx,
  adminId: string,
  input: NewService,
  ipAddress: string | null,
  auditExtra: Record<string, unknown> = {},
): Promise<ServiceRow> {
  const perThousand = input.unit === '1000';
  let sortOrder = input.sortOrder;
  if (sortOrder === undefined) {
    // New services go last in their category.
    const [last] = await tx
      .select({ max: sql<number | null>`max(${service.sortOrder})` })
      .from(service)
      .where(eq(service.category, input.category));
    sortOrder = Number(last?.max ?? 0) + 10;
  }
  const [row] = await tx
    .insert(service)
    .values({
      category: input.category,
      name: input.name,
      description: input.description,
      deliveryTime: input.deliveryTime,
      price: input.price,
      unit: input.unit,
      minQuantity: perThousand ? input.minQuantity : null,
      maxQuantity: perThousand ? input.maxQuantity : null,
      fields: input.fields,
      active: input.active,
      sortOrder,
      allowRecheck: input.allowRecheck,
      markupBp: input.markupBp ?? null,
      smmType: input.smmType ?? null,
      dripfeed: input.dripfeed ?? false,
      refillDays: input.refillDays ?? null,
      cancelable: input.cancelable ?? false,
      delivery: input.delivery ?? 'supplier',
      lowStockThreshold: input.lowStockThreshold ?? 5,
    })
    .returning();
  if (!row) throw new Error('insert returned no row');
  await recordAudit(tx, {
    actorId: adminId,
    action: 'service.create',
    targetType: 'service',
    targetId: row.id,
    after: { ...snapshot(row), ...auditExtra },
    ipAddress,
  });
  return row;
}

export async function createService(
  db: Db,
  adminId: string,
  input: CreateServiceInput,
  ipAddress: string | null = null,
): Promise<ServiceRow> {
  throwIfErrors({
    ...deliveryErrors(input.delivery, input.unit),
    ...quantityErrors({
      unit: input.unit,
      minQuantity: input.minQuantity,
      maxQuantity: input.maxQuantity,
    }),
    ...smmTypeErrors({
      smmType: input.smmType,
      unit: input.unit,
      fields: input.fields,
      dripfeed: input.dripfeed,
    }),
  });
  return db.transaction((tx) =>
    insertServiceTx(
      tx,
      adminId,
      {
        ...input,
        minQuantity: input.minQuantity ?? null,
        maxQuantity: input.maxQuantity ?? null,
      },
      ipAddress,
    ),
  );
}

/** Locks one service row for an admin change; 404 when unknown (inactive ones included). */
async function lockService(tx: Tx, id: string): Promise<ServiceRow> {
  const [row] = await tx.select().from(service).where(eq(service.id, id)).for('update');
  if (!row) throw new AppError('NOT_FOUND', NOT_FOUND_MESSAGE);
  return row;
}

/** Partial update; unit and quantities are checked against the merged result. */
export async function updateService(
  db: Db,
  adminId: string,
  id: string,
  patch: UpdateServiceInput,
  ipAddress: string | null = null,
): Promise<ServiceRow> {
  return db.transaction(async (tx) => {
    const before = await lockService(tx, id);
    const unit = patch.unit ?? before.unit;
    const perThousand = unit === '1000';
    const minQuantity = perThousand
      ? patch.minQuantity !== undefined
        ? patch.minQuantity
        : before.minQuantity
      : null;
    const maxQuantity = perThousand
      ? patch.maxQuantity !== undefined
        ? patch.maxQuantity
        : before.maxQuantity
      : null;
    throwIfErrors({
      ...deliveryErrors(patch.delivery ?? before.delivery, unit),
      ...quantityErrors({ unit, minQuantity, maxQuantity }),
      ...smmTypeErrors({
        smmType: patch.smmType !== undefined ? patch.smmType : before.smmType,
        unit,
        fields: patch.fields ?? before.fields,
        dripfeed: patch.dripfeed ?? before.dripfeed,
      }),
    });
    const [after] = await tx
      .update(service)
      .set({
        ...(patch.category !== undefined ? { category: patch.category } : {}),
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.description !== undefined ? { description: patch.description } : {}),
        ...(patch.deliveryTime !== undefined ? { deliveryTime: patch.deliveryTime } : {}),
        ...(patch.price !== undefined ? { price: patch.price } : {}),
        ...(patch.fields !== undefined ? { fields: patch.fields } : {}),
        ...(patch.active !== undefined ? { active: patch.active } : {}),
        ...(patch.sortOrder !== undefined ? { sortOrder: patch.sortOrder } : {}),
        ...(patch.allowRecheck !== undefined ? { allowRecheck: patch.allowRecheck } : {}),
        ...(patch.smmType !== undefined ? { smmType: patch.smmType } : {}),
        ...(patch.dripfeed !== undefined ? { dripfeed: patch.dripfeed } : {}),
        ...(patch.refillDays !== undefined ? { refillDays: patch.refillDays } : {}),
        ...(patch.cancelable !== undefined ? { cancelable: patch.cancelable } : {}),
        ...(patch.delivery !== undefined ? { delivery: patch.delivery } : {}),
        ...(patch.lowStockThreshold !== undefined
          ? { lowStockThreshold: patch.lowStockThreshold }
          : {}),
        // A new threshold or mode re-arms the low-stock alert (checked again on the next sale).
        ...(patch.lowStockThreshold !== undefined || patch.delivery !== undefined
          ? { lowStockAlerted: false }
          : {}),
        unit,
        minQuantity,
        maxQuantity,
        updatedAt: new Date(),
      })
      .where(eq(service.id, id))
      .returning();
    if (!after) throw new Error('update returned no row');
    await recordAudit(tx, {
      actorId: adminId,
      action: 'service.update',
      targetType: 'service',
      targetId: id,
      before: snapshot(before),
      after: snapshot(after),
      ipAddress,
    });
    return after;
  });
}

/** Shows or hides a service for customers. */
export async function setActive(
  db: Db,
  adminId: string,
  id: string,
  active: boolean,
  ipAddress: string | null = null,
): Promise<ServiceRow> {
  return db.transaction(async (tx) => {
    const before = await lockService(tx, id);
    const [after] = await tx
      .update(service)
      .set({ active, updatedAt: new Date() })
      .where(eq(service.id, id))
      .returning();
    if (!after) throw new Error('update returned no row');
    await recordAudit(tx, {
      actorId: adminId,
      action: active ? 'service.activate' : 'service.deactivate',
      targetType: 'service',
      targetId: id,
      before: { active: before.active },
      after: { active: after.active },
      ipAddress,
    });
    return after;
  });
}

/**
 * Activates or deactivates several services in one transaction, each audited like a single
 * toggle; services already in that state are left alone. Every id must exist.
 */
export async function setActiveMany(
  db: Db,
  adminId: string,
  ids: string[],
  active: boolean,
  ipAddress: string | null = null,
): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: service.id, active: service.active })
      .from(service)
      .where(inArray(service.id, ids))
      .orderBy(asc(service.id))
      .for('update');
    if (rows.length !== new Set(ids).size)
      throw new AppError('VALIDATION_FAILED', undefined, { ids: 'Algún servicio no existe.' });
    const changing = rows.filter((r) => r.active !== active);
    if (changing.length === 0) return 0;
    await tx
      .update(service)
      .set({ active, updatedAt: new Date() })
      .where(
        inArray(
          service.id,
          changing.map((r) => r.id),
        ),
      );
    for (const r of changing)
      await recordAudit(tx, {
        actorId: adminId,
        action: active ? 'service.activate' : 'service.deactivate',
        targetType: 'service',
        targetId: r.id,
        before: { active: r.active },
        after: { active },
        ipAddress,
      });
    return changing.length;
  });
}

/**
 * Gives the listed services the sort orders 10, 20, 30… in the order given. Services not listed
 * keep theirs. Every id must exist.
 */
export async function reorder(
  db: Db,
  adminId: string,
  ids: string[],
  ipAddress: string | null = null,
): Promise<void> {
  if (new Set(ids).size !== ids.length) {
    throw new AppError('VALIDATION_FAILED', undefined, {
      ids: 'Hay servicios repetidos en la lista.',
    });
  }
  if (ids.some((id) => !UUID.test(id))) {
    throw new AppError('VALIDATION_FAILED', undefined, { ids: 'Algún servicio no existe.' });
  }
  await db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: service.id, sortOrder: service.sortOrder })
      .from(service)
      .where(inArray(service.id, ids))
      .orderBy(asc(service.id))
      .for('update');
    if (rows.length !== ids.length) {
      throw new AppError('VALIDATION_FAILED', undefined, { ids: 'Algún servicio no existe.' });
    }
    const before = new Map(rows.map((r) => [r.id, r.sortOrder]));
    const now = new Date();
    for (const [index, id] of ids.entries()) {
      await tx
        .update(service)
        .set({ sortOrder: (index + 1) * 10, updatedAt: now })
        .where(eq(service.id, id));
    }
    await recordAudit(tx, {
      actorId: adminId,
      action: 'service.reorder',
      targetType: 'service',
      targetId: ids.length === 1 ? (ids[0] ?? 'catalogue') : 'catalogue',
      before: ids.map((id) => ({ id, sortOrder: before.get(id) })),
      after: ids.map((id, index) => ({ id, sortOrder: (index + 1) * 10 })),
      ipAddress,
    });
  });
}

/**
 * New price for a change of `basisPoints` (1% = 100): rounded UP to the cent with integer math,
 * never below 1 cent.
 */
export function applyPercent(priceCents: bigint, basisPoints: bigint): bigint {
  const numerator = priceCents * (10_000n + basisPoints);
  const rounded = numerator % 10_000n === 0n ? numerator / 10_000n : numerator / 10_000n + 1n;
  return rounded < 1n ? 1n : rounded;
}

/** Raises or lowers every price (of one category, or all) by a percentage, with an audit per service. */
export async function bulkPriceChange(
  db: Db,
  adminId: string,
  input: BulkPriceInput,
  ipAddress: string | null = null,
): Promise<{ updated: number }> {
  const basisPoints = BigInt(Math.round(input.percent * 100));
  if (basisPoints < -9000n || basisPoints > 50_000n || basisPoints === 0n) {
    throw new AppError('VALIDATION_FAILED', undefined, {
      percent: 'El porcentaje debe estar entre -90 y 500 y no puede ser cero.',
    });
  }
  return db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(service)
      .where(input.category ? eq(service.category, input.category) : undefined)
      .orderBy(asc(service.id))
      .for('update');
    const now = new Date();
    let updated = 0;
    for (const row of rows) {
      const next = applyPercent(row.price, basisPoints);
      if (next > MAX_PRICE_CENTS) {
        throw new AppError('VALIDATION_FAILED', undefined, {
          percent: `El precio de «${row.name}» pasaría de US$100,000.00.`,
        });
      }
      if (next === row.price) continue;
      await tx.update(service).set({ price: next, updatedAt: now }).where(eq(service.id, row.id));
      await recordAudit(tx, {
        actorId: adminId,
        action: 'service.price_bulk',
        targetType: 'service',
        targetId: row.id,
        before: { price: formatAmount(row.price) },
        after: {
          price: formatAmount(next),
          percent: input.percent,
          category: input.category ?? null,
        },
        ipAddress,
      });
      updated += 1;
    }
    return { updated };
  });
}

export const HISTORY_LIMIT = 50;

/** Snapshot keys that say nothing a person needs (the id, the price again in cents). */
const HISTORY_IGNORED = new Set(['id', 'priceCents']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The properties that differ between an audit row's before and after, for one service. */
export function auditChanges(
  serviceId: string,
  before: unknown,
  after: unknown,
): ServiceHistoryEntryDto['changes'] {
  if (Array.isArray(after)) {
    // service.reorder: lists of { id, sortOrder } for every service moved at once.
    const pick = (list: unknown) =>
      Array.isArray(list)
        ? (list as unknown[]).find((e) => isRecord(e) && e.id === serviceId)
        : undefined;
    const b = pick(before);
    const a = pick(after);
    return [
      {
        field: 'sortOrder',
        before: isRecord(b) ? (b.sortOrder ?? null) : null,
        after: isRecord(a) ? (a.sortOrder ?? null) : null,
      },
    ];
  }
  const b = isRecord(before) ? before : {};
  const a = isRecord(after) ? after : {};
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return keys
    .filter((k) => !HISTORY_IGNORED.has(k) && JSON.stringify(b[k]) !== JSON.stringify(a[k]))
    .map((k) => ({ field: k, before: b[k] ?? null, after: a[k] ?? null }));
}

/**
 * The audit log of one service, newest first: its own rows, and the catalogue reorders that
 * moved it. 404 for an unknown service.
 */
export async function serviceHistory(
  db: Db,
  id: string,
  limit = HISTORY_LIMIT,
): Promise<ServiceHistoryEntryDto[]> {
  await getService(db, id, { includeInactive: true });
  const rows = await db
    .select({
      id: auditLog.id,
      action: auditLog.action,
      before: auditLog.before,
      after: auditLog.after,
      createdAt: auditLog.createdAt,
      actorName: user.name,
      actorEmail: user.email,
    })
    .from(auditLog)
    .leftJoin(user, eq(user.id, auditLog.actorId))
    .where(
      and(
        eq(auditLog.targetType, 'service'),
        or(
          eq(auditLog.targetId, id),
          and(
            eq(auditLog.targetId, 'catalogue'),
            eq(auditLog.action, 'service.reorder'),
            sql`${auditLog.after} @> ${JSON.stringify([{ id }])}::jsonb`,
          ),
        ),
      ),
    )
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(limit);
  return rows.map((r) => ({
    id: r.id,
    action: r.action,
    actor: r.actorEmail === null ? null : { name: r.actorName ?? '', email: r.actorEmail },
    createdAt: r.createdAt.toISOString(),
    changes: auditChanges(id, r.before, r.after),
  }));
}

// Price groups, their overrides, the customer's group and special prices (admins only). Every
// change is audited with its before and after, in the same transaction.
import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import { formatAmount, parseAmount } from '../../../shared/money';
import { belowCost, discounted, formatPercent, parsePercent } from '../../../shared/pricing';
import type {
  CustomerPricesDto,
  PriceGroupDto,
  PriceGroupInput,
  PriceGroupPatch,
  PriceOverrideInput,
  SpecialPricesInput,
} from '../../../shared/schemas/price-groups';
import { queryRows, type Db, type Tx } from '../../db/client';
import { user } from '../../db/schema/auth';
import { service } from '../../db/schema/catalogue';
import {
  customerPriceGroup,
  priceGroup,
  priceGroupOverride,
  specialPrice,
} from '../../db/schema/prices';
import { serviceRoute, supplierService } from '../../db/schema/suppliers';
import { AppError } from '../../lib/errors';
import { recordAudit } from '../audit/audit.service';
import { requireCustomer } from '../admin/customer.service';

const GROUP_NOT_FOUND = 'El grupo de precios no existe.';

type Actor = { id: string; ip: string | null };
type GroupRow = typeof priceGroup.$inferSelect;

/** The primary route's current cost (micro-units, same unit as the service) of these services. */
async function primaryCosts(db: Db | Tx, serviceIds: string[]): Promise<Map<string, bigint>> {
  const out = new Map<string, bigint>();
  if (serviceIds.length === 0) return out;
  const rows = await db
    .select({
      serviceId: serviceRoute.serviceId,
      position: serviceRoute.position,
      costMicros: supplierService.costMicros,
      missingSince: supplierService.missingSince,
    })
    .from(serviceRoute)
    .innerJoin(
      supplierService,
      and(
        eq(supplierService.supplierId, serviceRoute.supplierId),
        eq(supplierService.remoteId, serviceRoute.remoteId),
      ),
    )
    .where(inArray(serviceRoute.serviceId, serviceIds))
    .orderBy(asc(serviceRoute.serviceId), asc(serviceRoute.position));
  const seen = new Set<string>();
  for (const r of rows) {
    if (seen.has(r.serviceId)) continue;
    seen.add(r.serviceId);
    if (r.missingSince === null) out.set(r.serviceId, r.costMicros);
  }
  return out;
}

async function serviceInfo(db: Db | Tx, ids: string[]) {
  if (ids.length === 0) return new Map<string, { name: string; price: bigint }>();
  const rows = await db
    .select({ id: service.id, name: service.name, price: service.price })
    .from(service)
    .where(inArray(service.id, ids));
  return new Map(rows.map((r) => [r.id, { name: r.name, price: r.price }]));
}

async function groupDtos(db: Db | Tx, groups: GroupRow[]): Promise<PriceGroupDto[]> {
  if (groups.length === 0) return [];
  const ids = groups.map((g) => g.id);
  const overrides = await db
    .select()
    .from(priceGroupOverride)
    .where(inArray(priceGroupOverride.groupId, ids))
    .orderBy(asc(priceGroupOverride.category), asc(priceGroupOverride.serviceId));
  const serviceIds = [...new Set(overrides.flatMap((o) => (o.serviceId ? [o.serviceId] : [])))];
  // One after the other: `db` may be a transaction (one connection, one query at a time).
  const services = await serviceInfo(db, serviceIds);
  const costs = await primaryCosts(db, serviceIds);
  const members = await db
    .select({ groupId: customerPriceGroup.groupId, n: count() })
    .from(customerPriceGroup)
    .innerJoin(user, eq(user.id, customerPriceGroup.userId))
    .where(isNull(user.deletedAt))
    .groupBy(customerPriceGroup.groupId);
  const unassigned = await db
    .select({ n: count() })
    .from(user)
    .where(
      and(
        isNull(user.deletedAt),
        eq(user.role, 'customer'),
        sql`NOT EXISTS (SELECT 1 FROM customer_price_group c WHERE c.user_id = ${user.id})`,
      ),
    );
  const memberCount = new Map(members.map((m) => [m.groupId, Number(m.n)]));
  return groups.map((g) => {
    const mine = overrides
      .filter((o) => o.groupId === g.id)
      .map((o) => {
        const svc = o.serviceId ? services.get(o.serviceId) : undefined;
        const price =
          o.price ?? (svc && o.discountBp !== null ? discounted(svc.price, o.discountBp) : null);
        const cost = o.serviceId ? costs.get(o.serviceId) : undefined;
        return {
          category: o.category,
          serviceId: o.serviceId,
          serviceName: svc?.name ?? null,
          basePrice: svc ? formatAmount(svc.price) : null,
          discountPercent: o.discountBp === null ? null : formatPercent(o.discountBp),
          price: o.price === null ? null : formatAmount(o.price),
          belowCost: price !== null && belowCost(price, cost),
        };
      })
      // Categories first, then services by name.
      .sort((a, b) =>
        a.category && b.category
          ? a.category.localeCompare(b.category)
          : a.category
            ? -1
            : b.category
              ? 1
              : (a.serviceName ?? '').localeCompare(b.serviceName ?? '', 'es'),
      );
    return {
      id: g.id,
      name: g.name,
      discountPercent: formatPercent(g.discountBp),
      isDefault: g.isDefault,
      customers: (memberCount.get(g.id) ?? 0) + (g.isDefault ? Number(unassigned[0]?.n ?? 0) : 0),
      overrides: mine,
      belowCost: mine.some((o) => o.belowCost),
    };
  });
}

export async function listPriceGroups(db: Db): Promise<PriceGroupDto[]> {
  const groups = await db
    .select()
    .from(priceGroup)
    .orderBy(sql`${priceGroup.isDefault} DESC`, asc(priceGroup.name));
  return groupDtos(db, groups);
}

async function findGroup(db: Db | Tx, id: string, lock = false): Promise<GroupRow> {
  const query = db.select().from(priceGroup).where(eq(priceGroup.id, id));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new AppError('NOT_FOUND', GROUP_NOT_FOUND);
  return row;
}

export async function getPriceGroup(db: Db, id: string): Promise<PriceGroupDto> {
  const [dto] = await groupDtos(db, [await findGroup(db, id)]);
  if (!dto) throw new AppError('NOT_FOUND', GROUP_NOT_FOUND);
  return dto;
}

type OverrideValues = {
  category: string | null;
  serviceId: string | null;
  discountBp: number | null;
  price: bigint | null;
};

/** Checks the overrides (known services, no target twice) and turns them into rows. */
async function overrideValues(
  db: Db | Tx,
  overrides: PriceOverrideInput[],
): Promise<OverrideValues[]> {
  const errors: Record<string, string> = {};
  const ids = [...new Set(overrides.flatMap((o) => (o.serviceId ? [o.serviceId] : [])))];
  const known = await serviceInfo(db, ids);
  const seen = new Set<string>();
  const out: OverrideValues[] = [];
  overrides.forEach((o, i) => {
    const target = o.category ? `c:${o.category}` : `s:${o.serviceId ?? ''}`;
    if (o.serviceId && !known.has(o.serviceId))
      errors[`overrides.${i}.serviceId`] = 'El servicio no existe.';
    if (seen.has(target))
      errors[`overrides.${i}.${o.category ? 'category' : 'serviceId'}`] = o.category
        ? 'Esa categoría ya tiene una excepción.'
        : 'Ese servicio ya tiene una excepción.';
    seen.add(target);
    out.push({
      category: o.category ?? null,
      serviceId: o.serviceId ?? null,
      discountBp: o.discountPercent !== undefined ? parsePercent(o.discountPercent) : null,
      price: o.price !== undefined ? parseAmount(o.price) : null,
    });
  });
  if (Object.keys(errors).length > 0) throw new AppError('VALIDATION_FAILED', undefined, errors);
  return out;
}

async function requireFreeName(db: Db | Tx, name: string, exceptId: string | null) {
  const [clash] = await db
    .select({ id: priceGroup.id })
    .from(priceGroup)
    .where(sql`lower(${priceGroup.name}) = lower(${name})`);
  if (clash && clash.id !== exceptId)
    throw new AppError('VALIDATION_FAILED', undefined, { name: 'Ya hay un grupo con ese nombre.' });
}

/** The audit snapshot of a group: its fields and its overrides as stored. */
async function snapshot(tx: Tx, id: string) {
  const [dto] = await groupDtos(tx, [await findGroup(tx, id)]);
  if (!dto) return null;
  const { customers: _customers, belowCost: _below, ...rest } = dto;
  return {
    ...rest,
    overrides: rest.overrides.map(({ belowCost: _b, basePrice: _p, ...o }) => o),
  };
}

/** Makes `id` the only default group (the former default loses the mark). */
async function makeDefault(tx: Tx, id: string) {
  await tx
    .update(priceGroup)
    .set({ isDefault: false, updatedAt: new Date() })
    .where(and(eq(priceGroup.isDefault, true), sql`${priceGroup.id} <> ${id}`));
  await tx
    .update(priceGroup)
    .set({ isDefault: true, updatedAt: new Date() })
    .where(eq(priceGroup.id, id));
}

export async function createPriceGroup(
  db: Db,
  actor: Actor,
  input: PriceGroupInput,
): Promise<PriceGroupDto> {
  const id = await db.transaction(async (tx) => {
    const name = input.name.trim();
    await requireFreeName(tx, name, null);
    const overrides = await overrideValues(tx, input.overrides ?? []);
    const [row] = await tx
      .insert(priceGroup)
      .values({ name, discountBp: parsePercent(input.discountPercent) ?? 0 })
      .returning();
    if (!row) throw new Error('The price group was not saved.');
    if (overrides.length > 0)
      await tx.insert(priceGroupOverride).values(overrides.map((o) => ({ ...o, groupId: row.id })));
    // The first group, or one marked so, becomes the default.
    const [existingDefault] = await tx
      .select({ id: priceGroup.id })
      .from(priceGroup)
      .where(eq(priceGroup.isDefault, true));
    if (input.isDefault === true || !existingDefault) await makeDefault(tx, row.id);
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'price_group.create',
      targetType: 'price_group',
      targetId: row.id,
      before: null,
      after: await snapshot(tx, row.id),
      ipAddress: actor.ip,
    });
    return row.id;
  });
  return getPriceGroup(db, id);
}

export async function updatePriceGroup(
  db: Db,
  actor: Actor,
  id: string,
  patch: PriceGroupPatch,
): Promise<PriceGroupDto> {
  await db.transaction(async (tx) => {
    const current = await findGroup(tx, id, true);
    const before = await snapshot(tx, id);
    if (patch.isDefault === false && current.isDefault)
      throw new AppError(
        'CONFLICT',
        'Siempre tiene que haber un grupo predeterminado: marca otro grupo como predeterminado.',
      );
    const set: Partial<typeof priceGroup.$inferInsert> = { updatedAt: new Date() };
    if (patch.name !== undefined) {
      await requireFreeName(tx, patch.name.trim(), id);
      set.name = patch.name.trim();
    }
    if (patch.discountPercent !== undefined)
      set.discountBp = parsePercent(patch.discountPercent) ?? 0;
    await tx.update(priceGroup).set(set).where(eq(priceGroup.id, id));
    if (patch.overrides !== undefined) {
      const overrides = await overrideValues(tx, patch.overrides);
      await tx.delete(priceGroupOverride).where(eq(priceGroupOverride.groupId, id));
      if (overrides.length > 0)
        await tx.insert(priceGroupOverride).values(overrides.map((o) => ({ ...o, groupId: id })));
    }
    if (patch.isDefault === true && !current.isDefault) await makeDefault(tx, id);
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'price_group.update',
      targetType: 'price_group',
      targetId: id,
      before,
      after: await snapshot(tx, id),
      ipAddress: actor.ip,
    });
  });
  return getPriceGroup(db, id);
}

/** Deletes a group: its customers go back to the default group. The default cannot be deleted. */
export async function deletePriceGroup(db: Db, actor: Actor, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const current = await findGroup(tx, id, true);
    if (current.isDefault)
      throw new AppError(
        'CONFLICT',
        'No se puede eliminar el grupo predeterminado. Marca otro grupo como predeterminado y vuelve a intentarlo.',
      );
    const before = await snapshot(tx, id);
    const moved = await tx
      .delete(customerPriceGroup)
      .where(eq(customerPriceGroup.groupId, id))
      .returning({ userId: customerPriceGroup.userId });
    await tx.delete(priceGroup).where(eq(priceGroup.id, id));
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'price_group.delete',
      targetType: 'price_group',
      targetId: id,
      before: { ...before, customersMovedToDefault: moved.map((m) => m.userId) },
      after: null,
      ipAddress: actor.ip,
    });
  });
}

/** A customer's group and special prices, as the admin edits them. */
export async function customerPrices(db: Db | Tx, userId: string): Promise<CustomerPricesDto> {
  const [assigned] = await db
    .select({ id: priceGroup.id, name: priceGroup.name, isDefault: priceGroup.isDefault })
    .from(customerPriceGroup)
    .innerJoin(priceGroup, eq(priceGroup.id, customerPriceGroup.groupId))
    .where(eq(customerPriceGroup.userId, userId));
  const [fallback] = assigned
    ? []
    : await db
        .select({ id: priceGroup.id, name: priceGroup.name, isDefault: priceGroup.isDefault })
        .from(priceGroup)
        .where(eq(priceGroup.isDefault, true));
  const specials = await db
    .select({
      serviceId: specialPrice.serviceId,
      price: specialPrice.price,
      serviceName: service.name,
      basePrice: service.price,
    })
    .from(specialPrice)
    .innerJoin(service, eq(service.id, specialPrice.serviceId))
    .where(eq(specialPrice.userId, userId))
    .orderBy(asc(service.name));
  const costs = await primaryCosts(
    db,
    specials.map((s) => s.serviceId),
  );
  return {
    group: assigned ?? fallback ?? null,
    assigned: assigned !== undefined,
    specialPrices: specials.map((s) => ({
      serviceId: s.serviceId,
      serviceName: s.serviceName,
      basePrice: formatAmount(s.basePrice),
      price: formatAmount(s.price),
      belowCost: belowCost(s.price, costs.get(s.serviceId)),
    })),
  };
}

export async function getCustomerPrices(db: Db, userId: string): Promise<CustomerPricesDto> {
  await requireCustomer(db, userId);
  return customerPrices(db, userId);
}

/** Moves a customer to a group (null: back to the default). Applies from the next order. */
export async function setCustomerGroup(
  db: Db,
  actor: Actor,
  userId: string,
  groupId: string | null,
): Promise<CustomerPricesDto> {
  await requireCustomer(db, userId);
  return db.transaction(async (tx) => {
    const before = await customerPrices(tx, userId);
    if (groupId !== null) await findGroup(tx, groupId);
    if (groupId === null)
      await tx.delete(customerPriceGroup).where(eq(customerPriceGroup.userId, userId));
    else
      await tx
        .insert(customerPriceGroup)
        .values({ userId, groupId })
        .onConflictDoUpdate({
          target: customerPriceGroup.userId,
          set: { groupId, updatedAt: new Date() },
        });
    const after = await customerPrices(tx, userId);
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'customer.price_group',
      targetType: 'user',
      targetId: userId,
      before: { group: before.group, assigned: before.assigned },
      after: { group: after.group, assigned: after.assigned },
      ipAddress: actor.ip,
    });
    return after;
  });
}

/** Replaces a customer's special prices with this list. */
export async function setSpecialPrices(
  db: Db,
  actor: Actor,
  userId: string,
  input: SpecialPricesInput,
): Promise<CustomerPricesDto> {
  await requireCustomer(db, userId);
  return db.transaction(async (tx) => {
    const errors: Record<string, string> = {};
    const known = await serviceInfo(
      tx,
      input.items.map((i) => i.serviceId),
    );
    const seen = new Set<string>();
    input.items.forEach((item, i) => {
      if (!known.has(item.serviceId)) errors[`items.${i}.serviceId`] = 'El servicio no existe.';
      else if (seen.has(item.serviceId))
        errors[`items.${i}.serviceId`] = 'Ese servicio está repetido en la lista.';
      seen.add(item.serviceId);
    });
    if (Object.keys(errors).length > 0) throw new AppError('VALIDATION_FAILED', undefined, errors);
    const before = await customerPrices(tx, userId);
    await tx.delete(specialPrice).where(eq(specialPrice.userId, userId));
    if (input.items.length > 0)
      await tx.insert(specialPrice).values(
        input.items.map((i) => ({
          userId,
          serviceId: i.serviceId,
          price: parseAmount(i.price) ?? 1n,
        })),
      );
    const after = await customerPrices(tx, userId);
    const plain = (d: CustomerPricesDto) =>
      d.specialPrices.map((s) => ({ serviceId: s.serviceId, price: s.price }));
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'customer.special_prices',
      targetType: 'user',
      targetId: userId,
      before: { specialPrices: plain(before) },
      after: { specialPrices: plain(after) },
      ipAddress: actor.ip,
    });
    return after;
  });
}

/** The customer's group as Mi perfil shows it (the default group when none was chosen). */
export async function myPriceGroup(
  db: Db,
  userId: string,
): Promise<{ id: string; name: string } | null> {
  const [row] = await queryRows<{ id: string; name: string }>(
    db,
    sql`SELECT pg.id::text AS id, pg.name AS name FROM price_group pg
         WHERE pg.id = COALESCE(
           (SELECT c.group_id FROM customer_price_group c WHERE c.user_id = ${userId}),
           (SELECT d.id FROM price_group d WHERE d.is_default))`,
  );
  return row ? { id: row.id, name: row.name } : null;
}

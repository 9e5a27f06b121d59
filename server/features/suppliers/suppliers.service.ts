// Suppliers as admins manage them: connect (tested before saving), test, edit, disable; their
// remote catalogue (cached), imports into our catalogue, and each service's routes.
import { randomUUID } from 'node:crypto';
import { and, asc, count, eq, ilike, inArray, isNull, notInArray, or, sql } from 'drizzle-orm';
import {
  formatAmount,
  formatSupplierMoney,
  markupPriceCents,
  microsToCentsCeil,
} from '../../../shared/money';
import { MAX_PRICE_CENTS, type AdminServiceDto } from '../../../shared/schemas/catalogue';
import { serviceFieldListSchema, type ServiceField } from '../../../shared/schemas/service-fields';
import { SMM_TYPE_SPECS, smmTypeOf, type SmmType } from '../../../shared/smm-types';
import { clipText } from '../../../shared/text';
import {
  SUPPLIER_STATE_LABELS,
  type CreateSupplierInput,
  type ImportServicesInput,
  type RemoteServiceDto,
  type RemoteServiceList,
  type SetServiceRoutesInput,
  type SupplierDto,
  type SupplierTestResult,
  type UpdateSupplierInput,
} from '../../../shared/schemas/suppliers';
import type { Db, Tx } from '../../db/client';
import { service } from '../../db/schema/catalogue';
import { serviceRoute, supplier, supplierService } from '../../db/schema/suppliers';
import type { Env } from '../../env';
import type { JobQueue } from '../../jobs/queue';
import { AppError } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import type { Mailer } from '../../lib/mail';
import type { Metrics } from '../../lib/metrics';
import { formatMicros } from '../../suppliers/decimal';
import { checkSupplierUrl } from '../../suppliers/http';
import type {
  Balance,
  CallOutcome,
  RemoteService,
  SupplierConnection,
} from '../../suppliers/types';
import { recordAudit } from '../audit/audit.service';
import { adminServiceDtos, insertServiceTx } from '../catalogue/catalogue.service';
import {
  adapterFor,
  adapterOfRow,
  keyContext,
  logExchanges,
  secretBox,
  settingsOf,
  type SupplierRow,
} from './connection';
import { apiSupplierState } from './states';
import { notifyLowBalance } from './suppliers.emails';
import { queueNotification } from '../notifications/events';

export type SupplierDeps = {
  db: Db;
  env: Env;
  metrics: Metrics;
  mailer: Mailer;
  logger: Logger;
  jobs: JobQueue;
  /** The instance running the workers (app_instance.id): its claims are recorded as its own. */
  instanceId?: string;
};

/** A cached catalogue younger than this is used as it is when an admin browses it. */
export const CATALOGUE_FRESH_MS = 10 * 60 * 1000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NOT_FOUND = 'El proveedor no existe.';

function hintOf(apiKey: string): string {
  return `••••${apiKey.slice(-4)}`;
}

export function toSupplierDto(row: SupplierRow, routedServices = 0): SupplierDto {
  const state = apiSupplierState(row.state);
  return {
    id: row.id,
    name: row.name,
    protocol: row.protocol === 'smm' ? 'smm' : 'dhru',
    url: row.url,
    username: row.username,
    apiKeyHint: row.apiKeyHint,
    state,
    stateLabel: SUPPLIER_STATE_LABELS[state],
    balance: row.balanceMicros === null ? null : formatMicros(row.balanceMicros),
    currency: row.currency,
    lowBalanceThreshold: row.lowBalanceMicros === null ? null : formatMicros(row.lowBalanceMicros),
    lastError: row.lastError,
    lastCheckedAt: row.lastCheckedAt?.toISOString() ?? null,
    settings: settingsOf(row),
    catalogueFetchedAt: row.catalogueFetchedAt?.toISOString() ?? null,
    catalogueIssues: row.catalogueIssues,
    catalogueIssueCount: row.catalogueIssueCount,
    routedServices,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function routedCounts(db: Db | Tx, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      supplierId: serviceRoute.supplierId,
      n: count(sql`DISTINCT ${serviceRoute.serviceId}`),
    })
    .from(serviceRoute)
    .where(inArray(serviceRoute.supplierId, ids))
    .groupBy(serviceRoute.supplierId);
  return new Map(rows.map((r) => [r.supplierId, Number(r.n)]));
}

export async function listSuppliers(db: Db): Promise<SupplierDto[]> {
  const rows = await db.select().from(supplier).orderBy(asc(supplier.name));
  const counts = await routedCounts(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toSupplierDto(r, counts.get(r.id) ?? 0));
}

export async function findSupplier(db: Db | Tx, id: string): Promise<SupplierRow> {
  if (!UUID.test(id)) throw new AppError('NOT_FOUND', NOT_FOUND);
  const [row] = await db.select().from(supplier).where(eq(supplier.id, id));
  if (!row) throw new AppError('NOT_FOUND', NOT_FOUND);
  return row;
}

export async function getSupplier(db: Db, id: string): Promise<SupplierDto> {
  const row = await findSupplier(db, id);
  const counts = await routedCounts(db, [row.id]);
  return toSupplierDto(row, counts.get(row.id) ?? 0);
}

/** What a failed call tells an admin, in Spanish, with the supplier's own words. */
export function failureMessage(outcome: Extract<CallOutcome<unknown>, { ok: false }>): string {
  switch (outcome.kind) {
    case 'not-sent':
      return `No pudimos conectar con el proveedor: ${outcome.message}`;
    case 'ambiguous':
      return `El proveedor no dio una respuesta válida: ${outcome.message}`;
    default:
      return `El proveedor respondió: ${outcome.message}`;
  }
}

function balanceMessage(balance: Balance): string {
  return `Conexión correcta. Saldo: ${formatSupplierMoney(formatMicros(balance.balanceMicros), balance.currency)}.`;
}

async function assertNameFree(db: Db, name: string, exceptId?: string): Promise<void> {
  const [taken] = await db
    .select({ id: supplier.id })
    .from(supplier)
    .where(sql`lower(${supplier.name}) = lower(${name})`);
  if (taken && taken.id !== exceptId) {
    throw new AppError('VALIDATION_FAILED', undefined, {
      name: 'Ya hay un proveedor con ese nombre.',
    });
  }
}

function assertUrl(url: string): void {
  const checked = checkSupplierUrl(url);
  if (!checked.ok) throw new AppError('VALIDATION_FAILED', undefined, { url: checked.reason });
}

/**
 * Records a supplier's health after a call: a success clears a failing state, a failure marks
 * it failing (a disabled supplier stays disabled). The success path touches the row only when
 * something changes, so busy suppliers do not serialise every order on one row.
 */
export async function recordHealth(
  db: Db | Tx,
  supplierId: string,
  result: { ok: true } | { ok: false; message: string },
): Promise<void> {
  if (result.ok) {
    await db
      .update(supplier)
      .set({
        state: sql`CASE WHEN ${supplier.state} = 'failing' THEN 'active' ELSE ${supplier.state} END`,
        consecutiveFailures: 0,
        lastError: null,
        updatedAt: new Date(),
      })
      .where(
        and(
          eq(supplier.id, supplierId),
          or(sql`${supplier.state} = 'failing'`, sql`${supplier.consecutiveFailures} > 0`),
        ),
      );
    return;
  }
  await db.transaction(async (tx) => {
    const [turned] = await tx
      .update(supplier)
      .set({ state: 'failing', lastError: result.message.slice(0, 1000) })
      .where(and(eq(supplier.id, supplierId), eq(supplier.state, 'active')))
      .returning({ id: supplier.id });
    await tx
      .update(supplier)
      .set({
        state: sql`CASE WHEN ${supplier.state} = 'disabled' THEN 'disabled' ELSE 'failing' END`,
        consecutiveFailures: sql`${supplier.consecutiveFailures} + 1`,
        lastError: result.message.slice(0, 1000),
        updatedAt: new Date(),
      })
      .where(eq(supplier.id, supplierId));
    // Staff hear it once, when an active supplier starts failing.
    if (turned)
      await queueNotification(tx, { kind: 'supplier.failing', supplierId, reason: 'failing' });
  });
}

/**
 * Stores a balance just read. When it falls below the supplier's threshold for the first time
 * the admins are e-mailed once; the alert re-arms when the balance is back above it.
 */
export async function recordBalance(
  deps: Pick<SupplierDeps, 'db' | 'env' | 'mailer' | 'logger'>,
  row: SupplierRow,
  balance: Balance,
): Promise<void> {
  const now = new Date();
  const values = {
    balanceMicros: balance.balanceMicros,
    currency: balance.currency,
    lastCheckedAt: now,
    updatedAt: now,
  };
  const threshold = row.lowBalanceMicros;
  if (threshold === null || balance.balanceMicros >= threshold) {
    await deps.db
      .update(supplier)
      .set({ ...values, lowBalanceAlertedAt: null })
      .where(eq(supplier.id, row.id));
    return;
  }
  // Below: only the update that sets the mark sends the e-mail (concurrent reads send one).
  const marked = await deps.db.transaction(async (tx) => {
    const [set] = await tx
      .update(supplier)
      .set({ ...values, lowBalanceAlertedAt: now })
      .where(and(eq(supplier.id, row.id), isNull(supplier.lowBalanceAlertedAt)))
      .returning({ id: supplier.id });
    if (set)
      await queueNotification(tx, {
        kind: 'supplier.failing',
        supplierId: row.id,
        reason: 'low_balance',
      });
    return set;
  });
  if (!marked) {
    await deps.db.update(supplier).set(values).where(eq(supplier.id, row.id));
    return;
  }
  notifyLowBalance(
    deps,
    row,
    formatMicros(balance.balanceMicros),
    formatMicros(threshold),
    balance.currency,
  );
}

/** POST /api/admin/suppliers: tests the credentials (balance), and saves only when they work. */
export async function createSupplier(
  deps: SupplierDeps,
  adminId: string,
  input: CreateSupplierInput,
  ipAddress: string | null,
): Promise<SupplierDto> {
  assertUrl(input.url);
  await assertNameFree(deps.db, input.name);
  const id = randomUUID();
  const settings = input.settings ?? {};
  const conn: SupplierConnection = {
    id,
    protocol: input.protocol,
    url: input.url,
    username: input.username ?? null,
    apiKey: input.apiKey,
    settings,
  };
  const outcome = await adapterFor(deps, conn, input.name).balance();
  if (!outcome.ok) throw new AppError('SUPPLIER_TEST_FAILED', failureMessage(outcome));
  const balance = outcome.value;
  const row = await deps.db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(supplier)
      .values({
        id,
        name: input.name,
        protocol: input.protocol,
        url: input.url,
        username: input.username ?? null,
        apiKeySealed: secretBox(deps.env).seal(input.apiKey, keyContext(id)),
        apiKeyHint: hintOf(input.apiKey),
        state: 'active',
        balanceMicros: balance.balanceMicros,
        currency: balance.currency,
        lowBalanceMicros:
          input.lowBalanceThreshold === undefined || input.lowBalanceThreshold === null
            ? null
            : input.lowBalanceThreshold * 10_000n,
        lastCheckedAt: new Date(),
        settings,
      })
      .returning();
    if (!inserted) throw new Error('insert returned no row');
    await logExchanges(tx, id, [], outcome);
    await recordAudit(tx, {
      actorId: adminId,
      action: 'supplier.create',
      targetType: 'supplier',
      targetId: id,
      after: toSupplierDto(inserted),
      ipAddress,
    });
    return inserted;
  });
  if (row.lowBalanceMicros !== null && balance.balanceMicros < row.lowBalanceMicros) {
    await recordBalance(deps, row, balance);
  }
  return toSupplierDto(row);
}

/** "Probar conexión": reads the balance now and records the supplier's health. */
export async function testSupplier(deps: SupplierDeps, id: string): Promise<SupplierTestResult> {
  const row = await findSupplier(deps.db, id);
  const built = adapterOfRow(deps, row);
  let ok: boolean;
  let message: string;
  if (!built.ok) {
    ok = false;
    message = built.message;
    await recordHealth(deps.db, row.id, { ok: false, message });
    await deps.db
      .update(supplier)
      .set({ lastCheckedAt: new Date() })
      .where(eq(supplier.id, row.id));
  } else {
    const outcome = await built.adapter.balance();
    await logExchanges(deps.db, row.id, [], outcome);
    if (outcome.ok) {
      ok = true;
      message = balanceMessage(outcome.value);
      await recordHealth(deps.db, row.id, { ok: true });
      await recordBalance(deps, row, outcome.value);
    } else {
      ok = false;
      message = failureMessage(outcome);
      await recordHealth(deps.db, row.id, { ok: false, message });
      await deps.db
        .update(supplier)
        .set({ lastCheckedAt: new Date() })
        .where(eq(supplier.id, row.id));
    }
  }
  return { ok, message, supplier: await getSupplier(deps.db, row.id) };
}

/** PATCH /api/admin/suppliers/:id. New credentials or URL are tested before they are saved. */
export async function updateSupplier(
  deps: SupplierDeps,
  adminId: string,
  id: string,
  patch: UpdateSupplierInput,
  ipAddress: string | null,
): Promise<SupplierDto> {
  const before = await findSupplier(deps.db, id);
  if (patch.url !== undefined) assertUrl(patch.url);
  if (patch.name !== undefined) await assertNameFree(deps.db, patch.name, id);
  if (before.protocol === 'dhru' && patch.username !== undefined && !patch.username) {
    throw new AppError('VALIDATION_FAILED', undefined, {
      username: 'Un proveedor DHRU necesita el usuario (normalmente el correo de la cuenta).',
    });
  }
  const settings = { ...before.settings, ...(patch.settings ?? {}) };
  const credentialsChanged =
    (patch.url !== undefined && patch.url !== before.url) ||
    (patch.username !== undefined && patch.username !== before.username) ||
    patch.apiKey !== undefined;
  let tested: Balance | null = null;
  if (credentialsChanged) {
    const current = adapterOfRow(deps, before);
    const apiKey =
      patch.apiKey ??
      (current.ok ? secretBox(deps.env).open(before.apiKeySealed, keyContext(id)) : null);
    if (apiKey === null) {
      throw new AppError('VALIDATION_FAILED', undefined, {
        apiKey: 'Escribe de nuevo la clave API: la guardada no se puede leer.',
      });
    }
    const outcome = await adapterFor(
      deps,
      {
        id,
        protocol: before.protocol === 'smm' ? 'smm' : 'dhru',
        url: patch.url ?? before.url,
        username: patch.username === undefined ? before.username : patch.username,
        apiKey,
        settings,
      },
      before.name,
    ).balance();
    if (!outcome.ok) throw new AppError('SUPPLIER_TEST_FAILED', failureMessage(outcome));
    tested = outcome.value;
  }
  const after = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(supplier)
      .set({
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.url !== undefined ? { url: patch.url } : {}),
        ...(patch.username !== undefined ? { username: patch.username } : {}),
        ...(patch.apiKey !== undefined
          ? {
              apiKeySealed: secretBox(deps.env).seal(patch.apiKey, keyContext(id)),
              apiKeyHint: hintOf(patch.apiKey),
            }
          : {}),
        ...(patch.lowBalanceThreshold !== undefined
          ? {
              lowBalanceMicros:
                patch.lowBalanceThreshold === null ? null : patch.lowBalanceThreshold * 10_000n,
              lowBalanceAlertedAt: null,
            }
          : {}),
        ...(patch.state === 'desactivado' ? { state: 'disabled' } : {}),
        ...(patch.state === 'activo' && before.state === 'disabled' ? { state: 'active' } : {}),
        ...(tested
          ? {
              state: patch.state === 'desactivado' ? 'disabled' : 'active',
              balanceMicros: tested.balanceMicros,
              currency: tested.currency,
              lastCheckedAt: new Date(),
              lastError: null,
              consecutiveFailures: 0,
            }
          : {}),
        settings,
        updatedAt: new Date(),
      })
      .where(eq(supplier.id, id))
      .returning();
    if (!row) throw new AppError('NOT_FOUND', NOT_FOUND);
    await recordAudit(tx, {
      actorId: adminId,
      action: 'supplier.update',
      targetType: 'supplier',
      targetId: id,
      before: toSupplierDto(before),
      after: { ...toSupplierDto(row), apiKeyChanged: patch.apiKey !== undefined },
      ipAddress,
    });
    return row;
  });
  if (tested) await recordBalance(deps, after, tested);
  return getSupplier(deps.db, id);
}

// ─── Remote catalogue ────────────────────────────────────────────────────────────────────────

const UPSERT_CHUNK = 500;

/** Catalogue issues kept on the supplier row (the count says how many there were). */
export const CATALOGUE_ISSUES_KEPT = 100;

/**
 * Reads the supplier's catalogue and stores it: services seen are (re)listed, those no longer
 * listed get `missing_since`. Returns the services read, or why it failed.
 */
export async function refreshCatalogue(
  deps: SupplierDeps,
  row: SupplierRow,
): Promise<{ ok: true; services: RemoteService[] } | { ok: false; message: string }> {
  const built = adapterOfRow(deps, row);
  if (!built.ok) return { ok: false, message: built.message };
  const outcome = await built.adapter.services();
  if (!outcome.ok) {
    const message = failureMessage(outcome);
    await logExchanges(deps.db, row.id, [], outcome);
    await recordHealth(deps.db, row.id, { ok: false, message });
    return { ok: false, message };
  }
  const { services, issues } = outcome.value;
  const now = new Date();
  await deps.db.transaction(async (tx) => {
    for (let i = 0; i < services.length; i += UPSERT_CHUNK) {
      const chunk = services.slice(i, i + UPSERT_CHUNK);
      await tx
        .insert(supplierService)
        .values(
          chunk.map((s) => ({
            supplierId: row.id,
            remoteId: s.remoteId,
            name: s.name,
            groupName: s.group,
            type: s.type,
            unit: s.unit,
            costMicros: s.costMicros,
            costProblem: s.costProblem,
            minQuantity: s.minQuantity,
            maxQuantity: s.maxQuantity,
            deliveryTime: s.deliveryTime,
            info: s.info,
            fields: s.fields,
            importable: s.importable,
            reason: s.reason,
            refill: s.refill ?? false,
            cancel: s.cancel ?? false,
            dripfeed: s.dripfeed ?? false,
            missingSince: null,
            seenAt: now,
          })),
        )
        .onConflictDoUpdate({
          target: [supplierService.supplierId, supplierService.remoteId],
          set: {
            name: sql`excluded.name`,
            groupName: sql`excluded.group_name`,
            type: sql`excluded.type`,
            unit: sql`excluded.unit`,
            // An unusable new cost keeps the last good one (and says why it was not taken).
            costMicros: sql`CASE WHEN excluded.cost_problem IS NULL THEN excluded.cost_micros ELSE ${supplierService.costMicros} END`,
            costProblem: sql`excluded.cost_problem`,
            minQuantity: sql`excluded.min_quantity`,
            maxQuantity: sql`excluded.max_quantity`,
            deliveryTime: sql`excluded.delivery_time`,
            info: sql`excluded.info`,
            fields: sql`excluded.fields`,
            importable: sql`excluded.importable`,
            reason: sql`excluded.reason`,
            refill: sql`excluded.refill`,
            cancel: sql`excluded.cancel`,
            dripfeed: sql`excluded.dripfeed`,
            missingSince: null,
            seenAt: now,
          },
        });
    }
    const seen = services.map((s) => s.remoteId);
    await tx
      .update(supplierService)
      .set({ missingSince: now })
      .where(
        and(
          eq(supplierService.supplierId, row.id),
          isNull(supplierService.missingSince),
          seen.length ? notInArray(supplierService.remoteId, seen) : undefined,
        ),
      );
    await tx
      .update(supplier)
      .set({
        catalogueFetchedAt: now,
        catalogueIssues: issues.slice(0, CATALOGUE_ISSUES_KEPT),
        catalogueIssueCount: issues.length,
        updatedAt: now,
      })
      .where(eq(supplier.id, row.id));
    await logExchanges(tx, row.id, [], outcome);
  });
  await recordHealth(deps.db, row.id, { ok: true });
  return { ok: true, services };
}

type RemoteRow = typeof supplierService.$inferSelect;

function toRemoteDto(
  r: RemoteRow,
  currency: string,
  importedAs: { id: string; name: string }[],
): RemoteServiceDto {
  return {
    remoteId: r.remoteId,
    name: r.name,
    group: r.groupName,
    type: r.type,
    cost: formatMicros(r.costMicros),
    currency,
    deliveryTime: r.deliveryTime,
    unit: r.unit === '1000' ? '1000' : 'order',
    ...(r.minQuantity !== null ? { minQuantity: r.minQuantity } : {}),
    ...(r.maxQuantity !== null ? { maxQuantity: r.maxQuantity } : {}),
    info: r.info,
    fields: r.fields.map((f) => ({
      key: f.key,
      label: f.label,
      type: f.type,
      required: f.required,
    })),
    importable: r.importable && r.missingSince === null,
    reason: r.missingSince !== null ? 'El proveedor ya no ofrece este servicio.' : r.reason,
    missing: r.missingSince !== null,
    importedAs,
  };
}

function isFresh(row: SupplierRow): boolean {
  return (
    row.catalogueFetchedAt !== null &&
    Date.now() - row.catalogueFetchedAt.getTime() < CATALOGUE_FRESH_MS
  );
}

/** GET /api/admin/suppliers/:id/services: the cached catalogue, refreshed when old or asked. */
export async function listRemoteServices(
  deps: SupplierDeps,
  id: string,
  query: { q?: string | undefined; group?: string | undefined; refresh?: string | undefined },
): Promise<RemoteServiceList> {
  let row = await findSupplier(deps.db, id);
  let stale = false;
  let message: string | null = null;
  if (query.refresh === 'true' || !isFresh(row)) {
    const refreshed = await refreshCatalogue(deps, row);
    if (!refreshed.ok) {
      stale = true;
      message =
        row.catalogueFetchedAt === null
          ? `No pudimos leer el catálogo del proveedor. ${refreshed.message}`
          : `No pudimos leer el catálogo ahora; se muestra la última copia. ${refreshed.message}`;
    }
    row = await findSupplier(deps.db, id);
  }
  const q = query.q?.trim();
  const rows = await deps.db
    .select()
    .from(supplierService)
    .where(
      and(
        eq(supplierService.supplierId, id),
        q
          ? or(
              ilike(supplierService.name, `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`),
              eq(supplierService.remoteId, q),
            )
          : undefined,
        query.group ? eq(supplierService.groupName, query.group) : undefined,
      ),
    )
    .orderBy(
      asc(supplierService.groupName),
      asc(supplierService.name),
      asc(supplierService.remoteId),
    );
  const groups = await deps.db
    .selectDistinct({ group: supplierService.groupName })
    .from(supplierService)
    .where(and(eq(supplierService.supplierId, id), isNull(supplierService.missingSince)))
    .orderBy(asc(supplierService.groupName));
  const imported = await deps.db
    .select({ remoteId: serviceRoute.remoteId, id: service.id, name: service.name })
    .from(serviceRoute)
    .innerJoin(service, eq(service.id, serviceRoute.serviceId))
    .where(eq(serviceRoute.supplierId, id));
  const importedBy = new Map<string, { id: string; name: string }[]>();
  for (const i of imported) {
    importedBy.set(i.remoteId, [...(importedBy.get(i.remoteId) ?? []), { id: i.id, name: i.name }]);
  }
  const currency = row.currency ?? 'USD';
  return {
    items: rows.map((r) => toRemoteDto(r, currency, importedBy.get(r.remoteId) ?? [])),
    groups: groups.map((g) => g.group),
    fetchedAt: row.catalogueFetchedAt?.toISOString() ?? null,
    stale,
    message,
  };
}

/** Remote services by id, refreshing the cache first when one is missing from it. */
async function cachedRemotes(
  deps: SupplierDeps,
  row: SupplierRow,
  remoteIds: string[],
): Promise<Map<string, RemoteRow>> {
  const read = async () =>
    new Map(
      (
        await deps.db
          .select()
          .from(supplierService)
          .where(
            and(
              eq(supplierService.supplierId, row.id),
              inArray(supplierService.remoteId, remoteIds),
            ),
          )
      ).map((r) => [r.remoteId, r]),
    );
  let found = await read();
  if (found.size < new Set(remoteIds).size || !isFresh(row)) {
    const refreshed = await refreshCatalogue(deps, row);
    if (!refreshed.ok && found.size < new Set(remoteIds).size) {
      throw new AppError('SUPPLIER_TEST_FAILED', refreshed.message);
    }
    found = await read();
  }
  return found;
}

/** Our fields for a remote service (the supplier parameter each one goes to is kept apart). */
function localFields(remote: RemoteRow): {
  fields: ServiceField[];
  fieldMap: Record<string, string>;
} {
  const fields: ServiceField[] = remote.fields.map((f) => {
    const { param: _param, ...field } = f;
    return field;
  });
  return {
    fields,
    fieldMap: Object.fromEntries(remote.fields.map((f) => [f.key, f.param])),
  };
}

/** Days a customer may ask for a refill of an order whose supplier offers refills. */
export const IMPORTED_REFILL_DAYS = 30;

/** The SMM type a remote service is sold as (SMM suppliers only), or null. */
function remoteSmmType(
  sup: Pick<SupplierRow, 'protocol'>,
  remote: Pick<RemoteRow, 'type'>,
): SmmType | null {
  return sup.protocol === 'smm' ? smmTypeOf(remote.type) : null;
}

/**
 * What an imported service takes from its supplier's SMM service: its type, drip-feed when the
 * supplier allows it and the type has it, a refill window when the supplier refills, and
 * cancels when the supplier takes them.
 */
function smmTraits(
  sup: Pick<SupplierRow, 'protocol'>,
  remote: RemoteRow,
): { smmType: SmmType | null; dripfeed: boolean; refillDays: number | null; cancelable: boolean } {
  const type = remoteSmmType(sup, remote);
  if (type === null) return { smmType: null, dripfeed: false, refillDays: null, cancelable: false };
  return {
    smmType: type,
    dripfeed: remote.dripfeed && SMM_TYPE_SPECS[type].dripfeed,
    refillDays: remote.refill ? IMPORTED_REFILL_DAYS : null,
    cancelable: remote.cancel,
  };
}

/** POST /api/admin/suppliers/:id/import: each chosen remote service becomes one of ours. */
export async function importServices(
  deps: SupplierDeps,
  adminId: string,
  supplierId: string,
  input: ImportServicesInput,
  ipAddress: string | null,
): Promise<AdminServiceDto[]> {
  const row = await findSupplier(deps.db, supplierId);
  if (row.state === 'disabled') {
    throw new AppError('CONFLICT', 'El proveedor está desactivado: actívalo antes de importar.');
  }
  if (row.currency && row.currency.toUpperCase() !== 'USD') {
    throw new AppError(
      'CONFLICT',
      `Este proveedor cobra en ${row.currency}: solo se importan servicios de proveedores en dólares (USD).`,
    );
  }
  const markupBp = Math.round(input.markupPercent * 100);
  const remotes = await cachedRemotes(deps, row, input.remoteIds);
  const problems: string[] = [];
  const ready: {
    remote: RemoteRow;
    price: bigint;
    fields: ServiceField[];
    fieldMap: Record<string, string>;
  }[] = [];
  for (const remoteId of input.remoteIds) {
    const remote = remotes.get(remoteId);
    if (!remote) {
      problems.push(`El proveedor no tiene el servicio ${remoteId}.`);
      continue;
    }
    if (remote.missingSince !== null) {
      problems.push(`«${remote.name}»: el proveedor ya no lo ofrece.`);
      continue;
    }
    if (!remote.importable) {
      problems.push(`«${remote.name}»: ${remote.reason ?? 'no se puede importar.'}`);
      continue;
    }
    const price = markupPriceCents(remote.costMicros, markupBp);
    if (price > MAX_PRICE_CENTS) {
      problems.push(`«${remote.name}»: el precio pasaría de US$100,000.00.`);
      continue;
    }
    const { fields, fieldMap } = localFields(remote);
    if (!serviceFieldListSchema.safeParse(fields).success) {
      problems.push(`«${remote.name}»: sus campos no se pueden convertir.`);
      continue;
    }
    if (remote.unit === '1000' && (remote.minQuantity === null || remote.maxQuantity === null)) {
      problems.push(`«${remote.name}»: el proveedor no indica la cantidad mínima y máxima.`);
      continue;
    }
    ready.push({ remote, price, fields, fieldMap });
  }
  const already = await deps.db
    .select({ remoteId: serviceRoute.remoteId, name: service.name })
    .from(serviceRoute)
    .innerJoin(service, eq(service.id, serviceRoute.serviceId))
    .where(
      and(eq(serviceRoute.supplierId, supplierId), inArray(serviceRoute.remoteId, input.remoteIds)),
    );
  for (const a of already) {
    const remote = remotes.get(a.remoteId);
    problems.push(`«${remote?.name ?? a.remoteId}» ya está importado como «${a.name}».`);
  }
  if (problems.length > 0) {
    throw new AppError('VALIDATION_FAILED', problems.join(' '), { remoteIds: problems.join(' ') });
  }
  const rows = await deps.db.transaction(async (tx) => {
    const created = [];
    for (const { remote, price, fields, fieldMap } of ready) {
      const name =
        remote.name.trim().length >= 3 ? remote.name : `${remote.name} (${remote.remoteId})`;
      const svc = await insertServiceTx(
        tx,
        adminId,
        {
          category: input.category,
          name: clipText(name, 120),
          description: clipText(remote.info || remote.name, 1000),
          deliveryTime: clipText(remote.deliveryTime || 'Según el proveedor', 60),
          price,
          unit: remote.unit === '1000' ? '1000' : 'order',
          minQuantity: remote.minQuantity,
          maxQuantity: remote.maxQuantity,
          fields,
          active: true,
          allowRecheck: false,
          markupBp,
          ...smmTraits(row, remote),
        },
        ipAddress,
        {
          importedFrom: {
            supplierId,
            supplierName: row.name,
            remoteId: remote.remoteId,
            cost: formatMicros(remote.costMicros),
          },
        },
      );
      await tx.insert(serviceRoute).values({
        serviceId: svc.id,
        supplierId,
        remoteId: remote.remoteId,
        position: 0,
        fieldMap,
      });
      created.push(svc);
    }
    return created;
  });
  return adminServiceDtos(deps.db, rows);
}

// ─── A service's routes ──────────────────────────────────────────────────────────────────────

/**
 * PUT /api/admin/services/:id/routes: the suppliers a service is bought from, in order, and
 * whether its price follows the primary's cost. Every route must fit the service: same unit,
 * and every input the supplier requires must be one of the service's fields.
 */
export async function setServiceRoutes(
  deps: SupplierDeps,
  adminId: string,
  serviceId: string,
  input: SetServiceRoutesInput,
  ipAddress: string | null,
): Promise<AdminServiceDto> {
  const [svc] = await deps.db.select().from(service).where(eq(service.id, serviceId));
  if (!svc) throw new AppError('NOT_FOUND', 'El servicio no existe o no está disponible.');
  const errors: Record<string, string> = {};
  const seen = new Set<string>();
  const resolved: { supplierId: string; remote: RemoteRow; fieldMap: Record<string, string> }[] =
    [];
  for (const [index, route] of input.routes.entries()) {
    const key = `routes.${index}`;
    if (!UUID.test(route.supplierId)) {
      errors[key] = 'Ese proveedor no existe.';
      continue;
    }
    const [sup] = await deps.db.select().from(supplier).where(eq(supplier.id, route.supplierId));
    if (!sup) {
      errors[key] = 'Ese proveedor no existe.';
      continue;
    }
    const pair = `${route.supplierId}:${route.remoteId}`;
    if (seen.has(pair)) {
      errors[key] = 'Esta ruta está repetida.';
      continue;
    }
    seen.add(pair);
    let remote: RemoteRow | undefined;
    try {
      remote = (await cachedRemotes(deps, sup, [route.remoteId])).get(route.remoteId);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      errors[key] = err.message;
      continue;
    }
    if (!remote || remote.missingSince !== null) {
      errors[key] = `${sup.name} no ofrece el servicio ${route.remoteId}.`;
      continue;
    }
    if (remote.unit !== svc.unit) {
      errors[key] =
        svc.unit === '1000'
          ? `«${remote.name}» se vende por orden y este servicio por cada 1000.`
          : `«${remote.name}» se vende por cada 1000 y este servicio por orden.`;
      continue;
    }
    // An SMM-typed service and an SMM route must be the same type: the parameters and the
    // quantity mean different things from one type to another.
    const localType = svc.smmType ? smmTypeOf(svc.smmType) : null;
    const remoteType = remoteSmmType(sup, remote);
    if (sup.protocol === 'smm' && remoteType === null) {
      errors[key] =
        `«${remote.name}» es del tipo «${remote.type}», que todavía no se puede vender.`;
      continue;
    }
    if (remoteType !== null && localType !== null && remoteType !== localType) {
      errors[key] =
        `«${remote.name}» es del tipo «${SMM_TYPE_SPECS[remoteType].label}» y este servicio del tipo «${SMM_TYPE_SPECS[localType].label}».`;
      continue;
    }
    if (
      remoteType !== null &&
      localType === null &&
      remoteType !== 'Default' &&
      remoteType !== 'Package'
    ) {
      errors[key] =
        `«${remote.name}» es del tipo «${SMM_TYPE_SPECS[remoteType].label}»: este servicio tiene que ser de ese tipo.`;
      continue;
    }
    const localKeys = new Set(svc.fields.map((f) => f.key));
    const missing = remote.fields.filter((f) => f.required && !localKeys.has(f.key));
    if (missing.length > 0) {
      errors[key] =
        `«${remote.name}» pide ${missing.map((f) => `«${f.label}»`).join(', ')} y este servicio no tiene ese campo.`;
      continue;
    }
    resolved.push({
      supplierId: sup.id,
      remote,
      fieldMap: Object.fromEntries(
        remote.fields.filter((f) => localKeys.has(f.key)).map((f) => [f.key, f.param]),
      ),
    });
  }
  if (input.markupPercent !== null && input.routes.length === 0) {
    errors.markupPercent = 'Sin proveedor no hay costo al que aplicar el margen.';
  }
  if (Object.keys(errors).length > 0) throw new AppError('VALIDATION_FAILED', undefined, errors);

  const markupBp = input.markupPercent === null ? null : Math.round(input.markupPercent * 100);
  const primary = resolved[0];
  if (markupBp !== null && primary?.remote.costProblem) {
    throw new AppError('VALIDATION_FAILED', undefined, {
      markupPercent: `No se puede aplicar un margen: ${primary.remote.costProblem}`,
    });
  }
  const price =
    markupBp !== null && primary
      ? markupPriceCents(primary.remote.costMicros, markupBp)
      : svc.price;
  if (price > MAX_PRICE_CENTS) {
    throw new AppError('VALIDATION_FAILED', undefined, {
      markupPercent: 'Con ese margen el precio pasaría de US$100,000.00.',
    });
  }
  await deps.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(service).where(eq(service.id, serviceId)).for('update');
    if (!locked) throw new AppError('NOT_FOUND', 'El servicio no existe o no está disponible.');
    const beforeRoutes = await tx
      .select({
        supplierId: serviceRoute.supplierId,
        remoteId: serviceRoute.remoteId,
        position: serviceRoute.position,
      })
      .from(serviceRoute)
      .where(eq(serviceRoute.serviceId, serviceId))
      .orderBy(asc(serviceRoute.position));
    await tx.delete(serviceRoute).where(eq(serviceRoute.serviceId, serviceId));
    if (resolved.length > 0) {
      await tx.insert(serviceRoute).values(
        resolved.map((r, position) => ({
          serviceId,
          supplierId: r.supplierId,
          remoteId: r.remote.remoteId,
          position,
          fieldMap: r.fieldMap,
        })),
      );
    }
    await tx
      .update(service)
      .set({ markupBp, price, updatedAt: new Date() })
      .where(eq(service.id, serviceId));
    await recordAudit(tx, {
      actorId: adminId,
      action: 'service.routes',
      targetType: 'service',
      targetId: serviceId,
      before: {
        routes: beforeRoutes.map((r) => `${r.supplierId}:${r.remoteId}`),
        markupPercent: locked.markupBp === null ? null : locked.markupBp / 100,
        price: formatAmount(locked.price),
      },
      after: {
        routes: resolved.map((r) => `${r.supplierId}:${r.remote.remoteId}`),
        markupPercent: input.markupPercent,
        price: formatAmount(price),
      },
      ipAddress,
    });
  });
  const [after] = await deps.db.select().from(service).where(eq(service.id, serviceId));
  if (!after) throw new AppError('NOT_FOUND', 'El servicio no existe o no está disponible.');
  const [dto] = await adminServiceDtos(deps.db, [after]);
  if (!dto) throw new Error('service vanished');
  return dto;
}

/** The cost of one route for an order, in cents rounded up (per 1000 units scaled to the quantity). */
export function routeCostCents(costMicros: bigint, unit: string, quantity: number): bigint {
  const total = unit === '1000' ? (costMicros * BigInt(quantity) + 999n) / 1000n : costMicros;
  return microsToCentsCeil(total);
}

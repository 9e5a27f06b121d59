// Price sync (every SUPPLIER_SYNC_MINUTES): re-reads every supplier's catalogue and balance;
// services priced with a markup follow their primary supplier's cost (audited); a service whose
// supplier no longer sells it, or whose cost rises above its fixed price, is switched off and
// the admins are told. Never sell at a loss silently.
import { and, asc, eq, ne } from 'drizzle-orm';
import {
  formatAmount,
  formatUsd,
  formatUsdPrecise,
  markupPriceCents,
  microsToCentsCeil,
} from '../../../shared/money';
import { MAX_PRICE_CENTS } from '../../../shared/schemas/catalogue';
import { service } from '../../db/schema/catalogue';
import { serviceRoute, supplier, supplierService } from '../../db/schema/suppliers';
import { safeError } from '../../jobs/safe-error';
import { formatMicros } from '../../suppliers/decimal';
import { recordAudit } from '../audit/audit.service';
import { adapterOfRow, logExchanges, type SupplierRow } from './connection';
import { notifyDeactivations, type Deactivation } from './suppliers.emails';
import {
  failureMessage,
  recordBalance,
  recordHealth,
  refreshCatalogue,
  type SupplierDeps,
} from './suppliers.service';

export type SyncSummary = {
  suppliers: number;
  failed: number;
  repriced: number;
  deactivated: Deactivation[];
};

/** Reads the balance (for the low-balance alert) and records the supplier's health. */
async function syncBalance(deps: SupplierDeps, row: SupplierRow): Promise<void> {
  const built = adapterOfRow(deps, row);
  if (!built.ok) return;
  const outcome = await built.adapter.balance();
  await logExchanges(deps.db, row.id, [], outcome);
  if (outcome.ok) await recordBalance(deps, row, outcome.value);
  else await recordHealth(deps.db, row.id, { ok: false, message: failureMessage(outcome) });
}

/**
 * Applies one supplier's fresh costs to the services whose primary route is on it. Each service
 * is changed in its own transaction, locked, with an audit row whose actor is the system.
 */
export async function applyCosts(
  deps: SupplierDeps,
  row: SupplierRow,
): Promise<{ repriced: number; deactivated: Deactivation[] }> {
  const routed = await deps.db
    .select({ serviceId: serviceRoute.serviceId, remoteId: serviceRoute.remoteId })
    .from(serviceRoute)
    .where(and(eq(serviceRoute.supplierId, row.id), eq(serviceRoute.position, 0)))
    .orderBy(asc(serviceRoute.serviceId));
  let repriced = 0;
  const deactivated: Deactivation[] = [];
  for (const r of routed) {
    // One service that cannot be updated must not stop the others (it is logged, and tried
    // again at the next sync).
    await applyCost(r).catch((err: unknown) =>
      deps.logger.error({ err: safeError(err), serviceId: r.serviceId }, 'price sync failed'),
    );
  }
  return { repriced, deactivated };

  async function applyCost(r: { serviceId: string; remoteId: string }): Promise<void> {
    await deps.db.transaction(async (tx) => {
      const [svc] = await tx
        .select()
        .from(service)
        .where(eq(service.id, r.serviceId))
        .for('update');
      if (!svc) return;
      const [remote] = await tx
        .select()
        .from(supplierService)
        .where(
          and(eq(supplierService.supplierId, row.id), eq(supplierService.remoteId, r.remoteId)),
        );
      let reason: string | null = null;
      let newPrice: bigint | null = null;
      if (!remote || remote.missingSince !== null) {
        reason = `${row.name} ya no ofrece el servicio ${r.remoteId}.`;
      } else if (remote.costProblem !== null) {
        // Never priced from a cost we cannot read: the last good price stays, switched off.
        reason = `El costo de ${row.name} no es válido: ${remote.costProblem}`;
      } else if (remote.unit !== svc.unit) {
        reason = `${row.name} cambió la unidad de venta del servicio.`;
      } else if (svc.markupBp !== null) {
        const price = markupPriceCents(remote.costMicros, svc.markupBp);
        if (price > MAX_PRICE_CENTS)
          reason = 'Con el nuevo costo el precio pasaría de US$100,000.00.';
        else if (price !== svc.price) newPrice = price;
      } else if (microsToCentsCeil(remote.costMicros) > svc.price) {
        reason = `El costo de ${row.name} (${formatUsdPrecise(formatMicros(remote.costMicros))}) supera el precio (${formatUsd(svc.price)}).`;
      }
      const now = new Date();
      if (reason !== null) {
        if (!svc.active) return;
        await tx
          .update(service)
          .set({ active: false, updatedAt: now })
          .where(eq(service.id, svc.id));
        await recordAudit(tx, {
          actorId: null,
          action: 'service.deactivate',
          targetType: 'service',
          targetId: svc.id,
          before: { active: true },
          after: { active: false, reason, source: 'price_sync' },
        });
        deactivated.push({ serviceId: svc.id, name: svc.name, reason });
        return;
      }
      if (newPrice !== null && remote) {
        await tx
          .update(service)
          .set({ price: newPrice, updatedAt: now })
          .where(eq(service.id, svc.id));
        await recordAudit(tx, {
          actorId: null,
          action: 'service.price_sync',
          targetType: 'service',
          targetId: svc.id,
          before: { price: formatAmount(svc.price) },
          after: {
            price: formatAmount(newPrice),
            cost: formatMicros(remote.costMicros),
            markupPercent: (svc.markupBp ?? 0) / 100,
            supplier: row.name,
          },
        });
        repriced += 1;
      }
    });
  }
}

/** One sync of every supplier that is not disabled. */
export async function syncAll(deps: SupplierDeps): Promise<SyncSummary> {
  const suppliers = await deps.db
    .select()
    .from(supplier)
    .where(ne(supplier.state, 'disabled'))
    .orderBy(asc(supplier.name));
  const summary: SyncSummary = { suppliers: 0, failed: 0, repriced: 0, deactivated: [] };
  for (const row of suppliers) {
    summary.suppliers += 1;
    try {
      await syncBalance(deps, row);
      const refreshed = await refreshCatalogue(deps, row);
      if (!refreshed.ok) {
        // Without a fresh catalogue nothing is repriced or switched off on old data.
        summary.failed += 1;
        continue;
      }
      const applied = await applyCosts(deps, row);
      summary.repriced += applied.repriced;
      summary.deactivated.push(...applied.deactivated);
    } catch (err) {
      // One supplier's failure is that supplier's: the others are still synced.
      summary.failed += 1;
      deps.logger.error({ err: safeError(err), supplierId: row.id }, 'supplier sync failed');
      await recordHealth(deps.db, row.id, {
        ok: false,
        message:
          'No se pudo guardar lo que respondió el proveedor; se intentará en la próxima sincronización.',
      }).catch(() => undefined);
    }
  }
  notifyDeactivations(deps, summary.deactivated);
  return summary;
}

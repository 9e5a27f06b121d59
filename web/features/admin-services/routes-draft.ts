// The routes editor's state (where a service is bought, in order, and how its price follows the
// primary's cost) and its conversion to PUT /api/admin/services/:id/routes. Pure, unit-tested.
import { formatSupplierMoney, formatUsd } from '../../../shared/money';
import {
  ROUTES_MAX,
  SUPPLIER_STATE_LABELS,
  type SupplierDto,
  type SupplierState,
} from '../../../shared/schemas/suppliers';
import { markupPrice, parseMarkup } from '../../lib/pricing';
import type { AdminService } from './types';

export { ROUTES_MAX };

/** One route as the editor shows it: what is sent, and what is known about it. */
export type RouteDraft = {
  /** Stable React key and error address; never sent. */
  uid: string;
  supplierId: string;
  remoteId: string;
  supplierName: string;
  supplierState: SupplierState | null;
  remoteName: string | null;
  cost: string | null;
  currency: string | null;
  missing: boolean;
};

export type PricingMode = 'fixed' | 'markup';

export type RoutesDraft = {
  routes: RouteDraft[];
  mode: PricingMode;
  /** The margin in percent, as typed. */
  markup: string;
};

/** What the server needs of a supplier to list it in the editor. */
export type SupplierChoice = Pick<SupplierDto, 'id' | 'name' | 'state'>;

let lastUid = 0;
function nextUid(): string {
  lastUid += 1;
  return `r${lastUid}`;
}

/** The editor's starting state: the routes as saved, and the pricing mode. */
export function toRoutesDraft(service: AdminService): RoutesDraft {
  return {
    routes: service.routes.map((r) => ({
      uid: nextUid(),
      supplierId: r.supplierId,
      remoteId: r.remoteId,
      supplierName: r.supplierName,
      supplierState: r.supplierState,
      remoteName: r.remoteName,
      cost: r.cost,
      currency: r.currency,
      missing: r.missing,
    })),
    mode: service.markupPercent === null ? 'fixed' : 'markup',
    markup: service.markupPercent === null ? '' : String(service.markupPercent),
  };
}

/** A route typed or picked by the admin (the remote service's name and cost when known). */
export function newRoute(
  supplier: SupplierChoice,
  remoteId: string,
  remote?: { name: string; cost: string; currency: string },
): RouteDraft {
  return {
    uid: nextUid(),
    supplierId: supplier.id,
    remoteId: remoteId.trim(),
    supplierName: supplier.name,
    supplierState: supplier.state,
    remoteName: remote?.name ?? null,
    cost: remote?.cost ?? null,
    currency: remote?.currency ?? null,
    missing: false,
  };
}

/** Where a route's error shows. */
export function routeErrorKey(uid: string): string {
  return `route.${uid}`;
}

/** The problems found before anything is sent, by input (empty when fine). */
export function routesErrors(draft: RoutesDraft): Record<string, string> {
  const errors: Record<string, string> = {};
  if (draft.routes.length > ROUTES_MAX)
    errors.routes = `Como máximo ${ROUTES_MAX} proveedores por servicio.`;
  const seen = new Set<string>();
  for (const route of draft.routes) {
    const key = routeErrorKey(route.uid);
    const remoteId = route.remoteId.trim();
    if (!route.supplierId) errors[key] = 'Elige un proveedor.';
    else if (remoteId === '') errors[key] = 'Escribe el servicio del proveedor.';
    else if (remoteId.length > 64) errors[key] = 'El número del servicio es demasiado largo.';
    else if (seen.has(`${route.supplierId}:${remoteId}`)) errors[key] = 'Esta ruta está repetida.';
    seen.add(`${route.supplierId}:${remoteId}`);
  }
  if (draft.mode === 'markup') {
    const parsed = parseMarkup(draft.markup);
    if (!parsed.ok) errors.markupPercent = parsed.message;
    else if (draft.routes.length === 0)
      errors.markupPercent = 'Sin proveedor no hay costo al que aplicar el margen.';
  }
  return errors;
}

/** The body of PUT /api/admin/services/:id/routes (call routesErrors first). */
export function routesInput(draft: RoutesDraft): {
  routes: { supplierId: string; remoteId: string }[];
  markupPercent: number | null;
} {
  const parsed = parseMarkup(draft.markup);
  return {
    routes: draft.routes.map((r) => ({ supplierId: r.supplierId, remoteId: r.remoteId.trim() })),
    markupPercent: draft.mode === 'markup' && parsed.ok ? parsed.value : null,
  };
}

/**
 * The server's field errors placed: `routes.N` (or `routes.N.remoteId`) on the route that was
 * N-th when sent, the rest under their own names.
 */
export function placeRouteErrors(
  server: Record<string, string>,
  uids: readonly string[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, message] of Object.entries(server)) {
    const match = /^routes\.(\d+)(?:\.|$)/.exec(name);
    const uid = match ? uids[Number(match[1])] : undefined;
    const key = uid ? routeErrorKey(uid) : name;
    out[key] ??= message;
  }
  return out;
}

/** The price the primary route's cost gives with the margin typed; null when it cannot tell. */
export function markupPreview(draft: RoutesDraft): string | null {
  const primary = draft.routes[0];
  if (draft.mode !== 'markup' || !primary?.cost) return null;
  const parsed = parseMarkup(draft.markup);
  if (!parsed.ok) return null;
  const price = markupPrice(primary.cost, parsed.bp);
  return price === null ? null : formatUsd(price);
}

export function supplierStateLabel(state: SupplierState | null): string | null {
  return state === null ? null : SUPPLIER_STATE_LABELS[state];
}

function percent(value: number): string {
  return `${value.toLocaleString('es', { maximumFractionDigits: 2 })} %`;
}

/** The row's one-line summary: where it is bought and how its price is set. */
export function routesSummary(service: Pick<AdminService, 'routes' | 'markupPercent'>): string {
  const [primary, ...fallbacks] = service.routes;
  if (!primary) return 'Se atiende a mano (sin proveedor)';
  const others =
    fallbacks.length === 0
      ? ''
      : fallbacks.length === 1
        ? ' + 1 alternativo'
        : ` + ${fallbacks.length} alternativos`;
  const pricing =
    service.markupPercent === null ? 'precio fijo' : `margen del ${percent(service.markupPercent)}`;
  return `Proveedor: ${primary.supplierName} (#${primary.remoteId})${others} · ${pricing}`;
}

/** The catalogue table's short cells: primary supplier, its cost, and the margin on it. */
export function routesCells(service: Pick<AdminService, 'routes' | 'markupPercent'>): {
  supplier: string;
  cost: string | null;
  margin: string | null;
} {
  const [primary, ...fallbacks] = service.routes;
  if (!primary) return { supplier: 'A mano', cost: null, margin: null };
  return {
    supplier: `${primary.supplierName} #${primary.remoteId}${fallbacks.length > 0 ? ` +${fallbacks.length}` : ''}`,
    cost: primary.cost === null ? null : formatSupplierMoney(primary.cost, primary.currency),
    margin: service.markupPercent === null ? null : percent(service.markupPercent),
  };
}

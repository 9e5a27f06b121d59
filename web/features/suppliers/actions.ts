import { formatUsd } from '../../../shared/money';
import { AdminServiceListSchema } from '../../../shared/schemas/catalogue';
import {
  RemoteServiceListSchema,
  SupplierDtoSchema,
  SupplierListSchema,
  SupplierLogSchema,
  SupplierTestResultSchema,
} from '../../../shared/schemas/suppliers';
import { api, ApiError } from '../../lib/api';
import { settle, type Loaded } from '../../lib/loaded';
import {
  balanceText,
  createErrors,
  createInput,
  placeSupplierErrors,
  updateErrors,
  updateInput,
} from './draft';
import type {
  RemoteCatalogue,
  Supplier,
  SupplierCall,
  SuppliersActionResult,
  SuppliersIntent,
  SuppliersPayload,
} from './types';

const BASE = '/api/admin/suppliers';

function supplierPath(id: string): string {
  return `${BASE}/${encodeURIComponent(id)}`;
}

/** Every supplier, by name. */
export async function loadSuppliers(): Promise<Loaded<Supplier[]>> {
  return settle(api.get(BASE, SupplierListSchema).then((r) => r.items));
}

/** The catalogue filters, as they are in the page URL (`catalogo`, `q`, `grupo`). */
export type CatalogueFilters = { q: string; group: string };

/** One supplier's catalogue, filtered (never rejects: errors come back as Loaded). */
export async function loadRemoteCatalogue(
  id: string,
  filters: CatalogueFilters,
): Promise<Loaded<RemoteCatalogue>> {
  const query = new URLSearchParams();
  if (filters.q) query.set('q', filters.q);
  if (filters.group) query.set('group', filters.group);
  const search = query.size > 0 ? `?${query.toString()}` : '';
  return settle(api.get(`${supplierPath(id)}/services${search}`, RemoteServiceListSchema));
}

/** The latest calls to one supplier, newest first (never rejects). */
export async function loadSupplierCalls(id: string): Promise<Loaded<SupplierCall[]>> {
  return settle(api.get(`${supplierPath(id)}/log`, SupplierLogSchema).then((r) => r.items));
}

function connected(supplier: Supplier): string {
  return `Proveedor «${supplier.name}» conectado. Saldo: ${balanceText(supplier)}.`;
}

async function run(payload: SuppliersPayload): Promise<SuppliersActionResult> {
  switch (payload.intent) {
    case 'create': {
      const errors = createErrors(payload.draft);
      if (Object.keys(errors).length > 0)
        return {
          intent: 'create',
          ok: false,
          formError: 'Revisa los campos marcados.',
          fields: errors,
        };
      const supplier = await api.post(BASE, SupplierDtoSchema, createInput(payload.draft), {
        timeoutMessage:
          'El proveedor está tardando en responder. Revisa la lista antes de intentarlo de nuevo.',
      });
      return {
        intent: 'create',
        ok: true,
        id: supplier.id,
        supplier,
        message: connected(supplier),
      };
    }
    case 'update': {
      const errors = updateErrors(payload.draft, payload.base);
      if (Object.keys(errors).length > 0) {
        const { form, ...fields } = errors;
        return {
          intent: 'update',
          ok: false,
          id: payload.id,
          formError: form ?? 'Revisa los campos marcados.',
          fields,
        };
      }
      const supplier = await api.patch(
        supplierPath(payload.id),
        SupplierDtoSchema,
        updateInput(payload.draft, payload.base),
      );
      return {
        intent: 'update',
        ok: true,
        id: supplier.id,
        supplier,
        message: `Cambios guardados en «${supplier.name}».`,
      };
    }
    case 'test': {
      const result = await api.post(`${supplierPath(payload.id)}/test`, SupplierTestResultSchema);
      return {
        intent: 'test',
        ok: result.ok,
        id: payload.id,
        supplier: result.supplier,
        ...(result.ok ? { message: result.message } : { formError: result.message }),
      };
    }
    case 'toggle': {
      const supplier = await api.patch(supplierPath(payload.id), SupplierDtoSchema, {
        state: payload.state,
      });
      return {
        intent: 'toggle',
        ok: true,
        id: supplier.id,
        supplier,
        message:
          supplier.state === 'desactivado'
            ? `«${supplier.name}» desactivado: no le enviamos órdenes nuevas; las que ya tiene se siguen consultando.`
            : `«${supplier.name}» activado: vuelve a recibir órdenes.`,
      };
    }
    case 'refresh': {
      const list = await api.get(
        `${supplierPath(payload.id)}/services?refresh=true`,
        RemoteServiceListSchema,
      );
      return list.stale
        ? { intent: 'refresh', ok: false, id: payload.id, formError: list.message ?? '' }
        : {
            intent: 'refresh',
            ok: true,
            id: payload.id,
            message: `Catálogo leído de nuevo: ${list.items.length === 1 ? '1 servicio' : `${list.items.length} servicios`}.`,
          };
    }
    case 'import': {
      const { items } = await api.post(
        `${supplierPath(payload.id)}/import`,
        AdminServiceListSchema,
        {
          remoteIds: payload.remoteIds,
          category: payload.category,
          markupPercent: payload.markupPercent,
        },
      );
      return {
        intent: 'import',
        ok: true,
        id: payload.id,
        imported: items.map((s) => ({ id: s.id, name: s.name, price: formatUsd(s.price) })),
        message:
          items.length === 1
            ? 'Importamos 1 servicio: ya está activo en el catálogo.'
            : `Importamos ${items.length} servicios: ya están activos en el catálogo.`,
      };
    }
  }
}

const INTENTS: readonly SuppliersIntent[] = [
  'create',
  'update',
  'test',
  'toggle',
  'refresh',
  'import',
];

function isPayload(value: unknown): value is SuppliersPayload {
  return (
    typeof value === 'object' &&
    value !== null &&
    INTENTS.includes((value as { intent?: unknown }).intent as SuppliersIntent)
  );
}

/** The page's one clientAction (JSON body): dispatches on `intent` and maps API errors. */
export async function runSuppliersAction(request: Request): Promise<SuppliersActionResult> {
  let payload: unknown;
  try {
    payload = await request.json();
  } catch {
    payload = null;
  }
  if (!isPayload(payload)) return { intent: null, ok: false, formError: 'Acción desconocida.' };
  try {
    return await run(payload);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const id = 'id' in payload ? payload.id : undefined;
    return {
      intent: payload.intent,
      ok: false,
      ...(id ? { id } : {}),
      formError: err.message,
      fields: placeSupplierErrors(err.fields),
    };
  }
}

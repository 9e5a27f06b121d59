import {
  AdminServiceDtoSchema,
  AdminServiceListSchema,
  BulkPriceResultSchema,
  ServiceHistorySchema,
} from '../../../shared/schemas/catalogue';
import {
  RemoteServiceListSchema,
  SupplierListSchema,
  type RemoteServiceList,
  type SupplierDto,
} from '../../../shared/schemas/suppliers';
import { parseAmountInput } from '../../../shared/number-input';
import type { StockSummary } from '../../../shared/schemas/stock';
import { api, ApiError } from '../../lib/api';
import { settle } from '../../lib/loaded';
import type { Loaded } from '../../lib/loaded';
import {
  bulkResultSentence,
  categoryLabel,
  changedInput,
  draftToInput,
  fieldDraftErrors,
  typedAmountErrors,
  placeErrors,
  priceWithUnit,
  type ServiceDraft,
} from './draft';
import { placeRouteErrors } from './routes-draft';
import { loadStock, uploadStockFile, uploadStockText } from './stock-api';
import { addedSentence } from './stock-upload';
import {
  STOCK_UPLOAD_INTENT,
  type AdminService,
  type ServiceHistoryEntry,
  type ServicesActionResult,
  type ServicesIntent,
  type ServicesPayload,
} from './types';

const BASE = '/api/admin/services';

/** Every service, active or not, in the catalogue's order. */
export async function loadAdminServices(): Promise<Loaded<AdminService[]>> {
  return settle(api.get(BASE, AdminServiceListSchema).then((r) => r.items));
}

/**
 * The stock of each stock service, by id: its counts (the list shows how many are left beside
 * the name) and newest items (its «Stock» panel). Reloaded with the page, so an upload or a
 * sale shows without a request of its own.
 */
export async function loadStockSummaries(
  services: Loaded<AdminService[]>,
): Promise<Record<string, Loaded<StockSummary>>> {
  if (!services.ok) return {};
  const stocked = services.data.filter((s) => s.delivery === 'stock');
  const summaries = await Promise.all(
    stocked.map(async (s) => [s.id, await loadStock(s.id)] as const),
  );
  return Object.fromEntries(summaries);
}

/** The suppliers a route can use (the routes editor lists them). */
export async function loadSupplierChoices(): Promise<Loaded<SupplierDto[]>> {
  return settle(api.get('/api/admin/suppliers', SupplierListSchema).then((r) => r.items));
}

/** One supplier's catalogue, to pick a route from (never rejects). */
export async function loadSupplierCatalogue(
  supplierId: string,
): Promise<Loaded<RemoteServiceList>> {
  return settle(
    api.get(
      `/api/admin/suppliers/${encodeURIComponent(supplierId)}/services`,
      RemoteServiceListSchema,
    ),
  );
}

function servicePath(id: string): string {
  return `${BASE}/${encodeURIComponent(id)}`;
}

/** The audit history of one service, newest first (never rejects: errors come back as Loaded). */
export async function loadServiceHistory(id: string): Promise<Loaded<ServiceHistoryEntry[]>> {
  return settle(api.get(`${servicePath(id)}/audit`, ServiceHistorySchema).then((r) => r.items));
}

function visibility(service: AdminService): string {
  return service.active
    ? 'Ya aparece para los clientes.'
    : 'Está inactivo: los clientes no lo ven.';
}

/** Create or save: the API's errors placed next to their inputs, the typed values untouched. */
async function save(
  intent: 'create' | 'update',
  draft: ServiceDraft,
  id?: string,
  base?: ServiceDraft,
): Promise<ServicesActionResult> {
  const body = base ? changedInput(draft, base) : draftToInput(draft);
  try {
    const service =
      intent === 'create'
        ? await api.post(BASE, AdminServiceDtoSchema, body)
        : await api.patch(servicePath(id ?? ''), AdminServiceDtoSchema, body);
    return {
      intent,
      ok: true,
      id: service.id,
      service,
      message:
        intent === 'create'
          ? `Servicio «${service.name}» creado en ${categoryLabel(service.category)}. ${visibility(service)}`
          : `Cambios guardados en «${service.name}».`,
    };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const fields =
      err.code === 'VALIDATION_FAILED'
        ? placeErrors(err.fields, draft.fields)
        : { ...fieldDraftErrors(draft.fields), ...err.fields };
    Object.assign(fields, typedAmountErrors(draft));
    return { intent, ok: false, ...(id ? { id } : {}), formError: err.message, fields };
  }
}

async function run(payload: ServicesPayload): Promise<ServicesActionResult> {
  switch (payload.intent) {
    case 'create':
      return save('create', payload.draft);
    case 'update':
      return save('update', payload.draft, payload.id, payload.base);
    case 'toggle': {
      const service = await api.patch(servicePath(payload.id), AdminServiceDtoSchema, {
        active: payload.active,
      });
      return {
        intent: 'toggle',
        ok: true,
        id: service.id,
        service,
        message: service.active
          ? `«${service.name}» activado: ya aparece para los clientes.`
          : `«${service.name}» desactivado: los clientes ya no lo ven.`,
      };
    }
    case 'move': {
      await api.post(`${BASE}/reorder`, AdminServiceListSchema, { ids: payload.ids });
      return {
        intent: 'move',
        ok: true,
        id: payload.id,
        message: `«${payload.name}» ${payload.direction === 'up' ? 'subió' : 'bajó'} un puesto.`,
      };
    }
    case 'place': {
      await api.post(`${BASE}/reorder`, AdminServiceListSchema, { ids: payload.ids });
      const place = payload.ids.indexOf(payload.id) + 1;
      return {
        intent: 'place',
        ok: true,
        id: payload.id,
        message: `«${payload.name}» ahora es el n.º ${place} de su categoría.`,
      };
    }
    case 'price': {
      const typed = parseAmountInput(payload.price);
      if (!typed.ok || typed.cents <= 0n)
        return {
          intent: 'price',
          ok: false,
          id: payload.id,
          formError: typed.ok ? 'El precio debe ser mayor que cero.' : typed.message,
        };
      const service = await api.patch(servicePath(payload.id), AdminServiceDtoSchema, {
        price: typed.amount,
      });
      return {
        intent: 'price',
        ok: true,
        id: service.id,
        service,
        message: `Precio de «${service.name}»: ${priceWithUnit(service)}.`,
      };
    }
    case 'bulk-active': {
      await api.patch(`${BASE}/bulk`, AdminServiceListSchema, {
        ids: payload.ids,
        active: payload.active,
      });
      const n = payload.ids.length;
      const what = n === 1 ? '1 servicio' : `${n} servicios`;
      return {
        intent: 'bulk-active',
        ok: true,
        updated: n,
        message: payload.active
          ? `${what} activos: los clientes los ven.`
          : `${what} inactivos: los clientes ya no los ven.`,
      };
    }
    case 'routes': {
      try {
        const service = await api.put(`${servicePath(payload.id)}/routes`, AdminServiceDtoSchema, {
          routes: payload.routes,
          markupPercent: payload.markupPercent,
        });
        const count = service.routes.length;
        return {
          intent: 'routes',
          ok: true,
          id: service.id,
          service,
          message:
            count === 0
              ? `«${service.name}» se atiende a mano: no se envía a ningún proveedor.`
              : `Proveedores guardados en «${service.name}» (${count === 1 ? '1 proveedor' : `${count} proveedores`}). Precio: ${priceWithUnit(service)}.`,
        };
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        return {
          intent: 'routes',
          ok: false,
          id: payload.id,
          formError: err.message,
          fields: placeRouteErrors(err.fields, payload.uids),
        };
      }
    }
    case 'bulk-price': {
      const { updated } = await api.post(`${BASE}/bulk-price`, BulkPriceResultSchema, {
        percent: payload.percent,
        ...(payload.category ? { category: payload.category } : {}),
      });
      return {
        intent: 'bulk-price',
        ok: true,
        updated,
        message: bulkResultSentence(payload.percent, updated),
      };
    }
  }
}

const INTENTS: readonly ServicesIntent[] = [
  'create',
  'update',
  'toggle',
  'move',
  'place',
  'price',
  'bulk-active',
  'bulk-price',
  'routes',
];

function isPayload(value: unknown): value is ServicesPayload {
  return (
    typeof value === 'object' &&
    value !== null &&
    INTENTS.includes((value as { intent?: unknown }).intent as ServicesIntent)
  );
}

/**
 * «Cargar stock» (a multipart form: `id`, and `file` or `text`), checked in the browser before it
 * was sent (stock-upload.ts): the API adds the good lines and names the refused ones.
 */
async function uploadStock(form: FormData): Promise<ServicesActionResult> {
  const id = form.get('id');
  const file = form.get('file');
  const text = form.get('text');
  if (typeof id !== 'string' || id === '')
    return { intent: STOCK_UPLOAD_INTENT, ok: false, formError: 'Acción desconocida.' };
  try {
    const upload =
      file instanceof File && file.size > 0
        ? await uploadStockFile(id, file)
        : await uploadStockText(id, typeof text === 'string' ? text : '');
    return {
      intent: STOCK_UPLOAD_INTENT,
      ok: true,
      id,
      upload,
      message: addedSentence(upload.added),
    };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const field = Object.values(err.fields)[0];
    return { intent: STOCK_UPLOAD_INTENT, ok: false, id, formError: field ?? err.message };
  }
}

/**
 * The page's one clientAction: JSON bodies dispatched on `intent`, API errors mapped; the stock
 * upload comes as a multipart form.
 */
export async function runServicesAction(request: Request): Promise<ServicesActionResult> {
  if ((request.headers.get('Content-Type') ?? '').startsWith('multipart/form-data')) {
    const form = await request.formData();
    if (form.get('intent') === STOCK_UPLOAD_INTENT) return uploadStock(form);
    return { intent: null, ok: false, formError: 'Acción desconocida.' };
  }
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
    const field = Object.values(err.fields)[0];
    return {
      intent: payload.intent,
      ok: false,
      ...(id ? { id } : {}),
      formError: field ?? err.message,
      fields: err.fields,
    };
  }
}

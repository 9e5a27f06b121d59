import { z } from 'zod';
import { CATEGORIES } from '../../../shared/categories';
import {
  BulkPriceSchema,
  CategorySlugSchema,
  CreateServiceSchema,
  ReorderSchema,
  BulkServicesSchema,
  UpdateServiceSchema,
  quantityErrors,
  type CategoryCountDto,
} from '../../../shared/schemas/catalogue';
import { idParams } from '../../../shared/schemas/query';
import { defineRoute, type RouteDeps } from '../../lib/route';
import { withCustomerPrices } from '../price-groups/pricing.service';
import {
  bulkPriceChange,
  categoryCounts,
  createService,
  getService,
  listServices,
  reorder,
  serviceHistory,
  setActive,
  setActiveMany,
  adminServiceDtos,
  toAdminServiceDto,
  toServiceDto,
  updateService,
  withStock,
  type ServiceRow,
} from './catalogue.service';

const SERVICE_ID = idParams('Identificador del servicio (UUID).');

/**
 * The largest service the schema accepts: name, description and delivery time (1180 characters)
 * and 10 fields, each at most a list of 100 options of 100 characters, an 80-character label and
 * a 200-character hint. At 3 bytes a character (accents, «—») that is about 31 KB a field and
 * 317 KB in all; plain ASCII is a third of it.
 */
const SERVICE_BODY_LIMIT = 320 * 1024;

/** The reorder list: up to 1000 UUIDs of 36 characters, quoted and comma-separated (≈39 KB). */
const REORDER_BODY_LIMIT = 48 * 1024;

const ListServicesQuerySchema = z.object({
  // An empty `?category=` means no filter, as the web app sends it for «Todas».
  category: z
    .union([CategorySlugSchema, z.literal('')], { error: 'La categoría no existe.' })
    .transform((v) => v || undefined)
    .optional()
    .meta({ description: 'Solo los servicios de esta categoría.' }),
});

/**
 * A body refused by the schema also names the quantity problems (min > max, missing bounds of a
 * per-1000 service), which are otherwise only checked on a valid body: the admin sees every
 * error at once instead of one save later. For an edit, what the body leaves out is read from
 * the service as saved.
 */
function quantityProblems(
  raw: unknown,
  saved?: Pick<ServiceRow, 'unit' | 'minQuantity' | 'maxQuantity'> | null,
): Record<string, string> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return {};
  const body = raw as Record<string, unknown>;
  const whole = (key: 'minQuantity' | 'maxQuantity') => {
    if (!(key in body)) return saved?.[key] ?? undefined;
    const v = body[key];
    return typeof v === 'number' && Number.isInteger(v) ? v : undefined;
  };
  return quantityErrors({
    unit: typeof body.unit === 'string' ? body.unit : (saved?.unit ?? 'order'),
    minQuantity: whole('minQuantity'),
    maxQuantity: whole('maxQuantity'),
  });
}

async function savedQuantities(deps: RouteDeps, id: string) {
  return getService(deps.db, id, { includeInactive: true }).catch(() => null);
}

/** /api/services: the catalogue as verified customers see it (active services only). */
export const catalogueRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/services',
    operationId: 'listServices',
    tag: 'Catálogo',
    summary: 'Servicios activos',
    access: 'customer',
    query: ListServicesQuerySchema,
    responses: [
      { status: 200, description: 'Los servicios, en el orden del catálogo.', body: 'ServiceList' },
    ],
    handler: async ({ c, deps, query, user }) => {
      const rows = await listServices(deps.db, { category: query.category });
      // Each customer sees their own price (price group, special prices).
      const priced = await withCustomerPrices(deps.db, user.id, rows);
      return c.json({ items: (await withStock(deps.db, priced)).map(toServiceDto) });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/services/categories',
    operationId: 'listCategories',
    tag: 'Catálogo',
    summary: 'Categorías con el número de servicios activos',
    access: 'customer',
    responses: [
      { status: 200, description: 'Las siete categorías, en orden.', body: 'CategoryCountList' },
    ],
    handler: async ({ c, deps }) => {
      const counts = await categoryCounts(deps.db);
      const items: CategoryCountDto[] = CATEGORIES.map((cat) => ({
        slug: cat.slug,
        label: cat.label,
        count: counts[cat.slug],
      }));
      return c.json(items);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/services/:id',
    operationId: 'getService',
    tag: 'Catálogo',
    summary: 'Un servicio activo',
    access: 'customer',
    params: SERVICE_ID,
    responses: [{ status: 200, description: 'El servicio.', body: 'ServiceDto' }],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, params, user }) => {
      const [priced] = await withCustomerPrices(deps.db, user.id, [
        await getService(deps.db, params.id),
      ]);
      const [stocked] = priced ? await withStock(deps.db, [priced]) : [];
      return c.json(stocked ? toServiceDto(stocked) : null);
    },
  }),
];

/** /api/admin/services: managing the catalogue (admins only). */
export const catalogueAdminRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/admin/services',
    operationId: 'adminListServices',
    tag: 'Administración',
    summary: 'Todos los servicios, también los inactivos',
    access: 'admin',
    roles: ['admin'],
    responses: [{ status: 200, description: 'Los servicios.', body: 'AdminServiceList' }],
    handler: async ({ c, deps }) => {
      const rows = await listServices(deps.db, { includeInactive: true });
      return c.json({ items: await adminServiceDtos(deps.db, rows) });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/services',
    operationId: 'adminCreateService',
    tag: 'Administración',
    summary: 'Crear un servicio',
    access: 'admin',
    roles: ['admin'],
    body: {
      schema: CreateServiceSchema,
      moreErrors: async ({ raw }) => quantityProblems(raw),
    },
    bodyLimit: SERVICE_BODY_LIMIT,
    responses: [{ status: 201, description: 'El servicio creado.', body: 'AdminServiceDto' }],
    handler: async ({ c, deps, user, body }) => {
      const row = await createService(deps.db, user.id, body, c.get('clientIp'));
      return c.json(toAdminServiceDto(row), 201);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/services/reorder',
    operationId: 'adminReorderServices',
    tag: 'Administración',
    summary: 'Cambiar el orden del catálogo',
    access: 'admin',
    roles: ['admin'],
    body: { schema: ReorderSchema },
    bodyLimit: REORDER_BODY_LIMIT,
    responses: [
      { status: 200, description: 'Los servicios en el orden nuevo.', body: 'AdminServiceList' },
    ],
    handler: async ({ c, deps, user, body }) => {
      await reorder(deps.db, user.id, body.ids, c.get('clientIp'));
      const rows = await listServices(deps.db, { includeInactive: true });
      return c.json({ items: await adminServiceDtos(deps.db, rows) });
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/api/admin/services/bulk',
    operationId: 'adminBulkUpdateServices',
    tag: 'Administración',
    summary: 'Activar o desactivar varios servicios a la vez',
    description:
      'Todos los servicios de `ids` quedan activos o inactivos en una sola operación; cada cambio queda auditado como uno individual. Si algún servicio no existe no cambia ninguno.',
    access: 'admin',
    roles: ['admin'],
    body: { schema: BulkServicesSchema },
    bodyLimit: REORDER_BODY_LIMIT,
    responses: [
      { status: 200, description: 'Todos los servicios, ya cambiados.', body: 'AdminServiceList' },
    ],
    handler: async ({ c, deps, user, body }) => {
      await setActiveMany(deps.db, user.id, body.ids, body.active, c.get('clientIp'));
      const rows = await listServices(deps.db, { includeInactive: true });
      return c.json({ items: await adminServiceDtos(deps.db, rows) });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/services/bulk-price',
    operationId: 'adminBulkPriceChange',
    tag: 'Administración',
    summary: 'Subir o bajar precios en bloque por un porcentaje',
    description:
      'Todos los servicios, o los de una categoría; cada precio se redondea hacia arriba al centavo.',
    access: 'admin',
    roles: ['admin'],
    // `{ "percent": -5.5, "category": "IMEI" }`: the default limit is plenty.
    body: { schema: BulkPriceSchema },
    responses: [
      { status: 200, description: 'Cuántos precios cambiaron.', body: 'BulkPriceResult' },
    ],
    handler: async ({ c, deps, user, body }) =>
      c.json(await bulkPriceChange(deps.db, user.id, body, c.get('clientIp'))),
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/services/:id',
    operationId: 'adminGetService',
    tag: 'Administración',
    summary: 'Un servicio, activo o no',
    access: 'admin',
    roles: ['admin'],
    params: SERVICE_ID,
    responses: [{ status: 200, description: 'El servicio.', body: 'AdminServiceDto' }],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, params }) =>
      c.json(
        (
          await adminServiceDtos(deps.db, [
            await getService(deps.db, params.id, { includeInactive: true }),
          ])
        )[0],
      ),
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/services/:id/audit',
    operationId: 'adminServiceHistory',
    tag: 'Administración',
    summary: 'Historial de cambios de un servicio',
    description:
      'Lo que el registro de auditoría guarda de ese servicio: altas, cambios, activaciones, reordenaciones que lo movieron y cambios de precio en bloque.',
    access: 'admin',
    roles: ['admin'],
    params: SERVICE_ID,
    responses: [{ status: 200, description: 'Los cambios.', body: 'ServiceHistory' }],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, params }) =>
      c.json({ items: await serviceHistory(deps.db, params.id) }),
  }),
  defineRoute({
    method: 'patch',
    path: '/api/admin/services/:id',
    operationId: 'adminUpdateService',
    tag: 'Administración',
    summary: 'Modificar, activar o desactivar un servicio',
    access: 'admin',
    roles: ['admin'],
    params: SERVICE_ID,
    body: {
      schema: UpdateServiceSchema,
      moreErrors: async ({ raw, params, deps }) =>
        quantityProblems(raw, await savedQuantities(deps, params.id)),
    },
    bodyLimit: SERVICE_BODY_LIMIT,
    responses: [{ status: 200, description: 'El servicio modificado.', body: 'AdminServiceDto' }],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, user, params, body }) => {
      const ip = c.get('clientIp');
      const row =
        Object.keys(body).length === 1 && body.active !== undefined
          ? await setActive(deps.db, user.id, params.id, body.active, ip)
          : await updateService(deps.db, user.id, params.id, body, ip);
      const [dto] = await adminServiceDtos(deps.db, [row]);
      return c.json(dto);
    },
  }),
];

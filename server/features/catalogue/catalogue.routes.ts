import { Hono, type Context } from 'hono';
import { CATEGORIES } from '../../../shared/categories';
import type { Db } from '../../db/client';
import type { Auth } from '../../lib/auth';
import { AppError } from '../../lib/errors';
import { readJson, requireAdmin, requireVerifiedUser, type AppEnv } from '../../lib/http';
import {
  BulkPriceSchema,
  CreateServiceSchema,
  ReorderSchema,
  UpdateServiceSchema,
  isCategorySlug,
  quantityErrors,
  type CategoryCountDto,
} from '../../../shared/schemas/catalogue';
import {
  bulkPriceChange,
  categoryCounts,
  createService,
  getService,
  type ServiceRow,
  listServices,
  reorder,
  serviceHistory,
  setActive,
  toAdminServiceDto,
  toServiceDto,
  updateService,
} from './catalogue.service';

/** /api/services: the catalogue as verified customers see it (active services only). */
export function catalogueRoutes(deps: { db: Db; auth: Auth }) {
  return new Hono<AppEnv>()
    .get('/', async (c) => {
      await requireVerifiedUser(deps.auth, c);
      const category = c.req.query('category')?.trim() || undefined;
      if (category !== undefined && !isCategorySlug(category)) {
        throw new AppError('BAD_REQUEST', 'La categoría no existe.');
      }
      const rows = await listServices(deps.db, { category });
      return c.json({ items: rows.map(toServiceDto) });
    })
    .get('/categories', async (c) => {
      await requireVerifiedUser(deps.auth, c);
      const counts = await categoryCounts(deps.db);
      const items: CategoryCountDto[] = CATEGORIES.map((cat) => ({
        slug: cat.slug,
        label: cat.label,
        count: counts[cat.slug],
      }));
      return c.json(items);
    })
    .get('/:id', async (c) => {
      await requireVerifiedUser(deps.auth, c);
      return c.json(toServiceDto(await getService(deps.db, c.req.param('id'))));
    });
}

/**
 * A body refused by the schema also names the quantity problems (min > max, missing bounds of a
 * per-1000 service), which are otherwise only checked on a valid body: the admin sees every
 * error at once instead of one save later. For an edit, what the body leaves out is read from
 * the service as saved.
 */
async function withQuantityErrors(
  c: Context,
  err: unknown,
  saved?: Pick<ServiceRow, 'unit' | 'minQuantity' | 'maxQuantity'> | null,
): Promise<unknown> {
  if (!(err instanceof AppError) || err.code !== 'VALIDATION_FAILED') return err;
  const raw: unknown = await c.req.json().catch(() => null);
  if (typeof raw !== 'object' || raw === null) return err;
  const body = raw as Record<string, unknown>;
  const whole = (key: 'minQuantity' | 'maxQuantity') => {
    if (!(key in body)) return saved?.[key] ?? undefined;
    const v = body[key];
    return typeof v === 'number' && Number.isInteger(v) ? v : undefined;
  };
  const quantity = quantityErrors({
    unit: typeof body.unit === 'string' ? body.unit : (saved?.unit ?? 'order'),
    minQuantity: whole('minQuantity'),
    maxQuantity: whole('maxQuantity'),
  });
  return new AppError('VALIDATION_FAILED', err.message, { ...quantity, ...err.fields });
}

/** /api/admin/services: managing the catalogue. Every route checks the admin role first. */
export function catalogueAdminRoutes(deps: { db: Db; auth: Auth }) {
  return new Hono<AppEnv>()
    .get('/', async (c) => {
      await requireAdmin(deps.auth, c);
      const rows = await listServices(deps.db, { includeInactive: true });
      return c.json({ items: rows.map(toAdminServiceDto) });
    })
    .post('/', async (c) => {
      const admin = await requireAdmin(deps.auth, c);
      const input = await readJson(c, CreateServiceSchema).catch(async (err: unknown) => {
        throw await withQuantityErrors(c, err);
      });
      const row = await createService(deps.db, admin.id, input, c.get('clientIp'));
      return c.json(toAdminServiceDto(row), 201);
    })
    .post('/reorder', async (c) => {
      const admin = await requireAdmin(deps.auth, c);
      const { ids } = await readJson(c, ReorderSchema);
      await reorder(deps.db, admin.id, ids, c.get('clientIp'));
      const rows = await listServices(deps.db, { includeInactive: true });
      return c.json({ items: rows.map(toAdminServiceDto) });
    })
    .post('/bulk-price', async (c) => {
      const admin = await requireAdmin(deps.auth, c);
      const input = await readJson(c, BulkPriceSchema);
      return c.json(await bulkPriceChange(deps.db, admin.id, input, c.get('clientIp')));
    })
    .get('/:id', async (c) => {
      await requireAdmin(deps.auth, c);
      const row = await getService(deps.db, c.req.param('id'), { includeInactive: true });
      return c.json(toAdminServiceDto(row));
    })
    .get('/:id/audit', async (c) => {
      await requireAdmin(deps.auth, c);
      return c.json({ items: await serviceHistory(deps.db, c.req.param('id')) });
    })
    .patch('/:id', async (c) => {
      const admin = await requireAdmin(deps.auth, c);
      const id = c.req.param('id');
      const patch = await readJson(c, UpdateServiceSchema).catch(async (err: unknown) => {
        const saved = await getService(deps.db, id, { includeInactive: true }).catch(() => null);
        throw await withQuantityErrors(c, err, saved);
      });
      const ip = c.get('clientIp');
      const keys = Object.keys(patch);
      const row =
        keys.length === 1 && patch.active !== undefined
          ? await setActive(deps.db, admin.id, id, patch.active, ip)
          : await updateService(deps.db, admin.id, id, patch, ip);
      return c.json(toAdminServiceDto(row));
    });
}

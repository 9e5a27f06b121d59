import { z } from 'zod';
import { idParams } from '../../../shared/schemas/query';
import {
  PriceGroupInputSchema,
  PriceGroupPatchSchema,
  SetPriceGroupSchema,
  SpecialPricesInputSchema,
} from '../../../shared/schemas/price-groups';
import { defineRoute } from '../../lib/route';
import {
  createPriceGroup,
  deletePriceGroup,
  getCustomerPrices,
  getPriceGroup,
  listPriceGroups,
  setCustomerGroup,
  setSpecialPrices,
  updatePriceGroup,
} from './price-groups.service';

const GROUP_ID = idParams('Identificador del grupo de precios (UUID).');

/** Same as admin.routes.ts: Better Auth ids are not UUIDs. */
const CUSTOMER_ID = z.object({
  id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .describe('Identificador del cliente.'),
});

/** 500 overrides of ~120 bytes each, with room to spare. */
const GROUP_BODY_LIMIT = 128 * 1024;

/** /api/admin/price-groups and a customer's prices: catalogue, so admins only. */
export const priceGroupAdminRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/admin/price-groups',
    operationId: 'adminListPriceGroups',
    tag: 'Administración',
    summary: 'Grupos de precios',
    description:
      'Todos los grupos, el predeterminado primero, con su descuento, sus excepciones por categoría o servicio, cuántos clientes tiene cada uno y si alguna excepción queda por debajo del costo del proveedor (`belowCost`).',
    access: 'admin',
    roles: ['admin'],
    responses: [{ status: 200, description: 'Los grupos.', body: 'PriceGroupList' }],
    handler: async ({ c, deps }) => c.json({ items: await listPriceGroups(deps.db) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/price-groups',
    operationId: 'adminCreatePriceGroup',
    tag: 'Administración',
    summary: 'Crear un grupo de precios',
    description:
      'Con `isDefault: true` pasa a ser el grupo predeterminado (el anterior deja de serlo). Queda auditado.',
    access: 'admin',
    roles: ['admin'],
    body: { schema: PriceGroupInputSchema },
    bodyLimit: GROUP_BODY_LIMIT,
    responses: [{ status: 201, description: 'El grupo creado.', body: 'PriceGroup' }],
    errors: ['VALIDATION_FAILED'],
    handler: async ({ c, deps, user, body }) =>
      c.json(await createPriceGroup(deps.db, { id: user.id, ip: c.get('clientIp') }, body), 201),
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/price-groups/:id',
    operationId: 'adminGetPriceGroup',
    tag: 'Administración',
    summary: 'Un grupo de precios',
    access: 'admin',
    roles: ['admin'],
    params: GROUP_ID,
    responses: [{ status: 200, description: 'El grupo.', body: 'PriceGroup' }],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, params }) => c.json(await getPriceGroup(deps.db, params.id)),
  }),
  defineRoute({
    method: 'patch',
    path: '/api/admin/price-groups/:id',
    operationId: 'adminUpdatePriceGroup',
    tag: 'Administración',
    summary: 'Cambiar un grupo de precios',
    description:
      'Solo cambia lo que se envía; `overrides`, si se envía, reemplaza la lista entera. Los clientes pagan el precio nuevo desde su próxima orden. Queda auditado (antes → después).',
    access: 'admin',
    roles: ['admin'],
    params: GROUP_ID,
    body: { schema: PriceGroupPatchSchema },
    bodyLimit: GROUP_BODY_LIMIT,
    responses: [{ status: 200, description: 'El grupo cambiado.', body: 'PriceGroup' }],
    errors: ['NOT_FOUND', 'VALIDATION_FAILED', 'CONFLICT'],
    handler: async ({ c, deps, user, params, body }) =>
      c.json(
        await updatePriceGroup(deps.db, { id: user.id, ip: c.get('clientIp') }, params.id, body),
      ),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/admin/price-groups/:id',
    operationId: 'adminDeletePriceGroup',
    tag: 'Administración',
    summary: 'Eliminar un grupo de precios',
    description:
      'Sus clientes pasan al grupo predeterminado. El grupo predeterminado no se puede eliminar (409).',
    access: 'admin',
    roles: ['admin'],
    params: GROUP_ID,
    responses: [{ status: 200, description: 'Eliminado.', body: 'Deleted' }],
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ c, deps, user, params }) => {
      await deletePriceGroup(deps.db, { id: user.id, ip: c.get('clientIp') }, params.id);
      return c.json({ deleted: true as const });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/users/:id/prices',
    operationId: 'adminGetCustomerPrices',
    tag: 'Administración',
    summary: 'El grupo de precios y los precios especiales de un cliente',
    access: 'admin',
    roles: ['admin'],
    params: CUSTOMER_ID,
    responses: [{ status: 200, description: 'Sus precios.', body: 'CustomerPrices' }],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, params }) => c.json(await getCustomerPrices(deps.db, params.id)),
  }),
  defineRoute({
    method: 'put',
    path: '/api/admin/users/:id/price-group',
    operationId: 'adminSetCustomerPriceGroup',
    tag: 'Administración',
    summary: 'Cambiar el grupo de precios de un cliente',
    description:
      '`groupId: null` lo devuelve al grupo predeterminado. Se aplica desde su próxima orden (las órdenes hechas conservan su precio). Queda auditado.',
    access: 'admin',
    roles: ['admin'],
    params: CUSTOMER_ID,
    body: { schema: SetPriceGroupSchema },
    responses: [{ status: 200, description: 'Sus precios.', body: 'CustomerPrices' }],
    errors: ['NOT_FOUND', 'VALIDATION_FAILED'],
    handler: async ({ c, deps, user, params, body }) =>
      c.json(
        await setCustomerGroup(
          deps.db,
          { id: user.id, ip: c.get('clientIp') },
          params.id,
          body.groupId,
        ),
      ),
  }),
  defineRoute({
    method: 'put',
    path: '/api/admin/users/:id/special-prices',
    operationId: 'adminSetCustomerSpecialPrices',
    tag: 'Administración',
    summary: 'Los precios especiales de un cliente',
    description:
      'Reemplaza su lista entera (una lista vacía los quita todos). Un precio especial está por encima de cualquier regla de grupo. Queda auditado.',
    access: 'admin',
    roles: ['admin'],
    params: CUSTOMER_ID,
    body: { schema: SpecialPricesInputSchema },
    bodyLimit: GROUP_BODY_LIMIT,
    responses: [{ status: 200, description: 'Sus precios.', body: 'CustomerPrices' }],
    errors: ['NOT_FOUND', 'VALIDATION_FAILED'],
    handler: async ({ c, deps, user, params, body }) =>
      c.json(
        await setSpecialPrices(deps.db, { id: user.id, ip: c.get('clientIp') }, params.id, body),
      ),
  }),
];

import { z } from 'zod';
import { AdminServiceListSchema } from '../../../shared/schemas/catalogue';
import {
  CustomerPricesSchema,
  PriceGroupListSchema,
  PriceGroupSchema,
  type PriceGroupInput,
  type PriceGroupPatch,
  type SpecialPricesInput,
} from '../../../shared/schemas/price-groups';
import { api } from '../../lib/api';
import { settle } from '../../lib/loaded';

const BASE = '/api/admin/price-groups';

function groupPath(id: string) {
  return `${BASE}/${encodeURIComponent(id)}`;
}

function userPath(id: string, what: string) {
  return `/api/admin/users/${encodeURIComponent(id)}/${what}`;
}

/** What /admin/grupos shows: the groups, and the services an override can name. */
export async function loadPriceGroupsPage() {
  const [groups, services] = await Promise.all([
    settle(api.get(BASE, PriceGroupListSchema).then((r) => r.items)),
    settle(
      api
        .get('/api/admin/services', AdminServiceListSchema)
        .then((r) => r.items.map((s) => ({ id: s.id, name: s.name, price: s.price }))),
    ),
  ]);
  return { groups, services };
}

export function createGroup(input: PriceGroupInput) {
  return api.post(BASE, PriceGroupSchema, input);
}

export function updateGroup(id: string, patch: PriceGroupPatch) {
  return api.patch(groupPath(id), PriceGroupSchema, patch);
}

export function deleteGroup(id: string) {
  return api.send(groupPath(id), z.object({ deleted: z.literal(true) }), { method: 'DELETE' });
}

export function fetchGroups() {
  return api.get(BASE, PriceGroupListSchema).then((r) => r.items);
}

export function fetchCustomerPrices(userId: string) {
  return api.get(userPath(userId, 'prices'), CustomerPricesSchema);
}

export function setCustomerGroup(userId: string, groupId: string | null) {
  return api.put(userPath(userId, 'price-group'), CustomerPricesSchema, { groupId });
}

export function setSpecialPrices(userId: string, input: SpecialPricesInput) {
  return api.put(userPath(userId, 'special-prices'), CustomerPricesSchema, input);
}

export function fetchServiceChoices() {
  return api
    .get('/api/admin/services', AdminServiceListSchema)
    .then((r) => r.items.map((s) => ({ id: s.id, name: s.name, price: s.price })));
}

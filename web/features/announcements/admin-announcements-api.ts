// The admin's calls of /admin/anuncios (kept apart from the customer's, which every signed-in
// page loads: the price groups' schemas stay out of those pages).
import {
  AdminAnnouncementListSchema,
  AdminAnnouncementSchema,
  type AdminAnnouncementDto,
  type AnnouncementInput,
  type AnnouncementPatch,
} from '../../../shared/schemas/announcements';
import { PriceGroupListSchema } from '../../../shared/schemas/price-groups';
import { api } from '../../lib/api';
import { settle } from '../../lib/loaded';

export type { AdminAnnouncementDto };

const ADMIN = '/api/admin/announcements';

/** /admin/anuncios: the announcements and the price groups an audience can name. */
export async function loadAnnouncementsPage() {
  const [announcements, groups] = await Promise.all([
    settle(api.get(ADMIN, AdminAnnouncementListSchema).then((r) => r.items)),
    settle(
      api
        .get('/api/admin/price-groups', PriceGroupListSchema)
        .then((r) => r.items.map((g) => ({ id: g.id, name: g.name, isDefault: g.isDefault }))),
    ),
  ]);
  return { announcements, groups };
}

export function createAnnouncement(input: AnnouncementInput): Promise<AdminAnnouncementDto> {
  return api.post(ADMIN, AdminAnnouncementSchema, input);
}

export function updateAnnouncement(
  id: string,
  patch: AnnouncementPatch,
): Promise<AdminAnnouncementDto> {
  return api.patch(`${ADMIN}/${encodeURIComponent(id)}`, AdminAnnouncementSchema, patch);
}

export async function deleteAnnouncement(id: string): Promise<void> {
  await api(`${ADMIN}/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

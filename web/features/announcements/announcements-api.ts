import {
  AdminAnnouncementListSchema,
  AdminAnnouncementSchema,
  AnnouncementListSchema,
  AnnouncementSchema,
  type AdminAnnouncementDto,
  type AnnouncementDto,
  type AnnouncementInput,
  type AnnouncementPatch,
} from '../../../shared/schemas/announcements';
import { PriceGroupListSchema } from '../../../shared/schemas/price-groups';
import { oncePerPage } from '../../../shared/page-context';
import { api } from '../../lib/api';
import { settle } from '../../lib/loaded';

export type { AdminAnnouncementDto, AnnouncementDto };

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

let recent: { at: number; list: Promise<AnnouncementDto[]> } | null = null;

/**
 * What this customer sees now; an empty list when it cannot be read (the page works without
 * it). One reading per page on the server; in the browser, the loads of one navigation (the
 * layout's banner and the dashboard) share it.
 */
export function loadMyAnnouncements(): Promise<AnnouncementDto[]> {
  const read = () =>
    api
      .get('/api/announcements', AnnouncementListSchema)
      .then((r) => r.items)
      .catch((err: unknown) => {
        console.warn('No se pudieron leer los anuncios:', err);
        return [] as AnnouncementDto[];
      });
  if (typeof window === 'undefined') return oncePerPage('announcements', read);
  const now = Date.now();
  if (recent && now - recent.at < 1000) return recent.list;
  recent = { at: now, list: read() };
  return recent.list;
}

/** Marks one read (the banner's close button). */
export function markAnnouncementRead(id: string): Promise<AnnouncementDto> {
  recent = null;
  return api.post(`/api/announcements/${encodeURIComponent(id)}/read`, AnnouncementSchema, {});
}

// The customer's announcements: what they see now (the banner of every page of the app and the
// dashboard's «Anuncios») and the close button's read mark.
import {
  AnnouncementListSchema,
  AnnouncementSchema,
  type AnnouncementDto,
} from '../../../shared/schemas/announcements';
import { oncePerPage } from '../../../shared/page-context';
import { api } from '../../lib/api';

export type { AnnouncementDto };

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

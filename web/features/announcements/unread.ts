import type { AnnouncementDto } from '../../../shared/schemas/announcements';

/** The banner's announcement: the newest start among those not read (a pinned one on a tie). */
export function newestUnread(items: readonly AnnouncementDto[]): AnnouncementDto | null {
  let best: AnnouncementDto | null = null;
  for (const a of items) {
    if (a.read) continue;
    const newer = !best || a.startsAt > best.startsAt;
    const tiePinned = best !== null && a.startsAt === best.startsAt && a.pinned && !best.pinned;
    if (newer || tiePinned) best = a;
  }
  return best;
}

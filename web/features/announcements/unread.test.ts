import { describe, expect, it } from 'vitest';
import type { AnnouncementDto } from '../../../shared/schemas/announcements';
import { newestUnread } from './unread';

function item(id: string, startsAt: string, extra: Partial<AnnouncementDto> = {}): AnnouncementDto {
  return { id, title: id, body: 'x', pinned: false, startsAt, endsAt: null, read: false, ...extra };
}

describe('newestUnread', () => {
  it('picks the newest start among the unread, whatever the order', () => {
    const items = [
      item('fijado', '2026-11-01T00:00:00.000Z', { pinned: true }),
      item('nuevo', '2026-11-20T00:00:00.000Z', { read: true }),
      item('medio', '2026-11-10T00:00:00.000Z'),
    ];
    expect(newestUnread(items)?.id).toBe('medio');
    expect(newestUnread(items.map((i) => ({ ...i, read: true })))).toBeNull();
    expect(newestUnread([])).toBeNull();
  });

  it('prefers a pinned one on the same start', () => {
    const at = '2026-11-10T00:00:00.000Z';
    expect(newestUnread([item('a', at), item('b', at, { pinned: true })])?.id).toBe('b');
  });
});

import { describe, expect, it } from 'vitest';
import { AnnouncementInputSchema } from '../../../shared/schemas/announcements';
import { announcementBody, fromLocalInput, readAnnouncementForm, toLocalInput } from './draft';

describe('announcement form', () => {
  it('turns local date inputs into instants and back', () => {
    const local = new Date(2026, 10, 28, 9, 30);
    expect(fromLocalInput('2026-11-28T09:30')).toBe(local.toISOString());
    expect(toLocalInput(local.toISOString())).toBe('2026-11-28T09:30');
    expect(fromLocalInput('')).toBe('');
    expect(fromLocalInput('mañana')).toBe('mañana');
    expect(toLocalInput(null)).toBe('');
  });

  it('builds the request body from the form', () => {
    const form = new FormData();
    form.set('title', 'Mantenimiento');
    form.set('body', '**Hoy**');
    form.set('audience', 'groups');
    form.append('groupIds', '7d1b7a4e-3c2a-4f4e-9a57-2f1f0f1c9b11');
    form.append('groupIds', '0f5c3e2a-1b2c-4d3e-8f9a-0b1c2d3e4f5a');
    form.set('pinned', 'on');
    form.set('startsAt', '');
    form.set('endsAt', '2026-12-01T10:00');
    const body = announcementBody(readAnnouncementForm(form));
    expect(body).toEqual({
      title: 'Mantenimiento',
      body: '**Hoy**',
      audience: {
        groupIds: ['7d1b7a4e-3c2a-4f4e-9a57-2f1f0f1c9b11', '0f5c3e2a-1b2c-4d3e-8f9a-0b1c2d3e4f5a'],
      },
      pinned: true,
      endsAt: new Date(2026, 11, 1, 10, 0).toISOString(),
      email: false,
    });
    expect(AnnouncementInputSchema.safeParse(body).success).toBe(true);
  });

  it('sends everyone and no end when so chosen, and lets the schema name a missing group', () => {
    const form = new FormData();
    form.set('title', 'a');
    form.set('body', 'b');
    form.set('audience', 'all');
    form.append('groupIds', 'ignored');
    form.set('email', 'on');
    expect(announcementBody(readAnnouncementForm(form))).toMatchObject({
      audience: {},
      endsAt: null,
      email: true,
      pinned: false,
    });
    form.set('audience', 'groups');
    form.delete('groupIds');
    const parsed = AnnouncementInputSchema.safeParse(announcementBody(readAnnouncementForm(form)));
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe('Elige al menos un grupo de precios, o «Todos».');
  });
});

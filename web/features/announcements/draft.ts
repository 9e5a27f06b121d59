// The announcement form of /admin/anuncios as the API wants it: the form's fields (local date
// and time inputs, the audience's checkboxes) turned into the request body. Pure, unit-tested.
import type { AnnouncementInput } from '../../../shared/schemas/announcements';

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** An instant as a `datetime-local` value in this device's zone («2026-11-28T09:30»). */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * A `datetime-local` value (this device's zone) as an ISO instant; '' stays ''. Anything else
 * is passed on as typed, for the schema to refuse with its message.
 */
export function fromLocalInput(value: string): string {
  const text = value.trim();
  const m = LOCAL.exec(text);
  if (!m) return text;
  const [, y, mo, d, h, mi] = m.map(Number) as [number, number, number, number, number, number];
  const date = new Date(y, mo - 1, d, h, mi);
  return Number.isNaN(date.getTime()) ? text : date.toISOString();
}

export type AnnouncementForm = {
  title: string;
  body: string;
  /** 'all' or 'groups'. */
  audience: string;
  groupIds: string[];
  pinned: boolean;
  startsAt: string;
  endsAt: string;
  email: boolean;
};

export function readAnnouncementForm(form: FormData): AnnouncementForm {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value : '';
  };
  return {
    title: text('title'),
    body: text('body'),
    audience: text('audience'),
    groupIds: form.getAll('groupIds').filter((v): v is string => typeof v === 'string'),
    pinned: form.get('pinned') !== null,
    startsAt: text('startsAt'),
    endsAt: text('endsAt'),
    email: form.get('email') !== null,
  };
}

/**
 * The request body. A new announcement without a start starts now; a change without one keeps
 * its start. An empty end means no end (`null`).
 */
export function announcementBody(form: AnnouncementForm): AnnouncementInput {
  const startsAt = fromLocalInput(form.startsAt);
  const endsAt = fromLocalInput(form.endsAt);
  return {
    title: form.title,
    body: form.body,
    audience: form.audience === 'groups' ? { groupIds: form.groupIds } : {},
    pinned: form.pinned,
    ...(startsAt ? { startsAt } : {}),
    endsAt: endsAt === '' ? null : endsAt,
    email: form.email,
  };
}

// THE date text for people, everywhere (screens, charts, e-mails): «24 nov 2026, 7:50» and
// «24 nov 2026», 24-hour clock, in a given IANA time zone. The month names are ours, not Intl's:
// Node's ICU and the browser's can differ («nov» / «nov.», narrow no-break spaces), and a server
// rendered page must hydrate to exactly the text the server wrote (React #418). Intl is used only
// for the numeric parts of a moment in a zone, which every ICU agrees on.
// Which zone a page uses, and how it stays the same on server and browser: docs/architecture.md
// («Dates and time zones»).

const MONTHS = [
  'ene',
  'feb',
  'mar',
  'abr',
  'may',
  'jun',
  'jul',
  'ago',
  'sep',
  'oct',
  'nov',
  'dic',
] as const;

/** Where dates are shown until the browser tells its zone (most customers are in Mexico). */
export const DEFAULT_TIME_ZONE = 'America/Mexico_City';

/** The cookie in which the browser tells the server its time zone, for server-rendered pages. */
export const TIME_ZONE_COOKIE = 'tz';

const zoneCache = new Map<string, Intl.DateTimeFormat>();

function partsFormat(timeZone: string): Intl.DateTimeFormat {
  let format = zoneCache.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      hourCycle: 'h23',
    });
    zoneCache.set(timeZone, format);
  }
  return format;
}

/** True for a time zone name this runtime knows ("America/Lima", "UTC"). */
export function isTimeZone(value: string | null | undefined): value is string {
  if (!value || value.length > 64) return false;
  try {
    partsFormat(value);
    return true;
  } catch {
    return false;
  }
}

type Parts = { year: number; month: number; day: number; hour: number; minute: number };

function parts(value: string | Date, timeZone: string): Parts | null {
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return null;
  const zone = isTimeZone(timeZone) ? timeZone : 'UTC';
  const out: Record<string, number> = {};
  for (const p of partsFormat(zone).formatToParts(date)) {
    if (p.type !== 'literal') out[p.type] = Number(p.value);
  }
  return {
    year: out.year ?? 0,
    month: out.month ?? 1,
    day: out.day ?? 1,
    // Some runtimes write midnight as 24 even with h23.
    hour: (out.hour ?? 0) % 24,
    minute: out.minute ?? 0,
  };
}

function dayText(p: Pick<Parts, 'year' | 'month' | 'day'>, withYear = true): string {
  const text = `${p.day} ${MONTHS[p.month - 1] ?? ''}`;
  return withYear ? `${text} ${p.year}` : text;
}

/** «24 nov 2026, 7:50» (24-hour clock) in `timeZone`; '' for an unreadable date. */
export function formatDateTime(value: string | Date, timeZone: string): string {
  const p = parts(value, timeZone);
  if (!p) return '';
  return `${dayText(p)}, ${p.hour}:${String(p.minute).padStart(2, '0')}`;
}

/** «24 nov 2026» in `timeZone`; '' for an unreadable date. */
export function formatDate(value: string | Date, timeZone: string): string {
  const p = parts(value, timeZone);
  return p ? dayText(p) : '';
}

/**
 * A calendar day written as "2026-11-24" (chart days, expiry days), with no time zone to apply:
 * «24 nov 2026», or «24 nov» without the year. The text as it came when it is not such a day.
 */
export function formatDay(day: string, options: { year?: boolean } = {}): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(day);
  if (!match) return day;
  const [, year, month, date] = match;
  return dayText(
    { year: Number(year), month: Number(month), day: Number(date) },
    options.year ?? true,
  );
}

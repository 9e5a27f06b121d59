// Dates on screen, in the time zone the page was rendered with (docs/architecture.md, «Dates and
// time zones»): the root loader reads it from the `tz` cookie (or uses the default), the server
// and the browser render with it, and once hydrated the browser switches to its own zone and
// remembers it in the cookie for the next server-rendered page.
import { createContext, useContext, useEffect, useMemo, useState } from 'react';
import {
  DEFAULT_TIME_ZONE,
  TIME_ZONE_COOKIE,
  formatDate,
  formatDateTime,
  isTimeZone,
} from '../../shared/dates';

export const TimeZoneContext = createContext<string>(DEFAULT_TIME_ZONE);

/** The zone a request's `tz` cookie names, or the default. */
export function timeZoneFromCookie(cookieHeader: string | null): string {
  for (const part of (cookieHeader ?? '').split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name !== TIME_ZONE_COOKIE) continue;
    let value = rest.join('=');
    try {
      value = decodeURIComponent(value);
    } catch {
      return DEFAULT_TIME_ZONE;
    }
    return isTimeZone(value) ? value : DEFAULT_TIME_ZONE;
  }
  return DEFAULT_TIME_ZONE;
}

/** The browser's own zone, when it tells one we know. */
function browserTimeZone(): string | null {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return isTimeZone(zone) ? zone : null;
  } catch {
    return null;
  }
}

/**
 * The zone to show dates in: the rendered one first (so hydration matches the server's HTML),
 * then, after hydration, the browser's own, written to the cookie for the next page.
 */
export function useDisplayTimeZone(rendered: string): string {
  const [zone, setZone] = useState(rendered);
  useEffect(() => {
    const own = browserTimeZone();
    if (!own) return;
    if (own !== rendered) setZone(own);
    if (!document.cookie.split('; ').includes(`${TIME_ZONE_COOKIE}=${encodeURIComponent(own)}`)) {
      document.cookie = `${TIME_ZONE_COOKIE}=${encodeURIComponent(own)}; Path=/; Max-Age=31536000; SameSite=Lax`;
    }
  }, [rendered]);
  return zone;
}

/** Formatters bound to the page's time zone: «24 nov 2026, 7:50» and «24 nov 2026». */
export function useDates() {
  const zone = useContext(TimeZoneContext);
  return useMemo(
    () => ({
      zone,
      dateTime: (value: string | Date) => formatDateTime(value, zone),
      date: (value: string | Date) => formatDate(value, zone),
    }),
    [zone],
  );
}

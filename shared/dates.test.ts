import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatDay, isTimeZone } from './dates';

describe('dates for people', () => {
  it('writes a moment as «24 nov 2026, 7:50» in the zone asked, 24-hour clock', () => {
    expect(formatDateTime('2026-11-24T13:50:00Z', 'America/Mexico_City')).toBe('24 nov 2026, 7:50');
    expect(formatDateTime('2026-11-24T13:50:00Z', 'UTC')).toBe('24 nov 2026, 13:50');
    expect(formatDateTime('2026-11-25T01:05:00Z', 'America/Mexico_City')).toBe(
      '24 nov 2026, 19:05',
    );
    expect(formatDateTime(new Date('2026-01-03T09:07:00Z'), 'Europe/Madrid')).toBe(
      '3 ene 2026, 10:07',
    );
  });

  it('writes midnight as 0:00 and moves the day with the zone', () => {
    expect(formatDateTime('2026-03-01T00:00:00Z', 'UTC')).toBe('1 mar 2026, 0:00');
    expect(formatDateTime('2026-03-01T00:00:00Z', 'America/Bogota')).toBe('28 feb 2026, 19:00');
    expect(formatDateTime('2026-12-31T23:59:00Z', 'Asia/Tokyo')).toBe('1 ene 2027, 8:59');
    expect(formatDate('2026-03-01T05:30:00Z', 'America/Lima')).toBe('1 mar 2026');
    expect(formatDate('2026-03-01T04:30:00Z', 'America/Lima')).toBe('28 feb 2026');
  });

  it('pads single-digit minutes, never hours', () => {
    expect(formatDateTime('2026-09-09T09:05:00Z', 'UTC')).toBe('9 sep 2026, 9:05');
  });

  it('writes calendar days without a zone, with or without the year', () => {
    expect(formatDay('2026-11-24')).toBe('24 nov 2026');
    expect(formatDay('2026-05-01', { year: false })).toBe('1 may');
    expect(formatDay('2026-12-31T23:59:59.999Z')).toBe('31 dic 2026');
    expect(formatDay('mañana')).toBe('mañana');
  });

  it('falls back to UTC for an unknown zone and to nothing for an unreadable date', () => {
    expect(isTimeZone('America/Argentina/Buenos_Aires')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    expect(formatDateTime('2026-11-24T13:50:00Z', 'Mars/Olympus')).toBe('24 nov 2026, 13:50');
    expect(formatDateTime('not a date', 'UTC')).toBe('');
    expect(formatDate('', 'UTC')).toBe('');
  });
});

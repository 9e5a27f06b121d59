import { describe, expect, it } from 'vitest';
import { apiTimeout, backoffDelay, isExpired, sessionSchedule } from './session-timing';
import { safeNextPath } from './safe-next';

describe('session timing (docs/domain.md §8)', () => {
  const expiresAt = 1_000_000_000;

  it('treats a session as expired 30 s before its expiry', () => {
    expect(isExpired(expiresAt, expiresAt - 30_001)).toBe(false);
    expect(isExpired(expiresAt, expiresAt - 30_000)).toBe(true);
  });

  it('renews 5 minutes before expiry', () => {
    expect(sessionSchedule(expiresAt, expiresAt - 3_600_000)).toEqual({
      renewInMs: 3_300_000,
      expireInMs: 3_570_000,
    });
    expect(sessionSchedule(expiresAt, expiresAt)).toEqual({ renewInMs: 0, expireInMs: 0 });
  });

  it('backs off from 30 s, doubling up to 16 minutes', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 50].map(backoffDelay)).toEqual([
      30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 960_000, 960_000,
    ]);
  });

  it('times out API calls after 30 s, or 60 s on mobile', () => {
    expect(apiTimeout(false)).toBe(30_000);
    expect(apiTimeout(true)).toBe(60_000);
  });

  it('only returns to same-site paths after sign-in', () => {
    expect(safeNextPath('/profile?x=1')).toBe('/profile?x=1');
    expect(safeNextPath(null)).toBe('/dashboard');
    expect(safeNextPath('https://evil.example')).toBe('/dashboard');
    expect(safeNextPath('//evil.example')).toBe('/dashboard');
    expect(safeNextPath('/\\evil.example')).toBe('/dashboard');
    // Open-redirect regression: browsers drop tabs and line breaks, leaving `//evil.example`.
    expect(safeNextPath('/\t/evil.example')).toBe('/dashboard');
    expect(safeNextPath('/\n/evil.example')).toBe('/dashboard');
    expect(safeNextPath('/.//evil.example')).toBe('/dashboard');
    expect(safeNextPath('/logout')).toBe('/dashboard');
  });
});

// Session timing rules (docs/domain.md §8, client timing). Pure, so they are unit-tested.

/** A session counts as expired this long before its real expiry. */
export const EXPIRY_MARGIN_MS = 30_000;
/** The client renews the session this long before its expiry. */
export const RENEW_BEFORE_MS = 5 * 60_000;
/** Back-off after a network error: starts here and doubles... */
export const BACKOFF_START_MS = 30_000;
/** ...up to this. */
export const BACKOFF_MAX_MS = 16 * 60_000;
export const API_TIMEOUT_MS = 30_000;
export const API_TIMEOUT_MOBILE_MS = 60_000;

/** True when the session must be treated as expired at `now`. */
export function isExpired(expiresAt: number, now: number): boolean {
  return now >= expiresAt - EXPIRY_MARGIN_MS;
}

/** Milliseconds until the client should renew, and until it must treat the session as expired. */
export function sessionSchedule(
  expiresAt: number,
  now: number,
): { renewInMs: number; expireInMs: number } {
  return {
    renewInMs: Math.max(0, expiresAt - RENEW_BEFORE_MS - now),
    expireInMs: Math.max(0, expiresAt - EXPIRY_MARGIN_MS - now),
  };
}

/** Delay before retry number `attempt` (0-based): 30 s, 60 s, 120 s … capped at 16 min. */
export function backoffDelay(attempt: number): number {
  const safe = Math.max(0, Math.min(attempt, 20));
  return Math.min(BACKOFF_START_MS * 2 ** safe, BACKOFF_MAX_MS);
}

/** API time-out: 60 s on mobile devices, 30 s elsewhere. */
export function apiTimeout(isMobile: boolean): number {
  return isMobile ? API_TIMEOUT_MOBILE_MS : API_TIMEOUT_MS;
}

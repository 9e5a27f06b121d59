// Who may read /metrics: with METRICS_TOKEN, the bearer of that token (from anywhere); without
// it, only a caller on this machine (its socket, never a header: see isLocalCaller).
import { createHash, timingSafeEqual } from 'node:crypto';
import { isLocalCaller } from './client-ip';

export type MetricsAccess = 'allowed' | 'unauthorized' | 'not-found';

/** `Authorization: Bearer <token>`, compared in constant time (both sides hashed first). */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const given = /^Bearer +(\S+) *$/i.exec(authorization ?? '')?.[1] ?? '';
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  // Hashing gives both sides one length, so the comparison takes the same time for any guess.
  return timingSafeEqual(digest(given), digest(token)) && given.length > 0;
}

export function metricsAccess(
  token: string | undefined,
  socket: string | null,
  headers: Headers,
): MetricsAccess {
  if (token !== undefined)
    return bearerMatches(headers.get('authorization') ?? undefined, token)
      ? 'allowed'
      : 'unauthorized';
  return isLocalCaller(socket, headers) ? 'allowed' : 'not-found';
}

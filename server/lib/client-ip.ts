import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';

/** Header the server sets itself (any client value is replaced) and Better Auth reads. */
export const CLIENT_IP_HEADER = 'x-cometa-client-ip';

/**
 * The client's address: the socket's, or, behind a trusted proxy (TRUST_PROXY=true), the
 * last address the proxy appended to X-Forwarded-For.
 */
export function clientIp(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for');
    const last = forwarded?.split(',').at(-1)?.trim();
    if (last) return last;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    // app.request() in tests has no socket.
    return c.req.header(CLIENT_IP_HEADER) ?? '127.0.0.1';
  }
}

export function isLoopback(address: string): boolean {
  return (
    address === '127.0.0.1' ||
    address === '::1' ||
    address.startsWith('127.') ||
    address === '::ffff:127.0.0.1'
  );
}

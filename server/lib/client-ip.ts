import net from 'node:net';
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
  const lower = address.toLowerCase();
  if (lower === '::1') return true;
  // IPv4 loopback, also as an IPv4-mapped IPv6 address (a dual-stack socket).
  const v4 = lower.startsWith('::ffff:') ? lower.slice('::ffff:'.length) : lower;
  return net.isIPv4(v4) && v4.startsWith('127.');
}

/**
 * The address of the TCP peer, from @hono/node-server's bindings (`c.env.incoming.socket`),
 * never from a header; null without a socket (`app.request()` without bindings).
 */
export function socketAddress(c: Context): string | null {
  const bindings: unknown = c.env;
  if (typeof bindings !== 'object' || bindings === null || !('incoming' in bindings)) return null;
  const incoming: unknown = bindings.incoming;
  if (typeof incoming !== 'object' || incoming === null || !('socket' in incoming)) return null;
  const socket: unknown = incoming.socket;
  if (typeof socket !== 'object' || socket === null || !('remoteAddress' in socket)) return null;
  return typeof socket.remoteAddress === 'string' ? socket.remoteAddress : null;
}

/** Headers a proxy adds when it relays a request (a direct local caller sends none). */
const RELAY_HEADERS = [
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-real-ip',
  'via',
];

/**
 * A caller on this machine: the socket is loopback and no proxy says it relays the request (a
 * reverse proxy on the same host connects from loopback too). Headers can only take access
 * away here, never grant it, so TRUST_PROXY plays no part.
 */
export function isLocalCaller(socket: string | null, headers: Headers): boolean {
  return socket !== null && isLoopback(socket) && !RELAY_HEADERS.some((h) => headers.has(h));
}

/** The request came from this machine directly (see isLocalCaller). */
export function isLocalRequest(c: Context): boolean {
  return isLocalCaller(socketAddress(c), c.req.raw.headers);
}

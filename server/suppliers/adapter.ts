// The entry point of supplier adapters: the endpoint a typed URL stands for, and the adapter of
// a connection's protocol.
import { createDhruAdapter } from './dhru';
import { createSmmAdapter } from './smm';
import type { SupplierAdapter, SupplierConnection, SupplierProtocol, Transport } from './types';

/**
 * The endpoint to POST to. DHRU: the URL as typed when its path ends in `.php`, otherwise
 * `<url>/api/index.php`; SMM: as typed when its path ends in `/api/v2` or `/api/v1`, otherwise
 * `<url>/api/v2`. A base ending in `/api` is completed, not doubled. The query string is kept;
 * a URL that does not parse is returned as typed (the HTTP layer refuses it).
 */
export function endpointUrl(protocol: SupplierProtocol, url: string): string {
  const typed = url.trim();
  let parsed: URL;
  try {
    parsed = new URL(typed);
  } catch {
    return typed;
  }
  const path = parsed.pathname;
  if (protocol === 'dhru') {
    if (/\.php$/i.test(path)) return typed;
  } else if (/\/api\/v[12]\/?$/i.test(path)) {
    return typed;
  }
  const base = path.replace(/\/+$/, '');
  const tail = protocol === 'dhru' ? '/index.php' : '/v2';
  parsed.pathname = /\/api$/i.test(base) ? `${base}${tail}` : `${base}/api${tail}`;
  parsed.hash = '';
  return parsed.toString();
}

/** The adapter for the connection's protocol. */
export function createAdapter(conn: SupplierConnection, transport: Transport): SupplierAdapter {
  switch (conn.protocol) {
    case 'dhru':
      return createDhruAdapter(conn, transport);
    case 'smm':
      return createSmmAdapter(conn, transport);
  }
}

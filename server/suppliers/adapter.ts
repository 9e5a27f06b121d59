// The entry point of supplier adapters: the endpoint a typed URL stands for, and the adapter of
// a connection's protocol.
import { createDhruAdapter } from './dhru';
import { createSmmAdapter } from './smm';
import type {
  CallOutcome,
  ConnectedAdapter,
  SupplierAdapter,
  SupplierConnection,
  SupplierProtocol,
  Transport,
} from './types';

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

/** A certain refusal without a call: the protocol has no such action (DHRU: refills, cancels). */
function unsupported<T>(message: string): Promise<CallOutcome<T>> {
  return Promise.resolve({ ok: false, kind: 'refused-order', message, exchanges: [] });
}

/** Fills in the actions a protocol lacks with a clear "not supported" refusal. */
function complete(adapter: SupplierAdapter, protocol: string): ConnectedAdapter {
  return {
    ...adapter,
    refill:
      adapter.refill?.bind(adapter) ??
      function refill() {
        return unsupported(`El protocolo ${protocol} no admite reposiciones.`);
      },
    refillStatus:
      adapter.refillStatus?.bind(adapter) ??
      function refillStatus() {
        return unsupported(`El protocolo ${protocol} no admite reposiciones.`);
      },
    cancel:
      adapter.cancel?.bind(adapter) ??
      function cancel() {
        return unsupported(`El protocolo ${protocol} no admite cancelaciones.`);
      },
  };
}

/** The adapter for the connection's protocol. */
export function createAdapter(conn: SupplierConnection, transport: Transport): ConnectedAdapter {
  switch (conn.protocol) {
    case 'dhru':
      return complete(createDhruAdapter(conn, transport), 'DHRU');
    case 'smm':
      return complete(createSmmAdapter(conn, transport), 'SMM');
  }
}

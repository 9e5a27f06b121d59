// The path the router matches. Client software of this trade is configured with a site URL and
// appends the endpoint itself: the DHRU kits tell users to end the URL with a slash and then add
// `/api/index.php` (→ `//api/index.php`), and SMM panels print their endpoint as `/api/v2` and
// `/api/v2/`. Repeated slashes are folded, and the protocol endpoints also match with a trailing
// slash; everything else is routed exactly as Hono would.
import { Hono } from 'hono';

/** Hono's own path extraction (percent-decoding included), kept as it is. */
const honoPath = new Hono().getPath;

/** The endpoints that other panels' software calls by a URL they build themselves. */
const PROTOCOL_ENDPOINT = /^\/api\/(?:index\.php|v2)\/+$/i;

/** `path` with runs of slashes folded and a protocol endpoint's trailing slash removed. */
export function normalisePath(path: string): string {
  const folded = path.includes('//') ? path.replace(/\/{2,}/g, '/') : path;
  return PROTOCOL_ENDPOINT.test(folded) ? folded.replace(/\/+$/, '') : folded;
}

export function routingPath(request: Request, options?: { env?: unknown }): string {
  return normalisePath(honoPath(request, options));
}

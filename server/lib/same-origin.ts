import type { MiddlewareHandler } from 'hono';
import { ERROR_STATUS } from '../../shared/error-codes';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Cross-site request forgery guard for the API's state-changing routes. The session cookie is
 * SameSite=Lax, which already keeps it off cross-site POSTs; this also refuses requests from
 * another origin of the same site (a sibling subdomain) and from browsers that say the request
 * is cross-site. Browsers send Origin on every POST; a request without it (curl, a script with
 * its own cookie) is not a browser being tricked, and goes through.
 */
export function sameOriginGuard(
  trustedOrigins: readonly string[],
  options: {
    /** Paths exempt: an entry ending in `/` exempts everything under it, any other that path. */
    except?: string | readonly string[];
  } = {},
): MiddlewareHandler {
  const exempt = typeof options.except === 'string' ? [options.except] : (options.except ?? []);
  const trusted = new Set(trustedOrigins.map((o) => new URL(o).origin));
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const path = c.req.path;
    if (exempt.some((e) => (e.endsWith('/') ? path.startsWith(e) : path === e))) return next();
    const origin = c.req.header('Origin');
    const site = c.req.header('Sec-Fetch-Site');
    const foreign = (Boolean(origin) && !trusted.has(origin ?? '')) || site === 'cross-site';
    if (!foreign) return next();
    return c.json(
      {
        code: 'FORBIDDEN',
        message: 'Rechazamos la solicitud porque no viene de esta aplicación.',
      },
      ERROR_STATUS.FORBIDDEN,
    );
  };
}

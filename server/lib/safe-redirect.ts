// The one check for a redirect target that came from a request (a `callbackURL`, a `next`).
// Prefix tests such as `startsWith('/')` let `//evil.example`, `/\evil.example` and
// `/<tab>/evil.example` through: browsers read all three as "another site". Resolving the target
// the way a browser does (WHATWG URL parsing: backslashes become slashes, tabs and line breaks
// are dropped) and comparing origins is what tells.

/**
 * The path (+ query + hash) of `target` when it resolves to the origin of `appUrl`, else
 * `fallback`. Relative targets are resolved against `appUrl`; absolute ones on that origin come
 * back as a path. A path that itself starts with `//` (`/.//evil.example`,
 * `http://app//evil.example`) is refused, since written into a Location header it would be
 * protocol-relative again.
 */
export function sameOriginPath<F extends string | null>(
  target: unknown,
  appUrl: string,
  fallback: F,
): string | F {
  if (typeof target !== 'string' || target === '') return fallback;
  let url: URL;
  let app: URL;
  try {
    app = new URL(appUrl);
    url = new URL(target, app);
  } catch {
    return fallback;
  }
  if (url.origin !== app.origin || url.pathname.startsWith('//')) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}

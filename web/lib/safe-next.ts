// Where to go after signing in: a module of its own, so the sign-in page does not load the
// session store's timing code with it.

const PARSE_ORIGIN = 'http://app.invalid';

/**
 * Only same-site relative paths are accepted as "go back to" targets after sign-in. The target is
 * resolved as a browser would (backslashes become slashes, tabs and line breaks are dropped), so
 * `/\t/evil.example` is refused like `//evil.example`; the same rule as the server's
 * sameOriginPath (server/lib/safe-redirect.ts).
 */
export function safeNextPath(next: string | null | undefined, fallback = '/dashboard'): string {
  if (!next || !next.startsWith('/')) return fallback;
  let url: URL;
  try {
    url = new URL(next, PARSE_ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== PARSE_ORIGIN || url.pathname.startsWith('//')) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  if (path.startsWith('/login') || path.startsWith('/logout') || path.startsWith('/register'))
    return fallback;
  return path;
}

import { AsyncLocalStorage } from 'node:async_hooks';
import {
  currentPageContext,
  registerPageContextSource,
  type PageContext,
} from '../../shared/page-context';
import type { StaffArea } from '../../shared/roles';
import { requireSignedIn, requireStaff } from './page-session';
import type { SessionSnapshot } from './session-state';

// Server loaders run inside the page context the API server sets up (server/lib/pages.ts). Under
// `npm run dev` the pages are rendered by Vite's server instead, beside the API on API_URL: there
// a loader gets a context that forwards the visitor's headers to the API over HTTP.

const development = new AsyncLocalStorage<PageContext>();
registerPageContextSource(() => development.getStore());

const FORWARDED = ['cookie', 'user-agent', 'accept-language'];

function overHttp(request: Request): PageContext {
  const base = process.env.API_URL ?? 'http://localhost:3000';
  return {
    memo: new Map(),
    origin: new URL(request.url).origin,
    fetch(path, init) {
      const headers = new Headers(init.headers);
      for (const name of FORWARDED) {
        const value = request.headers.get(name);
        if (value) headers.set(name, value);
      }
      return fetch(new URL(path, base), { ...init, headers });
    },
  };
}

/** Runs a server loader's work where its API calls reach the API as the visitor. */
export function pageLoader<T>(request: Request, load: () => Promise<T>): Promise<T> {
  if (currentPageContext()) return load();
  return development.run(overHttp(request), load);
}

/** A signed-in page's server loader: the guard first, then the page's data as the visitor. */
export function signedInPage<T>(request: Request, load: () => Promise<T>): Promise<T> {
  return pageLoader(request, async () => {
    await requireSignedIn(request);
    return load();
  });
}

/**
 * A back-office page's server loader: the staff guard first (and, with `area`, that the role may
 * use it: shared/roles.ts `staffCan`), then the page's data.
 */
export function adminPage<T>(
  request: Request,
  load: (session: SessionSnapshot) => Promise<T>,
  area?: StaffArea,
): Promise<T> {
  return pageLoader(request, async () => load(await requireStaff(request, area)));
}

/** Where the visitor reaches the app (the browser's `location.origin`), on the server. */
export function pageOrigin(request: Request): string {
  return currentPageContext()?.origin ?? new URL(request.url).origin;
}

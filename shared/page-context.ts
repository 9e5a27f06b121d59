// The request a page is being rendered for on the server (docs/decisions/0016): the web code's
// API client (web/lib/api.ts) sends its calls through it instead of `fetch`, so a server loader
// reads exactly what the browser would, as the signed-in person. The server (server/lib/pages.ts)
// and the development fallback (web/lib/page-loader.server.ts) each register where their current
// context comes from; the registry is a process-wide global so that the web app's server build
// and the API server share it without importing each other.

/** One page render on the server. */
export type PageContext = {
  /** Sends an API request (`path` starts with /api/) as the visitor the page is for. */
  fetch: (path: string, init: RequestInit) => Promise<Response>;
  /** Answers shared by the loaders of this render (the session is read once per page). */
  memo: Map<string, Promise<unknown>>;
  /** Where the app is reached (APP_URL's origin), as the browser sees it. */
  origin: string;
  /** The CSP nonce of the page's scripts. */
  nonce?: string;
};

type Source = () => PageContext | undefined;

const REGISTRY = Symbol.for('cometa.page-context-sources');

function sources(): Source[] {
  const holder = globalThis as unknown as Record<symbol, Source[] | undefined>;
  return (holder[REGISTRY] ??= []);
}

/** Adds a source of the current page context (an AsyncLocalStorage's getStore). */
export function registerPageContextSource(source: Source): void {
  if (!sources().includes(source)) sources().push(source);
}

/** The page being rendered on the server for the current request, if any. */
export function currentPageContext(): PageContext | undefined {
  for (const source of sources()) {
    const context = source();
    if (context) return context;
  }
  return undefined;
}

/** Once per page: the first loader asking for `key` runs `load`, the others share its answer. */
export function oncePerPage<T>(key: string, load: () => Promise<T>): Promise<T> {
  const context = currentPageContext();
  if (!context) return load();
  let entry = context.memo.get(key) as Promise<T> | undefined;
  if (!entry) {
    entry = load();
    context.memo.set(key, entry);
  }
  return entry;
}

// The answer to a page request that is not prerendered: the web app renders it on the server
// (docs/decisions/0016), its loaders reading this server's API in-process as the visitor.
import type { Context, Hono } from 'hono';
import type { PageContext } from '../../shared/page-context';
import type { Env } from '../env';
import type { AppEnv } from './http';
import type { PageRenderer } from './pages';

/** The visitor's headers an API call made for their page carries (who they are, where from). */
const FORWARDED = [
  'cookie',
  'user-agent',
  'accept-language',
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-real-ip',
];

export async function renderPage(
  c: Context<AppEnv>,
  pages: PageRenderer,
  app: Hono<AppEnv>,
  env: Env,
): Promise<Response> {
  const origin = new URL(env.APP_URL).origin;
  const setCookies: string[] = [];
  const page: PageContext = {
    origin,
    nonce: c.get('secureHeadersNonce'),
    memo: new Map(),
    async fetch(path, init) {
      if (!path.startsWith('/api/')) throw new Error(`Not an API path: ${path}`);
      const headers = new Headers(init.headers);
      for (const name of FORWARDED) {
        const value = c.req.header(name);
        if (value !== undefined) headers.set(name, value);
      }
      headers.set('x-request-id', c.get('requestId'));
      // The same bindings (the visitor's socket): the API sees the same address and limits.
      const response = await app.fetch(
        new Request(new URL(path, origin), { ...init, headers }),
        c.env,
      );
      // A renewed session cookie reaches the browser with the page.
      setCookies.push(...response.headers.getSetCookie());
      return response;
    },
  };
  const rendered = await pages(c.req.raw, page);
  const headers = new Headers(rendered.headers);
  for (const cookie of setCookies) headers.append('Set-Cookie', cookie);
  // The page holds the visitor's own data: never kept by a shared cache or the back button's.
  headers.set('Cache-Control', 'private, no-store');
  return new Response(rendered.body, { status: rendered.status, headers });
}

// Pages rendered on the server (docs/decisions/0016): React Router's request handler over the
// web app's server build, run inside a page context (shared/page-context.ts) through which the
// web code's API client reaches this server's own routes in-process, as the visitor.
import { AsyncLocalStorage } from 'node:async_hooks';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { createRequestHandler, type ServerBuild } from 'react-router';
import { registerPageContextSource, type PageContext } from '../../shared/page-context';

const pages = new AsyncLocalStorage<PageContext>();
registerPageContextSource(() => pages.getStore());

/** Renders the page (or the `.data` of a navigation) `request` asks for, within `page`. */
export type PageRenderer = (request: Request, page: PageContext) => Promise<Response>;

/** The renderer of the built web app, or null when it is not built. */
export async function loadPageRenderer(serverBuildFile: string): Promise<PageRenderer | null> {
  if (!existsSync(serverBuildFile)) return null;
  const build = (await import(pathToFileURL(serverBuildFile).href)) as ServerBuild;
  const handler = createRequestHandler(build, 'production');
  return (request, page) => pages.run(page, () => handler(request));
}

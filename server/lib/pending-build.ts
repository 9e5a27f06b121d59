// The web app still being built by `npm start` (scripts/start.mjs) while the server already
// answers: the API and /readyz at once, pages with a Spanish «se está preparando» notice that
// reloads itself, until the build is complete. Complete means `npm start`'s stamp names this
// APP_NAME (it is written after the build has finished), so a half-written build is never read.
import { existsSync, readFileSync } from 'node:fs';
import { isKnownPath } from '../../shared/routes';
import type { Logger } from './logger';
import { loadPageRenderer, type PageRenderer } from './pages';
import { loadWebAssets, type WebAssets } from './web-assets';

export type LoadedBuild = { web: WebAssets; pages: PageRenderer | null };

export type PendingBuild = {
  /** The build once it is complete and loaded, else null; looks at the disk at most once a second. */
  ready(): Promise<LoadedBuild | null>;
  /** The page shown meanwhile: 200 for the app's paths, 404 for the others (as when not built). */
  notice(pathname: string): { html: string; status: 200 | 404 };
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

export function pendingBuild(options: {
  webRoot: string;
  serverBuildFile: string;
  stampFile: string;
  appName: string;
  logger: Logger;
  now?: () => number;
}): PendingBuild {
  const now = options.now ?? Date.now;
  let checkedAt = -Infinity;
  let loading: Promise<LoadedBuild | null> | null = null;
  const name = escapeHtml(options.appName);
  const html = `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta http-equiv="refresh" content="3"><title>${name}</title></head>
<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#0f172a"><h1 style="font-size:1.5rem">${name} se está preparando…</h1><p>Estamos terminando de preparar la aplicación web. Esta página se actualizará sola en unos segundos.</p></body></html>`;

  function complete(): boolean {
    if (!existsSync(options.stampFile)) return false;
    try {
      return (
        readFileSync(options.stampFile, 'utf8') === options.appName &&
        existsSync(options.serverBuildFile)
      );
    } catch {
      return false;
    }
  }

  return {
    async ready() {
      if (loading) return loading;
      if (now() - checkedAt < 1_000) return null;
      checkedAt = now();
      if (!complete()) return null;
      loading = (async () => {
        const web = loadWebAssets(options.webRoot);
        if (!web.available) return null;
        const pages = await loadPageRenderer(options.serverBuildFile);
        options.logger.info('web app built: pages are served');
        return { web, pages };
      })().catch((err: unknown) => {
        options.logger.error({ err }, 'the finished web build could not be loaded');
        loading = null;
        return null;
      });
      return loading;
    },
    notice(pathname) {
      const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
      return { html, status: isKnownPath(path) ? 200 : 404 };
    },
  };
}

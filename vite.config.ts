import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const API_TARGET = process.env.API_URL ?? 'http://localhost:3000';

/**
 * React Router's package.json points every import at its development build, whose dev-only
 * warnings (strings and checks) then ship to the browser: remix-run/react-router#14102. The
 * package also holds the production build, the same code with those warnings off; the browser
 * bundle uses it. The prerender (SSR) keeps the package's own resolution, so that React Router
 * and @react-router/dev share one copy there.
 */
function reactRouterProductionBuild(): Plugin {
  const packageDir = path.dirname(
    createRequire(import.meta.url).resolve('react-router/package.json'),
  );
  const dist = (file: string) => path.join(packageDir, 'dist', 'production', file);
  const files: Record<string, string> = {
    'react-router': dist('index.mjs'),
    'react-router/dom': dist('dom-export.mjs'),
  };
  return {
    name: 'cometa:react-router-production-build',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, _importer, options) {
      if (options.ssr || this.environment.name !== 'client') return null;
      return files[source] ?? null;
    },
  };
}

/** `zod` in the browser build → web/lib/zod-jitless.ts, which turns zod's JIT (and its eval probe) off. */
function zodWithoutEval(): Plugin {
  const wrapper = path.join(path.dirname(fileURLToPath(import.meta.url)), 'web/lib/zod-jitless.ts');
  return {
    name: 'cometa:zod-without-eval',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer, options) {
      if (options.ssr || this.environment.name !== 'client') return null;
      if (source !== 'zod' || importer === wrapper) return null;
      return wrapper;
    },
  };
}

const CORE_PACKAGES =
  /node_modules[\\/](?:react|react-dom|scheduler|react-router)[\\/]|^\0vite[\\/]preload-helper/;
/** The app's own modules in the core chunk: the frame of every page, and the small pieces it shares. */
const CORE_APP_MODULES = new Set([
  'web/components/layout/account-header.ts',
  'web/components/layout/app-shell.tsx',
  'web/components/layout/footer.tsx',
  'web/components/layout/logo.tsx',
  'web/components/layout/public-nav.tsx',
  'web/components/ui/app-link.tsx',
  'web/components/ui/button.tsx',
  'web/components/ui/card.tsx',
  'web/components/ui/spinner.tsx',
  'web/lib/app-name.ts',
  'web/lib/navigation.ts',
  'web/lib/reload-target.ts',
  'web/lib/session-state.ts',
  'web/routes/not-found.tsx',
  'shared/categories.ts',
  'shared/routes.ts',
]);
const PROJECT_ROOT = path.dirname(fileURLToPath(import.meta.url));
const projectPath = (id: string) => path.relative(PROJECT_ROOT, id).split(path.sep).join('/');
const ACCOUNT_MENU_PACKAGES =
  /node_modules[\\/](?:radix-ui|@radix-ui|@floating-ui|aria-hidden|react-remove-scroll|react-remove-scroll-bar|react-style-singleton|use-sidecar|use-callback-ref|get-nonce|tslib)[\\/]/;
const isAccountMenuModule = (id: string) =>
  ACCOUNT_MENU_PACKAGES.test(id) || projectPath(id) === 'web/components/layout/account-parts.tsx';
const SESSION_MODULES = new Set([
  'web/lib/session.ts',
  'web/lib/api.ts',
  'web/lib/two-factor-gate.ts',
  'web/lib/sign-in-url.ts',
]);
const isSessionModule = (id: string) => SESSION_MODULES.has(projectPath(id));
const isCoreModule = (id: string) =>
  CORE_PACKAGES.test(id) ||
  CORE_APP_MODULES.has(path.relative(PROJECT_ROOT, id).split(path.sep).join('/'));

export default defineConfig({
  plugins: [tailwindcss(), reactRouterProductionBuild(), zodWithoutEval(), reactRouter()],
  define: {
    // The product name is part of the build (loading text, titles); npm start rebuilds when it changes.
    'import.meta.env.VITE_APP_NAME': JSON.stringify(process.env.APP_NAME?.trim() || 'Cometa'),
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: false },
      '/_dev': { target: API_TARGET, changeOrigin: false },
    },
  },
  build: {
    sourcemap: false,
    minify: 'terser',
    terserOptions: { compress: { passes: 2 }, format: { comments: false } },
    rolldownOptions: {
      // Rolldown's note on slow plugins (terser, React Router's resolver) is advice for whoever
      // profiles the build, printed on every build; `npm run build` stays quiet.
      checks: { pluginTimings: false },
      output: {
        codeSplitting: {
          groups: [
            {
              // What every page runs before it is interactive, in one file (one request, and
              // brotli does better on one file than on a dozen small ones): React, React Router
              // and the app's frame (header, footer, session state). `npm run budget` checks it.
              name: 'core',
              test: isCoreModule,
              priority: 3,
            },
            {
              // The signed-in header's menu (Radix and what it brings), in one file.
              name: 'account',
              test: isAccountMenuModule,
              priority: 2,
            },
            {
              // The session store and the API client every signed-in page starts with (public
              // pages load them after they start), in one file rather than six small ones.
              name: 'session',
              test: isSessionModule,
              priority: 2,
            },
            {
              // zod and its browser settings in one file, so no page lists one more chunk.
              name: 'zod',
              test: /node_modules[\\/]zod[\\/]|web[\\/]lib[\\/]zod-jitless\.ts$/,
              priority: 2,
            },
          ],
        },
      },
    },
  },
});

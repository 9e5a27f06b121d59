import type { Config } from '@react-router/dev/config';
import { PRERENDERED_PATHS } from './shared/routes';

export default {
  appDirectory: 'web',
  // Signed-in pages are rendered on the server with their data (docs/decisions/0016); public
  // pages are rendered to HTML at build time.
  ssr: true,
  prerender: [...PRERENDERED_PATHS],
  // Every route is known from the first page (as in the SPA): no /__manifest requests, and a
  // hovered link prefetches its chunk at once.
  routeDiscovery: { mode: 'initial' },
  future: {
    v8_middleware: false,
    v8_passThroughRequests: false,
    v8_splitRouteModules: false,
    v8_trailingSlashAwareDataRequests: false,
    v8_viteEnvironmentApi: false,
  },
} satisfies Config;

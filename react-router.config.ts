import type { Config } from '@react-router/dev/config';
import { PRERENDERED_PATHS } from './shared/routes';

export default {
  appDirectory: 'web',
  ssr: false,
  // Public pages are rendered to HTML at build time; everything else is the SPA.
  prerender: [...PRERENDERED_PATHS],
} satisfies Config;

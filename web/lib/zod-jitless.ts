// The browser's zod (vite.config.ts points `zod` here in the client build): the same API with
// its JIT compilation off. Otherwise zod probes `new Function` while building the first object
// schema; our Content-Security-Policy has no 'unsafe-eval', so the browser reports a violation
// (Lighthouse: "Issues were logged", best practices 96) even though zod catches the error. The
// JIT only speeds up parsing large batches; the browser parses a few answers at a time.
import { config } from 'zod';

config({ jitless: true });

export * from 'zod';

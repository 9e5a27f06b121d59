import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { Hono, type MiddlewareHandler } from 'hono';
import { NONCE, secureHeaders } from 'hono/secure-headers';
import { serveStatic } from '@hono/node-server/serve-static';
import { ERROR_MESSAGES } from '../shared/error-codes';
import type { Database } from './db/client';
import type { Env } from './env';
import { devMailboxEnabled, mailboxRoutes } from './features/dev-mailbox/mailbox.routes';
import { buildOpenApiDocument } from './openapi/document';
import { renderDocsPage } from './openapi/docs-page';
import { API_ROUTES } from './routes';
import { mountRoutes, type RouteDeps } from './lib/route';
import { trustedOrigins, type Auth } from './lib/auth';
import { sameOriginGuard } from './lib/same-origin';
import { authHttpHandler } from './lib/auth-http';
import { clientIp, socketAddress } from './lib/client-ip';
import { compression } from './lib/compression';
import { errorHandler } from './lib/error-handler';
import { routingPath } from './lib/routing-path';
import type { AppEnv } from './lib/http';
import type { Logger } from './lib/logger';
import type { Mailer } from './lib/mail';
import type { Metrics } from './lib/metrics';
import { metricsAccess } from './lib/metrics-access';
import type { JobQueue } from './jobs/queue';
import { queueGauges } from './jobs/gauges';
import type { WebAssets } from './lib/web-assets';
import type { PageRenderer } from './lib/pages';
import type { PendingBuild } from './lib/pending-build';
import { renderPage } from './lib/page-render';

export type AppDeps = {
  database: Database;
  env: Env;
  auth: Auth;
  mailer: Mailer;
  logger: Logger;
  web: WebAssets;
  /** Renders the pages that are not prerendered (null when the web app is not built). */
  pages?: PageRenderer | null;
  /** The web app `npm start` is still building: served once complete (server/lib/pending-build.ts). */
  pendingBuild?: PendingBuild | null;
  /** The job queue (jobs are sent from requests; workers run beside, see server/jobs/runner.ts). */
  jobs: JobQueue;
  /** Shared with the workers, so /metrics shows supplier calls too. */
  metrics: Metrics;
};

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

export function createApp(deps: AppDeps) {
  const { database, env, auth, mailer, logger, jobs, metrics, pendingBuild = null } = deps;
  // Replaced once, when a build `npm start` was still making is complete.
  let web = deps.web;
  let pages = deps.pages ?? null;
  async function currentBuild() {
    if (pendingBuild && !web.available) {
      const built = await pendingBuild.ready();
      if (built) ({ web, pages } = built);
    }
  }
  const db = database.db;
  const app = new Hono<AppEnv>({ getPath: routingPath });

  app.use(async (c, next) => {
    const started = performance.now();
    // A caller's id is kept only when it is a short safe token; it goes into logs and headers.
    const given = c.req.header('x-request-id');
    const requestId = given && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
    c.set('requestId', requestId);
    c.set('logger', logger.child({ requestId }));
    c.set('clientIp', clientIp(c, env.TRUST_PROXY));
    c.header('X-Request-Id', requestId);
    await next();
    const seconds = (performance.now() - started) / 1000;
    metrics.observe(c.req.method, c.res.status, seconds);
    if (c.req.path.startsWith('/api/')) {
      c.get('logger').info(
        {
          method: c.req.method,
          path: c.req.path,
          status: c.res.status,
          ms: Math.round(seconds * 1000),
        },
        'request',
      );
    }
  });

  app.use(
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        // Prerendered pages carry hashed inline scripts; server-rendered ones a nonce per answer.
        scriptSrc: ["'self'", NONCE, () => web.scriptHashes.join(' ')],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
      },
      strictTransportSecurity:
        env.isProduction && env.APP_URL.startsWith('https://')
          ? 'max-age=31536000; includeSubDomains'
          : false,
      referrerPolicy: 'strict-origin-when-cross-origin',
      crossOriginEmbedderPolicy: false,
      // A response that sets one of these headers itself keeps it (an uploaded receipt is sent
      // with a stricter policy: `sandbox; default-src 'none'`).
      overwrite: false,
      // Nothing of ours sends X-Powered-By but the DHRU API, whose clients expect DHRU-FUSION.
      removePoweredBy: false,
    }),
  );

  // Text answers (API JSON, CSV, pages) compressed on the fly; built assets are precompressed.
  app.use(compression());

  app.onError(errorHandler);

  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', async (c) => {
    try {
      await db.execute(sql`SELECT 1`);
      return c.json({ status: 'ready', database: database.kind });
    } catch (err) {
      c.get('logger').error({ err }, 'readiness check failed');
      return c.json({ status: 'unavailable' }, 503);
    }
  });
  // Counters, supplier names and queue depths are for the operator, not for visitors.
  app.get('/metrics', async (c) => {
    const access = metricsAccess(env.METRICS_TOKEN, socketAddress(c), c.req.raw.headers);
    if (access === 'unauthorized')
      return c.text('Unauthorized', 401, {
        'WWW-Authenticate': 'Bearer',
        'Cache-Control': 'no-store',
      });
    if (access === 'not-found') return c.notFound();
    let gauges: string[] = [];
    try {
      gauges = await queueGauges(db, jobs);
    } catch (err) {
      c.get('logger').warn({ err }, 'queue depth unavailable for /metrics');
    }
    return c.text(metrics.render(gauges), 200, { 'Content-Type': 'text/plain; version=0.0.4' });
  });

  // State-changing API calls from another origin are refused (Stripe's webhook has no Origin;
  // Telegram's webhook, checked by its secret header, is exempt by its exact path).
  app.use(
    '/api/*',
    sameOriginGuard(trustedOrigins(env), {
      except: ['/api/webhooks/', '/api/telegram/webhook'],
    }),
  );

  app.on(['GET', 'POST'], '/api/auth/*', authHttpHandler(auth, env));

  let apiDocs: { json: string; html: string } | undefined;
  const routeDeps: RouteDeps = {
    db,
    env,
    auth,
    mailer,
    logger,
    jobs,
    metrics,
    apiDocs: () => {
      if (!apiDocs) {
        const options = { appUrl: env.APP_URL, appName: env.APP_NAME };
        const doc = buildOpenApiDocument(options, API_ROUTES);
        apiDocs = { json: JSON.stringify(doc), html: renderDocsPage(doc, options) };
      }
      return apiDocs;
    },
  };
  mountRoutes(app, API_ROUTES, routeDeps);
  app.all('/api/*', (c) => c.json({ code: 'NOT_FOUND', message: ERROR_MESSAGES.NOT_FOUND }, 404));

  app.route(
    '/_dev/correo',
    mailboxRoutes({
      dataDir: env.DATA_DIR,
      appName: env.APP_NAME,
      enabled: devMailboxEnabled(env, mailer),
    }),
  );

  // The build's files, once there is a build (`npm start` may still be making it); made when
  // first needed (serveStatic complains about a root that does not exist).
  let files: { assets: MiddlewareHandler<AppEnv>; other: MiddlewareHandler<AppEnv> } | null = null;
  function buildFiles() {
    files ??= {
      assets: serveStatic<AppEnv>({
        root: web.root,
        // The .br / .gz files written next to each asset at build time.
        precompressed: true,
        onFound: (_path, c) => c.header('Cache-Control', 'public, max-age=31536000, immutable'),
      }),
      other: serveStatic<AppEnv>({ root: web.root, precompressed: true }),
    };
    return files;
  }
  app.use(async (c, next) => {
    const asset = c.req.path.startsWith('/assets/');
    // Other files of the build (favicon, robots.txt…), never the HTML: pages go through web.page().
    if (!asset && (c.req.path.endsWith('.html') || !/\.[a-z0-9]+$/i.test(c.req.path)))
      return next();
    await currentBuild();
    if (!web.available) return next();
    const { assets, other } = buildFiles();
    return asset ? assets(c, next) : other(c, next);
  });
  app.on(['GET', 'HEAD'], '*', async (c) => {
    await currentBuild();
    const html = web.prerendered(c.req.path);
    if (html !== null) {
      c.header('Cache-Control', 'no-cache');
      return c.html(html);
    }
    if (!pages) {
      const notice =
        pendingBuild && !web.available ? pendingBuild.notice(c.req.path) : web.missing(c.req.path);
      c.header('Cache-Control', 'no-cache');
      return c.html(notice.html, notice.status);
    }
    return renderPage(c, pages, app, env);
  });

  return app;
}

export type AppType = ReturnType<typeof createApp>;

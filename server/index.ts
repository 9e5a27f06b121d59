import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { createApp } from './app';
import { openDatabase } from './db/client';
import { migrateDatabase } from './db/migrate';
import { loadEnv } from './env';
import { createAuth } from './lib/auth';
import { seedDemoCatalogue } from './features/catalogue/catalogue.seed';
import { pruneSupplierLog } from './features/suppliers/admin-orders.service';
import { pruneTelegram } from './features/telegram/telegram.service';
import { ensureAdmin } from './lib/bootstrap-admin';
import { queuedMailer, startMailWorkers } from './jobs/mail';
import { joinInstances } from './jobs/instances';
import { createJobQueue } from './jobs/queue';
import { startWorkers } from './jobs/workers';
import { createLogger, flushLogs } from './lib/logger';
import { settlePendingMail } from './lib/notify';
import { createMetrics } from './lib/metrics';
import { createMailer } from './lib/mail';
import { createSmsSender } from './lib/sms';
import { queuedSms, startSmsWorkers } from './jobs/sms';
import { guardProcess } from './lib/process-guards';
import { pruneRateLimits } from './lib/rate-limit';
import { loadPageRenderer } from './lib/pages';
import { loadWebAssets, notBuilt } from './lib/web-assets';
import { pendingBuild } from './lib/pending-build';

const WEB_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../build/client');

async function main() {
  const env = loadEnv();
  const logger = createLogger(env.LOG_LEVEL);
  guardProcess(logger);
  const database = await openDatabase({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    poolMax: env.DATABASE_POOL_MAX,
  });
  await migrateDatabase(database);
  if (env.SEED_DEMO) {
    const seeded = await seedDemoCatalogue(database.db);
    if (seeded > 0) logger.info({ seeded }, 'demo catalogue inserted into the empty database');
  }
  const delivery = createMailer({
    smtpUrl: env.SMTP_URL,
    from: env.MAIL_FROM,
    dataDir: env.DATA_DIR,
    logger,
  });
  const jobs = createJobQueue(database.executeSql, {
    onError: (err) => logger.error({ err }, 'job queue error'),
  });
  await jobs.start();
  // This process's heartbeat row, before any worker takes a job: on PGlite no other process can
  // share the data, so whatever was running when it joined belonged to a process that died.
  const instance = await joinInstances(database.db, { sole: database.kind === 'pglite' });
  // Everything the app e-mails goes through the queue; the mail workers deliver it.
  const mailer = queuedMailer(jobs, delivery);
  await startMailWorkers({ db: database.db, jobs, mailer: delivery, logger });
  // Sign-in codes by SMS, the same way: queued by the request, sent by a worker.
  const smsSender = createSmsSender({ twilio: env.twilio, dataDir: env.DATA_DIR, logger });
  const sms = queuedSms(jobs, smsSender);
  await startSmsWorkers({ jobs, sender: smsSender, logger });
  const auth = createAuth({ db: database.db, env, mailer, sms, logger });
  await ensureAdmin({
    db: database.db,
    auth,
    logger,
    email: env.ADMIN_EMAIL,
    password: env.ADMIN_PASSWORD,
  });
  // While `npm start` rebuilds, the files on disk are being rewritten: none is read before the
  // build is complete.
  const web = env.WEB_BUILD_PENDING ? notBuilt(WEB_ROOT) : loadWebAssets(WEB_ROOT);
  if (!web.available && !env.WEB_BUILD_PENDING)
    logger.warn({ root: WEB_ROOT }, 'web app not built: run npm run build');
  const metrics = createMetrics();
  const serverBuildFile = path.join(WEB_ROOT, '../server/index.js');
  const pages = env.WEB_BUILD_PENDING ? null : await loadPageRenderer(serverBuildFile);
  // `npm start` builds the web app beside this server on a fresh checkout (scripts/start.mjs).
  const building = env.WEB_BUILD_PENDING
    ? pendingBuild({
        webRoot: WEB_ROOT,
        serverBuildFile,
        stampFile: path.join(WEB_ROOT, '../.app-name'),
        appName: env.APP_NAME,
        logger,
      })
    : null;
  const app = createApp({
    database,
    env,
    auth,
    mailer,
    logger,
    web,
    pages,
    pendingBuild: building,
    jobs,
    metrics,
  });
  const workers = await startWorkers(
    { db: database.db, env, jobs, logger, mailer, metrics },
    { instance },
  );

  const pruner = setInterval(() => {
    pruneRateLimits(database.db, 24 * 3600 * 1000).catch((err: unknown) =>
      logger.warn({ err }, 'rate-limit prune failed'),
    );
    pruneSupplierLog(database.db).catch((err: unknown) =>
      logger.warn({ err }, 'supplier log prune failed'),
    );
    pruneTelegram(database.db).catch((err: unknown) =>
      logger.warn({ err }, 'telegram prune failed'),
    );
  }, 3600 * 1000);
  pruner.unref();

  const server = serve(
    { fetch: app.fetch, port: env.PORT, ...(env.HOST ? { hostname: env.HOST } : {}) },
    (info) => {
      logger.info(
        { port: info.port, database: database.kind, mail: mailer.kind, url: env.APP_URL },
        `${env.APP_NAME} listening on ${env.APP_URL}`,
      );
      if (env.DEV_MAILBOX && mailer.kind === 'outbox')
        logger.info(`local mailbox: ${env.APP_URL}/_dev/correo`);
    },
  );

  let stopping = false;
  async function shutdown(signal: string) {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    // No new requests; the ones in progress finish, then their e-mails are queued, then the
    // workers and the queue stop, the instance leaves, and only then the database closes.
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // A client that keeps its connection busy does not hold the shutdown past 10 s.
    const force = setTimeout(() => {
      if ('closeAllConnections' in server) server.closeAllConnections();
    }, 10_000);
    await closed;
    clearTimeout(force);
    await settlePendingMail();
    await workers.stop();
    await jobs.stop();
    // Whatever is still claimed is now taken over by the other instances at once.
    await workers.leave().catch((err: unknown) => logger.warn({ err }, 'could not leave'));
    await database.close();
    await flushLogs(logger);
    process.exit(0);
  }
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});

// The browser tests' `test`: every Playwright worker runs its own app server (tests/e2e/server.ts)
// on its own port, with its own data directory (embedded database, outbox, the admin's TOTP
// secret), its own fake Stripe and its own OpenID Connect provider. Workers share nothing, so
// the journeys of one cannot disturb those of another: the admin's two-factor steps, rate
// limits, settings and queues, the outbox. The specs import `test` and `expect` from here.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import {
  test as base,
  expect,
  type APIRequestContext,
  type APIResponse,
  type BrowserContext,
} from '@playwright/test';

export { expect };

export const E2E_OIDC_NAME = 'Proveedor de pruebas';
export const E2E_STRIPE_WEBHOOK_SECRET = 'whsec_e2e_test_secret';
/** What the e2e app expects in X-Telegram-Bot-Api-Secret-Token (tests/e2e/telegram.spec.ts). */
export const E2E_TELEGRAM_WEBHOOK_SECRET = 'telegram-e2e-webhook-secret';
export const ADMIN = { email: 'admin@example.com', password: 'Admin-Cometa-2026!' };
/** The first worker's port; worker n (its parallel index) listens on E2E_PORT + n if it is free. */
const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

export type E2EServer = {
  /** e.g. http://localhost:3101 */
  url: string;
  /** This server's DATA_DIR: its outbox is what the tests read as the inbox. */
  dataDir: string;
  /** The fake Stripe's base URL, e.g. http://127.0.0.1:41234 */
  stripeUrl: string;
  /** The fake PayPal's base URL (its API and approval page). */
  paypalUrl: string;
  /** The fake NOWPayments' base URL (its API and invoice page). */
  cryptoUrl: string;
  /** The fake Mercado Pago's base URL (its API and Checkout Pro page). */
  mercadopagoUrl: string;
  /** The bootstrap admin's signed-in browser state, made once per server (tests/e2e/ordering.ts). */
  adminState?: Promise<StorageState>;
};

let current: E2EServer | null = null;

/** The app server of this worker (only inside a test or a hook). */
export function e2eServer(): E2EServer {
  if (!current) throw new Error('no e2e server: import test from tests/e2e/fixtures');
  return current;
}

function serverEnv(port: number, dataDir: string): NodeJS.ProcessEnv {
  const url = `http://localhost:${port}`;
  const inherited = { ...process.env };
  // Each server keeps its data to itself (embedded database, outbox): never a shared database,
  // a real mail server or a real SMS account from the environment.
  for (const name of ['DATABASE_URL', 'SMTP_URL', 'TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN'])
    delete inherited[name];
  return {
    ...inherited,
    PORT: String(port),
    DATA_DIR: dataDir,
    APP_URL: url,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    CONTACT_EMAIL: 'operador@example.com',
    RATE_LIMIT_MAX_PER_IP: '500',
    RATE_LIMIT_MAX_PER_ACCOUNT: '50',
    SESSION_TTL_SECONDS: process.env.E2E_SESSION_TTL ?? '604800',
    STRIPE_SECRET_KEY: 'sk_test_e2e',
    STRIPE_WEBHOOK_SECRET: E2E_STRIPE_WEBHOOK_SECRET,
    // The bot's token and API address are the fake's (tests/e2e/server.ts starts it).
    TELEGRAM_WEBHOOK_SECRET: E2E_TELEGRAM_WEBHOOK_SECRET,
    OIDC_NAME: E2E_OIDC_NAME,
    // The supplier journeys run a fake supplier on loopback (tests/e2e/suppliers.spec.ts):
    // allowed here only, polled every second, with short time-outs.
    ALLOW_PRIVATE_NETWORK: 'true',
    SUPPLIER_POLL_SECONDS: '1',
    SUPPLIER_TIMEOUT_SECONDS: '3',
    SUPPLIER_CONNECT_TIMEOUT_SECONDS: '2',
    // The webhook journeys (tests/e2e/reseller.spec.ts) receive on loopback too (allowed for
    // webhooks by their own setting): a failed delivery is tried again after 1 s, not 30 s.
    WEBHOOK_ALLOW_PRIVATE_NETWORK: 'true',
    WEBHOOK_RETRY_BASE_SECONDS: '1',
  };
}

/** True while something accepts connections on the port. */
function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function logTail(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-40).join('\n');
  } catch {
    return '(no log)';
  }
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  // The server waits for requests in progress and its e-mails; a stuck one is killed.
  if ((await Promise.race([exited, sleep(20_000).then(() => 'timeout')])) === 'timeout') {
    child.kill('SIGKILL');
    await exited;
  }
}

/** A port nothing listens on now, chosen by the system. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts tests/e2e/server.ts; resolves once /readyz answers. On `preferred` when it is free, else
 * (the server of a worker that is being replaced still stopping, another checkout's tests) on a
 * port the system picks: nothing else depends on the port.
 */
async function startServer(preferred: number, dataDir: string, root: string) {
  for (let attempt = 1; ; attempt += 1) {
    const port = attempt === 1 && !(await portInUse(preferred)) ? preferred : await freePort();
    try {
      return await startServerOn(port, dataDir, root);
    } catch (err) {
      // Taken between the check and the server's listen: once more, elsewhere.
      if (!(err instanceof PortTakenError) || attempt === 3) throw err;
    }
  }
}

class PortTakenError extends Error {}

async function startServerOn(port: number, dataDir: string, root: string) {
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const logFile = path.join(dataDir, 'server.log');
  const log = openSync(logFile, 'a');
  // With an IPC channel: the server learns of this worker's death (tests/e2e/server.ts).
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/e2e/server.ts'], {
    cwd: root,
    env: serverEnv(port, dataDir),
    stdio: ['ignore', log, log, 'ipc'],
  });
  closeSync(log);
  let stripeUrl = '';
  let paypalUrl = '';
  let cryptoUrl = '';
  let mercadopagoUrl = '';
  child.on(
    'message',
    (
      message: Partial<Record<'stripeUrl' | 'paypalUrl' | 'cryptoUrl' | 'mercadopagoUrl', string>>,
    ) => {
      if (message.stripeUrl) stripeUrl = message.stripeUrl;
      if (message.paypalUrl) paypalUrl = message.paypalUrl;
      if (message.cryptoUrl) cryptoUrl = message.cryptoUrl;
      if (message.mercadopagoUrl) mercadopagoUrl = message.mercadopagoUrl;
    },
  );
  const url = `http://localhost:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      const tail = logTail(logFile);
      if (tail.includes('EADDRINUSE')) throw new PortTakenError(`port ${port} taken`);
      throw new Error(`the e2e server on port ${port} exited:\n${tail}`);
    }
    const ready = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(5_000) })
      .then((res) => res.ok)
      .catch(() => false);
    if (ready && stripeUrl) break;
    if (Date.now() > deadline) {
      await stop(child);
      throw new Error(`the e2e server on port ${port} did not get ready:\n${logTail(logFile)}`);
    }
    await sleep(200);
  }
  return {
    child,
    server: { url, dataDir, stripeUrl, paypalUrl, cryptoUrl, mercadopagoUrl } satisfies E2EServer,
  };
}

/**
 * Playwright's API requests (page.request, route.fetch) keep connections alive, and may send on
 * one just as the server closes it for being idle (Node's keep-alive timeout, 5 s): the request
 * is reset before the server reads it (ECONNRESET). Such a request is sent again, up to twice:
 * maxRetries retries that error only, so nothing the server handled is repeated.
 */
function retryResetConnections(request: APIRequestContext) {
  type Fetch = (
    this: APIRequestContext,
    urlOrRequest: Parameters<APIRequestContext['fetch']>[0],
    options?: Parameters<APIRequestContext['fetch']>[1],
  ) => Promise<APIResponse>;
  const prototype = Object.getPrototypeOf(request) as { fetch: Fetch; retriesResets?: boolean };
  if (prototype.retriesResets) return;
  const fetch = prototype.fetch;
  prototype.fetch = function (urlOrRequest, options) {
    return fetch.call(this, urlOrRequest, { maxRetries: 2, ...options });
  };
  prototype.retriesResets = true;
}

export const test = base.extend<object, { e2eServerWorker: E2EServer }>({
  e2eServerWorker: [
    async ({ playwright }, use, workerInfo) => {
      const probe = await playwright.request.newContext();
      retryResetConnections(probe);
      await probe.dispose();
      const port = E2E_PORT + workerInfo.parallelIndex;
      const root = path.dirname(
        workerInfo.config.configFile ?? path.resolve('playwright.config.ts'),
      );
      const parent = process.env.E2E_DATA_DIR
        ? path.resolve(root, process.env.E2E_DATA_DIR)
        : path.join(workerInfo.project.outputDir, 'e2e-data');
      // workerIndex is new for every worker process: a replacement never reuses a directory.
      const dataDir = path.join(parent, `worker-${workerInfo.workerIndex}`);
      const { child, server } = await startServer(port, dataDir, root);
      current = server;
      try {
        await use(server);
      } finally {
        current = null;
        await stop(child);
      }
    },
    { scope: 'worker', auto: true, timeout: 150_000 },
  ],
  baseURL: async ({ e2eServerWorker }, use) => {
    await use(e2eServerWorker.url);
  },
});

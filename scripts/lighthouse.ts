// `npm run lighthouse`: builds the app, starts it on a fresh embedded database, signs up a customer
// who has orders, and runs Lighthouse (mobile, its default) on every public page and on the
// signed-in pages; prints one row per page.
//
//   npm run lighthouse                       build, then measure every page once
//   npm run lighthouse -- --skip-build       measure the build already in build/
//   npm run lighthouse -- --runs 3           three runs per page, the median (by performance) shown
//   npm run lighthouse -- --only /,/login    only these pages
//   npm run lighthouse -- --out DIR          also write each page's Lighthouse JSON report to DIR
//   npm run lighthouse -- --check            exit 1 when a goal is missed
//
// Goals: performance 100 on the public pages and at least 95 signed in; accessibility and best
// practices 100 everywhere; SEO 100 on the public pages. Chromium: CHROME_PATH, else
// /usr/bin/chromium.
import { execSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { secretOf, totpCode } from '../tests/setup/totp';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Flags, type Result } from 'lighthouse';
import puppeteer, { type Browser } from 'puppeteer-core';

const PUBLIC_PAGES = [
  '/',
  '/nosotros/1',
  '/nosotros/2',
  '/contacto',
  '/login',
  '/register',
  '/terminosycondiciones',
];
const SIGNED_IN_PAGES = [
  '/dashboard',
  '/placeorder',
  '/placeorder/IMEI',
  '/orderhistory',
  '/addfunds',
  '/profile',
  '/soporte',
  '/soporte/nuevo',
  // The admin's screens, as the admin (signed in with two-factor).
  '/admin/ordenes',
  '/admin/soporte',
  '/admin/anuncios',
  '/admin/recibos',
];
const ADMIN_PAGES = new Set([
  '/admin/ordenes',
  '/admin/soporte',
  '/admin/anuncios',
  '/admin/recibos',
]);
const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu'];
const ADMIN = { email: 'admin@example.com', password: 'Admin-Lighthouse-2026!' };
const CUSTOMER = {
  name: 'Lucía Fernández',
  email: `lighthouse.${Date.now().toString(36)}@example.com`,
  password: 'Cielo-Azul-2026!',
};

const { values: args } = parseArgs({
  options: {
    'skip-build': { type: 'boolean', default: false },
    runs: { type: 'string', default: '1' },
    only: { type: 'string' },
    out: { type: 'string' },
    check: { type: 'boolean', default: false },
  },
});
const runs = Math.max(1, Number(args.runs) || 1);
const only = args.only?.split(',').map((p) => p.trim());
const wanted = (page: string) => !only || only.includes(page);

// --- The app ----------------------------------------------------------------------------------

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('port')),
      );
    });
  });
}

async function waitUntilReady(origin: string, app: ChildProcess) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (app.exitCode !== null) throw new Error(`the app stopped (exit code ${app.exitCode})`);
    const ready = await fetch(`${origin}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the app did not answer /readyz within 2 minutes');
}

/** A cookie jar for fetch: what the server set, sent back on the next requests. */
class Client {
  private readonly cookies = new Map<string, string>();
  constructor(private readonly origin: string) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** One request (redirects followed by hand, so that every Set-Cookie on the way is kept). */
  async request(pathOrUrl: string, init: { method?: string; body?: unknown } = {}) {
    let url = new URL(pathOrUrl, this.origin);
    let method = init.method ?? (init.body === undefined ? 'GET' : 'POST');
    let body = init.body === undefined ? undefined : JSON.stringify(init.body);
    for (let hop = 0; hop < 10; hop += 1) {
      const response = await fetch(url, {
        method,
        body,
        redirect: 'manual',
        headers: {
          Origin: this.origin,
          Accept: 'application/json',
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...(this.cookies.size > 0 ? { Cookie: this.cookieHeader } : {}),
        },
      });
      for (const line of response.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const at = pair.indexOf('=');
        const name = pair.slice(0, at).trim();
        const value = pair.slice(at + 1).trim();
        if (/max-age=0/i.test(line) || value === '') this.cookies.delete(name);
        else this.cookies.set(name, value);
      }
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) return response;
      url = new URL(location, url);
      method = 'GET';
      body = undefined;
    }
    throw new Error(`too many redirects from ${pathOrUrl}`);
  }

  async json<T>(pathOrUrl: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
    const response = await this.request(pathOrUrl, init);
    const text = await response.text();
    if (!response.ok)
      throw new Error(`${init.method ?? 'GET'} ${pathOrUrl}: ${response.status} ${text}`);
    return JSON.parse(text) as T;
  }
}

/** A valid (Luhn) 15-digit IMEI from a 14-digit body. */
function imei(body14: string): string {
  let sum = 0;
  for (let i = 0; i < 14; i += 1) {
    let digit = Number(body14[i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return `${body14}${(10 - (sum % 10)) % 10}`;
}

async function verificationLink(dataDir: string, to: string): Promise<string> {
  const outbox = path.join(dataDir, 'outbox');
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    for (const name of readdirSync(outbox, { withFileTypes: true }).filter((e) => e.isFile())) {
      if (!name.name.endsWith('.json')) continue;
      try {
        const mail = JSON.parse(readFileSync(path.join(outbox, name.name), 'utf8')) as {
          to: string;
          links: string[];
        };
        const link = mail.to === to && mail.links.find((l) => l.includes('/api/auth/verify-email'));
        if (link) return link;
      } catch {
        // Still being written: read again on the next pass.
      }
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no verification e-mail to ${to} in ${outbox}`);
}

/**
 * A verified customer with a balance and a few orders; resolves with their session cookie and
 * the admin's (enrolled in two-factor).
 */
async function customerWithOrders(
  origin: string,
  dataDir: string,
): Promise<{ customer: string; admin: string }> {
  const customer = new Client(origin);
  await customer.json('/api/auth/sign-up/email', {
    body: { ...CUSTOMER, callbackURL: '/verify-email' },
  });
  mkdirSync(path.join(dataDir, 'outbox'), { recursive: true });
  await customer.request(await verificationLink(dataDir, CUSTOMER.email));
  const me = await customer.json<{ id: string; emailVerified: boolean }>('/api/me');
  if (!me.emailVerified) throw new Error('the customer is not verified');

  const admin = new Client(origin);
  await admin.json('/api/auth/sign-in/email', {
    body: { email: ADMIN.email, password: ADMIN.password },
  });
  // Admins must use two-factor: enrol with a code computed here, as an authenticator app would.
  const { totpURI } = await admin.json<{ totpURI: string }>('/api/auth/two-factor/enable', {
    body: { password: ADMIN.password },
  });
  await admin.json('/api/auth/two-factor/verify-totp', {
    body: { code: totpCode(secretOf(totpURI)) },
  });
  await admin.json(`/api/admin/users/${me.id}/adjustments`, {
    body: { amount: '100.00', reason: 'Saldo para medir con Lighthouse' },
  });

  const { items } = await customer.json<{
    items: { id: string; name: string; fields?: unknown }[];
  }>('/api/services?category=IMEI');
  const service = items.find((s) => s.name.startsWith('Consulta IMEI completa')) ?? items[0];
  if (!service) throw new Error('no IMEI service in the demo catalogue');
  const seed = String(Date.now() % 1e8).padStart(8, '0');
  for (let i = 0; i < 5; i += 1) {
    await customer.json('/api/orders', {
      body: {
        serviceId: service.id,
        fields: { imei: imei(`35${seed}${String(i).padStart(4, '0')}`) },
      },
    });
  }
  return { customer: customer.cookieHeader, admin: admin.cookieHeader };
}

/** Replaces the browser's cookies for the app with those of a `Cookie` header ('' signs out). */
async function signInBrowser(browser: Browser, origin: string, cookieHeader: string) {
  const context = browser.defaultBrowserContext();
  const current = await context.cookies();
  if (current.length > 0) await context.deleteCookie(...current);
  const cookies = cookieHeader
    .split(';')
    .map((pair) => pair.trim())
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf('=');
      return {
        name: pair.slice(0, at),
        value: pair.slice(at + 1),
        domain: new URL(origin).hostname,
        path: '/',
      };
    });
  if (cookies.length > 0) await context.setCookie(...cookies);
}

// --- Lighthouse -------------------------------------------------------------------------------

type Row = {
  page: string;
  signedIn: boolean;
  scores: Record<'performance' | 'accessibility' | 'best-practices' | 'seo', number>;
  lcp: number;
  tbt: number;
  cls: number;
  jsKb: number;
  totalKb: number;
  failing: string[];
};

function summarize(page: string, signedIn: boolean, lhr: Result): Row {
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  const summary = lhr.audits['resource-summary']?.details;
  const items =
    summary && 'items' in summary
      ? (summary.items as { resourceType: string; transferSize: number }[])
      : [];
  const transfer = (type: string) => items.find((i) => i.resourceType === type)?.transferSize ?? 0;
  // The scored audits that are not passed, per category: what to look at next.
  const failing = Object.values(lhr.categories).flatMap((category) =>
    category.auditRefs
      .filter((ref) => ref.weight > 0)
      .map((ref) => lhr.audits[ref.id])
      .filter((audit) => audit && audit.score !== null && audit.score < 1)
      .map((audit) => `${category.id}:${audit?.id} (${audit?.score})`),
  );
  return {
    page,
    signedIn,
    scores: {
      performance: score('performance'),
      accessibility: score('accessibility'),
      'best-practices': score('best-practices'),
      seo: score('seo'),
    },
    lcp: numeric('largest-contentful-paint'),
    tbt: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
    jsKb: transfer('script') / 1024,
    totalKb: transfer('total') / 1024,
    failing,
  };
}

function goalsMissed(row: Row): string[] {
  const missed: string[] = [];
  const { performance, accessibility, seo } = row.scores;
  if (performance < (row.signedIn ? 95 : 100)) missed.push('performance');
  if (accessibility < 100) missed.push('accessibility');
  if (row.scores['best-practices'] < 100) missed.push('best practices');
  if (!row.signedIn && seo < 100) missed.push('SEO');
  return missed;
}

function printTable(rows: Row[]) {
  const header = ['page', 'perf', 'a11y', 'b.p.', 'SEO', 'LCP', 'TBT', 'CLS', 'JS KB', 'total KB'];
  const lines = rows.map((r) => [
    r.signedIn ? `${r.page} (signed in)` : r.page,
    String(r.scores.performance),
    String(r.scores.accessibility),
    String(r.scores['best-practices']),
    String(r.scores.seo),
    `${(r.lcp / 1000).toFixed(2)} s`,
    `${Math.round(r.tbt)} ms`,
    r.cls.toFixed(3),
    r.jsKb.toFixed(1),
    r.totalKb.toFixed(1),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]?.length ?? 0)));
  const format = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0)))
      .join('  ');
  console.log(`\n${format(header)}`);
  for (const line of lines) console.log(format(line));
}

async function main() {
  if (!args['skip-build']) execSync('npm run --silent build', { stdio: 'inherit' });

  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cometa-lighthouse-'));
  const app = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      APP_URL: origin,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      RATE_LIMIT_MAX_PER_IP: '1000',
      RATE_LIMIT_MAX_PER_ACCOUNT: '1000',
    },
  });
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  try {
    await waitUntilReady(origin, app);
    const cookies = await customerWithOrders(origin, dataDir);
    chrome = await chromeLauncher.launch({
      chromePath: process.env.CHROME_PATH || '/usr/bin/chromium',
      chromeFlags: CHROME_FLAGS,
    });
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
    if (args.out) mkdirSync(args.out, { recursive: true });

    const pages = [
      ...PUBLIC_PAGES.filter(wanted).map((page) => ({ page, signedIn: false })),
      ...SIGNED_IN_PAGES.filter(wanted).map((page) => ({ page, signedIn: true })),
    ];
    const rows: Row[] = [];
    for (const { page, signedIn } of pages) {
      const results: { row: Row; lhr: Result }[] = [];
      // The session goes into the browser's own cookie jar: a Cookie header added by Lighthouse
      // (`extraHeaders`) loses to the jar's once a page has set a cookie of its own (the time
      // zone), and the "signed-in" page measured would be /login.
      await signInBrowser(
        browser,
        origin,
        signedIn ? (ADMIN_PAGES.has(page) ? cookies.admin : cookies.customer) : '',
      );
      for (let run = 0; run < runs; run += 1) {
        const flags: Flags = { port: chrome.port, output: 'json', logLevel: 'error' };
        // A trace that Chromium failed to record (NO_NAVSTART, NO_FCP…) says nothing about the
        // page: Lighthouse's own advice is to run again, so each run gets up to three attempts.
        let result = await lighthouse(`${origin}${page}`, flags);
        for (let attempt = 1; attempt < 3 && result?.lhr.runtimeError; attempt += 1) {
          console.warn(`  ${page}: ${result.lhr.runtimeError.code}, measuring again`);
          result = await lighthouse(`${origin}${page}`, flags);
        }
        if (!result) throw new Error(`Lighthouse gave no result for ${page}`);
        if (result.lhr.runtimeError)
          throw new Error(
            `${page}: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`,
          );
        const landed = result.lhr.finalDisplayedUrl;
        if (new URL(landed).pathname !== new URL(`${origin}${page}`).pathname)
          throw new Error(`${page}: the browser was sent to ${landed}, not measured`);
        results.push({ row: summarize(page, signedIn, result.lhr), lhr: result.lhr });
      }
      results.sort((a, b) => a.row.scores.performance - b.row.scores.performance);
      const median = results[Math.floor(results.length / 2)];
      if (!median) continue;
      rows.push(median.row);
      process.stdout.write(
        `  ${page}${signedIn ? ' (signed in)' : ''}: ${median.row.scores.performance}\n`,
      );
      if (args.out) {
        const name = `${signedIn ? 'signed-in' : 'public'}${page.replaceAll('/', '_') || '_'}.json`;
        writeFileSync(path.join(args.out, name), JSON.stringify(median.lhr));
      }
    }

    printTable(rows);
    const notes = rows.filter((r) => r.failing.length > 0);
    if (notes.length > 0) {
      console.log('\nScored audits not passed (category:audit (score)):');
      for (const r of notes) console.log(`  ${r.page}: ${r.failing.join(', ')}`);
    }
    const missed = rows
      .map((r) => ({ page: r.page, missed: goalsMissed(r) }))
      .filter((r) => r.missed.length > 0);
    if (missed.length === 0) console.log('\nEvery goal met.');
    else {
      console.log('\nGoals missed:');
      for (const m of missed) console.log(`  ${m.page}: ${m.missed.join(', ')}`);
      if (args.check) process.exitCode = 1;
    }
  } finally {
    chrome?.kill();
    app.kill('SIGTERM');
    await new Promise((resolve) =>
      app.exitCode === null ? app.once('exit', resolve) : resolve(null),
    );
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();

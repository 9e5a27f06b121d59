import { createHash } from 'node:crypto';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from '@playwright/test';
import { TOTP_STEP_MS, nextTotpStep, secretOf, totpCode } from '../setup/totp';
import { ADMIN, e2eServer, expect } from './fixtures';

export { ADMIN };
export const PASSWORD = 'Cielo-Azul-2026!';

type Mail = { id: string; to: string; subject: string; text: string; links: string[] };

/** The data directory of this worker's server (tests/e2e/fixtures.ts). */
function dataDir(): string {
  return e2eServer().dataDir;
}

/** Waits for an e-mail in the app's outbox (DATA_DIR/outbox), as a person waits for their inbox. */
export async function waitForMail(to: string, subject: RegExp, timeoutMs = 10_000): Promise<Mail> {
  return waitForMailTo(to, subject, timeoutMs);
}

export function linkFrom(mail: Mail, fragment: string): string {
  const link = mail.links.find((l) => l.includes(fragment));
  if (!link) throw new Error(`no link with ${fragment} in ${mail.subject}`);
  return link;
}

let counter = 0;
export function newEmail(tag = 'cliente'): string {
  counter += 1;
  return `${tag}.${Date.now().toString(36)}${counter}@example.com`;
}

/** Registers through the form; the person ends on /verify-email, signed in but unverified. */
export async function registerThroughForm(page: Page, name: string, email: string) {
  await page.goto('/register');
  await page.getByLabel('Nombre').fill(name);
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Repite la contraseña').fill(PASSWORD);
  await page.getByRole('button', { name: 'Crear cuenta' }).click();
  await expect(page).toHaveURL(/\/verify-email$/);
}

export async function signIn(page: Page, email: string, password = PASSWORD) {
  await page.goto('/login');
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña').fill(password);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
}

/**
 * axe-core scan: no serious or critical violations. axe runs in the page in one go (legacy mode:
 * our pages have no frames, so the cross-frame partial runs only add a copy of every result to
 * and from the page), and only the violations list all their nodes: the same rules and checks,
 * in half the time on a long page such as /api/docs.
 */
export async function expectAccessible(page: Page) {
  // Colours are read when the page is at rest: a button fading back from its disabled colour
  // (transition-colors, 150 ms) would be measured half-way.
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a instanceof CSSTransition)
          .map((a) => a.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 1_000)),
    ]),
  );
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .setLegacyMode(true)
    .options({ resultTypes: ['violations'] })
    .analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
    [],
  );
}

/**
 * The outbox as it is now. The server writes each .json file in place, so a file can be caught
 * half-written: such a file is skipped here (and read on the next call).
 */
async function readOutbox(): Promise<Mail[]> {
  const dir = path.join(dataDir(), 'outbox');
  const names = await readdir(dir).catch(() => [] as string[]);
  const mails = await Promise.all(
    names
      .filter((n) => n.endsWith('.json'))
      .map(async (n) => {
        try {
          return JSON.parse(await readFile(path.join(dir, n), 'utf8')) as Mail;
        } catch {
          return null;
        }
      }),
  );
  return mails.filter((m): m is Mail => m !== null);
}

/** Every e-mail in the outbox to `to` (optionally only those whose subject matches). */
export async function mailsTo(to: string, subject?: RegExp): Promise<Mail[]> {
  const mails = await readOutbox();
  return mails.filter((m) => m.to === to && (!subject || subject.test(m.subject)));
}

/** Like waitForMail, but not upset by a file the server is still writing. */
export async function waitForMailTo(
  to: string,
  subject: RegExp,
  timeoutMs = 10_000,
): Promise<Mail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await mailsTo(to, subject)).sort((a, b) => (a.id < b.id ? 1 : -1))[0];
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no e-mail to ${to} matching ${String(subject)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A verified customer, signed in on `page` and on /dashboard: the account is asked for through
 * the API as the /register form does it (the form itself is the subject of register-verify,
 * guards and public-pages), then the e-mailed link is opened in the browser.
 */
export async function registerVerified(page: Page, name = 'Lucía Fernández') {
  const email = newEmail();
  const res = await page.request.post('/api/auth/sign-up/email', {
    headers: appOrigin(page),
    data: { name, email, password: PASSWORD, callbackURL: '/verify-email' },
  });
  expect(res.ok(), `sign-up answered ${res.status()}: ${await res.text()}`).toBe(true);
  const mail = await waitForMailTo(email, /Verifica tu correo/);
  await page.goto(linkFrom(mail, '/api/auth/verify-email'));
  await expect(page).toHaveURL(/\/dashboard$/);
  return { email, name };
}

/** A verified customer created in a browser context of its own, which is closed afterwards. */
export async function createVerifiedUser(browser: Browser, name = 'Lucía Fernández') {
  const context = await browser.newContext();
  try {
    return await registerVerified(await context.newPage(), name);
  } finally {
    await context.close();
  }
}

/** Signs out through the user menu; the person ends on /login?motivo=salida. */
export async function signOut(page: Page) {
  await page.getByRole('button', { name: /Menú de usuario/ }).click();
  await page.getByRole('menuitem', { name: 'Cerrar sesión' }).click();
  await expect(page).toHaveURL(/\/login\?motivo=salida$/);
}

/**
 * Collects console errors, uncaught page errors and Content-Security-Policy violations (even
 * those a library catches, such as an eval probe: the browser still reports them) from the
 * moment it is called.
 */
export async function collectPageErrors(page: Page): Promise<string[]> {
  const errors: string[] = [];
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message} (at ${page.url()})`));
  return errors;
}

/** Waits until React has hydrated the prerendered page, so clicks reach their handlers. */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => {
    const main = document.getElementById('contenido');
    return !!main && Object.keys(main).some((key) => key.startsWith('__reactProps$'));
  });
}

/** The Origin header our API asks of a POST (Better Auth's check), before the page has a URL. */
function appOrigin(page: Page): Record<string, string> {
  const url = page.url();
  if (url.startsWith('http')) return { Origin: new URL(url).origin };
  return { Origin: e2eServer().url };
}

/** A POST to our API as whoever is signed in on `page`; fails the test unless it succeeds. */
export async function postAsSignedIn(page: Page, url: string, data: unknown): Promise<unknown> {
  const res = await page.request.post(url, { headers: appOrigin(page), data });
  expect(res.ok(), `${url} answered ${res.status()}: ${await res.text()}`).toBe(true);
  return res.json().catch(() => null);
}

/**
 * A code of the app for `secret` that the server has not accepted yet, as a person waits for the
 * next code of their app: Cometa takes each 30-second step once per account. The last step used
 * is kept in the server's DATA_DIR, since the admin's secret serves every test the server sees;
 * waits for the clock when two steps were used within one.
 */
export async function freshTotpCode(secret: string): Promise<string> {
  const name = createHash('sha256').update(secret).digest('hex').slice(0, 16);
  const file = path.join(dataDir(), `totp-step-${name}`);
  for (;;) {
    const saved = Number((await readFile(file, 'utf8').catch(() => '')).trim());
    const now = Math.floor(Date.now() / TOTP_STEP_MS);
    const step = nextTotpStep(Number.isSafeInteger(saved) && saved > 0 ? saved : null, now);
    if (step !== null) {
      await writeFile(file, String(step));
      return totpCode(secret, step * TOTP_STEP_MS);
    }
    await new Promise((resolve) => setTimeout(resolve, TOTP_STEP_MS - (Date.now() % TOTP_STEP_MS)));
  }
}

/**
 * Turns on two-factor for the person signed in on `page`, through the API as the enrolment page
 * does it (enable, then a code from the app). Returns the base32 secret and the backup codes.
 */
export async function enableTwoFactorByApi(
  page: Page,
  password?: string,
): Promise<{ secret: string; backupCodes: string[] }> {
  const { totpURI, backupCodes } = (await postAsSignedIn(
    page,
    '/api/auth/two-factor/enable',
    password ? { password } : {},
  )) as { totpURI: string; backupCodes: string[] };
  const secret = secretOf(totpURI);
  await postAsSignedIn(page, '/api/auth/two-factor/verify-totp', {
    code: await freshTotpCode(secret),
  });
  return { secret, backupCodes };
}

/**
 * The bootstrap admin's TOTP secret. The first caller on a server (each worker's server starts
 * with a new data directory) enrols the admin through the API and keeps the secret in DATA_DIR,
 * so every later admin sign-in on it computes its codes from it, as the admin's phone would.
 * The server accepts a code of the current 30-second step or its neighbours, each step once:
 * every sign-in takes its code from freshTotpCode.
 */
export async function adminTotpSecret(page: Page): Promise<string> {
  const file = path.join(dataDir(), 'admin-totp-secret');
  const saved = (await readFile(file, 'utf8').catch(() => '')).trim();
  if (saved) return saved;
  const headers = appOrigin(page);
  const signedIn = await page.request.post('/api/auth/sign-in/email', {
    headers,
    data: { email: ADMIN.email, password: ADMIN.password },
  });
  const answer = (await signedIn.json().catch(() => null)) as {
    twoFactorRedirect?: boolean;
  } | null;
  expect(signedIn.ok(), `admin sign-in answered ${signedIn.status()}`).toBe(true);
  if (answer?.twoFactorRedirect)
    throw new Error(`the admin has two-factor on but ${file} is missing`);
  const { secret } = await enableTwoFactorByApi(page, ADMIN.password);
  await page.request.post('/api/auth/sign-out', { headers, data: {} });
  // 'wx': a second enrolment on the same server fails here instead of silently replacing the
  // secret the other sign-ins use.
  await writeFile(file, secret, { flag: 'wx' });
  return secret;
}

/**
 * Signs the bootstrap admin in on `page` as a person does: the /login form, then the code of the
 * app on /login/dos-pasos. Ends on `/admin/ordenes` (or on `next` when given).
 */
export async function signInAsAdmin(page: Page, next?: string) {
  const secret = await adminTotpSecret(page);
  await page.goto(next ? `/login?next=${encodeURIComponent(next)}` : '/login');
  await page.getByLabel('Correo electrónico').fill(ADMIN.email);
  await page.getByLabel('Contraseña').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await expect(page).toHaveURL(/\/login\/dos-pasos/);
  await page.getByLabel('Código de tu aplicación').fill(await freshTotpCode(secret));
  await page.getByRole('button', { name: 'Verificar' }).click();
  const landing = next ?? '/admin/ordenes';
  await expect(page).toHaveURL((url) => url.pathname + url.search === landing);
}

type Sms = { id: string; kind: 'sms'; to: string; text: string; date: string };

/** Every SMS the app wrote to the outbox (DATA_DIR/outbox/sms-*.json) for `to`, oldest first. */
export async function smsTo(to: string): Promise<Sms[]> {
  const dir = path.join(dataDir(), 'outbox');
  const names = await readdir(dir).catch(() => [] as string[]);
  const messages = await Promise.all(
    names
      .filter((n) => n.startsWith('sms-') && n.endsWith('.json'))
      .map(async (n) => {
        try {
          return JSON.parse(await readFile(path.join(dir, n), 'utf8')) as Sms;
        } catch {
          return null;
        }
      }),
  );
  return messages
    .filter((m): m is Sms => m !== null && m.to === to)
    .sort((a, b) => (a.id < b.id ? -1 : 1));
}

/** Waits for an SMS to `to` that was not there before (`seen`: ids already read). */
export async function waitForSms(to: string, seen: string[] = [], timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const fresh = (await smsTo(to)).filter((m) => !seen.includes(m.id)).at(-1);
    if (fresh) return fresh;
    if (Date.now() > deadline) throw new Error(`no new SMS to ${to}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The 6-digit code in an SMS or e-mail text. */
export function codeIn(text: string): string {
  const code = /\b(\d{6})\b/.exec(text)?.[1];
  if (!code) throw new Error(`no 6-digit code in: ${text}`);
  return code;
}

import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import type { Browser } from '@playwright/test';

const DATA_DIR = process.env.E2E_DATA_DIR ?? 'test-results/e2e-data';
export const PASSWORD = 'Cielo-Azul-2026!';
export const ADMIN = { email: 'admin@example.com', password: 'Admin-Cometa-2026!' };

type Mail = { id: string; to: string; subject: string; text: string; links: string[] };

/** Waits for an e-mail in the app's outbox (DATA_DIR/outbox), as a person waits for their inbox. */
export async function waitForMail(to: string, subject: RegExp, timeoutMs = 10_000): Promise<Mail> {
  const dir = path.join(DATA_DIR, 'outbox');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const names = await readdir(dir).catch(() => [] as string[]);
    const mails = await Promise.all(
      names
        .filter((n) => n.endsWith('.json'))
        .map(async (n) => JSON.parse(await readFile(path.join(dir, n), 'utf8')) as Mail),
    );
    const found = mails
      .sort((a, b) => (a.id < b.id ? 1 : -1))
      .find((m) => m.to === to && subject.test(m.subject));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no e-mail to ${to} matching ${String(subject)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
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

/** A verified customer signed in on `page`: register, open the e-mail link, land on /dashboard. */
export async function signUpVerified(page: Page, name = 'Lucía Fernández') {
  const email = newEmail();
  await registerThroughForm(page, name, email);
  const mail = await waitForMail(email, /Verifica tu correo/);
  await page.goto(linkFrom(mail, '/api/auth/verify-email'));
  await expect(page).toHaveURL(/\/dashboard$/);
  return { email, name };
}

export async function signIn(page: Page, email: string, password = PASSWORD) {
  await page.goto('/login');
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña').fill(password);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
}

/** axe-core scan: no serious or critical violations. */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
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
  const dir = path.join(DATA_DIR, 'outbox');
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

/** Like signUpVerified (register, open the e-mailed link, land on /dashboard), using waitForMailTo. */
export async function registerVerified(page: Page, name = 'Lucía Fernández') {
  const email = newEmail();
  await registerThroughForm(page, name, email);
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

/** Collects console errors and uncaught page errors from the moment it is called. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  return errors;
}

/** Waits until React has hydrated the prerendered page, so clicks reach their handlers. */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => {
    const main = document.getElementById('contenido');
    return !!main && Object.keys(main).some((key) => key.startsWith('__reactProps$'));
  });
}

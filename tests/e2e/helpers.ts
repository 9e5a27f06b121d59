import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

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
      names.filter((n) => n.endsWith('.json')).map(async (n) => JSON.parse(await readFile(path.join(dir, n), 'utf8')) as Mail),
    );
    const found = mails.sort((a, b) => (a.id < b.id ? 1 : -1)).find((m) => m.to === to && subject.test(m.subject));
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
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

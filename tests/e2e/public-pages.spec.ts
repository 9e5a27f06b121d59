import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  PASSWORD,
  collectPageErrors,
  expectAccessible,
  newEmail,
  registerThroughForm,
  registerVerified,
  waitForHydration,
  waitForMailTo,
} from './helpers';

const PUBLIC_PAGES = [
  { path: '/', h1: 'Servicios digitales y para celulares, pagados con tu saldo prepago' },
  { path: '/nosotros/1', h1: 'Sobre nosotros' },
  { path: '/nosotros/2', h1: 'Servicios' },
  { path: '/nosotros/3', h1: 'Cómo trabajamos' },
  { path: '/nosotros/99', h1: 'Esta sección no existe' },
  { path: '/contacto', h1: 'Contacto' },
  { path: '/terminosycondiciones', h1: 'Términos y condiciones' },
  { path: '/login', h1: 'Iniciar sesión' },
  { path: '/register', h1: 'Crear cuenta' },
];

const SIGNED_IN_PAGES = ['/dashboard', '/profile', '/preview'];

async function openSignedInPage(page: Page, path: string) {
  await page.goto(path);
  await expect(page).toHaveURL(path);
  await expect(page.getByTestId('user-name')).toHaveText('Lucía Fernández');
  if (path === '/preview') await expect(page.getByText('Un momento, por favor')).toBeVisible();
  else await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
}

for (const { path, h1 } of PUBLIC_PAGES) {
  test(`${path} renders its heading without console errors and is accessible`, async ({ page }) => {
    const errors = await collectPageErrors(page);
    const res = await page.goto(path);
    expect(res?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(h1);
    await waitForHydration(page);
    await expectAccessible(page);
    expect(errors).toEqual([]);
  });
}

test('/verify-email is accessible to an unverified user', async ({ page }) => {
  await registerThroughForm(page, 'Nora Ibáñez', newEmail());
  await expect(
    page.getByRole('heading', { level: 1, name: 'Verifica tu correo electrónico' }),
  ).toBeVisible();
  await expectAccessible(page);
});

// Regression: the user-menu trigger's accessible name must keep its visible text (WCAG 2.5.3).
test('/dashboard, /profile and /preview are accessible to a verified user', async ({ page }) => {
  await registerVerified(page);
  for (const path of SIGNED_IN_PAGES) {
    await openSignedInPage(page, path);
    await expectAccessible(page);
  }
});

test('the 404 page is accessible', async ({ page }) => {
  await page.goto('/esto/no/existe');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Nada que ver por aquí' }),
  ).toBeVisible();
  await expectAccessible(page);
});

test('the contact form shows field errors, then sends the message to the operator', async ({
  page,
}) => {
  await page.goto('/contacto');
  await waitForHydration(page);
  const send = page.getByRole('button', { name: 'Enviar mensaje' });

  await send.click();
  await expect(page.getByText('Escribe tu nombre.')).toBeVisible();
  await expect(page.getByText('Escribe tu correo electrónico.')).toBeVisible();
  await expect(page.getByText('El asunto debe tener al menos 3 caracteres.')).toBeVisible();
  await expect(page.getByText('El mensaje debe tener al menos 10 caracteres.')).toBeVisible();
  await expect(page.getByLabel('Nombre')).toHaveAttribute('aria-invalid', 'true');

  const subject = `Consulta sobre recargas ${Date.now().toString(36)}`;
  const message = '¿Puedo recargar mi saldo con transferencia bancaria desde Perú?';
  await page.getByLabel('Nombre').fill('Camila Rojas');
  await page.getByLabel('Correo electrónico').fill(newEmail('camila'));
  await page.getByLabel('Asunto').fill(subject);
  await page.getByLabel('Mensaje').fill(message);
  await send.click();
  await expect(
    page.getByText('Gracias. Hemos recibido tu mensaje y te responderemos pronto.'),
  ).toBeVisible();
  await expect(page.getByLabel('Asunto')).toHaveValue('');

  const escaped = subject.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const mail = await waitForMailTo(
    'operador@example.com',
    new RegExp(`^\\[Contacto\\] ${escaped}$`),
  );
  expect(mail.text).toContain(message);
  expect(mail.text).toContain('Camila Rojas');
});

test('the registration form explains why a password is refused and answers a taken e-mail like a new one', async ({
  browser,
  page,
}) => {
  const taken = newEmail();
  const other = await browser.newContext();
  await registerThroughForm(await other.newPage(), 'Nora Ibáñez', taken);
  await other.close();

  await page.goto('/register');
  await waitForHydration(page);
  const passwordField = page.getByLabel('Contraseña', { exact: true });
  const submit = page.getByRole('button', { name: 'Crear cuenta' });
  await page.getByLabel('Nombre').fill('Camila Rojas');
  await page.getByLabel('Correo electrónico').fill(newEmail());

  await passwordField.fill('password123');
  await page.getByLabel('Repite la contraseña').fill('password123');
  await submit.click();
  await expect(
    page.getByText('Esa contraseña es demasiado común y fácil de adivinar. Elige otra.'),
  ).toBeVisible();
  await expect(passwordField).toHaveAttribute('aria-invalid', 'true');
  await expect(page).toHaveURL(/\/register$/);

  await passwordField.fill('Corta1!');
  await page.getByLabel('Repite la contraseña').fill('Corta1!');
  await submit.click();
  await expect(page.getByText('La contraseña debe tener al menos 8 caracteres.')).toBeVisible();
  await expect(page).toHaveURL(/\/register$/);

  await page.getByLabel('Correo electrónico').fill(taken);
  await passwordField.fill(PASSWORD);
  await page.getByLabel('Repite la contraseña').fill(PASSWORD);
  await submit.click();
  // The form must not tell who has an account (docs/decisions/0010): the same page as for a new
  // address, and the owner of the taken one hears of it by e-mail.
  await expect(page).toHaveURL(/\/verify-email$/);
  await expect(page.getByRole('heading', { name: 'Verifica tu correo electrónico' })).toBeVisible();
  await expect(page.getByText(taken)).toBeVisible();
  const mail = await waitForMailTo(taken, /Intento de registro/);
  expect(mail.text).toContain('Alguien intentó crear una cuenta');
  expect(mail.links.some((l) => l.endsWith('/recuperar'))).toBe(true);
});

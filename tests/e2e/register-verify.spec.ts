import { expect, test } from './fixtures';
import { PASSWORD, linkFrom, newEmail, registerThroughForm, signIn, waitForMail } from './helpers';

test('a visitor registers, verifies the e-mail through its link and lands on the dashboard', async ({
  page,
}) => {
  const email = newEmail();
  await registerThroughForm(page, 'Lucía Fernández', email);
  await expect(page.getByRole('heading', { name: 'Verifica tu correo electrónico' })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();

  // Protected pages send an unverified user back to /verify-email.
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/verify-email$/);

  const mail = await waitForMail(email, /Verifica tu correo/);
  expect(mail.text).toContain('Lucía Fernández');
  await page.goto(linkFrom(mail, '/api/auth/verify-email'));
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Hola, Lucía Fernández' })).toBeVisible();
  await expect(page.getByTestId('user-name')).toHaveText('Lucía Fernández');
  await expect(page.getByText('Saldo: US$0.00').first()).toBeVisible();

  // The link is single-use: opening it again does not verify anything new.
  await page.goto(linkFrom(mail, '/api/auth/verify-email'));
  await expect(page).toHaveURL(/\/dashboard$/);

  // Sign out, then sign in again.
  await page.getByRole('button', { name: /Menú de usuario/ }).click();
  await page.getByRole('menuitem', { name: 'Cerrar sesión' }).click();
  await expect(page).toHaveURL(/\/login\?motivo=salida$/);
  await expect(page.getByText('Cerraste sesión correctamente.')).toBeVisible();
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login\?next=%2Fdashboard$/);
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña').fill(PASSWORD);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('a wrong password and an unknown e-mail get the same answer', async ({ page }) => {
  await signIn(page, newEmail('nadie'), 'Otra-Clave-2026!');
  await expect(page.getByRole('alert')).toHaveText('Correo o contraseña incorrectos.');
});

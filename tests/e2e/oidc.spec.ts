import type { Page } from '@playwright/test';
import { E2E_OIDC_NAME, expect, test } from './fixtures';
import { newEmail, registerThroughForm } from './helpers';

// Federated sign-in through the local OpenID Connect provider that tests/e2e/server.ts starts
// before the app (OIDC_NAME "Proveedor de pruebas"). Its login page is the provider's, not ours:
// the person says who they are there.

async function signInAtProvider(page: Page, email: string, name: string) {
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/interaction\//);
  await expect(page.getByRole('heading', { name: 'Proveedor de pruebas' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Correo electrónico' }).fill(email);
  await page.getByRole('textbox', { name: 'Nombre' }).fill(name);
  await page.getByRole('button', { name: 'Entrar en el proveedor' }).click();
}

test('a new person continues with the provider from /login and lands on the dashboard signed in', async ({
  page,
}) => {
  const email = newEmail('federada');
  await page.goto('/login');
  await page.getByRole('button', { name: `Continuar con ${E2E_OIDC_NAME}` }).click();
  await signInAtProvider(page, email, 'Nora Federada');

  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Hola, Nora Federada' })).toBeVisible();
  await expect(page.getByTestId('user-name')).toHaveText('Nora Federada');
  // The provider vouched for the address: no verification step.
  await page.reload();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('an account with that e-mail not verified here is not taken over: back on /login with the reason', async ({
  browser,
  page,
}) => {
  const email = newEmail('sin-verificar');
  await registerThroughForm(page, 'Olga Sinverificar', email);

  // Someone else, in another browser, signs in at the provider with the same address.
  const other = await browser.newContext();
  const stranger = await other.newPage();
  await stranger.goto('/login');
  await stranger.getByRole('button', { name: `Continuar con ${E2E_OIDC_NAME}` }).click();
  await signInAtProvider(stranger, email, 'Otra Persona');
  await expect(stranger).toHaveURL(/\/login\?error=account_not_linked$/);
  await expect(stranger.getByText(/Ya existe una cuenta con ese correo/)).toContainText(
    'Mi perfil',
  );
  await stranger.goto('/dashboard');
  await expect(stranger).toHaveURL(/\/login\?next=%2Fdashboard$/);
  await other.close();
});

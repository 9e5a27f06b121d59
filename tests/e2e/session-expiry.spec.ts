import { expect, test } from './fixtures';
import { PASSWORD, createVerifiedUser, signIn, waitForHydration } from './helpers';

test('a session that ends on the server sends the person to /login and back after signing in', async ({
  browser,
  page,
}) => {
  const { email, name } = await createVerifiedUser(browser);
  // The page's clock (Date, timers) is under the test's control from the first load on.
  await page.clock.install();
  await signIn(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/profile');
  await expect(page.getByRole('heading', { level: 1, name: 'Mi perfil' })).toBeVisible();
  await waitForHydration(page);

  // The server ends the session (as after a password reset or a sign-out elsewhere)…
  const out = await page.request.post('/api/auth/sign-out', {
    headers: { Origin: new URL(page.url()).origin },
    data: {},
  });
  expect(out.ok()).toBe(true);
  // …and the page finds out when it renews the session, 5 minutes before its expiry.
  await page.clock.fastForward(168 * 60 * 60 * 1000);
  await expect(page).toHaveURL('/login?next=%2Fprofile&motivo=expirada');
  await expect(
    page.getByText('Tu sesión ha caducado. Inicia sesión de nuevo para continuar.'),
  ).toBeVisible();

  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña').fill(PASSWORD);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByTestId('user-name')).toHaveText(name);
});

test('a device clock that runs days ahead does not end a session the server still holds', async ({
  browser,
  page,
}) => {
  const { email, name } = await createVerifiedUser(browser);
  await page.clock.install();
  await signIn(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/profile');
  await expect(page.getByRole('heading', { level: 1, name: 'Mi perfil' })).toBeVisible();
  // The page holds the session (it has hydrated) when the clock jumps.
  await waitForHydration(page);
  // Only this device's clock jumps 170 h; the renewal asks the server, which still holds the
  // session, and the page keeps it (expiry is read against the server's clock).
  await page.clock.fastForward(170 * 60 * 60 * 1000);
  await page.getByRole('link', { name: 'Inicio' }).first().click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('user-name')).toHaveText(name);
});

import { expect, test } from './fixtures';
import {
  PASSWORD,
  createVerifiedUser,
  mailsTo,
  newEmail,
  registerThroughForm,
  registerVerified,
} from './helpers';

for (const path of ['/dashboard', '/profile', '/preview']) {
  test(`a visitor opening ${path} signs in and lands back on ${path}`, async ({
    browser,
    page,
  }) => {
    const { email } = await createVerifiedUser(browser);

    await page.goto(path);
    await expect(page).toHaveURL(`/login?next=${encodeURIComponent(path)}`);
    await expect(page.getByRole('heading', { name: 'Iniciar sesión' })).toBeVisible();
    await page.getByLabel('Correo electrónico').fill(email);
    await page.getByLabel('Contraseña').fill(PASSWORD);
    await page.getByRole('button', { name: 'Iniciar sesión' }).click();
    await expect(page).toHaveURL(path);
    await expect(page.getByTestId('user-name')).toHaveText('Lucía Fernández');
  });
}

test('an unverified user opening /dashboard or /profile is sent to /verify-email', async ({
  page,
}) => {
  await registerThroughForm(page, 'Nora Ibáñez', newEmail());
  for (const path of ['/dashboard', '/profile']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/verify-email$/);
    await expect(
      page.getByRole('heading', { name: 'Verifica tu correo electrónico' }),
    ).toBeVisible();
  }
});

test('a visitor opening /verify-email is sent to /login', async ({ page }) => {
  await page.goto('/verify-email');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Iniciar sesión' })).toBeVisible();
});

test('a verified user opening /verify-email is sent to /dashboard', async ({ page }) => {
  await registerVerified(page);
  await page.goto('/verify-email');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Hola, Lucía Fernández' })).toBeVisible();
});

test('"Reenviar correo" sends a second verification e-mail and then counts down', async ({
  page,
}) => {
  const email = newEmail();
  await registerThroughForm(page, 'Nora Ibáñez', email);
  await expect.poll(async () => (await mailsTo(email, /Verifica tu correo/)).length).toBe(1);

  await page.getByRole('button', { name: 'Reenviar correo', exact: true }).click();
  await expect(page.getByText(`Te enviamos un nuevo enlace a ${email}.`)).toBeVisible();
  await expect.poll(async () => (await mailsTo(email, /Verifica tu correo/)).length).toBe(2);

  const countdown = page.getByRole('button', { name: /^Reenviar correo \(\d{1,2} s\)$/ });
  await expect(countdown).toBeVisible();
  await expect(countdown).toBeDisabled();
});

test('/preview shows the loading screen to a verified user', async ({ page }) => {
  await registerVerified(page);
  await page.goto('/preview');
  await expect(page).toHaveURL(/\/preview$/);
  await expect(page.getByText('Cargando Cometa')).toBeVisible();
  await expect(page.getByText('Un momento, por favor')).toBeVisible();
});

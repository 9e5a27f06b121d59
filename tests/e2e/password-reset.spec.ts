import { expect, test } from './fixtures';
import {
  PASSWORD,
  linkFrom,
  mailsTo,
  newEmail,
  signIn,
  signOut,
  registerVerified,
  waitForMailTo,
} from './helpers';

const NEW_PASSWORD = 'Luna-Llena-2027!';

test('a forgotten password is reset through the e-mailed link; old sessions and the link stop working', async ({
  browser,
  page,
}) => {
  const { email } = await registerVerified(page);

  // A second device, signed in before the reset.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await signIn(otherPage, email);
  await expect(otherPage).toHaveURL(/\/dashboard$/);

  await signOut(page);
  await page.getByRole('link', { name: '¿Olvidaste tu contraseña?' }).click();
  await expect(page).toHaveURL(/\/recuperar$/);
  await expect(page.getByRole('heading', { name: 'Recuperar contraseña' })).toBeVisible();
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByRole('button', { name: 'Enviar enlace' }).click();
  await expect(
    page.getByText(`Si existe una cuenta con ${email}, te enviamos un enlace`),
  ).toBeVisible();

  // An unknown address gets the very same answer, and no e-mail.
  const unknown = newEmail('nadie');
  await page.goto('/recuperar');
  await page.getByLabel('Correo electrónico').fill(unknown);
  await page.getByRole('button', { name: 'Enviar enlace' }).click();
  await expect(
    page.getByText(`Si existe una cuenta con ${unknown}, te enviamos un enlace`),
  ).toBeVisible();

  const mail = await waitForMailTo(email, /Restablece tu contraseña/);
  expect(await mailsTo(unknown)).toHaveLength(0);
  const link = linkFrom(mail, '/reset-password/');

  await page.goto(link);
  await expect(page).toHaveURL(/\/restablecer\?token=[^&]+/);
  await expect(page.getByRole('heading', { name: 'Elige una nueva contraseña' })).toBeVisible();

  // A common password is refused.
  await page.getByLabel('Nueva contraseña', { exact: true }).fill('password123');
  await page.getByLabel('Repite la nueva contraseña').fill('password123');
  await page.getByRole('button', { name: 'Guardar contraseña' }).click();
  await expect(
    page.getByText('Esa contraseña es demasiado común y fácil de adivinar. Elige otra.'),
  ).toBeVisible();

  // The confirmation must match.
  await page.getByLabel('Nueva contraseña', { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel('Repite la nueva contraseña').fill(`${NEW_PASSWORD}x`);
  await page.getByRole('button', { name: 'Guardar contraseña' }).click();
  await expect(page.getByText('Las contraseñas no coinciden.')).toBeVisible();

  await page.getByLabel('Repite la nueva contraseña').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Guardar contraseña' }).click();
  await expect(page).toHaveURL(/\/login\?motivo=restablecida$/);
  await expect(
    page.getByText('Tu contraseña se cambió. Inicia sesión con la nueva contraseña.'),
  ).toBeVisible();

  // The old password no longer works; the new one does.
  await signIn(page, email, PASSWORD);
  await expect(page.getByRole('alert')).toHaveText('Correo o contraseña incorrectos.');
  await signIn(page, email, NEW_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);

  // The other device was signed out by the reset.
  await otherPage.goto('/dashboard');
  await expect(otherPage).toHaveURL(/\/login\?next=%2Fdashboard/);
  await other.close();

  // The link works once only.
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Enlace no válido' })).toBeVisible();
  await expect(
    page.getByText(
      'El enlace para restablecer la contraseña no es válido o ya caducó. Pide uno nuevo.',
    ),
  ).toBeVisible();

  const changed = await waitForMailTo(email, /Tu contraseña .* ha cambiado/);
  expect(changed.subject).toBe('Tu contraseña de Cometa ha cambiado');
});

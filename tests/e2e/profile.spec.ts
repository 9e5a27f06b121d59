import { expect, test } from './fixtures';
import { registerVerified } from './helpers';

const LONG_NAME = 'Maximiliano Alejandro Gutiérrez';

test('a new name shows at once in the header, cut to 17 characters + "..."', async ({ page }) => {
  expect(Array.from(LONG_NAME)).toHaveLength(31);
  await registerVerified(page);
  await page.goto('/profile');
  await expect(page.getByRole('heading', { level: 1, name: 'Mi perfil' })).toBeVisible();
  const userName = page.getByTestId('user-name');
  const avatar = page.getByTestId('avatar');
  await expect(userName).toHaveText('Lucía Fernández');
  await expect(avatar).toHaveText('L');

  // Marks this document, to prove the header changes without a reload.
  await page.evaluate(
    () => ((window as unknown as { __marker: string }).__marker = 'same-document'),
  );
  const nameField = page.getByLabel('Nombre', { exact: true });
  await nameField.fill(LONG_NAME);
  await page.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(page.getByText('Nombre actualizado.')).toBeVisible();
  await expect(userName).toHaveText('Maximiliano Aleja...');
  await expect(avatar).toHaveText('M');
  await expect(page.getByRole('button', { name: /Menú de usuario/ })).toHaveAccessibleName(
    // The name keeps the visible text, Saldo included (WCAG 2.5.3).
    'Menú de usuario: Maximiliano Alejandro Gutiérrez Saldo: $0.00',
  );
  expect(await page.evaluate(() => (window as unknown as { __marker?: string }).__marker)).toBe(
    'same-document',
  );

  // An empty name is refused and the header keeps the saved one.
  await nameField.fill('');
  await page.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(page.getByText('Escribe tu nombre.')).toBeVisible();
  await expect(nameField).toHaveAttribute('aria-invalid', 'true');
  await expect(userName).toHaveText('Maximiliano Aleja...');

  await page.reload();
  await expect(userName).toHaveText('Maximiliano Aleja...');
  await expect(avatar).toHaveText('M');
  await expect(page.getByLabel('Nombre', { exact: true })).toHaveValue(LONG_NAME);
});

test('a name starting with a lowercase accented letter gets an uppercase avatar letter', async ({
  page,
}) => {
  await registerVerified(page, 'óscar Núñez');
  await expect(page.getByTestId('user-name')).toHaveText('óscar Núñez');
  await expect(page.getByTestId('avatar')).toHaveText('Ó');
});

import { expect, test } from './fixtures';
import { collectPageErrors, expectAccessible, registerVerified, waitForHydration } from './helpers';

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
    'Menú de usuario: Maximiliano Alejandro Gutiérrez Saldo: US$0.00',
  );
  expect(await page.evaluate(() => (window as unknown as { __marker?: string }).__marker)).toBe(
    'same-document',
  );

  // An empty name is refused and the header keeps the saved one.
  await nameField.fill('');
  await page.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(page.getByText('Escribe tu nombre.')).toBeVisible();
  await expect(nameField).toHaveAttribute('aria-invalid', 'true');
  // An invalid submit puts the person in the first invalid field.
  await expect(nameField).toBeFocused();
  await expect(userName).toHaveText('Maximiliano Aleja...');

  await page.reload();
  await expect(userName).toHaveText('Maximiliano Aleja...');
  await expect(avatar).toHaveText('M');
  await expect(page.getByLabel('Nombre', { exact: true })).toHaveValue(LONG_NAME);
  // The dashboard greets with the whole name.
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Hola, ${LONG_NAME}`);
});

test('Mi perfil in tabs: arrows move between them, the tab is kept in the URL', async ({
  page,
}) => {
  const errors = await collectPageErrors(page);
  await registerVerified(page);
  await page.goto('/profile');
  // Arrow keys are React's: the page has hydrated before the keyboard is used.
  await waitForHydration(page);
  const tabs = page.getByRole('tablist', { name: 'Secciones de Mi perfil' });
  const datos = tabs.getByRole('tab', { name: 'Datos' });
  await expect(datos).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel', { name: 'Datos' })).toContainText('Datos personales');
  await datos.focus();
  await page.keyboard.press('ArrowRight');
  const seguridad = tabs.getByRole('tab', { name: 'Seguridad' });
  await expect(seguridad).toBeFocused();
  await expect(seguridad).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/\/profile\?tab=seguridad$/);
  await expect(page.getByRole('heading', { name: 'Cambiar contraseña' })).toBeVisible();
  await page.keyboard.press('End');
  await expect(tabs.getByRole('tab', { name: 'Notificaciones' })).toBeFocused();
  await expect(page.getByRole('region', { name: 'Avisos (webhooks)' })).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(datos).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(tabs.getByRole('tab', { name: 'API' })).toHaveAttribute('aria-selected', 'true');
  // Tab leaves the tablist for the panel.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('tabpanel', { name: 'API' })).toBeFocused();
  await page.reload();
  await expect(tabs.getByRole('tab', { name: 'API' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('region', { name: 'API', exact: true })).toBeVisible();
  // The old anchors still land on their section.
  await page.goto('/profile#avisos');
  await expect(tabs.getByRole('tab', { name: 'Notificaciones' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await page.setViewportSize({ width: 375, height: 812 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(
    true,
  );
  await expectAccessible(page);
  expect(errors).toEqual([]);
});

test('a name starting with a lowercase accented letter gets an uppercase avatar letter', async ({
  page,
}) => {
  await registerVerified(page, 'óscar Núñez');
  await expect(page.getByTestId('user-name')).toHaveText('óscar Núñez');
  await expect(page.getByTestId('avatar')).toHaveText('Ó');
});

import { expect, test } from './fixtures';
import { expectAccessible, registerVerified } from './helpers';
import { adminPage, creditCustomer } from './ordering';

test('a customer orders an IMEI check: no funds, live validation, single and bulk orders', async ({
  browser,
  page,
}) => {
  const { email } = await registerVerified(page, 'Tomás Ortega');

  await page.goto('/placeorder');
  await expect(page.getByRole('heading', { level: 1, name: 'Nueva orden' })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('link', { name: /Servicios IMEI/ }).click();
  await expect(page).toHaveURL(/\/placeorder\/IMEI$/);

  await page.getByRole('button', { name: /Consulta IMEI completa/ }).click();
  await expect(page.getByRole('button', { name: /Consulta IMEI completa/ })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expectAccessible(page);
  await page.getByLabel('IMEI', { exact: true }).fill('359702373699048');
  await page.getByRole('button', { name: 'Confirmar orden (Total US$0.50)' }).click();
  await expect(page.getByText('Tu saldo no alcanza para esta orden.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Añadir créditos' }).last()).toHaveAttribute(
    'href',
    '/addfunds',
  );

  const admin = await adminPage(browser);
  await creditCustomer(admin, email, '2.00');
  await admin.context().close();

  await page.reload();
  await page.getByRole('button', { name: /Consulta IMEI completa/ }).click();
  const imei = page.getByLabel('IMEI', { exact: true });
  await imei.fill('359702373699041');
  await imei.blur();
  await expect(
    page.getByText('El IMEI no es válido: revisa el último dígito (control).'),
  ).toBeVisible();
  await expect(imei).toHaveAttribute('aria-invalid', 'true');
  // A refused submit puts the focus back on the field to fix.
  await page.getByRole('button', { name: /^Confirmar orden/ }).click();
  await expect(imei).toBeFocused();
  await imei.fill('359702373699048');
  await expect(imei).not.toHaveAttribute('aria-invalid', 'true');
  await page.getByRole('button', { name: 'Confirmar orden (Total US$0.50)' }).click();
  await expect(page.getByText(/Orden #\d+ creada: Consulta IMEI completa/)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Ver en el historial' })).toBeVisible();
  await expect(page.getByText('Saldo: US$1.50').first()).toBeVisible();

  await page.getByRole('button', { name: 'Hacer otra orden' }).click();
  await page.getByLabel(/Varios IMEI/).check();
  await page.getByLabel('IMEI (uno por línea)').fill('490154203237518\n356938035643809\n123');
  await expect(page.getByText('3 líneas: 2 válidas, 1 con error (no se cobran).')).toBeVisible();
  await page.getByRole('button', { name: 'Confirmar 2 órdenes (Total US$1.00)' }).click();
  const table = page.getByTestId('bulk-results');
  await expect(table).toBeVisible();
  await expect(table.getByText(/Orden #\d+/)).toHaveCount(2);
  await expect(table.getByRole('row').filter({ hasText: '123' }).last()).toContainText(/IMEI/);
  await expect(page.getByText(/2 órdenes creadas, 1 línea rechazada/)).toBeVisible();
  // Only the refused line stays in the box: the placed ones cannot be ordered again by mistake.
  await expect(page.getByLabel('IMEI (uno por línea)')).toHaveValue('123');
  await expect(page.getByText('Saldo: US$0.50').first()).toBeVisible();

  await page.goto('/placeorder/otra');
  await expect(page.getByRole('heading', { name: 'Nada que ver por aquí' })).toBeVisible();
});

test('the service overview at 375 px shows the details and the form; an unknown id is a 404', async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await registerVerified(page, 'Inés Rojas');
  await page.goto('/placeorder/IMEI');
  await page.getByRole('button', { name: /Estado de iCloud/ }).click();
  await page.getByRole('link', { name: 'Ver detalles' }).click();
  await expect(page).toHaveURL(/\/placeorder\/IMEI\/[^/]+$/);
  await expect(page.getByRole('heading', { level: 1, name: /Estado de iCloud/ })).toBeVisible();
  await expect(page.getByText('US$0.25 por orden')).toBeVisible();
  await expect(page.getByLabel('IMEI', { exact: true })).toBeVisible();
  await expectAccessible(page);
  await page.goto('/placeorder/IMEI/no-existe');
  await expect(page.getByRole('heading', { name: 'Nada que ver por aquí' })).toBeVisible();
});

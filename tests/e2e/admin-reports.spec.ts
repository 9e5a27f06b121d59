// /admin/informes end to end: an admin completes an order by hand typing its cost, then reads the
// report broken down by customer (chosen by keyboard): the order's revenue, cost and margin, the
// chart, and the CSV link. 375 and 1280 px, with axe.
import { expect, test } from './fixtures';
import { collectPageErrors, expectAccessible, registerVerified, waitForHydration } from './helpers';
import { adminPage, creditCustomer, placeImeiOrders, uniqueImei } from './ordering';

test('an admin completes an order with its cost and reads revenue, cost and margin in Informes', async ({
  page: customer,
  browser,
}) => {
  const { email } = await registerVerified(customer, 'Inés Informes');
  const admin = await adminPage(browser);
  const errors = await collectPageErrors(admin);
  try {
    await creditCustomer(admin, email, '5.00');
    const [placed] = await placeImeiOrders(customer, [uniqueImei(71)]);
    const number = placed?.number ?? 0;

    // Completed by hand in the queue, with what it cost.
    await admin.goto('/admin/ordenes');
    const row = admin.getByRole('listitem', { name: `Orden #${number}` });
    await row.getByRole('button', { name: /^Tomar/ }).click();
    await expect(row).toContainText('En proceso');
    await row.getByRole('button', { name: /^Completar/ }).click();
    await row.getByLabel('Resultado (código o texto)').fill('Operador: Movistar');
    await row.getByLabel('Costo (opcional, USD)').fill('0,30');
    await row.getByRole('button', { name: 'Confirmar' }).click();
    await expect(row).toContainText(`Orden #${number} completada.`);

    // Informes, from the navigation, at 375 px: the breakdown by customer, chosen by keyboard.
    await admin.setViewportSize({ width: 375, height: 800 });
    await admin
      .getByRole('navigation', { name: 'Administración' })
      .getByRole('link', { name: 'Informes' })
      .click();
    await expect(admin.getByRole('heading', { level: 1, name: 'Informes' })).toBeVisible();
    await waitForHydration(admin);
    const breakdown = admin.getByLabel('Desglose');
    await breakdown.focus();
    await breakdown.selectOption({ label: 'Cliente' });
    await admin.getByLabel('Hasta').press('Enter');
    await expect(admin).toHaveURL(/by=customer/);
    const table = admin.getByRole('table', { name: 'Desglose por cliente' });
    const line = table.getByRole('row').filter({ hasText: email });
    await expect(line).toContainText('US$0.50');
    await expect(line).toContainText('US$0.20');
    await expect(admin.getByRole('img', { name: /Ingresos, costo y margen/ })).toBeVisible();
    await expect(admin.getByTestId('total-orders')).not.toHaveText('0');
    const csv = admin.getByRole('link', { name: 'Descargar CSV' });
    await expect(csv).toHaveAttribute('href', /format=excel/);
    expect(
      await admin.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    ).toBe(true);
    await expectAccessible(admin);

    // 1280 px: the cost column too; the CSV carries the same line.
    await admin.setViewportSize({ width: 1280, height: 900 });
    await expect(line).toContainText('US$0.30');
    await expectAccessible(admin);
    const file = await admin.request.get((await csv.getAttribute('href')) ?? '');
    expect(file.status()).toBe(200);
    expect(await file.text()).toContain(`${email};"0,50";"0,30";"0,20";1;"0,00"`);
    expect(errors).toEqual([]);
  } finally {
    await admin.context().close();
  }
});

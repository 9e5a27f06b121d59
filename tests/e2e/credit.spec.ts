// Credit lines end to end (docs/domain.md §3): an admin gives a customer a credit limit on the
// customer's page; the customer orders past zero and sees a negative Saldo, what they owe, their
// limit and «Disponible para gastar»; an order past the limit is refused naming the credit; the
// admin sees the debt on /admin/deudas. 375 and 1280 px, with axe.
import { expect, test } from './fixtures';
import { collectPageErrors, expectAccessible, registerVerified, waitForHydration } from './helpers';
import { adminPage, placeImeiOrders, sameOrigin, uniqueImei } from './ordering';

test('an admin gives credit on the customer page; the customer orders past zero and sees the debt and what they can still spend', async ({
  page,
  browser,
}) => {
  const name = `Crédito ${Date.now().toString(36)}`;
  const { email } = await registerVerified(page, name);
  const admin = await adminPage(browser);
  const errors = await collectPageErrors(admin);
  try {
    const found = await admin.request.get(`/api/admin/users?q=${encodeURIComponent(email)}`, {
      headers: sameOrigin(admin),
    });
    const { items } = (await found.json()) as { items: Array<{ id: string; email: string }> };
    const id = items.find((u) => u.email === email)?.id ?? '';
    expect(id).not.toBe('');

    // The customer page at 375 px: «Crédito», a limit typed with a decimal comma.
    await admin.setViewportSize({ width: 375, height: 800 });
    await admin.goto(`/admin/clientes/${id}`);
    await waitForHydration(admin);
    const credit = admin.getByRole('region', { name: 'Crédito' });
    await expect(credit.getByTestId('customer-credit')).toContainText('Sin crédito');
    await credit.getByLabel('Nuevo límite de crédito').fill('1,00');
    await credit.getByRole('button', { name: 'Guardar límite' }).click();
    await expect(credit.getByRole('status')).toHaveText(
      'Límite de crédito guardado: US$1.00. Puede gastar US$1.00.',
    );
    await expect(credit.getByTestId('customer-credit')).toContainText('US$1.00');
    await expectAccessible(admin);

    // The customer orders 0.50 in the browser: the balance goes below zero.
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/placeorder/IMEI');
    await waitForHydration(page);
    await page.getByRole('button', { name: /Consulta IMEI completa/ }).click();
    await page.getByLabel('IMEI', { exact: true }).fill(uniqueImei(1));
    await page.getByRole('button', { name: 'Confirmar orden (Total US$0.50)' }).click();
    await expect(page.getByText(/Orden #\d+ creada: Consulta IMEI completa/)).toBeVisible();
    await expect(page.getByText('Saldo: -US$0.50').first()).toBeVisible();

    // One more over the API reaches the limit; the next in the browser is refused, naming the credit.
    await placeImeiOrders(page, [uniqueImei(2)]);
    await page.getByRole('button', { name: 'Hacer otra orden' }).click();
    await page.getByLabel('IMEI', { exact: true }).fill(uniqueImei(3));
    await page.getByRole('button', { name: 'Confirmar orden (Total US$0.50)' }).click();
    await expect(
      page.getByText('Tu saldo y tu crédito disponible no alcanzan para esta orden.'),
    ).toBeVisible();
    await expectAccessible(page);

    // The dashboard, at 375 and 1280 px: the negative Saldo, the debt in words, the limit, and
    // «Disponible para gastar».
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/dashboard');
      await expect(page.getByTestId('dashboard-balance')).toHaveText('-US$1.00');
      const line = page.getByTestId('credit-line');
      await expect(line).toContainText('Saldo negativo, debes:US$1.00');
      await expect(line).toContainText('Límite de crédito:US$1.00');
      await expect(line).toContainText('Disponible para gastar:US$0.00');
      await expectAccessible(page);
    }
    await page.goto('/addfunds');
    await expect(page.getByTestId('wallet-available')).toHaveText('-US$1.00');
    await expect(page.getByTestId('credit-spendable')).toHaveText('US$0.00');

    // Who owes what, at 1280 px.
    await admin.setViewportSize({ width: 1280, height: 900 });
    await admin.goto('/admin/deudas');
    await expect(admin.getByRole('heading', { level: 1, name: 'Deudas' })).toBeVisible();
    const debtor = admin.getByTestId('debtor').filter({ hasText: name });
    await expect(debtor).toContainText('Debe US$1.00');
    await expect(debtor).toContainText('Límite US$1.00');
    await expectAccessible(admin);
    expect(errors).toEqual([]);
  } finally {
    await admin.context().close();
  }
});

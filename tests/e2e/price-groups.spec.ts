// Price groups end to end: an admin creates a group in /admin/grupos, moves a customer into it
// from the customer's page; the customer sees the discounted price on the order page, pays it,
// and finds the group's name on Mi perfil. 375 and 1280 px, with axe.
import { expect, test } from './fixtures';
import { collectPageErrors, expectAccessible, registerVerified, waitForHydration } from './helpers';
import { adminPage, creditCustomer, sameOrigin } from './ordering';

test('an admin creates a group and moves a customer into it; the customer sees and pays the group price', async ({
  page: customer,
  browser,
}) => {
  const tag = Date.now().toString(36);
  const groupName = `Mayoristas ${tag}`;
  const { email } = await registerVerified(customer, `Revendedora ${tag}`);
  const admin = await adminPage(browser, '/admin/grupos');
  const errors = await collectPageErrors(admin);
  try {
    await creditCustomer(admin, email, '1.00');
    await admin.setViewportSize({ width: 1280, height: 900 });
    await expect(admin.getByRole('heading', { level: 1, name: 'Grupos de precios' })).toBeVisible();
    await expect(admin.getByTestId('price-groups')).toContainText('Predeterminado');
    await waitForHydration(admin);
    const form = admin.getByRole('form', { name: 'Nuevo grupo' });
    await form.getByLabel('Nombre del grupo').fill(groupName);
    await form.getByLabel('Descuento sobre el precio base (%)').fill('12.5');
    await form.getByRole('button', { name: 'Añadir excepción' }).click();
    await form
      .getByLabel('Excepción 1: se aplica a')
      .selectOption({ label: 'Categoría: Servicios IMEI' });
    await form.getByLabel('Descuento', { exact: true }).fill('20');
    await form.getByRole('button', { name: 'Crear grupo' }).click();
    await expect(admin.getByText(`Creamos el grupo «${groupName}».`)).toBeVisible();
    const created = admin
      .getByTestId('price-groups')
      .getByRole('listitem')
      .filter({ hasText: groupName });
    await expect(created).toContainText('12.5 %');
    await expect(created).toContainText('20 % de descuento');
    await expectAccessible(admin);
    await admin.setViewportSize({ width: 375, height: 800 });
    await expectAccessible(admin);
    expect(
      await admin.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    ).toBe(true);

    // The customer's page: move them to the group.
    const found = await admin.request.get(`/api/admin/users?q=${encodeURIComponent(email)}`, {
      headers: sameOrigin(admin),
    });
    const { items } = (await found.json()) as { items: { id: string; email: string }[] };
    const id = items.find((u) => u.email === email)?.id ?? '';
    await admin.setViewportSize({ width: 1280, height: 900 });
    await admin.goto(`/admin/clientes/${id}`);
    const prices = admin.getByRole('region', { name: 'Precios' });
    await expect(prices.getByTestId('customer-price-group')).toContainText('(predeterminado)');
    await waitForHydration(admin);
    await prices
      .getByLabel('Grupo de precios', { exact: true })
      .selectOption({ label: `${groupName} (12.5 %)` });
    await prices.getByRole('button', { name: 'Cambiar grupo' }).click();
    await expect(prices.getByText(`Ahora está en «${groupName}».`, { exact: false })).toBeVisible();
    await expect(prices.getByTestId('customer-price-group')).toContainText(groupName);
    await expectAccessible(admin);
    expect(errors).toEqual([]);
  } finally {
    await admin.context().close();
  }

  // The customer: US$0.50 − 20 % (the IMEI category override) = US$0.40, shown and charged.
  await customer.goto('/placeorder/IMEI');
  await customer.getByRole('button', { name: /Consulta IMEI completa/ }).click();
  await customer.getByLabel('IMEI', { exact: true }).fill('359702373699048');
  await customer.getByRole('button', { name: 'Confirmar orden (Total US$0.40)' }).click();
  await expect(customer.getByText(/Orden #\d+ creada: Consulta IMEI completa/)).toBeVisible();
  await expect(customer.getByText('Saldo: US$0.60').first()).toBeVisible();
  await customer.setViewportSize({ width: 375, height: 800 });
  await expectAccessible(customer);

  // Mi perfil names the group.
  await customer.goto('/profile');
  await expect(customer.getByLabel('Grupo de precios')).toHaveValue(groupName);
  await expectAccessible(customer);
  await customer.setViewportSize({ width: 1280, height: 900 });
  await expectAccessible(customer);
});

import { expect, test } from './fixtures';
import { expectAccessible, registerVerified, waitForHydration } from './helpers';
import { adminPage, creditCustomer, placeImeiOrders, uniqueImei } from './ordering';

const IMEI_A = '359702373699048';
const IMEI_B = '490154203237518';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test('the customer filters, opens, cancels; the admin completes; the result is shown', async ({
  browser,
  page,
}) => {
  const { email } = await registerVerified(page, 'Irene Castillo');
  const admin = await adminPage(browser);
  await creditCustomer(admin, email, '5.00');
  const [first, second] = await placeImeiOrders(page, [IMEI_A, IMEI_B]);
  if (!first || !second) throw new Error('orders not placed');

  await page.goto('/orderhistory');
  await expect(page.getByRole('heading', { level: 1, name: 'Historial de órdenes' })).toBeVisible();
  const list = page.getByTestId('orders');
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expect(list.getByText('Pendiente')).toHaveCount(2);
  await expect(list.getByRole('listitem').first()).toContainText(`#${second.number}`);
  await expect(page.getByRole('link', { name: 'Exportar CSV' })).toHaveAttribute(
    'href',
    /\/api\/orders\/export\.csv/,
  );
  await expectAccessible(page);

  // A pasted IMEI finds its order, and the filter lives in the URL.
  await page.getByLabel('Buscar por número de orden o IMEI').fill(`${IMEI_A}\n`);
  await page.getByRole('button', { name: 'Aplicar' }).click();
  await expect(page).toHaveURL(/q=359702373699048/);
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list).toContainText(IMEI_A);
  await page.reload();
  await expect(page.getByTestId('orders').getByRole('listitem')).toHaveCount(1);
  await expect(page.getByLabel('Buscar por número de orden o IMEI')).toHaveValue(IMEI_A);
  // Dates read «24 nov 2026, 7:50», rendered on the server in the zone the browser reported
  // (the `tz` cookie), so the page hydrates without a mismatch.
  const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  expect((await page.context().cookies()).find((c) => c.name === 'tz')?.value).toBe(
    encodeURIComponent(zone),
  );
  await expect(page.getByTestId('orders').getByRole('listitem').first()).toContainText(
    /\b\d{1,2} (ene|feb|mar|abr|may|jun|jul|ago|sep|oct|nov|dic) \d{4}, \d{1,2}:\d{2}/,
  );

  // Detail and cancellation.
  await expect(page.getByText('Saldo: US$4.00').first()).toBeVisible();
  await page.getByRole('link', { name: new RegExp(`#${first.number}`) }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(`Orden #${first.number}`);
  await expect(dialog).toContainText(IMEI_A);
  await expect(dialog).toContainText('Tú');
  await dialog.getByRole('button', { name: 'Cancelar orden' }).click();
  await dialog.getByRole('button', { name: 'Sí, cancelar orden' }).click();
  await expect(dialog.getByText('Orden cancelada. Devolvimos US$0.50 a tu saldo.')).toBeVisible();
  await expect(dialog.getByText('Cancelada').first()).toBeVisible();
  await expect(page.getByText('Saldo: US$4.50').first()).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page).not.toHaveURL(/orden=/);
  // The focus is back on the row that opened the dialog.
  await expect(page.getByRole('link', { name: new RegExp(`#${first.number}`) })).toBeFocused();
  await page.getByRole('link', { name: 'Limpiar' }).click();
  await expect(page.getByTestId('orders').getByRole('listitem')).toHaveCount(2);

  // The admin completes the other one.
  await admin.goto('/admin/ordenes');
  await expect(admin.getByRole('heading', { level: 1, name: 'Órdenes' })).toBeVisible();
  await expectAccessible(admin);
  const row = admin.getByRole('listitem', { name: `Orden #${second.number}` });
  await expect(row).toContainText(IMEI_B);
  await row.getByRole('button', { name: /^Tomar/ }).click();
  await expect(row).toContainText('En proceso');
  await row.getByRole('button', { name: /^Completar/ }).click();
  await row.getByLabel('Resultado (código o texto)').fill('Operador: Telcel · Libre');
  await row.getByRole('button', { name: 'Confirmar' }).click();
  await expect(row).toContainText(`Orden #${second.number} completada.`);
  await expect(row).toContainText('Completada');
  await admin.context().close();

  await page.reload();
  const completed = page.getByTestId('orders').getByRole('listitem').first();
  await expect(completed).toContainText('Completada');
  // The result is in the row itself.
  await expect(completed.getByTestId('row-result')).toHaveText(
    'Resultado: Operador: Telcel · Libre',
  );
  await completed.getByRole('link').click();
  await expect(page.getByRole('dialog').getByTestId('order-result')).toHaveText(
    'Operador: Telcel · Libre',
  );
  await page.getByRole('dialog').getByRole('button', { name: 'Copiar' }).click();
  await expect(page.getByRole('dialog').getByText('Copiado')).toBeVisible();
  await expect(page.getByRole('dialog').getByText('Administración').first()).toBeVisible();
  await expectAccessible(page);
  await page.keyboard.press('Escape');
  // Closed for good (the URL too) before reloading: a reload that still carries ?orden= opens
  // the dialog again, and the list behind a modal dialog is hidden from the accessibility tree.
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(page).not.toHaveURL(/orden=/);

  // 375 px: nothing overflows sideways.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.reload();
  await expect(page.getByTestId('orders').getByRole('listitem')).toHaveCount(2);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(
    true,
  );
  await page.screenshot({ path: 'test-results/order-history-375.png', fullPage: true });

  // A failed load is not an empty history; «Reintentar» brings the list back.
  await page.route('**/api/orders?**', (r) => r.fulfill({ status: 500, body: '{}' }));
  // Read by the browser: a navigation inside the app (a first load is rendered on the server,
  // where the same loader shows the same notice).
  await page.goto('/dashboard');
  // Hydrated: the click is the app's navigation, not a new document.
  await waitForHydration(page);
  await page
    .getByRole('link', { name: /Historial de órdenes/ })
    .first()
    .click();
  await expect(page.getByText('No pudimos cargar tu historial.')).toBeVisible();
  await expect(page.getByText('Todavía no tienes órdenes.')).toBeHidden();
  await page.unroute('**/api/orders?**');
  await page.getByRole('button', { name: 'Reintentar' }).click();
  await expect(page.getByTestId('orders').getByRole('listitem')).toHaveCount(2);
});

test('a new customer sees the empty history; a failed load offers Reintentar', async ({ page }) => {
  await registerVerified(page, 'Tomás Rivera');
  await page.goto('/orderhistory');
  await expect(page.getByText('Todavía no tienes órdenes.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Hacer mi primera orden' })).toHaveAttribute(
    'href',
    '/placeorder',
  );
  await page.getByRole('button', { name: 'Filtrar' }).click();
  await page.getByLabel('Estado').selectOption({ label: 'Completada' });
  await page.getByRole('button', { name: 'Aplicar' }).click();
  await expect(page.getByText('Ninguna orden coincide con los filtros.')).toBeVisible();

  await page.route('**/api/orders?**', (r) => r.fulfill({ status: 500, body: '{}' }));
  // Read by the browser: a navigation inside the app (a first load is rendered on the server,
  // where the same loader shows the same notice).
  await page.goto('/dashboard');
  // Hydrated: the click is the app's navigation, not a new document.
  await waitForHydration(page);
  await page
    .getByRole('link', { name: /Historial de órdenes/ })
    .first()
    .click();
  await expect(page.getByText('No pudimos cargar tu historial.')).toBeVisible();
  await page.unroute('**/api/orders?**');
  await page.getByRole('button', { name: 'Reintentar' }).click();
  await expect(page.getByText('Todavía no tienes órdenes.')).toBeVisible();
  await expect(page.getByText('No pudimos cargar tu historial.')).toBeHidden();
});

test('on a phone: 8+ orders on the first screen, filters behind «Filtrar»; «Cargar más» appends the next page', async ({
  browser,
  page,
}) => {
  const { email } = await registerVerified(page, 'Rocío Paredes');
  const admin = await adminPage(browser);
  await creditCustomer(admin, email, '10.00');
  await admin.context().close();
  await placeImeiOrders(
    page,
    Array.from({ length: 27 }, (_, i) => uniqueImei(100 + i)),
    'Estado de iCloud',
  );
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto('/orderhistory');
  const list = page.getByTestId('orders').getByRole('listitem');
  await expect(list).toHaveCount(25);
  // The search box comes first; the other filters wait behind «Filtrar».
  const search = page.getByLabel('Buscar por número de orden o IMEI');
  const filtrar = page.getByRole('button', { name: 'Filtrar' });
  await expect(search).toBeInViewport();
  await expect(filtrar).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByLabel('Estado')).toBeHidden();
  const onFirstScreen = await list.evaluateAll(
    (items) => items.filter((li) => li.getBoundingClientRect().bottom <= window.innerHeight).length,
  );
  expect(onFirstScreen).toBeGreaterThanOrEqual(8);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(
    true,
  );

  await filtrar.click();
  await expect(filtrar).toHaveAttribute('aria-expanded', 'true');
  await page.getByLabel('Estado').selectOption({ label: 'Pendiente' });
  await page.getByRole('button', { name: 'Aplicar' }).click();
  await expect(page).toHaveURL(/status=pending/);
  // A filter in use keeps the panel open, and the button counts it.
  await expect(page.getByRole('button', { name: 'Filtrar (1)' })).toHaveAttribute(
    'aria-expanded',
    'true',
  );
  await expect(page.getByLabel('Estado')).toHaveValue('pending');
  await expect(list).toHaveCount(25);
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Cargar más' }).click();
  await expect(list).toHaveCount(27);
  await expect(page.getByRole('button', { name: 'Cargar más' })).toHaveCount(0);
});

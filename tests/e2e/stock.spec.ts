// Issue 24, delivery from stock, in the browser: the admin makes a licence service a stock
// service and uploads items; a customer buys one and has it at once; the admin replaces it from
// the order queue; once the stock runs out the customer sees «Agotado».
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectAccessible, registerVerified, waitForHydration } from './helpers';
import { adminPage, creditCustomer, sameOrigin } from './ordering';

const FIRST = 'W11-AAAA-BBBB-CCCC-1111';
const SECOND = 'cuenta@example.com:Clave-Segura';

async function noHorizontalOverflow(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(
    true,
  );
}

/** A licence service of its own (so no other journey buys from its stock), by hand for now. */
async function createLicence(admin: Page, name: string) {
  const res = await admin.request.post('/api/admin/services', {
    headers: sameOrigin(admin),
    data: {
      category: 'licenses',
      name,
      description: 'Clave de activación para una PC.',
      deliveryTime: 'Instantáneo',
      price: '4.00',
      fields: [],
    },
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as { id: string };
}

test('stock: upload, instant delivery, replacement and «Agotado», by keyboard, at 375 and 1280 px', async ({
  browser,
  page,
}) => {
  test.slow();
  const name = `Windows 11 Pro stock ${Date.now().toString(36).slice(-5)}`;
  const admin = await adminPage(browser, '/admin/servicios');
  await createLicence(admin, name);
  await admin.reload();
  await waitForHydration(admin);
  const row = admin.getByRole('row', { name, exact: true });

  // «Entrega: Stock» and the low-stock threshold, in the service's editor.
  await row.getByRole('button', { name: `Editar ${name}` }).click();
  const edit = admin.getByRole('region', { name: `Editar ${name}` });
  await edit.getByLabel('Entrega', { exact: true }).selectOption({ label: 'Stock' });
  await edit.getByLabel('Avisar con poco stock').fill('1');
  await edit.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(row.getByText(`Cambios guardados en «${name}».`)).toBeVisible();
  // No items and no supplier to fall back on: sold out.
  await expect(row.getByTestId('service-stock')).toHaveText('Agotado');

  // The stock panel, by keyboard: paste three items, one empty line and one repeated.
  const stockButton = row.getByRole('button', { name: `Stock ${name}` });
  await stockButton.focus();
  await admin.keyboard.press('Enter');
  const panel = admin.getByTestId('stock-panel');
  await expect(panel.getByTestId('stock-available')).toHaveText('0');
  const box = panel.getByLabel('Artículos (uno por línea)');
  await box.focus();
  await admin.keyboard.insertText(`${FIRST}\n\n${SECOND}\n${FIRST}`);
  await expect(
    panel.getByText('4 líneas: 2 artículos (no se agregan: 1 vacía, 1 repetida).'),
  ).toBeVisible();
  await expectAccessible(admin);
  await panel.getByRole('button', { name: `Cargar stock de ${name}` }).press('Enter');
  await expect(panel.getByText(/Se agregaron 2 artículos\./)).toBeVisible();
  const refused = panel.getByTestId('stock-refused');
  await expect(refused.getByRole('listitem')).toHaveText([
    'Línea 2: Línea vacía.',
    'Línea 4: Repetido en esta misma carga.',
  ]);
  await expect(panel.getByTestId('stock-available')).toHaveText('2');
  // Staff never see an item again, only its last 4 characters.
  const items = panel.getByTestId('stock-items');
  await expect(items).toContainText('1111');
  await expect(items).toContainText('gura');
  await expect(items).not.toContainText(FIRST);
  await expect(row.getByTestId('service-stock')).toHaveText('Stock: 2');
  await expect(panel.getByTestId('stock-export')).toHaveAttribute('href', /\/stock\/export$/);
  await expectAccessible(admin);
  await admin.setViewportSize({ width: 375, height: 800 });
  await noHorizontalOverflow(admin);
  await expectAccessible(admin);
  await admin.setViewportSize({ width: 1280, height: 900 });

  // A customer buys it and has the item at once.
  const { email } = await registerVerified(page, 'Valeria Soto');
  await creditCustomer(admin, email, '10.00');
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/placeorder/licenses');
  await waitForHydration(page);
  await page.getByRole('button', { name: new RegExp(name) }).click();
  const order = page.getByRole('region', { name: 'Orden' });
  await expect(order.getByTestId('service-availability')).toHaveText('Entrega inmediata');
  await noHorizontalOverflow(page);
  await expectAccessible(page);
  await order.getByRole('button', { name: 'Confirmar orden (Total US$4.00)' }).click();
  await expect(order.getByText(/Orden #\d+ creada: .* · Completada/)).toBeVisible();
  const delivered = order.getByTestId('delivered-item');
  await expect(delivered).toHaveText(
    /^(W11-AAAA-BBBB-CCCC-1111|cuenta@example\.com:Clave-Segura)$/,
  );
  const first = (await delivered.textContent()) ?? '';
  await expect(order.getByRole('button', { name: 'Copiar el artículo' })).toBeVisible();
  await noHorizontalOverflow(page);
  await expectAccessible(page);
  const number = /Orden #(\d+)/.exec(
    (await order.getByText(/Orden #\d+ creada/).textContent()) ?? '',
  )?.[1];
  expect(number).toBeTruthy();

  // The admin sees it sold, and replaces the item from the order queue.
  await panel.getByRole('button', { name: `Actualizar el stock de ${name}` }).click();
  await expect(panel.getByTestId('stock-sold')).toHaveText('1');
  await expect(panel.getByTestId('stock-available')).toHaveText('1');
  await admin.goto(`/admin/ordenes?status=todas&q=${number}`);
  await waitForHydration(admin);
  const queued = admin.getByRole('listitem', { name: `Orden #${number}` });
  await expect(queued.getByText('Completada')).toBeVisible();
  await expect(queued).not.toContainText(first.trim());
  const replace = queued.getByRole('button', {
    name: `Reemplazar artículo de la orden #${number}`,
  });
  await replace.focus();
  await admin.keyboard.press('Enter');
  const dialog = admin.getByRole('alertdialog', {
    name: `¿Reemplazar el artículo de la orden #${number}?`,
  });
  await expect(dialog).toBeVisible();
  await expectAccessible(admin);
  await dialog.getByLabel('Nota para el cliente (opcional)').fill('El primero no activaba.');
  await dialog.getByRole('button', { name: 'Sí, reemplazar' }).press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(queued.getByText(/artículo reemplazado por otro del stock/)).toBeVisible();
  await admin.setViewportSize({ width: 375, height: 800 });
  await noHorizontalOverflow(admin);
  await expectAccessible(admin);

  // The last item went to the replacement: a second order from the page loaded before is refused
  // with the API's message (nothing charged), and the button stays disabled.
  await order.getByRole('button', { name: 'Hacer otra orden' }).click();
  await order.getByRole('button', { name: 'Confirmar orden (Total US$4.00)' }).click();
  await expect(order.getByRole('alert')).toHaveText(
    'Agotado: este servicio no tiene existencias en este momento.',
  );
  await expect(order.getByRole('button', { name: 'Agotado' })).toBeDisabled();
  await expect(page.getByText('Saldo: US$6.00').first()).toBeVisible();

  // The customer's order now holds the other item.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/orderhistory');
  await waitForHydration(page);
  await page.getByRole('link', { name: new RegExp(`#${number}`) }).click();
  const detail = page.getByRole('dialog', { name: `Orden #${number}` });
  const result = detail.getByTestId('order-result');
  await expect(result).toBeVisible();
  await expect(result).not.toHaveText(first);
  await expect(result).toHaveText(/^(W11-AAAA-BBBB-CCCC-1111|cuenta@example\.com:Clave-Segura)$/);
  await expect(detail.getByText('Completada').first()).toBeVisible();
  await expectAccessible(page);

  // Nothing left and no supplier: «Agotado», and the order button says why it cannot be used.
  await page.goto('/placeorder/licenses');
  await waitForHydration(page);
  await page.getByRole('button', { name: new RegExp(name) }).click();
  await expect(order.getByTestId('service-availability')).toHaveText('Agotado');
  await expect(order.getByRole('button', { name: 'Agotado' })).toBeDisabled();
  await expect(order.getByTestId('sold-out')).toContainText('no tiene existencias');
  await expectAccessible(page);
  await page.setViewportSize({ width: 375, height: 800 });
  await noHorizontalOverflow(page);

  // More stock from a file, checked in the browser first: a spreadsheet is refused there; a CSV
  // adds its new line and names the one already in stock (sold items count too).
  await admin.setViewportSize({ width: 1280, height: 900 });
  await admin.goto('/admin/servicios');
  await waitForHydration(admin);
  await expect(row.getByTestId('service-stock')).toHaveText('Agotado');
  await row.getByRole('button', { name: `Stock ${name}` }).click();
  const picker = panel.getByLabel('O elige un archivo .txt o .csv');
  await picker.setInputFiles({
    name: 'claves.xlsx',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from('x'),
  });
  await expect(
    panel.getByText('Elige un archivo .txt o .csv, con un artículo por línea.'),
  ).toBeVisible();
  await picker.setInputFiles({
    name: 'claves.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`${FIRST}\r\nW11-DDDD-EEEE-FFFF-3333\r\n`),
  });
  await expect(panel.getByText('Archivo «claves.csv»: 2 líneas: 2 artículos.')).toBeVisible();
  await panel.getByRole('button', { name: `Cargar stock de ${name}` }).click();
  await expect(panel.getByText(/Se agregó 1 artículo\./)).toBeVisible();
  await expect(panel.getByTestId('stock-refused').getByRole('listitem')).toHaveText([
    'Línea 1: Ya está en el stock de este servicio.',
  ]);
  await expect(panel.getByTestId('stock-available')).toHaveText('1');
  await expect(row.getByTestId('service-stock')).toHaveText('Stock: 1');
  await page.reload();
  await page.getByRole('button', { name: new RegExp(name) }).click();
  await expect(order.getByTestId('service-availability')).toHaveText('Entrega inmediata');
  await admin.context().close();
});

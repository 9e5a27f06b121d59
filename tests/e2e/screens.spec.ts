// Every ordering page at 375 px and 1280 px, filled with real data: visible heading, nothing
// overflowing sideways, no serious accessibility problem, no console error; a full-page
// screenshot of each is left in test-results/screens/ for a person to look at.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { collectPageErrors, expectAccessible, registerVerified } from './helpers';
import { adminPage, creditCustomer, placeImeiOrders } from './ordering';

const WIDTHS = [375, 1280] as const;

async function expectScreen(
  page: Page,
  name: string,
  width: number,
  modal = false,
  fullPage = true,
) {
  // An open dialog hides the page behind it from assistive technology, heading included.
  await expect(page.getByRole('heading', { level: modal ? 2 : 1 }).first()).toBeVisible();
  await expect(page.getByText('Cargando Cometa')).toBeHidden();
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    `${name} overflows sideways at ${width} px`,
  ).toBe(true);
  await expectAccessible(page);
  await page.screenshot({ path: `test-results/screens/${name}-${width}.png`, fullPage });
}

test('customer ordering pages at 375 and 1280 px', async ({ browser, page }) => {
  const errors = await collectPageErrors(page);
  const { email } = await registerVerified(page, 'Valentina Ocampo Iturriaga');
  const admin = await adminPage(browser);
  await creditCustomer(admin, email, '20.00');
  await admin.context().close();
  // A few orders so the history and the dashboard have something to show.
  const [first] = await placeImeiOrders(
    page,
    ['356938035643809', '490154203237518'],
    'Estado de iCloud',
  );
  const order = (await (await page.request.get(`/api/orders/${first?.id ?? ''}`)).json()) as {
    serviceId: string;
  };

  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/dashboard');
    await expect(page.getByText('Últimas órdenes')).toBeVisible();
    await expectScreen(page, 'dashboard', width);

    await page.goto('/placeorder');
    await expectScreen(page, 'placeorder', width);

    await page.goto('/placeorder/social');
    await page
      .getByRole('button', { name: /Seguidores/ })
      .first()
      .click();
    await expect(page.getByLabel('Cantidad')).toBeVisible();
    // The chosen service's form is brought into view (below the list on a phone).
    await expect(
      page.getByRole('region', { name: 'Orden' }).getByRole('heading', { level: 2 }),
    ).toBeInViewport();
    await expectScreen(page, 'placeorder-social', width);

    await page.goto(`/placeorder/IMEI/${order.serviceId}`);
    await expect(page.getByLabel('IMEI', { exact: true })).toBeVisible();
    await expectScreen(page, 'placeorder-service', width);

    await page.goto('/orderhistory');
    await expect(page.getByTestId('orders').getByRole('listitem')).toHaveCount(2);
    await expectScreen(page, 'orderhistory', width);
    await page.getByTestId('orders').getByRole('link').first().click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectScreen(page, 'orderhistory-detail', width, true);
    await page.keyboard.press('Escape');
  }
  expect(errors).toEqual([]);
});

test('admin pages at 375 and 1280 px', async ({ browser }) => {
  const admin = await adminPage(browser);
  const errors = await collectPageErrors(admin);
  for (const width of WIDTHS) {
    await admin.setViewportSize({ width, height: 900 });
    for (const path of ['/admin/ordenes', '/admin/servicios', '/admin/pagos', '/admin/recibos']) {
      await admin.goto(path);
      await expectScreen(admin, path.slice(1).replace('/', '-'), width);
    }
  }
  expect(errors).toEqual([]);
  await admin.context().close();
});

for (const width of WIDTHS) {
  test(`the API documentation page at ${width} px`, async ({ page }) => {
    // Some 150 operations with their schemas: an accessibility scan of that page takes tens of
    // seconds on a busy machine.
    test.setTimeout(180_000);
    const errors = await collectPageErrors(page);
    await page.setViewportSize({ width, height: 900 });
    const res = await page.goto('/api/docs');
    expect(res?.status()).toBe(200);
    await expect(
      page.getByRole('heading', { level: 1, name: /Documentación de la API/ }),
    ).toBeVisible();
    await expect(page.getByText('/api/admin/orders/bulk-complete').first()).toBeVisible();
    // The whole page is some 150 operations tall: capturing all of it outlasts the 20 s action
    // limit on a busy machine, and the first screen shows what a person sees first.
    await expectScreen(page, 'api-docs', width, false, false);
    expect(errors).toEqual([]);
  });
}

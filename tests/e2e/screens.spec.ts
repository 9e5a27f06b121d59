// Every ordering page at 375 px and 1280 px, filled with real data: visible heading, nothing
// overflowing sideways, no serious accessibility problem, no console error; a full-page
// screenshot of each is left in test-results/screens/ for a person to look at.
import { expect, test, type Browser, type Page } from '@playwright/test';
import { ADMIN, collectPageErrors, expectAccessible, registerVerified, signIn } from './helpers';

const WIDTHS = [375, 1280] as const;

function origin(page: Page) {
  return { Origin: new URL(page.url()).origin };
}

async function adminPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  return page;
}

async function expectScreen(page: Page, name: string, width: number, modal = false) {
  // An open dialog hides the page behind it from assistive technology, heading included.
  await expect(page.getByRole('heading', { level: modal ? 2 : 1 }).first()).toBeVisible();
  await expect(page.getByText('Cargando Cometa')).toBeHidden();
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    `${name} overflows sideways at ${width} px`,
  ).toBe(true);
  await expectAccessible(page);
  await page.screenshot({ path: `test-results/screens/${name}-${width}.png`, fullPage: true });
}

test('customer ordering pages at 375 and 1280 px', async ({ browser, page }) => {
  const errors = collectPageErrors(page);
  const { email } = await registerVerified(page, 'Valentina Ocampo Iturriaga');
  const admin = await adminPage(browser);
  const found = await admin.request.get(`/api/admin/users?q=${encodeURIComponent(email)}`, {
    headers: origin(admin),
  });
  const { items } = (await found.json()) as { items: Array<{ id: string; email: string }> };
  const id = items.find((u) => u.email === email)?.id ?? '';
  const credited = await admin.request.post(`/api/admin/users/${id}/adjustments`, {
    headers: origin(admin),
    data: { amount: '20.00', reason: 'Saldo de prueba' },
  });
  expect(credited.status()).toBe(201);
  await admin.context().close();

  // A few orders so the history and the dashboard have something to show.
  const services = (await (
    await page.request.get('/api/services?category=IMEI', { headers: origin(page) })
  ).json()) as { items: Array<{ id: string; name: string }> };
  const service = services.items.find((s) => s.name.startsWith('Estado de iCloud'));
  expect(service).toBeTruthy();
  for (const imei of ['356938035643809', '490154203237518']) {
    const res = await page.request.post('/api/orders', {
      headers: origin(page),
      data: { serviceId: service?.id, fields: { imei } },
    });
    expect(res.status()).toBe(201);
  }

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
    await expectScreen(page, 'placeorder-social', width);

    await page.goto(`/placeorder/IMEI/${service?.id ?? ''}`);
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
  const errors = collectPageErrors(admin);
  for (const width of WIDTHS) {
    await admin.setViewportSize({ width, height: 900 });
    for (const path of ['/admin/ordenes', '/admin/pagos']) {
      await admin.goto(path);
      await expectScreen(admin, path.slice(1).replace('/', '-'), width);
    }
  }
  expect(errors).toEqual([]);
  await admin.context().close();
});

// What the ordering journeys share: an admin in a browser context of their own, crediting a
// customer, placing orders through the API as the signed-in customer, and valid IMEIs.
import type { Browser, Page } from '@playwright/test';
import { imeiFor } from '../setup/imei';
import { e2eServer, expect } from './fixtures';
import { signInAsAdmin } from './helpers';

/** The Origin header our API asks of a signed-in POST (Better Auth's check). */
export function sameOrigin(page: Page) {
  return { Origin: new URL(page.url()).origin };
}

/**
 * The admin's signed-in browser state, made once per server (so once per worker): the /login
 * form, then the code of the app on /login/dos-pasos (tests/e2e/helpers.ts signInAsAdmin).
 * Signing in for every test would cost seconds each, and a TOTP step each: the server accepts
 * each 30-second step once, so a run of admin sign-ins waits for the clock.
 */
function adminState(browser: Browser) {
  const server = e2eServer();
  server.adminState ??= (async () => {
    const context = await browser.newContext();
    try {
      await signInAsAdmin(await context.newPage());
      return await context.storageState();
    } finally {
      await context.close();
    }
  })();
  // A failed sign-in is not kept: the next test tries again.
  server.adminState.catch(() => (server.adminState = undefined));
  return server.adminState;
}

/**
 * The admin, signed in on a page of a new context, on `path` (/admin/ordenes, where a sign-in
 * lands, unless told); close it with page.context().close().
 */
export async function adminPage(browser: Browser, path = '/admin/ordenes'): Promise<Page> {
  const context = await browser.newContext({ storageState: await adminState(browser) });
  const page = await context.newPage();
  await page.goto(path);
  await expect(page.getByRole('navigation', { name: 'Administración' })).toBeVisible();
  return page;
}

/** The admin adds `amount` to a customer's Saldo (an audited balance adjustment). */
export async function creditCustomer(admin: Page, email: string, amount: string) {
  const found = await admin.request.get(`/api/admin/users?q=${encodeURIComponent(email)}`, {
    headers: sameOrigin(admin),
  });
  expect(found.ok()).toBe(true);
  const { items } = (await found.json()) as { items: Array<{ id: string; email: string }> };
  const user = items.find((u) => u.email === email);
  expect(user).toBeTruthy();
  const res = await admin.request.post(`/api/admin/users/${user?.id ?? ''}/adjustments`, {
    headers: sameOrigin(admin),
    data: { amount, reason: 'Crédito de prueba' },
  });
  expect(res.status()).toBe(201);
}

export type PlacedOrder = { id: string; number: number; price: string };

/** One order per IMEI of a demo IMEI service, placed as the customer signed in on `page`. */
export async function placeImeiOrders(
  page: Page,
  imeis: string[],
  serviceName = 'Consulta IMEI completa',
): Promise<PlacedOrder[]> {
  const services = await page.request.get('/api/services?category=IMEI', {
    headers: sameOrigin(page),
  });
  const { items } = (await services.json()) as { items: Array<{ id: string; name: string }> };
  const service = items.find((s) => s.name.startsWith(serviceName));
  expect(service).toBeTruthy();
  const orders: PlacedOrder[] = [];
  for (const imei of imeis) {
    const res = await page.request.post('/api/orders', {
      headers: sameOrigin(page),
      data: { serviceId: service?.id, fields: { imei } },
    });
    expect(res.status()).toBe(201);
    orders.push((await res.json()) as PlacedOrder);
  }
  return orders;
}

/** A valid IMEI, new for every seed and every run (the e2e database outlives a test). */
export function uniqueImei(seed: number): string {
  return imeiFor(`${String(Date.now() % 1e6).padStart(6, '0')}${String(seed).padStart(6, '0')}`);
}

import type { Browser, Page } from '@playwright/test';
import { E2E_STRIPE_WEBHOOK_SECRET, e2eServer, expect, test } from './fixtures';
import Stripe from 'stripe';
import {
  checkoutSessionEvent,
  type FakeCheckoutSession,
} from '../../server/features/payments/stripe/fake-stripe';
import { expectAccessible, registerVerified } from './helpers';
import { adminPage } from './ordering';

/** The admin, signed in, on /admin/pagos. */
async function adminOnPayments(browser: Browser): Promise<Page> {
  const page = await adminPage(browser, '/admin/pagos');
  await expect(page.getByRole('heading', { level: 1, name: 'Pagos y saldo' })).toBeVisible();
  return page;
}

/** Marks the document: if the app reloads the whole page, the mark is gone. */
async function markDocument(page: Page) {
  await page.evaluate(() => {
    (window as unknown as { __noReload?: boolean }).__noReload = true;
  });
}
async function stillSameDocument(page: Page) {
  return page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload === true);
}

test('a manual transfer declared by the customer and approved by the admin raises the Saldo without a reload', async ({
  browser,
  page,
}) => {
  const admin = await adminOnPayments(browser);
  const methodName = `Transferencia ${Date.now().toString(36)}`;
  const methods = admin.getByRole('region', { name: 'Métodos de pago manual' });
  await methods.getByLabel('Nombre', { exact: true }).fill(methodName);
  await methods
    .getByLabel('Instrucciones para el cliente')
    .fill('Banco Ejemplo, cuenta 0123-4567. Indica tu correo en el concepto.');
  await methods.getByLabel('Importe mínimo').fill('10.00');
  await methods.getByLabel('Importe máximo').fill('500.00');
  await methods.getByRole('button', { name: 'Crear método' }).click();
  await expect(methods.getByText(`Método «${methodName}» creado`, { exact: false })).toBeVisible();

  const { email } = await registerVerified(page, 'Marta Salinas');
  await markDocument(page);
  await page
    .getByRole('navigation', { name: 'Menú de la cuenta' })
    .getByRole('link', { name: 'Añadir créditos' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Añadir créditos' })).toBeVisible();
  await page.getByLabel('Método de pago').selectOption({ label: methodName });
  await expect(page.getByText('Banco Ejemplo, cuenta 0123-4567.')).toBeVisible();
  await page.getByLabel('Importe pagado en dólares').fill('5');
  await page.getByLabel('Referencia del pago').fill('TRX-998877');
  await page.getByRole('button', { name: 'Avisar del pago' }).click();
  await expect(page.getByText(/El mínimo para .* es US\$10\.00/)).toBeVisible();
  await page.getByLabel('Importe pagado en dólares').fill('25.00');
  // A receipt over the request limit (6 MB): the form shows the server's Spanish 413 message,
  // not a network error (issue 19).
  await page.getByLabel('Comprobante (opcional)').setInputFiles({
    name: 'comprobante.png',
    mimeType: 'image/png',
    buffer: Buffer.alloc(7 * 1024 * 1024),
  });
  await page.getByRole('button', { name: 'Avisar del pago' }).click();
  await expect(page.getByText('El comprobante no puede superar 5 MB.')).toBeVisible();
  await expect(page.getByLabel('Comprobante (opcional)')).toBeFocused();
  await page.getByLabel('Comprobante (opcional)').setInputFiles([]);
  await page.getByRole('button', { name: 'Avisar del pago' }).click();
  await expect(page.getByText('Recibimos tu aviso de pago.', { exact: false })).toBeVisible();
  await expect(page.getByTestId('topups')).toContainText('Pendiente de revisión');
  await expect(page.getByText('Saldo: US$0.00').first()).toBeVisible();

  await admin.reload();
  const row = admin.getByRole('listitem').filter({ hasText: email });
  await expect(row).toContainText('TRX-998877');
  await expect(row).toContainText('US$25.00');
  await row.getByRole('button', { name: 'Aprobar' }).click();
  await expect(row).toContainText(/aprobad|acreditad/i);

  // The customer moves inside the app: the header's Saldo follows, with no full reload.
  await page
    .getByRole('navigation', { name: 'Menú de la cuenta' })
    .getByRole('link', { name: 'Inicio' })
    .click();
  await expect(page.getByText('Saldo: US$25.00').first()).toBeVisible();
  await expect(page.getByTestId('dashboard-balance')).toHaveText('US$25.00');
  expect(await stillSameDocument(page)).toBe(true);
  await page
    .getByRole('navigation', { name: 'Menú de la cuenta' })
    .getByRole('link', { name: 'Añadir créditos' })
    .click();
  await expect(page.getByTestId('topups')).toContainText('Acreditado');
  await expect(page.getByText('Recarga por pago manual')).toBeVisible();
  await expectAccessible(page);
  await admin.context().close();
});

test('a voucher created by the admin is redeemed once', async ({ browser, page }) => {
  const admin = await adminOnPayments(browser);
  const vouchers = admin.getByRole('region', { name: 'Códigos de recarga' });
  await vouchers.getByLabel('Importe por código').fill('10.00');
  await vouchers.getByLabel('Cantidad').fill('1');
  await vouchers.getByRole('button', { name: 'Crear códigos' }).click();
  const codes = vouchers.getByLabel(/Códigos generados/);
  await expect(codes).toHaveValue(/CMT-/);
  const code = (await codes.inputValue()).trim().split('\n')[0] ?? '';
  expect(code).toMatch(/^CMT-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
  await expectAccessible(admin);
  await admin.context().close();

  await registerVerified(page, 'Pablo Ibarra');
  await page.goto('/addfunds');
  await page.getByLabel('Código de recarga').fill(code.toLowerCase());
  await page.getByRole('button', { name: 'Canjear código' }).click();
  await expect(page.getByText('Código canjeado: se añadieron US$10.00 a tu saldo.')).toBeVisible();
  await expect(page.getByText('Saldo: US$10.00').first()).toBeVisible();
  await page.getByLabel('Código de recarga').fill(code);
  await page.getByRole('button', { name: 'Canjear código' }).click();
  await expect(page.getByText('Este código ya fue canjeado.')).toBeVisible();
  await expect(page.getByText('Saldo: US$10.00').first()).toBeVisible();
});

test('a card payment is credited when the signed Stripe webhook arrives', async ({ page }) => {
  await registerVerified(page, 'Clara Núñez');
  await page.goto('/addfunds');
  await page.getByLabel('Importe en dólares').fill('1');
  await page.getByRole('button', { name: 'Pagar con tarjeta' }).click();
  await expect(page.getByText('El mínimo con tarjeta es US$5.00.')).toBeVisible();
  await page.getByLabel('Importe en dólares').fill('20.00');
  await page.getByRole('button', { name: 'Pagar con tarjeta' }).click();

  // The customer is on the (fake) hosted Checkout page.
  const { stripeUrl, url: appUrl } = e2eServer();
  await expect(page).toHaveURL((url) => url.href.startsWith(`${stripeUrl}/pay/cs_test_`));
  const sessionId = new URL(page.url()).pathname.split('/').at(-1) ?? '';
  const session = (await (
    await fetch(`${stripeUrl}/v1/checkout/sessions/${sessionId}`)
  ).json()) as FakeCheckoutSession;
  expect(session.amount_total).toBe(2000);

  // Stripe tells the app, with a signed event (sent twice: a replay credits nothing).
  const { payload } = checkoutSessionEvent('checkout.session.completed', session);
  for (let i = 0; i < 2; i++) {
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: E2E_STRIPE_WEBHOOK_SECRET,
    });
    const res = await fetch(`${appUrl}/api/webhooks/stripe`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature },
      body: payload,
    });
    expect(res.status).toBe(200);
  }

  await page.getByRole('link', { name: 'Pagar' }).click();
  await expect(page).toHaveURL(/\/addfunds\?pago=exito$/);
  await expect(page.getByText('Pago con tarjeta recibido.', { exact: false })).toBeVisible();
  await expect(page.getByTestId('wallet-available')).toHaveText('US$20.00');
  await expect(page.getByText('Saldo: US$20.00').first()).toBeVisible();
  await expect(page.getByText('Recarga con tarjeta')).toBeVisible();
});

test('a customer cannot open the admin page', async ({ page }) => {
  await registerVerified(page);
  await page.goto('/admin/pagos');
  await expect(page).toHaveURL(/\/dashboard$/);
});

// Issue 23 in the browser: the automatic methods on /addfunds with their fee and a live quote
// (375 and 1280 px, keyboard, axe), the admin's fees and fraud hold on /admin/pagos, a held
// top-up approved by the admin, the receipts page, and each gateway's whole journey through its
// local fake (tests/e2e/server.ts): pay on the provider's page, come back, the Saldo changes once.
import type { Browser, Page } from '@playwright/test';
import { e2eServer, expect, test } from './fixtures';
import { expectAccessible, registerVerified } from './helpers';
import { adminPage, sameOrigin } from './ordering';

/** The admin, signed in, on /admin/pagos. */
async function adminOnPayments(browser: Browser): Promise<Page> {
  const page = await adminPage(browser, '/admin/pagos');
  await expect(page.getByRole('heading', { level: 1, name: 'Pagos y saldo' })).toBeVisible();
  return page;
}

type GatewayPatch = {
  feePercent?: string;
  feeFixed?: string;
  minAmount?: string;
  maxAmount?: string;
};

/** Sets a method's fee and limits through the API (the UI's own journey is tested apart). */
async function setGateway(admin: Page, method: string, patch: GatewayPatch) {
  const res = await admin.request.patch(`/api/admin/payment-methods/${method}`, {
    headers: sameOrigin(admin),
    data: patch,
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** The fraud hold's threshold ("" = off) through the API. */
async function setHoldThreshold(admin: Page, threshold: string | null) {
  const res = await admin.request.patch('/api/admin/payment-settings', {
    headers: sameOrigin(admin),
    data: { holdThreshold: threshold },
  });
  expect(res.status(), await res.text()).toBe(200);
}

async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

const onlineSection = (page: Page) => page.getByRole('group', { name: 'Elige el medio de pago' });

test('the automatic methods show their fee and what the customer pays, live, at 375 and 1280 px', async ({
  browser,
  page,
}) => {
  const admin = await adminOnPayments(browser);
  await setGateway(admin, 'paypal', {
    feePercent: '2.90',
    feeFixed: '0.30',
    minAmount: '5.00',
    maxAmount: '1000.00',
  });
  await admin.context().close();

  await registerVerified(page, 'Inés Carrasco');
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/addfunds');
    const methods = onlineSection(page);
    await expect(methods.getByRole('radio', { name: 'Tarjeta' })).toBeChecked();
    await expect(methods.getByRole('radio', { name: 'PayPal' })).toBeVisible();
    await expect(methods).toContainText('Comisión: 2,90 % + US$0.30');

    // Keyboard: from the card to PayPal with the arrow keys; the button follows.
    await methods.getByRole('radio', { name: 'Tarjeta' }).focus();
    await page.keyboard.press('ArrowDown');
    await expect(methods.getByRole('radio', { name: 'PayPal' })).toBeChecked();
    await expect(page.getByRole('button', { name: 'Pagar con PayPal' })).toBeVisible();
    await expect(page.getByText('Entre US$5.00 y US$1,000.00.').first()).toBeVisible();

    const amount = page.getByLabel('Importe en dólares');
    const quote = page.getByTestId('topup-quote');
    await amount.fill('25');
    await expect(quote).toContainText('Pagas US$26.03 · Recibes US$25.00');
    await amount.fill('10,50');
    await expect(quote).toContainText('Pagas US$11.11 · Recibes US$10.50');
    await amount.fill('2');
    await expect(quote).toContainText('El importe debe estar entre US$5.00 y US$1,000.00.');

    // Below the minimum, the server's message under the field, focused.
    await page.getByRole('button', { name: 'Pagar con PayPal' }).click();
    await expect(page.getByText('El mínimo con PayPal es US$5.00.')).toBeVisible();
    await expect(amount).toBeFocused();

    await noSidewaysScroll(page);
    await expectAccessible(page);
  }
});

test('the admin sets a method’s fee and the fraud hold on /admin/pagos; the customer sees the new fee', async ({
  browser,
  page,
}) => {
  const admin = await adminOnPayments(browser);
  try {
    const paypal = admin.getByTestId('gateway-paypal');
    await expect(paypal).toContainText('Activo');
    await paypal.getByRole('button', { name: 'Editar PayPal' }).click();
    await paypal.getByLabel('Comisión (%)').fill('3,5');
    await paypal.getByLabel('Comisión fija (US$)').fill('0,50');
    await paypal.getByLabel('Importe mínimo').fill('5');
    await paypal.getByLabel('Importe máximo').fill('500');
    await paypal.getByRole('button', { name: 'Guardar cambios' }).click();
    await expect(paypal.getByText('Cambios guardados.')).toBeVisible();
    await expect(paypal).toContainText('Comisión: 3,50 % + US$0.50');

    const settings = admin.getByRole('region', { name: 'Ajustes de cobro' });
    const threshold = settings.getByLabel(/Retener la primera recarga con tarjeta o PayPal/);
    await threshold.fill('abc');
    await settings.getByRole('button', { name: 'Guardar ajustes' }).click();
    await expect(threshold).toBeFocused();
    await threshold.fill('150');
    await settings.getByRole('button', { name: 'Guardar ajustes' }).click();
    await expect(settings.getByText('Ajustes guardados.')).toBeVisible();
    await admin.reload();
    await expect(
      admin
        .getByRole('region', { name: 'Ajustes de cobro' })
        .getByLabel(/Retener la primera recarga/),
    ).toHaveValue('150.00');
    // A manual method with its own fee.
    const manualName = `Depósito ${Date.now().toString(36)}`;
    const manual = admin.getByRole('region', { name: 'Métodos de pago manual' });
    await manual.getByLabel('Nombre', { exact: true }).fill(manualName);
    await manual.getByLabel('Instrucciones para el cliente').fill('Cuenta 0099-1234.');
    await manual.getByLabel('Importe mínimo').fill('10');
    await manual.getByLabel('Importe máximo').fill('300');
    await manual.getByLabel('Comisión (%)').fill('1,5');
    await manual.getByLabel('Comisión fija (US$)').fill('0');
    await manual.getByRole('button', { name: 'Crear método' }).click();
    await expect(manual.getByText(`Método «${manualName}» creado`, { exact: false })).toBeVisible();
    await expect(manual.getByRole('listitem').filter({ hasText: manualName })).toContainText(
      'Comisión: 1,50 %',
    );
    await expectAccessible(admin);

    await registerVerified(page, 'Tomás Aguirre');
    await page.goto('/addfunds');
    const methods = onlineSection(page);
    await expect(methods).toContainText('Comisión: 3,50 % + US$0.50');
    await methods.getByRole('radio', { name: 'PayPal' }).check();
    await expect(page.getByText('Entre US$5.00 y US$500.00.').first()).toBeVisible();
    await page.getByLabel('Importe en dólares').fill('100');
    await expect(page.getByTestId('topup-quote')).toContainText(
      'Pagas US$104.00 · Recibes US$100.00',
    );
    await page.getByLabel('Método de pago').selectOption({ label: manualName });
    await expect(page.getByText('Cuenta 0099-1234.')).toBeVisible();
    await expect(page.getByText('Comisión: 1,50 %')).toBeVisible();
  } finally {
    // Other journeys of this worker's server expect no hold and PayPal's usual terms.
    await setHoldThreshold(admin, null);
    await setGateway(admin, 'paypal', {
      feePercent: '2.90',
      feeFixed: '0.30',
      minAmount: '5.00',
      maxAmount: '1000.00',
    });
    await admin.context().close();
  }
});

/** On /addfunds: choose `method`, type `amount`, and go to the provider's page. */
async function startTopup(page: Page, method: string, amount: string, button: string) {
  await page.goto('/addfunds');
  await onlineSection(page).getByRole('radio', { name: method }).check();
  await page.getByLabel('Importe en dólares').fill(amount);
  await page.getByRole('button', { name: button }).click();
}

/** A PayPal top-up of `amount`, approved on the fake PayPal's page, back on /addfunds. */
async function topUpWithPaypal(page: Page, amount: string) {
  await startTopup(page, 'PayPal', amount, 'Pagar con PayPal');
  const { paypalUrl } = e2eServer();
  await expect(page).toHaveURL((url) => url.href.startsWith(`${paypalUrl}/checkoutnow`));
  await page.getByRole('button', { name: 'Pagar con PayPal' }).click();
  await expect(page).toHaveURL(/\/addfunds\?pago=paypal&id=/);
}

function isoDay(offsetDays: number): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

test('PayPal: the customer pays on PayPal’s page, comes back, and the Saldo rises once with a receipt', async ({
  browser,
  page,
}) => {
  const admin = await adminOnPayments(browser);
  await setGateway(admin, 'paypal', {
    feePercent: '2.90',
    feeFixed: '0.30',
    minAmount: '5.00',
    maxAmount: '1000.00',
  });
  await admin.context().close();

  await registerVerified(page, 'Rocío Medina');
  await topUpWithPaypal(page, '25');
  await expect(page.getByText('Recarga acreditada: +US$25.00')).toBeVisible();
  await expect(page.getByTestId('wallet-available')).toHaveText('US$25.00');
  await expect(page.getByText('Saldo: US$25.00').first()).toBeVisible();
  const topups = page.getByTestId('topups');
  await expect(topups).toContainText('PayPal · US$25.00');
  await expect(topups).toContainText('Acreditado');
  await expect(topups).toContainText('Comisión: US$1.03');
  const receipt = topups.getByRole('link', { name: /^Recibo R-\d{4}-\d{6,}$/ });
  await expect(receipt).toHaveAttribute('download', /\.pdf$/);
  await expect(receipt).toHaveAttribute('href', /^\/api\/receipts\/[0-9a-f-]+\/pdf$/);
  // The statement's credit links the same receipt.
  await expect(
    page.getByTestId('movements').getByRole('link', { name: /^Recibo R-/ }),
  ).toHaveAttribute('href', (await receipt.getAttribute('href')) ?? '');

  // A reload (the webhook arriving too, meanwhile) credits nothing more.
  await page.reload();
  await expect(page.getByText('Recarga acreditada: +US$25.00')).toBeVisible();
  await expect(page.getByTestId('wallet-available')).toHaveText('US$25.00');
  await expectAccessible(page);
});

test('a first PayPal top-up above the hold waits «En revisión» until the admin approves it', async ({
  browser,
  page,
}) => {
  const admin = await adminOnPayments(browser);
  try {
    await setHoldThreshold(admin, '10.00');
    const { email } = await registerVerified(page, 'Gael Ortiz');
    await topUpWithPaypal(page, '40');
    await expect(
      page.getByText('Tu recarga está en revisión. Te avisaremos por correo cuando se acredite.'),
    ).toBeVisible();
    await expect(page.getByTestId('topups')).toContainText('En revisión');
    await expect(page.getByTestId('wallet-available')).toHaveText('US$0.00');

    await admin.reload();
    const held = admin.getByRole('region', { name: 'Recargas en revisión' });
    const row = held.getByRole('listitem').filter({ hasText: email });
    await expect(row).toContainText('PayPal');
    await expect(row).toContainText('US$40.00');
    await expectAccessible(admin);
    await row.getByRole('button', { name: /^Aprobar/ }).click();
    await expect(row).toContainText('Recarga aprobada: se acreditaron US$40.00');

    await page.goto('/addfunds');
    await expect(page.getByTestId('wallet-available')).toHaveText('US$40.00');
    await expect(page.getByTestId('topups')).toContainText('Acreditado');
    await expect(
      page.getByTestId('topups').getByRole('link', { name: /^Recibo R-/ }),
    ).toBeVisible();
  } finally {
    await setHoldThreshold(admin, null);
    await admin.context().close();
  }
});

test('/admin/recibos lists the receipts with their PDF and a CSV export, at 375 and 1280 px', async ({
  browser,
  page,
}) => {
  // A receipt to list: a PayPal top-up.
  await registerVerified(page, 'Noelia Paredes');
  await topUpWithPaypal(page, '12');
  await expect(page.getByText('Recarga acreditada: +US$12.00')).toBeVisible();

  const admin = await adminPage(browser, '/admin/pagos');
  try {
    await admin
      .getByRole('navigation', { name: 'Administración' })
      .getByRole('link', { name: 'Recibos' })
      .click();
    await expect(admin.getByRole('heading', { level: 1, name: 'Recibos' })).toBeVisible();
    const row = admin.getByTestId('receipt-row').filter({ hasText: 'Noelia Paredes' });
    await expect(row).toContainText('US$12.00');
    await expect(row.getByRole('link', { name: /Descargar PDF/ })).toHaveAttribute(
      'href',
      /^\/api\/admin\/receipts\/[0-9a-f-]+\/pdf$/,
    );
    // Days in the shop's time zone: a range around today holds the receipt whatever the zone.
    const [from, to] = [isoDay(-1), isoDay(1)];
    await admin.getByLabel('Desde').fill(from);
    await admin.getByLabel('Hasta').fill(to);
    await admin.getByRole('button', { name: 'Filtrar' }).click();
    await expect(admin).toHaveURL(new RegExp(`from=${from}&to=${to}`));
    await expect(row).toContainText('US$12.00');
    await expect(admin.getByRole('link', { name: 'Exportar CSV' })).toHaveAttribute(
      'href',
      `/api/admin/receipts?from=${from}&to=${to}&format=csv`,
    );
    for (const width of [375, 1280]) {
      await admin.setViewportSize({ width, height: 900 });
      await noSidewaysScroll(admin);
      await expectAccessible(admin);
    }
  } finally {
    await admin.context().close();
  }
});

test('crypto: the customer pays the NOWPayments invoice, comes back, and the Saldo rises once; a partial payment says what arrived', async ({
  browser,
  page,
}) => {
  const admin = await adminOnPayments(browser);
  await setGateway(admin, 'crypto', {
    feePercent: '1.00',
    feeFixed: '0.00',
    minAmount: '5.00',
    maxAmount: '1000.00',
  });
  await admin.context().close();
  const { cryptoUrl } = e2eServer();

  await registerVerified(page, 'Bruno Salas');
  await startTopup(page, 'Criptomonedas', '20', 'Pagar con criptomonedas');
  await expect(page).toHaveURL((url) => url.href.startsWith(`${cryptoUrl}/payment/`));
  await page.getByRole('button', { name: 'Pagar todo' }).click();
  await expect(page).toHaveURL(/\/addfunds\?pago=cripto&id=/);
  await expect(page.getByText('Recarga acreditada: +US$20.00')).toBeVisible();
  await expect(page.getByTestId('wallet-available')).toHaveText('US$20.00');
  await expect(page.getByText('Saldo: US$20.00').first()).toBeVisible();
  const topups = page.getByTestId('topups');
  await expect(topups).toContainText('Criptomonedas · US$20.00');
  await expect(topups).toContainText('Comisión: US$0.20');
  await expect(topups.getByRole('link', { name: /^Recibo R-/ })).toHaveCount(1);
  await page.reload();
  await expect(page.getByText('Recarga acreditada: +US$20.00')).toBeVisible();
  await expect(page.getByTestId('wallet-available')).toHaveText('US$20.00');

  // Half of the coins arrive: half is credited, and the customer reads why.
  await startTopup(page, 'Criptomonedas', '10', 'Pagar con criptomonedas');
  await expect(page).toHaveURL((url) => url.href.startsWith(`${cryptoUrl}/payment/`));
  await page.getByRole('button', { name: 'Pagar una parte' }).click();
  await expect(page).toHaveURL(/\/addfunds\?pago=cripto&id=/);
  await expect(page.getByText(/^Pago parcial: llegaron/).first()).toBeVisible();
  await expect(page.getByTestId('wallet-available')).toHaveText('US$25.00');
  await expectAccessible(page);
});

test('Mercado Pago: the admin sets the peso rate, the customer sees the charge in ARS, pays on Checkout Pro and the Saldo rises once', async ({
  browser,
  page,
}) => {
  const admin = await adminOnPayments(browser);
  try {
    await setGateway(admin, 'mercadopago', {
      feePercent: '0.00',
      feeFixed: '0.00',
      minAmount: '5.00',
      maxAmount: '1000.00',
    });
    const settings = admin.getByRole('region', { name: 'Ajustes de cobro' });
    await settings.getByLabel('Unidades de ARS por dólar').fill('1000,00');
    await settings.getByRole('button', { name: 'Guardar ajustes' }).click();
    await expect(settings.getByText('Ajustes guardados.')).toBeVisible();
  } finally {
    await admin.context().close();
  }
  const { mercadopagoUrl } = e2eServer();

  await registerVerified(page, 'Valentina Rey');
  await page.goto('/addfunds');
  await onlineSection(page).getByRole('radio', { name: 'Mercado Pago' }).check();
  await page.getByLabel('Importe en dólares').fill('25');
  const quote = page.getByTestId('topup-quote');
  await expect(quote).toContainText('Pagas US$25.00 · Recibes US$25.00');
  await expect(quote).toContainText('Pagas 25.000,00 ARS (1 US$ = 1000,00 ARS)');
  await expect(quote).toContainText('Sin comisión');
  await page.getByRole('button', { name: 'Pagar con Mercado Pago' }).click();
  await expect(page).toHaveURL((url) => url.href.startsWith(`${mercadopagoUrl}/checkout/`));
  await page.getByRole('button', { name: 'Pagar', exact: true }).click();
  await expect(page).toHaveURL(/\/addfunds\?pago=mercadopago&id=/);
  await expect(page.getByText('Recarga acreditada: +US$25.00')).toBeVisible();
  await expect(page.getByTestId('wallet-available')).toHaveText('US$25.00');
  await expect(page.getByText('Saldo: US$25.00').first()).toBeVisible();
  const topups = page.getByTestId('topups');
  await expect(topups).toContainText('Mercado Pago · US$25.00');
  await expect(topups.getByRole('link', { name: /^Recibo R-/ })).toHaveCount(1);
  await page.reload();
  await expect(page.getByTestId('wallet-available')).toHaveText('US$25.00');
  await expectAccessible(page);
});

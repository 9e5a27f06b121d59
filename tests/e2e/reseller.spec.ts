// Reselling end to end: a customer makes an API key on Mi perfil and a DHRU Fusion panel (here,
// the test process itself) orders with it; the order shows where it came from; the key, revoked,
// stops working. Webhooks: a receiver started here on loopback gets a signed POST for the order,
// retried after a failure and resent on request; /profile with all of it at 375 and 1280 px.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { collectPageErrors, expectAccessible, registerVerified, waitForHydration } from './helpers';
import { adminPage, creditCustomer, placeImeiOrders, sameOrigin, uniqueImei } from './ordering';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

const TAG = Date.now().toString(36).slice(-5);
const IMEI_SERVICE = 'Consulta IMEI completa';

type DhruAnswer = {
  SUCCESS?: Array<Record<string, unknown>>;
  ERROR?: Array<{ MESSAGE: string; FULL_DESCRIPTION?: string }>;
};

/** A DHRU Fusion call from outside the browser, as another panel makes it. */
async function dhru(
  origin: string,
  form: { username: string; apiaccesskey: string; action: string; parameters?: string },
): Promise<DhruAnswer> {
  const body = new URLSearchParams({ requestformat: 'JSON', ...form });
  const res = await fetch(`${origin}/api/index.php`, { method: 'POST', body });
  expect(res.status).toBe(200);
  return (await res.json()) as DhruAnswer;
}

/** DHRU's `parameters` as base64 of JSON. */
function base64Json(value: Record<string, string>): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64');
}

async function imeiServiceNumber(page: Page): Promise<{ id: string; number: number }> {
  const res = await page.request.get('/api/services?category=IMEI', { headers: sameOrigin(page) });
  expect(res.ok()).toBe(true);
  const { items } = (await res.json()) as {
    items: Array<{ id: string; name: string; number: number }>;
  };
  const service = items.find((s) => s.name.startsWith(IMEI_SERVICE));
  expect(service).toBeTruthy();
  return { id: service?.id ?? '', number: service?.number ?? 0 };
}

async function noHorizontalOverflow(page: Page, what: string) {
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    `${what} overflows sideways`,
  ).toBe(true);
}

type Received = { method: string; path: string; headers: IncomingHttpHeaders; body: string };
type Receiver = { url: string; received: Received[]; close: () => Promise<void> };

/** A webhook receiver on loopback: records every request; answers 500 to the first, 200 after. */
async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const first = received.length === 1;
      res.writeHead(first ? 500 : 200, { 'Content-Type': 'text/plain' });
      res.end(first ? 'fallo de prueba' : 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `Cometa-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`, recent. */
function signedBy(secret: string, request: Received): boolean {
  const header = request.headers['cometa-signature'];
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(typeof header === 'string' ? header : '');
  if (!match) return false;
  const [, t = '', v1] = match;
  const expected = createHmac('sha256', secret).update(`${t}.${request.body}`).digest('hex');
  return expected === v1 && Math.abs(Date.now() / 1000 - Number(t)) < 300;
}

test('a customer makes an API key, orders over DHRU with it, sees where the order came from and revokes the key', async ({
  browser,
  page,
}) => {
  const keyName = `Panel DHRU ${TAG}`;
  const { email } = await registerVerified(page, 'Marta Revendedora');
  const admin = await adminPage(browser);
  await creditCustomer(admin, email, '5.00');
  const errors = await collectPageErrors(page);

  await page.goto('/profile?tab=api');
  const origin = new URL(page.url()).origin;
  const api = page.getByRole('region', { name: 'API', exact: true });
  await expect(api.getByRole('heading', { level: 2, name: 'API' })).toBeVisible();
  await expect(api.getByText('Todavía no tienes claves API.')).toBeVisible();

  // The name is required; an address the server refuses is shown under the box, with its line.
  const create = api.getByRole('region', { name: 'Crear clave' });
  const nameField = create.getByLabel('Nombre de la clave');
  const ipsField = create.getByLabel('Direcciones IP permitidas (opcional)');
  await create.getByRole('button', { name: 'Crear clave' }).click();
  await expect(nameField).toHaveAccessibleDescription(/Escribe un nombre para la clave\./);
  await expect(nameField).toBeFocused();
  await nameField.fill(keyName);
  await ipsField.fill('203.0.113.7\n\n300.1.1.1');
  await create.getByRole('button', { name: 'Crear clave' }).click();
  await expect(ipsField).toHaveAccessibleDescription(
    /Línea 3: «300\.1\.1\.1» no es una dirección IP ni un rango válido\./,
  );
  await expect(api.getByText('Todavía no tienes claves API.')).toBeVisible();

  // Created: the key is shown once, focused, read-only, and copied.
  await ipsField.fill('');
  await create.getByRole('button', { name: 'Crear clave' }).click();
  const keyField = create.getByLabel(`Tu nueva clave API «${keyName}»`);
  await expect(keyField).toBeFocused();
  await expect(keyField).toHaveAttribute('readonly', '');
  await expect(keyField).toHaveAccessibleDescription(/no la volveremos a mostrar/);
  const key = await keyField.inputValue();
  expect(key).toMatch(/^cmt_[A-Za-z0-9_-]{40}$/);
  await create.getByRole('button', { name: 'Copiar la clave' }).click();
  await expect(create.getByText('Copiada', { exact: true })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await expect(nameField).toHaveValue('');
  const row = api.getByRole('listitem', { name: keyName });
  await expect(row.getByTestId('api-key-prefix')).toHaveText(`${key.slice(0, 12)}…`);
  await expect(row).toContainText('Cualquier dirección');
  await expect(row).toContainText('Nunca');
  await expectAccessible(page);

  // Shown once: after a reload it is nowhere on the page.
  await page.reload();
  await expect(row.getByTestId('api-key-prefix')).toHaveText(`${key.slice(0, 12)}…`);
  await expect(page.getByTestId('new-api-key')).toHaveCount(0);
  expect(await page.content()).not.toContain(key);

  // «Cómo conectar»: this server's addresses, the account's e-mail, the service numbers.
  const service = await imeiServiceNumber(page);
  const guide = api.getByTestId('connect-guide');
  await guide.getByText('Cómo conectar').click();
  await expect(guide).toContainText(`${origin}/api/index.php`);
  await expect(guide).toContainText(`${origin}/api/v2`);
  await expect(guide).toContainText(email);
  await expect(guide.getByTestId('dhru-accountinfo')).toContainText(`'username=${email}'`);
  await expect(guide.getByTestId('dhru-accountinfo')).toContainText(`'apiaccesskey=TU_CLAVE'`);
  await expect(guide.getByTestId('rest-wallet')).toContainText(
    `curl '${origin}/api/wallet' \\\n  -H 'Authorization: Bearer TU_CLAVE'`,
  );
  await expect(
    guide.getByTestId('service-numbers').getByRole('listitem').filter({ hasText: IMEI_SERVICE }),
  ).toContainText(String(service.number));
  await guide
    .getByRole('button', { name: 'Copiar el ejemplo: DHRU Fusion: saldo de la cuenta' })
    .click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(
    "--data-urlencode 'action=accountinfo'",
  );

  // The example, with the real key, from outside the browser.
  const info = await dhru(origin, { username: email, apiaccesskey: key, action: 'accountinfo' });
  expect(info.SUCCESS?.[0]?.AccountInfo).toMatchObject({ mail: email, creditraw: '5.00' });

  // An IMEI order over DHRU, parameters as base64 JSON.
  const imei = uniqueImei(1);
  const placed = await dhru(origin, {
    username: email,
    apiaccesskey: key,
    action: 'placeimeiorder',
    parameters: base64Json({ ID: String(service.number), IMEI: imei }),
  });
  expect(placed.ERROR).toBeUndefined();
  const reference = placed.SUCCESS?.[0]?.REFERENCEID;
  if (typeof reference !== 'string') throw new Error('no REFERENCEID');
  expect(reference).toMatch(/^\d+$/);

  // In the history, marked «API DHRU» (list and detail).
  await page.goto('/orderhistory');
  const item = page
    .getByTestId('orders')
    .getByRole('listitem')
    .filter({ hasText: `#${reference}` });
  await expect(item).toContainText(imei);
  await expect(item.getByTestId('order-source')).toHaveText('Origen: API DHRU');
  await item.getByRole('link').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(`Orden #${reference}`);
  await expect(dialog.getByTestId('order-source')).toHaveText('API DHRU');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // And in the admin's queue.
  await admin.goto(`/admin/ordenes?q=${imei}`);
  await expect(
    admin.getByRole('listitem', { name: `Orden #${reference}` }).getByTestId('order-source'),
  ).toHaveText('Origen: API DHRU');
  await admin.context().close();

  // Used: the key says when. Revoking asks first; «No, mantenerla» keeps it.
  await page.goto('/profile?tab=api');
  await expect(row).not.toContainText('Nunca');
  await row.getByRole('button', { name: `Revocar ${keyName}` }).click();
  await expect(row.getByRole('group', { name: /¿Revocar la clave/ })).toBeFocused();
  await row.getByRole('button', { name: 'No, mantenerla' }).click();
  await expect(row.getByRole('button', { name: `Revocar ${keyName}` })).toBeFocused();
  await row.getByRole('button', { name: `Revocar ${keyName}` }).click();
  await row.getByRole('button', { name: `Sí, revocar ${keyName}` }).click();
  await expect(
    api.getByText(`Clave «${keyName}» revocada: ya no funciona en ninguna de las API.`),
  ).toBeVisible();
  await expect(api.getByRole('heading', { name: 'Tus claves' })).toBeFocused();
  await expect(api.getByText('Todavía no tienes claves API.')).toBeVisible();

  // Revoked: the same call is refused at once.
  const refused = await dhru(origin, {
    username: email,
    apiaccesskey: key,
    action: 'placeimeiorder',
    parameters: base64Json({ ID: String(service.number), IMEI: uniqueImei(2) }),
  });
  expect(refused.SUCCESS).toBeUndefined();
  expect(refused.ERROR?.[0]?.MESSAGE).toBe('Authentication Failed');
  // The refused addresses are the one expected error: Chromium logs their 400 answer itself.
  expect(errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
});

test('webhooks: a signed POST per order update, retried after a failure, resent on request', async ({
  browser,
  page,
}) => {
  const receiver = await startReceiver();
  try {
    const { email } = await registerVerified(page, 'Raúl Avisos');
    const admin = await adminPage(browser);
    await creditCustomer(admin, email, '5.00');
    await admin.context().close();
    const errors = await collectPageErrors(page);

    await page.goto('/profile?tab=notificaciones');
    const hooks = page.getByRole('region', { name: 'Avisos (webhooks)' });
    await expect(hooks.getByText('Todavía no tienes destinos de avisos.')).toBeVisible();

    // An address that is not http(s) is refused before asking the server.
    const add = hooks.getByRole('region', { name: 'Añadir destino' });
    const urlField = add.getByLabel('Dirección que recibe los avisos (URL)');
    await urlField.fill('ftp://mi-sistema.example/avisos');
    await add.getByRole('button', { name: 'Añadir destino' }).click();
    await expect(urlField).toHaveAccessibleDescription(
      /La dirección debe empezar por http:\/\/ o https:\/\/\./,
    );
    await expect(urlField).toBeFocused();

    // Added: the signing secret is shown once, and copied.
    await urlField.fill(receiver.url);
    await add.getByRole('button', { name: 'Añadir destino' }).click();
    const secretField = add.getByLabel(`Secreto de firma de ${receiver.url}`);
    await expect(secretField).toBeFocused();
    await expect(secretField).toHaveAccessibleDescription(/no lo volveremos a mostrar/);
    const secret = await secretField.inputValue();
    expect(secret).toMatch(/^whsec_/);
    await add.getByRole('button', { name: 'Copiar el secreto' }).click();
    await expect(add.getByText('Copiado', { exact: true })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    const endpoint = hooks.getByRole('listitem', { name: receiver.url });
    await expect(endpoint).toContainText('Activo');
    await expect(endpoint).toContainText('Ninguno');

    // An order: the receiver gets a signed POST; its 500 makes the same event come again.
    const [order] = await placeImeiOrders(page, [uniqueImei(3)]);
    if (!order) throw new Error('order not placed');
    await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBe(2);
    const [first, second] = receiver.received;
    if (!first || !second) throw new Error('no deliveries');
    expect(first.method).toBe('POST');
    expect(first.path).toBe('/hook');
    expect(first.headers['content-type']).toMatch(/application\/json/);
    expect(signedBy(secret, first)).toBe(true);
    expect(signedBy('whsec_otro', first)).toBe(false);
    const event = JSON.parse(first.body) as { id: string; data: Record<string, unknown> };
    expect(event).toEqual({
      id: expect.stringMatching(/^evt_/) as unknown,
      type: 'order.updated',
      createdAt: expect.any(String) as unknown,
      data: expect.objectContaining({
        id: order.id,
        number: order.number,
        status: 'pending',
        price: order.price,
      }) as unknown,
    });
    expect(second.body).toBe(first.body);
    expect(signedBy(secret, second)).toBe(true);

    // The list of deliveries: delivered at the second attempt, with the JSON and each attempt.
    await endpoint.getByRole('button', { name: `Ver avisos ${receiver.url}` }).click();
    const log = endpoint.getByRole('region', { name: `Avisos enviados a ${receiver.url}` });
    const delivery = log.getByRole('listitem', { name: `Aviso de la orden #${order.number}` });
    await expect(async () => {
      await log.getByRole('button', { name: /^Actualizar/ }).click();
      await expect(delivery).toContainText('Entregado', { timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    await expect(delivery.getByTestId('delivery-attempts')).toHaveText('2 intentos');
    await expect(delivery).toContainText('Última respuesta: HTTP 200');
    await delivery.getByText('Contenido e intentos').click();
    await expect(delivery.getByTestId('delivery-body')).toContainText(`"id": "${event.id}"`);
    await expect(delivery.getByTestId('delivery-body')).toContainText('"type": "order.updated"');
    const attempts = delivery.getByTestId('delivery-attempts-log');
    // Each try's status and a short reason; what the receiver answered is never shown.
    await expect(attempts).toContainText('El servidor respondió HTTP 500');
    await expect(attempts).not.toContainText('fallo de prueba');
    await expect(attempts).toContainText('HTTP 200');
    await expectAccessible(page);

    // «Reenviar»: the same event once more, signed again.
    await delivery
      .getByRole('button', { name: `Reenviar el aviso de la orden #${order.number}` })
      .click();
    await expect(log.getByText(/^Aviso reenviado/)).toBeVisible();
    await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBe(3);
    const third = receiver.received[2];
    if (!third) throw new Error('not resent');
    expect((JSON.parse(third.body) as { id: string }).id).toBe(event.id);
    expect(signedBy(secret, third)).toBe(true);
    await expect(async () => {
      await log.getByRole('button', { name: /^Actualizar/ }).click();
      await expect(delivery.getByTestId('delivery-attempts')).toHaveText('3 intentos', {
        timeout: 1_000,
      });
    }).toPass({ timeout: 20_000 });
    await expect(delivery).toContainText('Entregado');

    // «Probar»: a signed test event, sent from the job queue; the button's line tells how it went.
    await endpoint.getByRole('button', { name: `Probar ${receiver.url}` }).click();
    await expect(endpoint.getByTestId('webhook-test-result')).toHaveText(
      'Prueba entregada: el servidor respondió HTTP 200.',
      { timeout: 30_000 },
    );
    const probe = receiver.received[3];
    if (!probe) throw new Error('no test event');
    expect((JSON.parse(probe.body) as { type: string }).type).toBe('webhook.test');
    expect(signedBy(secret, probe)).toBe(true);

    // A disabled endpoint (3 days of failures: shown here by rewriting the list's answer) says
    // why, cannot resend, and «Activar de nuevo» turns it on again.
    await page.route('**/api/webhook-endpoints', async (route) => {
      if (route.request().method() !== 'GET') return route.fallback();
      // A kept-alive connection the server closes just then resets: that read is tried again.
      const response = await route.fetch({ maxRetries: 2 });
      const list = (await response.json()) as { items: Array<Record<string, unknown>> };
      await route.fulfill({
        response,
        json: {
          items: list.items.map((e) => ({
            ...e,
            state: 'disabled',
            stateLabel: 'Desactivado',
            failures: 12,
            disabledReason: 'Sin respuesta correcta durante 3 días (HTTP 500).',
          })),
        },
      });
    });
    // Read by the browser: a navigation inside the app (a first load is rendered on the server,
    // out of the browser's reach).
    await page.goto('/dashboard');
    // Hydrated: the click is the app's navigation, not a new document.
    await waitForHydration(page);
    await page
      .getByRole('navigation', { name: 'Menú de la cuenta' })
      .getByRole('link', { name: 'Mi perfil' })
      .click();
    await page.getByRole('tab', { name: 'Notificaciones' }).click();
    await expect(endpoint).toContainText('Desactivado');
    await expect(endpoint).toContainText('12 fallos seguidos');
    await expect(endpoint).toContainText('Sin respuesta correcta durante 3 días (HTTP 500).');
    await endpoint.getByRole('button', { name: `Ver avisos ${receiver.url}` }).click();
    await expect(log).toContainText('Activa el destino para reenviar avisos.');
    await expect(
      delivery.getByRole('button', { name: `Reenviar el aviso de la orden #${order.number}` }),
    ).toBeDisabled();
    await page.unroute('**/api/webhook-endpoints');
    await endpoint.getByRole('button', { name: `Activar de nuevo ${receiver.url}` }).click();
    await expect(
      hooks.getByText(
        `Destino activado de nuevo: ${receiver.url}. Reenvía los avisos que necesites.`,
      ),
    ).toBeVisible();
    await expect(endpoint).toContainText('Activo');
    await expect(endpoint.getByRole('button', { name: /^Activar de nuevo/ })).toHaveCount(0);

    // Deleting asks first; then the list is empty and the focus is on its heading.
    await endpoint.getByRole('button', { name: `Borrar ${receiver.url}` }).click();
    await expect(endpoint.getByRole('group', { name: /¿Borrar el destino/ })).toBeFocused();
    await endpoint.getByRole('button', { name: `Sí, borrar ${receiver.url}` }).click();
    await expect(
      hooks.getByText(`Destino borrado: ${receiver.url}. Ya no le enviaremos avisos.`),
    ).toBeVisible();
    await expect(hooks.getByRole('heading', { name: 'Tus destinos' })).toBeFocused();
    await expect(hooks.getByText('Todavía no tienes destinos de avisos.')).toBeVisible();
    expect(errors).toEqual([]);
  } finally {
    await receiver.close();
  }
});

test('/profile with a key, a webhook and its deliveries: no sideways scroll at 375 and 1280 px, accessible', async ({
  browser,
  page,
}) => {
  const receiver = await startReceiver();
  try {
    const { email } = await registerVerified(page, 'Ana Pantallas');
    const admin = await adminPage(browser);
    await creditCustomer(admin, email, '5.00');
    await admin.context().close();
    const errors = await collectPageErrors(page);
    const keyName = `Panel DHRU de la tienda del centro ${TAG}`;
    const created = await page.request.post('/api/keys', {
      headers: sameOrigin(page),
      data: { name: keyName, allowedIps: ['203.0.113.7', '2001:db8:85a3::/48'] },
    });
    expect(created.status()).toBe(201);
    // A long address, to see it wrap.
    const url = `${receiver.url}?cliente=tienda-del-centro-${TAG}&token=${'x'.repeat(60)}`;
    const endpoint = await page.request.post('/api/webhook-endpoints', {
      headers: sameOrigin(page),
      data: { url },
    });
    expect(endpoint.status()).toBe(201);
    const [order] = await placeImeiOrders(page, [uniqueImei(4)]);
    if (!order) throw new Error('order not placed');
    await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBe(2);

    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/profile?tab=api');
      const api = page.getByRole('region', { name: 'API', exact: true });
      await expect(api.getByRole('listitem', { name: keyName })).toContainText(
        '203.0.113.7, 2001:db8:85a3::/48',
      );
      await api.getByTestId('connect-guide').getByText('Cómo conectar').click();
      await expect(api.getByTestId('curl-examples')).toBeVisible();
      await noHorizontalOverflow(page, `/profile?tab=api at ${width} px`);
      await expectAccessible(page);
      await page.getByRole('tab', { name: 'Notificaciones' }).click();
      const hooks = page.getByRole('region', { name: 'Avisos (webhooks)' });
      const row = hooks.getByRole('listitem', { name: url });
      await row.getByRole('button', { name: /^Ver avisos/ }).click();
      const delivery = row.getByRole('listitem', { name: `Aviso de la orden #${order.number}` });
      await expect(async () => {
        await row.getByRole('button', { name: /^Actualizar/ }).click();
        await expect(delivery).toContainText('Entregado', { timeout: 1_000 });
      }).toPass({ timeout: 20_000 });
      await delivery.getByText('Contenido e intentos').click();
      await expect(delivery.getByTestId('delivery-body')).toBeVisible();
      await noHorizontalOverflow(page, `/profile at ${width} px`);
      await expectAccessible(page);
      await page.screenshot({ path: `test-results/profile-api-${width}.png`, fullPage: true });
    }
    expect(errors).toEqual([]);
  } finally {
    await receiver.close();
  }
});

// Suppliers end to end: an admin connects a DHRU supplier (a fake one, started here on loopback),
// imports two of its services, a customer orders one and gets the supplier's result as text,
// and the orders a supplier left in doubt wait under «Revisar» for the admin's decision.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  FAKE_DHRU_API_KEY,
  FAKE_DHRU_USERNAME,
  startFakeSupplier,
  type FakeSupplier,
} from '../../server/suppliers/fake-supplier';
import { collectPageErrors, expectAccessible, registerVerified } from './helpers';
import { adminPage, creditCustomer, placeImeiOrders, sameOrigin, uniqueImei } from './ordering';

// The journeys build on each other: the supplier and the services of the first are used after.
test.describe.configure({ mode: 'serial' });

const TAG = Date.now().toString(36).slice(-5);
const SUPPLIER = `Desbloqueos Norte ${TAG}`;
const CHECK = 'iPhone carrier + FMI check';
const UNLOCK = 'AT&T USA iPhone unlock (clean)';

let fake: FakeSupplier;

test.beforeAll(async () => {
  fake = await startFakeSupplier();
});

test.afterAll(async () => {
  await fake.close();
});

async function noHorizontalOverflow(page: Page, what: string) {
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    `${what} overflows sideways`,
  ).toBe(true);
}

async function supplierId(admin: Page): Promise<string> {
  const res = await admin.request.get('/api/admin/suppliers', { headers: sameOrigin(admin) });
  expect(res.ok()).toBe(true);
  const { items } = (await res.json()) as { items: Array<{ id: string; name: string }> };
  const found = items.find((s) => s.name === SUPPLIER);
  expect(found).toBeTruthy();
  return found?.id ?? '';
}

/** The reference the fake supplier gave the order for this IMEI (it waits until there is one). */
async function referenceFor(imei: string): Promise<string> {
  await expect
    .poll(() => [...fake.orders.values()].some((o) => o.imei === imei), { timeout: 20_000 })
    .toBe(true);
  return [...fake.orders.values()].find((o) => o.imei === imei)?.reference ?? '';
}

test('the admin connects a DHRU supplier, browses its catalogue and imports two services', async ({
  browser,
}) => {
  const admin = await adminPage(browser);
  const errors = await collectPageErrors(admin);
  await admin.goto('/admin/proveedores');
  await expect(admin.getByRole('heading', { level: 1, name: 'Proveedores' })).toBeVisible();
  await expect(
    admin.getByRole('navigation', { name: 'Administración' }).getByRole('link', {
      name: 'Proveedores',
    }),
  ).toHaveAttribute('aria-current', 'page');

  // A wrong key: the supplier's own words, nothing saved.
  const form = admin.getByRole('region', { name: 'Conectar proveedor' });
  await form.getByLabel('Nombre').fill(SUPPLIER);
  await expect(form.getByLabel('Protocolo')).toHaveValue('dhru');
  await form.getByLabel('URL').fill(fake.url);
  await expect(form.getByLabel('Usuario')).toHaveAccessibleDescription(
    'Normalmente el correo de tu cuenta en el proveedor',
  );
  await form.getByLabel('Usuario').fill(FAKE_DHRU_USERNAME);
  await expect(form.getByLabel('Clave API')).toHaveAttribute('type', 'password');
  await form.getByLabel('Clave API').fill('clave-equivocada');
  await form.getByRole('button', { name: 'Conectar proveedor' }).click();
  await expect(form.getByRole('alert')).toHaveText('El proveedor respondió: Authentication Failed');
  await expect(admin.getByRole('listitem', { name: SUPPLIER })).toHaveCount(0);

  // The SMM protocol has no user; back to DHRU, the field returns.
  await form.getByLabel('Protocolo').selectOption({ label: 'Panel SMM (API v2)' });
  await expect(form.getByLabel('Usuario')).toHaveCount(0);
  await form.getByLabel('Protocolo').selectOption({ label: 'DHRU Fusion' });
  await expect(form.getByLabel('Usuario')).toHaveValue(FAKE_DHRU_USERNAME);

  // The right key (the supplier answers slowly: the form says it is testing).
  await form.getByLabel('Clave API').fill(FAKE_DHRU_API_KEY);
  await form.getByRole('button', { name: 'Mostrar la clave' }).click();
  await expect(form.getByLabel('Clave API')).toHaveAttribute('type', 'text');
  fake.when({ action: 'accountinfo', times: 1 }, { delayMs: 800 });
  await form.getByRole('button', { name: 'Conectar proveedor' }).click();
  await expect(form.getByRole('button', { name: 'Probando conexión…' })).toBeVisible();
  await expect(
    form.getByText(`Proveedor «${SUPPLIER}» conectado. Saldo: US$100.00.`),
  ).toBeVisible();
  await expect(form.getByLabel('Nombre')).toHaveValue('');
  const row = admin.getByRole('listitem', { name: SUPPLIER });
  await expect(row).toContainText('DHRU Fusion');
  await expect(row).toContainText('Activo');
  await expect(row.getByTestId('supplier-balance')).toHaveText('US$100.00');
  await expect(row).toContainText(fake.url);
  await expectAccessible(admin);

  // «Probar conexión» reads the balance again.
  await row.getByRole('button', { name: `Probar conexión ${SUPPLIER}` }).click();
  await expect(row.getByText('Conexión correcta. Saldo: US$100.00.')).toBeVisible();

  // The calls, as text, with the key replaced.
  await row.getByRole('button', { name: `Últimas llamadas ${SUPPLIER}` }).click();
  const calls = row.getByRole('region', { name: `Últimas llamadas a ${SUPPLIER}` });
  const latest = calls.getByTestId('call-log').getByRole('listitem').first();
  await expect(latest).toContainText('accountinfo');
  await expect(latest).toContainText('Correcta');
  await latest.getByText('Petición y respuesta').click();
  await expect(latest.locator('pre').first()).toContainText('apiaccesskey: ***');
  await expect(latest.locator('pre').nth(1)).toContainText('AccountInfo');
  await expect(calls).not.toContainText(FAKE_DHRU_API_KEY);
  await expectAccessible(admin);
  await row.getByRole('button', { name: `Ocultar llamadas ${SUPPLIER}` }).click();

  // Editing: the key stays unless a new one is typed; the name changes.
  await row.getByRole('button', { name: `Editar ${SUPPLIER}` }).click();
  const edit = row.getByRole('region', { name: `Editar ${SUPPLIER}` });
  await expect(edit.getByLabel('Nueva clave API (opcional)')).toHaveValue('');
  await expect(edit.getByLabel('Nueva clave API (opcional)')).toHaveAccessibleDescription(
    /Déjala vacía para seguir usando la actual \(••••/,
  );
  await edit.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(edit.getByText('No hay cambios que guardar.')).toBeVisible();
  await edit.getByLabel('Peticiones simultáneas').fill('99');
  await edit.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(edit.getByLabel('Peticiones simultáneas')).toHaveAccessibleDescription(
    /Como máximo 32 peticiones simultáneas\./,
  );
  await edit.getByLabel('Peticiones simultáneas').fill('6');
  await edit.getByLabel('Aviso de saldo bajo (opcional)').fill('25.00');
  await edit.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(row.getByText(`Cambios guardados en «${SUPPLIER}».`)).toBeVisible();
  await expect(row).toContainText('Aviso por debajo de US$25.00');

  // Off and on again.
  await row.getByRole('button', { name: `Desactivar ${SUPPLIER}` }).click();
  await expect(row).toContainText('Desactivado');
  await row.getByRole('button', { name: `Activar ${SUPPLIER}` }).click();
  await expect(row.getByText(`«${SUPPLIER}» activado: vuelve a recibir órdenes.`)).toBeVisible();
  await expect(row).toContainText('Activo');

  // The catalogue: every service, the ones that cannot be sold with the reason.
  await row.getByRole('link', { name: `Ver catálogo ${SUPPLIER}` }).click();
  await expect(admin).toHaveURL(/catalogo=/);
  const catalogue = admin.getByTestId('supplier-catalogue');
  await expect(catalogue.getByRole('heading', { name: `Catálogo de ${SUPPLIER}` })).toBeFocused();
  const services = catalogue.getByTestId('remote-services').getByRole('listitem');
  // Its IMEI and server services, and its file services.
  await expect(services).toHaveCount(fake.dhru.services.length + fake.dhru.fileServices.length);
  await expect(services.filter({ hasText: 'No se puede importar:' }).first()).toBeVisible();
  const check = catalogue.getByRole('listitem', { name: CHECK });
  await expect(check).toContainText('#1382');
  await expect(check).toContainText('US$0.80 por orden');
  await expect(check).toContainText('Datos que pide: IMEI');

  // A group, then a search: what was chosen stays chosen.
  await catalogue.getByLabel('Grupo').selectOption('Apple checks');
  await catalogue.getByRole('button', { name: 'Buscar' }).click();
  await expect(admin).toHaveURL(/grupo=Apple/);
  await expect(services).toHaveCount(2);
  await catalogue.getByRole('checkbox', { name: CHECK }).check();
  await catalogue.getByLabel('Grupo').selectOption('');
  await catalogue.getByLabel('Buscar en el catálogo').fill('2210');
  await catalogue.getByRole('button', { name: 'Buscar' }).click();
  await expect(services).toHaveCount(1);
  await catalogue.getByRole('checkbox', { name: UNLOCK }).check();

  // «Volver a leer» asks the supplier again.
  await catalogue.getByRole('button', { name: 'Volver a leer' }).click();
  await expect(catalogue.getByText('Catálogo leído de nuevo: 8 servicios.')).toBeVisible();

  // The import: category, margin, the price of each previewed, rounded up to the cent.
  const importer = catalogue.getByRole('region', { name: 'Importar al catálogo' });
  await importer.getByRole('button', { name: 'Importar 2 servicios' }).click();
  await expect(importer.getByLabel('Categoría')).toHaveAccessibleDescription(
    'Elige la categoría donde se venderán.',
  );
  await importer.getByLabel('Categoría').selectOption({ label: 'Servicios IMEI' });
  await importer.getByLabel('Margen (%)').fill('20');
  const preview = importer.getByTestId('import-preview');
  await expect(preview.getByRole('listitem').filter({ hasText: CHECK })).toContainText(
    'Precio US$0.96 por orden',
  );
  await expect(preview.getByRole('listitem').filter({ hasText: UNLOCK })).toContainText(
    'Precio US$19.70 por orden',
  );
  await expectAccessible(admin);
  await importer.getByRole('button', { name: 'Importar 2 servicios' }).click();
  const done = importer.getByRole('status').filter({ hasText: 'Importamos 2 servicios' });
  await expect(done).toContainText(`«${CHECK}» a US$0.96`);
  await expect(done).toContainText(`«${UNLOCK}» a US$19.70`);
  await expect(catalogue.getByRole('listitem', { name: UNLOCK })).toContainText(
    `Importado como «${UNLOCK}»`,
  );
  await expect(
    importer.getByRole('button', { name: 'Importar servicios', exact: true }),
  ).toBeVisible();

  // In the catalogue of services, with their prices and where they are bought.
  await done.getByRole('link', { name: 'Ver en Servicios' }).click();
  await expect(admin.getByRole('heading', { level: 1, name: 'Servicios' })).toBeVisible();
  const imei = admin.getByTestId('categoria-IMEI');
  const checkRow = imei.getByRole('row', { name: CHECK, exact: true });
  const unlockRow = imei.getByRole('row', { name: UNLOCK, exact: true });
  await expect(checkRow.getByTestId('service-price')).toHaveText('US$0.96 por orden');
  await expect(unlockRow.getByTestId('service-price')).toHaveText('US$19.70 por orden');
  await expect(checkRow.getByTestId('service-routes')).toHaveText(`${SUPPLIER} #1382`);
  await expect(checkRow.getByRole('cell').filter({ hasText: 'US$0.80' })).toContainText('+20 %');
  // The refused connection is the one expected error: Chromium logs its 422 answer itself.
  expect(errors.filter((e) => !/status of 422/.test(e))).toEqual([]);
  await admin.context().close();
});

test('the routes of a service: a route the server refuses shows its reason on that route', async ({
  browser,
}) => {
  const admin = await adminPage(browser);
  const errors = await collectPageErrors(admin);
  await admin.goto('/admin/servicios');
  const row = admin.getByTestId('categoria-IMEI').getByRole('row', { name: CHECK, exact: true });
  await row.getByRole('button', { name: `Proveedores de ${CHECK}` }).click();
  const editor = admin.getByRole('region', { name: `Proveedores de ${CHECK}` });
  const routes = editor.getByRole('list', { name: 'Proveedores, en orden' });
  await expect(routes.getByRole('listitem')).toHaveCount(1);
  await expect(routes.getByRole('listitem').first()).toContainText(
    `1. ${SUPPLIER} (principal, activo)`,
  );
  await expect(routes.getByRole('listitem').first()).toContainText(
    `Servicio #1382 · ${CHECK} · Costo US$0.80`,
  );
  await expect(editor.getByLabel('Margen sobre el costo (%)')).toBeChecked();
  await expect(editor.getByLabel('Margen (%)')).toHaveValue('20');
  await expect(editor.getByText('Precio resultante: US$0.96 por orden')).toBeVisible();
  await editor.getByLabel('Margen (%)').fill('12.5');
  await expect(editor.getByText('Precio resultante: US$0.90 por orden')).toBeVisible();
  await editor.getByLabel('Margen (%)').fill('20');

  // A fallback picked from the supplier's catalogue that needs a field this service lacks.
  const add = editor.getByRole('group', { name: 'Añadir proveedor' });
  await add.getByLabel('Proveedor', { exact: true }).selectOption({ label: SUPPLIER });
  await add.getByRole('button', { name: `Elegir del catálogo de ${SUPPLIER}` }).click();
  await add
    .getByLabel(`Catálogo de ${SUPPLIER}`)
    .selectOption({ label: '#3050 · Apple serial number check · US$0.27819' });
  await expect(add.getByLabel('Servicio del proveedor (número)')).toHaveValue('3050');
  await add.getByRole('button', { name: 'Añadir a la lista' }).click();
  await expect(routes.getByRole('listitem')).toHaveCount(2);
  await expectAccessible(admin);
  await editor.getByRole('button', { name: 'Guardar proveedores' }).click();
  const second = routes.getByRole('listitem').nth(1);
  await expect(second).toContainText('2. ');
  await expect(second).toContainText(/«Apple serial number check» pide/);
  await expect(second).toBeFocused();
  await expect(editor.getByText('Revisa los campos marcados.')).toBeVisible();

  // Moved first, then removed: the list is what is saved.
  await second.getByRole('button', { name: /^Subir el proveedor 2/ }).click();
  await expect(routes.getByRole('listitem').first()).toContainText('Servicio #3050');
  await routes
    .getByRole('listitem')
    .first()
    .getByRole('button', { name: /^Quitar el proveedor 1/ })
    .click();
  await expect(routes.getByRole('listitem')).toHaveCount(1);
  await editor.getByRole('button', { name: 'Guardar proveedores' }).click();
  await expect(
    row.getByText(`Proveedores guardados en «${CHECK}» (1 proveedor). Precio: US$0.96 por orden.`),
  ).toBeVisible();
  await expect(editor).toHaveCount(0);
  await expect(row.getByRole('button', { name: `Proveedores de ${CHECK}` })).toBeFocused();
  await expect(row.getByTestId('service-price')).toHaveText('US$0.96 por orden');
  // The refused save is the one expected error: Chromium logs its 400 answer itself.
  expect(errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
  await admin.context().close();
});

test('a customer orders an imported service; the supplier’s result reaches the history as text', async ({
  browser,
  page,
}) => {
  const { email } = await registerVerified(page, 'Camila Rojas');
  const admin = await adminPage(browser);
  await creditCustomer(admin, email, '5.00');
  await admin.context().close();

  const imei = uniqueImei(101);
  await page.goto('/placeorder/IMEI');
  await page.getByRole('button', { name: new RegExp(CHECK.replace(/[+]/g, '\\+')) }).click();
  await page.getByLabel('IMEI', { exact: true }).fill(imei);
  await page.getByRole('button', { name: 'Confirmar orden (Total US$0.96)' }).click();
  const created = page.getByText(new RegExp(`Orden #\\d+ creada: ${CHECK.replace(/[+]/g, '\\+')}`));
  await expect(created).toBeVisible();
  const number = Number(/#(\d+)/.exec((await created.textContent()) ?? '')?.[1]);

  // The supplier receives it with the IMEI; it answers later with HTML in its code.
  const reference = await referenceFor(imei);
  expect(fake.orders.get(reference)?.serviceId).toBe('1382');
  fake.complete(reference, 'Unlock code: 12345678<br>Carrier: AT&amp;T');

  await page.goto('/orderhistory');
  const item = page
    .getByTestId('orders')
    .getByRole('listitem')
    .filter({ hasText: `#${number}` });
  await expect(async () => {
    await page.reload();
    await expect(item).toContainText('Completada', { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await item.getByRole('link').click();
  const result = page.getByRole('dialog').getByTestId('order-result');
  await expect(result).toBeVisible();
  expect((await result.innerText()).split('\n')).toEqual([
    'Unlock code: 12345678',
    'Carrier: AT&T',
  ]);
  await expect(page.getByRole('dialog')).not.toContainText('<br>');
  await expect(page.getByRole('dialog')).not.toContainText('&amp;');
  // Customers never see where an order was bought.
  await expect(page.getByRole('dialog')).not.toContainText(SUPPLIER);
  await expect(page.getByRole('dialog')).not.toContainText(reference);
});

test('orders a supplier left in doubt wait under «Revisar» for the admin’s decision', async ({
  browser,
  page,
}) => {
  const { email } = await registerVerified(page, 'Tomás Herrera');
  const admin = await adminPage(browser);
  const errors = await collectPageErrors(admin);
  await creditCustomer(admin, email, '5.00');
  const [held, lost, dropped] = [uniqueImei(201), uniqueImei(202), uniqueImei(203)];
  // No answer before the time-out (the supplier took it); a broken answer (it did not); the
  // connection cut after the supplier took it.
  fake.when({ action: 'placeimeiorder', imei: held, times: 1 }, { hang: true });
  fake.when({ action: 'placeimeiorder', imei: lost, times: 1 }, { garbage: true });
  fake.when({ action: 'placeimeiorder', imei: dropped, times: 1 }, { acceptThenDrop: true });
  const [a, b, c] = await placeImeiOrders(page, [held, lost, dropped], CHECK);
  if (!a || !b || !c) throw new Error('orders not placed');

  await admin.goto('/admin/ordenes');
  await admin.getByLabel('Envío').selectOption({ label: 'Revisar' });
  await admin.getByRole('button', { name: 'Aplicar' }).click();
  await expect(admin).toHaveURL(/dispatch=review/);
  await expect(admin.getByRole('heading', { level: 2, name: 'Revisar' })).toBeVisible();
  const rowOf = (n: number) => admin.getByRole('listitem', { name: `Orden #${n}` });
  await expect(async () => {
    await admin.getByRole('button', { name: 'Actualizar' }).click();
    for (const o of [a, b, c]) await expect(rowOf(o.number)).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });

  // The one the supplier has: its reference, and it is followed from then on.
  const rowA = rowOf(a.number);
  await expect(rowA.getByTestId('dispatch')).toContainText(`Proveedor: ${SUPPLIER} · Revisar`);
  await expect(rowA.getByTestId('dispatch')).toContainText('Motivo: Respuesta dudosa');
  await rowA
    .getByRole('button', { name: `Ver llamadas al proveedor (orden #${a.number})` })
    .click();
  const callsA = rowA.getByRole('region', {
    name: `Llamadas al proveedor sobre la orden #${a.number}`,
  });
  await expect(callsA.getByRole('listitem').first()).toContainText('placeimeiorder');
  await expect(callsA.getByRole('listitem').first()).toContainText('Respuesta dudosa');
  await expectAccessible(admin);
  const reference = await referenceFor(held);
  await rowA.getByRole('button', { name: `El proveedor la tiene (orden #${a.number})` }).click();
  await rowA.getByRole('button', { name: 'Confirmar referencia' }).click();
  await expect(rowA.getByLabel('Referencia del proveedor')).toHaveAccessibleDescription(
    /Escribe la referencia del proveedor\./,
  );
  await rowA.getByLabel('Referencia del proveedor').fill(reference);
  await rowA.getByRole('button', { name: 'Confirmar referencia' }).click();
  await expect(rowA.getByTestId('dispatch')).toContainText(
    `Proveedor: ${SUPPLIER} · Ref. ${reference} · Enviada al proveedor`,
  );
  await expect(rowA.getByRole('button', { name: /^El proveedor la tiene/ })).toHaveCount(0);

  // The one the supplier never got: sent again, after the warning.
  const rowB = rowOf(b.number);
  expect(fake.placedCount({ imei: lost })).toBe(0);
  await rowB.getByRole('button', { name: `Enviar de nuevo la orden #${b.number}` }).click();
  await expect(rowB.getByText(/puede crear una segunda orden allí/)).toBeVisible();
  await rowB.getByRole('button', { name: 'Sí, enviar de nuevo' }).click();
  await expect(
    rowB.getByText(`Orden #${b.number}: vuelve a la cola y se envía de nuevo al proveedor.`),
  ).toBeVisible();
  await expect.poll(() => fake.placedCount({ imei: lost }), { timeout: 20_000 }).toBe(1);

  // The last one: rejected, and the customer refunded.
  const rowC = rowOf(c.number);
  await rowC.getByRole('button', { name: `Rechazar y reembolsar la orden #${c.number}` }).click();
  await rowC.getByLabel('Motivo del rechazo').fill('El proveedor no confirmó la orden');
  await rowC.getByRole('button', { name: 'Confirmar rechazo' }).click();
  await expect(rowC).toContainText(
    `Orden #${c.number} rechazada. Devolvimos el importe al cliente.`,
  );
  await expect(rowC).toContainText('Rechazada');
  expect(errors).toEqual([]);
  await admin.context().close();

  await page.goto('/orderhistory');
  const item = page
    .getByTestId('orders')
    .getByRole('listitem')
    .filter({ hasText: `#${c.number}` });
  await expect(item).toContainText('Rechazada');
  // 5.00 − 3 × 0.96 + 0.96 back.
  await expect(page.getByText('Saldo: US$3.08').first()).toBeVisible();
});

for (const width of [375, 1280]) {
  test(`the supplier pages at ${width} px: nothing overflows, no serious accessibility problem`, async ({
    browser,
  }) => {
    const admin = await adminPage(browser);
    const errors = await collectPageErrors(admin);
    await admin.setViewportSize({ width, height: 900 });
    const id = await supplierId(admin);

    await admin.goto(`/admin/proveedores?catalogo=${id}`);
    const row = admin.getByRole('listitem', { name: SUPPLIER });
    await expect(admin.getByTestId('remote-services').getByRole('listitem').first()).toBeVisible();
    await admin.getByTestId('remote-services').getByRole('checkbox').first().check();
    await row.getByRole('button', { name: `Editar ${SUPPLIER}` }).click();
    await row.getByRole('button', { name: `Últimas llamadas ${SUPPLIER}` }).click();
    await row.getByTestId('call-log').getByText('Petición y respuesta').first().click();
    await noHorizontalOverflow(admin, `/admin/proveedores at ${width} px`);
    await expectAccessible(admin);
    await admin.screenshot({ path: `test-results/admin-proveedores-${width}.png`, fullPage: true });

    await admin.goto('/admin/ordenes?dispatch=review&status=todas');
    await expect(admin.getByRole('heading', { level: 2, name: 'Revisar' })).toBeVisible();
    await admin.goto('/admin/ordenes?status=todas');
    const dispatched = admin.getByTestId('dispatch').first();
    await expect(dispatched).toBeVisible();
    await noHorizontalOverflow(admin, `/admin/ordenes at ${width} px`);
    await expectAccessible(admin);

    await admin.goto('/admin/servicios');
    const service = admin
      .getByTestId('categoria-IMEI')
      .getByRole('row', { name: CHECK, exact: true });
    await service.getByRole('button', { name: `Proveedores de ${CHECK}` }).click();
    await expect(
      admin
        .getByRole('region', { name: `Proveedores de ${CHECK}` })
        .getByRole('button', { name: 'Guardar proveedores' }),
    ).toBeVisible();
    await noHorizontalOverflow(admin, `/admin/servicios at ${width} px`);
    await expectAccessible(admin);
    expect(errors).toEqual([]);
    await admin.context().close();
  });
}

import type { Browser, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { formatUsd, parseAmount } from '../../shared/money';
import { ADMIN, collectPageErrors, expectAccessible, registerVerified } from './helpers';
import { adminPage as signedInAdmin } from './ordering';

type AdminServiceJson = {
  id: string;
  name: string;
  category: string;
  price: string;
  unit: 'order' | '1000';
  active: boolean;
};

function tag(): string {
  return Date.now().toString(36).slice(-5);
}

function origin(page: Page) {
  return { Origin: new URL(page.url()).origin };
}

/** The admin, signed in on a context of their own, on /admin/servicios. */
async function adminPage(browser: Browser): Promise<Page> {
  const page = await signedInAdmin(browser, '/admin/servicios');
  await expect(page.getByRole('heading', { level: 1, name: 'Servicios' })).toBeVisible();
  return page;
}

/** A per-order service created through the API (for tests about something else than the form). */
async function createByApi(admin: Page, category: string, name: string, price = '3.00') {
  const res = await admin.request.post('/api/admin/services', {
    headers: origin(admin),
    data: {
      category,
      name,
      description: 'Servicio de prueba.',
      deliveryTime: '1 hora',
      price,
      fields: [{ key: 'usuario', label: 'Usuario', type: 'username' }],
    },
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as AdminServiceJson;
}

async function adminServices(admin: Page): Promise<AdminServiceJson[]> {
  const res = await admin.request.get('/api/admin/services', { headers: origin(admin) });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { items: AdminServiceJson[] }).items;
}

/** A service's row of the catalogue table (named by the service). */
function row(page: Page, name: string): Locator {
  return page.getByRole('row', { name, exact: true });
}

function group(page: Page, slug: string): Locator {
  return page.getByTestId(`categoria-${slug}`);
}

/** The names listed in one category of the admin page, in order. */
async function adminOrder(page: Page, slug: string): Promise<string[]> {
  return group(page, slug).getByTestId('service-name').allInnerTexts();
}

/** The names the customer sees on /placeorder/{slug}, in order. */
async function customerOrder(page: Page, slug: string): Promise<string[]> {
  await page.goto(`/placeorder/${slug}`);
  const list = page.getByRole('region', { name: 'Servicios' }).getByRole('listitem');
  await expect(list.first()).toBeVisible();
  return list.locator('span.font-semibold').allInnerTexts();
}

async function noHorizontalOverflow(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(
    true,
  );
}

test('the admin creates, edits and disables a service; the customer sees each change', async ({
  browser,
  page,
}) => {
  const name = `Desbloqueo de prueba ${tag()}`;
  const admin = await adminPage(browser);
  await expectAccessible(admin);

  // The form, with an IMEI field and a select field.
  await admin.getByRole('button', { name: 'Nuevo servicio' }).click();
  const form = admin.getByRole('region', { name: 'Nuevo servicio' });
  await form.getByLabel('Categoría').selectOption({ label: 'Desbloqueo' });
  await form.getByLabel('Nombre').fill(name);
  await form.getByLabel('Descripción').fill('Liberación por IMEI para cualquier operador.');
  await form.getByLabel('Tiempo de entrega').fill('1–3 días hábiles');
  await form.getByLabel('Precio (USD)').fill('12.50');
  await expect(form.getByLabel('Unidad')).toHaveValue('order');
  await expect(form.getByLabel('Cantidad mínima')).toHaveCount(0);
  await expect(form.getByLabel('Activo (visible para los clientes)')).toBeChecked();

  await form.getByRole('button', { name: 'Añadir campo' }).click();
  const first = form.getByRole('group', { name: /^Campo 1/ });
  await expect(first.getByLabel('Clave')).toBeFocused();
  await first.getByLabel('Clave').fill('imei');
  await first.getByLabel('Etiqueta').fill('IMEI del teléfono');
  await first
    .getByLabel('Tipo', { exact: true })
    .selectOption({ label: 'IMEI (15 dígitos con control)' });
  await first.getByLabel('Identificador de la orden').check();
  await expect(first.getByLabel('Obligatorio')).toBeChecked();

  await form.getByRole('button', { name: 'Añadir campo' }).click();
  const second = form.getByRole('group', { name: /^Campo 2/ });
  await second.getByLabel('Clave').fill('modelo');
  await second.getByLabel('Etiqueta').fill('Modelo');
  await second.getByLabel('Tipo', { exact: true }).selectOption({ label: 'Lista de opciones' });
  await second.getByLabel('Opciones (una por línea)').fill('iPhone 13\niPhone 14\n');
  await second.getByLabel('Ayuda (opcional)').fill('El modelo exacto del teléfono.');

  // Moving a field changes its place; moving it back restores it.
  await form.getByRole('button', { name: 'Subir el campo 2 (Modelo)' }).click();
  await expect(form.getByRole('group', { name: 'Campo 1: Modelo' })).toBeVisible();
  await form.getByRole('button', { name: 'Bajar el campo 1 (Modelo)' }).click();
  await expect(form.getByRole('group', { name: 'Campo 2: Modelo' })).toBeVisible();
  // A third field, removed again.
  await form.getByRole('button', { name: 'Añadir campo' }).click();
  await form.getByRole('button', { name: 'Quitar el campo 3' }).click();
  await expect(form.getByRole('group', { name: /^Campo 3/ })).toHaveCount(0);
  await expectAccessible(admin);

  await form.getByRole('button', { name: 'Crear servicio' }).click();
  await expect(
    admin.getByText(`Servicio «${name}» creado en Desbloqueo. Ya aparece para los clientes.`),
  ).toBeVisible();
  await expect(form).toHaveCount(0);
  await expect(admin.getByRole('button', { name: 'Nuevo servicio' })).toBeFocused();
  const created = row(admin, name);
  await expect(group(admin, 'unlock').getByRole('row', { name })).toBeVisible();
  await expect(created).toContainText('US$12.50 por orden');
  await expect(created).toContainText('1–3 días hábiles');
  await expect(created).toContainText('Activo');

  // The customer orders from it, with both fields.
  await registerVerified(page, 'Rosa Medina');
  await page.goto('/placeorder/unlock');
  await page.getByRole('button', { name: new RegExp(name) }).click();
  const order = page.getByRole('region', { name: 'Orden' });
  await expect(order.getByRole('heading', { name })).toBeVisible();
  await expect(order.getByText('US$12.50 por orden')).toBeVisible();
  await expect(order.getByLabel('IMEI del teléfono')).toBeVisible();
  await expect(order.getByLabel('Modelo').locator('option')).toHaveText([
    'Elige una opción',
    'iPhone 13',
    'iPhone 14',
  ]);
  await expect(order.getByText('El modelo exacto del teléfono.')).toBeVisible();
  // The IMEI rule the admin chose is live: a wrong check digit is refused.
  await order.getByLabel('IMEI del teléfono').fill('359702373699041');
  await order.getByLabel('IMEI del teléfono').blur();
  await expect(
    order.getByText('El IMEI no es válido: revisa el último dígito (control).'),
  ).toBeVisible();

  // The admin changes the price; the fields come back as they were saved.
  await created.getByRole('button', { name: `Editar ${name}` }).click();
  const edit = admin.getByRole('region', { name: `Editar ${name}` });
  await expect(edit.getByLabel('Precio (USD)')).toHaveValue('12.50');
  await expect(edit.getByRole('group', { name: 'Campo 1: IMEI del teléfono' })).toBeVisible();
  await expect(
    edit.getByRole('group', { name: 'Campo 2: Modelo' }).getByLabel('Opciones (una por línea)'),
  ).toHaveValue('iPhone 13\niPhone 14');
  await expectAccessible(admin);
  await edit.getByLabel('Precio (USD)').fill('14.00');
  await edit.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(created.getByText(`Cambios guardados en «${name}».`)).toBeVisible();
  await expect(edit).toHaveCount(0);
  await expect(created.getByRole('button', { name: `Editar ${name}` })).toBeFocused();
  await expect(created).toContainText('US$14.00 por orden');

  await page.reload();
  await page.getByRole('button', { name: new RegExp(name) }).click();
  await expect(order.getByText('US$14.00 por orden')).toBeVisible();

  // Disabled: gone for the customer, still listed (as inactive) for the admin.
  await created.getByRole('button', { name: `Desactivar ${name}` }).click();
  await expect(
    created.getByText(`«${name}» desactivado: los clientes ya no lo ven.`),
  ).toBeVisible();
  await expect(created).toContainText('Inactivo');
  await expect(created.getByRole('button', { name: `Activar ${name}` })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Desbloqueo' })).toBeVisible();
  await expect(page.getByRole('button', { name: new RegExp(name) })).toHaveCount(0);

  // Every change is in the service's history, newest first, with who made it.
  await created.getByRole('button', { name: `Historial de cambios ${name}` }).click();
  const historyRegion = admin.getByRole('region', { name: `Historial de cambios de ${name}` });
  const history = historyRegion.getByTestId('service-history').locator(':scope > li');
  await expect(history).toHaveCount(3);
  await expect(history.nth(0)).toContainText('Servicio desactivado');
  await expect(history.nth(1)).toContainText('Servicio editado');
  await expect(history.nth(1)).toContainText('Precio: US$12.50 → US$14.00');
  await expect(history.nth(2)).toContainText('Servicio creado');
  await expect(history.nth(2)).toContainText('Precio: US$12.50 por orden');
  await expect(history.nth(0)).toContainText(ADMIN.email);
  await expectAccessible(admin);
  await created.getByRole('button', { name: `Ocultar historial ${name}` }).click();
  await expect(historyRegion).toHaveCount(0);

  // A save sends only what the form changed: «Activar» clicked on the row meanwhile stays.
  await created.getByRole('button', { name: `Editar ${name}` }).click();
  await expect(edit.getByLabel('Activo (visible para los clientes)')).not.toBeChecked();
  await created.getByRole('button', { name: `Activar ${name}` }).click();
  await expect(created.getByRole('button', { name: `Desactivar ${name}` })).toBeVisible();
  await edit.getByLabel('Tiempo de entrega').fill('1–2 días hábiles');
  await edit.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(created.getByText(`Cambios guardados en «${name}».`)).toBeVisible();
  await expect(created.getByRole('button', { name: `Desactivar ${name}` })).toBeVisible();
  await expect(created).not.toContainText('Inactivo');
  await created.getByRole('button', { name: `Desactivar ${name}` }).click();
  await expect(created).toContainText('Inactivo');

  // Filters: by category and by name.
  await admin.getByRole('search').getByLabel('Categoría').selectOption({ label: 'Desbloqueo' });
  await expect(group(admin, 'IMEI')).toHaveCount(0);
  await admin.getByLabel('Buscar por nombre').fill(name.toUpperCase());
  await expect(
    admin.getByRole('region', { name: 'Catálogo' }).getByTestId('service-row'),
  ).toHaveCount(1);
  await admin.getByLabel('Buscar por nombre').fill('no existe nada así');
  await expect(admin.getByText('Ningún servicio coincide con la búsqueda.')).toBeVisible();
  await admin.context().close();
});

test('Bajar (by keyboard) moves a service down for the customer; the price changes in the row with «12,50»; two services deactivate at once', async ({
  browser,
  page,
}) => {
  const admin = await adminPage(browser);
  const t = tag();
  const a = await createByApi(admin, 'gaming', `Recarga A ${t}`);
  const b = await createByApi(admin, 'gaming', `Recarga B ${t}`);
  await admin.reload();
  await expect(row(admin, b.name)).toBeVisible();
  const before = await adminOrder(admin, 'gaming');
  expect(before.slice(-2)).toEqual([a.name, b.name]);
  await expect(admin.getByRole('button', { name: `Bajar ${b.name}` })).toBeDisabled();
  await expect(admin.getByRole('button', { name: `Subir ${before[0] ?? ''}` })).toBeDisabled();

  await admin.getByRole('button', { name: `Bajar ${a.name}` }).focus();
  await admin.keyboard.press('Enter');
  await expect(row(admin, a.name).getByText(`«${a.name}» bajó un puesto.`)).toBeVisible();
  const after = [...before.slice(0, -2), b.name, a.name];
  await expect.poll(() => adminOrder(admin, 'gaming')).toEqual(after);
  await expect(admin.getByRole('button', { name: `Bajar ${a.name}` })).toBeDisabled();
  // The moved row keeps the keyboard focus (the button is aria-disabled, not disabled).
  await expect(admin.getByRole('button', { name: `Bajar ${a.name}` })).toBeFocused();

  await registerVerified(page, 'Julián Prieto');
  expect(await customerOrder(page, 'gaming')).toEqual(after);

  // And back up: the first order returns.
  await admin.getByRole('button', { name: `Subir ${a.name}` }).click();
  await expect(row(admin, a.name).getByText(`«${a.name}» subió un puesto.`)).toBeVisible();
  await expect.poll(() => adminOrder(admin, 'gaming')).toEqual(before);
  expect(await customerOrder(page, 'gaming')).toEqual(before);

  // The price in the row, by keyboard alone: Tab from the row's checkbox reaches it, Escape
  // leaves it, Enter saves «12,50».
  const priceButton = row(admin, a.name).getByRole('button', { name: /cambiar el precio/ });
  await admin.getByRole('checkbox', { name: `Seleccionar ${a.name}` }).focus();
  for (
    let i = 0;
    i < 6 && !(await priceButton.evaluate((el) => el === document.activeElement));
    i++
  )
    await admin.keyboard.press('Tab');
  await expect(priceButton).toBeFocused();
  await admin.keyboard.press('Enter');
  const priceInput = admin.getByLabel(`Precio de ${a.name}`);
  await priceInput.fill('99');
  await admin.keyboard.press('Escape');
  await expect(priceButton).toBeFocused();
  await expect(row(admin, a.name).getByTestId('service-price')).toContainText(formatUsd('3.00'));
  await admin.keyboard.press('Enter');
  await priceInput.fill('12,50');
  await admin.keyboard.press('Enter');
  await expect(row(admin, a.name).getByText(`Precio de «${a.name}»`)).toBeVisible();
  await expect(row(admin, a.name).getByTestId('service-price')).toContainText(formatUsd('12.50'));
  const forCustomer = await page.request.get('/api/services?category=gaming');
  const items = ((await forCustomer.json()) as { items: AdminServiceJson[] }).items;
  expect(items.find((s) => s.id === a.id)?.price).toBe('12.50');
  // Saved: the page loaded again (rendered on the server) shows it.
  await admin.reload();
  await expect(row(admin, a.name).getByTestId('service-price')).toHaveText('US$12.50 por orden');

  // Both chosen, deactivated at once: the customer no longer sees them.
  await admin.getByRole('checkbox', { name: `Seleccionar ${a.name}` }).check();
  await admin.getByRole('checkbox', { name: `Seleccionar ${b.name}` }).check();
  const bulk = admin.getByRole('group', { name: 'Acciones en bloque' });
  await expect(bulk).toContainText('2 seleccionados');
  await bulk.getByRole('button', { name: 'Desactivar' }).click();
  await expect(admin.getByText('2 servicios inactivos')).toBeVisible();
  await expect(row(admin, a.name)).toContainText('Inactivo');
  await expect(row(admin, b.name)).toContainText('Inactivo');
  await expect(bulk).not.toContainText('seleccionados');
  await admin.reload();
  await expect(row(admin, a.name).getByRole('button', { name: `Activar ${a.name}` })).toBeVisible();
  await expect(row(admin, b.name).getByRole('button', { name: `Activar ${b.name}` })).toBeVisible();
  expect(await customerOrder(page, 'gaming')).toEqual(before.slice(0, -2));
  await admin.context().close();
});

test('a per-1000 service with max below min shows the error by the field and keeps the inputs', async ({
  browser,
}) => {
  const admin = await adminPage(browser);
  const name = `Seguidores de prueba ${tag()}`;
  await admin.getByRole('button', { name: 'Nuevo servicio' }).click();
  const form = admin.getByRole('region', { name: 'Nuevo servicio' });
  await form.getByLabel('Categoría').selectOption({ label: 'Redes sociales' });
  await form.getByLabel('Nombre').fill(name);
  await form.getByLabel('Descripción').fill('Seguidores para un perfil público.');
  await form.getByLabel('Tiempo de entrega').fill('24 h');
  await form.getByLabel('Precio (USD)').fill('2.40');
  await form.getByLabel('Unidad').selectOption({ label: 'Por cada 1000 unidades' });
  await form.getByLabel('Cantidad mínima').fill('500');
  await form.getByLabel('Cantidad máxima').fill('100');
  await form.getByRole('button', { name: 'Añadir campo' }).click();
  const link = form.getByRole('group', { name: /^Campo 1/ });
  await link.getByLabel('Clave').fill('link');
  await link.getByLabel('Etiqueta').fill('Enlace del perfil');
  await link.getByLabel('Tipo', { exact: true }).selectOption({ label: 'Enlace (URL)' });
  await form.getByRole('button', { name: 'Crear servicio' }).click();

  const max = form.getByLabel('Cantidad máxima');
  await expect(max).toHaveAttribute('aria-invalid', 'true');
  await expect(max).toHaveAccessibleDescription(
    'La cantidad máxima no puede ser menor que la mínima.',
  );
  await expect(max).toBeFocused();
  await expect(form.getByText('Revisa los campos marcados.')).toBeVisible();
  // Nothing typed was lost.
  await expect(form.getByLabel('Nombre')).toHaveValue(name);
  await expect(form.getByLabel('Precio (USD)')).toHaveValue('2.40');
  await expect(form.getByLabel('Unidad')).toHaveValue('1000');
  await expect(form.getByLabel('Cantidad mínima')).toHaveValue('500');
  await expect(max).toHaveValue('100');
  await expect(link.getByLabel('Etiqueta')).toHaveValue('Enlace del perfil');
  await expect(link.getByLabel('Tipo', { exact: true })).toHaveValue('url');
  await expectAccessible(admin);

  // A bad field definition is shown on its own input too.
  await link.getByLabel('Clave').fill('Enlace');
  await max.fill('5000');
  await form.getByRole('button', { name: 'Crear servicio' }).click();
  await expect(link.getByLabel('Clave')).toHaveAttribute('aria-invalid', 'true');
  await expect(link.getByText(/La clave debe empezar por una letra minúscula/)).toBeVisible();
  await expect(max).not.toHaveAttribute('aria-invalid', 'true');

  await link.getByLabel('Clave').fill('link');
  await form.getByRole('button', { name: 'Crear servicio' }).click();
  await expect(admin.getByText(`Servicio «${name}» creado en Redes sociales.`)).toBeVisible();
  await expect(row(admin, name)).toContainText('US$2.40 por 1000');
  await expect(row(admin, name)).toContainText('De 500 a 5000 unidades');
  await admin.context().close();
});

test('a bulk price change of +10 % on one category, confirmed first, shows the new prices', async ({
  browser,
}) => {
  const admin = await adminPage(browser);
  const before = (await adminServices(admin)).filter((s) => s.category === 'licenses');
  const others = (await adminServices(admin)).filter((s) => s.category !== 'licenses');
  expect(before.length).toBeGreaterThanOrEqual(3);

  const bulk = admin.getByRole('region', { name: 'Cambio de precios en bloque' });
  await bulk.getByLabel('Porcentaje').fill('diez');
  await bulk.getByRole('button', { name: 'Revisar el cambio' }).click();
  await expect(bulk.getByLabel('Porcentaje')).toHaveAttribute('aria-invalid', 'true');
  await expect(bulk.getByText(/Escribe el porcentaje como número/)).toBeVisible();

  await bulk.getByLabel('Porcentaje').fill('10');
  await bulk.getByLabel('Categoría').selectOption({ label: 'Licencias' });
  await bulk.getByRole('button', { name: 'Revisar el cambio' }).click();
  const plan = bulk.getByRole('group', {
    name: `Subir un 10 % el precio de ${before.length} servicios de Licencias.`,
  });
  await expect(plan).toBeVisible();
  await expect(plan).toBeFocused();
  await expectAccessible(admin);
  // Nothing changes before the confirmation.
  expect((await adminServices(admin)).filter((s) => s.category === 'licenses')).toEqual(before);

  await plan.getByRole('button', { name: 'Confirmar el cambio de precios' }).click();
  await expect(
    bulk.getByText(`Listo: el precio de ${before.length} servicios subió un 10 %.`),
  ).toBeVisible();
  await expect(plan).toHaveCount(0);
  for (const s of before) {
    const cents = parseAmount(s.price) ?? 0n;
    const raised = (cents * 110n + 99n) / 100n; // up 10 %, rounded up to the cent
    await expect(row(admin, s.name).getByTestId('service-price')).toHaveText(
      `${formatUsd(raised)} ${s.unit === '1000' ? 'por 1000' : 'por orden'}`,
    );
  }
  // Other categories keep their prices.
  const now = await adminServices(admin);
  for (const s of others) expect(now.find((n) => n.id === s.id)?.price).toBe(s.price);
  await admin.context().close();
});

test('a customer opening /admin/servicios is sent to the dashboard', async ({ page }) => {
  await registerVerified(page, 'Diego Salas');
  await page.goto('/admin/servicios');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Servicios' })).toHaveCount(0);
  const res = await page.request.get('/api/admin/services', { headers: origin(page) });
  expect(res.status()).toBe(403);
});

for (const viewport of [
  { width: 375, height: 800 },
  { width: 1280, height: 800 },
]) {
  test(`at ${viewport.width} px nothing overflows and the controls are visible`, async ({
    browser,
  }) => {
    const admin = await adminPage(browser);
    const errors = await collectPageErrors(admin);
    await admin.setViewportSize(viewport);
    await admin.reload();
    await expectAccessible(admin);
    const nav = admin.getByRole('navigation', { name: 'Administración' });
    for (const link of ['Órdenes', 'Servicios', 'Pagos y saldo'])
      await expect(nav.getByRole('link', { name: link })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Servicios' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await noHorizontalOverflow(admin);

    const firstRow = group(admin, 'IMEI').getByTestId('service-row').first();
    for (const label of [/^Editar /, /^Desactivar |^Activar /, /^Subir /, /^Bajar /])
      await expect(firstRow.getByRole('button', { name: label })).toBeVisible();
    await expect(admin.getByLabel('Buscar por nombre')).toBeVisible();
    await expect(admin.getByLabel('Porcentaje')).toBeVisible();

    await admin.getByRole('button', { name: 'Nuevo servicio' }).click();
    const form = admin.getByRole('region', { name: 'Nuevo servicio' });
    await form.getByLabel('Unidad').selectOption('1000');
    await form.getByRole('button', { name: 'Añadir campo' }).click();
    await form.getByLabel('Tipo', { exact: true }).selectOption('serial');
    await expect(form.getByLabel('Longitud máxima')).toBeVisible();
    await expect(form.getByRole('button', { name: 'Crear servicio' })).toBeVisible();
    await noHorizontalOverflow(admin);

    await firstRow.getByRole('button', { name: /^Historial de cambios / }).click();
    await expect(
      admin.getByRole('region', { name: /^Historial de cambios de / }).getByRole('heading'),
    ).toBeVisible();
    await firstRow.getByRole('button', { name: /^Editar / }).click();
    await expect(
      admin
        .getByRole('region', { name: /^Editar / })
        .getByRole('button', { name: 'Guardar cambios' }),
    ).toBeVisible();
    await noHorizontalOverflow(admin);
    await expectAccessible(admin);
    await admin.screenshot({
      path: `test-results/admin-services-${viewport.width}.png`,
      fullPage: true,
    });
    expect(errors).toEqual([]);
    await admin.context().close();
  });
}

test('at 1280 px the catalogue is a dense table: headers, select-all, price saved inline, two rows deactivated together', async ({
  browser,
}) => {
  const admin = await adminPage(browser);
  const errors = await collectPageErrors(admin);
  await admin.setViewportSize({ width: 1280, height: 800 });
  const t = tag();
  const a = await createByApi(admin, 'licenses', `Clave A ${t}`, '4.00');
  const b = await createByApi(admin, 'licenses', `Clave B ${t}`, '5.00');

  // The page comes from the server with its table already in it (no clientLoader.hydrate).
  const html = await (await admin.request.get('/admin/servicios')).text();
  expect(html).toContain('data-testid="service-table"');
  expect(html).toContain(a.name);

  await admin.reload();
  const table = admin.getByRole('table');
  await expect(table).toBeVisible();
  for (const header of ['Orden', 'Servicio', 'Categoría', 'Proveedor', 'Costo', 'Precio', 'Estado'])
    await expect(table.getByRole('columnheader', { name: header, exact: true })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'Acciones' })).toBeVisible();
  const first = row(admin, a.name);
  await expect(first.getByRole('cell', { name: 'Licencias', exact: true })).toBeVisible();
  await expect(first.getByTestId('service-routes')).toHaveText('A mano');
  // Dense: one line of text per row.
  const box = await first.boundingBox();
  expect(box?.height ?? 0).toBeLessThanOrEqual(40);
  await expectAccessible(admin);

  // The handle drags a row onto another: it takes that place (Subir/Bajar do it by keyboard).
  const order = await adminOrder(admin, 'licenses');
  expect(order.slice(-2)).toEqual([a.name, b.name]);
  await row(admin, b.name)
    .locator('[draggable="true"]')
    .dragTo(first, { targetPosition: { x: 200, y: 10 } });
  await expect(row(admin, b.name).getByText(`«${b.name}» ahora es el n.º`)).toBeVisible();
  await expect
    .poll(() => adminOrder(admin, 'licenses'))
    .toEqual([...order.slice(0, -2), b.name, a.name]);

  // The header's checkbox selects every row shown, and clears them again.
  const all = table.getByRole('checkbox', { name: 'Seleccionar todos los que se ven' });
  const bulk = admin.getByRole('group', { name: 'Acciones en bloque' });
  const rows = await admin.getByTestId('service-row').count();
  await all.check();
  await expect(bulk).toContainText(`${rows} seleccionados`);
  await all.uncheck();
  await expect(bulk).not.toContainText('seleccionados');

  // A price typed with a comma, saved with Enter, still there after a reload.
  await first.getByRole('button', { name: /cambiar el precio/ }).click();
  await admin.getByLabel(`Precio de ${a.name}`).fill('7,25');
  await admin.getByLabel(`Precio de ${a.name}`).press('Enter');
  await expect(first.getByTestId('service-price')).toHaveText('US$7.25 por orden');
  await admin.reload();
  await expect(first.getByTestId('service-price')).toHaveText('US$7.25 por orden');

  // Two rows chosen, deactivated at once; the others of the category stay as they were.
  await first.getByRole('checkbox').check();
  await row(admin, b.name).getByRole('checkbox').check();
  await expect(bulk).toContainText('2 seleccionados');
  await bulk.getByRole('button', { name: 'Desactivar' }).click();
  await expect(bulk.getByRole('button', { name: 'Desactivar' })).toHaveCount(0);
  await expect(first).toContainText('Inactivo');
  await expect(row(admin, b.name)).toContainText('Inactivo');
  await admin.reload();
  await expect(first.getByRole('button', { name: `Activar ${a.name}` })).toBeVisible();
  await expect(row(admin, b.name).getByRole('button', { name: `Activar ${b.name}` })).toBeVisible();
  const saved = (await adminServices(admin)).filter((s) => s.id === a.id || s.id === b.id);
  expect(saved.map((s) => s.active)).toEqual([false, false]);
  await expectAccessible(admin);
  expect(errors).toEqual([]);
  await admin.context().close();
});

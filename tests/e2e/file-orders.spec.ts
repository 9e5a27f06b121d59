// A file order through the web: the admin adds a file field to a service in the editor, a
// customer picks a file (refused first for its extension, then uploaded), orders, and finds the
// file as a download on the order's detail; the admin downloads it from the queue.
import { expect, test } from './fixtures';
import { formatBytes } from '../../shared/files';
import { expectAccessible, registerVerified } from './helpers';
import { adminPage, creditCustomer, sameOrigin } from './ordering';

const DUMP = Buffer.from('VOLCADO-E2E-'.repeat(64));

test('a customer orders a service that asks for a file, and the file is a download for them and the admin', async ({
  browser,
  page,
}) => {
  const name = `Reparación por volcado ${Date.now().toString(36).slice(-5)}`;
  const admin = await adminPage(browser);
  await admin.goto('/admin/servicios');
  await admin.getByRole('button', { name: 'Nuevo servicio' }).click();
  const form = admin.getByRole('region', { name: 'Nuevo servicio' });
  await form.getByLabel('Categoría').selectOption({ label: 'Desbloqueo' });
  await form.getByLabel('Nombre').fill(name);
  await form.getByLabel('Descripción').fill('Repara el equipo a partir de su volcado.');
  await form.getByLabel('Tiempo de entrega').fill('1–2 horas');
  await form.getByLabel('Precio (USD)').fill('2.00');
  await form.getByRole('button', { name: 'Añadir campo' }).click();
  const field = form.getByRole('group', { name: /^Campo 1/ });
  await field.getByLabel('Clave').fill('volcado');
  await field.getByLabel('Etiqueta').fill('Volcado del equipo');
  await field.getByLabel('Tipo', { exact: true }).selectOption({ label: 'Archivo' });
  await field.getByLabel('Tamaño máximo (MB)').fill('1');
  await field.getByLabel('Extensiones permitidas').fill('bin, img');
  await expectAccessible(admin);
  await form.getByRole('button', { name: 'Crear servicio' }).click();
  await expect(
    admin.getByText(`Servicio «${name}» creado en Desbloqueo.`, { exact: false }),
  ).toBeVisible();

  const { email } = await registerVerified(page, 'Rosa Vidal');
  await creditCustomer(admin, email, '5.00');
  await page.goto('/placeorder/unlock');
  await page.getByRole('button', { name: new RegExp(name) }).click();
  const input = page.getByLabel('Volcado del equipo');
  await expect(page.getByText('Formatos: .bin, .img. Máximo 1 MB.')).toBeVisible();
  await expectAccessible(page);

  // Checked here first, with the server's rules: the wrong extension never leaves the browser.
  await input.setInputFiles({
    name: 'notas.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('hola'),
  });
  await expect(page.getByText('Este servicio solo acepta archivos .bin, .img.')).toBeVisible();
  await page.getByRole('button', { name: 'Confirmar orden (Total US$2.00)' }).click();
  await expect(page.getByText('Este campo es obligatorio.')).toBeVisible();

  await input.setInputFiles({
    name: 'equipo.bin',
    mimeType: 'application/octet-stream',
    buffer: DUMP,
  });
  await expect(
    page.getByText(`Archivo listo: equipo.bin (${formatBytes(DUMP.length)}).`),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Confirmar orden (Total US$2.00)' }).click();
  const created = page.getByText(new RegExp(`Orden #(\\d+) creada: ${name}`));
  await expect(created).toBeVisible();
  const number = /#(\d+)/.exec((await created.textContent()) ?? '')?.[1];
  await expect(page.getByText('Saldo: US$3.00').first()).toBeVisible();

  // The order's detail offers the file, as an attachment.
  await page.getByRole('link', { name: 'Ver en el historial' }).click();
  await page.getByRole('link', { name: new RegExp(`#${number}`) }).click();
  const dialog = page.getByRole('dialog');
  const link = dialog.getByRole('link', { name: 'Descargar equipo.bin' });
  await expect(link).toBeVisible();
  await expectAccessible(page);
  const href = (await link.getAttribute('href')) ?? '';
  const download = await page.request.get(href, { headers: sameOrigin(page) });
  expect(download.status()).toBe(200);
  expect(download.headers()['content-disposition']).toMatch(/^attachment;/);
  expect(Buffer.from(await download.body())).toEqual(DUMP);

  // The admin finds it in the queue.
  await admin.goto('/admin/ordenes');
  const queued = admin.getByRole('listitem', { name: `Orden #${number}` });
  await expect(queued).toContainText('equipo.bin');
  const adminHref =
    (await queued.getByRole('link', { name: 'Descargar equipo.bin' }).getAttribute('href')) ?? '';
  expect(adminHref).toMatch(/^\/api\/admin\/orders\//);
  const adminDownload = await admin.request.get(adminHref, { headers: sameOrigin(admin) });
  expect(Buffer.from(await adminDownload.body())).toEqual(DUMP);
  // Another customer's browser cannot read it.
  const other = await browser.newContext();
  const stranger = await other.newPage();
  await registerVerified(stranger, 'Iván Ajeno');
  expect((await stranger.request.get(href, { headers: sameOrigin(stranger) })).status()).toBe(404);
  await other.close();
  await admin.context().close();
});

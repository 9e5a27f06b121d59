// Issue 22, the support desk end to end: a customer opens a ticket from an order with a PNG (a
// text file is refused in the browser first); staff find it in /admin/soporte with the menu's
// badge, assign it, write an internal note and answer from a saved reply; the customer sees the
// unread badge, reads the answer (never the note), replies, closes and reopens; staff close it
// (and another) in bulk. 375 and 1280 px, keyboard, axe, no sideways scrolling, no page errors.
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { collectPageErrors, expectAccessible, registerVerified, waitForHydration } from './helpers';
import { adminPage, creditCustomer, placeImeiOrders, sameOrigin, uniqueImei } from './ordering';

/** A 1×1 transparent PNG: a real image, as the API judges files by their content. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

function noSidewaysScroll(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

/** Axe and the width check at both sizes, ending at `end`. */
async function checkBothWidths(page: Page, end: 375 | 1280 = 1280) {
  for (const width of end === 1280 ? [375, 1280] : [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    expect(await noSidewaysScroll(page), `sideways scroll at ${width} px`).toBe(true);
    await expectAccessible(page);
  }
}

function accountNav(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Menú de la cuenta' });
}

test('a ticket from an order: attachment, internal note, saved reply, unread badge, reply, close, reopen, bulk close', async ({
  page: customer,
  browser,
}) => {
  test.setTimeout(180_000);
  const tag = Date.now().toString(36);
  const subject = `La consulta no llegó ${tag}`;
  const note = `Revisar con el proveedor ${tag}; no decirle nada al cliente.`;
  const replyTitle = `Revisando ${tag}`;
  const replyBody = `Hola, ya revisamos tu orden ${tag} y el resultado llega en unos minutos.`;
  const customerErrors = await collectPageErrors(customer);
  const { email } = await registerVerified(customer, 'Marta Villanueva');
  const admin = await adminPage(browser, '/admin/soporte');
  const adminErrors = await collectPageErrors(admin);
  try {
    // The desk's saved reply, and an order to complain about.
    const saved = await admin.request.post('/api/admin/snippets', {
      headers: sameOrigin(admin),
      data: { kind: 'ticket_reply', title: replyTitle, body: replyBody },
    });
    expect(saved.status(), await saved.text()).toBe(201);
    await creditCustomer(admin, email, '2.00');
    const [order] = await placeImeiOrders(customer, [uniqueImei(22)]);
    if (!order) throw new Error('order not placed');

    // No tickets yet: the empty state and «Nuevo ticket».
    await customer.setViewportSize({ width: 375, height: 900 });
    await customer.goto('/soporte');
    await expect(customer).toHaveTitle(/^Soporte · /);
    await expect(customer.getByRole('heading', { level: 1, name: 'Soporte' })).toBeVisible();
    await expect(customer.getByText('Aún no tienes tickets')).toBeVisible();
    await expect(customer.getByRole('link', { name: 'Nuevo ticket' })).toBeVisible();
    await checkBothWidths(customer, 375);

    // From the order's detail: the form opens with category Orden and the order ticked.
    await customer.goto(`/orderhistory?orden=${order.id}`);
    await waitForHydration(customer);
    const dialog = customer.getByRole('dialog', { name: `Orden #${order.number}` });
    await dialog.getByRole('link', { name: 'Tengo un problema con esta orden' }).click();
    await expect(customer).toHaveURL(new RegExp(`/soporte/nuevo\\?orden=${order.id}$`));
    await expect(customer.getByRole('heading', { level: 1, name: 'Nuevo ticket' })).toBeVisible();
    await waitForHydration(customer);
    const form = customer.getByRole('form', { name: 'Nuevo ticket' });
    await expect(form.getByLabel('Categoría')).toHaveValue('order');
    await expect(form.getByLabel('Asunto')).toHaveValue(`Problema con la orden #${order.number}`);
    await expect(
      form.getByRole('checkbox', { name: new RegExp(`#${order.number}`) }),
    ).toBeChecked();
    await checkBothWidths(customer, 375);

    // Refused in the browser: no message, then a file that is not an image or a PDF.
    await form.getByRole('button', { name: 'Enviar ticket' }).click();
    await expect(form.getByText('Escribe tu mensaje.')).toBeVisible();
    await expect(form.getByLabel('Mensaje')).toBeFocused();
    const files = form.getByLabel('Archivos adjuntos (opcional)');
    await files.setInputFiles({
      name: 'notas.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('hola'),
    });
    await expect(
      form.getByText('«notas.txt» no es una imagen ni un PDF.', { exact: false }),
    ).toBeVisible();
    await expectAccessible(customer);

    // Filled in with the keyboard: subject, message, then Enter on «Enviar ticket».
    await form.getByLabel('Asunto').fill(subject);
    await files.setInputFiles({ name: 'captura.png', mimeType: 'image/png', buffer: PNG });
    await expect(form.getByText('no es una imagen ni un PDF', { exact: false })).toHaveCount(0);
    await form.getByLabel('Mensaje').focus();
    await customer.keyboard.type('Pagué la consulta y no recibí el resultado.');
    await form.getByRole('button', { name: 'Enviar ticket' }).focus();
    await customer.keyboard.press('Enter');
    await expect(customer).toHaveURL(/\/soporte\/[0-9a-f-]{36}\?creado=\d+$/);
    const ticketUrl = new URL(customer.url());
    const ticketId = ticketUrl.pathname.split('/').pop() ?? '';
    const number = ticketUrl.searchParams.get('creado') ?? '';
    await expect(customer.getByText(`Recibimos tu ticket #${number}.`)).toBeVisible();
    await expect(customer.getByRole('heading', { level: 1 })).toHaveText(`#${number} · ${subject}`);
    await expect(customer.getByTestId('ticket-message')).toContainText(
      'Pagué la consulta y no recibí el resultado.',
    );
    await expect(customer.getByRole('link', { name: /captura\.png/ })).toHaveAttribute(
      'href',
      new RegExp(`/api/tickets/${ticketId}/attachments/`),
    );
    await expect(customer.getByTestId('ticket-state')).toHaveText('Abierto');
    await checkBothWidths(customer, 375);

    // A second ticket (by the API) for the bulk close at the end.
    const other = await customer.request.post('/api/tickets', {
      headers: sameOrigin(customer),
      data: { subject: `Otra duda ${tag}`, category: 'cuenta', message: '¿Cómo cambio mi correo?' },
    });
    expect(other.status(), await other.text()).toBe(201);
    const otherTicket = (await other.json()) as { id: string; number: number };

    // Staff: the home's tile, the menu's badge, the ticket in the list (filtered by customer).
    await admin.setViewportSize({ width: 1280, height: 900 });
    await admin.goto('/admin');
    await expect(admin.getByTestId('overview-tickets')).toHaveText(/^[1-9]\d*$/);
    await admin.getByRole('link', { name: /^Ver tickets/ }).click();
    await expect(admin).toHaveURL(/\/admin\/soporte\?state=open$/);
    await expect(
      admin.getByRole('search', { name: 'Filtrar tickets' }).getByLabel('Estado'),
    ).toHaveValue('open');
    const nav = admin.getByRole('navigation', { name: 'Administración' });
    await expect(nav.getByRole('link', { name: /^Soporte\s*\d+ tickets abiertos$/ })).toBeVisible();
    await expect(nav.getByTestId('badge-soporte')).toHaveText(/^\d+/);
    await waitForHydration(admin);
    const filters = admin.getByRole('search', { name: 'Filtrar tickets' });
    await filters.getByLabel('Cliente').fill(email);
    await filters.getByRole('button', { name: 'Filtrar' }).click();
    await expect(admin).toHaveURL(/customer=/);
    const rows = admin.getByTestId('ticket-row');
    await expect(rows).toHaveCount(2);
    const row = rows.filter({ hasText: subject });
    await expect(row).toContainText(`#${number}`);
    await expect(row).toContainText('Abierto');
    await expect(row).toContainText('Orden');
    await expect(row).toContainText('Sin asignar');
    await checkBothWidths(admin);

    await row.getByRole('link', { name: subject }).click();
    await expect(admin).toHaveURL(new RegExp(`/admin/soporte/${ticketId}$`));
    await expect(admin.getByRole('heading', { level: 1 })).toHaveText(`#${number} · ${subject}`);
    await expect(admin.getByRole('link', { name: /captura\.png/ })).toBeVisible();
    const facts = admin.getByRole('complementary', { name: 'Datos del ticket' });
    await expect(facts.getByRole('link', { name: 'Marta Villanueva' })).toHaveAttribute(
      'href',
      /\/admin\/clientes\//,
    );
    await expect(facts.getByRole('link', { name: `#${order.number}` })).toBeVisible();
    await waitForHydration(admin);

    // Assigned to themselves.
    await facts.getByRole('button', { name: 'Asignarme' }).click();
    await expect(facts.getByText('Asignamos el ticket.')).toBeVisible();
    await expect(facts.getByTestId('ticket-assignee')).toContainText('Asignado a');

    // An internal note, with the keyboard: the toggle, the text, Enter on «Guardar nota».
    await admin.getByRole('checkbox', { name: 'Nota interna' }).focus();
    await admin.keyboard.press('Space');
    const noteForm = admin.getByRole('form', { name: 'Nota interna' });
    await noteForm.getByLabel('Nota (solo la ve el equipo)').fill(note);
    await noteForm.getByRole('button', { name: 'Guardar nota' }).focus();
    await admin.keyboard.press('Enter');
    await expect(admin.getByText('Guardamos la nota interna (el cliente no la ve).')).toBeVisible();
    const noteItem = admin.getByTestId('ticket-note');
    await expect(noteItem).toContainText('Nota interna');
    await expect(noteItem).toContainText(note);
    await expect(admin.getByRole('checkbox', { name: 'Nota interna' })).not.toBeChecked();

    // The public answer from the saved reply.
    await admin.getByRole('button', { name: replyTitle }).click();
    const replyForm = admin.getByRole('form', { name: 'Responder al cliente' });
    await expect(replyForm.getByLabel('Mensaje al cliente')).toHaveValue(replyBody);
    await replyForm.getByRole('button', { name: 'Enviar respuesta' }).click();
    await expect(admin.getByText('Enviamos la respuesta al cliente.')).toBeVisible();
    await expect(admin.getByTestId('ticket-message').filter({ hasText: replyBody })).toBeVisible();
    await expect(facts.getByTestId('ticket-state')).toHaveText('Respondido');
    await checkBothWidths(admin);

    // The customer: the header's badge, the list's mark, the answer without the note.
    await customer.setViewportSize({ width: 1280, height: 900 });
    await customer.goto('/dashboard');
    await expect(
      accountNav(customer).getByRole('link', { name: 'Soporte, 1 sin leer' }),
    ).toBeVisible();
    await customer.setViewportSize({ width: 375, height: 900 });
    await waitForHydration(customer);
    // On a phone the bar folds into «Menú», which tells the count too.
    await customer.getByRole('button', { name: /^Menú \(soporte: 1 sin leer\)/ }).click();
    await expect(customer.getByRole('menuitem', { name: 'Soporte, 1 sin leer' })).toBeVisible();
    await customer.getByRole('menuitem', { name: 'Soporte, 1 sin leer' }).click();
    await expect(customer).toHaveURL(/\/soporte$/);
    const item = customer.getByTestId('tickets').getByRole('listitem').filter({ hasText: subject });
    await expect(item).toContainText('1 sin leer');
    await expect(item).toContainText('Respondido');
    await checkBothWidths(customer, 375);
    await item.getByRole('link').click();
    await expect(customer).toHaveURL(new RegExp(`/soporte/${ticketId}$`));
    await expect(
      customer.getByTestId('ticket-message').filter({ hasText: replyBody }),
    ).toBeVisible();
    await expect(customer.getByText(note)).toHaveCount(0);
    await expect(customer.getByText('Nota interna')).toHaveCount(0);
    await expect(customer.getByTestId('ticket-note')).toHaveCount(0);

    // The customer answers with the keyboard; the ticket is open again.
    await waitForHydration(customer);
    const reply = customer.getByRole('form', { name: 'Responder' });
    await reply.getByLabel('Tu mensaje').focus();
    await customer.keyboard.type('Gracias, ya me llegó el resultado.');
    await reply.getByRole('button', { name: 'Enviar' }).focus();
    await customer.keyboard.press('Enter');
    await expect(reply.getByText('Enviamos tu mensaje.')).toBeVisible();
    await expect(
      customer
        .getByTestId('ticket-message')
        .filter({ hasText: 'Gracias, ya me llegó el resultado.' }),
    ).toBeVisible();
    await expect(reply.getByLabel('Tu mensaje')).toHaveValue('');
    await expect(customer.getByTestId('ticket-state')).toHaveText('Abierto');
    await checkBothWidths(customer, 375);

    // Read: the header's badge is gone.
    await customer.setViewportSize({ width: 1280, height: 900 });
    await expect(
      accountNav(customer).getByRole('link', { name: 'Soporte', exact: true }),
    ).toBeVisible();

    // Closed and reopened.
    await customer.getByRole('button', { name: 'Cerrar ticket' }).click();
    await expect(customer.getByText('Cerraste el ticket.', { exact: false })).toBeVisible();
    await expect(customer.getByTestId('ticket-state')).toHaveText('Cerrado');
    await expect(customer.getByRole('form', { name: 'Responder' })).toHaveCount(0);
    await expectAccessible(customer);
    await customer.getByRole('button', { name: 'Reabrir' }).click();
    await expect(customer.getByText('Reabriste el ticket.', { exact: false })).toBeVisible();
    await expect(customer.getByTestId('ticket-state')).not.toHaveText('Cerrado');
    await expect(customer.getByRole('form', { name: 'Responder' })).toBeVisible();
    await expect(customer.getByRole('button', { name: 'Cerrar ticket' })).toBeVisible();

    // Staff close both of this customer's tickets at once.
    await admin.setViewportSize({ width: 375, height: 900 });
    await admin.goto(`/admin/soporte?customer=${encodeURIComponent(email)}`);
    await waitForHydration(admin);
    await expect(rows).toHaveCount(2);
    await admin.getByRole('checkbox', { name: `Seleccionar el ticket #${number}` }).check();
    await admin
      .getByRole('checkbox', { name: `Seleccionar el ticket #${otherTicket.number}` })
      .check();
    await checkBothWidths(admin);
    await admin.getByRole('button', { name: 'Cerrar seleccionados (2)' }).click();
    await expect(admin.getByText('Cerramos 2 tickets.')).toBeVisible();
    await expect(rows.filter({ hasText: subject })).toContainText('Cerrado');
    await expect(rows.filter({ hasText: `Otra duda ${tag}` })).toContainText('Cerrado');
    await expect(admin.getByRole('button', { name: 'Cerrar seleccionados (0)' })).toBeDisabled();
    await expectAccessible(admin);

    await customer.reload();
    await expect(customer.getByTestId('ticket-state')).toHaveText('Cerrado');
    expect(customerErrors).toEqual([]);
    expect(adminErrors).toEqual([]);
  } finally {
    await admin.context().close();
  }
});

test('a customer opening /admin/soporte is sent to the dashboard', async ({ page }) => {
  await registerVerified(page, 'Julio Esquivel');
  await page.goto('/admin/soporte');
  await expect(page).toHaveURL(/\/dashboard$/);
  const res = await page.request.get('/api/admin/tickets', { headers: sameOrigin(page) });
  expect(res.status()).toBe(403);
});

// /admin/respuestas end to end: the saved rejection reasons and result templates the order
// queue offers. A refused form points at its first wrong field; a reason is created, edited in
// place by keyboard only (Escape cancels), a template is created and deleted through its
// confirmation dialog (Cancelar gives the focus back to «Borrar»); after a reload the list is
// what was saved, and the queue's bulk reject offers the new reason with a link back here.
// 375 and 1280 px, with axe and no page errors. A customer is sent away like on any admin page.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { collectPageErrors, expectAccessible, registerVerified, waitForHydration } from './helpers';
import { adminPage, creditCustomer, placeImeiOrders, sameOrigin, uniqueImei } from './ordering';

function noSidewaysScroll(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

test('an admin creates, edits (keyboard only), deletes saved answers and finds the new reason in the queue’s bulk reject', async ({
  page: customer,
  browser,
}) => {
  const tag = Date.now().toString(36);
  const reasonTitle = `Bloqueado ${tag}`;
  const editedTitle = `Reportado ${tag}`;
  const templateTitle = `Código ${tag}`;
  const { email } = await registerVerified(customer, 'Tomás Ibarra');
  const admin = await adminPage(browser, '/admin/respuestas');
  const errors = await collectPageErrors(admin);
  try {
    await admin.setViewportSize({ width: 375, height: 800 });
    await admin.reload();
    // The keyboard-only editing below is React's: the page has hydrated first.
    await waitForHydration(admin);
    await expect(admin).toHaveTitle(/^Respuestas guardadas · /);
    await expect(
      admin.getByRole('heading', { level: 1, name: 'Respuestas guardadas' }),
    ).toBeVisible();
    const nav = admin.getByRole('navigation', { name: 'Administración' });
    await expect(nav.getByRole('link', { name: 'Respuestas guardadas' })).toHaveAttribute(
      'aria-current',
      'page',
    );

    // A refused form: the first wrong field takes the focus, with its message in Spanish.
    const reasons = admin.getByRole('region', { name: 'Motivos de rechazo' });
    const newReason = reasons.getByRole('form', { name: 'Nuevo motivo de rechazo' });
    await newReason.getByRole('button', { name: 'Guardar motivo' }).click();
    await expect(newReason.getByText('Escribe un título.')).toBeVisible();
    await expect(newReason.getByLabel('Título')).toBeFocused();
    await newReason.getByLabel('Título').fill(reasonTitle);
    await newReason.getByLabel('Motivo que verá el cliente').fill('No');
    await newReason.getByRole('button', { name: 'Guardar motivo' }).click();
    await expect(newReason.getByText('Escribe el motivo (al menos 3 caracteres).')).toBeVisible();
    await expect(newReason.getByLabel('Motivo que verá el cliente')).toBeFocused();
    await newReason
      .getByLabel('Motivo que verá el cliente')
      .fill('El equipo tiene un bloqueo que el proveedor no libera.');
    await newReason.getByRole('button', { name: 'Guardar motivo' }).click();
    await expect(reasons.getByText(`Guardamos el motivo «${reasonTitle}».`)).toBeVisible();
    const reasonItem = reasons.getByTestId('snippet').filter({ hasText: reasonTitle });
    await expect(reasonItem).toContainText('El equipo tiene un bloqueo');
    await expect(reasonItem).toContainText(/Creado el \d/);
    // The form is empty again, ready for the next one.
    await expect(newReason.getByLabel('Título')).toHaveValue('');
    expect(await noSidewaysScroll(admin)).toBe(true);
    await expectAccessible(admin);

    // Edited in place with the keyboard only: Escape cancels, Guardar keeps the change.
    const edit = reasonItem.getByRole('button', { name: `Editar «${reasonTitle}»` });
    await edit.focus();
    await admin.keyboard.press('Enter');
    const editForm = reasons.getByRole('form', { name: `Editar «${reasonTitle}»` });
    await expect(editForm.getByLabel('Título')).toBeFocused();
    await admin.keyboard.press('ControlOrMeta+A');
    await admin.keyboard.type('Descartado');
    await admin.keyboard.press('Escape');
    await expect(editForm).toHaveCount(0);
    await expect(edit).toBeFocused();
    await expect(reasonItem).toContainText(reasonTitle);
    await admin.keyboard.press('Enter');
    await expect(editForm.getByLabel('Título')).toBeFocused();
    await admin.keyboard.press('ControlOrMeta+A');
    await admin.keyboard.type(editedTitle);
    await admin.keyboard.press('Tab');
    await expect(editForm.getByLabel('Motivo que verá el cliente')).toBeFocused();
    await admin.keyboard.press('ControlOrMeta+A');
    await admin.keyboard.type('El IMEI está reportado y el proveedor no lo libera.');
    await admin.keyboard.press('Tab');
    await expect(editForm.getByRole('button', { name: 'Guardar' })).toBeFocused();
    await admin.keyboard.press('Enter');
    await expect(reasons.getByText(`Guardamos los cambios de «${editedTitle}».`)).toBeVisible();
    const editedItem = reasons.getByTestId('snippet').filter({ hasText: editedTitle });
    await expect(editedItem.getByRole('button', { name: `Editar «${editedTitle}»` })).toBeFocused();
    await expect(editedItem).toContainText('El IMEI está reportado y el proveedor no lo libera.');

    // A template at 1280 px, then deleted through its dialog.
    await admin.setViewportSize({ width: 1280, height: 900 });
    const templates = admin.getByRole('region', { name: 'Plantillas de resultado' });
    const newTemplate = templates.getByRole('form', { name: 'Nueva plantilla de resultado' });
    await newTemplate.getByLabel('Título').fill(templateTitle);
    await newTemplate.getByLabel('Texto del resultado').fill('Código de liberación: ');
    await newTemplate.getByRole('button', { name: 'Guardar plantilla' }).click();
    await expect(templates.getByText(`Guardamos la plantilla «${templateTitle}».`)).toBeVisible();
    const templateItem = templates.getByTestId('snippet').filter({ hasText: templateTitle });
    const remove = templateItem.getByRole('button', { name: `Borrar «${templateTitle}»` });
    await remove.click();
    const dialog = admin.getByRole('alertdialog', { name: `¿Borrar «${templateTitle}»?` });
    await expect(dialog).toBeVisible();
    await expectAccessible(admin);
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(remove).toBeFocused();
    await remove.click();
    await dialog.getByRole('button', { name: 'Borrar' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(templates.getByText(`Borramos «${templateTitle}».`)).toBeVisible();
    // Its «Borrar» is gone: the focus goes to the message saying so.
    await expect(admin.locator(':focus')).toContainText(`Borramos «${templateTitle}».`);
    await expect(templateItem).toHaveCount(0);

    // After a reload: the edited reason, no template.
    await admin.reload();
    await expect(reasons.getByTestId('snippet').filter({ hasText: editedTitle })).toHaveCount(1);
    await expect(reasons.getByTestId('snippet').filter({ hasText: reasonTitle })).toHaveCount(0);
    await expect(templates.getByTestId('snippet').filter({ hasText: templateTitle })).toHaveCount(
      0,
    );
    expect(await noSidewaysScroll(admin)).toBe(true);
    await expectAccessible(admin);

    // The queue's bulk reject offers it, and links back to this page.
    await creditCustomer(admin, email, '1.00');
    const [order] = await placeImeiOrders(customer, [uniqueImei(31)]);
    if (!order) throw new Error('order not placed');
    await admin.goto('/admin/ordenes');
    // A checkbox ticked before hydration is not React's selection yet.
    await waitForHydration(admin);
    await admin.getByLabel(`Seleccionar la orden #${order.number}`).check();
    const bar = admin.getByRole('region', { name: 'Acciones en bloque' });
    await bar.getByRole('button', { name: 'Rechazar', exact: true }).click();
    await bar.getByRole('button', { name: editedTitle }).click();
    await expect(bar.getByLabel('Motivo del rechazo')).toHaveValue(
      'El IMEI está reportado y el proveedor no lo libera.',
    );
    await bar.getByRole('link', { name: 'Administrar respuestas' }).click();
    await expect(admin).toHaveURL(/\/admin\/respuestas$/);
    await expect(
      admin.getByRole('heading', { level: 1, name: 'Respuestas guardadas' }),
    ).toBeVisible();
    expect(errors).toEqual([]);
  } finally {
    await admin.context().close();
  }
});

test('a customer opening /admin/respuestas is sent to the dashboard', async ({ page }) => {
  await registerVerified(page, 'Rosa Quintana');
  await page.goto('/admin/respuestas');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Respuestas guardadas' })).toHaveCount(
    0,
  );
  const res = await page.request.get('/api/admin/snippets', { headers: sameOrigin(page) });
  expect(res.status()).toBe(403);
});

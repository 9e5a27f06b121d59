// Announcements end to end: an admin publishes a pinned announcement with bold text for everyone
// from /admin/anuncios (a refused form first, the live preview); a customer sees it as a banner
// above the dashboard, closes it with the keyboard, still finds it in the dashboard's «Anuncios»
// and, after a reload, no banner. The admin deletes it through its confirmation dialog. 375 and
// 1280 px, axe, no page errors. A customer opening /admin/anuncios is sent to the dashboard.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { collectPageErrors, expectAccessible, registerVerified, waitForHydration } from './helpers';
import { adminPage, sameOrigin } from './ordering';

function noSidewaysScroll(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

test('an admin publishes a pinned announcement; a customer closes its banner with the keyboard and still sees it on the dashboard', async ({
  page: customer,
  browser,
}) => {
  const tag = Date.now().toString(36);
  const title = `Mantenimiento ${tag}`;
  await registerVerified(customer, 'Inés Navarro');
  const customerErrors = await collectPageErrors(customer);
  const admin = await adminPage(browser, '/admin/anuncios');
  const errors = await collectPageErrors(admin);
  try {
    await admin.setViewportSize({ width: 375, height: 800 });
    await admin.reload();
    await waitForHydration(admin);
    await expect(admin).toHaveTitle(/^Anuncios · /);
    await expect(admin.getByRole('heading', { level: 1, name: 'Anuncios' })).toBeVisible();
    const nav = admin.getByRole('navigation', { name: 'Administración' });
    await expect(nav.getByRole('link', { name: 'Anuncios' })).toHaveAttribute(
      'aria-current',
      'page',
    );

    // A refused form: the first wrong field takes the focus, with its message in Spanish.
    const form = admin.getByRole('form', { name: 'Nuevo anuncio' });
    await form.getByRole('button', { name: 'Publicar anuncio' }).click();
    await expect(form.getByText('Escribe el título.')).toBeVisible();
    await expect(form.getByText('Escribe el texto del anuncio.')).toBeVisible();
    await expect(form.getByLabel('Título')).toBeFocused();

    await form.getByLabel('Título').fill(title);
    await form
      .getByLabel('Texto', { exact: true })
      .fill(
        '**Importante:** el sábado no se procesan órdenes.\n\nMás detalles en [nuestra guía](https://ejemplo.com/guia). <b>no es HTML</b>',
      );
    // The live preview renders the format, and only as text what is not the format.
    const preview = form.getByRole('region', { name: 'Vista previa' });
    await expect(preview.locator('strong')).toHaveText('Importante:');
    await expect(preview.getByRole('link', { name: 'nuestra guía' })).toHaveAttribute(
      'rel',
      'noopener noreferrer',
    );
    await expect(preview).toContainText('<b>no es HTML</b>');
    await expect(form.getByLabel('Todos')).toBeChecked();
    await form.getByLabel('Fijado').check();
    await expectAccessible(admin);
    await form.getByRole('button', { name: 'Publicar anuncio' }).click();
    await expect(admin.getByText(`Publicamos «${title}».`)).toBeVisible();
    const item = admin.getByTestId('announcement').filter({ hasText: title });
    await expect(item).toContainText('Activo');
    await expect(item).toContainText('Fijado');
    await expect(item).toContainText('Audiencia: Todos');
    await expect(item).toContainText('Correo: No');
    await expect(form.getByLabel('Título')).toHaveValue('');
    expect(await noSidewaysScroll(admin)).toBe(true);
    await expectAccessible(admin);
    await admin.setViewportSize({ width: 1280, height: 900 });
    await expectAccessible(admin);

    // The customer: a banner above the dashboard, closed with the keyboard.
    await customer.setViewportSize({ width: 375, height: 800 });
    await customer.goto('/dashboard');
    await waitForHydration(customer);
    const banner = customer.getByRole('region', { name: title });
    await expect(banner).toBeVisible();
    await expect(banner.locator('strong')).toHaveText('Importante:');
    await expect(banner).toContainText('<b>no es HTML</b>');
    expect(await noSidewaysScroll(customer)).toBe(true);
    await expectAccessible(customer);
    const close = banner.getByRole('button', { name: 'Cerrar anuncio' });
    await close.focus();
    await customer.keyboard.press('Enter');
    await expect(banner).toHaveCount(0);
    // The focus is not lost: it goes to the page's title.
    await expect(customer.getByRole('heading', { level: 1 })).toBeFocused();
    // Still on the dashboard, pinned, in «Anuncios».
    const list = customer.getByRole('region', { name: 'Anuncios' });
    await expect(list).toContainText(title);
    await expect(list).toContainText('Fijado');
    await expect(list.locator('strong')).toHaveText('Importante:');
    await customer.setViewportSize({ width: 1280, height: 900 });
    await expectAccessible(customer);
    // Read: no banner after a reload, the announcement still listed.
    await customer.reload();
    await expect(customer.getByRole('region', { name: 'Anuncios' })).toContainText(title);
    await expect(customer.getByTestId('announcement-banner')).toHaveCount(0);
    await expectAccessible(customer);

    // The admin deletes it through its dialog (Cancelar gives the focus back).
    const remove = item.getByRole('button', { name: `Eliminar «${title}»` });
    await remove.click();
    const dialog = admin.getByRole('alertdialog', { name: `¿Eliminar «${title}»?` });
    await expect(dialog).toBeVisible();
    await expectAccessible(admin);
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(remove).toBeFocused();
    await remove.click();
    await dialog.getByRole('button', { name: 'Eliminar' }).click();
    await expect(admin.getByText(`Eliminamos el anuncio «${title}».`)).toBeVisible();
    await expect(item).toHaveCount(0);
    await customer.reload();
    await expect(customer.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(customer.getByText(title)).toHaveCount(0);
    expect(errors).toEqual([]);
    expect(customerErrors).toEqual([]);
  } finally {
    // Never leave an announcement for everyone behind for the other journeys.
    const res = await admin.request.get('/api/admin/announcements', {
      headers: sameOrigin(admin),
    });
    const { items } = (await res.json()) as { items: Array<{ id: string; title: string }> };
    for (const a of items.filter((i) => i.title === title))
      await admin.request.delete(`/api/admin/announcements/${a.id}`, {
        headers: sameOrigin(admin),
      });
    await admin.context().close();
  }
});

test('a customer opening /admin/anuncios is sent to the dashboard', async ({ page }) => {
  await registerVerified(page, 'Raúl Campos');
  await page.goto('/admin/anuncios');
  await expect(page).toHaveURL(/\/dashboard$/);
  const res = await page.request.get('/api/admin/announcements', { headers: sameOrigin(page) });
  expect(res.status()).toBe(403);
});

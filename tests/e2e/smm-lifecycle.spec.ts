// An SMM customer's journey on a phone: ordering custom comments (the lines are the quantity) and
// a drip-fed order, then asking for a refill of the completed one; the admin marks the refill as
// done on /admin/ordenes and the customer sees it on the order's timeline.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectAccessible, postAsSignedIn, registerVerified } from './helpers';
import { adminPage, creditCustomer, sameOrigin } from './ordering';

type Service = { id: string; number: number; name: string };

async function createService(admin: Page, body: Record<string, unknown>): Promise<Service> {
  return (await postAsSignedIn(admin, '/api/admin/services', {
    category: 'social',
    description: 'Comentarios escritos por ti, publicados por cuentas reales.',
    deliveryTime: '1-6 horas',
    ...body,
  })) as Service;
}

test('custom comments and drip-feed ordered on a phone; a refill asked for and done', async ({
  browser,
  page,
}) => {
  const suffix = Date.now().toString(36);
  const admin = await adminPage(browser);
  const comments = await createService(admin, {
    name: `Comentarios personalizados ${suffix}`,
    price: '10.00',
    unit: '1000',
    minQuantity: 3,
    maxQuantity: 1000,
    smmType: 'Custom Comments',
    refillDays: 30,
    fields: [
      {
        key: 'link',
        label: 'Enlace de la publicación',
        type: 'url',
        required: true,
        identifier: true,
      },
      {
        key: 'comments',
        label: 'Comentarios',
        type: 'lines',
        required: true,
        hint: 'Uno por línea.',
      },
    ],
  });
  const followers = await createService(admin, {
    name: `Seguidores con goteo ${suffix}`,
    price: '2.00',
    unit: '1000',
    minQuantity: 100,
    maxQuantity: 10000,
    smmType: 'Default',
    dripfeed: true,
    fields: [
      { key: 'link', label: 'Enlace del perfil', type: 'url', required: true, identifier: true },
    ],
  });

  await page.setViewportSize({ width: 375, height: 800 });
  const { email } = await registerVerified(page, 'Marta Vidal');
  await creditCustomer(admin, email, '20.00');

  await page.goto('/placeorder/social');
  await page.getByRole('button', { name: new RegExp(comments.name) }).click();
  const link = page.getByLabel('Enlace de la publicación');
  await expect(link).toBeVisible();
  await link.fill(`https://instagram.com/p/${suffix}`);
  const box = page.getByLabel('Comentarios');
  await box.fill('¡Qué bonito!\nMe encanta\n\n  Lo quiero  ');
  await expect(page.getByText('Uno por línea. 3 líneas (entre 3 y 1000).')).toBeVisible();
  // Three comments at US$10.00 per 1000: US$0.03.
  await expect(page.getByText('Total: US$0.03')).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Confirmar orden (Total US$0.03)' }).click();
  const created = page.getByText(new RegExp(`Orden #(\\d+) creada: ${comments.name}`));
  await expect(created).toBeVisible();
  const number = Number(/#(\d+)/.exec((await created.textContent()) ?? '')?.[1]);

  await page.goto('/placeorder/social');
  await page.getByRole('button', { name: new RegExp(followers.name) }).click();
  await page.getByLabel('Enlace del perfil').fill(`https://instagram.com/${suffix}`);
  await page.getByLabel('Cantidad', { exact: true }).fill('500');
  await page.getByLabel('Repartir la entrega en varias repeticiones').check();
  await page.getByLabel('Repeticiones', { exact: true }).fill('4');
  await page.getByLabel('Minutos entre repeticiones').fill('30');
  // 500 per run × 4 runs = 2000 at US$2.00 per 1000: US$4.00.
  await expect(page.getByText('Total: US$4.00')).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Confirmar orden (Total US$4.00)' }).click();
  await expect(page.getByText(new RegExp(`creada: ${followers.name}`))).toBeVisible();

  // The shop completes the comments order; the customer asks for a refill from the history.
  const mine = await page.request.get(`/api/orders?q=%23${number}`, { headers: sameOrigin(page) });
  const { items } = (await mine.json()) as { items: { id: string }[] };
  const orderId = items[0]?.id ?? '';
  await postAsSignedIn(admin, `/api/admin/orders/${orderId}/complete`, {
    result: 'Publicados los 3 comentarios.',
  });
  await page.goto(`/orderhistory?orden=${orderId}`);
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('Publicados los 3 comentarios.')).toBeVisible();
  await expect(dialog.getByText(/Puedes pedir reposiciones hasta el/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Pedir reposición' }).click();
  await expect(dialog.getByText(/Pedimos la reposición n\.º \d+/)).toBeVisible();
  await expect(dialog.getByText(/Reposición n\.º \d+: Pendiente/)).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Pedir reposición' })).toHaveCount(0);
  await expectAccessible(page);

  await admin.setViewportSize({ width: 1280, height: 900 });
  await admin.goto('/admin/ordenes');
  const queue = admin.getByTestId('refill-queue');
  const row = queue.getByRole('listitem').filter({ hasText: `orden #${number}` });
  await expect(row).toContainText(email);
  await row.getByLabel('Nota para el cliente (opcional)').fill('Repusimos 1 comentario.');
  await row.getByRole('button', { name: 'Marcar como hecha' }).click();
  await expect(row.getByText(/Reposición n\.º \d+ hecha/)).toBeVisible();
  await expectAccessible(admin);
  await admin.context().close();

  await page.reload();
  await expect(dialog.getByText(/Reposición n\.º \d+: Completada/)).toBeVisible();
  await expect(dialog.getByText('Repusimos 1 comentario.').first()).toBeVisible();
});

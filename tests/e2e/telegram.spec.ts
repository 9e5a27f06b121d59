// Telegram on Mi perfil: a customer asks for a code, the bot receives `/start <code>` (the test
// posts the update to the app's webhook with the secret, as Telegram would), the page shows
// «Vinculado», the customer chooses the notices and saves them; keyboard only for the choice,
// axe at 375 and 1280 px, and the account can be unlinked again.
import type { Page } from '@playwright/test';
import { E2E_TELEGRAM_WEBHOOK_SECRET, e2eServer, expect, test } from './fixtures';
import {
  collectPageErrors,
  expectAccessible,
  registerVerified,
  signInAsAdmin,
  waitForHydration,
} from './helpers';

let updateId = Math.floor(Date.now() / 1000);

/** What Telegram POSTs when a person sends `text` to the bot. */
async function sendToBot(page: Page, chatId: number, text: string) {
  updateId += 1;
  const res = await page.request.post(`${e2eServer().url}/api/telegram/webhook`, {
    headers: { 'X-Telegram-Bot-Api-Secret-Token': E2E_TELEGRAM_WEBHOOK_SECRET },
    data: {
      update_id: updateId,
      message: {
        message_id: 1,
        date: Math.floor(Date.now() / 1000),
        chat: { id: chatId, type: 'private', first_name: 'Lucía' },
        from: { id: chatId, is_bot: false, first_name: 'Lucía', username: 'lucia_fz' },
        text,
      },
    },
  });
  expect(res.status()).toBe(200);
}

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(
    true,
  );
}

for (const width of [375, 1280]) {
  test(`a customer links Telegram and chooses the notices (${width} px)`, async ({ page }) => {
    const errors = await collectPageErrors(page);
    await page.setViewportSize({ width, height: 900 });
    await registerVerified(page);
    await page.goto('/profile?tab=notificaciones');
    await waitForHydration(page);
    const section = page.getByRole('region', { name: 'Telegram' });
    await expect(section).toBeVisible();
    await expect(section.getByText('Vinculado')).toHaveCount(0);
    await expectAccessible(page);

    // The wrong secret changes nothing.
    const refused = await page.request.post(`${e2eServer().url}/api/telegram/webhook`, {
      headers: { 'X-Telegram-Bot-Api-Secret-Token': 'not-the-secret' },
      data: { update_id: 1, message: { chat: { id: 1, type: 'private' }, text: '/start x' } },
    });
    expect(refused.status()).toBe(401);

    await section.getByRole('button', { name: 'Vincular Telegram' }).click();
    const code = (await section.getByTestId('telegram-code').textContent())?.trim() ?? '';
    expect(code).toMatch(/^[A-Za-z0-9_-]{20}$/);
    const open = section.getByRole('link', { name: /Abrir el bot en Telegram/ });
    await expect(open).toHaveAttribute('href', new RegExp(`^https://t\\.me/\\w+\\?start=${code}$`));
    await expectAccessible(page);
    await noSidewaysScroll(page);

    const chatId = 700_000 + width;
    await sendToBot(page, chatId, `/start ${code}`);
    await section.getByRole('button', { name: 'Ya lo envié: comprobar' }).click();
    await expect(section.getByText('Listo: tu cuenta de Telegram quedó vinculada.')).toBeVisible();
    await expect(section.getByText('Vinculado', { exact: true })).toBeVisible();
    await expect(section.getByText(/@lucia_fz/)).toBeVisible();

    // Every customer kind is on after linking; the keyboard turns one off and saves.
    const completed = section.getByRole('checkbox', {
      name: 'Orden completada (con el resultado)',
    });
    const rejected = section.getByRole('checkbox', { name: 'Orden rechazada (con el motivo)' });
    const reply = section.getByRole('checkbox', { name: 'Respuesta en un ticket' });
    for (const box of [completed, rejected, reply]) await expect(box).toBeChecked();
    await expect(section.getByRole('checkbox')).toHaveCount(3);
    await rejected.focus();
    await page.keyboard.press('Space');
    await expect(rejected).not.toBeChecked();
    await section.getByRole('button', { name: 'Guardar' }).focus();
    await page.keyboard.press('Enter');
    await expect(section.getByText('Guardamos tus avisos de Telegram.')).toBeVisible();
    await expectAccessible(page);
    await noSidewaysScroll(page);

    // Kept after a reload.
    await page.reload();
    await waitForHydration(page);
    await expect(section.getByText('Vinculado', { exact: true })).toBeVisible();
    await expect(rejected).not.toBeChecked();
    await expect(completed).toBeChecked();

    // «Desvincular» ends the link; the button to link again is back.
    await section.getByRole('button', { name: 'Desvincular' }).click();
    await expect(section.getByText('Desvinculamos tu cuenta de Telegram.')).toBeVisible();
    await expect(section.getByRole('button', { name: 'Vincular Telegram' })).toBeVisible();
    expect(errors).toEqual([]);
  });
}

test('staff reach the same section from their user menu and see their role’s notices', async ({
  page,
}) => {
  await signInAsAdmin(page);
  await page.getByRole('button', { name: /Menú de usuario/ }).click();
  await page.getByRole('menuitem', { name: 'Perfil' }).click();
  await expect(page).toHaveURL(/\/profile/);
  await page.goto('/profile?tab=notificaciones');
  await waitForHydration(page);
  const section = page.getByRole('region', { name: 'Telegram' });
  for (const label of [
    'Ticket nuevo',
    'Respuesta en un ticket',
    'Orden esperando en «Revisar»',
    'Proveedor con fallos o saldo bajo',
    'Pago esperando aprobación',
    'Cliente en su límite de crédito',
    'Poco stock de un servicio',
  ])
    await expect(section.getByRole('checkbox', { name: label })).toBeVisible();
  await expect(section.getByRole('checkbox')).toHaveCount(7);
  await expect(section.getByRole('button', { name: 'Vincular Telegram' })).toBeVisible();
  await expectAccessible(page);
});

// /admin/clientes end to end: the sortable list and a customer's page (tabs by keyboard, a
// balance adjustment typed with a decimal comma, a note); the Seguridad tab: how they sign in and
// where their sessions are, blocking the account (its session ends and its sign-in is refused
// with the blocked message), unblocking it, and ending all its sessions. 375 and 1280 px, with axe.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  collectPageErrors,
  expectAccessible,
  registerVerified,
  signIn,
  waitForHydration,
} from './helpers';
import { adminPage, creditCustomer } from './ordering';

/** Searches the list for the customer, opens their page and its Seguridad tab. */
async function findCustomer(admin: Page, email: string, name: string) {
  await admin.goto('/admin/clientes');
  await expect(admin.getByRole('heading', { level: 1, name: 'Clientes' })).toBeVisible();
  await admin.getByLabel('Nombre o correo del cliente').fill(email);
  await admin
    .getByRole('search', { name: 'Buscar cliente' })
    .getByRole('button', { name: 'Buscar' })
    .click();
  await expect(admin.getByTestId('customer-row')).toHaveCount(1);
  await admin.getByRole('link', { name }).click();
  await expect(admin.getByRole('tab', { name: 'Seguridad' })).toBeVisible();
  // The Seguridad panel's buttons open dialogs: pressed before hydration, the press is lost.
  await waitForHydration(admin);
  await admin.getByRole('tab', { name: 'Seguridad' }).click();
  await expect(admin).toHaveURL(/\?tab=seguridad$/);
  return admin.getByRole('region', { name: 'Seguridad de la cuenta' });
}

function noSidewaysScroll(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

test('an admin sorts customers by Saldo, opens one, moves through the tabs by keyboard, adjusts the balance with «12,50» and leaves a note', async ({
  page: customer,
  browser,
}) => {
  const tag = `orden${Date.now().toString(36)}`;
  const rich = await registerVerified(customer, `Rica ${tag}`);
  await customer.context().clearCookies();
  const poor = await registerVerified(customer, `Pobre ${tag}`);
  const admin = await adminPage(browser);
  const errors = await collectPageErrors(admin);
  try {
    await creditCustomer(admin, rich.email, '40.00');
    await creditCustomer(admin, poor.email, '1.00');
    await admin.setViewportSize({ width: 375, height: 800 });
    await admin.goto(`/admin/clientes?q=${tag}`);
    const saldo = admin.getByRole('columnheader', { name: /Saldo/ });
    await saldo.getByRole('link').click();
    await expect(saldo).toHaveAttribute('aria-sort', 'descending');
    const rows = admin.getByTestId('customer-row');
    await expect(rows).toHaveCount(2);
    await expect(rows.first()).toContainText(`Rica ${tag}`);
    await saldo.getByRole('link').click();
    await expect(saldo).toHaveAttribute('aria-sort', 'ascending');
    await expect(rows.first()).toContainText(`Pobre ${tag}`);
    expect(await noSidewaysScroll(admin)).toBe(true);
    await expectAccessible(admin);

    // The customer's page: their Saldo, and the tabs moved with the arrow keys.
    await rows
      .first()
      .getByRole('link', { name: `Pobre ${tag}` })
      .click();
    await expect(admin.getByRole('heading', { level: 1, name: `Pobre ${tag}` })).toBeVisible();
    await expect(admin.getByTestId('customer-balance')).toContainText(/1[.,]00/);
    const orders = admin.getByRole('tab', { name: 'Órdenes' });
    await expect(orders).toHaveAttribute('aria-selected', 'true');
    await orders.focus();
    await admin.keyboard.press('ArrowRight');
    const movements = admin.getByRole('tab', { name: 'Movimientos' });
    await expect(movements).toHaveAttribute('aria-selected', 'true');
    await expect(movements).toBeFocused();
    await expect(admin).toHaveURL(/\?tab=movimientos$/);
    const panel = admin.getByRole('tabpanel', { name: 'Movimientos' });
    await expect(panel.getByRole('row')).toHaveCount(2);

    // A debit larger than the balance is refused; a credit of «12,50» shows in the statement.
    const adjust = admin.getByRole('region', { name: 'Ajustar saldo' });
    await adjust.getByLabel('Tipo de ajuste').selectOption('debit');
    await adjust.getByLabel('Importe').fill('5,00');
    await adjust.getByLabel('Motivo').fill('Cargo de prueba');
    await adjust.getByRole('button', { name: 'Aplicar ajuste' }).click();
    await expect(adjust.getByText(/no alcanza/)).toBeVisible();
    await adjust.getByLabel('Tipo de ajuste').selectOption('credit');
    await adjust.getByLabel('Importe').fill('12,50');
    await adjust.getByRole('button', { name: 'Aplicar ajuste' }).click();
    await expect(adjust.getByText(/Su saldo ahora es .*13[.,]50/)).toBeVisible();
    await expect(admin.getByTestId('customer-balance')).toContainText(/13[.,]50/);
    await expect(panel.getByRole('row')).toHaveCount(3);
    await expect(panel.getByRole('row').nth(1)).toContainText('Cargo de prueba');
    await expect(panel.getByRole('row').nth(1)).toContainText(/12[.,]50/);

    // End → Notas; a note keeps its author.
    await movements.focus();
    await admin.keyboard.press('End');
    const notes = admin.getByRole('tab', { name: 'Notas' });
    await expect(notes).toBeFocused();
    await expect(admin).toHaveURL(/\?tab=notas$/);
    const notesPanel = admin.getByRole('tabpanel', { name: 'Notas' });
    await notesPanel.getByLabel('Nueva nota').fill('Llama antes de pedir liberaciones.');
    await notesPanel.getByRole('button', { name: 'Guardar nota' }).click();
    await expect(notesPanel.getByText('Nota guardada.')).toBeVisible();
    await expect(notesPanel.getByTestId('customer-notes')).toContainText(
      'Llama antes de pedir liberaciones.',
    );
    await expect(notesPanel.getByLabel('Nueva nota')).toHaveValue('');
    expect(await noSidewaysScroll(admin)).toBe(true);
    await expectAccessible(admin);
    await admin.setViewportSize({ width: 1280, height: 900 });
    await admin.reload();
    await expect(notesPanel.getByTestId('customer-notes')).toContainText('Llama antes');
    await expectAccessible(admin);
    // The refused debit is a 402 the browser logs; nothing else may go wrong.
    expect(errors.filter((e) => !/status of 402/.test(e))).toEqual([]);
  } finally {
    await admin.context().close();
  }
});

test('an admin finds a customer, sees their sessions, blocks them (no sign-in) and unblocks them', async ({
  page: customer,
  browser,
}) => {
  const { email, name } = await registerVerified(customer, 'Rocío Gallardo');
  const admin = await adminPage(browser);
  try {
    await expect(admin.getByRole('navigation', { name: 'Administración' })).toContainText(
      'Clientes',
    );
    const panel = await findCustomer(admin, email, name);
    await expect(panel.getByRole('heading', { name })).toBeVisible();
    await expect(panel.getByTestId('customer-state')).toHaveText('Activa');
    await expect(panel).toContainText('Contraseña');
    await expect(panel).toContainText('Enlace o código por correo');
    const sessions = panel.getByTestId('customer-sessions').getByRole('listitem');
    await expect(sessions).toHaveCount(1);
    await expect(sessions.first()).toContainText('Último uso');
    // The admin only looks: no «Cerrar sesión» per row, and no «Este dispositivo».
    await expect(sessions.first()).not.toContainText('Este dispositivo');

    // Block: a reason is required, then the account is blocked and its session ended.
    await panel.getByRole('button', { name: 'Bloquear cuenta' }).click();
    await panel.getByRole('button', { name: 'Sí, bloquear' }).click();
    await expect(panel.getByLabel('Motivo del bloqueo')).toHaveAttribute('aria-invalid', 'true');
    await panel.getByLabel('Motivo del bloqueo').fill('Pagos con tarjetas robadas');
    await panel.getByRole('button', { name: 'Sí, bloquear' }).click();
    await expect(panel.getByText(`Cuenta de ${email} bloqueada`, { exact: false })).toBeVisible();
    await expect(panel.getByTestId('customer-state')).toHaveText('Bloqueada');
    await expect(panel).toContainText('Motivo: Pagos con tarjetas robadas');
    await expect(panel.getByText('No hay ninguna sesión abierta.')).toBeVisible();

    // The customer is out on their next navigation, and cannot sign in again.
    await customer.goto('/orderhistory');
    await expect(customer).toHaveURL(/\/login\?next=/);
    await signIn(customer, email);
    await expect(
      customer.getByText('Esta cuenta está bloqueada. Escríbenos desde la página de contacto.'),
    ).toBeVisible();
    await expect(customer).toHaveURL(/\/login/);

    // Unblocked, they sign in again.
    await panel.getByRole('button', { name: 'Desbloquear' }).click();
    await expect(
      panel.getByText(`Cuenta de ${email} desbloqueada`, { exact: false }),
    ).toBeVisible();
    await expect(panel.getByTestId('customer-state')).toHaveText('Activa');
    await signIn(customer, email);
    await expect(customer).toHaveURL(/\/dashboard$/);

    // «Cerrar todas sus sesiones», after a confirmation.
    await admin.reload();
    await expect(sessions).toHaveCount(1);
    await panel.getByRole('button', { name: 'Cerrar todas sus sesiones' }).click();
    await panel.getByRole('button', { name: 'Sí, cerrarlas' }).click();
    await expect(panel.getByText('Cerramos 1 sesión.')).toBeVisible();
    await expect(sessions).toHaveCount(0);
    await customer.goto('/orderhistory');
    await expect(customer).toHaveURL(/\/login\?next=/);
  } finally {
    await admin.context().close();
  }
});

test('/admin/clientes at 375 and 1280 px: no sideways scrolling, accessible; the admin cannot turn two-factor off', async ({
  page: customer,
  browser,
}) => {
  const { email, name } = await registerVerified(customer, 'Íñigo Azcárate');
  const admin = await adminPage(browser);
  try {
    await admin.setViewportSize({ width: 375, height: 800 });
    const panel = await findCustomer(admin, email, name);
    await panel.getByRole('button', { name: 'Bloquear cuenta' }).click();
    expect(
      await admin.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    ).toBe(true);
    await expectAccessible(admin);
    await admin.setViewportSize({ width: 1280, height: 900 });
    await expectAccessible(admin);

    // The admin's own Seguridad: two-factor on, and no way to turn it off.
    await admin.goto('/profile#seguridad');
    const own = admin.getByRole('region', { name: 'Seguridad', exact: true });
    await expect(own.getByTestId('two-factor-state')).toHaveText('Activada');
    await expect(own.getByText(/Las cuentas de administración deben tener/)).toBeVisible();
    await expect(own.getByRole('button', { name: 'Desactivar' })).toHaveCount(0);
    await expect(
      own.getByRole('button', { name: 'Generar nuevos códigos de respaldo' }),
    ).toBeVisible();
  } finally {
    await admin.context().close();
  }
});

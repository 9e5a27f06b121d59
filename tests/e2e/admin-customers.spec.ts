// /admin/clientes end to end: the admin finds a customer, sees how they sign in and where their
// sessions are, blocks the account (its session ends and its sign-in is refused with the blocked
// message), unblocks it, and ends all its sessions. The page at 375 and 1280 px, with axe.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectAccessible, registerVerified, signIn } from './helpers';
import { adminPage } from './ordering';

async function findCustomer(admin: Page, email: string) {
  await admin.goto('/admin/clientes');
  await expect(admin.getByRole('heading', { level: 1, name: 'Clientes' })).toBeVisible();
  await admin.getByLabel('Nombre o correo del cliente').fill(email);
  await admin.getByRole('button', { name: 'Buscar' }).click();
  await expect(admin.getByText(/1 resultado para/)).toBeVisible();
  await admin.getByRole('link', { name: `Ver seguridad de ${email}` }).click();
  return admin.getByRole('region', { name: 'Seguridad de la cuenta' });
}

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
    const panel = await findCustomer(admin, email);
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
  const { email } = await registerVerified(customer, 'Íñigo Azcárate');
  const admin = await adminPage(browser);
  try {
    await admin.setViewportSize({ width: 375, height: 800 });
    const panel = await findCustomer(admin, email);
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

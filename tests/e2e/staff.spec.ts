// Issue 21 §4 end to end: an admin invites a support person from «Personal»; they accept the
// e-mailed link (creating their account), sign in, must enrol two-factor, then see only the order
// queue and the customers; the admin finds the invitation and the joining in «Auditoría».
// 375 and 1280 px, with axe.
import { expect, test } from './fixtures';
import {
  PASSWORD,
  collectPageErrors,
  enableTwoFactorByApi,
  expectAccessible,
  linkFrom,
  newEmail,
  signIn,
  waitForHydration,
  waitForMail,
} from './helpers';
import { adminPage } from './ordering';

test('an admin invites support; they accept, enrol two-factor and see only the queue and customers; Auditoría shows it', async ({
  page,
  browser,
}) => {
  const admin = await adminPage(browser, '/admin/personal');
  const errors = await collectPageErrors(admin);
  const supportErrors = await collectPageErrors(page);
  const email = newEmail('soporte');
  try {
    await admin.setViewportSize({ width: 1280, height: 900 });
    await expect(admin.getByRole('heading', { level: 1, name: 'Personal' })).toBeVisible();
    await waitForHydration(admin);
    const invite = admin.getByRole('region', { name: 'Invitar a alguien' });
    await invite.getByLabel('Correo').fill(email);
    await invite.getByLabel('Rol').selectOption('support');
    await invite.getByRole('button', { name: 'Enviar invitación' }).click();
    await expect(invite.getByText(`Invitación enviada a ${email}.`)).toBeVisible();
    await expect(admin.getByTestId('invitation-row').filter({ hasText: email })).toBeVisible();
    await expectAccessible(admin);

    // The invited person: the link, their name and password, then the sign-in.
    const link = new URL(linkFrom(await waitForMail(email, /Invitación/), '/invitacion?token='));
    await page.goto(link.pathname + link.search);
    await expect(page.getByText('rol «Soporte»')).toBeVisible();
    await waitForHydration(page);
    await page.getByLabel('Tu nombre').fill('Sonia Soporte');
    await page.getByLabel('Contraseña').fill(PASSWORD);
    await page.getByRole('button', { name: 'Aceptar la invitación' }).click();
    await expect(page.getByRole('heading', { name: 'Ya formas parte del equipo' })).toBeVisible();
    await signIn(page, email);
    // Every staff role must turn on two-factor before the back office.
    await expect(page).toHaveURL(/\/activar-dos-pasos$/);
    await expect(page.getByText('Las cuentas del equipo deben usar')).toBeVisible();
    await enableTwoFactorByApi(page, PASSWORD);

    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/admin/ordenes');
    const nav = page.getByRole('navigation', { name: 'Administración' });
    await expect(nav.getByRole('link', { name: /^Órdenes/ })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Clientes' })).toBeVisible();
    // The support desk is theirs too (issue 22).
    await expect(nav.getByRole('link', { name: /^Soporte/ })).toBeVisible();
    for (const name of [
      'Pagos y saldo',
      'Recibos',
      'Servicios',
      'Proveedores',
      'Personal',
      'Auditoría',
    ])
      await expect(nav.getByRole('link', { name })).toHaveCount(0);
    await expectAccessible(page);
    // A page of another area sends support to the back office's start.
    await page.goto('/admin/pagos');
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByTestId('overview-sales')).toHaveCount(0);
    await page.goto('/admin/clientes');
    await expect(page.getByRole('columnheader', { name: /Saldo/ })).toHaveCount(0);
    await page.goto('/admin/soporte');
    await expect(page.getByRole('heading', { level: 1, name: 'Soporte' })).toBeVisible();
    await expect(page.getByRole('search', { name: 'Filtrar tickets' })).toBeVisible();

    // The admin sees both actions, with who did them and their role.
    await admin.goto('/admin/auditoria?action=staff.');
    const rows = admin.getByTestId('audit-row');
    await expect(rows.filter({ hasText: 'staff.join' })).toContainText('Sonia Soporte');
    await expect(rows.filter({ hasText: 'staff.join' })).toContainText('Soporte');
    await expect(rows.filter({ hasText: 'staff.invite' })).toContainText(email);
    await expectAccessible(admin);
    await admin.setViewportSize({ width: 375, height: 800 });
    await expectAccessible(admin);
    expect(errors).toEqual([]);
    expect(supportErrors).toEqual([]);
  } finally {
    await admin.context().close();
  }
});

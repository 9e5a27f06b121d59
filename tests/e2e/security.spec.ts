// Mi perfil → Seguridad, end to end: two-factor turned on with a code computed here from the key
// the page shows (and then asked at sign-in), another device's session ended from this one, a
// phone added with the code from the SMS outbox, "Descargar mis datos", and an account deleted
// (its sign-in refused afterwards). The section at 375 px, with axe.
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { E2E_OIDC_NAME, expect, test } from './fixtures';
import { secretOf } from '../setup/totp';
import {
  PASSWORD,
  collectPageErrors,
  expectAccessible,
  freshTotpCode,
  linkFrom,
  newEmail,
  registerVerified,
  signIn,
  signOut,
  waitForMailTo,
  waitForSms,
} from './helpers';
import { adminPage, creditCustomer } from './ordering';

/** A Spanish mobile number no other test uses. */
function uniquePhone(): string {
  const digits = String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0');
  return `+3469${digits}`;
}

function security(page: Page) {
  return page.getByRole('region', { name: 'Seguridad', exact: true });
}

async function openSecurity(page: Page) {
  await page.goto('/profile#seguridad');
  await expect(page.getByRole('heading', { level: 2, name: 'Seguridad' })).toBeVisible();
  await expect(security(page).getByRole('heading', { name: 'Sesiones activas' })).toBeVisible();
}

test('two-factor turned on from Seguridad with a code from the key on the page, then asked at sign-in', async ({
  page,
}) => {
  const errors = await collectPageErrors(page);
  const { email } = await registerVerified(page);
  await openSecurity(page);
  const section = security(page);
  await expect(section.getByTestId('two-factor-state')).toHaveText('Desactivada');

  await section.getByRole('button', { name: 'Activar la verificación en dos pasos' }).click();
  await section.getByLabel('Tu contraseña', { exact: true }).fill(PASSWORD);
  await section.getByRole('button', { name: 'Empezar' }).click();
  const link = section.getByRole('link', { name: 'Abrir en mi aplicación de autenticación' });
  const uri = await link.getAttribute('href');
  expect(uri).toMatch(/^otpauth:\/\/totp\//);
  const secret = secretOf(uri ?? '');
  // The key typed by hand is the same secret, in blocks of four.
  await expect(section.getByTestId('two-factor-key')).toHaveText(
    secret.toUpperCase().replace(/(.{4})(?=.)/g, '$1 '),
  );
  await section.getByLabel('Código de 6 dígitos').fill(await freshTotpCode(secret));
  await section.getByRole('button', { name: 'Activar la verificación en dos pasos' }).click();
  await expect(section.getByText('La verificación en dos pasos está activada.')).toBeVisible();
  const codes = await section.getByTestId('backup-codes').getByRole('listitem').allTextContents();
  expect(codes).toHaveLength(10);
  await section.getByRole('button', { name: 'Continuar' }).click();
  await expect(section.getByTestId('two-factor-state')).toHaveText('Activada');

  // New backup codes replace the old ones, and can be downloaded.
  await section.getByRole('button', { name: 'Generar nuevos códigos de respaldo' }).click();
  await section.getByLabel('Tu contraseña', { exact: true }).fill(PASSWORD);
  await section.getByRole('button', { name: 'Generar códigos' }).click();
  const fresh = section.getByTestId('new-backup-codes').getByRole('listitem');
  await expect(fresh).toHaveCount(10);
  const freshCodes = await fresh.allTextContents();
  expect(freshCodes).not.toEqual(codes);
  const download = page.waitForEvent('download');
  await section.getByRole('button', { name: 'Descargar códigos' }).click();
  const file = await (await download).path();
  const text = await readFile(file, 'utf8');
  for (const code of freshCodes) expect(text).toContain(code);
  expect(text).toContain(email);

  // Signing in again asks for the app's code.
  await signOut(page);
  await signIn(page, email);
  await expect(page).toHaveURL(/\/login\/dos-pasos/);
  await page.getByLabel('Código de tu aplicación').fill(await freshTotpCode(secret));
  await page.getByRole('button', { name: 'Verificar' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // A customer may turn it off again, with the password.
  await openSecurity(page);
  await section.getByRole('button', { name: 'Desactivar' }).click();
  await section.getByLabel('Tu contraseña', { exact: true }).fill('no-es-la-clave');
  await section.getByRole('button', { name: 'Sí, desactivar' }).click();
  await expect(section.getByText('La contraseña no es correcta.')).toBeVisible();
  await section.getByLabel('Tu contraseña', { exact: true }).fill(PASSWORD);
  await section.getByRole('button', { name: 'Sí, desactivar' }).click();
  await expect(section.getByTestId('two-factor-state')).toHaveText('Desactivada');
  // The refused password is the only failed request (the browser logs it).
  expect(errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
});

test('a session ended from Seguridad signs the other device out on its next navigation', async ({
  page,
  browser,
}) => {
  const { email } = await registerVerified(page);

  const other = await browser.newContext();
  const third = await browser.newContext();
  try {
    const otherPage = await other.newPage();
    await signIn(otherPage, email);
    await expect(otherPage).toHaveURL(/\/dashboard$/);

    await openSecurity(page);
    const list = security(page).getByTestId('sessions');
    await expect(list.getByRole('listitem')).toHaveCount(2);
    const current = list.getByRole('listitem').filter({ hasText: 'Este dispositivo' });
    await expect(current).toHaveCount(1);
    await expect(current.getByRole('button', { name: /Cerrar sesión/ })).toHaveCount(0);
    await expect(list.getByText(/Último uso/).first()).toBeVisible();

    await list.getByRole('button', { name: /^Cerrar sesión/ }).click();
    await expect(security(page).getByText('Sesión cerrada en ese dispositivo.')).toBeVisible();
    await expect(list.getByRole('listitem')).toHaveCount(1);

    // The other device finds out on its next navigation.
    await otherPage.getByRole('link', { name: 'Historial de órdenes' }).first().click();
    await expect(otherPage).toHaveURL(/\/login\?next=/);

    // «Cerrar todas las demás», after a confirmation, ends every other one.
    const thirdPage = await third.newPage();
    await signIn(thirdPage, email);
    await expect(thirdPage).toHaveURL(/\/dashboard$/);
    await page.reload();
    await expect(list.getByRole('listitem')).toHaveCount(2);
    await security(page).getByRole('button', { name: 'Cerrar todas las demás' }).click();
    await expect(security(page).getByText(/¿Cerrar la otra sesión\?/)).toBeVisible();
    await security(page).getByRole('button', { name: 'Sí, cerrar las demás' }).click();
    await expect(security(page).getByText('Cerramos 1 sesión en otro dispositivo.')).toBeVisible();
    await expect(list.getByRole('listitem')).toHaveCount(1);
    await thirdPage.goto('/orderhistory');
    await expect(thirdPage).toHaveURL(/\/login\?next=/);
    // This device stays signed in.
    await page.goto('/orderhistory');
    await expect(page).toHaveURL(/\/orderhistory$/);
  } finally {
    await other.close();
    await third.close();
  }
});

test('a phone added with the code from the SMS', async ({ page }) => {
  await registerVerified(page);
  await openSecurity(page);
  const section = security(page);
  await expect(section.getByTestId('phone-number')).toContainText('Sin teléfono');
  await section.getByRole('button', { name: 'Añadir teléfono' }).click();

  // Without the country prefix it is refused before anything is sent.
  await section.getByLabel('Número de teléfono').fill('600 111 222');
  await section.getByRole('button', { name: 'Enviarme un código' }).click();
  await expect(section.getByText(/con el prefijo del país, por ejemplo/)).toBeVisible();

  const phone = uniquePhone();
  const typed = `${phone.slice(0, 3)} ${phone.slice(3, 6)} ${phone.slice(6, 9)} ${phone.slice(9)}`;
  await section.getByLabel('Número de teléfono').fill(typed);
  await section.getByRole('button', { name: 'Enviarme un código' }).click();
  await expect(
    section.getByText(`Te enviamos un SMS con un código de 6 dígitos al ${phone}.`),
  ).toBeVisible();
  const sms = await waitForSms(phone);
  const code = /\b(\d{6})\b/.exec(sms.text)?.[1];
  expect(code).toBeTruthy();

  // A wrong code first.
  const wrong = code === '000000' ? '111111' : '000000';
  await section.getByLabel('Código de 6 dígitos').fill(wrong);
  await section.getByRole('button', { name: 'Verificar' }).click();
  await expect(section.getByLabel('Código de 6 dígitos')).toHaveAttribute('aria-invalid', 'true');

  await section.getByLabel('Código de 6 dígitos').fill(code ?? '');
  await section.getByRole('button', { name: 'Verificar' }).click();
  await expect(section.getByText(/^Número verificado: \+34/).first()).toBeVisible();
  await expect(section.getByTestId('phone-number')).toContainText(
    `${phone.slice(0, 3)} ${phone.slice(3, 6)} ${phone.slice(6, 9)} ${phone.slice(9)}`,
  );
  await expect(section.getByTestId('sign-in-methods')).toContainText('Código por SMS');
  await expect(section.getByRole('button', { name: 'Cambiar teléfono' })).toBeVisible();

  await page.reload();
  await expect(security(page).getByTestId('phone-number')).toContainText('Número verificado');
});

/** Signs in at the local OpenID Connect provider's own page as `email`. */
async function signInAtProvider(page: Page, email: string, name: string) {
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/interaction\//);
  await page.getByRole('textbox', { name: 'Correo electrónico' }).fill(email);
  await page.getByRole('textbox', { name: 'Nombre' }).fill(name);
  await page.getByRole('button', { name: 'Entrar en el proveedor' }).click();
}

test('a provider linked from Seguridad, unlinked, and refused for a second person', async ({
  page,
  browser,
}) => {
  const { email, name } = await registerVerified(page, 'Nerea Vinculada');
  await openSecurity(page);
  const section = security(page);
  const methods = section.getByTestId('sign-in-methods');
  await expect(methods).not.toContainText(E2E_OIDC_NAME);

  await section.getByRole('button', { name: `Vincular ${E2E_OIDC_NAME}`, exact: true }).click();
  await signInAtProvider(page, email, name);
  await expect(page).toHaveURL(/\/profile#seguridad$/);
  await expect(methods).toContainText(`Cuenta de ${E2E_OIDC_NAME} vinculada`);
  await expect(
    section.getByRole('button', { name: `Vincular ${E2E_OIDC_NAME}`, exact: true }),
  ).toHaveCount(0);

  // Unlinked after a confirmation (the password still signs in).
  await methods.getByRole('button', { name: `Desvincular ${E2E_OIDC_NAME}` }).click();
  await methods.getByRole('button', { name: `Sí, desvincular ${E2E_OIDC_NAME}` }).click();
  await expect(
    section.getByText(`${E2E_OIDC_NAME}: desvinculado.`, { exact: false }),
  ).toBeVisible();
  await expect(methods).not.toContainText(E2E_OIDC_NAME);

  // Linked again, it cannot be linked to someone else: the reason comes back in Spanish.
  await section.getByRole('button', { name: `Vincular ${E2E_OIDC_NAME}`, exact: true }).click();
  await signInAtProvider(page, email, name);
  await expect(methods).toContainText(`Cuenta de ${E2E_OIDC_NAME} vinculada`);
  const otherContext = await browser.newContext();
  try {
    const other = await otherContext.newPage();
    await registerVerified(other, 'Otra Persona');
    await openSecurity(other);
    await security(other)
      .getByRole('button', { name: `Vincular ${E2E_OIDC_NAME}`, exact: true })
      .click();
    await signInAtProvider(other, email, name);
    await expect(other).toHaveURL(
      /\/profile\?error=account_already_linked_to_different_user#seguridad$/,
    );
    await expect(
      security(other).getByText('Esa cuenta ya está vinculada a otro usuario.'),
    ).toBeVisible();
    await expect(security(other).getByTestId('sign-in-methods')).not.toContainText(E2E_OIDC_NAME);
  } finally {
    await otherContext.close();
  }
});

test('the e-mail changed from Seguridad: approved from the current address, then verified at the new one', async ({
  page,
}) => {
  const { email } = await registerVerified(page);
  const next = newEmail('nuevo');
  await openSecurity(page);
  const section = security(page);
  await section.getByLabel('Nuevo correo electrónico').fill('no-es-un-correo');
  await section.getByRole('button', { name: 'Cambiar correo' }).click();
  await expect(section.getByText('Escribe un correo electrónico válido.')).toBeVisible();

  await section.getByLabel('Nuevo correo electrónico').fill(next);
  await section.getByRole('button', { name: 'Cambiar correo' }).click();
  await expect(
    section.getByText(
      'Te enviamos un correo a tu dirección actual para confirmar el cambio; después confirmarás la nueva.',
    ),
  ).toBeVisible();

  const approval = await waitForMailTo(email, /Confirma el cambio de correo/);
  await page.goto(linkFrom(approval, '/api/auth/'));
  const verification = await waitForMailTo(next, /Verifica tu correo/);
  await page.goto(linkFrom(verification, '/api/auth/verify-email'));
  // The address is shown under Datos; Seguridad says it too.
  await page.goto('/profile');
  await expect(page.getByLabel('Correo electrónico', { exact: true })).toHaveValue(next);
  await page.getByRole('tab', { name: 'Seguridad' }).click();
  await expect(
    security(page).getByText(`Tu correo actual es ${next}.`, { exact: false }),
  ).toBeVisible();
});

test('"Descargar mis datos" downloads a JSON file with the profile', async ({ page }) => {
  const { email, name } = await registerVerified(page, 'Marta Ibáñez');
  await openSecurity(page);
  const download = page.waitForEvent('download');
  await security(page).getByRole('link', { name: 'Descargar mis datos' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^cometa-mis-datos-\d{4}-\d{2}-\d{2}\.json$/);
  const data = JSON.parse(await readFile(await file.path(), 'utf8')) as {
    profile: { email: string; name: string };
    orders: unknown[];
    movements: unknown[];
  };
  expect(data.profile.email).toBe(email);
  expect(data.profile.name).toBe(name);
  expect(Array.isArray(data.orders)).toBe(true);
  expect(Array.isArray(data.movements)).toBe(true);
});

test('an account with a balance is kept; with a zero balance it is deleted, and its sign-in refused afterwards', async ({
  page,
  browser,
}) => {
  const errors = await collectPageErrors(page);
  const { email } = await registerVerified(page);
  const admin = await adminPage(browser);
  await creditCustomer(admin, email, '5.00');

  await openSecurity(page);
  const section = security(page);
  await section.getByRole('button', { name: 'Eliminar mi cuenta' }).click();
  await section.getByLabel('Tu contraseña', { exact: true }).fill(PASSWORD);
  await section.getByLabel('Escribe ELIMINAR para confirmar').fill('ELIMINAR');
  await section.getByRole('button', { name: 'Eliminar mi cuenta para siempre' }).click();
  await expect(section.getByText(/tu saldo debe ser US\$0\.00/)).toBeVisible();
  await section.getByRole('button', { name: 'Cancelar' }).click();

  // The admin takes the balance back to zero.
  await creditCustomer(admin, email, '-5.00');
  await admin.context().close();
  await page.reload();
  await expect(section.getByText(/saldo en US\$0\.00 y sin órdenes en curso/)).toBeVisible();
  await expect(section.getByText(/se conservan anonimizados/)).toBeVisible();
  await section.getByRole('button', { name: 'Eliminar mi cuenta' }).click();

  // Both the password and the word are needed.
  await section.getByLabel('Tu contraseña', { exact: true }).fill(PASSWORD);
  await section.getByLabel('Escribe ELIMINAR para confirmar').fill('eliminar cuenta');
  await section.getByRole('button', { name: 'Eliminar mi cuenta para siempre' }).click();
  await expect(section.getByText('Escribe ELIMINAR para confirmar.')).toBeVisible();

  // A wrong password is refused by the server.
  await section.getByLabel('Tu contraseña', { exact: true }).fill('no-es-la-clave');
  await section.getByLabel('Escribe ELIMINAR para confirmar').fill('ELIMINAR');
  await section.getByRole('button', { name: 'Eliminar mi cuenta para siempre' }).click();
  await expect(section.getByLabel('Tu contraseña', { exact: true })).toHaveAttribute(
    'aria-invalid',
    'true',
  );

  await section.getByLabel('Tu contraseña', { exact: true }).fill(PASSWORD);
  await section.getByRole('button', { name: 'Eliminar mi cuenta para siempre' }).click();
  await expect(page).toHaveURL(/\/(\?.*)?$/);
  await expect(page.getByRole('button', { name: /Menú de usuario/ })).toHaveCount(0);

  // The session is gone on the server too, and the account no longer signs in.
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/login\?next=/);
  await signIn(page, email);
  await expect(page.getByText('Correo o contraseña incorrectos.')).toBeVisible();
  // The refusals (409 balance, 400 password, 401 sign-in) are the only failed requests.
  expect(errors.filter((e) => !/status of 40[019]/.test(e))).toEqual([]);
});

test('Seguridad at 375 px: no sideways scrolling, accessible', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await registerVerified(page);
  await openSecurity(page);
  await security(page).getByRole('button', { name: 'Añadir teléfono' }).click();
  await security(page).getByRole('button', { name: 'Eliminar mi cuenta' }).click();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(
    true,
  );
  await expectAccessible(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await expectAccessible(page);
});

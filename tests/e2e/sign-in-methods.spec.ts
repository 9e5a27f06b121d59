import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { totpCode } from '../setup/totp';
import {
  codeIn,
  collectPageErrors,
  createVerifiedUser,
  enableTwoFactorByApi,
  expectAccessible,
  freshTotpCode,
  linkFrom,
  newEmail,
  PASSWORD,
  postAsSignedIn,
  registerVerified,
  signIn,
  signOut,
  smsTo,
  waitForHydration,
  waitForMailTo,
  waitForSms,
} from './helpers';
import { adminPage } from './ordering';

// The ways in besides the password (issue 12): an e-mailed link, an e-mailed code, an SMS code,
// and the second step for accounts with two-factor on; admins must turn two-factor on first.

/** Opens one of «Otras formas de entrar» on /login; returns its form. */
async function openOtherWay(page: Page, button: string) {
  await page.goto('/login');
  await waitForHydration(page);
  const ways = page.getByRole('region', { name: 'Otras formas de entrar' });
  await ways.getByRole('button', { name: button }).click();
  await expect(ways.getByRole('button', { name: button })).toHaveAttribute('aria-expanded', 'true');
  return ways.getByRole('form', { name: button });
}

/** A Spanish mobile number no other test uses. */
function uniquePhone(): string {
  return `+346${String(Date.now()).slice(-8)}`;
}

/** A 6-digit code that is none of the codes the app accepts right now (steps -1, 0 and +1). */
function wrongCodeFor(secret: string): string {
  const valid = new Set([-1, 0, 1].map((step) => totpCode(secret, Date.now(), step)));
  for (let n = 0; ; n += 1) {
    const candidate = String((123_456 + n * 7_919) % 1_000_000).padStart(6, '0');
    if (!valid.has(candidate)) return candidate;
  }
}

test('an e-mailed link signs a new address in: the account is created verified and lands on the dashboard', async ({
  page,
}) => {
  const email = newEmail('enlace');
  const form = await openOtherWay(page, 'Enviarme un enlace');
  await form.getByLabel('Correo electrónico').fill(email);
  await form.getByRole('button', { name: 'Enviar el enlace' }).click();
  await expect(
    form.getByText(
      'Si la dirección es correcta, te enviamos un enlace para entrar. Caduca en 10 minutos.',
    ),
  ).toBeVisible();
  await expectAccessible(page);

  const mail = await waitForMailTo(email, /Tu enlace para entrar/);
  await page.goto(linkFrom(mail, '/api/auth/magic-link/verify'));
  await expect(page).toHaveURL(/\/dashboard$/);
  // The account has no name yet: the address's local part stands in for it.
  const name = email.split('@')[0]?.replace(/\./g, ' ') ?? '';
  await expect(page.getByTestId('user-name')).toHaveText(name);
  // Verified from the start: a reload stays on the dashboard (no /verify-email).
  await page.reload();
  await expect(page).toHaveURL(/\/dashboard$/);

  // Without a password, two-factor is turned off with a code of the app, never with nothing.
  const { secret } = await enableTwoFactorByApi(page);
  await page.goto('/profile#seguridad');
  const section = page.getByRole('region', { name: 'Seguridad', exact: true });
  await expect(section.getByTestId('two-factor-state')).toHaveText('Activada');
  await section.getByRole('button', { name: 'Desactivar' }).click();
  await section.getByLabel('Código de tu aplicación').fill('000000');
  await section.getByRole('button', { name: 'Sí, desactivar' }).click();
  await expect(section.getByText('El código no es correcto o ya caducó.')).toBeVisible();
  await section.getByLabel('Código de tu aplicación').fill(await freshTotpCode(secret));
  await section.getByRole('button', { name: 'Sí, desactivar' }).click();
  await expect(section.getByTestId('two-factor-state')).toHaveText('Desactivada');

  // The link works once: opened again, /login says so.
  await signOut(page);
  await page.goto(linkFrom(mail, '/api/auth/magic-link/verify'));
  await expect(page).toHaveURL(/\/login\?.*error=/);
  await expect(
    page.getByText('El enlace no es válido o ha caducado. Pide uno nuevo.'),
  ).toBeVisible();
});

test('an e-mailed code signs an existing customer in; a wrong code is refused in Spanish', async ({
  page,
}) => {
  const { email, name } = await registerVerified(page, 'Carmen Códigos');
  await signOut(page);

  const form = await openOtherWay(page, 'Enviarme un código');
  await form.getByLabel('Correo electrónico').fill(email);
  await form.getByRole('button', { name: 'Enviar el código' }).click();
  await expect(form.getByText(/te enviamos un código de 6 dígitos/)).toBeVisible();
  const code = codeIn((await waitForMailTo(email, /Tu código para entrar/)).text);

  const field = form.getByLabel('Código de 6 dígitos');
  await expect(field).toBeFocused();
  await field.fill(code === '000000' ? '111111' : '000000');
  await form.getByRole('button', { name: 'Entrar con el código' }).click();
  await expect(form.getByText('El código no es correcto.')).toBeVisible();
  await expectAccessible(page);

  await field.fill(code);
  await form.getByRole('button', { name: 'Entrar con el código' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('user-name')).toHaveText(name);
});

test('a customer signs in with the SMS code sent to the phone verified on the account', async ({
  page,
}) => {
  const { name } = await registerVerified(page, 'Pablo Teléfono');
  const phone = uniquePhone();
  // Attach the phone as Mi perfil does: a code to the number, then verify it while signed in.
  await postAsSignedIn(page, '/api/auth/phone-number/send-otp', { phoneNumber: phone });
  const attach = await waitForSms(phone);
  await postAsSignedIn(page, '/api/auth/phone-number/verify', {
    phoneNumber: phone,
    code: codeIn(attach.text),
    updatePhoneNumber: true,
  });
  await page.goto('/dashboard');
  await signOut(page);

  const seen = (await smsTo(phone)).map((m) => m.id);
  const form = await openOtherWay(page, 'Entrar con mi teléfono');
  // Typed as people type it: spaces are fine.
  await form
    .getByLabel('Teléfono')
    .fill(`${phone.slice(0, 3)} ${phone.slice(3, 6)} ${phone.slice(6)}`);
  await form.getByRole('button', { name: 'Enviarme un SMS' }).click();
  await expect(form.getByText(/te enviamos un SMS con un código de 6 dígitos/)).toBeVisible();
  const sms = await waitForSms(phone, seen);
  await form.getByLabel('Código del SMS').fill(codeIn(sms.text));
  await form.getByRole('button', { name: 'Entrar', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('user-name')).toHaveText(name);
});

test('a customer with two-factor signs in with the password and then the app code, and again with a backup code', async ({
  page,
}) => {
  const { email, name } = await registerVerified(page, 'Teresa Dospasos');
  const { secret, backupCodes } = await enableTwoFactorByApi(page, PASSWORD);
  await page.goto('/dashboard');
  await signOut(page);

  // The password alone is not enough any more: the second step asks for the app's code.
  await signIn(page, email);
  await expect(page).toHaveURL(/\/login\/dos-pasos$/);
  await expect(page.getByRole('heading', { name: 'Verificación en dos pasos' })).toBeVisible();
  await expectAccessible(page);
  const code = page.getByLabel('Código de tu aplicación');
  await code.fill(wrongCodeFor(secret));
  await page.getByRole('button', { name: 'Verificar' }).click();
  await expect(page.getByText('El código no es correcto.')).toBeVisible();
  await expect(page).toHaveURL(/\/login\/dos-pasos$/);

  await code.fill(await freshTotpCode(secret));
  await page.getByRole('button', { name: 'Verificar' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('user-name')).toHaveText(name);
  await signOut(page);

  // Without the phone: one of the backup codes, once.
  await signIn(page, email);
  await expect(page).toHaveURL(/\/login\/dos-pasos$/);
  await page.getByRole('button', { name: 'Usar un código de respaldo' }).click();
  await page.getByLabel('Código de respaldo').fill(backupCodes[0] ?? '');
  await page.getByLabel('Confiar en este dispositivo durante 30 días').check();
  await page.getByRole('button', { name: 'Verificar' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('user-name')).toHaveText(name);
});

test('an admin without two-factor is kept on /activar-dos-pasos, enrols with the app and reaches the orders', async ({
  browser,
  page,
}) => {
  const { email, name } = await registerVerified(page, 'Adela Nueva');
  // The (enrolled) bootstrap admin makes this customer an admin, with Better Auth's admin API.
  const admin = await adminPage(browser);
  const found = await admin.request.get(`/api/admin/users?q=${encodeURIComponent(email)}`);
  const { items } = (await found.json()) as { items: Array<{ id: string; email: string }> };
  const userId = items.find((u) => u.email === email)?.id;
  expect(userId).toBeTruthy();
  await postAsSignedIn(admin, '/api/auth/admin/set-role', { userId, role: 'admin' });
  await admin.context().close();

  // Signed in again as the new admin: every page leads to the enrolment.
  await signOut(page);
  await signIn(page, email);
  await expect(page).toHaveURL(/\/activar-dos-pasos$/);
  await page.goto('/admin/servicios');
  await expect(page).toHaveURL(/\/activar-dos-pasos$/);
  await expect(
    page.getByText('Las cuentas del equipo deben usar la verificación en dos pasos.'),
  ).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Administración' })).toHaveCount(0);
  await expectAccessible(page);

  await page.getByLabel('Tu contraseña').fill(PASSWORD);
  await page.getByRole('button', { name: 'Empezar' }).click();
  const key = (await page.getByTestId('two-factor-key').innerText()).replace(/\s+/g, '');
  expect(key).toMatch(/^[A-Z2-7]{16,}$/);
  await expect(
    page.getByRole('link', { name: 'Abrir en mi aplicación de autenticación' }),
  ).toHaveAttribute('href', new RegExp(`^otpauth://totp/.*secret=${key}`, 'i'));
  await expectAccessible(page);
  await page.getByLabel('Código de 6 dígitos').fill(await freshTotpCode(key));
  await page.getByRole('button', { name: 'Activar la verificación en dos pasos' }).click();

  await expect(page.getByText('La verificación en dos pasos está activada.')).toBeVisible();
  const codes = page.getByRole('list', { name: 'Códigos de respaldo' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Descargar códigos' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.txt$/);
  const saved = await readFile(await file.path(), 'utf8');
  expect(saved).toContain((await codes.first().innerText()).trim());
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page).toHaveURL(/\/admin\/ordenes$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Órdenes' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Administración' })).toBeVisible();
  await expect(page.getByTestId('user-name')).toHaveText(name);
  // The gate is lifted: the other admin pages open too.
  await page.goto('/admin/servicios');
  await expect(page.getByRole('heading', { level: 1, name: 'Servicios' })).toBeVisible();
});

test('the sign-in pages work at 375 px: the other ways and the second step fit the screen', async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 800 });
  for (const button of ['Enviarme un enlace', 'Enviarme un código', 'Entrar con mi teléfono']) {
    await openOtherWay(page, button);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, `/login with «${button}» open`).toBeLessThanOrEqual(0);
  }
  // The second step, reached without a pending sign-in: the form still fits (and says so).
  await page.goto('/login/dos-pasos');
  await page.getByLabel('Código de tu aplicación').fill('123456');
  await page.getByRole('button', { name: 'Verificar' }).click();
  await expect(page.getByRole('link', { name: 'Iniciar sesión de nuevo' })).toBeVisible();
  expect(
    await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    ),
    '/login/dos-pasos',
  ).toBeLessThanOrEqual(0);
  await expectAccessible(page);

  await page.goto('/register');
  await waitForHydration(page);
  await expect(page.getByRole('region', { name: 'Otras formas de crear tu cuenta' })).toBeVisible();
  await expectAccessible(page);
});

test('a sign-in sent before the page has hydrated is held and goes through once it has', async ({
  page,
  browser,
}) => {
  const { email } = await createVerifiedUser(browser, 'Marta Prisa');
  const errors = await collectPageErrors(page);
  // A slow phone: the page is painted from its HTML while its entry module is still on the way.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/entry\.client-[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  const requests: string[] = [];
  page.on('request', (r) => requests.push(`${r.method()} ${r.url()}`));
  // Sent to sign in from a signed-in page: the page to come back to is in the address.
  await page.goto('/login?next=%2Fprofile');
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña').fill(PASSWORD);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  // Nothing left without JavaScript: no GET with the password in the address, no plain POST.
  await page.waitForTimeout(300);
  await expect(page).toHaveURL(/\/login\?next=%2Fprofile$/);
  expect(requests.filter((r) => /\/login\?(?!next=%2Fprofile$)|^POST .*\/login/.test(r))).toEqual(
    [],
  );
  expect(requests.some((r) => r.includes(encodeURIComponent(PASSWORD)))).toBe(false);

  // Sent once hydrated, with the address's ?next= (the form gains it in a render after hydrating).
  release();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByTestId('user-name')).toHaveText('Marta Prisa');
  expect(errors).toEqual([]);
});

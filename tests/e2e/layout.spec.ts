import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { registerVerified, waitForHydration } from './helpers';

const PUBLIC_ENTRIES = [
  { name: 'Inicio', href: '/' },
  { name: 'Sobre nosotros', href: '/nosotros/1' },
  { name: 'Servicios', href: '/nosotros/2' },
  { name: 'Contacto', href: '/contacto' },
];

const ACCOUNT_ENTRIES = [
  { name: 'Inicio', href: '/dashboard' },
  { name: 'Nueva orden', href: '/placeorder' },
  { name: 'Añadir créditos', href: '/addfunds' },
  { name: 'Historial de órdenes', href: '/orderhistory' },
  { name: 'Soporte', href: '/soporte' },
  { name: 'Mi perfil', href: '/profile' },
];

const USER_MENU_ITEMS = ['Perfil', 'Añadir créditos', 'Historial', 'Soporte', 'Cerrar sesión'];

async function expectLinks(container: Locator, entries: { name: string; href: string }[]) {
  const links = container.getByRole('link');
  await expect(links).toHaveText(entries.map((e) => e.name));
  for (const [i, entry] of entries.entries())
    await expect(links.nth(i)).toHaveAttribute('href', entry.href);
}

/** Clicks a spot of the page that holds nothing (the left margin, below the header). */
async function clickEmptySpot(page: Page) {
  await page.mouse.click(4, 600);
}

const VIEWPORTS = [
  { width: 375, height: 800 },
  { width: 1280, height: 800 },
];

for (const viewport of VIEWPORTS) {
  const wide = viewport.width >= 1024;

  test.describe(`${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test('signed out: logo and the public navigation', async ({ page }) => {
      await page.goto('/nosotros/3');
      await waitForHydration(page);
      await expect(page.getByRole('link', { name: 'Cometa, ir al inicio' })).toHaveAttribute(
        'href',
        '/',
      );

      const row = page.getByRole('navigation', { name: 'Navegación principal', exact: true });
      const menuButton = page.getByRole('button', { name: 'Menú', exact: true });
      if (wide) {
        await expect(row).toBeVisible();
        await expectLinks(row, PUBLIC_ENTRIES);
        await expect(menuButton).toBeHidden();
        return;
      }

      await expect(row).toBeHidden();
      const drawer = page.getByRole('dialog', { name: 'Menú' });

      // Opens with the four entries; Escape closes it.
      await menuButton.click();
      await expect(drawer).toBeVisible();
      await expectLinks(
        drawer.getByRole('navigation', { name: 'Navegación principal (celular)' }),
        PUBLIC_ENTRIES,
      );
      await page.keyboard.press('Escape');
      await expect(drawer).toBeHidden();

      // A click on the overlay, outside the drawer, closes it.
      await menuButton.click();
      await expect(drawer).toBeVisible();
      await page.mouse.click(20, 400);
      await expect(drawer).toBeHidden();
      await expect(page).toHaveURL(/\/nosotros\/3$/);

      // Choosing an entry navigates and closes it.
      await menuButton.click();
      await drawer.getByRole('link', { name: 'Contacto' }).click();
      await expect(page).toHaveURL(/\/contacto$/);
      await expect(drawer).toBeHidden();
      await expect(page.getByRole('heading', { level: 1, name: 'Contacto' })).toBeVisible();
    });

    test('signed out: footer with year, terms link and "Volver arriba"', async ({ page }) => {
      await page.goto('/');
      await waitForHydration(page);
      const footer = page.getByRole('contentinfo');
      await expect(footer).toContainText(
        `© ${new Date().getFullYear()} Cometa. Todos los derechos reservados`,
      );
      await expect(footer.getByRole('link', { name: 'Términos y condiciones' })).toHaveAttribute(
        'href',
        '/terminosycondiciones',
      );

      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
      await footer.getByRole('button', { name: 'Volver arriba' }).click();
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    });

    test('signed in: logo, user menu, account navigation and no footer', async ({ page }) => {
      await registerVerified(page, 'lucía Fernández');
      // The menu is React's: pressed before hydration, a press is only replayed once.
      await waitForHydration(page);
      await expect(page.getByRole('link', { name: 'Cometa, ir al inicio' })).toHaveAttribute(
        'href',
        '/dashboard',
      );
      await expect(page.getByRole('contentinfo')).toHaveCount(0);

      const trigger = page.getByRole('button', { name: /Menú de usuario/ });
      await expect(trigger).toContainText('lucía Fernández');
      const saldo = trigger.getByText('Saldo: US$0.00');
      await expect(saldo).toBeVisible();
      await expect(saldo).toHaveAttribute('data-tone', 'warning');
      await expect(trigger.getByTestId('avatar')).toHaveText('L');

      // User menu: the four items; Escape closes it.
      const userMenu = page.getByRole('menu');
      await trigger.click();
      await expect(userMenu.getByRole('menuitem')).toHaveText(USER_MENU_ITEMS);
      await page.keyboard.press('Escape');
      await expect(userMenu).toBeHidden();

      // An outside click closes it.
      await trigger.click();
      await expect(userMenu).toBeVisible();
      await clickEmptySpot(page);
      await expect(userMenu).toBeHidden();
      await expect(page).toHaveURL(/\/dashboard$/);

      // Choosing an item navigates and closes it.
      await trigger.click();
      await userMenu.getByRole('menuitem', { name: 'Perfil' }).click();
      await expect(page).toHaveURL(/\/profile$/);
      await expect(userMenu).toBeHidden();
      await expect(page.getByRole('heading', { level: 1, name: 'Mi perfil' })).toBeVisible();
      await page.goto('/dashboard');
      await expect(page.getByRole('heading', { name: /^Hola,/ })).toBeVisible();

      // Secondary bar: a row on wide screens, a "Menú" dropdown on small ones.
      const bar = page.getByRole('navigation', { name: 'Menú de la cuenta' });
      const barTrigger = page.getByRole('button', { name: /^Menú(?! de usuario)/ });
      if (wide) {
        await expect(bar).toBeVisible();
        await expectLinks(bar, ACCOUNT_ENTRIES);
        await expect(barTrigger).toBeHidden();
        return;
      }

      await expect(bar).toBeHidden();
      const barMenu = page.getByRole('menu');
      await barTrigger.click();
      await expect(barMenu.getByRole('menuitem')).toHaveText(ACCOUNT_ENTRIES.map((e) => e.name));
      await page.keyboard.press('Escape');
      await expect(barMenu).toBeHidden();

      await barTrigger.click();
      await expect(barMenu).toBeVisible();
      await clickEmptySpot(page);
      await expect(barMenu).toBeHidden();
      await expect(page).toHaveURL(/\/dashboard$/);

      await barTrigger.click();
      await barMenu.getByRole('menuitem', { name: 'Mi perfil' }).click();
      await expect(page).toHaveURL(/\/profile$/);
      await expect(barMenu).toBeHidden();
      await expect(page.getByRole('heading', { level: 1, name: 'Mi perfil' })).toBeVisible();
      await expect(barTrigger).toContainText('Mi perfil');
    });

    test('a path change scrolls back to the top', async ({ page }) => {
      await page.goto('/terminosycondiciones');
      await waitForHydration(page);
      // Marks this document: a client-side navigation keeps the mark, a full load would not.
      await page.evaluate(
        () => ((window as unknown as { __marker: string }).__marker = 'same-document'),
      );
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(500);

      await page
        .getByRole('navigation', { name: 'Enlaces del pie de página' })
        .getByRole('link', { name: 'Contacto' })
        .click();
      await expect(page).toHaveURL(/\/contacto$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Contacto' })).toBeVisible();
      expect(await page.evaluate(() => (window as unknown as { __marker?: string }).__marker)).toBe(
        'same-document',
      );
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    });
  });
}

test.describe('keyboard', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('the user menu opens with Enter, moves with ArrowDown and closes with Escape', async ({
    page,
  }) => {
    await registerVerified(page);
    const trigger = page.getByRole('button', { name: /Menú de usuario/ });
    await trigger.focus();
    await expect(trigger).toBeFocused();
    await page.keyboard.press('Enter');

    const menu = page.getByRole('menu');
    await expect(menu).toBeVisible();
    await expect(menu.getByRole('menuitem', { name: 'Perfil' })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(menu.getByRole('menuitem', { name: 'Añadir créditos' })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(menu.getByRole('menuitem', { name: 'Historial', exact: true })).toBeFocused();

    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(trigger).toBeFocused();
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});

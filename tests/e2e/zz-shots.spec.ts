import { test } from '@playwright/test';
import { adminPage, sameOrigin } from './ordering';

for (const width of [1280, 375]) {
  test(`shots ${width}`, async ({ browser }) => {
    const admin = await adminPage(browser);
    await admin.setViewportSize({ width, height: 1000 });
    const res = await admin.request.get('/api/admin/suppliers', { headers: sameOrigin(admin) });
    const { items } = (await res.json()) as { items: Array<{ id: string }> };
    await admin.goto(`/admin/proveedores?catalogo=${items[0]?.id ?? ''}`);
    await admin.getByTestId('remote-services').waitFor();
    await admin.getByTestId('remote-services').getByRole('checkbox').first().check();
    await admin.getByLabel('Margen (%)').fill('15');
    await admin.screenshot({ path: `test-results/shots/prov-top-${width}.png` });
    await admin
      .getByTestId('supplier-catalogue')
      .screenshot({ path: `test-results/shots/prov-cat-${width}.png` });
    await admin
      .getByRole('button', { name: /^Editar / })
      .first()
      .click();
    await admin
      .getByRole('listitem')
      .filter({ has: admin.getByRole('heading', { level: 3 }) })
      .first()
      .screenshot({ path: `test-results/shots/prov-row-${width}.png` });
    await admin
      .getByRole('region', { name: 'Conectar proveedor' })
      .screenshot({ path: `test-results/shots/prov-connect-${width}.png` });
    await admin
      .getByRole('button', { name: /^Últimas llamadas/ })
      .first()
      .click();
    await admin.getByTestId('call-log').getByText('Petición y respuesta').first().click();
    await admin
      .getByTestId('call-log')
      .locator('li')
      .first()
      .screenshot({ path: `test-results/shots/calls-${width}.png` });
    await admin.goto('/admin/ordenes?status=todas');
    await admin.getByTestId('queue').waitFor();
    await admin.screenshot({ path: `test-results/shots/ordenes-${width}.png`, fullPage: true });
    await admin.goto('/admin/servicios');
    const row = admin
      .getByTestId('categoria-IMEI')
      .getByRole('listitem', { name: 'iPhone carrier + FMI check', exact: true });
    await row.getByRole('button', { name: /^Proveedores/ }).click();
    await row.getByLabel('Proveedor', { exact: true }).selectOption({ index: 1 });
    await row.getByRole('button', { name: /^Elegir del catálogo/ }).click();
    await row.getByText('Solo los que se venden').waitFor();
    await row.screenshot({ path: `test-results/shots/servicios-row-${width}.png` });
    await admin.context().close();
  });
}

import { expect, test } from './fixtures';
import { expectAccessible, registerVerified, waitForHydration, waitForMailTo } from './helpers';
import { adminPage, creditCustomer, placeImeiOrders, uniqueImei } from './ordering';

test('voucher top-up → IMEI order → the admin completes it → the result in the history and on the dashboard', async ({
  browser,
  page,
}) => {
  // The admin creates a US$5.00 voucher.
  const admin = await adminPage(browser);
  await admin.goto('/admin/pagos');
  const vouchers = admin.getByRole('region', { name: 'Códigos de recarga' });
  await vouchers.getByLabel('Importe por código').fill('5.00');
  await vouchers.getByLabel('Cantidad').fill('1');
  await vouchers.getByRole('button', { name: 'Crear códigos' }).click();
  const codes = vouchers.getByLabel(/Códigos generados/);
  await expect(codes).toHaveValue(/CMT-/);
  const code = (await codes.inputValue()).trim().split('\n')[0] ?? '';

  // The customer tops up with it and orders an IMEI check in the browser.
  const { email } = await registerVerified(page, 'Marta Quiroga');
  await page.goto('/addfunds');
  await page.getByLabel('Código de recarga').fill(code);
  await page.getByRole('button', { name: 'Canjear código' }).click();
  await expect(page.getByText('Código canjeado: se añadieron US$5.00 a tu saldo.')).toBeVisible();
  await expect(page.getByText('Saldo: US$5.00').first()).toBeVisible();

  const value = uniqueImei(1);
  await page.getByRole('link', { name: 'Nueva orden' }).first().click();
  await page.getByRole('link', { name: /Servicios IMEI/ }).click();
  await page.getByRole('button', { name: /Consulta IMEI completa/ }).click();
  await page.getByLabel('IMEI', { exact: true }).fill(value);
  await page.getByRole('button', { name: 'Confirmar orden (Total US$0.50)' }).click();
  const created = page.getByText(/Orden #\d+ creada: Consulta IMEI completa/);
  await expect(created).toBeVisible();
  const number = Number(/#(\d+)/.exec((await created.textContent()) ?? '')?.[1]);
  expect(number).toBeGreaterThan(0);
  await expect(page.getByText('Saldo: US$4.50').first()).toBeVisible();

  // The dashboard shows the held price and the pending order.
  await page.goto('/dashboard');
  await expect(page.getByTestId('dashboard-balance')).toHaveText('US$4.50');
  await expect(page.getByTestId('dashboard-held')).toHaveText('US$0.50');
  const latest = page
    .getByRole('listitem')
    .filter({ hasText: `#${number} · Consulta IMEI completa` });
  await expect(latest).toContainText('Pendiente');

  // The admin takes and completes it from the queue.
  await admin.goto('/admin/ordenes');
  const row = admin.getByRole('listitem', { name: `Orden #${number}` });
  await expect(row).toContainText(value);
  await row.getByRole('button', { name: /^Tomar/ }).click();
  await expect(row).toContainText('En proceso');
  await row.getByRole('button', { name: /^Completar/ }).click();
  await row.getByRole('button', { name: 'Confirmar' }).click();
  await expect(row.getByText('Escribe el resultado.')).toBeVisible();
  await row
    .getByLabel('Resultado (código o texto)')
    .fill('Operador: Movistar · Sin bloqueo · Garantía activa');
  await row.getByRole('button', { name: 'Confirmar' }).click();
  await expect(row).toContainText(`Orden #${number} completada. Avisamos al cliente por correo.`);

  // Later, a finished order is still found through the status filter, with its result.
  await admin.getByLabel('Estado').selectOption({ label: 'Completadas' });
  await admin.getByLabel('Número de orden o IMEI').fill(`#${number}`);
  await admin.getByRole('button', { name: 'Aplicar' }).click();
  await expect(admin).toHaveURL(/status=completed/);
  await expect(admin.getByRole('heading', { level: 2, name: 'Completadas' })).toBeVisible();
  const found = admin.getByTestId('queue').getByRole('listitem');
  await expect(found).toHaveCount(1);
  await expect(found).toContainText(
    'Resultado: Operador: Movistar · Sin bloqueo · Garantía activa',
  );
  await expect(found.getByRole('button')).toHaveCount(0);
  await admin.context().close();

  const mail = await waitForMailTo(email, new RegExp(`Orden #${number} completada`));
  expect(mail.text).toContain('Operador: Movistar · Sin bloqueo');

  // The customer sees the result in the history…
  await page.goto('/orderhistory');
  const item = page.getByTestId('orders').getByRole('listitem').first();
  await expect(item).toContainText(`#${number}`);
  await expect(item).toContainText('Completada');
  await item.getByRole('link').click();
  await expect(page.getByRole('dialog').getByTestId('order-result')).toHaveText(
    'Operador: Movistar · Sin bloqueo · Garantía activa',
  );
  await page.keyboard.press('Escape');

  // …and on the dashboard: nothing held any more, the order counted as completed.
  await page.goto('/dashboard');
  await expect(page.getByTestId('dashboard-balance')).toHaveText('US$4.50');
  await expect(page.getByTestId('dashboard-held')).toHaveText('US$0.00');
  await expect(
    page.getByRole('listitem').filter({ hasText: `#${number} · Consulta IMEI completa` }),
  ).toContainText('Completada');
  await expect(page.getByRole('link', { name: /^Completada\s*1$/ })).toBeVisible();
});

test('the admin rejects an order with a reason: the customer is refunded and reads why', async ({
  browser,
  page,
}) => {
  const { email } = await registerVerified(page, 'Óscar Beltrán');
  const admin = await adminPage(browser);
  await creditCustomer(admin, email, '1.00');
  const [placed] = await placeImeiOrders(page, [uniqueImei(2)]);
  if (!placed) throw new Error('order not placed');

  await admin.goto('/admin/ordenes');
  const row = admin.getByRole('listitem', { name: `Orden #${placed.number}` });
  await row.getByRole('button', { name: /^Rechazar/ }).click();
  await expect(row.getByText('El cliente lo verá y recibirá el reembolso.')).toBeVisible();
  await expectAccessible(admin);
  await row.getByLabel('Motivo del rechazo').fill('no');
  await row.getByRole('button', { name: 'Confirmar rechazo' }).click();
  await expect(row.getByText('Escribe el motivo (al menos 3 caracteres).')).toBeVisible();
  await expect(row.getByLabel('Motivo del rechazo')).toHaveAttribute('aria-invalid', 'true');
  await row.getByLabel('Motivo del rechazo').fill('El IMEI no corresponde a este operador');
  await row.getByRole('button', { name: 'Confirmar rechazo' }).click();
  await expect(row).toContainText(
    `Orden #${placed.number} rechazada. Devolvimos el importe al cliente.`,
  );
  await expect(row).toContainText('Rechazada');
  await expect(row.getByRole('button', { name: /^Completar/ })).toHaveCount(0);
  await admin.context().close();

  await waitForMailTo(email, /rechazada y reembolsada/);
  await page.goto('/orderhistory');
  await expect(page.getByText('Saldo: US$1.00').first()).toBeVisible();
  const item = page.getByTestId('orders').getByRole('listitem').first();
  await expect(item).toContainText('Rechazada');
  await item.getByRole('link').click();
  await expect(page.getByRole('dialog')).toContainText('El IMEI no corresponde a este operador');
});

test('bulk complete: pasted results are checked as typed, completed line by line, failures kept', async ({
  browser,
  page,
}) => {
  const { email } = await registerVerified(page, 'Nuria Salas');
  const admin = await adminPage(browser);
  await creditCustomer(admin, email, '2.00');
  const values = [uniqueImei(3), uniqueImei(4), uniqueImei(5)];
  const [a, b, c] = await placeImeiOrders(page, values);
  if (!a || !b || !c) throw new Error('orders not placed');

  await admin.goto('/admin/ordenes');
  await expect(admin.getByRole('heading', { name: 'Completar en bloque' })).toBeVisible();
  // Typed before hydration, the controlled box would lose the text to React's first render.
  await waitForHydration(admin);
  const box = admin.getByLabel('Resultados, uno por línea');
  await box.fill(
    [
      `#${a.number}\tCódigo: 111`,
      `${values[1] ?? ''} | Código: 222`,
      '#99999999 x',
      `#${c.number}`,
    ].join('\n'),
  );
  await expect(
    admin.getByText('4 líneas, 1 mal escrita. Revísalas para ver qué orden nombra cada una.'),
  ).toBeVisible();
  await expect(
    admin.getByText('Línea 4: Falta el resultado después de la referencia.'),
  ).toBeVisible();
  // Nothing is «ready» before the review: it shows which order each line names, and what happens.
  await admin.getByRole('button', { name: 'Revisar 3 líneas' }).click();
  const preview = admin.getByRole('table', { name: 'Vista previa: qué pasará con cada línea' });
  await expect(preview.getByRole('row').filter({ hasText: `#${a.number}` })).toContainText(
    'Nuria Salas',
  );
  await expect(preview).toContainText('No existe la orden #99999999.');
  await expect(
    admin.getByText(/^2 órdenes se completarán; 2 líneas no cambiarán nada\./),
  ).toBeVisible();
  await expectAccessible(admin);
  await admin.getByRole('button', { name: 'Completar 2 órdenes' }).click();

  await expect(
    admin.getByText(
      '2 órdenes completadas; avisamos a cada cliente por correo. 2 líneas no se completaron: quedan en el cuadro para corregirlas.',
    ),
  ).toBeVisible();
  const outcome = admin.getByRole('table', { name: 'Resultado de cada línea' });
  await expect(outcome.getByRole('row').filter({ hasText: `#${a.number}` })).toContainText(
    `Orden #${a.number} completada`,
  );
  await expect(outcome.getByRole('row').filter({ hasText: values[1] ?? '' })).toContainText(
    `Orden #${b.number} completada`,
  );
  await expect(outcome).toContainText('No existe la orden #99999999.');
  await expect(box).toHaveValue(`#99999999 x\n#${c.number}`);
  // The queue reloads: the completed orders left it, the other is still there.
  await expect(admin.getByRole('listitem', { name: `Orden #${a.number}` })).toHaveCount(0);
  await expect(admin.getByRole('listitem', { name: `Orden #${b.number}` })).toHaveCount(0);
  await expect(admin.getByRole('listitem', { name: `Orden #${c.number}` })).toBeVisible();
  await expectAccessible(admin);

  // The fixed line completes the last one.
  await box.fill(`#${c.number}: Código: 333`);
  await admin.getByRole('button', { name: 'Revisar 1 línea' }).click();
  await admin.getByRole('button', { name: 'Completar 1 orden' }).click();
  await expect(
    admin.getByText('1 orden completada; avisamos a cada cliente por correo.'),
  ).toBeVisible();
  await expect(box).toHaveValue('');

  // 375 px and 1280 px: the page does not overflow sideways.
  for (const width of [375, 1280]) {
    await admin.setViewportSize({ width, height: 900 });
    await admin.goto('/admin/ordenes');
    await expect(admin.getByLabel('Resultados, uno por línea')).toBeVisible();
    expect(
      await admin.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    ).toBe(true);
    await admin.screenshot({ path: `test-results/admin-ordenes-${width}.png`, fullPage: true });
  }
  await admin.context().close();

  await waitForMailTo(email, new RegExp(`Orden #${c.number} completada`));
  await page.goto('/orderhistory?status=completed');
  await expect(page.getByTestId('orders').getByRole('listitem')).toHaveCount(3);
  await expect(page.getByText('Saldo: US$0.50').first()).toBeVisible();
});

test('admin desk: home counts → badge → queue → select two with the keyboard → bulk reject with a saved reason → both refunded; 375 and 1280 px', async ({
  browser,
  page,
}) => {
  const { email } = await registerVerified(page, 'Irene Campos');
  const admin = await adminPage(browser, '/admin');
  await creditCustomer(admin, email, '1.00');
  const values = [uniqueImei(21), uniqueImei(22)];
  const [a, b] = await placeImeiOrders(page, values);
  if (!a || !b) throw new Error('orders not placed');
  const saved = await admin.request.post('/api/admin/snippets', {
    headers: { Origin: new URL(admin.url()).origin },
    data: { kind: 'reject_reason', title: 'Robado', body: 'El IMEI está reportado como robado.' },
  });
  expect(saved.status()).toBe(201);

  // The home counts what waits; the menu's badge says it too.
  await admin.goto('/admin');
  await expect(admin.getByRole('heading', { level: 1, name: 'Administración' })).toBeVisible();
  const pending = Number(await admin.getByTestId('overview-pending').textContent());
  expect(pending).toBeGreaterThanOrEqual(2);
  const nav = admin.getByRole('navigation', { name: 'Administración' });
  await expect(nav.getByTestId('badge-ordenes')).toContainText(/\d+/);
  await nav.getByRole('link', { name: /^Órdenes/ }).click();
  await expect(admin.getByRole('heading', { level: 1, name: 'Órdenes' })).toBeVisible();

  // Newest first: b, then a. x selects, j moves down.
  const boxB = admin.getByLabel(`Seleccionar la orden #${b.number}`);
  const boxA = admin.getByLabel(`Seleccionar la orden #${a.number}`);
  await boxB.focus();
  await admin.keyboard.press('x');
  await admin.keyboard.press('j');
  await expect(boxA).toBeFocused();
  await admin.keyboard.press('x');
  await expect(boxA).toBeChecked();
  await expect(boxB).toBeChecked();
  const bar = admin.getByRole('region', { name: 'Acciones en bloque' });
  await expect(bar).toContainText('2 órdenes seleccionadas');
  await bar.getByRole('button', { name: 'Rechazar', exact: true }).click();
  await bar.getByRole('button', { name: 'Robado' }).click();
  await expect(bar.getByLabel('Motivo del rechazo')).toHaveValue(
    'El IMEI está reportado como robado.',
  );
  await bar.getByRole('button', { name: 'Rechazar 2 órdenes' }).click();
  await expect(admin.getByText('2 órdenes rechazadas y reembolsadas.')).toBeVisible();

  // Both refunded: the customer's Saldo is whole again, and each order says why.
  const wallet = (await (await page.request.get('/api/wallet')).json()) as { available: string };
  expect(wallet.available).toBe('1.00');
  const order = (await (await page.request.get(`/api/orders/${a.id}`)).json()) as {
    status: string;
    rejectReason: string;
  };
  expect([order.status, order.rejectReason]).toEqual([
    'rejected',
    'El IMEI está reportado como robado.',
  ]);

  // The header's search takes an IMEI as people write it.
  const imei = values[0] ?? '';
  await admin
    .getByRole('search', { name: 'Buscar órdenes' })
    .getByLabel('Buscar orden o IMEI')
    .fill(`${imei.slice(0, 2)}-${imei.slice(2, 8)}-${imei.slice(8, 14)}-${imei.slice(14)}`);
  await admin.keyboard.press('Enter');
  await expect(admin).toHaveURL(new RegExp(`q=${imei}`));
  await expect(admin.getByRole('listitem', { name: `Orden #${a.number}` })).toContainText(
    'Rechazada',
  );

  for (const width of [375, 1280]) {
    await admin.setViewportSize({ width, height: 900 });
    for (const path of ['/admin', '/admin/ordenes?status=todas']) {
      await admin.goto(path);
      await expect(admin.getByRole('navigation', { name: 'Administración' })).toBeVisible();
      await expectAccessible(admin);
      expect(
        await admin.evaluate(() => document.documentElement.scrollWidth),
        `${path} at ${width} px`,
      ).toBeLessThanOrEqual(width);
    }
  }
  await admin.context().close();
});

test('the order queue is a desk screen: 25+ orders in view on a desktop, the toolbar on one line', async ({
  browser,
  page,
}) => {
  const { email } = await registerVerified(page, 'Tomás Denso');
  const admin = await adminPage(browser);
  await creditCustomer(admin, email, '20.00');
  await placeImeiOrders(
    page,
    Array.from({ length: 30 }, (_, i) => uniqueImei(400 + i)),
  );
  const inView = async () =>
    admin.evaluate(
      () =>
        [...document.querySelectorAll('[data-queue-row]')].filter(
          (row) => row.getBoundingClientRect().bottom <= window.innerHeight,
        ).length,
    );
  // A Full HD desktop shows 25 orders or more without scrolling; a 1280 × 900 laptop, 18.
  for (const [width, height, rows] of [
    [1920, 1080, 25],
    [1280, 900, 18],
  ] as const) {
    await admin.setViewportSize({ width, height });
    await admin.goto('/admin/ordenes');
    await expect(admin.getByRole('heading', { level: 1, name: 'Órdenes' })).toBeVisible();
    expect(await inView()).toBeGreaterThanOrEqual(rows);
    // The filters, «Aplicar» and «Actualizar» share one line above the list.
    const toolbar = admin.getByRole('search', { name: 'Filtrar órdenes' });
    const top = async (name: string) =>
      (await toolbar.getByRole('button', { name }).boundingBox())?.y ?? -1;
    expect(Math.abs((await top('Aplicar')) - (await top('Actualizar')))).toBeLessThan(4);
    await admin.screenshot({ path: `test-results/screens/queue-${width}.png` });
  }
  await expectAccessible(admin);
});

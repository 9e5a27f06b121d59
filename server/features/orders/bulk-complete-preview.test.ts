// Issue 20: «Completar en bloque» said «6 líneas listas» when one order did not exist and one was
// already done, and one error read «No hay ninguna orden con linea.». The preview now says, line
// by line, which order each line names and what completing it would do — on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BulkCompletePreview, BulkCompleteResult } from '../../../shared/bulk-results';
import type { AdminServiceDto } from '../../../shared/schemas/catalogue';
import type { OrderDto } from '../../../shared/schemas/orders';
import { imeiFor } from '../../../tests/setup/imei';
import {
  createTestApp,
  registerVerified,
  signInAdmin,
  userIdOf,
  type TestApp,
  type TestClient,
} from '../../../tests/setup/test-app';
import { dbTargets } from '../../../tests/setup/test-db';

async function body<T>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  expect(res.status, text.slice(0, 400)).toBe(status);
  return JSON.parse(text) as T;
}

describe.each(dbTargets())('bulk completion preview on %s', (target) => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof signInAdmin>>;
  let customer: { client: TestClient; email: string };
  let svc: AdminServiceDto;
  let seed = 0;

  async function place(): Promise<OrderDto> {
    seed += 1;
    return body<OrderDto>(
      await customer.client.post('/api/orders', {
        serviceId: svc.id,
        fields: { imei: imeiFor(`${Date.now() % 100_000}${String(seed).padStart(3, '0')}`) },
      }),
      201,
    );
  }

  beforeAll(async () => {
    t = await createTestApp(target);
    admin = await signInAdmin(t);
    svc = await body<AdminServiceDto>(
      await admin.client.post('/api/admin/services', {
        category: 'IMEI',
        name: 'Liberación por IMEI',
        description: 'Código de liberación.',
        deliveryTime: '1-24 horas',
        price: '1.00',
        fields: [{ key: 'imei', label: 'IMEI', type: 'imei', required: true, identifier: true }],
      }),
      201,
    );
    customer = await registerVerified(t, 'Carla Ruiz');
    const id = await userIdOf(t, customer.email);
    await body(
      await admin.client.post(`/api/admin/users/${id}/adjustments`, {
        amount: '20.00',
        reason: 'Saldo de prueba',
      }),
      201,
    );
  });
  afterAll(async () => {
    await t.close();
  });

  it('«Completar en bloque» preview: a real table of what each line does, not «6 líneas listas»', async () => {
    const [a, b, c, done] = [await place(), await place(), await place(), await place()];
    await body(await admin.client.post(`/api/admin/orders/${done.id}/complete`, { result: 'Ya' }));
    const imeiB = b.fields.imei ?? '';
    const spaced = `${imeiB.slice(0, 2)} ${imeiB.slice(2, 8)} ${imeiB.slice(8, 14)} ${imeiB.slice(14)}`;
    const text = [
      `#${a.number}\tCódigo 1111`,
      `${spaced} | Código 2222`,
      `#${c.number} Código 3333`,
      '#99999999 Código',
      `#${done.number} Código otra vez`,
      `${c.fields.imei ?? ''} Código repetido`,
    ].join('\n');
    const preview = await body<BulkCompletePreview>(
      await admin.client.post('/api/admin/orders/bulk-complete/preview', { text }),
    );
    expect({ ready: preview.ready, skipped: preview.skipped }).toEqual({ ready: 3, skipped: 3 });
    expect(preview.lines.map((l) => [l.line, l.action, l.order?.number ?? null])).toEqual([
      [1, 'complete', a.number],
      [2, 'complete', b.number],
      [3, 'complete', c.number],
      [4, 'skip', null],
      [5, 'skip', done.number],
      [6, 'skip', c.number],
    ]);
    expect(preview.lines[0]).toEqual({
      line: 1,
      reference: `#${a.number}`,
      action: 'complete',
      order: {
        id: a.id,
        number: a.number,
        customerEmail: customer.email,
        customerName: 'Carla Ruiz',
        serviceName: 'Liberación por IMEI',
        identifier: a.fields.imei,
        status: 'pending',
        statusLabel: 'Pendiente',
      },
      result: 'Código 1111',
      message: 'Se completará con el resultado «Código 1111» y se avisará al cliente.',
    });
    expect(preview.lines[1]?.reference).toBe(imeiB);
    expect(preview.lines[3]?.message).toBe('No existe la orden #99999999.');
    expect(preview.lines[4]).toMatchObject({
      result: null,
      message: `La orden #${done.number} ya está completada: no cambia nada.`,
      order: { statusLabel: 'Completada' },
    });
    expect(preview.lines[5]?.message).toBe(`La orden #${c.number} ya se completa en la línea 3.`);

    // Nothing changed: the orders are still pending.
    const still = await body<OrderDto>(await customer.client.get(`/api/orders/${a.id}`));
    expect(still.status).toBe('pending');

    // Completing the same text does what the preview said.
    const result = await body<BulkCompleteResult>(
      await admin.client.post('/api/admin/orders/bulk-complete', { text }),
    );
    expect(result.results.map((r) => [r.line, r.ok])).toEqual([
      [1, true],
      [2, true],
      [3, true],
      [4, false],
      [5, false],
      [6, false],
    ]);
    expect(result.completed).toBe(3);
  });

  it('a word where the order should be is explained, not «No hay ninguna orden con linea.»', async () => {
    const preview = await body<BulkCompletePreview>(
      await admin.client.post('/api/admin/orders/bulk-complete/preview', {
        text: 'linea resultado\nF2LXK0ABCDEF listo',
      }),
    );
    expect(preview.lines.map((l) => l.message)).toEqual([
      '«linea» no es un número de orden ni un IMEI, y ninguna orden tiene ese dato. Empieza la línea con el número de orden (#123) o el IMEI.',
      'No hay ninguna orden con el dato «F2LXK0ABCDEF».',
    ]);
    expect(preview.ready).toBe(0);
  });

  it('only admins may preview, and the body is checked like the completion', async () => {
    expect(
      (await customer.client.post('/api/admin/orders/bulk-complete/preview', { text: '#1 x' }))
        .status,
    ).toBe(403);
    const empty = await admin.client.post('/api/admin/orders/bulk-complete/preview', { text: ' ' });
    expect(empty.status).toBe(400);
  });
});

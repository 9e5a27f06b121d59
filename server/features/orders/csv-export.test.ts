// Issue 20, Contracts: `GET /api/orders/export.csv` (and every other CSV) answers the form a
// Spanish Excel opens as it is by default (BOM, `;`), and plain RFC 4180 with ?format=rfc4180.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderDto } from '../../../shared/schemas/orders';
import { order, service } from '../../db/schema/catalogue';
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

/** The body's bytes, and its text with a byte order mark kept (Response.text() drops it). */
async function download(res: Response): Promise<{ bytes: number[]; text: string }> {
  const bytes = new Uint8Array(await res.arrayBuffer());
  return {
    bytes: [...bytes],
    text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes),
  };
}

describe.each(dbTargets())('CSV exports on %s', (target) => {
  let t: TestApp;
  let c: TestClient;
  let placed: OrderDto;

  beforeAll(async () => {
    t = await createTestApp(target);
    const admin = await signInAdmin(t);
    const [svc] = await t.database.db
      .insert(service)
      .values({
        category: 'IMEI',
        name: 'Consulta de operador, «rápida»',
        description: 'Operador y bloqueo.',
        deliveryTime: '1–24 horas',
        price: 123_450n,
        fields: [{ key: 'imei', label: 'IMEI', type: 'imei', required: true, identifier: true }],
      })
      .returning({ id: service.id });
    const customer = await registerVerified(t);
    c = customer.client;
    const id = await userIdOf(t, customer.email);
    await admin.client.post(`/api/admin/users/${id}/adjustments`, {
      amount: '2000.00',
      reason: 'Saldo de prueba',
    });
    const res = await c.post('/api/orders', {
      serviceId: svc?.id,
      fields: { imei: imeiFor(`${Date.now() % 1_000_000}77`) },
    });
    expect(res.status).toBe(201);
    placed = (await res.json()) as OrderDto;
    // A known moment, to read it back in a zone.
    await t.database.db
      .update(order)
      .set({ createdAt: new Date('2026-11-24T13:50:00Z') })
      .where(eq(order.id, placed.id));
  });
  afterAll(async () => {
    await t.close();
  });

  it('GET /api/orders/export.csv answers the Spanish-Excel form by default: BOM, «;», local date-times, decimal comma, Spanish names', async () => {
    const res = await c.get('/api/orders/export.csv?tz=America/Mexico_City');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="ordenes.csv"');
    const { bytes, text } = await download(res);
    expect(bytes.slice(0, 3)).toEqual([0xef, 0xbb, 0xbf]);
    expect(text.split('\r\n')).toEqual([
      '\uFEFFNúmero;Fecha;Servicio;Categoría;Cantidad;Datos;Importe (USD);Estado;Resultado',
      `${placed.number};24/11/2026 07:50;"Consulta de operador, «rápida»";Servicios IMEI;1;imei=${placed.fields.imei};"1234,50";Pendiente;`,
      '',
    ]);
    // Without a zone, the times are UTC and the column says so.
    const utc = await download(await c.get('/api/orders/export.csv'));
    expect(utc.text.split('\r\n')[0]).toBe(
      '\uFEFFNúmero;Fecha (UTC);Servicio;Categoría;Cantidad;Datos;Importe (USD);Estado;Resultado',
    );
    expect(utc.text.split('\r\n')[1]).toContain(';24/11/2026 13:50;');
  });

  it('?format=rfc4180 gives plain RFC 4180 for scripts: commas, no BOM, ISO times, the API’s codes', async () => {
    const res = await c.get('/api/orders/export.csv?format=rfc4180&tz=America/Mexico_City');
    expect(res.status).toBe(200);
    const { bytes, text } = await download(res);
    expect(bytes[0]).toBe('n'.charCodeAt(0));
    expect(text.split('\r\n')).toEqual([
      'numero,fecha,servicio,categoria,cantidad,datos,importe,estado,resultado',
      `${placed.number},2026-11-24T13:50:00.000Z,"Consulta de operador, «rápida»",IMEI,1,imei=${placed.fields.imei},1234.50,Pendiente,`,
      '',
    ]);
  });

  it('refuses an unknown format or zone in Spanish', async () => {
    for (const query of ['format=xlsx', 'tz=Marte/Olympus', 'tz=../../etc']) {
      const res = await c.get(`/api/orders/export.csv?${query}`);
      expect(res.status, query).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe('VALIDATION_FAILED');
    }
  });
});

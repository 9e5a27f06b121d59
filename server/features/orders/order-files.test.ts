// File fields: an admin adds one to a service, a customer uploads the file and orders with it,
// the file is checked (size, extension, content), taken by one order only, and downloaded only
// by its owner and admins, always as an attachment. On both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminServiceDto } from '../../../shared/schemas/catalogue';
import type { OrderDto } from '../../../shared/schemas/orders';
import type { UploadedOrderFile } from '../../../shared/schemas/order-files';
import { fundedCustomer, json, supplierKit, type Kit } from '../../../tests/setup/suppliers';
import type { TestClient } from '../../../tests/setup/test-app';
import { dbTargets } from '../../../tests/setup/test-db';
import { rawRequest } from '../../security/api-surface';

const ZIP = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(60, 7)]);

describe.each(dbTargets())('file fields on %s', (target) => {
  let kit: Kit;
  let svc: AdminServiceDto;

  async function upload(
    client: TestClient,
    file: File,
    fields: { serviceId?: string; field?: string } = {},
  ): Promise<Response> {
    const form = new FormData();
    form.append('serviceId', fields.serviceId ?? svc.id);
    form.append('field', fields.field ?? 'volcado');
    form.append('file', file);
    return rawRequest(kit.t, { method: 'POST', url: '/api/order-files', as: client, body: form });
  }

  beforeAll(async () => {
    kit = await supplierKit(target);
    svc = await json<AdminServiceDto>(
      await kit.admin.client.post('/api/admin/services', {
        category: 'unlock',
        name: 'Reparación de firmware por archivo',
        description: 'Sube el volcado del equipo.',
        deliveryTime: '1-2 horas',
        price: '3.00',
        fields: [
          {
            key: 'volcado',
            label: 'Volcado',
            type: 'file',
            required: true,
            maxBytes: 1024,
            extensions: ['.BIN', 'zip'],
          },
          { key: 'modelo', label: 'Modelo', type: 'text', required: false },
        ],
      }),
      201,
    );
  });
  afterAll(async () => {
    await kit?.close();
  });

  it('an admin defines a file field with its limits; at most one, never the identifier', async () => {
    expect(svc.fields[0]).toEqual({
      key: 'volcado',
      label: 'Volcado',
      type: 'file',
      required: true,
      maxBytes: 1024,
      extensions: ['bin', 'zip'],
    });
    const base = {
      category: 'unlock',
      name: 'Dos archivos',
      description: 'x',
      deliveryTime: '1 hora',
      price: '1.00',
    };
    const two = await json<{ fields: Record<string, string> }>(
      await kit.admin.client.post('/api/admin/services', {
        ...base,
        fields: [
          { key: 'a', label: 'A', type: 'file', required: true },
          { key: 'b', label: 'B', type: 'file', required: true },
        ],
      }),
      400,
    );
    expect(JSON.stringify(two.fields)).toContain('como máximo un archivo');
    const identifier = await json<{ fields: Record<string, string> }>(
      await kit.admin.client.post('/api/admin/services', {
        ...base,
        fields: [{ key: 'a', label: 'A', type: 'file', required: true, identifier: true }],
      }),
      400,
    );
    expect(JSON.stringify(identifier.fields)).toContain('no puede ser el identificador');
    const tooBig = await json<{ fields: Record<string, string> }>(
      await kit.admin.client.post('/api/admin/services', {
        ...base,
        fields: [
          { key: 'a', label: 'A', type: 'file', required: true, maxBytes: 21 * 1024 * 1024 },
        ],
      }),
      400,
    );
    expect(JSON.stringify(tooBig.fields)).toContain('no puede pasar de');
  });

  it('uploads, orders with the file, and lets only the owner and admins download it', async () => {
    const ana = await fundedCustomer(kit, '10.00');
    const res = await upload(ana.client, new File([ZIP], 'Volcado «final».ZIP'));
    const up = await json<UploadedOrderFile>(res, 201);
    expect(up).toMatchObject({
      fieldKey: 'volcado',
      name: 'Volcado «final».ZIP',
      size: ZIP.length,
    });
    const placed = await json<OrderDto>(
      await ana.client.post('/api/orders', { serviceId: svc.id, fields: { volcado: up.id } }),
      201,
    );
    expect(placed.fields).toEqual({ volcado: up.id });
    const detail = await json<OrderDto>(await ana.client.get(`/api/orders/${placed.id}`), 200);
    expect(detail.files).toEqual([
      { id: up.id, fieldKey: 'volcado', name: 'Volcado «final».ZIP', size: ZIP.length },
    ]);
    const adminDetail = await json<OrderDto>(
      await kit.admin.client.get(`/api/admin/orders/${placed.id}`),
      200,
    );
    expect(adminDetail.files?.[0]?.id).toBe(up.id);

    const download = await ana.client.get(`/api/orders/${placed.id}/files/${up.id}`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/octet-stream');
    expect(download.headers.get('content-disposition')).toMatch(/^attachment; filename="/);
    expect(download.headers.get('content-security-policy')).toContain('sandbox');
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await download.arrayBuffer())).toEqual(ZIP);
    const asAdmin = await kit.admin.client.get(`/api/admin/orders/${placed.id}/files/${up.id}`);
    expect(asAdmin.status).toBe(200);
    expect(Buffer.from(await asAdmin.arrayBuffer())).toEqual(ZIP);

    // Someone else: as if it did not exist, on their path and with the owner's order id.
    const luis = await fundedCustomer(kit, '10.00');
    expect((await luis.client.get(`/api/orders/${placed.id}/files/${up.id}`)).status).toBe(404);
    // The admin's own customer path only shows the admin's orders.
    expect((await kit.admin.client.get(`/api/orders/${placed.id}/files/${up.id}`)).status).toBe(
      404,
    );

    // One file, one order: using it again is refused, and nothing is charged.
    const again = await json<{ fields: Record<string, string> }>(
      await ana.client.post('/api/orders', { serviceId: svc.id, fields: { volcado: up.id } }),
      400,
    );
    expect(again.fields.volcado).toMatch(/ya se usara en otra orden/);
    // Nor can another customer order with Ana's upload.
    const mine = await json<UploadedOrderFile>(
      await upload(ana.client, new File([ZIP], 'b.zip')),
      201,
    );
    const stolen = await json<{ fields: Record<string, string> }>(
      await luis.client.post('/api/orders', { serviceId: svc.id, fields: { volcado: mine.id } }),
      400,
    );
    expect(stolen.fields.volcado).toMatch(/No encontramos ese archivo/);
    // Without a file: the field's own message.
    const none = await json<{ fields: Record<string, string> }>(
      await ana.client.post('/api/orders', { serviceId: svc.id, fields: {} }),
      400,
    );
    expect(none.fields.volcado).toBe('Este campo es obligatorio.');
    const notAnId = await json<{ fields: Record<string, string> }>(
      await ana.client.post('/api/orders', { serviceId: svc.id, fields: { volcado: 'a.zip' } }),
      400,
    );
    expect(notAnId.fields.volcado).toBe('Sube el archivo.');
  });

  it('refuses files over the limit, of another extension, or whose content is not what the name says', async () => {
    const ana = await fundedCustomer(kit, '1.00');
    const refused = async (file: File, fields: { serviceId?: string; field?: string } = {}) => {
      const res = await upload(ana.client, file, fields);
      return {
        status: res.status,
        body: (await res.json()) as { message: string; fields?: Record<string, string> },
      };
    };
    const big = await refused(new File([Buffer.alloc(1025, 1)], 'grande.bin'));
    expect(big).toMatchObject({
      status: 400,
      body: { fields: { file: 'El archivo es demasiado grande (máximo 1 KB).' } },
    });
    const ext = await refused(new File([Buffer.from('hola')], 'nota.txt'));
    expect(ext.body.fields?.file).toBe('Este servicio solo acepta archivos .bin, .zip.');
    const fakeZip = await refused(new File([Buffer.from('esto no es un zip')], 'falso.zip'));
    expect(fakeZip.body.fields?.file).toBe(
      'El contenido del archivo no corresponde a su extensión (.zip).',
    );
    const program = await refused(
      new File([Buffer.concat([Buffer.from('MZ'), Buffer.alloc(30)])], 'firmware.bin'),
    );
    expect(program.body.fields?.file).toMatch(/es un programa/);
    const empty = await refused(new File([], 'vacio.bin'));
    expect(empty.status).toBe(400);
    const wrongField = await refused(new File([ZIP], 'a.zip'), { field: 'modelo' });
    expect(wrongField.body.fields?.field).toMatch(/no pide un archivo/);
    const unknown = await refused(new File([ZIP], 'a.zip'), {
      serviceId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.status).toBe(404);
    // A body far over the largest file is refused before it is read.
    const huge = await refused(new File([Buffer.alloc(21 * 1024 * 1024)], 'enorme.bin'));
    expect(huge.status).toBe(413);
    // The text fields alone, as JSON: the file is missing.
    const json = await ana.client.post('/api/order-files', { serviceId: svc.id, field: 'volcado' });
    expect(json.status).toBe(400);
  });
});

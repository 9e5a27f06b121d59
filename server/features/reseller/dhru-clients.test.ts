// Our DHRU Fusion server against what real DHRU client software sends, byte for byte: Dhru's
// 2012 "client remote API" PHP kit (PHP cURL with an array of fields, so multipart/form-data;
// `parameters` built with DOMDocument::saveHTML, keys upper-cased, null values as empty
// elements, "\n" when there are none) and a DHRU Fusion panel's supplier module "Other Fusion 50
// (Bulk Support)" (`customfield` = base64 of json_encode($customfields), which is base64 of
// `null` for a service without custom fields; bulks as base64 JSON of a PHP array, a list when
// it is 0-indexed). On both databases.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedApiKey } from '../../../shared/schemas/api-keys';
import type { AdminServiceDto } from '../../../shared/schemas/catalogue';
import { order } from '../../db/schema/catalogue';
import { imeiFor } from '../../../tests/setup/imei';
import { fundedCustomer, json, supplierKit, type Kit } from '../../../tests/setup/suppliers';
import { dbTargets } from '../../../tests/setup/test-db';
import { createDhruAdapter } from '../../suppliers/dhru';
import type { SupplierConnection } from '../../suppliers/types';
import { balances } from '../ledger/ledger.service';

let seq = 0;
function nextImei(): string {
  seq += 1;
  return imeiFor(`${(Date.now() % 1_000_000) + 500_000}${String(seq).padStart(4, '0')}`);
}

/** base64 of a JSON value, as PHP's base64_encode(json_encode($value)). */
function b64json(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64');
}

/**
 * `parameters` as the PHP kit builds it: DOMDocument with a PARAMETERS root, one element per
 * key (upper-cased), saveHTML(); a null value is an empty element, and no parameters at all is
 * an empty document, which saveHTML writes as "\n".
 */
function kitXml(params: Record<string, string | null>): string {
  const entries = Object.entries(params);
  if (entries.length === 0) return '\n';
  const escape = (v: string) =>
    v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const body = entries
    .map(([k, v]) => `<${k.toUpperCase()}>${v === null ? '' : escape(v)}</${k.toUpperCase()}>`)
    .join('');
  return `<PARAMETERS>${body}</PARAMETERS>\n`;
}

/** What the Fusion 50 module puts in one order (single or a bulk row) for an IMEI service. */
function fusion50Row(id: number, imei: string, custom: Record<string, string> | null = null) {
  return {
    customfield: b64json(custom),
    ID: String(id),
    IMEI: imei,
    QNT: null,
    SERVER: null,
    MODELID: null,
    PROVIDERID: null,
    Network: null,
    PIN: null,
    KBH: null,
    MEP: null,
    PRD: null,
    TYPE: null,
    LOCKS: null,
    REFERENCE: null,
    SN: null,
    SecRO: null,
  };
}

type Envelope = {
  SUCCESS?: Record<string, unknown>[];
  ERROR?: { MESSAGE: string; FULL_DESCRIPTION?: string }[];
  apiversion?: string;
};

describe.each(dbTargets())('real DHRU clients on %s', (target) => {
  let kit: Kit;
  let imeiService: AdminServiceDto;
  let licence: AdminServiceDto;

  async function reseller(amount = '50.00') {
    const customer = await fundedCustomer(kit, amount);
    const created = await json<CreatedApiKey>(
      await customer.client.post('/api/keys', { name: 'Panel DHRU' }),
      201,
    );
    return { ...customer, key: created.key };
  }

  /** PHP cURL with CURLOPT_POSTFIELDS = array(...): multipart/form-data. */
  async function postMultipart(fields: Record<string, string>) {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    return kit.t.app.request('/api/index.php', {
      method: 'POST',
      headers: { 'x-cometa-client-ip': '203.0.113.10' },
      body: form,
    });
  }

  /** PHP cURL with http_build_query(...): application/x-www-form-urlencoded. */
  async function postUrlencoded(fields: Record<string, string>) {
    return kit.t.app.request('/api/index.php', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        'x-cometa-client-ip': '203.0.113.10',
      },
      body: new URLSearchParams(fields).toString(),
    });
  }

  async function call(
    r: { email: string; key: string },
    action: string,
    parameters: string | undefined,
    send: typeof postMultipart = postMultipart,
  ): Promise<Envelope & Record<string, unknown>> {
    const fields: Record<string, string> = {
      username: r.email,
      apiaccesskey: r.key,
      action,
      requestformat: 'JSON',
    };
    if (parameters !== undefined) fields.parameters = parameters;
    const res = await send(fields);
    expect(res.status).toBe(200);
    return (await res.json()) as Envelope & Record<string, unknown>;
  }

  async function createService(body: Record<string, unknown>): Promise<AdminServiceDto> {
    return json<AdminServiceDto>(
      await kit.admin.client.post('/api/admin/services', {
        description: 'Servicio para clientes DHRU.',
        deliveryTime: '1-24 horas',
        ...body,
      }),
      201,
    );
  }

  beforeAll(async () => {
    kit = await supplierKit(target);
    imeiService = await createService({
      category: 'unlock',
      name: 'Liberación por IMEI (DHRU)',
      price: '0.50',
      fields: [{ key: 'imei', label: 'IMEI', type: 'imei', required: true, identifier: true }],
    });
    licence = await createService({
      category: 'licenses',
      name: 'Créditos de herramienta (DHRU)',
      price: '2.00',
      fields: [
        { key: 'username', label: 'Usuario', type: 'username', required: true, identifier: true },
      ],
    });
  });
  afterAll(async () => {
    await kit?.close();
  });

  describe("what Dhru's PHP kit sends (multipart, XML from DOMDocument)", () => {
    it('answers every action with JSON in UTF-8, the DHRU headers and the usual types', async () => {
      const r = await reseller('20.00');
      const res = await postMultipart({
        username: r.email,
        apiaccesskey: r.key,
        action: 'accountinfo',
        requestformat: 'JSON',
        parameters: kitXml({}),
      });
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.headers.get('x-powered-by')).toBe('DHRU-FUSION');
      expect(await res.json()).toEqual({
        SUCCESS: [
          {
            message: 'Your Accout Info',
            AccoutInfo: {
              credit: '$20.00',
              creditraw: '20.00',
              creditlimit: '0.00',
              currency: 'USD',
              mail: r.email,
            },
            AccountInfo: {
              credit: '$20.00',
              creditraw: '20.00',
              creditlimit: '0.00',
              currency: 'USD',
              mail: r.email,
            },
          },
        ],
        apiversion: '6.1',
      });

      const list = await call(r, 'imeiservicelist', kitXml({}));
      const groups = list.SUCCESS?.[0]?.LIST as Record<
        string,
        { GROUPNAME: string; GROUPTYPE: string; SERVICES: Record<string, Record<string, unknown>> }
      >;
      const entry = groups['Desbloqueo']?.SERVICES[String(imeiService.number)];
      expect(groups['Desbloqueo']).toMatchObject({ GROUPNAME: 'Desbloqueo', GROUPTYPE: 'IMEI' });
      expect(entry).toEqual({
        SERVICEID: String(imeiService.number),
        SERVICETYPE: 'IMEI',
        SERVICENAME: 'Liberación por IMEI (DHRU)',
        CREDIT: '0.50',
        TIME: '1-24 horas',
        INFO: 'Servicio para clientes DHRU.',
        SERVER: '0',
        QNT: '0',
        QNTOPTIONS: '',
        MINQNT: 0,
        MAXQNT: 0,
        CUSTOM: {
          allow: '0',
          bulk: '1',
          customname: '',
          custominfo: '',
          customlen: '',
          maxlength: '',
          regex: '',
          isalpha: '0',
        },
        'Requires.Network': 'None',
        'Requires.Mobile': 'None',
        'Requires.Provider': 'None',
        'Requires.PIN': 'None',
        'Requires.KBH': 'None',
        'Requires.MEP': 'None',
        'Requires.PRD': 'None',
        'Requires.Type': 'None',
        'Requires.Locks': 'None',
        'Requires.Reference': 'None',
        'Requires.SN': 'None',
        'Requires.SecRO': 'None',
        'Requires.Custom': [],
      });
      const lic = groups['Licencias']?.SERVICES[String(licence.number)];
      expect(lic).toMatchObject({
        SERVICETYPE: 'SERVER',
        SERVER: '1',
        CUSTOM: { bulk: '0' },
        'Requires.Custom': [
          {
            type: 'server',
            fieldname: 'username',
            fieldtype: 'text',
            description: 'Usuario',
            fieldoptions: '',
            required: 'on',
            regexpr: '',
            adminonly: '',
            enc: '',
          },
        ],
      });

      const details = await call(
        r,
        'getimeiservicedetails',
        kitXml({ ID: String(imeiService.number) }),
      );
      expect(details.SUCCESS?.[0]).toEqual({
        MESSAGE: 'Service Details',
        LIST: {
          service_name: entry?.SERVICENAME,
          assigned_model: '',
          assigned_provider: '',
          ...entry,
        },
      });
      for (const [action, message] of [
        ['modellist', 'Model List'],
        ['providerlist', 'Provider List'],
        ['meplist', 'MEP List'],
      ] as const) {
        const params: Record<string, string> =
          action === 'meplist' ? {} : { ID: String(imeiService.number) };
        expect(await call(r, action, kitXml(params)), action).toEqual({
          SUCCESS: [{ MESSAGE: message, LIST: [] }],
          apiversion: '6.1',
        });
      }
      expect(await call(r, 'modellist', kitXml({ ID: '999999' }))).toMatchObject({
        ERROR: [{ MESSAGE: 'Invalid Service ID' }],
      });

      const imei = nextImei();
      const placed = await call(
        r,
        'placeimeiorder',
        kitXml({
          IMEI: imei,
          ID: String(imeiService.number),
          MODELID: null,
          PROVIDERID: null,
          MEP: null,
          PIN: null,
          KBH: null,
          PRD: null,
          TYPE: null,
          REFERENCE: null,
          LOCKS: null,
        }),
      );
      const reference = String(placed.SUCCESS?.[0]?.REFERENCEID);
      expect(placed).toEqual({
        SUCCESS: [{ MESSAGE: 'Order received', REFERENCEID: reference }],
        apiversion: '6.1',
      });
      expect(await call(r, 'getimeiorder', kitXml({ ID: reference }))).toEqual({
        SUCCESS: [{ STATUS: 0, CODE: '', IMEI: imei, COMMENTS: 'Pendiente' }],
        apiversion: '6.1',
      });
      const [row] = await kit.t.database.db
        .select()
        .from(order)
        .where(eq(order.number, Number(reference)));
      await json(
        await kit.admin.client.post(`/api/admin/orders/${row?.id}/complete`, {
          result: 'Código: 12345678\nOperador: AT&T <USA>',
        }),
        200,
      );
      expect(await call(r, 'getimeiorder', kitXml({ ID: reference }))).toEqual({
        SUCCESS: [
          {
            STATUS: 4,
            CODE: 'Código: 12345678<br>Operador: AT&amp;T &lt;USA&gt;',
            IMEI: imei,
            COMMENTS: 'Completada',
          },
        ],
        apiversion: '6.1',
      });
    });
  });

  describe('what a DHRU panel sends (Other Fusion 50, bulk support)', () => {
    it('syncs, orders one and in bulk (object and list), and reads statuses one and in bulk', async () => {
      const r = await reseller('10.00');
      // The sync: account, services, then the lists a service may need, all as the kit sends them.
      for (const action of ['accountinfo', 'imeiservicelist', 'meplist']) {
        const body = await call(r, action, kitXml({}), postUrlencoded);
        expect(body.SUCCESS, action).toHaveLength(1);
      }
      for (const action of ['modellist', 'providerlist', 'getimeiservicedetails']) {
        const body = await call(r, action, kitXml({ ID: String(licence.number) }), postUrlencoded);
        expect(body.SUCCESS, action).toHaveLength(1);
      }
      // One order, with the custom fields of a service that has some.
      const single = await call(
        r,
        'placeimeiorder',
        kitXml({
          ...fusion50Row(licence.number, ''),
          customfield: b64json({ username: 'ana_50' }),
        }),
        postUrlencoded,
      );
      const singleRef = String(single.SUCCESS?.[0]?.REFERENCEID);
      expect(singleRef).toMatch(/^\d+$/);
      // Bulk as an object keyed by the panel's own order ids, and as a list.
      const keyed = await call(
        r,
        'placeimeiorderbulk',
        b64json({
          '1501': fusion50Row(imeiService.number, nextImei()),
          '1502': fusion50Row(licence.number, '', { username: 'luis_50' }),
        }),
        postUrlencoded,
      );
      const listed = await call(
        r,
        'placeimeiorderbulk',
        b64json([fusion50Row(imeiService.number, nextImei())]),
        postUrlencoded,
      );
      const refs = [
        (keyed['1501'] as Envelope).SUCCESS?.[0]?.REFERENCEID,
        (keyed['1502'] as Envelope).SUCCESS?.[0]?.REFERENCEID,
        (listed['0'] as Envelope).SUCCESS?.[0]?.REFERENCEID,
      ].map(String);
      for (const ref of refs) expect(ref).toMatch(/^\d+$/);
      const one = await call(r, 'getimeiorder', kitXml({ ID: singleRef }), postUrlencoded);
      expect(one.SUCCESS?.[0]).toEqual({
        STATUS: 0,
        CODE: '',
        IMEI: 'ana_50',
        COMMENTS: 'Pendiente',
      });
      const byKey = await call(
        r,
        'getimeiorderbulk',
        b64json({ '1501': { ID: refs[0] }, '1502': { ID: refs[1] } }),
        postUrlencoded,
      );
      expect(byKey).toMatchObject({
        '1501': { SUCCESS: [{ STATUS: 0, CODE: '', COMMENTS: 'Pendiente' }] },
        '1502': { SUCCESS: [{ STATUS: 0, CODE: '', IMEI: 'luis_50' }] },
        apiversion: '6.1',
      });
      const byIndex = await call(r, 'getimeiorderbulk', b64json([{ ID: refs[2] }]), postUrlencoded);
      expect(byIndex).toMatchObject({ 0: { SUCCESS: [{ STATUS: 0 }] }, apiversion: '6.1' });
      expect(await balances(kit.t.database.db, r.id)).toEqual({ available: 500n, held: 500n });
    });
  });

  describe('file services (the PHP kit and a Fusion panel module)', () => {
    it('lists file services apart, takes a file order with FILENAME and FILEDATA, and answers getfileorder', async () => {
      const firmware = await createService({
        category: 'unlock',
        name: 'Desbloqueo por volcado (DHRU)',
        price: '1.50',
        fields: [
          {
            key: 'volcado',
            label: 'Volcado',
            type: 'file',
            required: true,
            maxBytes: 4096,
            extensions: ['bin'],
          },
        ],
      });
      const r = await reseller('5.00');
      const files = await call(r, 'fileservicelist', kitXml({}));
      const groups = files.SUCCESS?.[0]?.LIST as Record<
        string,
        { SERVICES: Record<string, Record<string, unknown>> }
      >;
      expect(files.SUCCESS?.[0]?.MESSAGE).toBe('File Service List');
      expect(groups['Desbloqueo']?.SERVICES[String(firmware.number)]).toMatchObject({
        SERVICEID: String(firmware.number),
        SERVICETYPE: 'FILE',
        SERVICENAME: 'Desbloqueo por volcado (DHRU)',
        CREDIT: '1.50',
        TIME: '1-24 horas',
        INFO: 'Servicio para clientes DHRU.<br>Archivo: .bin; máximo 4 KB.',
        'Requires.Custom': [],
      });
      // Not an IMEI service: not listed there, and placeimeiorder cannot order it.
      const imeiList = JSON.stringify(await call(r, 'imeiservicelist', kitXml({})));
      expect(imeiList).not.toContain('Desbloqueo por volcado');
      expect(
        await call(r, 'placeimeiorder', kitXml({ ID: String(firmware.number), IMEI: nextImei() })),
      ).toMatchObject({ ERROR: [{ MESSAGE: 'Invalid Service ID' }] });

      // The kit: place_file_order.php, multipart, XML.
      const bytes = Buffer.from('VOLCADO DE PRUEBA 0001\n');
      const placed = await call(
        r,
        'placefileorder',
        kitXml({
          ID: String(firmware.number),
          FILENAME: 'equipo-7.bin',
          FILEDATA: bytes.toString('base64'),
        }),
      );
      const reference = String(placed.SUCCESS?.[0]?.REFERENCEID);
      expect(placed).toEqual({
        SUCCESS: [{ MESSAGE: 'Order received', REFERENCEID: reference }],
        apiversion: '6.1',
      });
      expect(await call(r, 'getfileorder', kitXml({ ID: reference }))).toEqual({
        SUCCESS: [{ STATUS: 0, CODE: '', COMMENTS: 'Pendiente' }],
        apiversion: '6.1',
      });
      // The order carries the file, downloadable by its owner.
      const [row] = await kit.t.database.db
        .select()
        .from(order)
        .where(eq(order.number, Number(reference)));
      expect(row).toMatchObject({ source: 'dhru', price: 150n });
      const detail = await json<{ files: { id: string; name: string; size: number }[] }>(
        await r.client.get(`/api/orders/${row?.id}`),
        200,
      );
      expect(detail.files).toMatchObject([
        { fieldKey: 'volcado', name: 'equipo-7.bin', size: bytes.length },
      ]);
      const download = await r.client.get(`/api/orders/${row?.id}/files/${detail.files[0]?.id}`);
      expect(Buffer.from(await download.arrayBuffer())).toEqual(bytes);

      // A Fusion panel's module: urlencoded, the same XML; then it reads the status.
      const fromPanel = await call(
        r,
        'placefileorder',
        kitXml({
          ID: String(firmware.number),
          FILENAME: 'ORDERID31.bin',
          FILEDATA: bytes.toString('base64'),
        }),
        postUrlencoded,
      );
      const panelRef = String(fromPanel.SUCCESS?.[0]?.REFERENCEID);
      await json(
        await kit.admin.client.post(
          `/api/admin/orders/${
            (
              await kit.t.database.db
                .select()
                .from(order)
                .where(eq(order.number, Number(panelRef)))
            )[0]?.id
          }/complete`,
          { result: 'Código: 55-AA' },
        ),
        200,
      );
      expect(await call(r, 'getfileorder', kitXml({ ID: panelRef }), postUrlencoded)).toEqual({
        SUCCESS: [{ STATUS: 4, CODE: 'Código: 55-AA', COMMENTS: 'Completada' }],
        apiversion: '6.1',
      });

      // Refusals, each in DHRU words with ours in full; nothing charged, nothing kept.
      const refusal = async (params: Record<string, string | null>) =>
        (await call(r, 'placefileorder', kitXml(params))).ERROR?.[0];
      expect(
        await refusal({
          ID: String(firmware.number),
          FILENAME: 'x.zip',
          FILEDATA: bytes.toString('base64'),
        }),
      ).toEqual({
        MESSAGE: 'Invalid File',
        FULL_DESCRIPTION: 'Este servicio solo acepta archivos .bin.',
      });
      expect(
        await refusal({ ID: String(firmware.number), FILENAME: 'x.bin', FILEDATA: '%%%' }),
      ).toMatchObject({ MESSAGE: 'Invalid parameters' });
      expect(
        await refusal({
          ID: String(firmware.number),
          FILENAME: 'x.bin',
          FILEDATA: Buffer.alloc(5000, 1).toString('base64'),
        }),
      ).toMatchObject({
        MESSAGE: 'Invalid File',
        FULL_DESCRIPTION: 'El archivo es demasiado grande (máximo 4 KB).',
      });
      // The kit drops a name with "&" (DOMDocument): an empty FILENAME is "archivo".
      expect(
        await refusal({
          ID: String(firmware.number),
          FILENAME: null,
          FILEDATA: bytes.toString('base64'),
        }),
      ).toMatchObject({ MESSAGE: 'Invalid File' });
      expect(
        await refusal({
          ID: String(imeiService.number),
          FILENAME: 'x.bin',
          FILEDATA: bytes.toString('base64'),
        }),
      ).toMatchObject({ MESSAGE: 'Invalid Service ID' });
      const poor = await reseller('0.10');
      expect(
        (
          await call(
            poor,
            'placefileorder',
            kitXml({
              ID: String(firmware.number),
              FILENAME: 'y.bin',
              FILEDATA: bytes.toString('base64'),
            }),
          )
        ).ERROR?.[0]?.MESSAGE,
      ).toBe('Not enough credits');
      const pending = await kit.t.database.db.execute(
        sql`SELECT count(*)::int AS n FROM order_file WHERE order_id IS NULL AND user_id = ${poor.id}`,
      );
      expect(JSON.stringify(pending)).toContain('"n":0');
      expect(await balances(kit.t.database.db, r.id)).toEqual({ available: 200n, held: 150n });
    });
  });

  it('takes a file of several megabytes in one placefileorder (the endpoint reads up to the largest file in base64)', async () => {
    const big = await createService({
      category: 'unlock',
      name: 'Firmware completo (DHRU)',
      price: '0.20',
      fields: [{ key: 'firmware', label: 'Firmware', type: 'file', required: true }],
    });
    const r = await reseller('1.00');
    const bytes = Buffer.alloc(3 * 1024 * 1024, 0x5a);
    const placed = await call(
      r,
      'placefileorder',
      kitXml({ ID: String(big.number), FILENAME: 'full.img', FILEDATA: bytes.toString('base64') }),
    );
    expect(placed.SUCCESS?.[0]?.MESSAGE, JSON.stringify(placed).slice(0, 300)).toBe(
      'Order received',
    );
    const rows = await kit.t.database.db.execute(
      sql`SELECT f.size FROM order_file f JOIN "order" o ON o.id = f.order_id WHERE o.number = ${Number(placed.SUCCESS?.[0]?.REFERENCEID)}`,
    );
    expect(JSON.stringify(rows)).toContain(`"size":${bytes.length}`);
  });

  it('our own DHRU client imports, places and follows a file order on this server', async () => {
    const svc = await createService({
      category: 'unlock',
      name: 'Volcado para otro Cometa',
      price: '0.40',
      fields: [{ key: 'dump', label: 'Volcado', type: 'file', required: true }],
    });
    const r = await reseller('2.00');
    const conn: SupplierConnection = {
      id: 'downstream',
      protocol: 'dhru',
      url: 'http://cometa.test',
      username: r.email,
      apiKey: r.key,
      settings: {},
    };
    const client = createDhruAdapter(conn, async (_action, fields) => {
      const res = await postUrlencoded(fields);
      return {
        kind: 'response',
        status: res.status,
        contentType: res.headers.get('content-type'),
        body: await res.text(),
        ms: 1,
      };
    });
    const catalogue = await client.services();
    if (!catalogue.ok) throw new Error(catalogue.message);
    expect(catalogue.value.services.find((x) => x.remoteId === `file:${svc.number}`)).toMatchObject(
      {
        type: 'FILE',
        costMicros: 400_000n,
        importable: true,
        fields: [{ key: 'file', param: 'FILE', type: 'file' }],
      },
    );
    const bytes = Buffer.from('DOWNSTREAM-DUMP');
    const placed = await client.place({
      remoteId: `file:${svc.number}`,
      params: { FILENAME: 'down.bin', FILEDATA: bytes.toString('base64') },
      quantity: 1,
    });
    if (!placed.ok) throw new Error(placed.message);
    expect(placed.value.reference).toMatch(/^file:\d+$/);
    const statuses = await client.status([placed.value.reference]);
    if (!statuses.ok) throw new Error(statuses.message);
    expect(statuses.value.get(placed.value.reference)).toEqual({
      state: 'processing',
      detail: null,
    });
  });

  describe('regressions', () => {
    it('regression: a DHRU panel\'s CUSTOMFIELD of base64 "null" was "Invalid parameters"', async () => {
      const r = await reseller();
      const placed: string[] = [];
      const expectPlaced = (body: Envelope, how: string) => {
        expect(body.SUCCESS?.[0], `${how}: ${JSON.stringify(body)}`).toMatchObject({
          MESSAGE: 'Order received',
        });
        placed.push(String(body.SUCCESS?.[0]?.REFERENCEID));
      };
      // Single orders: the module's XML (customfield upper-cased by the kit), then base64 JSON
      // with `customfield` and `CUSTOMFIELD`; every empty form of "no custom fields".
      for (const empty of [b64json(null), '', b64json([]), b64json({}), b64json('')]) {
        expectPlaced(
          await call(r, 'placeimeiorder', kitXml(fusion50Row(imeiService.number, nextImei()))),
          'xml null',
        );
        const row = () => ({ ...fusion50Row(imeiService.number, nextImei()), customfield: empty });
        expectPlaced(await call(r, 'placeimeiorder', kitXml(row())), `xml ${empty}`);
        expectPlaced(await call(r, 'placeimeiorder', b64json(row())), `json customfield ${empty}`);
        const { customfield: _lower, ...rest } = fusion50Row(imeiService.number, nextImei());
        expectPlaced(
          await call(r, 'placeimeiorder', b64json({ ...rest, CUSTOMFIELD: empty })),
          `json CUSTOMFIELD ${empty}`,
        );
      }
      // A bulk of the same rows.
      const bulk = await call(
        r,
        'placeimeiorderbulk',
        b64json({
          r1: fusion50Row(imeiService.number, nextImei()),
          r2: fusion50Row(imeiService.number, nextImei()),
        }),
      );
      expect(bulk).toMatchObject({
        r1: { SUCCESS: [{ MESSAGE: 'Order received' }] },
        r2: { SUCCESS: [{ MESSAGE: 'Order received' }] },
      });
      // A service with custom fields still reads them.
      const withCustom = await call(
        r,
        'placeimeiorder',
        kitXml({ ...fusion50Row(licence.number, ''), customfield: b64json({ Usuario: 'ana_2' }) }),
      );
      expectPlaced(withCustom, 'custom');
      const [row] = await kit.t.database.db
        .select()
        .from(order)
        .where(eq(order.number, Number(placed.at(-1))));
      expect(row?.fields).toEqual({ username: 'ana_2' });
    });

    it('regression: an empty parameter block for an action that takes none was "Invalid parameters"', async () => {
      const r = await reseller('12.50');
      for (const parameters of ['< />', '<PARAMETERS/>', '<PARAMETERS></PARAMETERS>', '', '\n']) {
        for (const send of [postMultipart, postUrlencoded]) {
          const info = await call(r, 'accountinfo', parameters, send);
          expect(info.SUCCESS?.[0], JSON.stringify([parameters, info])).toMatchObject({
            AccoutInfo: { creditraw: '12.50' },
          });
          const list = await call(r, 'imeiservicelist', parameters, send);
          expect(list.SUCCESS?.[0], JSON.stringify([parameters, list])).toMatchObject({
            MESSAGE: 'IMEI Service List',
          });
        }
      }
      for (const action of ['accountinfo', 'imeiservicelist', 'fileservicelist', 'meplist']) {
        for (const parameters of [undefined, '< />', '<PARAMETERS/>', '', 'bnVsbA==']) {
          const none = await call(r, action, parameters);
          expect(none.SUCCESS, `${action} ${parameters}`).toHaveLength(1);
        }
      }
    });

    it('regression: placeimeiorderbulk and getimeiorderbulk with a base64 JSON list were "Invalid parameters"', async () => {
      const r = await reseller();
      const first = nextImei();
      const placed = await call(
        r,
        'placeimeiorderbulk',
        b64json([
          fusion50Row(imeiService.number, first),
          fusion50Row(imeiService.number, '12345'),
          fusion50Row(imeiService.number, nextImei()),
        ]),
      );
      expect(placed).toMatchObject({
        0: { SUCCESS: [{ MESSAGE: 'Order received' }] },
        1: { ERROR: [{ MESSAGE: 'Invalid IMEI' }] },
        2: { SUCCESS: [{ MESSAGE: 'Order received' }] },
        apiversion: '6.1',
      });
      const refs = [0, 2].map(
        (i) =>
          ((placed[String(i)] as Envelope).SUCCESS?.[0] as { REFERENCEID: string }).REFERENCEID,
      );
      const status = await call(
        r,
        'getimeiorderbulk',
        b64json([{ ID: refs[0] }, { ID: refs[1] }, { ID: '987654321' }]),
      );
      expect(status).toMatchObject({
        0: { SUCCESS: [{ STATUS: 0, CODE: '' }] },
        1: { SUCCESS: [{ STATUS: 0, CODE: '' }] },
        2: { ERROR: [{ MESSAGE: 'Order not found' }] },
        apiversion: '6.1',
      });
    });
  });
});

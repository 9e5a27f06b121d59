import net from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { luhnValid } from '../../shared/fields';
import { endpointUrl } from './adapter';
import { createDhruAdapter } from './dhru';
import { decodeParameters } from './dhru-wire';
import { startFakeSupplier, type FakeSupplier } from './fake-supplier';
import { closeIdleConnections, postForm } from './http';
import type {
  CallOutcome,
  RemoteService,
  SupplierConnection,
  SupplierSettings,
  Transport,
} from './types';

let fake: FakeSupplier;

beforeAll(async () => {
  fake = await startFakeSupplier();
});
afterAll(async () => {
  closeIdleConnections();
  await fake.close();
});
beforeEach(() => {
  fake.reset();
});

/** A 15-digit IMEI with its Luhn check digit. */
function imei(body: string): string {
  for (let digit = 0; digit <= 9; digit += 1) {
    if (luhnValid(`${body}${digit}`)) return `${body}${digit}`;
  }
  throw new Error('unreachable');
}

const IMEI_A = imei('35332509123456');
const IMEI_B = imei('49015420323751');
const IMEI_C = imei('86753090000001');
/** IMEI_A with a wrong check digit. */
const BAD_IMEI = `${IMEI_A.slice(0, 14)}${(Number(IMEI_A[14]) + 1) % 10}`;

function connection(
  settings: SupplierSettings = {},
  overrides: Partial<SupplierConnection> = {},
): SupplierConnection {
  return {
    id: 'sup-dhru',
    protocol: 'dhru',
    url: fake.url,
    username: fake.dhru.username,
    apiKey: fake.dhru.apiKey,
    settings,
    ...overrides,
  };
}

function transportFor(conn: SupplierConnection, totalTimeoutMs = 1500): Transport {
  return (_action, fields, { keepAlive }) =>
    postForm(endpointUrl(conn.protocol, conn.url), fields, {
      connectTimeoutMs: 500,
      totalTimeoutMs,
      maxBytes: 5 * 1024 * 1024,
      allowPrivateNetwork: true,
      keepAlive,
    });
}

function adapter(settings: SupplierSettings = {}, overrides: Partial<SupplierConnection> = {}) {
  const conn = connection(settings, overrides);
  return createDhruAdapter(conn, transportFor(conn));
}

/** The key never appears in what is logged; the decoded parameters do. */
function expectRedacted<T>(outcome: CallOutcome<T>, apiKey = fake.dhru.apiKey): void {
  expect(outcome.exchanges.length).toBeGreaterThan(0);
  for (const exchange of outcome.exchanges) {
    expect(exchange.request.apiaccesskey).toBe('***');
    expect(exchange.request['parameters (decoded)']).toBeDefined();
    expect(JSON.stringify(exchange)).not.toContain(apiKey);
  }
}

function unwrap<T>(outcome: CallOutcome<T>): T {
  if (!outcome.ok) throw new Error(`${outcome.kind}: ${outcome.message}`);
  return outcome.value;
}

/** An adapter over a transport that always answers this body. */
function stubbed(body: string, status = 200, settings: SupplierSettings = {}) {
  const sent: Record<string, string>[] = [];
  const transport: Transport = async (_action, fields) => {
    sent.push(fields);
    return { kind: 'response', status, contentType: 'application/json', body, ms: 1 };
  };
  return { adapter: createDhruAdapter(connection(settings), transport), sent };
}

describe.each(['xml', 'json'] as const)('DHRU adapter, %s parameters', (dialect) => {
  const settings: SupplierSettings = { dhruParameters: dialect };

  it('reads the balance', async () => {
    const outcome = await adapter(settings).balance();
    expect(unwrap(outcome)).toEqual({
      balance: '100.00',
      balanceMicros: 100_000_000n,
      currency: 'USD',
    });
    expectRedacted(outcome);
    expect(fake.calls[0]?.fields.apiaccesskey).toBe(fake.dhru.apiKey);
    expect(fake.calls[0]?.action).toBe('accountinfo');
  });

  it('reads the catalogue', async () => {
    const outcome = await adapter(settings).services();
    expectRedacted(outcome);
    const byId = new Map(unwrap(outcome).services.map((service) => [service.remoteId, service]));
    expect(byId.get('1382')).toEqual({
      remoteId: '1382',
      name: 'iPhone carrier + FMI check',
      group: 'Apple checks',
      type: 'IMEI',
      unit: 'order',
      costMicros: 800_000n,
      costProblem: null,
      minQuantity: null,
      maxQuantity: null,
      deliveryTime: '1-24 Hours',
      info: 'Carrier, FMI & blacklist status.\nInstant delivery',
      fields: [
        {
          key: 'imei',
          param: 'IMEI',
          label: 'IMEI',
          type: 'imei',
          required: true,
          identifier: true,
        },
      ],
      importable: true,
      reason: null,
    } satisfies RemoteService);
  });

  it('places an order with the IMEI in the chosen dialect', async () => {
    const outcome = await adapter(settings).place({
      remoteId: '1382',
      params: { IMEI: IMEI_A },
      quantity: 1,
    });
    expect(unwrap(outcome)).toEqual({ reference: '9001' });
    expectRedacted(outcome);
    const call = fake.calls.at(-1);
    expect(call?.action).toBe('placeimeiorder');
    expect(call?.fields.requestformat).toBe('JSON');
    expect(call?.fields.username).toBe(fake.dhru.username);
    expect(call?.fields.parameters?.startsWith('<PARAMETERS>')).toBe(dialect === 'xml');
    expect(call?.params).toEqual({ ID: '1382', IMEI: IMEI_A });
    expect(fake.orders.get('9001')).toMatchObject({ serviceId: '1382', imei: IMEI_A });
    expect(fake.dhru.balance).toBe('99.20');
    expect(JSON.parse(outcome.exchanges[0]?.request['parameters (decoded)'] ?? '')).toEqual({
      ID: '1382',
      IMEI: IMEI_A,
    });
  });

  it('sends custom fields as a base64 JSON CUSTOMFIELD the supplier can read', async () => {
    const outcome = await adapter(settings).place({
      remoteId: '4100',
      params: {
        'CUSTOMFIELD:Email': 'ana@example.com',
        'CUSTOMFIELD:Plan': 'Family',
        'CUSTOMFIELD:Auto renew': 'Sí',
      },
      quantity: 1,
    });
    const { reference } = unwrap(outcome);
    const custom = { Email: 'ana@example.com', Plan: 'Family', 'Auto renew': 'Sí' };
    expect(JSON.parse(fake.orders.get(reference)?.params.CUSTOMFIELD ?? '')).toEqual(custom);
    const raw = decodeParameters(fake.calls.at(-1)?.fields.parameters ?? '');
    expect(Object.keys(raw ?? {})).toEqual(['ID', 'CUSTOMFIELD']);
    expect(JSON.parse(outcome.exchanges[0]?.request['parameters (decoded)'] ?? '')).toEqual({
      ID: '4100',
      CUSTOMFIELD: custom,
    });
    expectRedacted(outcome);
  });

  it('places on a serial service and one that needs an SN', async () => {
    const a = adapter(settings);
    expect(
      unwrap(await a.place({ remoteId: '3050', params: { IMEI: 'C02XK1ABJGH5' }, quantity: 1 })),
    ).toEqual({ reference: '9001' });
    expect(
      unwrap(
        await a.place({ remoteId: '7400', params: { IMEI: IMEI_B, SN: 'X7Y8Z9' }, quantity: 1 }),
      ),
    ).toEqual({ reference: '9002' });
    expect(fake.orders.get('9002')?.params.SN).toBe('X7Y8Z9');
    const missing = await a.place({ remoteId: '7400', params: { IMEI: IMEI_C }, quantity: 1 });
    expect(missing).toMatchObject({ ok: false, kind: 'refused-order', message: 'SN is required' });
  });

  it('follows orders by bulk status', async () => {
    const a = adapter(settings);
    const first = unwrap(
      await a.place({ remoteId: '1382', params: { IMEI: IMEI_A }, quantity: 1 }),
    );
    const second = unwrap(
      await a.place({ remoteId: '1382', params: { IMEI: IMEI_B }, quantity: 1 }),
    );
    const third = unwrap(
      await a.place({ remoteId: '1382', params: { IMEI: IMEI_C }, quantity: 1 }),
    );
    fake.complete(first.reference, 'Unlock code: 12345678<br>Carrier: AT&amp;T');
    fake.reject(second.reference, '<b>IMEI</b> not found in GSX');
    const outcome = await a.status([first.reference, second.reference, third.reference, '424242']);
    expectRedacted(outcome);
    expect(unwrap(outcome)).toEqual(
      new Map([
        [first.reference, { state: 'completed', result: 'Unlock code: 12345678\nCarrier: AT&T' }],
        [second.reference, { state: 'rejected', reason: 'IMEI not found in GSX' }],
        [third.reference, { state: 'processing', detail: null }],
        ['424242', { state: 'not-found', detail: 'Invalid Order ID' }],
      ]),
    );
    const statusCalls = fake.calls.filter((call) => call.action.startsWith('getimeiorder'));
    expect(statusCalls.map((call) => call.action)).toEqual(['getimeiorderbulk']);
    expect(fake.orders.get(third.reference)?.status).toBe('processing');
  });

  it('asks one order at a time when bulk is switched off', async () => {
    const a = adapter({ ...settings, dhruBulkStatus: false });
    const placed = unwrap(
      await a.place({ remoteId: '1382', params: { IMEI: IMEI_A }, quantity: 1 }),
    );
    fake.complete(placed.reference);
    const outcome = await a.status([placed.reference, '777']);
    expect(unwrap(outcome)).toEqual(
      new Map([
        [placed.reference, { state: 'completed', result: 'Unlock code: 12345678\nCarrier: AT&T' }],
        ['777', { state: 'not-found', detail: 'Invalid Order ID' }],
      ]),
    );
    expect(fake.calls.slice(1).map((call) => [call.action, call.params.ID])).toEqual([
      ['getimeiorder', placed.reference],
      ['getimeiorder', '777'],
    ]);
    expectRedacted(outcome);
  });
});

describe('DHRU catalogue mapping', () => {
  it('maps serial boxes, SN, custom fields and what cannot be imported', async () => {
    const byId = new Map(unwrap(await adapter().services()).services.map((s) => [s.remoteId, s]));
    // Seven IMEI and server services, and one file service.
    expect(byId.size).toBe(8);
    expect(byId.get('2210')?.name).toBe('AT&T USA iPhone unlock (clean)');
    expect(byId.get('3050')).toMatchObject({
      costMicros: 278_190n,
      importable: true,
      fields: [
        {
          key: 'serial',
          param: 'IMEI',
          label: 'S/N',
          type: 'serial',
          required: true,
          identifier: true,
          maxLength: 12,
          allowLetters: true,
        },
      ],
    });
    expect(byId.get('4100')).toMatchObject({
      type: 'SERVER',
      group: 'Licences',
      costMicros: 4_500_000n,
      importable: true,
      fields: [
        {
          key: 'email',
          param: 'CUSTOMFIELD:Email',
          label: 'Email',
          type: 'email',
          required: true,
          hint: 'Account e-mail',
        },
        {
          key: 'plan',
          param: 'CUSTOMFIELD:Plan',
          type: 'select',
          required: true,
          options: ['Personal', 'Family'],
        },
        {
          key: 'auto_renew',
          param: 'CUSTOMFIELD:Auto renew',
          type: 'select',
          required: false,
          options: ['Sí', 'No'],
        },
      ],
    });
    expect(byId.get('4100')?.fields).toHaveLength(3);
    expect(byId.get('5200')).toMatchObject({
      importable: false,
      reason: 'Pide red, modelo o MEP del proveedor: todavía no se puede importar.',
    });
    expect(byId.get('6300')).toMatchObject({
      importable: false,
      reason: 'Se pide por cantidad: todavía no se puede importar.',
    });
    expect(byId.get('7400')?.fields.map((f) => [f.key, f.param, f.type])).toEqual([
      ['imei', 'IMEI', 'imei'],
      ['sn', 'SN', 'serial'],
    ]);
  });

  it('makes keys from field names and refuses what does not fit', async () => {
    fake.dhru.services = [
      {
        id: '1',
        name: 'Licence',
        group: 'Licences',
        groupType: 'SERVER',
        credit: '$1.00',
        time: '',
        requires: { PIN: 'Required', Type: 'Required' },
        custom: [
          { type: 'server', fieldname: 'Número de cuenta', fieldtype: 'text', required: 'on' },
          { type: 'server', fieldname: 'número  de cuenta', fieldtype: 'textarea', required: 1 },
          { type: 'server', fieldname: '2FA code', fieldtype: 'text', required: '0' },
          { type: 'server', fieldname: 'User Name', fieldtype: 'text', required: 'on' },
          {
            type: 'server',
            fieldname: 'Color',
            fieldtype: 'radio',
            required: 'on',
            fieldoptions: ' Red ,, Blue',
          },
        ],
      },
      {
        id: '2',
        name: 'No options',
        group: 'G',
        groupType: 'SERVER',
        credit: '1',
        time: '',
        custom: [{ type: 'server', fieldname: 'Pick', fieldtype: 'dropdown', required: 'on' }],
      },
      {
        id: '3',
        name: 'Bad price',
        group: 'G',
        groupType: 'IMEI',
        credit: '1,50',
        time: '',
      },
      {
        id: '4',
        name: 'Too many',
        group: 'G',
        groupType: 'IMEI',
        credit: '1',
        time: '',
        custom: Array.from({ length: 10 }, (_, i) => ({
          type: 'imei' as const,
          fieldname: `Field ${i}`,
          fieldtype: 'text' as const,
          required: 'on',
        })),
      },
    ];
    const byId = new Map(unwrap(await adapter().services()).services.map((s) => [s.remoteId, s]));
    expect(byId.get('1')?.fields.map((f) => [f.key, f.param, f.type, f.maxLength])).toEqual([
      ['pin', 'PIN', 'text', 200],
      ['type', 'TYPE', 'text', 200],
      ['numero_de_cuenta', 'CUSTOMFIELD:Número de cuenta', 'text', 200],
      ['numero_de_cuenta_2', 'CUSTOMFIELD:número  de cuenta', 'text', 500],
      ['f_2fa_code', 'CUSTOMFIELD:2FA code', 'text', 200],
      ['user_name', 'CUSTOMFIELD:User Name', 'username', undefined],
      ['color', 'CUSTOMFIELD:Color', 'select', undefined],
    ]);
    expect(byId.get('1')?.fields.at(-1)?.options).toEqual(['Red', 'Blue']);
    expect(byId.get('1')?.costMicros).toBe(1_000_000n);
    expect(byId.get('2')).toMatchObject({
      importable: false,
      reason: 'El campo «Pick» no tiene opciones: todavía no se puede importar.',
    });
    expect(byId.get('3')).toMatchObject({
      importable: false,
      costProblem: 'El costo «1,50» no se puede leer.',
      reason: 'El costo «1,50» no se puede leer.',
    });
    expect(byId.get('4')).toMatchObject({
      importable: false,
      reason: 'Pide más de 10 datos: todavía no se puede importar.',
    });
    for (const service of byId.values()) {
      for (const field of service.fields) expect(field.key).toMatch(/^[a-z][a-z0-9_]{0,31}$/);
    }
  });
});

describe('DHRU refusals and ambiguous outcomes', () => {
  const order = { remoteId: '1382', params: { IMEI: IMEI_A }, quantity: 1 };

  it('a wrong key or user is the supplier’s problem', async () => {
    const wrongKey = await adapter({}, { apiKey: 'AAA-BBB' }).place(order);
    expect(wrongKey).toMatchObject({
      ok: false,
      kind: 'refused-supplier',
      message: 'Authentication Failed',
    });
    expectRedacted(wrongKey, 'AAA-BBB');
    expect(await adapter({}, { username: 'nobody' }).balance()).toMatchObject({
      ok: false,
      kind: 'refused-supplier',
    });
    expect(await adapter({}, { apiKey: 'x' }).status(['9001'])).toMatchObject({
      ok: false,
      kind: 'refused-supplier',
    });
    expect(fake.placedCount()).toBe(0);
  });

  it('not enough credits is the supplier’s problem; nothing is created', async () => {
    fake.dhru.balance = '0.50';
    const outcome = await adapter().place(order);
    expect(outcome).toMatchObject({
      ok: false,
      kind: 'refused-supplier',
      message: 'Not enough credits',
    });
    expect(fake.placedCount()).toBe(0);
    expect(fake.dhru.balance).toBe('0.50');
  });

  it('maintenance is the supplier’s problem', async () => {
    fake.dhru.maintenance = 'Server under maintenance';
    expect(await adapter().balance()).toMatchObject({ ok: false, kind: 'refused-supplier' });
  });

  it('an invalid or duplicate IMEI is the order’s problem', async () => {
    const a = adapter();
    expect(
      await a.place({ remoteId: '1382', params: { IMEI: BAD_IMEI }, quantity: 1 }),
    ).toMatchObject({ ok: false, kind: 'refused-order', message: 'Invalid IMEI' });
    unwrap(await a.place(order));
    expect(await a.place(order)).toMatchObject({
      ok: false,
      kind: 'refused-order',
      message: 'Duplicate IMEI',
    });
    expect(
      await a.place({ remoteId: '99999', params: { IMEI: IMEI_A }, quantity: 1 }),
    ).toMatchObject({ ok: false, kind: 'refused-order' });
    expect(fake.placedCount({ imei: IMEI_A })).toBe(1);
  });

  it('a scripted refusal is classified by its text', async () => {
    fake.when(
      { action: 'placeimeiorder', imei: IMEI_A, times: 1 },
      { refuse: 'Your Server IP is not allowed' },
    );
    expect(await adapter().place(order)).toMatchObject({ ok: false, kind: 'refused-supplier' });
    expect(unwrap(await adapter().place(order))).toEqual({ reference: '9001' });
  });

  it('a supplier refuses the dialect it does not speak', async () => {
    fake.dhru.acceptDialects = 'json';
    expect(await adapter({ dhruParameters: 'xml' }).place(order)).toMatchObject({
      ok: false,
      kind: 'refused-order',
      message: 'Invalid parameters',
    });
    expect(unwrap(await adapter({ dhruParameters: 'json' }).place(order))).toEqual({
      reference: '9001',
    });
  });

  it('a time-out after sending is ambiguous, and the order was created upstream', async () => {
    fake.when({ action: 'placeimeiorder' }, { hang: true });
    const outcome = await adapter().place(order);
    expect(outcome).toMatchObject({ ok: false, kind: 'ambiguous' });
    expectRedacted(outcome);
    expect(outcome.exchanges[0]?.error).toMatch(/1500 ms/);
    // Retrying would create a second order and a second charge.
    expect(fake.placedCount({ imei: IMEI_A })).toBe(1);
    expect(fake.calls.filter((call) => call.action === 'placeimeiorder')).toHaveLength(1);
  });

  it('a dropped connection after accepting is ambiguous', async () => {
    fake.when({ action: 'placeimeiorder' }, { acceptThenDrop: true });
    expect(await adapter().place(order)).toMatchObject({ ok: false, kind: 'ambiguous' });
    expect(fake.placedCount({ imei: IMEI_A })).toBe(1);
  });

  it('a 500, an HTML page or garbage is ambiguous, whatever was created', async () => {
    fake.when({ action: 'placeimeiorder', times: 1 }, { http: 500 });
    fake.when({ action: 'placeimeiorder', times: 1 }, { html: true });
    fake.when({ action: 'placeimeiorder', times: 1 }, { garbage: true });
    fake.when({ action: 'placeimeiorder', times: 1 }, { http: 502, create: true });
    fake.when({ action: 'placeimeiorder', times: 1 }, { http: 403, body: 'Forbidden' });
    const a = adapter();
    for (let i = 0; i < 5; i += 1) {
      const outcome = await a.place(order);
      expect(outcome, `attempt ${i}`).toMatchObject({ ok: false, kind: 'ambiguous' });
    }
    expect(fake.placedCount()).toBe(1);
  });

  it('a closed port is not sent', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const outcome = await adapter({}, { url: `http://127.0.0.1:${port}` }).place(order);
    expect(outcome).toMatchObject({ ok: false, kind: 'not-sent' });
    expectRedacted(outcome);
    expect(outcome.exchanges[0]?.status).toBeNull();
  });

  it('a slow but complete answer is fine', async () => {
    fake.when({ action: 'placeimeiorder' }, { delayMs: 100 });
    expect(unwrap(await adapter().place(order))).toEqual({ reference: '9001' });
  });

  it('a success without REFERENCEID is ambiguous', async () => {
    const { adapter: a } = stubbed('{"SUCCESS":[{"MESSAGE":"Order received"}],"apiversion":"6.1"}');
    expect(await a.place(order)).toMatchObject({ ok: false, kind: 'ambiguous' });
    const numeric = stubbed('{"SUCCESS":[{"MESSAGE":"Order received","REFERENCEID":2323}]}');
    expect(unwrap(await numeric.adapter.place(order))).toEqual({ reference: '2323' });
  });

  it('refuses a parameter name it cannot send, without sending', async () => {
    const { adapter: a, sent } = stubbed('{}');
    expect(
      await a.place({ remoteId: '1', params: { 'bad name': 'x' }, quantity: 1 }),
    ).toMatchObject({ ok: false, kind: 'not-sent', exchanges: [] });
    expect(sent).toHaveLength(0);
  });
});

describe('DHRU status', () => {
  const place = async (a: ReturnType<typeof adapter>, number: string) =>
    unwrap(await a.place({ remoteId: '1382', params: { IMEI: number }, quantity: 1 })).reference;

  it('STATUS 2 is processing by default, cancelled when the supplier says so', async () => {
    const ref = await place(adapter(), IMEI_A);
    fake.status2(ref);
    expect(unwrap(await adapter().status([ref])).get(ref)).toEqual({
      state: 'processing',
      detail: null,
    });
    expect(unwrap(await adapter({ dhruStatus2: 'cancelled' }).status([ref])).get(ref)).toEqual({
      state: 'cancelled',
      reason: null,
    });
    fake.when({ imei: IMEI_B }, { status2: true });
    const other = await place(adapter(), IMEI_B);
    expect(
      unwrap(await adapter({ dhruStatus2: 'cancelled', dhruBulkStatus: false }).status([other])),
    ).toEqual(new Map([[other, { state: 'cancelled', reason: null }]]));
  });

  it('scripted outcomes arrive after their polls', async () => {
    fake.when({ imei: IMEI_A }, { completeAfterPolls: 1, code: '<p>FMI: OFF</p>' });
    fake.when({ imei: IMEI_B }, { rejectAfterPolls: 0, reason: 'Wrong model' });
    fake.when({ imei: IMEI_C }, { cancelAfterPolls: 0 });
    const a = adapter();
    const [r1, r2, r3] = [await place(a, IMEI_A), await place(a, IMEI_B), await place(a, IMEI_C)];
    expect(unwrap(await a.status([r1, r2, r3]))).toEqual(
      new Map([
        [r1, { state: 'processing', detail: null }],
        [r2, { state: 'rejected', reason: 'Wrong model' }],
        [r3, { state: 'rejected', reason: 'Cancelled' }],
      ]),
    );
    expect(unwrap(await a.status([r1])).get(r1)).toEqual({
      state: 'completed',
      result: 'FMI: OFF',
    });
    expect(fake.orders.get(r1)?.polls).toBe(2);
    // Rejected and cancelled orders were refunded by the supplier.
    expect(fake.dhru.balance).toBe('99.20');
  });

  it('falls back to one call per order when bulk is an Invalid Action, and remembers', async () => {
    fake.dhru.bulk = false;
    const a = adapter();
    const ref = await place(a, IMEI_A);
    fake.complete(ref, 'OK');
    expect(unwrap(await a.status([ref, '1']))).toEqual(
      new Map([
        [ref, { state: 'completed', result: 'OK' }],
        ['1', { state: 'not-found', detail: 'Invalid Order ID' }],
      ]),
    );
    expect(unwrap(await a.status([ref])).get(ref)).toEqual({ state: 'completed', result: 'OK' });
    expect(fake.calls.slice(1).map((call) => call.action)).toEqual([
      'getimeiorderbulk',
      'getimeiorder',
      'getimeiorder',
      'getimeiorder',
    ]);
  });

  it('falls back when the bulk answer does not parse', async () => {
    const ref = await place(adapter(), IMEI_A);
    fake.when({ action: 'getimeiorderbulk' }, { garbage: true });
    expect(unwrap(await adapter().status([ref])).get(ref)).toEqual({
      state: 'processing',
      detail: null,
    });
    expect(fake.calls.slice(1).map((call) => call.action)).toEqual([
      'getimeiorderbulk',
      'getimeiorder',
    ]);
  });

  it('reads the GSM-theme bulk shape', async () => {
    fake.dhru.gsmThemeBulk = true;
    const a = adapter();
    const done = await place(a, IMEI_A);
    const open = await place(a, IMEI_B);
    fake.complete(done, 'Clean<br>Not blacklisted');
    const outcome = unwrap(await a.status([done, open, '31337']));
    expect(outcome).toEqual(
      new Map([
        [done, { state: 'completed', result: 'Clean\nNot blacklisted' }],
        [open, { state: 'processing', detail: null }],
        ['31337', { state: 'not-found', detail: 'Invalid Order ID' }],
      ]),
    );
    expect(fake.calls.filter((call) => call.action === 'getimeiorder')).toHaveLength(0);
  });

  it('splits bulk status into groups of at most 100', async () => {
    const refs = Array.from({ length: 150 }, (_, i) => String(100_000 + i));
    const outcome = unwrap(await adapter().status(refs));
    expect(outcome.size).toBe(150);
    const sizes = fake.calls
      .filter((call) => call.action === 'getimeiorderbulk')
      .map((call) => Object.keys(call.params).length);
    expect(sizes).toEqual([100, 50]);
  });

  it('a supplier that hides an order answers not-found', async () => {
    const ref = await place(adapter(), IMEI_A);
    fake.when({ action: 'getimeiorderbulk', imei: IMEI_A }, { unknownOrder: true });
    expect(unwrap(await adapter().status([ref])).get(ref)).toEqual({
      state: 'not-found',
      detail: 'Invalid Order ID',
    });
  });

  it('maps unknown numbers and keeps going when a later batch fails', async () => {
    const weird = stubbed(
      JSON.stringify({ '5': { SUCCESS: [{ STATUS: '7', CODE: 'x' }] }, apiversion: '6.1' }),
    );
    expect(unwrap(await weird.adapter.status(['5'])).get('5')).toEqual({
      state: 'unknown',
      detail: 'Estado «7» desconocido. x',
    });
    const down = stubbed('<html>Bad gateway</html>', 502);
    expect(await down.adapter.status(['5'])).toMatchObject({ ok: false, kind: 'ambiguous' });
  });

  it('an empty list asks nothing', async () => {
    const outcome = await adapter().status([]);
    expect(outcome).toEqual({ ok: true, value: new Map(), exchanges: [] });
    expect(fake.calls).toHaveLength(0);
  });
});

describe('DHRU balance variants', () => {
  it('reads AccountInfo, a numeric credit or creditraw', async () => {
    const only = stubbed('{"SUCCESS":[{"AccountInfo":{"credit":16.41,"currency":"EUR"}}]}');
    expect(unwrap(await only.adapter.balance())).toEqual({
      balance: '16.41',
      balanceMicros: 16_410_000n,
      currency: 'EUR',
    });
    const raw = stubbed('{"SUCCESS":[{"AccoutInfo":{"credit":"$1,234.56","creditraw":1234.56}}]}');
    expect(unwrap(await raw.adapter.balance())).toMatchObject({
      balance: '1234.56',
      currency: 'USD',
    });
    const none = stubbed('{"SUCCESS":[{"AccoutInfo":{"credit":"n/a"}}]}');
    expect(await none.adapter.balance()).toMatchObject({ ok: false, kind: 'ambiguous' });
    const error = stubbed('{"ERROR":[{"MESSAGE":"Invalid API Key!"}]}', 401);
    expect(await error.adapter.balance()).toMatchObject({ ok: false, kind: 'refused-supplier' });
  });

  it('sends the standard form fields', async () => {
    const { adapter: a, sent } = stubbed('{"SUCCESS":[{"AccoutInfo":{"credit":"1"}}]}');
    await a.balance();
    expect(sent[0]).toEqual({
      username: fake.dhru.username,
      apiaccesskey: fake.dhru.apiKey,
      action: 'accountinfo',
      requestformat: 'JSON',
      parameters: '<PARAMETERS></PARAMETERS>',
    });
  });
});

describe('DHRU file services (client)', () => {
  it('imports file services from fileservicelist as file:<id> with a file field', async () => {
    const outcome = await adapter().services();
    if (!outcome.ok) throw new Error(outcome.message);
    expect(outcome.exchanges.map((e) => e.action)).toEqual(['imeiservicelist', 'fileservicelist']);
    const file = outcome.value.services.find((s) => s.remoteId === 'file:113');
    expect(file).toMatchObject({
      name: 'Samsung FRP reset (firmware file)',
      type: 'FILE',
      unit: 'order',
      costMicros: 2_500_000n,
      info: 'Upload the .bin dump.',
      importable: true,
      fields: [{ key: 'file', param: 'FILE', label: 'Archivo', type: 'file', required: true }],
    });
    // An IMEI service with the same number stays apart.
    expect(outcome.value.services.some((s) => s.remoteId === '113')).toBe(false);
  });

  it('reads a supplier without file services (Invalid Action) as none, and fails on an unreadable answer', async () => {
    fake.dhru.fileServices = [];
    const none = await adapter().services();
    if (!none.ok) throw new Error(none.message);
    expect(none.value.services.some((s) => s.remoteId.startsWith('file:'))).toBe(false);
    fake.when({ protocol: 'dhru', action: 'fileservicelist' }, { garbage: true });
    const broken = await adapter().services();
    expect(broken).toMatchObject({ ok: false, kind: 'ambiguous' });
    if (!broken.ok) expect(broken.message).toMatch(/servicios de archivo/);
  });

  it('places a file order with placefileorder, logs its size only, and follows it with getfileorder', async () => {
    for (const dialect of ['xml', 'json'] as const) {
      fake.reset();
      const bytes = Buffer.from(`FIRMWARE-${dialect}-`.repeat(200));
      const a = adapter({ dhruParameters: dialect });
      const placed = await a.place({
        remoteId: 'file:113',
        params: { FILENAME: 'dump.bin', FILEDATA: bytes.toString('base64') },
        quantity: 1,
      });
      if (!placed.ok) throw new Error(placed.message);
      // DHRU numbers file orders apart: ours carry the prefix.
      expect(placed.value.reference).toBe('file:9001');
      const order = fake.orders.get('file:9001');
      expect(order?.file).toEqual({ name: 'dump.bin', bytes });
      const [exchange] = placed.exchanges;
      expect(exchange?.action).toBe('placefileorder');
      expect(JSON.stringify(exchange?.request)).not.toContain(
        bytes.toString('base64').slice(0, 40),
      );
      expect(exchange?.request['parameters (decoded)']).toContain(`${bytes.length} bytes`);
      expect(exchange?.request.parameters).toMatch(/omitidos/);

      // An IMEI order gets the same number upstream; both are followed, each with its action.
      const imeiOrder = await a.place({ remoteId: '1382', params: { IMEI: IMEI_A }, quantity: 1 });
      if (!imeiOrder.ok) throw new Error(imeiOrder.message);
      expect(imeiOrder.value.reference).toBe('9001');
      fake.complete('file:9001', 'Reset OK');
      const statuses = await a.status(['9001', 'file:9001']);
      if (!statuses.ok) throw new Error(statuses.message);
      expect(statuses.value.get('file:9001')).toEqual({ state: 'completed', result: 'Reset OK' });
      expect(statuses.value.get('9001')).toMatchObject({ state: 'processing' });
      expect(statuses.exchanges.map((e) => e.action)).toEqual(['getimeiorderbulk', 'getfileorder']);
      expect(decodeParameters(fake.calls.at(-1)?.fields.parameters ?? '')).toEqual({ ID: '9001' });
      fake.reject('file:9001', 'Wrong file');
    }
  });

  it('sends nothing without the file, and reads a refusal as the order’s', async () => {
    const missing = await adapter().place({ remoteId: 'file:113', params: {}, quantity: 1 });
    expect(missing).toMatchObject({ ok: false, kind: 'not-sent', exchanges: [] });
    const refused = await adapter().place({
      remoteId: 'file:999',
      params: { FILENAME: 'a.bin', FILEDATA: 'QUJD' },
      quantity: 1,
    });
    expect(refused).toMatchObject({
      ok: false,
      kind: 'refused-order',
      message: 'Invalid Service ID',
    });
    expect(fake.placedCount()).toBe(0);
  });
});

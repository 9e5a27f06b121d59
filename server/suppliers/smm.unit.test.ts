import net from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { endpointUrl } from './adapter';
import { startFakeSupplier, type FakeSupplier } from './fake-supplier';
import { closeIdleConnections, postForm } from './http';
import { createSmmAdapter } from './smm';
import type { CallOutcome, RemoteStatus, SupplierConnection, Transport } from './types';

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

function connection(overrides: Partial<SupplierConnection> = {}): SupplierConnection {
  return {
    id: 'sup-smm',
    protocol: 'smm',
    url: fake.url,
    username: null,
    apiKey: fake.smm.apiKey,
    settings: {},
    ...overrides,
  };
}

function transportFor(conn: SupplierConnection): Transport {
  return (_action, fields, { keepAlive }) =>
    postForm(endpointUrl(conn.protocol, conn.url), fields, {
      connectTimeoutMs: 500,
      totalTimeoutMs: 1500,
      maxBytes: 5 * 1024 * 1024,
      allowPrivateNetwork: true,
      keepAlive,
    });
}

function adapter(overrides: Partial<SupplierConnection> = {}) {
  const conn = connection(overrides);
  return createSmmAdapter(conn, transportFor(conn));
}

function expectRedacted<T>(outcome: CallOutcome<T>, apiKey = fake.smm.apiKey): void {
  expect(outcome.exchanges.length).toBeGreaterThan(0);
  for (const exchange of outcome.exchanges) {
    expect(exchange.request.key).toBe('***');
    expect(JSON.stringify(exchange)).not.toContain(apiKey);
  }
}

function unwrap<T>(outcome: CallOutcome<T>): T {
  if (!outcome.ok) throw new Error(`${outcome.kind}: ${outcome.message}`);
  return outcome.value;
}

function stubbed(body: string, status = 200) {
  const sent: Record<string, string>[] = [];
  const transport: Transport = async (_action, fields) => {
    sent.push(fields);
    return { kind: 'response', status, contentType: 'application/json', body, ms: 1 };
  };
  return { adapter: createSmmAdapter(connection(), transport), sent };
}

const LINK = 'https://instagram.com/cometa.demo';

describe('SMM adapter', () => {
  it('reads the balance', async () => {
    const outcome = await adapter().balance();
    expect(unwrap(outcome)).toEqual({
      balance: '50.00',
      balanceMicros: 50_000_000n,
      currency: 'USD',
    });
    expectRedacted(outcome);
    expect(fake.calls[0]).toMatchObject({
      protocol: 'smm',
      path: '/api/v2',
      action: 'balance',
      fields: { key: fake.smm.apiKey, action: 'balance' },
    });
  });

  it('reads the catalogue', async () => {
    const outcome = await adapter().services();
    expectRedacted(outcome);
    const byId = new Map(unwrap(outcome).map((service) => [service.remoteId, service]));
    expect(byId.get('1')).toEqual({
      remoteId: '1',
      name: 'Instagram Followers [Real]',
      group: 'Instagram',
      type: 'Default',
      unit: '1000',
      costMicros: 900_000n,
      minQuantity: 50,
      maxQuantity: 10000,
      deliveryTime: '',
      info: 'Real accounts.\nStart: 0-1 h',
      fields: [
        {
          key: 'link',
          param: 'link',
          label: 'Enlace',
          type: 'url',
          required: true,
          identifier: true,
        },
      ],
      importable: true,
      reason: null,
    });
    expect(byId.get('2')?.costMicros).toBe(278_190n);
    expect(byId.get('3')).toMatchObject({
      importable: false,
      reason: 'El tipo «Custom Comments» todavía no se puede importar.',
    });
    expect(byId.get('4')).toMatchObject({
      type: 'Package',
      unit: 'order',
      costMicros: 12_500_000n,
      minQuantity: null,
      maxQuantity: null,
      importable: true,
    });
  });

  it('reads a catalogue with numbers, a missing type and bad rates', async () => {
    const { adapter: a } = stubbed(
      JSON.stringify([
        { service: 9, name: 'Views', category: 'TikTok', rate: 0.05, min: 100, max: '1000000' },
        { service: '10', name: 'Bad', type: 'Default', category: 'X', rate: '1,5', min: 1, max: 2 },
        { name: 'no id' },
      ]),
    );
    const services = unwrap(await a.services());
    expect(services.map((s) => [s.remoteId, s.type, s.unit, s.costMicros, s.importable])).toEqual([
      ['9', 'Default', '1000', 50_000n, true],
      ['10', 'Default', '1000', 0n, false],
    ]);
    expect(services[0]).toMatchObject({ minQuantity: 100, maxQuantity: 1_000_000 });
  });

  it('places a per-1000 order and a package', async () => {
    const a = adapter();
    const outcome = await a.place({ remoteId: '1', params: { link: LINK }, quantity: 1000 });
    expect(unwrap(outcome)).toEqual({ reference: '23501' });
    expectRedacted(outcome);
    expect(fake.calls.at(-1)?.fields).toEqual({
      key: fake.smm.apiKey,
      action: 'add',
      service: '1',
      link: LINK,
      quantity: '1000',
    });
    expect(fake.orders.get('23501')).toMatchObject({ quantity: 1000, charge: '0.90', link: LINK });
    expect(fake.smm.balance).toBe('49.10');
    expect(
      unwrap(await a.place({ remoteId: '4', params: { link: 'https://youtu.be/x' }, quantity: 1 })),
    ).toEqual({ reference: '23502' });
    expect(fake.smm.balance).toBe('36.60');
  });

  it('classifies refusals', async () => {
    const a = adapter();
    const cases: [Parameters<typeof a.place>[0], string, string][] = [
      [
        { remoteId: '1', params: { link: LINK }, quantity: 10 },
        'refused-order',
        'Quantity less than minimal 50',
      ],
      [
        { remoteId: '1', params: { link: LINK }, quantity: 20000 },
        'refused-order',
        'Quantity more than maximum 10000',
      ],
      [
        { remoteId: '1', params: { link: 'ftp://x.example' }, quantity: 100 },
        'refused-order',
        'Incorrect link',
      ],
      [
        { remoteId: '77', params: { link: LINK }, quantity: 100 },
        'refused-order',
        'Incorrect service ID',
      ],
    ];
    for (const [input, kind, message] of cases) {
      expect(await a.place(input), message).toMatchObject({ ok: false, kind, message });
    }
    unwrap(await a.place({ remoteId: '1', params: { link: LINK }, quantity: 100 }));
    expect(await a.place({ remoteId: '1', params: { link: LINK }, quantity: 100 })).toMatchObject({
      ok: false,
      kind: 'retry-later',
    });
    fake.smm.balance = '0.01';
    expect(await a.place({ remoteId: '2', params: { link: LINK }, quantity: 100 })).toMatchObject({
      ok: false,
      kind: 'refused-supplier',
      message: 'Not enough funds on balance',
    });
    const wrongKey = await adapter({ apiKey: 'nope-nope' }).place({
      remoteId: '2',
      params: { link: LINK },
      quantity: 100,
    });
    expect(wrongKey).toMatchObject({
      ok: false,
      kind: 'refused-supplier',
      message: 'Incorrect API key',
    });
    expectRedacted(wrongKey, 'nope-nope');
    expect(fake.placedCount({ link: LINK })).toBe(1);
  });

  it('a time-out after sending is ambiguous, and the order was created upstream', async () => {
    fake.when({ action: 'add', link: LINK }, { hang: true });
    const outcome = await adapter().place({ remoteId: '1', params: { link: LINK }, quantity: 100 });
    expect(outcome).toMatchObject({ ok: false, kind: 'ambiguous' });
    expectRedacted(outcome);
    expect(fake.placedCount({ link: LINK })).toBe(1);
    expect(fake.calls.filter((call) => call.action === 'add')).toHaveLength(1);
  });

  it('a drop, a 500, an HTML page or garbage is ambiguous', async () => {
    fake.when({ action: 'add', times: 1 }, { acceptThenDrop: true });
    fake.when({ action: 'add', times: 1 }, { http: 500 });
    fake.when({ action: 'add', times: 1 }, { html: true });
    fake.when({ action: 'add', times: 1 }, { garbage: true });
    const a = adapter();
    for (let i = 0; i < 4; i += 1) {
      const outcome = await a.place({
        remoteId: '2',
        params: { link: `${LINK}/${i}` },
        quantity: 100,
      });
      expect(outcome, `attempt ${i}`).toMatchObject({ ok: false, kind: 'ambiguous' });
    }
    expect(fake.placedCount()).toBe(1);
  });

  it('an answer without an order id is ambiguous; "status":"success" is fine', async () => {
    expect(
      await stubbed('{"status":"success"}').adapter.place({
        remoteId: '1',
        params: { link: LINK },
        quantity: 1,
      }),
    ).toMatchObject({ ok: false, kind: 'ambiguous' });
    expect(
      unwrap(
        await stubbed('{"order":"65f0c0ffee","status":"success"}').adapter.place({
          remoteId: '1',
          params: { link: LINK },
          quantity: 1,
        }),
      ),
    ).toEqual({ reference: '65f0c0ffee' });
    expect(
      await stubbed('{"error":"Too many requests"}', 429).adapter.place({
        remoteId: '1',
        params: { link: LINK },
        quantity: 1,
      }),
    ).toMatchObject({ ok: false, kind: 'refused-supplier' });
  });

  it('a closed port is not sent', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const outcome = await adapter({ url: `http://127.0.0.1:${port}/` }).place({
      remoteId: '1',
      params: { link: LINK },
      quantity: 100,
    });
    expect(outcome).toMatchObject({ ok: false, kind: 'not-sent' });
    expectRedacted(outcome);
  });
});

describe('SMM status', () => {
  async function placeMany(count: number): Promise<string[]> {
    const a = adapter();
    const refs: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const outcome = await a.place({
        remoteId: '2',
        params: { link: `${LINK}/p/${i}` },
        quantity: 100,
      });
      refs.push(unwrap(outcome).reference);
    }
    return refs;
  }

  it('maps every status', async () => {
    const [pending, done, partial, over, cancelled] = await placeMany(5);
    fake.complete(done ?? '');
    fake.partial(partial ?? '', 40);
    fake.partial(over ?? '', -25);
    fake.cancel(cancelled ?? '');
    const outcome = await adapter().status(
      [pending, done, partial, over, cancelled, '999'].map(String),
    );
    expectRedacted(outcome);
    expect(unwrap(outcome)).toEqual(
      new Map<string, RemoteStatus>([
        [String(pending), { state: 'processing', detail: null }],
        [String(done), { state: 'completed', result: '' }],
        [String(partial), { state: 'partial', remains: 40, detail: null }],
        [String(over), { state: 'partial', remains: -25, detail: null }],
        [String(cancelled), { state: 'cancelled', reason: 'Cancelada por el proveedor.' }],
        ['999', { state: 'not-found', detail: 'Incorrect order ID' }],
      ]),
    );
  });

  it('scripted outcomes arrive after their polls', async () => {
    fake.when({ protocol: 'smm', link: `${LINK}/p/0` }, { partialAfterPolls: 1, remains: -5 });
    fake.when({ protocol: 'smm', link: `${LINK}/p/1` }, { completeAfterPolls: 0 });
    const [a, b] = await placeMany(2);
    const refs = [String(a), String(b)];
    expect(unwrap(await adapter().status(refs))).toEqual(
      new Map<string, RemoteStatus>([
        [refs[0] ?? '', { state: 'processing', detail: null }],
        [refs[1] ?? '', { state: 'completed', result: '' }],
      ]),
    );
    expect(unwrap(await adapter().status(refs)).get(refs[0] ?? '')).toEqual({
      state: 'partial',
      remains: -5,
      detail: null,
    });
  });

  it('asks at most 100 orders per call', async () => {
    const placed = await placeMany(3);
    const refs = [...placed, ...Array.from({ length: 247 }, (_, i) => String(900_000 + i))];
    const outcome = unwrap(await adapter().status(refs));
    expect(outcome.size).toBe(250);
    const batches = fake.calls
      .filter((call) => call.action === 'status')
      .map((call) => (call.fields.orders ?? '').split(','));
    expect(batches.map((batch) => batch.length)).toEqual([100, 100, 50]);
    expect(batches.flat()).toEqual(refs);
    expect(outcome.get(placed[0] ?? '')).toEqual({ state: 'processing', detail: null });
  });

  it('reads SmartPanel answers on /api/v1: bare-string errors', async () => {
    fake.smm.smartPanel = true;
    const a = adapter({ url: `${fake.url}/api/v1` });
    expect(unwrap(await a.balance()).balance).toBe('50.00');
    const ref = unwrap(
      await a.place({ remoteId: '1', params: { link: LINK }, quantity: 100 }),
    ).reference;
    expect(unwrap(await a.status([ref, '404']))).toEqual(
      new Map<string, RemoteStatus>([
        [ref, { state: 'processing', detail: null }],
        ['404', { state: 'not-found', detail: 'Incorrect order ID' }],
      ]),
    );
    expect(fake.calls.every((call) => call.path === '/api/v1')).toBe(true);
  });

  it('a whole-call error fails the call', async () => {
    expect(await adapter({ apiKey: 'bad' }).status(['1'])).toMatchObject({
      ok: false,
      kind: 'refused-supplier',
    });
  });

  it('keeps unknown statuses and unreadable remains for an admin', async () => {
    const { adapter: a } = stubbed(
      JSON.stringify({
        '1': { status: 'Fail', remains: '0' },
        '2': { status: 'Partial', remains: 'lots' },
        '3': { status: ' in PROGRESS ' },
        '4': { status: 'Refunded' },
        '5': { error: 'Something odd' },
        '6': 42,
      }),
    );
    expect(unwrap(await a.status(['1', '2', '3', '4', '5', '6', '7']))).toEqual(
      new Map<string, RemoteStatus>([
        ['1', { state: 'unknown', detail: 'Estado «Fail» desconocido.' }],
        ['2', { state: 'unknown', detail: 'Parcial con un resto ilegible: "lots"' }],
        ['3', { state: 'processing', detail: null }],
        ['4', { state: 'cancelled', reason: 'Reembolsada por el proveedor.' }],
        ['5', { state: 'unknown', detail: 'Something odd' }],
        ['6', { state: 'unknown', detail: 'Respuesta ilegible del proveedor.' }],
      ]),
    );
  });

  it('accepts a lone id answered in the single-order shape', async () => {
    const { adapter: a, sent } = stubbed(
      '{"charge":"0.27","start_count":"3572","status":"Completed","remains":"0","currency":"USD"}',
    );
    expect(unwrap(await a.status(['15']))).toEqual(
      new Map([['15', { state: 'completed', result: '' }]]),
    );
    expect(sent[0]).toEqual({ key: fake.smm.apiKey, action: 'status', orders: '15' });
  });
});

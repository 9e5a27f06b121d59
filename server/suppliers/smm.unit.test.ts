import net from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { endpointUrl } from './adapter';
import { startFakeSupplier, type FakeSupplier } from './fake-supplier';
import { closeIdleConnections, postForm } from './http';
import { SMM_TYPE_SPECS, SMM_TYPES } from '../../shared/smm-types';
import { createSmmAdapter } from './smm';
import type {
  CallOutcome,
  RemoteCancel,
  RemoteRefillStatus,
  RemoteStatus,
  SupplierConnection,
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
    const byId = new Map(unwrap(outcome).services.map((service) => [service.remoteId, service]));
    expect(byId.get('1')).toEqual({
      remoteId: '1',
      name: 'Instagram Followers [Real]',
      group: 'Instagram',
      type: 'Default',
      unit: '1000',
      costMicros: 900_000n,
      costProblem: null,
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
      refill: true,
      cancel: true,
      dripfeed: true,
    });
    expect(byId.get('2')).toMatchObject({
      costMicros: 278_190n,
      refill: false,
      cancel: true,
      dripfeed: false,
    });
    expect(byId.get('3')).toMatchObject({
      type: 'Custom Comments',
      unit: '1000',
      minQuantity: 10,
      maxQuantity: 1500,
      importable: true,
      fields: [
        expect.objectContaining({ key: 'link', param: 'link', type: 'url' }),
        expect.objectContaining({ key: 'comments', param: 'comments', type: 'lines' }),
      ],
    });
    expect(byId.get('39')).toMatchObject({
      type: 'Comment Replies',
      importable: false,
      reason: 'El tipo «Comment Replies» todavía no se puede importar.',
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
    const { services, issues } = unwrap(await a.services());
    expect(services.map((s) => [s.remoteId, s.type, s.unit, s.costMicros, s.importable])).toEqual([
      ['9', 'Default', '1000', 50_000n, true],
      ['10', 'Default', '1000', 0n, false],
    ]);
    expect(services[0]).toMatchObject({ minQuantity: 100, maxQuantity: 1_000_000 });
    expect(services[1]).toMatchObject({ costProblem: 'El costo «1,5» no se puede leer.' });
    expect(issues).toEqual([
      { remoteId: '10', name: 'Bad', reason: 'El costo «1,5» no se puede leer.' },
      { remoteId: null, name: 'no id', reason: 'El servicio no trae identificador.' },
    ]);
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
        [String(pending), { state: 'processing', detail: null, startCount: 100, remains: 100 }],
        [String(done), { state: 'completed', result: '', chargeMicros: 27819n }],
        [String(partial), { state: 'partial', remains: 40, detail: null, chargeMicros: 27819n }],
        [String(over), { state: 'partial', remains: -25, detail: null, chargeMicros: 27819n }],
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
        [refs[0] ?? '', { state: 'processing', detail: null, startCount: 100, remains: 100 }],
        [refs[1] ?? '', { state: 'completed', result: '', chargeMicros: 27819n }],
      ]),
    );
    expect(unwrap(await adapter().status(refs)).get(refs[0] ?? '')).toEqual({
      state: 'partial',
      remains: -5,
      detail: null,
      chargeMicros: 27819n,
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
    expect(outcome.get(placed[0] ?? '')).toMatchObject({ state: 'processing', detail: null });
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
        [ref, { state: 'processing', detail: null, startCount: 100, remains: 100 }],
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
      new Map([['15', { state: 'completed', result: '', chargeMicros: 270000n }]]),
    );
    expect(sent[0]).toEqual({ key: fake.smm.apiKey, action: 'status', orders: '15' });
  });
});

const TEN_MORE = Array.from({ length: 10 }, (_, i) => `Comentario ${i + 1} 👍`);

describe('SMM order types', () => {
  it('reads every type with its fields, unit and bounds, and the supplier flags', async () => {
    const services = unwrap(await adapter().services()).services;
    const byType = new Map(services.map((service) => [service.type, service]));
    for (const type of SMM_TYPES) {
      const spec = SMM_TYPE_SPECS[type];
      const service = byType.get(type);
      expect(service, type).toBeDefined();
      expect(service?.importable, type).toBe(true);
      expect(service?.unit, type).toBe(spec.unit);
      expect(
        service?.fields.map((f) => [f.key, f.param, f.type, f.required]),
        type,
      ).toEqual(spec.fields.map((f) => [f.key, f.key, f.type, f.required]));
      if (spec.quantity.kind === 'none') {
        expect([service?.minQuantity, service?.maxQuantity], type).toEqual([null, null]);
      } else {
        expect(service?.minQuantity, type).toBeGreaterThan(0);
        expect(service?.maxQuantity, type).toBeGreaterThanOrEqual(service?.minQuantity ?? 0);
      }
    }
    // Subscriptions: min and max per post; the poll's answer keeps its bounds.
    expect(byType.get('Subscriptions')).toMatchObject({ minQuantity: 50, maxQuantity: 2000 });
    expect(byType.get('Poll')?.fields[1]).toMatchObject({ key: 'answer_number', min: 1, max: 100 });
  });

  it('reads flags as panels write them and types in any case', async () => {
    const { adapter: a } = stubbed(
      JSON.stringify([
        {
          service: 1,
          name: 'A',
          type: 'custom_comments',
          rate: '1',
          min: 1,
          max: 10,
          refill: '1',
          cancel: 0,
          dripfeed: 'true',
        },
        { service: 2, name: 'B', type: 'SEO', rate: '1', min: 1, max: 10, refill: 'no' },
        { service: 3, name: 'C', type: 'Poll', rate: '1', min: 5, max: 2 },
      ]),
    );
    const { services } = unwrap(await a.services());
    expect(
      services.map((s) => [s.type, s.importable, s.refill, s.cancel, s.dripfeed, s.reason]),
    ).toEqual([
      ['Custom Comments', true, true, false, true, null],
      ['SEO', false, false, false, false, 'El tipo «SEO» todavía no se puede importar.'],
      [
        'Poll',
        false,
        false,
        false,
        false,
        'La cantidad mínima del proveedor es mayor que la máxima.',
      ],
    ]);
  });

  it("sends each type's parameters, a quantity only where the type takes one", async () => {
    const a = adapter();
    const cases: {
      type: string;
      remoteId: string;
      params: Record<string, string>;
      quantity: number;
      sent: Record<string, string>;
    }[] = [
      {
        type: 'Custom Comments',
        remoteId: '3',
        params: { link: LINK, comments: ` uno \r\n\r\n${TEN_MORE.join('\r\n')}\nTres ` },
        quantity: 12,
        sent: { service: '3', link: LINK, comments: ['uno', ...TEN_MORE, 'Tres'].join('\n') },
      },
      {
        type: 'Package',
        remoteId: '4',
        params: { link: `${LINK}/pkg` },
        quantity: 1,
        sent: { service: '4', link: `${LINK}/pkg` },
      },
      {
        type: 'Poll',
        remoteId: '37',
        params: { link: `${LINK}/poll`, answer_number: '2' },
        quantity: 100,
        sent: { service: '37', link: `${LINK}/poll`, answer_number: '2', quantity: '100' },
      },
      {
        type: 'Subscriptions',
        remoteId: '38',
        params: {
          username: 'cometa',
          min: '60',
          max: '80',
          posts: '5',
          delay: '30',
          expiry: '31/12/2030',
        },
        quantity: 400,
        sent: {
          service: '38',
          username: 'cometa',
          min: '60',
          max: '80',
          posts: '5',
          delay: '30',
          expiry: '31/12/2030',
        },
      },
      {
        type: 'Mentions with Hashtags',
        remoteId: '31',
        params: { link: `${LINK}/m`, usernames: 'ana\r\nluis', hashtags: 'uno\ndos' },
        quantity: 200,
        sent: {
          service: '31',
          link: `${LINK}/m`,
          usernames: 'ana\nluis',
          hashtags: 'uno\ndos',
          quantity: '200',
        },
      },
    ];
    for (const c of cases) {
      const outcome = await a.place({
        remoteId: c.remoteId,
        params: c.params,
        quantity: c.quantity,
        type: c.type,
      });
      unwrap(outcome);
      const { key: _key, action, ...sent } = fake.calls.at(-1)?.fields ?? {};
      expect(action).toBe('add');
      expect(sent, c.type).toEqual(c.sent);
    }
    // The fake counted the comments as the quantity and charged per 1000 of them.
    expect(fake.orders.get('23501')).toMatchObject({ quantity: 12, charge: '0.096' });
    expect(fake.orders.get('23504')).toMatchObject({ quantity: 400 });
  });

  it('drip-feed: quantity per run, runs and interval; a total that does not split is refused', async () => {
    const a = adapter();
    const outcome = await a.place({
      remoteId: '1',
      params: { link: LINK },
      quantity: 1000,
      type: 'Default',
      dripfeed: { runs: 4, interval: 30 },
    });
    unwrap(outcome);
    expect(fake.calls.at(-1)?.params).toEqual({
      service: '1',
      link: LINK,
      quantity: '250',
      runs: '4',
      interval: '30',
    });
    expect(fake.orders.get('23501')).toMatchObject({
      quantity: 1000,
      runs: 4,
      interval: 30,
      charge: '0.90',
    });
    const calls = fake.calls.length;
    expect(
      await a.place({
        remoteId: '1',
        params: { link: `${LINK}/2` },
        quantity: 1001,
        type: 'Default',
        dripfeed: { runs: 4, interval: 30 },
      }),
    ).toMatchObject({ ok: false, kind: 'refused-order', exchanges: [] });
    expect(fake.calls).toHaveLength(calls);
    // A service without drip-feed refuses it upstream.
    expect(
      await a.place({
        remoteId: '2',
        params: { link: LINK },
        quantity: 200,
        type: 'Default',
        dripfeed: { runs: 2, interval: 10 },
      }),
    ).toMatchObject({
      ok: false,
      kind: 'refused-order',
      message: 'Drip-feed is disabled for this service',
    });
  });

  it('reads start_count and remains of orders in progress into their range', async () => {
    const { adapter: a } = stubbed(
      JSON.stringify({
        '1': { status: 'In progress', start_count: '3572', remains: '157' },
        '2': { status: 'Processing', start_count: 'n/a', remains: '-12' },
        '3': { status: 'Pending', start_count: '99999999999', remains: 5 },
        '4': { status: 'Active' },
      }),
    );
    expect(unwrap(await a.status(['1', '2', '3', '4']))).toEqual(
      new Map<string, RemoteStatus>([
        ['1', { state: 'processing', detail: null, startCount: 3572, remains: 157 }],
        ['2', { state: 'processing', detail: null, remains: 0 }],
        ['3', { state: 'processing', detail: null, startCount: 0x7fffffff, remains: 5 }],
        ['4', { state: 'processing', detail: null }],
      ]),
    );
  });
});

describe('SMM refills', () => {
  async function completedOrder(remoteId = '1', link = LINK): Promise<string> {
    const ref = unwrap(
      await adapter().place({ remoteId, params: { link }, quantity: 100 }),
    ).reference;
    fake.complete(ref);
    return ref;
  }

  it('asks for a refill and follows it to the end', async () => {
    const a = adapter();
    const ref = await completedOrder();
    const outcome = await a.refill(ref);
    expectRedacted(outcome);
    expect(unwrap(outcome)).toEqual({ refillRef: '701' });
    expect(fake.calls.at(-1)?.fields).toMatchObject({ action: 'refill', order: ref });
    const other = await completedOrder('1', `${LINK}/b`);
    const second = unwrap(await a.refill(other)).refillRef;
    expect(unwrap(await a.refillStatus(['701', second, '999']))).toEqual(
      new Map<string, RemoteRefillStatus>([
        ['701', { state: 'pending' }],
        [second, { state: 'pending' }],
        ['999', { state: 'not-found', detail: 'Refill not found' }],
      ]),
    );
    fake.refillComplete('701');
    fake.refillReject(second, 'Drop too high');
    expect(unwrap(await a.refillStatus(['701', second]))).toEqual(
      new Map<string, RemoteRefillStatus>([
        ['701', { state: 'completed' }],
        [second, { state: 'rejected', reason: 'Drop too high' }],
      ]),
    );
    expect(
      fake.calls.filter((c) => c.action === 'refill_status').map((c) => c.fields.refills),
    ).toEqual([`701,${second},999`, `701,${second}`]);
  });

  it('a refusal is the order’s; an answer without an id is ambiguous', async () => {
    const a = adapter();
    const likes = await completedOrder('2');
    expect(await a.refill(likes)).toMatchObject({
      ok: false,
      kind: 'refused-order',
      message: 'Refill is disabled for this service',
    });
    const running = unwrap(
      await a.place({ remoteId: '1', params: { link: `${LINK}/r` }, quantity: 100 }),
    ).reference;
    expect(await a.refill(running)).toMatchObject({
      ok: false,
      kind: 'refused-order',
      message: 'Order is not eligible for refill',
    });
    fake.when({ action: 'refill' }, { refuse: 'Refills are paused' });
    expect(await a.refill(await completedOrder('1', `${LINK}/c`))).toMatchObject({
      ok: false,
      message: 'Refills are paused',
    });
    expect(
      await stubbed('{"refill":{"error":"Incorrect order ID"}}').adapter.refill('5'),
    ).toMatchObject({
      ok: false,
      kind: 'refused-order',
      message: 'Incorrect order ID',
    });
    expect(await stubbed('{"status":"success"}').adapter.refill('5')).toMatchObject({
      ok: false,
      kind: 'ambiguous',
    });
    expect(unwrap(await stubbed('[{"order":5,"refill":88}]').adapter.refill('5'))).toEqual({
      refillRef: '88',
    });
    expect(await stubbed('{}', 502).adapter.refill('5')).toMatchObject({
      ok: false,
      kind: 'ambiguous',
    });
  });

  it('falls back to one refill at a time when the panel refuses the list', async () => {
    fake.smm.multiRefillStatus = false;
    const a = adapter();
    const one = unwrap(await a.refill(await completedOrder())).refillRef;
    const two = unwrap(await a.refill(await completedOrder('1', `${LINK}/2`))).refillRef;
    fake.refillComplete(two);
    expect(unwrap(await a.refillStatus([one, two]))).toEqual(
      new Map<string, RemoteRefillStatus>([
        [one, { state: 'pending' }],
        [two, { state: 'completed' }],
      ]),
    );
    expect(fake.calls.filter((c) => c.action === 'refill_status').map((c) => c.params)).toEqual([
      { refills: `${one},${two}` },
      { refill: one },
      { refill: two },
    ]);
  });

  it('reads the shapes and words panels use', async () => {
    const { adapter: a } = stubbed(
      JSON.stringify([
        { refill: 1, status: 'Completed' },
        { refill: '2', status: 'In progress' },
        { refill: 3, status: { error: 'Refill not found' } },
        { refill: 4, status: 'Rejected', reason: '<b>Account private</b>' },
        { refill: 5, status: 'Exploded' },
        { refill: 6, status: 'Canceled' },
      ]),
    );
    expect(unwrap(await a.refillStatus(['1', '2', '3', '4', '5', '6', '7']))).toEqual(
      new Map<string, RemoteRefillStatus>([
        ['1', { state: 'completed' }],
        ['2', { state: 'pending' }],
        ['3', { state: 'not-found', detail: 'Refill not found' }],
        ['4', { state: 'rejected', reason: 'Account private' }],
        ['5', { state: 'unknown', detail: 'Estado de reposición «Exploded» desconocido.' }],
        ['6', { state: 'rejected', reason: null }],
      ]),
    );
    expect(
      unwrap(
        await stubbed('{"9":{"status":"Pending"},"8":"Completed"}').adapter.refillStatus([
          '9',
          '8',
        ]),
      ),
    ).toEqual(
      new Map<string, RemoteRefillStatus>([
        ['9', { state: 'pending' }],
        ['8', { state: 'completed' }],
      ]),
    );
    expect(unwrap(await stubbed('{"status":"Completed"}').adapter.refillStatus(['9']))).toEqual(
      new Map([['9', { state: 'completed' }]]),
    );
    expect(await adapter({ apiKey: 'bad' }).refillStatus(['1'])).toMatchObject({
      ok: false,
      kind: 'refused-supplier',
    });
  });
});

describe('SMM cancels', () => {
  it('cancels what the supplier allows, and says why not for the rest', async () => {
    const a = adapter();
    const running = unwrap(
      await a.place({ remoteId: '1', params: { link: LINK }, quantity: 100 }),
    ).reference;
    const pkg = unwrap(
      await a.place({ remoteId: '4', params: { link: `${LINK}/p` }, quantity: 1 }),
    ).reference;
    const outcome = await a.cancel([running, pkg, '999']);
    expectRedacted(outcome);
    expect(unwrap(outcome)).toEqual(
      new Map<string, RemoteCancel>([
        [running, { accepted: true }],
        [pkg, { accepted: false, reason: 'Cancel is not allowed' }],
        ['999', { accepted: false, reason: 'Incorrect order ID' }],
      ]),
    );
    expect(fake.calls.at(-1)?.params).toEqual({ orders: `${running},${pkg},999` });
    // The next status poll reports it cancelled.
    expect(unwrap(await a.status([running])).get(running)).toEqual({
      state: 'cancelled',
      reason: 'Cancelada por el proveedor.',
    });
  });

  it('a panel without cancel refuses every order; other failures fail the call', async () => {
    fake.smm.smartPanel = true;
    const a = adapter({ url: `${fake.url}/api/v1` });
    const ref = unwrap(
      await a.place({ remoteId: '1', params: { link: LINK }, quantity: 100 }),
    ).reference;
    expect(unwrap(await a.cancel([ref, '5']))).toEqual(
      new Map<string, RemoteCancel>([
        [
          ref,
          {
            accepted: false,
            reason: 'El proveedor no admite cancelaciones por API (Incorrect request).',
          },
        ],
        [
          '5',
          {
            accepted: false,
            reason: 'El proveedor no admite cancelaciones por API (Incorrect request).',
          },
        ],
      ]),
    );
    expect(await adapter({ apiKey: 'bad' }).cancel(['1'])).toMatchObject({
      ok: false,
      kind: 'refused-supplier',
    });
    expect(await stubbed('<html>', 500).adapter.cancel(['1'])).toMatchObject({
      ok: false,
      kind: 'ambiguous',
    });
  });

  it('reads the single and keyed shapes, and asks at most 100 a call', async () => {
    expect(unwrap(await stubbed('{"cancel":1}').adapter.cancel(['7']))).toEqual(
      new Map([['7', { accepted: true }]]),
    );
    expect(
      unwrap(
        await stubbed(
          '{"7":{"cancel":1},"8":{"error":"Order is completed"},"9":"0"}',
        ).adapter.cancel(['7', '8', '9']),
      ),
    ).toEqual(
      new Map<string, RemoteCancel>([
        ['7', { accepted: true }],
        ['8', { accepted: false, reason: 'Order is completed' }],
        ['9', { accepted: false, reason: 'El proveedor no aceptó la cancelación.' }],
      ]),
    );
    const { adapter: a, sent } = stubbed('[]');
    const refs = Array.from({ length: 150 }, (_, i) => String(i + 1));
    expect(unwrap(await a.cancel(refs)).size).toBe(0);
    expect(sent.map((f) => (f.orders ?? '').split(',').length)).toEqual([100, 50]);
  });
});

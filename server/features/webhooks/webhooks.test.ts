// Signed webhooks, end to end against a receiver on loopback: a POST for every status change of
// a customer's orders, signed with the endpoint's secret, retried until it is answered 2xx (and
// then never again), given up after its window with the endpoint disabled and its owner told.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  CreatedWebhookEndpoint,
  WebhookDeliveryDto,
  WebhookDeliveryList,
  WebhookEndpointList,
} from '../../../shared/schemas/api-keys';
import type { AdminServiceDto } from '../../../shared/schemas/catalogue';
import type { OrderDto } from '../../../shared/schemas/orders';
import { webhookAttempt, webhookDelivery, webhookEndpoint } from '../../db/schema/reseller';
import { imeiFor } from '../../../tests/setup/imei';
import { fundedCustomer, json, supplierKit, type Kit } from '../../../tests/setup/suppliers';
import { createTestApp, registerVerified } from '../../../tests/setup/test-app';
import { dbTargets } from '../../../tests/setup/test-db';
import { deliver } from './webhooks.service';

type Received = { headers: IncomingHttpHeaders; body: string; at: number };

/**
 * A receiver that answers from a script: `plan` gives the status of each request in turn, with
 * `text` as the body.
 */
async function startReceiver() {
  const received: Received[] = [];
  let plan: number[] = [];
  let text = 'ok';
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push({ headers: req.headers, body, at: Date.now() });
      res.writeHead(plan.shift() ?? 200, { 'Content-Type': 'text/plain' });
      res.end(text);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    answer(statuses: number[], body = 'ok') {
      plan = statuses;
      text = body;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Checks `Cometa-Signature: t=…,v1=…` the way a customer's server should. */
function verify(secret: string, header: string | string[] | undefined, body: string): boolean {
  const text = typeof header === 'string' ? header : '';
  const t = /t=(\d+)/.exec(text)?.[1];
  const v1 = /v1=([0-9a-f]{64})/.exec(text)?.[1];
  if (!t || !v1) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return expected === v1 && Math.abs(Date.now() / 1000 - Number(t)) < 300;
}

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(dbTargets())('webhooks on %s', (target) => {
  let kit: Kit;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let svc: AdminServiceDto;
  let seq = 0;

  beforeAll(async () => {
    // The receiver is on loopback: allowed for webhooks here only.
    kit = await supplierKit(target, {
      WEBHOOK_RETRY_BASE_SECONDS: '1',
      WEBHOOK_ALLOW_PRIVATE_NETWORK: 'true',
    });
    await kit.t.startWorkers();
    receiver = await startReceiver();
    svc = await json<AdminServiceDto>(
      await kit.admin.client.post('/api/admin/services', {
        category: 'IMEI',
        name: 'Consulta con avisos',
        description: 'Para probar los avisos.',
        deliveryTime: '1 hora',
        price: '1.00',
        fields: [{ key: 'imei', label: 'IMEI', type: 'imei', required: true, identifier: true }],
      }),
      201,
    );
  });
  afterAll(async () => {
    await receiver?.close();
    await kit?.close();
  });

  async function subscriber() {
    const customer = await fundedCustomer(kit, '10.00');
    const endpoint = await json<CreatedWebhookEndpoint>(
      await customer.client.post('/api/webhook-endpoints', { url: receiver.url }),
      201,
    );
    return { ...customer, endpoint };
  }

  async function order(client: Awaited<ReturnType<typeof subscriber>>['client']) {
    seq += 1;
    return json<OrderDto>(
      await client.post('/api/orders', {
        serviceId: svc.id,
        fields: { imei: imeiFor(`${Date.now() % 100_000}${seq}`) },
      }),
      201,
    );
  }

  function eventsFor(orderId: string) {
    return receiver.received
      .map((r) => ({
        ...r,
        event: JSON.parse(r.body) as {
          id: string;
          type: string;
          createdAt: string;
          data: OrderDto;
        },
      }))
      .filter((r) => r.event.data.id === orderId);
  }

  it('creates an endpoint with a secret shown once and kept sealed', async () => {
    const s = await subscriber();
    expect(s.endpoint.secret).toMatch(/^whsec_/);
    const list = await json<WebhookEndpointList>(await s.client.get('/api/webhook-endpoints'), 200);
    expect(list.items).toEqual([expect.objectContaining({ url: receiver.url, state: 'active' })]);
    expect(JSON.stringify(list)).not.toContain(s.endpoint.secret);
    const [row] = await kit.t.database.db
      .select()
      .from(webhookEndpoint)
      .where(eq(webhookEndpoint.id, s.endpoint.id));
    expect(row?.secretSealed).not.toContain(s.endpoint.secret);
    // Another customer's endpoint is not theirs to see or delete.
    const other = await fundedCustomer(kit, '1.00');
    const res = await other.client.get(`/api/webhook-endpoints/${s.endpoint.id}/deliveries`);
    expect(res.status).toBe(404);
    expect(
      (await other.client.request('DELETE', `/api/webhook-endpoints/${s.endpoint.id}`)).status,
    ).toBe(404);
  });

  it('refuses a local or private destination unless WEBHOOK_ALLOW_PRIVATE_NETWORK is set', async () => {
    const strict = await createTestApp(target);
    try {
      const { registerVerified } = await import('../../../tests/setup/test-app');
      const { client } = await registerVerified(strict);
      for (const url of [
        'http://127.0.0.1:9/hook',
        'http://localhost/hook',
        'http://[::1]/x',
        'http://10.1.2.3/x',
      ]) {
        const res = await client.post('/api/webhook-endpoints', { url });
        expect(res.status, url).toBe(400);
      }
      expect(
        (await client.post('/api/webhook-endpoints', { url: 'https://hooks.example.com/cometa' }))
          .status,
      ).toBe(201);
    } finally {
      await strict.close();
    }
  });

  it('regression: ALLOW_PRIVATE_NETWORK let customer webhooks reach the internal network', async () => {
    // The supplier setting is on, the webhook one is not.
    const strict = await createTestApp(target, { ALLOW_PRIVATE_NETWORK: 'true' });
    try {
      const { client } = await registerVerified(strict);
      // When added: a literal private address or a local name is refused.
      for (const url of [
        receiver.url,
        'http://localhost/hook',
        'http://localhost./hook',
        'http://cometa.localhost/hook',
        'http://[::1]/x',
        'http://[::ffff:127.0.0.1]/x',
        'http://0x7f000001/x',
        'http://10.1.2.3/x',
        'http://169.254.169.254/latest/meta-data',
      ]) {
        const res = await client.post('/api/webhook-endpoints', { url });
        expect(res.status, url).toBe(400);
      }
      // When delivering: the address connected to is checked, so a name that now resolves
      // inside (or a URL saved before this check) is never reached.
      const endpoint = await json<CreatedWebhookEndpoint>(
        await client.post('/api/webhook-endpoints', { url: 'https://hooks.example.com/cometa' }),
        201,
      );
      for (const url of [receiver.url, receiver.url.replace('127.0.0.1', 'localhost')]) {
        await strict.database.db
          .update(webhookEndpoint)
          .set({ url })
          .where(eq(webhookEndpoint.id, endpoint.id));
        const [delivery] = await strict.database.db
          .insert(webhookDelivery)
          .values({
            endpointId: endpoint.id,
            eventId: `evt_${crypto.randomUUID()}`,
            type: 'order.updated',
            body: '{}',
          })
          .returning({ id: webhookDelivery.id });
        const before = receiver.received.length;
        expect(await deliver(strict.deps, delivery!.id), url).toBe('retry');
        expect(receiver.received.length, url).toBe(before);
        const list = await json<WebhookDeliveryList>(
          await client.get(`/api/webhook-endpoints/${endpoint.id}/deliveries`),
          200,
        );
        const attempt = list.items.find((d) => d.id === delivery!.id)?.lastAttempts[0];
        expect(attempt, url).toEqual(
          expect.objectContaining({
            httpStatus: null,
            reason: 'Dirección no permitida (red privada)',
          }),
        );
      }
    } finally {
      await strict.close();
    }
  });

  it('regression: the delivery list showed customers 1 KB of each answer', async () => {
    const s = await subscriber();
    const secret = 'secreto interno: postgres://admin:clave@10.0.0.5/db\u0007';
    receiver.answer([500], secret);
    const o = await order(s.client);
    let list: WebhookDeliveryList | undefined;
    await until('the failed try and the retry recorded', async () => {
      list = await json<WebhookDeliveryList>(
        await s.client.get(`/api/webhook-endpoints/${s.endpoint.id}/deliveries`),
        200,
      );
      return list.items.some((d) => d.orderId === o.id && d.state === 'delivered');
    });
    receiver.answer([]);
    const mine = list?.items.find((d) => d.orderId === o.id);
    // A status and a short reason, never what the receiver said.
    expect(mine?.lastAttempts.map((a) => Object.keys(a).sort().join())).toEqual([
      'at,httpStatus,ms,reason',
      'at,httpStatus,ms,reason',
    ]);
    expect(mine?.lastAttempts.map(({ httpStatus, reason }) => ({ httpStatus, reason }))).toEqual([
      { httpStatus: 200, reason: null },
      { httpStatus: 500, reason: 'El servidor respondió HTTP 500' },
    ]);
    expect(JSON.stringify(list)).not.toContain('secreto');
    // Nor is it kept.
    const rows = await kit.t.database.db
      .select({ response: webhookAttempt.response })
      .from(webhookAttempt)
      .where(eq(webhookAttempt.deliveryId, mine!.id));
    expect(rows.map((r) => r.response)).toEqual([null, null]);
  });

  it('«Probar» queues one signed test event; its answer is shown and never counts against the endpoint', async () => {
    const s = await subscriber();
    const path = `/api/webhook-endpoints/${s.endpoint.id}`;
    const queued = await json<WebhookDeliveryDto>(await s.client.post(`${path}/test`, {}), 201);
    expect(queued).toMatchObject({ type: 'webhook.test', orderId: null, state: 'pending' });
    await until('the test event', () =>
      receiver.received.some((r) => r.body.includes(queued.eventId)),
    );
    const got = receiver.received.find((r) => r.body.includes(queued.eventId));
    expect(verify(s.endpoint.secret, got?.headers['cometa-signature'], got?.body ?? '')).toBe(true);
    expect(JSON.parse(got?.body ?? '{}')).toMatchObject({
      id: queued.eventId,
      type: 'webhook.test',
    });
    const delivered = async (id: string) => {
      const list = await json<WebhookDeliveryList>(await s.client.get(`${path}/deliveries`), 200);
      return list.items.find((d) => d.id === id);
    };
    await until('delivered', async () => (await delivered(queued.id))?.state === 'delivered');
    expect((await delivered(queued.id))?.lastAttempts[0]?.httpStatus).toBe(200);

    // A failing answer: one try, its status shown, the endpoint still active with no failures.
    receiver.answer([500, 500, 500]);
    const failing = await json<WebhookDeliveryDto>(await s.client.post(`${path}/test`, {}), 201);
    await until('failed', async () => (await delivered(failing.id))?.state === 'failed');
    const failed = await delivered(failing.id);
    expect(failed?.attempts).toBe(1);
    expect(failed?.lastAttempts.map((a) => a.httpStatus)).toEqual([500]);
    receiver.answer([]);
    const endpoints = await json<WebhookEndpointList>(
      await s.client.get('/api/webhook-endpoints'),
      200,
    );
    expect(endpoints.items[0]).toMatchObject({ state: 'active', failures: 0 });
    await new Promise((r) => setTimeout(r, 1500));
    expect(receiver.received.filter((r) => r.body.includes(failing.eventId))).toHaveLength(1);

    // Another customer's endpoint is not theirs to test.
    const other = await fundedCustomer(kit, '1.00');
    expect((await other.client.post(`${path}/test`, {})).status).toBe(404);
  });

  it('POSTs every status change, signed, with the order as the customer sees it', async () => {
    const s = await subscriber();
    receiver.answer([]);
    const o = await order(s.client);
    await until('the creation event', () => eventsFor(o.id).length === 1);
    await json(await kit.admin.client.post(`/api/admin/orders/${o.id}/take`), 200);
    await json(
      await kit.admin.client.post(`/api/admin/orders/${o.id}/complete`, { result: 'Limpio' }),
      200,
    );
    await until('three events', () => eventsFor(o.id).length === 3);
    // Deliveries run side by side and may arrive out of order: the event's time orders them.
    const events = eventsFor(o.id).sort((a, b) =>
      a.event.createdAt.localeCompare(b.event.createdAt),
    );
    expect(events.map((e) => e.event.data.status)).toEqual(['pending', 'processing', 'completed']);
    for (const e of events) {
      expect(e.headers['content-type']).toBe('application/json');
      expect(verify(s.endpoint.secret, e.headers['cometa-signature'], e.body)).toBe(true);
      expect(verify('whsec_wrong', e.headers['cometa-signature'], e.body)).toBe(false);
      expect(e.event.type).toBe('order.updated');
      expect(e.event.id).toMatch(/^evt_/);
      expect(e.headers['cometa-event-id']).toBe(e.event.id);
    }
    expect(events[2]?.event.data).toMatchObject({ id: o.id, number: o.number, result: 'Limpio' });
    expect(new Set(events.map((e) => e.event.id)).size).toBe(3);
    // The receiver answers before the worker records the delivery: wait for the record.
    let states: string[] = [];
    await until('three deliveries recorded', async () => {
      const deliveries = await json<WebhookDeliveryList>(
        await s.client.get(`/api/webhook-endpoints/${s.endpoint.id}/deliveries`),
        200,
      );
      states = deliveries.items.filter((d) => d.orderId === o.id).map((d) => d.state);
      return states.every((state) => state === 'delivered');
    });
    expect(states).toEqual(['delivered', 'delivered', 'delivered']);
  });

  it('a receiver that fails twice then succeeds gets the event exactly once more', async () => {
    const s = await subscriber();
    receiver.answer([500, 503]);
    const o = await order(s.client);
    await until('the third attempt', () => eventsFor(o.id).length >= 3, 30_000);
    // Waits longer than the next retry would: nothing else arrives.
    await new Promise((r) => setTimeout(r, 3500));
    const events = eventsFor(o.id);
    expect(events).toHaveLength(3);
    expect(new Set(events.map((e) => e.event.id)).size).toBe(1);
    expect(events[1]!.at - events[0]!.at).toBeGreaterThanOrEqual(900);
    const [row] = await kit.t.database.db
      .select()
      .from(webhookDelivery)
      .where(eq(webhookDelivery.orderId, o.id));
    expect(row).toMatchObject({ state: 'delivered', attempts: 3, lastStatus: 200 });
    const list = await json<WebhookDeliveryList>(
      await s.client.get(`/api/webhook-endpoints/${s.endpoint.id}/deliveries`),
      200,
    );
    const mine = list.items.find((d) => d.orderId === o.id);
    expect(mine?.lastAttempts.map((a) => a.httpStatus)).toEqual([200, 503, 500]);

    // Resending sends the same event once more.
    await json(
      await s.client.post(`/api/webhook-endpoints/${s.endpoint.id}/deliveries/${row?.id}/resend`),
      200,
    );
    await until('the resent event', () => eventsFor(o.id).length === 4);
    expect(eventsFor(o.id)[3]?.event.id).toBe(events[0]?.event.id);
  });

  it('gives up after its window, disables the endpoint and e-mails its owner', async () => {
    const s = await subscriber();
    receiver.answer([500, 500, 500, 500, 500, 500]);
    await kit.t.database.db
      .update(webhookEndpoint)
      .set({ state: 'disabled' })
      .where(eq(webhookEndpoint.id, s.endpoint.id));
    // (Disabled while the order is placed: no delivery is even queued.)
    const quiet = await order(s.client);
    expect(
      await kit.t.database.db
        .select()
        .from(webhookDelivery)
        .where(eq(webhookDelivery.orderId, quiet.id)),
    ).toHaveLength(0);
    await json(await s.client.post(`/api/webhook-endpoints/${s.endpoint.id}/enable`), 200);
    const o = await order(s.client);
    await until('a failed attempt', () => eventsFor(o.id).length >= 1);
    const [row] = await kit.t.database.db
      .select()
      .from(webhookDelivery)
      .where(eq(webhookDelivery.orderId, o.id));
    if (!row) throw new Error('no delivery');
    // The window closes: the next try gives up.
    await kit.t.database.db
      .update(webhookDelivery)
      .set({ retryUntil: new Date(Date.now() - 1000), nextAttemptAt: new Date() })
      .where(eq(webhookDelivery.id, row.id));
    expect(await deliver(kit.t.deps, row.id)).toBe('failed');
    const endpoints = await json<WebhookEndpointList>(
      await s.client.get('/api/webhook-endpoints'),
      200,
    );
    expect(endpoints.items[0]).toMatchObject({ state: 'disabled', stateLabel: 'Desactivado' });
    expect(endpoints.items[0]?.disabledReason).toMatch(/3 días/);
    const mail = await kit.t.waitForMail(s.email, /destino de avisos está desactivado/);
    expect(mail.text).toContain(receiver.url);
    // Nothing more is sent to a disabled endpoint.
    expect(await deliver(kit.t.deps, row.id)).toBe('nothing-to-do');
  });
});

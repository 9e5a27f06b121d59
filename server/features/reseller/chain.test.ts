// Cometa buys from Cometa: a downstream instance connects an upstream one as its DHRU supplier
// (username = the reseller's e-mail there, key = a personal API key), imports a service, and an
// order placed downstream travels up over real HTTP; the upstream admin completes it and the
// downstream customer gets the result. Two apps, two databases, real sockets.
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedApiKey } from '../../../shared/schemas/api-keys';
import type { AdminServiceDto } from '../../../shared/schemas/catalogue';
import type { OrderDto } from '../../../shared/schemas/orders';
import type { SupplierDto } from '../../../shared/schemas/suppliers';
import { order } from '../../db/schema/catalogue';
import { imeiFor } from '../../../tests/setup/imei';
import { json, SUPPLIER_TEST_ENV } from '../../../tests/setup/suppliers';
import {
  createTestApp,
  registerVerified,
  signInAdmin,
  userIdOf,
  type TestApp,
} from '../../../tests/setup/test-app';
import { dbTargets } from '../../../tests/setup/test-db';
import { verifyLedger } from '../ledger/ledger.verify';
import { runDispatch } from '../suppliers/dispatch.service';
import { pollAll } from '../suppliers/poll.service';

describe.each(dbTargets())('Cometa buys from Cometa on %s', (target) => {
  let upstream: TestApp;
  let downstream: TestApp;
  let server: ReturnType<typeof serve>;
  let upstreamUrl: string;

  beforeAll(async () => {
    upstream = await createTestApp(target);
    downstream = await createTestApp(target, SUPPLIER_TEST_ENV);
    server = serve({ fetch: upstream.app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((r) => server.once('listening', r));
    upstreamUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => server?.close(r));
    await downstream?.close();
    await upstream?.close();
  });

  it('an order placed downstream is fulfilled upstream and its result comes back', async () => {
    // Upstream: a service, and a reseller account with balance and a personal key.
    const upAdmin = await signInAdmin(upstream);
    const upService = await json<AdminServiceDto>(
      await upAdmin.client.post('/api/admin/services', {
        category: 'unlock',
        name: 'Liberación por IMEI (mayorista)',
        description: 'Código de liberación.',
        deliveryTime: '1-24 horas',
        price: '2.00',
        fields: [{ key: 'imei', label: 'IMEI', type: 'imei', required: true, identifier: true }],
      }),
      201,
    );
    const reseller = await registerVerified(upstream, 'Tienda Revendedora');
    const resellerId = await userIdOf(upstream, reseller.email);
    await json(
      await upAdmin.client.post(`/api/admin/users/${resellerId}/adjustments`, {
        amount: '20.00',
        reason: 'Saldo del revendedor',
      }),
      201,
    );
    const key = await json<CreatedApiKey>(
      await reseller.client.post('/api/keys', { name: 'Mi otra tienda' }),
      201,
    );

    // Downstream: the upstream instance connected as a DHRU supplier, its service imported.
    const downAdmin = await signInAdmin(downstream);
    const supplier = await json<SupplierDto>(
      await downAdmin.client.post('/api/admin/suppliers', {
        name: 'Cometa mayorista',
        protocol: 'dhru',
        url: upstreamUrl,
        username: reseller.email,
        apiKey: key.key,
      }),
      201,
    );
    expect(supplier).toMatchObject({ state: 'activo', balance: '20.00', currency: 'USD' });
    const imported = await json<{ items: AdminServiceDto[] }>(
      await downAdmin.client.post(`/api/admin/suppliers/${supplier.id}/import`, {
        remoteIds: [String(upService.number)],
        category: 'unlock',
        markupPercent: 25,
      }),
      200,
    );
    const downService = imported.items[0];
    expect(downService).toMatchObject({
      name: upService.name,
      price: '2.50',
      fields: [expect.objectContaining({ key: 'imei', type: 'imei' })],
    });

    // A downstream customer orders it; the order goes up.
    const customer = await registerVerified(downstream, 'Cliente Final');
    await json(
      await downAdmin.client.post(
        `/api/admin/users/${await userIdOf(downstream, customer.email)}/adjustments`,
        { amount: '10.00', reason: 'Saldo de prueba' },
      ),
      201,
    );
    const imei = imeiFor(`${Date.now() % 1_000_000}77`);
    const placed = await json<OrderDto>(
      await customer.client.post('/api/orders', {
        serviceId: downService?.id,
        fields: { imei },
      }),
      201,
    );
    expect(await runDispatch(downstream.deps, placed.id)).toBe('sent');
    const [up] = await upstream.database.db.select().from(order).where(eq(order.identifier, imei));
    expect(up).toMatchObject({
      userId: resellerId,
      source: 'dhru',
      status: 'pending',
      price: 200n,
    });

    // The upstream admin completes it; the downstream poll brings the result back.
    await json(
      await upAdmin.client.post(`/api/admin/orders/${up?.id}/complete`, {
        result: 'Código: 8841-2203\nModelo: A54',
      }),
      200,
    );
    expect((await pollAll(downstream.deps, { dueSeconds: 0 })).settled).toBe(1);
    const done = await json<OrderDto>(await customer.client.get(`/api/orders/${placed.id}`), 200);
    expect(done).toMatchObject({ status: 'completed', result: 'Código: 8841-2203\nModelo: A54' });
    await downstream.waitForMail(customer.email, /completada/);

    // Both sets of books balance: 2.00 left the reseller upstream, 2.50 the customer downstream.
    expect((await verifyLedger(upstream.database.db)).problems).toEqual([]);
    expect((await verifyLedger(downstream.database.db)).problems).toEqual([]);
    const wallet = await json<{ available: string }>(await reseller.client.get('/api/wallet'), 200);
    expect(wallet.available).toBe('18.00');
  });
});

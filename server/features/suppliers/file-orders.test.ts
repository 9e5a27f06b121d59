// File orders forwarded to a DHRU supplier (the fake's file services): imported from
// fileservicelist, the customer's upload sent once with placefileorder, followed with
// getfileorder, settled through the same functions; the bytes never reach the supplier log.
// The workers are not running here: each test drives the dispatch and the polls itself.
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { OrderDto } from '../../../shared/schemas/orders';
import type { UploadedOrderFile } from '../../../shared/schemas/order-files';
import { supplierLog } from '../../db/schema/suppliers';
import {
  connectDhru,
  dispatchRow,
  expectLedgerClean,
  fundedCustomer,
  importServices,
  json,
  placeOrder,
  supplierKit,
  type Kit,
} from '../../../tests/setup/suppliers';
import { dbTargets } from '../../../tests/setup/test-db';
import { rawRequest } from '../../security/api-surface';
import { balances } from '../ledger/ledger.service';
import { runDispatch } from './dispatch.service';
import { pollAll } from './poll.service';

describe.each(dbTargets())('file orders forwarded to a DHRU supplier on %s', (target) => {
  let kit: Kit;

  beforeAll(async () => {
    kit = await supplierKit(target);
  });
  afterAll(async () => {
    await kit?.close();
  });
  beforeEach(() => {
    kit.fake.reset();
  });
  afterEach(async () => {
    await expectLedgerClean(kit);
  });

  it('imports a file service, sends the customer’s file once with placefileorder and settles it from getfileorder', async () => {
    const sup = await connectDhru(kit);
    const [svc] = await importServices(kit, sup.id, ['file:113'], 'unlock', 20);
    if (!svc) throw new Error('import failed');
    expect(svc).toMatchObject({
      name: 'Samsung FRP reset (firmware file)',
      price: '3.00',
      fields: [{ key: 'file', label: 'Archivo', type: 'file', required: true }],
    });

    const customer = await fundedCustomer(kit, '10.00');
    const bytes = Buffer.from('FRP-DUMP-'.repeat(1000));
    const form = new FormData();
    form.append('serviceId', svc.id);
    form.append('field', 'file');
    form.append('file', new File([bytes], 'samsung-a52.bin'));
    const up = await json<UploadedOrderFile>(
      await rawRequest(kit.t, {
        method: 'POST',
        url: '/api/order-files',
        as: customer.client,
        body: form,
      }),
      201,
    );
    const order: OrderDto = await placeOrder(customer.client, svc.id, { file: up.id });

    expect(await runDispatch(kit.t.deps, order.id)).toBe('sent');
    expect(await runDispatch(kit.t.deps, order.id)).toBe('nothing-to-do');
    expect(kit.fake.placedCount()).toBe(1);
    const upstream = kit.fake.orders.get('file:9001');
    expect(upstream?.file).toEqual({ name: 'samsung-a52.bin', bytes });
    expect((await dispatchRow(kit, order.id))?.reference).toBe('file:9001');

    // The log keeps the call, never the file.
    const logs = await kit.t.database.db
      .select()
      .from(supplierLog)
      .where(eq(supplierLog.supplierId, sup.id));
    const sent = logs.find((l) => l.action === 'placefileorder');
    expect(sent?.request['parameters (decoded)']).toContain(`${bytes.length} bytes`);
    expect(JSON.stringify(logs.map((l) => [l.request, l.response]))).not.toContain(
      bytes.toString('base64').slice(0, 60),
    );

    // An IMEI order at the same supplier gets the same upstream number: both followed apart.
    const [imeiSvc] = await importServices(kit, sup.id, ['1382'], 'IMEI', 20);
    const imeiOrder = await placeOrder(customer.client, imeiSvc!.id, { imei: '359702373699048' });
    expect(await runDispatch(kit.t.deps, imeiOrder.id)).toBe('sent');
    expect((await dispatchRow(kit, imeiOrder.id))?.reference).toBe('9001');

    kit.fake.complete('file:9001', 'FRP removed<br>Reboot the phone');
    await pollAll(kit.t.deps, { dueSeconds: 0 });
    const done = await json<OrderDto>(await customer.client.get(`/api/orders/${order.id}`), 200);
    expect(done).toMatchObject({ status: 'completed', result: 'FRP removed\nReboot the phone' });
    expect(kit.fake.calls.filter((c) => c.action === 'getfileorder')).toHaveLength(1);
    const imeiStill = await json<OrderDto>(
      await customer.client.get(`/api/orders/${imeiOrder.id}`),
      200,
    );
    expect(imeiStill.status).toBe('processing');
    // 3.00 captured for the file order, 0.96 still held for the IMEI one.
    expect(await balances(kit.t.database.db, customer.id)).toEqual({ available: 604n, held: 96n });
  });

  it('a supplier’s refusal of the file rejects the order and refunds it once', async () => {
    const sup = await connectDhru(kit);
    const [svc] = await importServices(kit, sup.id, ['file:113'], 'unlock', 20);
    const customer = await fundedCustomer(kit, '5.00');
    const form = new FormData();
    form.append('serviceId', svc!.id);
    form.append('field', 'file');
    form.append('file', new File([Buffer.from('x'.repeat(100))], 'dump.bin'));
    const up = await json<UploadedOrderFile>(
      await rawRequest(kit.t, {
        method: 'POST',
        url: '/api/order-files',
        as: customer.client,
        body: form,
      }),
      201,
    );
    kit.fake.when(
      { protocol: 'dhru', action: 'placefileorder' },
      { refuse: 'Invalid File Format' },
    );
    const order = await placeOrder(customer.client, svc!.id, { file: up.id });
    expect(await runDispatch(kit.t.deps, order.id)).toBe('rejected');
    const after = await json<OrderDto>(await customer.client.get(`/api/orders/${order.id}`), 200);
    expect(after.status).toBe('rejected');
    expect(await balances(kit.t.database.db, customer.id)).toEqual({ available: 500n, held: 0n });
    expect(kit.fake.placedCount()).toBe(0);
  });
});

// What the supplier tests share: the real app on a test database with the repository's fake
// supplier on loopback, an admin, customers with balance, and connected suppliers.
import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { AdminServiceDto } from '../../shared/schemas/catalogue';
import type { OrderDto } from '../../shared/schemas/orders';
import type { AdminOrderDto, SupplierDto } from '../../shared/schemas/suppliers';
import { ledgerTransfer } from '../../server/db/schema/ledger';
import { orderDispatch } from '../../server/db/schema/suppliers';
import { verifyLedger } from '../../server/features/ledger/ledger.verify';
import {
  FAKE_DHRU_API_KEY,
  FAKE_DHRU_USERNAME,
  FAKE_SMM_API_KEY,
  startFakeSupplier,
  type FakeSupplier,
} from '../../server/suppliers/fake-supplier';
import {
  createTestApp,
  registerVerified,
  signInAdmin,
  userIdOf,
  type TestApp,
  type TestClient,
} from './test-app';
import type { DbTarget } from './test-db';

export type Kit = {
  t: TestApp;
  fake: FakeSupplier;
  admin: Awaited<ReturnType<typeof signInAdmin>>;
  close: () => Promise<void>;
};

/** Suppliers on loopback are allowed; short time-outs so a hanging supplier ends a test fast. */
export const SUPPLIER_TEST_ENV = {
  ALLOW_PRIVATE_NETWORK: 'true',
  SUPPLIER_TIMEOUT_SECONDS: '2',
  SUPPLIER_CONNECT_TIMEOUT_SECONDS: '1',
  SUPPLIER_POLL_SECONDS: '1',
};

export async function supplierKit(
  target: DbTarget,
  env: Record<string, string> = {},
): Promise<Kit> {
  const t = await createTestApp(target, { ...SUPPLIER_TEST_ENV, ...env });
  const fake = await startFakeSupplier();
  const admin = await signInAdmin(t);
  return {
    t,
    fake,
    admin,
    async close() {
      await fake.close();
      await t.close();
    },
  };
}

export async function json<T>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  expect(res.status, text.slice(0, 500)).toBe(status);
  return JSON.parse(text) as T;
}

let names = 0;

export async function connectDhru(
  kit: Kit,
  extra: Record<string, unknown> = {},
): Promise<SupplierDto> {
  names += 1;
  return json<SupplierDto>(
    await kit.admin.client.post('/api/admin/suppliers', {
      name: `Proveedor DHRU ${names}`,
      protocol: 'dhru',
      url: kit.fake.url,
      username: FAKE_DHRU_USERNAME,
      apiKey: FAKE_DHRU_API_KEY,
      ...extra,
    }),
    201,
  );
}

export async function connectSmm(
  kit: Kit,
  extra: Record<string, unknown> = {},
): Promise<SupplierDto> {
  names += 1;
  return json<SupplierDto>(
    await kit.admin.client.post('/api/admin/suppliers', {
      name: `Panel SMM ${names}`,
      protocol: 'smm',
      url: kit.fake.url,
      apiKey: FAKE_SMM_API_KEY,
      ...extra,
    }),
    201,
  );
}

export async function importServices(
  kit: Kit,
  supplierId: string,
  remoteIds: string[],
  category = 'IMEI',
  markupPercent = 20,
): Promise<AdminServiceDto[]> {
  const body = await json<{ items: AdminServiceDto[] }>(
    await kit.admin.client.post(`/api/admin/suppliers/${supplierId}/import`, {
      remoteIds,
      category,
      markupPercent,
    }),
    200,
  );
  return body.items;
}

export async function fundedCustomer(
  kit: Kit,
  amount = '100.00',
): Promise<{ client: TestClient; email: string; id: string }> {
  const { client, email } = await registerVerified(kit.t);
  const id = await userIdOf(kit.t, email);
  const res = await kit.admin.client.post(`/api/admin/users/${id}/adjustments`, {
    amount,
    reason: 'Saldo de prueba',
  });
  expect(res.status).toBe(201);
  return { client, email, id };
}

export async function placeOrder(
  client: TestClient,
  serviceId: string,
  fields: Record<string, string>,
  quantity?: number,
): Promise<OrderDto> {
  return json<OrderDto>(
    await client.post('/api/orders', { serviceId, fields, ...(quantity ? { quantity } : {}) }),
    201,
  );
}

export async function adminOrder(kit: Kit, orderId: string): Promise<AdminOrderDto> {
  return json<AdminOrderDto>(await kit.admin.client.get(`/api/admin/orders/${orderId}`), 200);
}

export async function dispatchRow(kit: Kit, orderId: string) {
  const [row] = await kit.t.database.db
    .select()
    .from(orderDispatch)
    .where(eq(orderDispatch.orderId, orderId));
  return row;
}

/** Ledger transfers of one order of a kind (order_release, order_capture, order_hold). */
export async function transfersOf(kit: Kit, orderId: string, kind: string) {
  return kit.t.database.db
    .select()
    .from(ledgerTransfer)
    .where(
      and(
        eq(ledgerTransfer.referenceType, 'order'),
        eq(ledgerTransfer.referenceId, orderId),
        eq(ledgerTransfer.kind, kind),
      ),
    );
}

export async function expectLedgerClean(kit: Kit): Promise<void> {
  const report = await verifyLedger(kit.t.database.db);
  expect(report.problems).toEqual([]);
}

/** Makes a waiting dispatch due now (instead of waiting minutes for its back-off). */
export async function makeDue(kit: Kit, orderId: string): Promise<void> {
  await kit.t.database.db
    .update(orderDispatch)
    .set({ nextAttemptAt: new Date(Date.now() - 1000) })
    .where(eq(orderDispatch.orderId, orderId));
}

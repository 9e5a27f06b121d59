import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerVerified, type TestApp } from '../../../tests/setup/test-app';
import { dbTargets } from '../../../tests/setup/test-db';

// Every /api/admin route, as a customer and as a visitor: the server refuses, whatever the UI shows.
const ADMIN_ROUTES: [method: string, path: string, body?: unknown][] = [
  ['GET', '/api/admin/users?q=ana'],
  ['POST', '/api/admin/users/someone/adjustments', { amount: '5.00', reason: 'Regalo' }],
  ['GET', '/api/admin/funds/requests?status=pending'],
  ['POST', '/api/admin/funds/requests/00000000-0000-0000-0000-000000000000/approve', {}],
  [
    'POST',
    '/api/admin/funds/requests/00000000-0000-0000-0000-000000000000/reject',
    { reason: 'No' },
  ],
  ['GET', '/api/admin/funds/requests/00000000-0000-0000-0000-000000000000/receipt'],
  ['GET', '/api/admin/funds/methods'],
  [
    'POST',
    '/api/admin/funds/methods',
    { name: 'X', instructions: 'Y', minAmount: '1.00', maxAmount: '2.00' },
  ],
  ['PATCH', '/api/admin/funds/methods/00000000-0000-0000-0000-000000000000', { active: false }],
  ['GET', '/api/admin/vouchers'],
  ['POST', '/api/admin/vouchers', { amount: '10.00', count: 1 }],
  ['GET', '/api/admin/vouchers/00000000-0000-0000-0000-000000000000/export.csv'],
];

describe.each(dbTargets())('admin authorization on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 403 to a verified customer on every admin route', async () => {
    const { client } = await registerVerified(t);
    for (const [method, path, body] of ADMIN_ROUTES) {
      const res = await client.request(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(((await res.json()) as { code: string }).code, `${method} ${path}`).toBe('FORBIDDEN');
    }
  });

  it('answers 401 to a visitor on every admin route', async () => {
    for (const [method, path, body] of ADMIN_ROUTES) {
      const res = await t.client().request(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });
});

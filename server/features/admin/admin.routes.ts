import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { AdjustmentSchema } from '../../../shared/schemas/wallet';
import type { Db } from '../../db/client';
import type { Auth } from '../../lib/auth';
import { readJson, requireAdmin, type AppEnv } from '../../lib/http';
import { adjustBalance } from './adjustments.service';
import { searchCustomers } from './users.service';

/** /api/admin/*: every route checks the admin role on the server. */
export function adminRoutes(deps: { db: Db; auth: Auth }) {
  return new Hono<AppEnv>()
    .get('/users', async (c) => {
      await requireAdmin(deps.auth, c);
      return c.json({ items: await searchCustomers(deps.db, c.req.query('q') ?? '') });
    })
    .post('/users/:id/adjustments', async (c) => {
      const admin = await requireAdmin(deps.auth, c);
      const input = await readJson(c, AdjustmentSchema);
      const result = await adjustBalance(deps.db, {
        adminId: admin.id,
        userId: c.req.param('id'),
        amount: input.amount,
        reason: input.reason,
        requestKey: c.req.header('idempotency-key')?.slice(0, 200) || randomUUID(),
        ipAddress: c.get('clientIp'),
      });
      return c.json(result, result.replayed ? 200 : 201);
    });
}

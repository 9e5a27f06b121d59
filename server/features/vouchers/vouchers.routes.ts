import { Hono } from 'hono';
import { formatUsd } from '../../../shared/money';
import type { Db } from '../../db/client';
import type { Auth } from '../../lib/auth';
import { readJson, requireAdmin, requireVerifiedUser, type AppEnv } from '../../lib/http';
import {
  CreateBatchSchema,
  RedeemSchema,
  type RedeemResultDto,
} from '../../../shared/schemas/vouchers';
import { batchCsv, createBatch, listBatches, redeem } from './vouchers.service';

/** /api/admin/vouchers: batches of prepaid codes. Every route checks the admin role first. */
export function voucherAdminRoutes(deps: { db: Db; auth: Auth }) {
  return new Hono<AppEnv>()
    .post('/', async (c) => {
      const admin = await requireAdmin(deps.auth, c);
      const input = await readJson(c, CreateBatchSchema);
      const created = await createBatch(deps.db, admin.id, input, c.get('clientIp'));
      return c.json(created, 201);
    })
    .get('/', async (c) => {
      await requireAdmin(deps.auth, c);
      return c.json({ items: await listBatches(deps.db) });
    })
    .get('/:id/export.csv', async (c) => {
      await requireAdmin(deps.auth, c);
      const id = c.req.param('id');
      const csv = await batchCsv(deps.db, id);
      return c.body(csv, 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="vales-${id}.csv"`,
        'Cache-Control': 'no-store',
      });
    });
}

/** /api/funds/redeem: a verified customer spends a code and gets its value as balance. */
export function voucherRedeemRoutes(deps: { db: Db; auth: Auth }) {
  return new Hono<AppEnv>().post('/', async (c) => {
    const u = await requireVerifiedUser(deps.auth, c);
    const { code } = await readJson(c, RedeemSchema);
    const result = await redeem(deps.db, u.id, code, c.get('clientIp'));
    const body: RedeemResultDto = {
      ...result,
      message: `Código canjeado: se añadieron ${formatUsd(result.amount)} a tu saldo.`,
    };
    return c.json(body, 200);
  });
}

import { Hono } from 'hono';
import type { Db } from '../../db/client';
import type { Auth } from '../../lib/auth';
import { requireVerifiedUser, type AppEnv } from '../../lib/http';
import { getWallet, listMovements, listTopups } from './wallet.service';

export function walletRoutes(deps: { db: Db; auth: Auth }) {
  return new Hono<AppEnv>()
    .get('/', async (c) => {
      const u = await requireVerifiedUser(deps.auth, c);
      return c.json(await getWallet(deps.db, u.id));
    })
    .get('/movements', async (c) => {
      const u = await requireVerifiedUser(deps.auth, c);
      return c.json(await listMovements(deps.db, u.id, c.req.query('cursor') || undefined));
    })
    .get('/topups', async (c) => {
      const u = await requireVerifiedUser(deps.auth, c);
      return c.json({ items: await listTopups(deps.db, u.id) });
    });
}

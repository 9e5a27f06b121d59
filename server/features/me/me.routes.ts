import { Hono } from 'hono';
import { UpdateProfileSchema } from '../../../shared/schemas/auth';
import type { Db } from '../../db/client';
import type { Auth } from '../../lib/auth';
import { readJson, requireVerifiedUser, type AppEnv } from '../../lib/http';
import { getMe, updateProfile } from './me.service';

export function meRoutes(deps: { db: Db; auth: Auth }) {
  return new Hono<AppEnv>()
    .get('/', async (c) => {
      const u = await requireVerifiedUser(deps.auth, c);
      return c.json(await getMe(deps.db, u));
    })
    .patch('/', async (c) => {
      const u = await requireVerifiedUser(deps.auth, c);
      const input = await readJson(c, UpdateProfileSchema);
      return c.json(await updateProfile(deps.db, u, input));
    });
}

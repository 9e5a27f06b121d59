import { Hono } from 'hono';
import { ContactSchema } from '../../../shared/schemas/contact';
import type { Db } from '../../db/client';
import type { Env } from '../../env';
import type { Auth } from '../../lib/auth';
import { AppError } from '../../lib/errors';
import { readJson, type AppEnv } from '../../lib/http';
import type { Logger } from '../../lib/logger';
import type { Mailer } from '../../lib/mail';
import { consumeRateLimit } from '../../lib/rate-limit';
import { submitContactMessage } from './contact.service';

export function contactRoutes(deps: {
  db: Db;
  auth: Auth;
  env: Env;
  mailer: Mailer;
  logger: Logger;
}) {
  return new Hono<AppEnv>().post('/', async (c) => {
    const limit = await consumeRateLimit(deps.db, `contact:${c.get('clientIp')}`, {
      window: 3600,
      max: 5,
    });
    if (!limit.allowed) {
      c.header('Retry-After', String(limit.retryAfter ?? 3600));
      throw new AppError(
        'RATE_LIMITED',
        'Has enviado varios mensajes seguidos. Inténtalo de nuevo más tarde.',
      );
    }
    const input = await readJson(c, ContactSchema);
    const session = await deps.auth.api.getSession({ headers: c.req.raw.headers });
    const result = await submitContactMessage(
      {
        db: deps.db,
        mailer: deps.mailer,
        logger: deps.logger,
        appName: deps.env.APP_NAME,
        operatorEmail: deps.env.CONTACT_EMAIL ?? deps.env.ADMIN_EMAIL,
      },
      input,
      { ipAddress: c.get('clientIp'), userId: session?.user.id ?? null },
    );
    return c.json(
      { id: result.id, message: 'Gracias. Hemos recibido tu mensaje y te responderemos pronto.' },
      201,
    );
  });
}

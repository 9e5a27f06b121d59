import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../db/client';
import { openTestDatabase } from '../../tests/setup/test-db';
import { dbTargets } from '../../tests/setup/test-db';
import { errorHandler } from './error-handler';
import type { AppEnv } from './http';
import { createLogger } from './logger';

// The last line of defence behind the edge checks: a value the database itself refuses.
describe.each(dbTargets())('errors the database raises, on %s', (target) => {
  let database: Database;
  const logger = createLogger('silent');

  function appRunning(query: ReturnType<typeof sql>) {
    const app = new Hono<AppEnv>();
    app.use(async (c, next) => {
      c.set('requestId', 'test-request');
      c.set('logger', logger);
      await next();
    });
    app.onError(errorHandler);
    app.get('/q', async (c) => {
      await database.db.execute(query);
      return c.json({ ok: true });
    });
    return app;
  }

  beforeAll(async () => {
    database = await openTestDatabase(target);
  });
  afterAll(async () => {
    await database.close();
  });

  it('regression: input PostgreSQL refuses (SQLSTATE class 22) is a 400 logged as a warning, not a 500', async () => {
    const refused = [
      sql`SELECT ${'abc'}::int`, // 22P02 invalid_text_representation
      sql`SELECT ${'2026-13-45 99:99:99'}::timestamptz`, // 22008 datetime_field_overflow
      sql`SELECT ${'99999999999999999999'}::bigint`, // 22003 numeric_value_out_of_range
    ];
    const warn = vi.spyOn(logger, 'warn');
    for (const query of refused) {
      warn.mockClear();
      const res = await appRunning(query).request('/q');
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        code: 'BAD_REQUEST',
        message: 'La solicitud no es válida.',
      });
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String((warn.mock.calls[0]?.[0] as { sqlState?: string }).sqlState)).toMatch(/^22/);
    }
  });

  it('any other database error stays a 500 with the request id, logged as an error', async () => {
    const error = vi.spyOn(logger, 'error');
    const res = await appRunning(sql`SELECT * FROM no_such_table_here`).request('/q');
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ code: 'INTERNAL', requestId: 'test-request' });
    expect(error).toHaveBeenCalledTimes(1);
  });
});

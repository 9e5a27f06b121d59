import type { Context } from 'hono';
import { ERROR_MESSAGES } from '../../shared/error-codes';
import { AppError } from './errors';
import type { AppEnv } from './http';

/** SQLSTATE of a database error anywhere in the cause chain (drizzle wraps the driver's error). */
export function sqlState(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * The app's one `onError`: an AppError becomes its status and `{ code, message, fields? }`; a
 * value the database refused (SQLSTATE class 22, data exception) is the caller's input, so a 400
 * logged as a warning; anything else is a 500 with the request id, logged as an error.
 */
export function errorHandler(err: Error, c: Context<AppEnv>): Response {
  if (err instanceof AppError) {
    return c.json(
      {
        code: err.code,
        message: err.message,
        ...(err.fields ? { fields: err.fields } : {}),
        // A failure of ours (e.g. the card provider down): the id ties a report to the logs.
        ...(err.status >= 500 ? { requestId: c.get('requestId') } : {}),
      },
      err.status,
    );
  }
  const state = sqlState(err);
  if (state?.startsWith('22')) {
    // The edge checks should have caught it: the warning says which route has the gap.
    c.get('logger').warn(
      { sqlState: state, path: c.req.path, method: c.req.method },
      'input refused by the database',
    );
    return c.json({ code: 'BAD_REQUEST', message: ERROR_MESSAGES.BAD_REQUEST }, 400);
  }
  c.get('logger').error({ err, path: c.req.path }, 'unhandled error');
  return c.json(
    { code: 'INTERNAL', message: ERROR_MESSAGES.INTERNAL, requestId: c.get('requestId') },
    500,
  );
}

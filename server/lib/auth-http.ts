// The HTTP edge of Better Auth (/api/auth/*). Better Auth validates its own fields; this adds
// what every other route of the API gets from server/lib/route.ts, and keeps secrets and
// foreign redirects out of what it answers:
// - a body limit (413 before the body is read) and JSON only (415);
// - every string of the body and of the query checked for control, bidi and invalid characters;
// - the client address in a header only this server sets (Better Auth reads it for rate limits);
// - no `token` property in a JSON answer: the session token lives in the HttpOnly cookie, and a
//   script on the page must not be able to read it from sign-in or get-session;
// - no Location header pointing outside the app's origins;
// - a JSON 404 for a path Better Auth does not serve (unknown or turned off);
// - e-mailed links without the characters a mail client appended to them (email-links.ts).
import { ERROR_MESSAGES } from '../../shared/error-codes';
import type { Context } from 'hono';
import { findTextProblem, textProblemMessage } from '../../shared/text';
import type { Env } from '../env';
import { trustedOrigins, type Auth } from './auth';
import { CLIENT_IP_HEADER } from './client-ip';
import { tidyEmailLink } from './email-links';
import { AppError } from './errors';
import type { AppEnv } from './http';
import { limitBody } from './route';
import { sameOriginPath } from './safe-redirect';

/** Largest body an /api/auth/* request may send; the biggest real one is well under 1 KiB. */
export const AUTH_BODY_LIMIT = 16 * 1024;

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
const JSON_ANSWER = /^application\/(?:[\w.+-]+\+)?json/i;

function textError(problem: { path: string; message: string }): AppError {
  return new AppError(
    'VALIDATION_FAILED',
    `Revisa el campo «${problem.path}»: ${problem.message}`,
    {
      [problem.path]: problem.message,
    },
  );
}

/** The first problem in the query string (every value of every key), or null. */
function queryProblem(queries: Record<string, string[]>): { path: string; message: string } | null {
  for (const [key, values] of Object.entries(queries)) {
    const keyMessage = textProblemMessage(key);
    if (keyMessage) return { path: '(clave)', message: keyMessage };
    for (const value of values) {
      const found = findTextProblem(value, [key]);
      if (found) return found;
    }
  }
  return null;
}

/**
 * Removes every `token` property (top level, `session.token`, each item of list-sessions…) from a
 * parsed JSON answer. Returns whether anything was removed. Depth-bounded like findTextProblem.
 */
export function stripTokens(value: unknown, depth = 0): boolean {
  if (depth > 16 || value === null || typeof value !== 'object') return false;
  let removed = false;
  if (Array.isArray(value)) {
    for (const item of value) removed = stripTokens(item, depth + 1) || removed;
    return removed;
  }
  const record = value as Record<string, unknown>;
  if (Object.hasOwn(record, 'token')) {
    delete record.token;
    removed = true;
  }
  for (const child of Object.values(record)) removed = stripTokens(child, depth + 1) || removed;
  return removed;
}

/** Reads and checks the request; throws the AppError to answer with. Returns the body text. */
async function checkedBody(c: Context<AppEnv>): Promise<string | undefined> {
  const problemInQuery = queryProblem(c.req.queries());
  if (problemInQuery) throw textError(problemInQuery);
  if (c.req.method !== 'POST') return undefined;
  const text = await c.req.text();
  if (text === '') return undefined;
  if (!JSON_TYPE.test(c.req.header('content-type') ?? '')) {
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      'Envía los datos como JSON (Content-Type: application/json).',
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AppError('BAD_REQUEST', 'El cuerpo de la solicitud debe ser JSON válido.');
  }
  const problem = findTextProblem(parsed);
  if (problem) throw textError(problem);
  return text;
}

const TWO_FACTOR_LOCKED_MESSAGE =
  'Demasiados códigos incorrectos: bloqueamos la verificación en dos pasos de la cuenta durante 15 minutos y avisamos a su titular por correo.';

/** Better Auth's answer without tokens in the body and without a foreign Location. */
async function safeAnswer(response: Response, origins: string[]): Promise<Response> {
  const headers = new Headers(response.headers);
  let changed = false;
  if (response.status === 429) {
    // Better Auth's own limiter answers `X-Retry-After` and an English message: give clients the
    // standard header and people the Spanish message, as every other limit of the API does.
    const retryAfter = headers.get('retry-after') ?? headers.get('x-retry-after') ?? '60';
    const text = await response.text();
    let code: unknown;
    try {
      code = (JSON.parse(text) as { code?: unknown }).code;
    } catch {
      code = undefined;
    }
    if (code === 'RATE_LIMITED') {
      headers.set('retry-after', retryAfter);
      return new Response(text, { status: 429, headers });
    }
    // The two-factor lock-out keeps its code: the page explains it differently.
    const body = JSON.stringify(
      code === 'ACCOUNT_TEMPORARILY_LOCKED'
        ? { code, message: TWO_FACTOR_LOCKED_MESSAGE }
        : { code: 'RATE_LIMITED', message: ERROR_MESSAGES.RATE_LIMITED },
    );
    headers.set('retry-after', retryAfter);
    headers.set('content-type', 'application/json');
    headers.set('content-length', String(Buffer.byteLength(body)));
    return new Response(body, { status: 429, headers });
  }
  if (response.status === 404 && !JSON_ANSWER.test(headers.get('content-type') ?? '')) {
    // An unknown path and a turned-off endpoint (disabledPaths) answer as every other unknown
    // /api/* path: the same JSON 404, so neither tells which endpoints Better Auth has.
    const body = JSON.stringify({ code: 'NOT_FOUND', message: ERROR_MESSAGES.NOT_FOUND });
    const notFound = new Headers({ 'content-type': 'application/json' });
    return new Response(body, { status: 404, headers: notFound });
  }
  const location = headers.get('location');
  if (location !== null && !origins.some((o) => sameOriginPath(location, o, null) !== null)) {
    headers.set('location', '/');
    changed = true;
  }
  let body: BodyInit | null = response.body;
  if (JSON_ANSWER.test(headers.get('content-type') ?? '') && response.body) {
    const text = await response.text();
    body = text;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (parsed !== undefined && stripTokens(parsed)) {
      body = JSON.stringify(parsed);
      headers.set('content-length', String(Buffer.byteLength(body)));
    }
    changed = true;
  }
  if (!changed) return response;
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/** The handler for `app.on(['GET', 'POST'], '/api/auth/*', …)`. */
export function authHttpHandler(auth: Auth, env: Env) {
  const limit = limitBody(AUTH_BODY_LIMIT);
  const origins = trustedOrigins(env);
  return async (c: Context<AppEnv, string>): Promise<Response> => {
    let answer: Response | undefined;
    await limit(c, async () => {
      const body = await checkedBody(c);
      // Better Auth reads the client address from a header only this server sets.
      const headers = new Headers(c.req.raw.headers);
      headers.set(CLIENT_IP_HEADER, c.get('clientIp'));
      headers.delete('content-length');
      headers.delete('transfer-encoding');
      // A link from an e-mail without what a mail client appended to it (a period, a bracket).
      const url = c.req.method === 'GET' ? tidyEmailLink(c.req.url) : c.req.url;
      const request = new Request(url, {
        method: c.req.method,
        headers,
        body,
        signal: c.req.raw.signal,
      });
      answer = await safeAnswer(await auth.handler(request), origins);
    });
    // limitBody throws (413) rather than skipping the handler, so an answer is always set here.
    if (!answer) throw new AppError('INTERNAL');
    return answer;
  };
}

import { ERROR_MESSAGES, type ApiErrorBody } from '../../../shared/error-codes';
import { ApiError, isMobileDevice } from '../../lib/api';
import { endSession, getSessionState } from '../../lib/session';
import { apiTimeout } from '../../lib/session-timing';
import type { Loaded } from './types';

/** Resolves a request into Loaded, so one failing list does not take the whole page down. */
export async function settle<T>(request: Promise<T>): Promise<Loaded<T>> {
  try {
    return { ok: true, data: await request };
  } catch (err) {
    if (err instanceof ApiError) return { ok: false, error: err.message };
    throw err;
  }
}

/** A fresh Idempotency-Key; randomUUID needs a secure context, so fall back to getRandomValues. */
export function newRequestKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function messageFor(status: number, body: Partial<ApiErrorBody>): string {
  const code = body.code;
  if (code && code in ERROR_MESSAGES) return body.message || ERROR_MESSAGES[code];
  if (status === 429) return ERROR_MESSAGES.RATE_LIMITED;
  if (status >= 500) return ERROR_MESSAGES.INTERNAL;
  return ERROR_MESSAGES.BAD_REQUEST;
}

/**
 * POST JSON with an Idempotency-Key header (api() takes no headers): the same time-out and
 * the same ApiError (Spanish message, fields, code) as api(), so forms map it the same way.
 */
export async function postWithIdempotencyKey<T>(
  path: string,
  body: unknown,
  idempotencyKey: string,
): Promise<T> {
  const timeout = AbortSignal.timeout(apiTimeout(isMobileDevice()));
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: {
        Accept: 'application/json',
        'Content-Type': 'application/json',
        'Idempotency-Key': idempotencyKey,
      },
      body: JSON.stringify(body),
      credentials: 'same-origin',
      signal: timeout,
    });
  } catch {
    if (timeout.aborted)
      throw new ApiError(
        0,
        'TIMEOUT',
        'La solicitud tardó demasiado. Revisa tu conexión e inténtalo de nuevo.',
      );
    throw new ApiError(
      0,
      'NETWORK',
      'No hay conexión con el servidor. Revisa tu conexión e inténtalo de nuevo.',
    );
  }
  const text = await response.text();
  let parsed: unknown = null;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
  }
  if (!response.ok) {
    const errorBody = (parsed ?? {}) as Partial<ApiErrorBody>;
    // What api() does through its 401 listeners: the session is over, go sign in again.
    if (response.status === 401 && getSessionState().status === 'authenticated') endSession(true);
    throw new ApiError(
      response.status,
      errorBody.code ?? `HTTP_${response.status}`,
      messageFor(response.status, errorBody),
      errorBody.fields ?? {},
    );
  }
  return parsed as T;
}

import type { z } from 'zod';
import { ERROR_MESSAGES } from '../../shared/error-messages';
import { currentPageContext } from '../../shared/page-context';
import { apiTimeout } from './session-timing';

/** An API answer other than 2xx, or a network failure (`code` NETWORK / TIMEOUT). */
export class ApiError extends Error {
  readonly status: number;
  /** An ErrorCode, a Better Auth code, or NETWORK / TIMEOUT. */
  readonly code: string;
  readonly fields: Record<string, string>;

  constructor(status: number, code: string, message: string, fields: Record<string, string> = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fields = fields;
  }

  get isNetwork(): boolean {
    return this.code === 'NETWORK' || this.code === 'TIMEOUT';
  }
}

export function isMobileDevice(): boolean {
  if (typeof navigator === 'undefined') return false;
  const coarse = typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;
  return coarse || /Mobi|Android|iPhone|iPad/i.test(navigator.userAgent);
}

type Listener = (error: ApiError) => void;
const unauthorizedListeners = new Set<Listener>();

/** Called with every 401 from our API, so the session store can end the session. */
export function onUnauthorized(listener: Listener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

// Better Auth's own codes, as people should read them.
const AUTH_MESSAGES: Record<string, string> = {
  INVALID_EMAIL_OR_PASSWORD: 'Correo o contraseña incorrectos.',
  USER_ALREADY_EXISTS:
    'No pudimos crear la cuenta con ese correo. Si ya tienes una cuenta, inicia sesión o recupera tu contraseña.',
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL:
    'No pudimos crear la cuenta con ese correo. Si ya tienes una cuenta, inicia sesión o recupera tu contraseña.',
  PASSWORD_TOO_SHORT: 'La contraseña debe tener al menos 8 caracteres.',
  PASSWORD_TOO_LONG: 'La contraseña no puede tener más de 128 caracteres.',
  INVALID_EMAIL: 'Escribe un correo electrónico válido.',
  INVALID_TOKEN: 'El enlace no es válido o ya caducó. Pide uno nuevo.',
  TOKEN_EXPIRED: 'El enlace caducó. Pide uno nuevo.',
  EMAIL_ALREADY_VERIFIED: 'Tu correo ya está verificado.',
  BANNED_USER: 'Tu cuenta está suspendida. Escríbenos desde la página de contacto.',
  TOO_MANY_REQUESTS: ERROR_MESSAGES.RATE_LIMITED,
};

function messageFor(status: number, body: { code?: string; message?: string }): string {
  const code = body.code ?? '';
  if (AUTH_MESSAGES[code]) return AUTH_MESSAGES[code];
  if (code in ERROR_MESSAGES && body.message) return body.message;
  if (status === 429) return ERROR_MESSAGES.RATE_LIMITED;
  if (body.message && /[áéíóúñ¿¡]|\b(el|la|los|las|tu|de)\b/i.test(body.message))
    return body.message;
  if (status >= 500) return ERROR_MESSAGES.INTERNAL;
  return ERROR_MESSAGES.BAD_REQUEST;
}

/** JSON request to our API with the time-out of docs/domain.md §8 and errors as ApiError. */
export type ApiInit = {
  method?: string;
  body?: unknown;
  /** Sent as it is, as `text/plain`, instead of `body` (a FormData `body` goes as multipart). */
  text?: string;
  signal?: AbortSignal;
  onResponse?: (response: Response) => void;
  /** Extra request headers (e.g. Idempotency-Key). */
  headers?: Record<string, string>;
  /** What to tell the person when the request times out. */
  timeoutMessage?: string;
  /** A longer time-out than the default (uploads), in milliseconds. */
  timeoutMs?: number;
};

/** The parts of an error answer the client reads; anything else in it is ignored. */
export type ErrorAnswer = { code?: string; message?: string; fields?: Record<string, string> };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The code, message and field messages of an error answer, each left out when missing or
 * malformed. Plain checks rather than a zod schema: this runs on every page, zod does not.
 */
export function readErrorAnswer(body: unknown): ErrorAnswer {
  if (!isRecord(body)) return {};
  const out: ErrorAnswer = {};
  if (typeof body.code === 'string') out.code = body.code;
  if (typeof body.message === 'string') out.message = body.message;
  const fields = body.fields;
  if (isRecord(fields) && Object.values(fields).every((v) => typeof v === 'string'))
    out.fields = { ...(fields as Record<string, string>) };
  return out;
}

/** An answer's status and JSON body (null when empty or not JSON), before any schema. */
export type ApiAnswer = { status: number; body: unknown };

/**
 * `fetch` in the browser; on the server, the page being rendered (a server loader reads the API
 * as the visitor it renders for, without a network round trip).
 */
function transport(path: string, init: RequestInit): Promise<Response> {
  if (typeof window !== 'undefined') return fetch(path, init);
  const page = currentPageContext();
  if (!page) throw new Error(`API call outside a page render on the server: ${path}`);
  return page.fetch(path, init);
}

async function request(path: string, init: ApiInit): Promise<ApiAnswer> {
  const timeout = AbortSignal.timeout(init.timeoutMs ?? apiTimeout(isMobileDevice()));
  // A FormData body goes as multipart (the browser writes its boundary); anything else as JSON.
  const multipart = typeof FormData !== 'undefined' && init.body instanceof FormData;
  const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
  let response: Response;
  try {
    const plain = init.text;
    response = await transport(path, {
      method: init.method ?? (init.body === undefined && plain === undefined ? 'GET' : 'POST'),
      headers: {
        Accept: 'application/json',
        ...(plain !== undefined
          ? { 'Content-Type': 'text/plain; charset=utf-8' }
          : init.body === undefined || multipart
            ? {}
            : { 'Content-Type': 'application/json' }),
        ...init.headers,
      },
      body:
        plain !== undefined
          ? plain
          : init.body === undefined
            ? undefined
            : multipart
              ? (init.body as FormData)
              : JSON.stringify(init.body),
      credentials: 'same-origin',
      signal,
    });
  } catch (err) {
    if (timeout.aborted)
      throw new ApiError(
        0,
        'TIMEOUT',
        init.timeoutMessage ??
          'La solicitud tardó demasiado. Revisa tu conexión e inténtalo de nuevo.',
      );
    if (init.signal?.aborted) throw err;
    throw new ApiError(
      0,
      'NETWORK',
      'No hay conexión con el servidor. Revisa tu conexión e inténtalo de nuevo.',
    );
  }
  init.onResponse?.(response);
  const text = await response.text();
  let body: unknown = null;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
  }
  if (!response.ok) {
    const errorBody = readErrorAnswer(body);
    const error = new ApiError(
      response.status,
      errorBody.code ?? `HTTP_${response.status}`,
      messageFor(response.status, errorBody),
      errorBody.fields ?? {},
    );
    if (
      response.status === 401 &&
      !path.startsWith('/api/auth/sign-in') &&
      typeof window !== 'undefined'
    ) {
      for (const listener of unauthorizedListeners) listener(error);
    }
    throw error;
  }
  return { status: response.status, body };
}

/**
 * An answer whose shape is not the schema's: a bug between server and web, never the person's
 * doing. Logged with the differences; the person reads the usual "something went wrong".
 */
export async function checkAnswer<S extends z.ZodType>(
  path: string,
  schema: S,
  answer: ApiAnswer,
): Promise<z.output<S>> {
  const parsed = schema.safeParse(answer.body);
  if (parsed.success) return parsed.data;
  // The schema came from a zod module, so zod is loaded already: this import only names it
  // (a static one would put zod on pages that never parse an answer).
  const { prettifyError } = await import('zod');
  console.error(`Respuesta inesperada de ${path}:\n${prettifyError(parsed.error)}`);
  throw new ApiError(answer.status, 'INVALID_RESPONSE', ERROR_MESSAGES.INTERNAL);
}

/** Options of the typed helpers: everything but the method (and the body, passed apart). */
export type ApiOptions = Omit<ApiInit, 'method' | 'body'>;

/**
 * A JSON request whose answer is not read: it resolves with the parsed body as `unknown`. To read
 * the answer, use `api.get / api.post / api.patch / api.put / api.send` with the answer's shared
 * schema.
 */
export async function api(path: string, init: ApiInit = {}): Promise<unknown> {
  return (await request(path, init)).body;
}

/** Sends `init` and parses the answer with `schema` (its output type is the result's type). */
api.send = async function send<S extends z.ZodType>(
  path: string,
  schema: S,
  init: ApiInit = {},
): Promise<z.output<S>> {
  return checkAnswer(path, schema, await request(path, init));
};

/**
 * Sends `init` and resolves with the answer unparsed, for a caller that parses it later with
 * `checkAnswer` (or not at all, e.g. the signed-out `null` of get-session).
 */
api.answer = function answer(path: string, init: ApiInit = {}): Promise<ApiAnswer> {
  return request(path, init);
};

/** GET `path`, the answer parsed with `schema`. */
api.get = function get<S extends z.ZodType>(
  path: string,
  schema: S,
  options: ApiOptions = {},
): Promise<z.output<S>> {
  return api.send(path, schema, { ...options, method: 'GET' });
};

/** POST `body` as JSON (nothing when undefined), the answer parsed with `schema`. */
api.post = function post<S extends z.ZodType>(
  path: string,
  schema: S,
  body?: unknown,
  options: ApiOptions = {},
): Promise<z.output<S>> {
  return api.send(path, schema, { ...options, method: 'POST', body });
};

/** POST text (as `text/plain`) or a multipart form as it is, the answer parsed with `schema`. */
api.upload = function upload<S extends z.ZodType>(
  path: string,
  schema: S,
  content: string | FormData,
  options: ApiOptions = {},
): Promise<z.output<S>> {
  return api.send(path, schema, {
    ...options,
    method: 'POST',
    ...(typeof content === 'string' ? { text: content } : { body: content }),
  });
};

/** PATCH `body` as JSON, the answer parsed with `schema`. */
api.patch = function patch<S extends z.ZodType>(
  path: string,
  schema: S,
  body: unknown,
  options: ApiOptions = {},
): Promise<z.output<S>> {
  return api.send(path, schema, { ...options, method: 'PATCH', body });
};

/** PUT `body` as JSON (the whole resource), the answer parsed with `schema`. */
api.put = function put<S extends z.ZodType>(
  path: string,
  schema: S,
  body: unknown,
  options: ApiOptions = {},
): Promise<z.output<S>> {
  return api.send(path, schema, { ...options, method: 'PUT', body });
};

// One definition per API route. The definition is the only place a route exists: `mountRoutes`
// turns it into the Hono route (body limit, access check, rate limit, content type, input
// checks, validation), `buildOpenApiDocument` turns it into the documented operation, and the
// authorization matrix and the fuzz tests walk the same list. See docs/architecture.md.
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { z } from 'zod';
import type { ErrorCode } from '../../shared/error-codes';
import type { StaffRole } from '../../shared/roles';
import { fieldErrors } from '../../shared/schemas/auth';
import { findTextProblem } from '../../shared/text';
import type { Db } from '../db/client';
import type { Env } from '../env';
import type { Auth } from './auth';
import { authenticateKey } from './api-keys';
import { AppError } from './errors';
import {
  requireStaff,
  requireVerifiedUser,
  sessionUser,
  type AppEnv,
  type SessionUser,
} from './http';
import type { JobQueue } from '../jobs/queue';
import type { Logger } from './logger';
import type { Metrics } from './metrics';
import type { Mailer } from './mail';
import { consumeRateLimit } from './rate-limit';

/**
 * Who may call a route:
 * - `public`: anyone, no session;
 * - `optional`: anyone; a session, if sent, is read;
 * - `customer`: a session of a verified account (401 without one, 403 before verifying);
 * - `admin`: the back office: as `customer`, two-factor on, and the account has one of the staff
 *   roles the route names in `roles` (default: `admin` alone; 403 otherwise);
 * - `stripe`: Stripe, with a `Stripe-Signature` header instead of a session;
 * - `protocol`: another panel speaking DHRU Fusion or SMM v2: the handler reads the form,
 *   checks the key in it and answers in that protocol's format (errors included).
 */
export type Access = 'public' | 'optional' | 'customer' | 'admin' | 'stripe' | 'protocol';

export const TAGS = [
  {
    name: 'Catálogo',
    description:
      'Los servicios activos que se pueden pedir, por categoría, con los datos que pide cada uno.',
  },
  {
    name: 'Órdenes',
    description:
      'Pedir servicios con el saldo, seguirlos, cancelarlos mientras estén pendientes y exportar el historial.',
  },
  {
    name: 'Saldo',
    description:
      'El saldo disponible y el retenido por órdenes en curso, los movimientos y las recargas hechas.',
  },
  {
    name: 'Recargas',
    description:
      'Añadir saldo: con tarjeta (Stripe Checkout), con un pago manual que revisa un administrador o canjeando un código.',
  },
  {
    name: 'Cuenta',
    description:
      'La persona que ha iniciado sesión: su nombre, su rol y su saldo disponible. El registro y el inicio de sesión están en `/api/auth/*` (ver la introducción).',
  },
  { name: 'Contacto', description: 'El formulario de contacto de la web pública.' },
  {
    name: 'Soporte',
    description:
      'Tickets de soporte entre el cliente y la tienda: abrirlos (con órdenes vinculadas y archivos adjuntos), seguirlos, responder, cerrarlos y reabrirlos.',
  },
  {
    name: 'Reventa',
    description:
      'Para otros paneles que compran aquí: la API DHRU Fusion y la API de paneles SMM v2, con una clave API personal.',
  },
  {
    name: 'Pagos',
    description:
      'Avisos firmados de Stripe. No los llama una persona: Stripe los envía cuando un pago con tarjeta se completa, caduca o falla.',
  },
  {
    name: 'Administración',
    description:
      'Solo para cuentas con el rol de administrador: catálogo, cola de órdenes, revisión de pagos manuales, métodos de pago, códigos de recarga y ajustes de saldo.',
  },
  { name: 'Documentación', description: 'Este documento, en JSON (OpenAPI 3.1) y como página.' },
] as const;

export type TagName = (typeof TAGS)[number]['name'];

/** What every handler can use. One object, built once by `createApp`. */
export type RouteDeps = {
  db: Db;
  env: Env;
  auth: Auth;
  mailer: Mailer;
  logger: Logger;
  jobs: JobQueue;
  metrics: Metrics;
  /** The OpenAPI document and its page, built from the route list on first use. */
  apiDocs: () => { json: string; html: string };
};

export type SuccessSpec = {
  status: 200 | 201;
  description: string;
  /** A JSON body described by a response component; or a file of one of these media types. */
  body: string | { media: string[]; description: string };
  headers?: Record<string, { description: string; schema: Record<string, unknown> }>;
};

export type RateLimitSpec = {
  /** Counter name; the key is `<name>:<user id or client address>`. */
  name: string;
  /** Count per signed-in account (default) or per client address. */
  per: 'user' | 'ip';
  window: number;
  /** Requests allowed per window; a function reads it from the configuration. */
  max: number | ((env: Env) => number);
  message: string;
};

export type CodeSample = { lang: string; label: string; source: (baseUrl: string) => string };

/** Bytes a route reads at most when it does not say otherwise. */
export const DEFAULT_BODY_LIMIT = 32 * 1024;

type Schema = z.ZodType;
type Infer<T> = T extends Schema ? z.output<T> : undefined;
type UserFor<A extends Access> = A extends 'customer' | 'admin'
  ? SessionUser
  : A extends 'optional'
    ? SessionUser | null
    : null;

export type HandlerArgs<A extends Access, B, Q, P> = {
  c: Context<AppEnv>;
  deps: RouteDeps;
  user: UserFor<A>;
  body: Infer<B>;
  query: Infer<Q>;
  params: Infer<P>;
  /** Files of a multipart body (only for routes with a `form` body): the first of each field. */
  files: Record<string, File>;
  /** Every file of a multipart body, by field (a field sent several times: `files`). */
  fileLists: Record<string, File[]>;
};

export type RouteSpec<A extends Access, B, Q, P> = {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Full path as Hono writes it: `/api/orders/:id`. */
  path: `/api/${string}`;
  operationId: string;
  tag: TagName;
  summary: string;
  description?: string;
  access: A;
  /**
   * `admin` routes: the staff roles allowed (shared/roles.ts). Every back-office route names
   * them here, in its one definition; the authorization matrix checks each against its table.
   */
  roles?: readonly StaffRole[];
  /** Path parameters: a zod object with one key per `:name`. A value it refuses answers 404. */
  params?: P;
  /** Query parameters: a zod object of optional strings (refused values answer 400 per field). */
  query?: Q;
  body?: {
    /** The JSON body (also the text fields of a form body). */
    schema: B;
    /** The route also takes `multipart/form-data` / urlencoded; this schema documents the form. */
    form?: Schema;
    /**
     * Text fields of the form that may be sent several times: the schema gets all their values
     * as an array (any other repeated field gives the schema its first value).
     */
    repeated?: readonly string[];
    /** Whether the body must be present; default true. */
    required?: boolean;
    description?: string;
    /**
     * Field errors the schema cannot name (a rule across fields, or one against the saved
     * record), added when the schema refuses a JSON body so every problem is named at once; the
     * schema's message wins for a field both name. Gets the body as sent (parsed, unchecked).
     */
    moreErrors?: (args: {
      raw: unknown;
      params: Infer<P>;
      deps: RouteDeps;
    }) => Promise<Record<string, string>>;
  };
  /**
   * Largest body in bytes (default DEFAULT_BODY_LIMIT); a larger one answers 413 (its rest read
   * and thrown away first, up to a bound, so the client can read the answer).
   */
  bodyLimit?: number;
  /** The 413 message when the body is over `bodyLimit` (default: the generic one with the size). */
  bodyLimitMessage?: string;
  /** The body is read by the handler as raw text (Stripe's signature covers the exact bytes). */
  rawBody?: boolean;
  /**
   * `protocol` routes: the form the handler reads itself (only documented; the handler answers
   * every problem in its protocol's format, so the edge does not parse or refuse it).
   */
  protocolForm?: Schema;
  /** Description of the `Idempotency-Key` header, when the route reads it. */
  idempotencyKey?: string;
  rateLimit?: RateLimitSpec;
  responses: SuccessSpec[];
  /** Error codes the route itself can answer, beyond those of its access level and body. */
  errors?: ErrorCode[];
  codeSamples?: CodeSample[];
  handler: (args: HandlerArgs<A, B, Q, P>) => Response | Promise<Response>;
};

/** A route definition with its generics erased, as lists hold it. */
export type RouteDef = Omit<
  RouteSpec<Access, Schema | undefined, Schema | undefined, Schema | undefined>,
  'handler'
> & {
  handler: (args: ErasedHandlerArgs) => Response | Promise<Response>;
};

type ErasedHandlerArgs = Omit<
  HandlerArgs<Access, undefined, undefined, undefined>,
  'user' | 'body' | 'query' | 'params'
> & {
  user: SessionUser | null;
  body: unknown;
  query: unknown;
  params: unknown;
};

export function defineRoute<
  A extends Access,
  B extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  P extends Schema | undefined = undefined,
>(spec: RouteSpec<A, B, Q, P>): RouteDef {
  return spec as unknown as RouteDef;
}

/** `:id` names in a Hono path. */
export function pathParamNamesOf(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1] ?? '');
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
const FORM_TYPE = /^(?:multipart\/form-data|application\/x-www-form-urlencoded)\s*(?:;|$)/i;

function sizeLabel(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${Math.round(bytes / 1024 / 1024)} MB`
    : `${Math.round(bytes / 1024)} KB`;
}

/** Extra bytes of an over-limit body read and thrown away at least, and at most. */
export const DISCARD_MIN_BYTES = 4 * 1024 * 1024;
export const DISCARD_MAX_BYTES = 32 * 1024 * 1024;
/** Time spent reading and throwing away the rest of an over-limit body, at most. */
export const DISCARD_MAX_MS = 10_000;

/**
 * How much of an over-limit body is read and thrown away before the 413: twice the route's
 * limit, at least DISCARD_MIN_BYTES and at most DISCARD_MAX_BYTES.
 */
export function discardBytesFor(maxSize: number): number {
  return Math.min(Math.max(2 * maxSize, DISCARD_MIN_BYTES), DISCARD_MAX_BYTES);
}

type DiscardOptions = { discardBytes?: number; discardMs?: number };

/**
 * Reads and throws away what is left of a body, up to `bytes` or until `deadline`; true when
 * the body ended within both. A pending read left behind is harmless: the connection closes.
 */
async function discardRest(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  bytes: number,
  deadline: number,
): Promise<boolean> {
  let read = 0;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), Math.max(0, deadline - Date.now()));
  });
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), late]);
      if (next === 'late') return false;
      if (next.done) return true;
      read += next.value.byteLength;
      if (read > bytes) return false;
    }
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The route's body limit. A body over it answers 413 `PAYLOAD_TOO_LARGE` — but only once the
 * rest of it has been read and thrown away (a bounded amount, for a bounded time), and with
 * `Connection: close`: a server that answers and closes while the client is still sending
 * resets the connection, and the client (a browser uploading a file) never reads the 413. A
 * declared length beyond what would be thrown away is answered at once.
 */
export function limitBody(
  maxSize: number,
  message?: string,
  options: DiscardOptions = {},
): MiddlewareHandler<AppEnv> {
  const discardBytes = options.discardBytes ?? discardBytesFor(maxSize);
  const discardMs = options.discardMs ?? DISCARD_MAX_MS;
  function tooLarge(c: Context<AppEnv>): AppError {
    c.header('Connection', 'close');
    return new AppError(
      'PAYLOAD_TOO_LARGE',
      message ?? `El contenido enviado es demasiado grande (máximo ${sizeLabel(maxSize)}).`,
    );
  }
  return async function bodyLimit(c, next) {
    const body = c.req.raw.body;
    if (!body) return next();
    const deadline = Date.now() + discardMs;
    const declared = c.req.raw.headers.get('content-length');
    // Node reads exactly a declared length; with Transfer-Encoding the length does not count.
    if (declared !== null && !c.req.raw.headers.has('transfer-encoding')) {
      const length = Number.parseInt(declared, 10);
      if (!(length > maxSize)) return next();
      if (length - maxSize <= discardBytes)
        await discardRest(body.getReader(), length + 1, deadline);
      throw tooLarge(c);
    }
    // Chunked: counted while read, kept up to the limit.
    const reader = body.getReader();
    let size = 0;
    let buffer = new Uint8Array(0);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const offset = size;
      size += value.length;
      if (size > maxSize) {
        await discardRest(reader, maxSize + discardBytes - size, deadline);
        throw tooLarge(c);
      }
      if (size > buffer.length) {
        const grown = new Uint8Array(Math.min(maxSize, Math.max(size, buffer.length * 2)));
        grown.set(buffer.subarray(0, offset));
        buffer = grown;
      }
      buffer.set(value, offset);
    }
    c.req.raw = new Request(c.req.raw, { body: buffer.subarray(0, size) });
    return next();
  };
}

function textError(problem: { path: string; message: string }): AppError {
  return new AppError(
    'VALIDATION_FAILED',
    `Revisa el campo «${problem.path}»: ${problem.message}`,
    {
      [problem.path]: problem.message,
    },
  );
}

function validationError(error: z.ZodError, fallback?: string): AppError {
  return new AppError('VALIDATION_FAILED', fallback, fieldErrors(error));
}

async function readJsonBody(
  c: Context<AppEnv>,
  schema: Schema,
  moreErrors?: (raw: unknown) => Promise<Record<string, string>>,
): Promise<unknown> {
  const text = await c.req.text();
  let raw: unknown;
  try {
    raw = text === '' ? undefined : JSON.parse(text);
  } catch {
    throw new AppError('BAD_REQUEST', 'El cuerpo de la solicitud debe ser JSON válido.');
  }
  if (raw === undefined)
    throw new AppError('BAD_REQUEST', 'El cuerpo de la solicitud debe ser JSON válido.');
  const problem = findTextProblem(raw);
  if (problem) throw textError(problem);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const error = validationError(parsed.error);
    if (!moreErrors) throw error;
    throw new AppError('VALIDATION_FAILED', error.message, {
      ...(await moreErrors(raw)),
      ...error.fields,
    });
  }
  return parsed.data;
}

async function readFormBody(
  c: Context<AppEnv>,
  schema: Schema,
  repeated: readonly string[] = [],
): Promise<{ body: unknown; files: Record<string, File>; fileLists: Record<string, File[]> }> {
  let form: Record<string, string | File | (string | File)[]>;
  try {
    form = await c.req.parseBody({ all: true });
  } catch {
    throw new AppError('BAD_REQUEST', 'El formulario enviado no es válido.');
  }
  const text: Record<string, unknown> = {};
  const files: Record<string, File> = {};
  const fileLists: Record<string, File[]> = {};
  for (const [key, value] of Object.entries(form)) {
    const all = Array.isArray(value) ? value : [value];
    const first = all[0];
    if (typeof first === 'string')
      text[key] =
        repeated.includes(key) && all.length > 1
          ? all.filter((v): v is string => typeof v === 'string')
          : first;
    else if (first !== undefined) {
      files[key] = first;
      fileLists[key] = all.filter((v): v is File => typeof v !== 'string');
    }
  }
  const problem = findTextProblem(text);
  if (problem) throw textError(problem);
  const parsed = schema.safeParse(text);
  if (!parsed.success) throw validationError(parsed.error);
  return { body: parsed.data, files, fileLists };
}

function readQuery(c: Context<AppEnv>, schema: Schema): unknown {
  const raw = c.req.query();
  const problem = findTextProblem(raw);
  if (problem) throw textError(problem);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw validationError(parsed.error, 'Revisa los filtros de la búsqueda.');
  return parsed.data;
}

function readParams(c: Context<AppEnv>, schema: Schema | undefined): unknown {
  if (!schema) return {};
  const parsed = schema.safeParse(c.req.param());
  if (!parsed.success) throw new AppError('NOT_FOUND');
  return parsed.data;
}

/** The key of `Authorization: Bearer <key>`, or null without one. */
function bearerKey(c: Context<AppEnv>): string | null {
  const header = c.req.header('authorization');
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1])
    throw new AppError(
      'UNAUTHENTICATED',
      'La cabecera Authorization debe ser «Bearer <tu clave API>».',
    );
  return match[1];
}

/** A personal API key instead of a session: it acts as its customer, never as an admin. */
async function keyUser(
  access: Access,
  key: string,
  deps: RouteDeps,
  c: Context<AppEnv>,
): Promise<SessionUser> {
  if (access === 'admin')
    throw new AppError(
      'FORBIDDEN',
      'Una clave API actúa como su cliente: la administración no se puede usar con ella.',
    );
  const result = await authenticateKey(deps.db, key, {
    ip: c.get('clientIp'),
    ratePerMinute: deps.env.API_KEY_RATE_LIMIT_PER_MINUTE,
  });
  if (!result.ok) {
    if (result.reason === 'rate-limited') {
      c.header('Retry-After', String(result.retryAfter ?? 60));
      throw new AppError(
        'RATE_LIMITED',
        `Demasiadas peticiones con esta clave API. Espera ${result.retryAfter ?? 60} segundos.`,
      );
    }
    if (result.reason === 'ip-not-allowed')
      throw new AppError(
        'FORBIDDEN',
        `Esta clave API no se puede usar desde la dirección ${c.get('clientIp')}.`,
      );
    throw new AppError('UNAUTHENTICATED', 'La clave API no es válida o fue revocada.');
  }
  const user = { ...result.user, apiKeyId: result.keyId };
  c.set('user', user);
  return user;
}

/** The staff roles an `admin` route allows (only `admin` when it names none). */
export function rolesOf(route: Pick<RouteDef, 'access' | 'roles'>): readonly StaffRole[] {
  return route.access === 'admin' ? (route.roles ?? ['admin']) : [];
}

async function authorize(route: RouteDef, deps: RouteDeps, c: Context<AppEnv>) {
  const access = route.access;
  if (access === 'customer' || access === 'admin' || access === 'optional') {
    const key = bearerKey(c);
    if (key !== null) return keyUser(access, key, deps, c);
  }
  switch (access) {
    case 'customer':
      return requireVerifiedUser(deps.auth, c);
    case 'admin':
      return requireStaff(deps.auth, c, rolesOf(route));
    case 'optional':
      return sessionUser(deps.auth, c);
    default:
      return null;
  }
}

async function applyRateLimit(
  spec: RateLimitSpec,
  deps: RouteDeps,
  c: Context<AppEnv>,
  user: SessionUser | null,
) {
  const who = spec.per === 'user' && user ? user.id : `ip:${c.get('clientIp')}`;
  const max = typeof spec.max === 'function' ? spec.max(deps.env) : spec.max;
  const result = await consumeRateLimit(deps.db, `${spec.name}:${who}`, {
    window: spec.window,
    max,
  });
  if (!result.allowed) {
    c.header('Retry-After', String(result.retryAfter ?? spec.window));
    throw new AppError('RATE_LIMITED', spec.message);
  }
}

function handlerFor(route: RouteDef, deps: RouteDeps) {
  const hasBody = route.body !== undefined && route.method !== 'get';
  return async (c: Context<AppEnv>) => {
    // Who first: an anonymous caller gets 401 whatever the path says.
    const user = await authorize(route, deps, c);
    const params = readParams(c, route.params);
    if (route.rateLimit) await applyRateLimit(route.rateLimit, deps, c, user);
    const query = route.query ? readQuery(c, route.query) : undefined;
    let body: unknown = undefined;
    let files: Record<string, File> = {};
    let fileLists: Record<string, File[]> = {};
    if (hasBody && route.body?.schema) {
      const type = c.req.header('content-type') ?? '';
      const optionalAndEmpty =
        route.body.required === false && !type && (c.req.header('content-length') ?? '0') === '0';
      if (optionalAndEmpty) {
        body = undefined;
      } else if (JSON_TYPE.test(type)) {
        // A raw body is read by the handler itself (a signature covers its exact bytes).
        const more = route.body.moreErrors;
        if (!route.rawBody)
          body = await readJsonBody(
            c,
            route.body.schema,
            more && ((raw) => more({ raw, params, deps })),
          );
      } else if (route.body.form && FORM_TYPE.test(type)) {
        ({ body, files, fileLists } = await readFormBody(
          c,
          route.body.schema,
          route.body.repeated,
        ));
      } else {
        throw new AppError(
          'UNSUPPORTED_MEDIA_TYPE',
          route.body.form
            ? 'Envía los datos como JSON (Content-Type: application/json) o como formulario.'
            : 'Envía los datos como JSON (Content-Type: application/json).',
        );
      }
    }
    return route.handler({ c, deps, user, body, query, params, files, fileLists });
  };
}

/** Registers every route on the app, in list order (static paths before `:id` ones). */
export function mountRoutes(app: Hono<AppEnv>, routes: readonly RouteDef[], deps: RouteDeps) {
  const seen = new Set<string>();
  for (const route of routes) {
    const key = `${route.method} ${route.path}`;
    if (seen.has(key)) throw new Error(`route defined twice: ${key}`);
    seen.add(key);
    const names = pathParamNamesOf(route.path);
    const declared = route.params instanceof z.ZodObject ? Object.keys(route.params.shape) : [];
    if (names.join() !== declared.join())
      throw new Error(`route ${key}: params schema must declare exactly ${names.join(', ')}`);
    const method = route.method.toUpperCase();
    const handler = handlerFor(route, deps);
    if (route.method === 'get') app.on(method, route.path, handler);
    else {
      const limit = limitBody(route.bodyLimit ?? DEFAULT_BODY_LIMIT, route.bodyLimitMessage);
      app.on(method, route.path, limit, handler);
    }
  }
}

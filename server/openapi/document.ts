// Builds the OpenAPI 3.1 document from the operation list and the zod schemas (z.toJSONSchema).
import { ERROR_MESSAGES, ERROR_STATUS, type ErrorCode } from '../../shared/error-codes';
import type { StaffRole } from '../../shared/roles';
import { SCHEMA_DOCS } from './descriptions';
import { z } from 'zod';
import {
  DEFAULT_BODY_LIMIT,
  TAGS,
  pathParamNamesOf,
  rolesOf,
  type Access,
  type RouteDef,
} from '../lib/route';
import {
  REQUEST_PROPERTY_REFS,
  REQUEST_SCHEMAS,
  RESPONSE_SCHEMAS,
  type RequestSchemaName,
  type ResponseSchemaName,
} from './schemas';

export type JsonSchema = { [key: string]: unknown };

export type ParameterObject = {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description: string;
  schema: JsonSchema;
  example?: string;
};

export type MediaTypeObject = {
  schema: JsonSchema;
  examples?: Record<string, { summary: string; value: unknown }>;
};

export type HeaderObject = { description: string; schema: JsonSchema };

export type ResponseObject = {
  description: string;
  headers?: Record<string, HeaderObject>;
  content?: Record<string, MediaTypeObject>;
};

export type RefObject = { $ref: string };

export type OperationObject = {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security: Record<string, string[]>[];
  'x-access': Access;
  /** `admin` operations: the staff roles allowed. */
  'x-roles'?: StaffRole[];
  /** Largest request body in bytes; a larger one answers 413 without being processed. */
  'x-body-limit'?: number;
  parameters?: ParameterObject[];
  requestBody?: {
    required: boolean;
    description?: string;
    content: Record<string, MediaTypeObject>;
  };
  responses: Record<string, ResponseObject | RefObject>;
  'x-codeSamples'?: { lang: string; label: string; source: string }[];
};

export type OpenApiDocument = {
  openapi: '3.1.0';
  jsonSchemaDialect: string;
  info: { title: string; version: string; description: string };
  servers: { url: string; description: string }[];
  tags: { name: string; description: string }[];
  security: Record<string, string[]>[];
  paths: Record<string, Record<string, OperationObject>>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, ResponseObject>;
    securitySchemes: Record<string, JsonSchema>;
  };
};

export type DocumentOptions = {
  /** Public URL of the app (APP_URL): the server of the document and of the examples. */
  appUrl: string;
  /** Product name (APP_NAME). */
  appName: string;
};

export const API_VERSION = '1.0.0';
const SCHEMA_REF = '#/components/schemas/';
const JSON_TYPE = 'application/json';

/** Hono's `/api/orders/:id` as OpenAPI's `/api/orders/{id}`. */
export function toOpenApiPath(honoPath: string): string {
  return honoPath.replace(/:([A-Za-z0-9_]+)(\{[^}]*\})?/g, '{$1}');
}

/** The names of the `{…}` parameters in an OpenAPI path. */
export function pathParamNames(openApiPath: string): string[] {
  return [...openApiPath.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] ?? '');
}

export function schemaRef(name: ResponseSchemaName | RequestSchemaName): RefObject {
  return { $ref: `${SCHEMA_REF}${name}` };
}

/** The session cookie's name: Better Auth prefixes it with `__Secure-` behind HTTPS. */
export function sessionCookieName(appUrl: string): string {
  return `${appUrl.startsWith('https://') ? '__Secure-' : ''}better-auth.session_token`;
}

// ─── Schemas ─────────────────────────────────────────────────────────────────────────────────

const NOISY_PATTERN_FORMATS = new Set(['date', 'date-time', 'uuid', 'email']);

/** Drops what zod writes that says nothing to a reader: safe-integer bounds, format regexes. */
function tidy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(tidy);
  if (value === null || typeof value !== 'object') return value;
  const out: JsonSchema = {};
  for (const [key, child] of Object.entries(value as JsonSchema)) out[key] = tidy(child);
  if (out.minimum === Number.MIN_SAFE_INTEGER) delete out.minimum;
  if (out.maximum === Number.MAX_SAFE_INTEGER) delete out.maximum;
  if (typeof out.format === 'string' && NOISY_PATTERN_FORMATS.has(out.format)) delete out.pattern;
  return out;
}

/** The object branches of a component: itself, or each `oneOf`/`anyOf` member. */
export function objectBranches(schema: JsonSchema): JsonSchema[] {
  const union = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  return union ?? [schema];
}

function convert(
  schemas: Record<string, z.ZodType>,
  io: 'input' | 'output',
): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  const converted = z.toJSONSchema(registry, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
    uri: (id) => `${SCHEMA_REF}${id}`,
  }).schemas as Record<string, JsonSchema>;
  if ('__shared' in converted) throw new Error('openapi: zod emitted shared $defs; name them');
  const out: Record<string, JsonSchema> = {};
  for (const [id, raw] of Object.entries(converted)) {
    const { $schema: _schema, $id: _id, ...schema } = raw;
    out[id] = tidy(schema) as JsonSchema;
  }
  return out;
}

function describe(name: string, schema: JsonSchema): JsonSchema {
  const docs = SCHEMA_DOCS[name];
  if (!docs) throw new Error(`openapi: no description for schema ${name}`);
  const described: JsonSchema = { description: docs.description, ...schema };
  for (const branch of objectBranches(described)) {
    const properties = branch.properties as Record<string, JsonSchema> | undefined;
    for (const [key, property] of Object.entries(properties ?? {})) {
      const text = docs.properties?.[key];
      if (text) properties![key] = { ...property, description: text };
    }
  }
  return described;
}

function componentSchemas(): Record<string, JsonSchema> {
  const responses = convert(RESPONSE_SCHEMAS, 'output');
  const requests = convert(REQUEST_SCHEMAS, 'input');
  for (const [name, refs] of Object.entries(REQUEST_PROPERTY_REFS)) {
    const properties = requests[name]?.properties as Record<string, JsonSchema> | undefined;
    for (const [key, target] of Object.entries(refs)) {
      if (!properties?.[key]) throw new Error(`openapi: ${name} has no property ${key}`);
      properties[key] = schemaRef(target);
    }
  }
  const all: Record<string, JsonSchema> = {};
  for (const [name, schema] of [...Object.entries(responses), ...Object.entries(requests)]) {
    if (name in all) throw new Error(`openapi: two schemas named ${name}`);
    all[name] = describe(name, schema);
  }
  return all;
}

// ─── Operations ──────────────────────────────────────────────────────────────────────────────

const ACCESS_ERRORS: Record<Access, ErrorCode[]> = {
  public: [],
  optional: [],
  stripe: [],
  protocol: [],
  customer: ['UNAUTHENTICATED', 'EMAIL_NOT_VERIFIED'],
  admin: ['UNAUTHENTICATED', 'EMAIL_NOT_VERIFIED', 'FORBIDDEN'],
};

const ACCESS_SECURITY: Record<Access, Record<string, string[]>[]> = {
  public: [],
  optional: [{}, { sessionCookie: [] }, { apiKeyBearer: [] }],
  stripe: [{ stripeSignature: [] }],
  // The key travels in the form (DHRU `apiaccesskey`, SMM `key`).
  protocol: [],
  customer: [{ sessionCookie: [] }, { apiKeyBearer: [] }],
  admin: [{ sessionCookie: [] }],
};

const STATUS_TEXT: Record<number, string> = {
  400: 'Solicitud no válida',
  401: 'Sin sesión',
  402: 'Saldo insuficiente',
  403: 'Sin permiso',
  404: 'No encontrado',
  409: 'Conflicto con el estado actual',
  413: 'Contenido demasiado grande',
  415: 'Tipo de contenido no admitido',
  429: 'Demasiados intentos',
};

function errorExample(code: ErrorCode, spec: RouteDef): { summary: string; value: unknown } {
  const message = ERROR_MESSAGES[code];
  const value: Record<string, unknown> = { code, message };
  if (code === 'VALIDATION_FAILED' || code === 'DUPLICATE_IN_FLIGHT') {
    value.fields =
      spec.operationId === 'placeOrder'
        ? {
            imei:
              code === 'VALIDATION_FAILED'
                ? 'El IMEI no es válido: revisa el último dígito (control).'
                : 'Ya tienes una orden en curso con este dato. Espera a que termine.',
          }
        : { campo: 'Mensaje para la persona, junto al campo.' };
  }
  return { summary: message, value };
}

function errorResponses(spec: RouteDef): Record<string, ResponseObject> {
  const codes = new Set<ErrorCode>(ACCESS_ERRORS[spec.access]);
  if (spec.body && spec.method !== 'get') {
    codes.add('BAD_REQUEST');
    codes.add('VALIDATION_FAILED');
    codes.add('UNSUPPORTED_MEDIA_TYPE');
  }
  if (spec.method !== 'get') codes.add('PAYLOAD_TOO_LARGE');
  if (spec.query) {
    codes.add('VALIDATION_FAILED');
  }
  if (spec.params) codes.add('NOT_FOUND');
  if (spec.rateLimit) codes.add('RATE_LIMITED');
  for (const code of spec.errors ?? []) codes.add(code);
  codes.delete('INTERNAL');
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, ResponseObject> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    out[String(status)] = {
      description: `${STATUS_TEXT[status] ?? 'Error'}: ${list.map((c) => `\`${c}\``).join(', ')}.`,
      ...(status === 429
        ? {
            headers: {
              'Retry-After': {
                description: 'Segundos que hay que esperar antes de volver a intentarlo.',
                schema: { type: 'integer' },
              },
            },
          }
        : {}),
      content: {
        [JSON_TYPE]: {
          schema: {
            allOf: [
              schemaRef('ApiErrorBody'),
              { type: 'object', properties: { code: { type: 'string', enum: list } } },
            ],
          },
          examples: Object.fromEntries(list.map((code) => [code, errorExample(code, spec)])),
        },
      },
    };
  }
  return out;
}

/** The component name under which a request schema is registered (by identity). */
function requestSchemaName(schema: z.ZodType, where: string): RequestSchemaName {
  for (const [name, candidate] of Object.entries(REQUEST_SCHEMAS)) {
    if (candidate === schema) return name as RequestSchemaName;
  }
  throw new Error(`openapi: the body schema of ${where} is not in REQUEST_SCHEMAS`);
}

/** One parameter per property of a zod object (query or path), described from its metadata. */
function objectParameters(
  schema: z.ZodType | undefined,
  where: 'query' | 'path',
): ParameterObject[] {
  if (!schema) return [];
  const json = tidy(
    z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' }),
  ) as JsonSchema;
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, property]) => {
    const { description, example, examples, ...rest } = property as JsonSchema & {
      description?: string;
      example?: unknown;
      examples?: unknown[];
    };
    const sample = example ?? examples?.[0];
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      description: description ?? (where === 'path' ? 'Identificador.' : name),
      schema: rest,
      ...(sample !== undefined
        ? { example: typeof sample === 'string' ? sample : JSON.stringify(sample) }
        : {}),
    };
  });
}

function operation(spec: RouteDef, options: DocumentOptions): OperationObject {
  const where = `${spec.method.toUpperCase()} ${spec.path}`;
  const pathParams = objectParameters(spec.params, 'path');
  for (const name of pathParamNamesOf(spec.path)) {
    if (!pathParams.some((p) => p.name === name))
      throw new Error(`openapi: ${where} does not describe its path parameter ${name}`);
  }
  const parameters: ParameterObject[] = [
    ...pathParams,
    ...objectParameters(spec.query, 'query'),
    // A protocol read with GET takes its form in the query string.
    ...(spec.protocolForm && spec.method === 'get'
      ? objectParameters(spec.protocolForm, 'query')
      : []),
    ...(spec.idempotencyKey
      ? [
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: false,
            description: spec.idempotencyKey,
            schema: { type: 'string', maxLength: 200 },
            example: '5f0c7a52-2d1e-4c8b-9a61-0d3f7e2b9c14',
          } satisfies ParameterObject,
        ]
      : []),
  ];
  const content: Record<string, MediaTypeObject> = {};
  if (spec.body?.schema) {
    content[JSON_TYPE] = { schema: schemaRef(requestSchemaName(spec.body.schema, where)) };
  }
  if (spec.body?.form) {
    const form = schemaRef(requestSchemaName(spec.body.form, where));
    content['multipart/form-data'] = { schema: form };
    content['application/x-www-form-urlencoded'] = { schema: form };
  }
  if (spec.protocolForm && spec.method !== 'get') {
    const form = schemaRef(requestSchemaName(spec.protocolForm, where));
    content['application/x-www-form-urlencoded'] = { schema: form };
    content['multipart/form-data'] = { schema: form };
    content[JSON_TYPE] = { schema: form };
  }
  const responses: Record<string, ResponseObject | RefObject> = {};
  for (const r of [...spec.responses].sort((a, b) => a.status - b.status)) {
    const body =
      typeof r.body === 'string'
        ? { [JSON_TYPE]: { schema: schemaRef(r.body as ResponseSchemaName) } }
        : Object.fromEntries(
            r.body.media.map((m) => [
              m,
              {
                schema: {
                  type: 'string',
                  description: (r.body as { description: string }).description,
                  ...(m.startsWith('text/') || m === JSON_TYPE
                    ? {}
                    : { contentMediaType: m, format: 'binary' }),
                },
              },
            ]),
          );
    responses[String(r.status)] = {
      description: r.description,
      ...(r.headers ? { headers: r.headers } : {}),
      content: body,
    };
  }
  Object.assign(responses, errorResponses(spec));
  responses['500'] = { $ref: '#/components/responses/InternalError' };
  return {
    operationId: spec.operationId,
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    tags: [spec.tag],
    security: ACCESS_SECURITY[spec.access],
    'x-access': spec.access,
    ...(spec.access === 'admin' ? { 'x-roles': [...rolesOf(spec)] } : {}),
    ...(spec.method !== 'get' ? { 'x-body-limit': spec.bodyLimit ?? DEFAULT_BODY_LIMIT } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(Object.keys(content).length
      ? {
          requestBody: {
            required: spec.protocolForm ? true : (spec.body?.required ?? true),
            ...(spec.body?.description ? { description: spec.body.description } : {}),
            content,
          },
        }
      : {}),
    responses,
    ...(spec.codeSamples
      ? {
          'x-codeSamples': spec.codeSamples.map((s) => ({
            lang: s.lang,
            label: s.label,
            source: s.source(options.appUrl),
          })),
        }
      : {}),
  };
}

// ─── The document ────────────────────────────────────────────────────────────────────────────

function introduction(options: DocumentOptions, cookie: string): string {
  const base = options.appUrl;
  return `La API HTTP de ${options.appName}: la misma que usa la aplicación web. Todas las respuestas son JSON salvo las exportaciones CSV y los comprobantes.

## URL base

Todas las rutas empiezan por \`/api\` y se llaman sobre \`${base}\` (por ejemplo \`${base}/api/services\`). Los cuerpos se envían en JSON con \`Content-Type: application/json\` (otro tipo responde 415 \`UNSUPPORTED_MEDIA_TYPE\`); cada ruta tiene un tamaño máximo de cuerpo (32 KB salvo que diga otro) y lo que lo supera responde 413 \`PAYLOAD_TOO_LARGE\` con \`Connection: close\`, sin procesarse (el resto del cuerpo se lee y se descarta hasta un límite, para que el cliente pueda leer la respuesta). Los textos no pueden llevar caracteres de control, caracteres de control de dirección ni Unicode no válido (400 \`VALIDATION_FAILED\`, con el campo en \`fields\`).

## Autenticación

La API usa la misma sesión que la web: una cookie \`${cookie}\` (HttpOnly) que se obtiene al iniciar sesión. Las rutas de cuentas son las de Better Auth, bajo \`/api/auth/*\`, y no se describen una a una aquí:

- \`POST /api/auth/sign-up/email\` con \`{ "name", "email", "password", "callbackURL" }\` crea la cuenta y envía un correo de verificación. La respuesta es la misma si el correo ya tenía una cuenta (entonces se avisa por correo a su dueño), y no inicia sesión: la sesión empieza al abrir el enlace del correo. Con una sesión de una cuenta sin verificar, la API responde 403 \`EMAIL_NOT_VERIFIED\`.
- \`POST /api/auth/sign-in/email\` con \`{ "email", "password" }\` inicia sesión y devuelve la cookie.
- \`POST /api/auth/sign-out\` cierra la sesión.

Las peticiones a \`/api/auth/*\` deben llevar la cabecera \`Origin\` con la URL de la aplicación (\`${base}\`). Sin sesión, las rutas protegidas responden 401 \`UNAUTHENTICATED\`; las de administración responden 403 \`FORBIDDEN\` a quien no es administrador.

## Claves API (para programas y otros paneles)

Un cliente puede crear claves API personales en Mi perfil (o con \`POST /api/keys\`). Con una clave, sin sesión:

- esta API, con la cabecera \`Authorization: Bearer <clave>\` (las rutas de cliente; las de administración responden 403);
- la API DHRU Fusion en \`POST ${base}/api/index.php\` (usuario = el correo de la cuenta, \`apiaccesskey\` = la clave): la conexión «Other Fusion» de un panel DHRU;
- la API de paneles SMM (v2) en \`POST ${base}/api/v2\` con \`key\` = la clave.

Las órdenes hechas así son órdenes normales: mismas reglas, mismo saldo y mismo historial.

## Claves de idempotencia

Las peticiones que mueven dinero aceptan la cabecera \`Idempotency-Key\` (hasta 200 caracteres, por ejemplo un UUID nuevo por cada intento de compra). Si la misma petición se repite con la misma clave —un doble clic, un reintento tras un corte de red—, la respuesta es la del primer intento y no se cobra dos veces; la misma clave con una petición distinta responde 409 \`IDEMPOTENCY_MISMATCH\`.

## Dinero

Los importes son dólares estadounidenses escritos como texto con dos decimales, nunca como números: \`"1.50"\`, \`"25.00"\`. En los movimientos del saldo llevan signo: \`"+25.00"\` abona y \`"-3.00"\` carga. Al enviar un importe se admiten hasta dos decimales (\`"25"\` o \`"25.5"\` también valen).

## Errores

Todo error responde con el mismo cuerpo JSON: \`{ "code", "message", "fields"? }\`. \`code\` es estable y sirve a los programas (por ejemplo \`INSUFFICIENT_FUNDS\`); \`message\` está en español y se puede mostrar a la persona; \`fields\`, cuando está, tiene un mensaje por campo (por ejemplo \`{ "imei": "El IMEI debe tener 15 dígitos." }\`). Cada operación indica los códigos que puede responder.

## Fechas y páginas

Las fechas son ISO 8601 en UTC (\`2026-05-01T10:00:00.000Z\`). Las listas largas se piden por páginas: la respuesta trae \`nextCursor\`, que se pasa como \`?cursor=\` para la página siguiente; es \`null\` en la última.`;
}

export function buildOpenApiDocument(
  options: DocumentOptions,
  routes: readonly RouteDef[],
): OpenApiDocument {
  const cookie = sessionCookieName(options.appUrl);
  const paths: Record<string, Record<string, OperationObject>> = {};
  for (const spec of routes) {
    for (const r of spec.responses) {
      if (typeof r.body === 'string' && !(r.body in RESPONSE_SCHEMAS))
        throw new Error(`openapi: ${spec.operationId} answers ${r.body}, not in RESPONSE_SCHEMAS`);
    }
    const path = toOpenApiPath(spec.path);
    const item = (paths[path] ??= {});
    if (item[spec.method]) throw new Error(`openapi: ${spec.method} ${path} listed twice`);
    item[spec.method] = operation(spec, options);
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: `API de ${options.appName}`,
      version: API_VERSION,
      description: introduction(options, cookie),
    },
    servers: [{ url: options.appUrl, description: `${options.appName}` }],
    tags: TAGS.map((t) => ({ name: t.name, description: t.description })),
    security: [{ sessionCookie: [] }],
    paths,
    components: {
      schemas: componentSchemas(),
      responses: {
        InternalError: {
          description:
            'Error inesperado del servidor (`INTERNAL`). Si trae `requestId`, cítalo al informar del problema.',
          content: {
            [JSON_TYPE]: {
              schema: schemaRef('InternalErrorBody'),
              examples: {
                INTERNAL: {
                  summary: ERROR_MESSAGES.INTERNAL,
                  value: {
                    code: 'INTERNAL',
                    message: ERROR_MESSAGES.INTERNAL,
                    requestId: '2b1f4c7e-8a3d-4e59-b6f0-1c2d3e4f5a6b',
                  },
                },
              },
            },
          },
        },
      },
      securitySchemes: {
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: cookie,
          description:
            'La cookie de sesión que devuelve `POST /api/auth/sign-in/email`. Dura 7 días (configurable) y se renueva con el uso.',
        },
        apiKeyBearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            'Una clave API personal (`cmt_…`, se crea en Mi perfil o con `POST /api/keys`): `Authorization: Bearer <clave>`. Actúa como su cliente, nunca como administrador; tiene un límite de peticiones por minuto (429 `RATE_LIMITED` con `Retry-After`) y puede limitarse a unas direcciones IP.',
        },
        stripeSignature: {
          type: 'apiKey',
          in: 'header',
          name: 'Stripe-Signature',
          description:
            'Firma de Stripe sobre el cuerpo exacto del aviso, comprobada con `STRIPE_WEBHOOK_SECRET`.',
        },
      },
    },
  };
}

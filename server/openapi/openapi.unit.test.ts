import { describe, expect, it } from 'vitest';
import { API_ROUTES } from '../routes';
import { ApiErrorBodySchema } from '../../shared/error-codes';
import { SCHEMA_DOCS } from './descriptions';
import {
  buildOpenApiDocument,
  objectBranches,
  pathParamNames,
  toOpenApiPath,
  type JsonSchema,
  type OpenApiDocument,
  type ResponseObject,
} from './document';
import { escapeHtml, inline, markdown, renderDocsPage } from './docs-page';

const OPTIONS = { appUrl: 'http://localhost:3000', appName: 'Cometa' };

function operations(doc: OpenApiDocument) {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method, op })),
  );
}

/** Every `$ref` anywhere in a value. */
function refs(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refs(v, out);
  else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string') out.push(child);
      else refs(child, out);
    }
  }
  return out;
}

function resolvePointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = doc;
  for (const part of ref.slice(2).split('/')) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  }
  return node;
}

describe('OpenAPI document', () => {
  const doc = buildOpenApiDocument(OPTIONS, API_ROUTES);

  it('is OpenAPI 3.1 with info, a server and the session cookie scheme', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBe('API de Cometa');
    expect(doc.servers[0]?.url).toBe('http://localhost:3000');
    expect(doc.components.securitySchemes.sessionCookie).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'better-auth.session_token',
    });
    expect(
      buildOpenApiDocument({ ...OPTIONS, appUrl: 'https://panel.example.com' }, API_ROUTES)
        .components.securitySchemes.sessionCookie,
    ).toMatchObject({ name: '__Secure-better-auth.session_token' });
    for (const endpoint of [
      'POST /api/auth/sign-in/email',
      'POST /api/auth/sign-up/email',
      'POST /api/auth/sign-out',
    ]) {
      expect(doc.info.description).toContain(endpoint);
    }
  });

  it('resolves every $ref', () => {
    const all = refs(doc);
    expect(all.length).toBeGreaterThan(50);
    for (const ref of all) expect(resolvePointer(doc, ref), ref).toBeDefined();
  });

  it('gives every operation a unique operationId, a summary, a known tag and a 2xx answer', () => {
    const ids = new Set<string>();
    const tags = new Set(doc.tags.map((t) => t.name));
    for (const { path, method, op } of operations(doc)) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(op.operationId, where).toMatch(/^[a-zA-Z]+$/);
      expect(ids.has(op.operationId), `${where}: duplicate ${op.operationId}`).toBe(false);
      ids.add(op.operationId);
      expect(op.summary.trim().length, where).toBeGreaterThan(5);
      expect(op.tags.length, where).toBeGreaterThan(0);
      for (const tag of op.tags) expect(tags.has(tag), `${where}: tag ${tag}`).toBe(true);
      expect(
        Object.keys(op.responses).some((s) => /^2\d\d$/.test(s)),
        where,
      ).toBe(true);
      expect(op.responses['500'], where).toBeDefined();
    }
    expect(ids.size).toBe(operations(doc).length);
  });

  it('declares exactly the path parameters its path has', () => {
    for (const { path, op } of operations(doc)) {
      const declared = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
      expect(declared.sort(), path).toEqual(pathParamNames(path).sort());
      for (const p of op.parameters ?? []) if (p.in === 'path') expect(p.required).toBe(true);
    }
    expect(toOpenApiPath('/api/orders/:id/cancel')).toBe('/api/orders/{id}/cancel');
    expect(toOpenApiPath('/api/x/:id{[0-9]+}/y/:slug')).toBe('/api/x/{id}/y/{slug}');
  });

  it('documents sessions, idempotency keys and error codes where the routes use them', () => {
    const placeOrder = doc.paths['/api/orders']?.post;
    expect(placeOrder?.security).toEqual([{ sessionCookie: [] }, { apiKeyBearer: [] }]);
    expect(placeOrder?.parameters?.map((p) => `${p.in}:${p.name}`)).toContain(
      'header:Idempotency-Key',
    );
    const codes = (status: string) =>
      Object.keys(
        (placeOrder?.responses[status] as ResponseObject | undefined)?.content?.['application/json']
          ?.examples ?? {},
      );
    expect(codes('400')).toEqual(['BAD_REQUEST', 'VALIDATION_FAILED']);
    expect(codes('401')).toEqual(['UNAUTHENTICATED']);
    expect(codes('402')).toEqual(['INSUFFICIENT_FUNDS']);
    expect(codes('404')).toEqual(['NOT_FOUND']);
    expect(codes('409').sort()).toEqual([
      'DUPLICATE_IN_FLIGHT',
      'IDEMPOTENCY_MISMATCH',
      'OUT_OF_STOCK',
    ]);
    expect(
      doc.paths['/api/admin/users/{id}/adjustments']?.post?.parameters?.map((p) => p.name),
    ).toContain('Idempotency-Key');
    expect(doc.paths['/api/orders']?.get?.parameters?.map((p) => p.name)).toEqual([
      'status',
      'category',
      'from',
      'to',
      'q',
      'cursor',
    ]);
    expect(doc.paths['/api/openapi.json']?.get?.security).toEqual([]);
    expect(doc.paths['/api/docs']?.get?.security).toEqual([]);
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/api/auth/'))).toBe(false);
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/_dev'))).toBe(false);
  });

  it('gives error examples that are valid error bodies of the documented codes', () => {
    for (const { path, op } of operations(doc)) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (!/^[45]\d\d$/.test(status) || '$ref' in response) continue;
        const media = response.content?.['application/json'];
        const allowed = ((media?.schema.allOf as JsonSchema[])[1]?.properties as JsonSchema)
          .code as { enum: string[] };
        for (const [code, example] of Object.entries(media?.examples ?? {})) {
          const body = ApiErrorBodySchema.parse(example.value);
          expect(body.code, `${path} ${status}`).toBe(code);
          expect(allowed.enum).toContain(code);
        }
      }
    }
  });

  it('describes every schema and property in Spanish, with no description left over', () => {
    const schemas = doc.components.schemas;
    expect(Object.keys(SCHEMA_DOCS).sort()).toEqual(Object.keys(schemas).sort());
    for (const [name, schema] of Object.entries(schemas)) {
      expect(typeof schema.description, name).toBe('string');
      const properties = new Set<string>();
      for (const branch of objectBranches(schema)) {
        for (const [key, property] of Object.entries(
          (branch.properties ?? {}) as Record<string, JsonSchema>,
        )) {
          properties.add(key);
          expect(typeof property.description, `${name}.${key}`).toBe('string');
        }
      }
      for (const key of Object.keys(SCHEMA_DOCS[name]?.properties ?? {})) {
        expect(properties.has(key), `${name}.${key} is described but does not exist`).toBe(true);
      }
    }
  });

  it('documents request bodies from the input side of the zod schemas', () => {
    const schemas = doc.components.schemas;
    // PriceSchema is a string transformed to cents: the request takes the string.
    expect((schemas.CreateServiceRequest?.properties as JsonSchema).price).toMatchObject({
      type: 'string',
    });
    // `fields` is a transform of unknown: documented as the list the transform parses.
    expect((schemas.CreateServiceRequest?.properties as JsonSchema).fields).toMatchObject({
      $ref: '#/components/schemas/ServiceFieldListInput',
    });
    expect(schemas.PlaceOrderRequest?.required).toEqual(['serviceId']);
    // Response DTOs are strict: an undocumented field would not pass.
    expect(schemas.OrderDto?.additionalProperties).toBe(false);
    expect(schemas.OrderDto?.required).not.toContain('events');
  });
});

describe('API docs page', () => {
  const doc = buildOpenApiDocument(OPTIONS, API_ROUTES);
  const html = renderDocsPage(doc, OPTIONS);

  it('escapes every character that could open markup', () => {
    expect(escapeHtml(`<script>alert("x")</script> & 'y'`)).toBe(
      '&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; &#39;y&#39;',
    );
    expect(inline('usa `<b>` y <i>')).toBe('usa <code>&#60;b&#62;</code> y &#60;i&#62;');
    expect(markdown('## T<x>\n\n- `a<`\n- b\n\n```\n<script>\n```', 3, 'i-')).not.toContain(
      '<script>',
    );
  });

  it('escapes strings from the document, wherever they appear', () => {
    const evil = '<script>alert(1)</script>';
    const tampered = structuredClone(doc);
    tampered.info.description = `## ${evil}\n\n${evil}`;
    tampered.tags[0]!.description = evil;
    const op = tampered.paths['/api/orders']!.post!;
    op.summary = evil;
    op.description = evil;
    op.parameters![0]!.description = evil;
    (tampered.components.schemas.OrderDto as { description: string }).description = evil;
    (
      (tampered.components.schemas.PlaceOrderRequest?.properties as Record<string, JsonSchema>)
        .serviceId as { description: string }
    ).description = evil;
    const page = renderDocsPage(tampered, { appName: `Cometa ${evil}` });
    expect(page).not.toMatch(/<script/i);
    expect(page).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
  });

  it('is a Spanish page without scripts, with ordered headings and scoped table headers', () => {
    expect(html).toMatch(/^<!doctype html>\n<html lang="es">/);
    expect(html).toContain('<title>Documentación de la API · Cometa</title>');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/\son[a-z]+=/i);
    const levels = [...html.matchAll(/<h([1-6])[\s>]/g)].map((m) => Number(m[1]));
    expect(levels[0]).toBe(1);
    expect(levels.filter((l) => l === 1)).toHaveLength(1);
    for (let i = 1; i < levels.length; i++) {
      expect(levels[i]! - levels[i - 1]!, `heading ${i}`).toBeLessThanOrEqual(1);
    }
    const headers = [...html.matchAll(/<th(\s[^>]*)?>/g)];
    expect(headers.length).toBeGreaterThan(100);
    for (const th of headers) expect(th[0]).toMatch(/scope="(col|row)"/);
    const ids = [...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(ids).size).toBe(ids.length);
    for (const link of html.matchAll(/href="#([^"]+)"/g)) expect(ids).toContain(link[1]);
  });

  it('shows the introduction, every operation, its parameters, bodies, errors and a curl example', () => {
    for (const topic of [
      'URL base',
      'Autenticación',
      'Claves de idempotencia',
      'Dinero',
      'Errores',
    ])
      expect(html).toContain(topic);
    expect(html).toContain('&#34;1.50&#34;');
    for (const { path, method, op } of operations(doc)) {
      expect(html).toContain(`<code class="path">${escapeHtml(path)}</code>`);
      expect(html).toContain(`>${method.toUpperCase()}</span>`);
      expect(html).toContain(`id="op-${op.operationId}"`);
    }
    expect(html).toContain('<code>Idempotency-Key</code>');
    expect(html).toContain('<code>INSUFFICIENT_FUNDS</code>');
    expect(html).toContain('curl -b cookies.txt');
    expect(html).toContain('<code>serviceId</code>');
  });
});

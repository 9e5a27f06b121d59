// The API documentation as a page, rendered on the server from the OpenAPI document itself.
// No script at all (the CSP allows none inline); one inline <style>. Every string from the
// document goes through escapeHtml before it reaches the page.
import type {
  JsonSchema,
  MediaTypeObject,
  OpenApiDocument,
  OperationObject,
  ParameterObject,
  RefObject,
  ResponseObject,
} from './document';
import { objectBranches } from './document';
import { plural } from '../../shared/plural';

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** Escapes, then turns `code` spans into <code>. Nothing else of Markdown is read inline. */
export function inline(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

/** The small Markdown the document's descriptions use: ## headings, paragraphs, - lists, fences. */
export function markdown(text: string, headingLevel: number, idPrefix: string): string {
  const out: string[] = [];
  const blocks = text.split(/\n{2,}/);
  for (const block of blocks) {
    if (block.startsWith('## ')) {
      const title = block.slice(3).trim();
      out.push(
        `<h${headingLevel} id="${escapeHtml(`${idPrefix}${slug(title)}`)}">${inline(title)}</h${headingLevel}>`,
      );
    } else if (block.startsWith('```')) {
      const code = block.replace(/^```[^\n]*\n?/, '').replace(/\n?```$/, '');
      out.push(`<pre tabindex="0"><code>${escapeHtml(code)}</code></pre>`);
    } else if (block.startsWith('- ')) {
      const items = block.split(/\n(?=- )/).map((item) => `<li>${inline(item.slice(2))}</li>`);
      out.push(`<ul>${items.join('')}</ul>`);
    } else {
      out.push(`<p>${inline(block)}</p>`);
    }
  }
  return out.join('\n');
}

/** The `## ` headings of a Markdown text, for the table of contents. */
function markdownHeadings(text: string): string[] {
  return [...text.matchAll(/^## (.+)$/gm)].map((m) => (m[1] ?? '').trim());
}

/** A schema keyword that should be text, or '' when it is not. */
function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function slug(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

// ─── Schemas as text ─────────────────────────────────────────────────────────────────────────

const REF_PREFIX = '#/components/schemas/';

function refName(schema: JsonSchema): string | null {
  const ref = schema.$ref;
  return typeof ref === 'string' && ref.startsWith(REF_PREFIX)
    ? ref.slice(REF_PREFIX.length)
    : null;
}

function schemaLink(name: string): string {
  return `<a href="#schema-${escapeHtml(name)}">${escapeHtml(name)}</a>`;
}

const TYPE_NAMES: Record<string, string> = {
  string: 'texto',
  integer: 'entero',
  number: 'número',
  boolean: 'booleano',
  object: 'objeto',
  array: 'lista',
  null: 'nulo',
};

const FORMAT_NAMES: Record<string, string> = {
  'date-time': 'fecha y hora ISO 8601',
  date: 'fecha AAAA-MM-DD',
  uuid: 'UUID',
  email: 'correo',
  uri: 'URL',
};

function literal(value: unknown): string {
  return `<code>${escapeHtml(JSON.stringify(value))}</code>`;
}

/** A short Spanish description of a schema's type, as HTML. */
export function typeLabel(schema: JsonSchema): string {
  const name = refName(schema);
  if (name) return schemaLink(name);
  if ('const' in schema) return literal(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map(literal).join(' | ');
  const union = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  if (union && !schema.type) return union.map(typeLabel).join(' | ');
  if (Array.isArray(schema.allOf)) return (schema.allOf as JsonSchema[]).map(typeLabel).join(' y ');
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
  const parts = types.filter(Boolean).map((type) => {
    if (type === 'array') {
      const items = schema.items as JsonSchema | undefined;
      return items ? `lista de ${typeLabel(items)}` : 'lista';
    }
    if (type === 'string' && schema.format === 'binary') return 'archivo';
    if (type === 'string' && typeof schema.format === 'string') {
      return `texto (${escapeHtml(FORMAT_NAMES[schema.format] ?? schema.format)})`;
    }
    if (type === 'object' && schema.additionalProperties && !schema.properties) {
      const values = schema.additionalProperties as JsonSchema;
      const keys = schema.propertyNames as JsonSchema | undefined;
      const keyText =
        keys && Array.isArray(keys.enum) ? keys.enum.map(literal).join(' | ') : 'texto';
      return Object.keys(values).length ? `objeto { ${keyText} → ${typeLabel(values)} }` : 'objeto';
    }
    return TYPE_NAMES[type] ?? escapeHtml(type);
  });
  return parts.length ? parts.join(' | ') : 'cualquiera';
}

/** The rules of a schema in words: lengths, bounds, pattern, default. */
export function rules(schema: JsonSchema): string {
  const out: string[] = [];
  const { minLength, maxLength, minimum, maximum, minItems, maxItems } = schema as Record<
    string,
    number | undefined
  >;
  if (minLength !== undefined && maxLength !== undefined)
    out.push(`De ${minLength} a ${plural(maxLength, 'carácter', 'caracteres')}.`);
  else if (maxLength !== undefined)
    out.push(`Como máximo ${plural(maxLength, 'carácter', 'caracteres')}.`);
  else if (minLength !== undefined)
    out.push(`Al menos ${plural(minLength, 'carácter', 'caracteres')}.`);
  if (minimum !== undefined && maximum !== undefined) out.push(`Entre ${minimum} y ${maximum}.`);
  else if (minimum !== undefined) out.push(`Mínimo ${minimum}.`);
  else if (maximum !== undefined) out.push(`Máximo ${maximum}.`);
  if (minItems !== undefined) out.push(`Al menos ${plural(minItems, 'elemento', 'elementos')}.`);
  if (maxItems !== undefined) out.push(`Como máximo ${plural(maxItems, 'elemento', 'elementos')}.`);
  if (typeof schema.pattern === 'string')
    out.push(`Formato: <code>${escapeHtml(schema.pattern)}</code>.`);
  if ('default' in schema) out.push(`Por defecto: ${literal(schema.default)}.`);
  return out.join(' ');
}

type FieldRow = { name: string; schema: JsonSchema; required: boolean };

/** The properties of an object schema, nested inline objects flattened with dotted names. */
function fieldRows(schema: JsonSchema, prefix = ''): FieldRow[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const rows: FieldRow[] = [];
  for (const [key, property] of Object.entries(properties)) {
    const name = `${prefix}${key}`;
    rows.push({ name, schema: property, required: required.has(key) });
    if (property.properties) rows.push(...fieldRows(property, `${name}.`));
    const items = property.items as JsonSchema | undefined;
    if (property.type === 'array' && items?.properties)
      rows.push(...fieldRows(items, `${name}[].`));
  }
  return rows;
}

function table(caption: string, head: string[], rows: string[][]): string {
  return `<div class="table-wrap" role="region" aria-label="${escapeHtml(caption)}" tabindex="0"><table>
<caption>${escapeHtml(caption)}</caption>
<thead><tr>${head.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('')}</tr></thead>
<tbody>${rows
    .map(
      (r) =>
        `<tr><th scope="row">${r[0] ?? ''}</th>${r
          .slice(1)
          .map((c) => `<td>${c}</td>`)
          .join('')}</tr>`,
    )
    .join('\n')}</tbody>
</table></div>`;
}

function fieldsTable(caption: string, schema: JsonSchema): string {
  const branches = objectBranches(schema);
  if (branches.length > 1) {
    return `<p>Una de estas ${branches.length} formas:</p>${branches
      .map((b, i) => fieldsTable(`${caption}, forma ${i + 1}`, b))
      .join('')}`;
  }
  if (!schema.properties) {
    return `<p>Tipo: ${typeLabel(schema)}. ${rules(schema)}</p>`;
  }
  const rows = fieldRows(schema).map((f) => [
    `<code>${escapeHtml(f.name)}</code>`,
    typeLabel(f.schema),
    f.required ? 'Sí' : 'No',
    [inline(text(f.schema.description)), rules(f.schema)].filter(Boolean).join(' '),
  ]);
  return table(caption, ['Campo', 'Tipo', 'Obligatorio', 'Descripción'], rows);
}

// ─── Operations ──────────────────────────────────────────────────────────────────────────────

const ACCESS_TEXT: Record<string, string> = {
  public: 'Público, sin sesión.',
  optional: 'Público; si llega con sesión, se asocia a la cuenta.',
  customer: 'Sesión de una cuenta con el correo verificado.',
  admin: 'Sesión de una cuenta de administrador.',
  stripe: 'Solo Stripe: cabecera <code>Stripe-Signature</code> válida, sin sesión.',
};

const WHERE: Record<ParameterObject['in'], string> = {
  path: 'ruta',
  query: 'consulta',
  header: 'cabecera',
};

function isRef(value: ResponseObject | RefObject): value is RefObject {
  return '$ref' in value;
}

function resolveResponse(doc: OpenApiDocument, value: ResponseObject | RefObject): ResponseObject {
  if (!isRef(value)) return value;
  const name = value.$ref.replace('#/components/responses/', '');
  const found = doc.components.responses[name];
  if (!found) throw new Error(`openapi: unknown response ${value.$ref}`);
  return found;
}

function bodyLabel(media: Record<string, MediaTypeObject> | undefined): string {
  if (!media) return '—';
  return Object.entries(media)
    .map(([type, m]) => {
      const allOf = m.schema.allOf as JsonSchema[] | undefined;
      const shown = allOf?.[0] ?? m.schema;
      return `${typeLabel(shown)} <span class="media">(${escapeHtml(type)})</span>`;
    })
    .join('<br>');
}

function errorCodes(response: ResponseObject): string {
  const codes = new Set<string>();
  for (const media of Object.values(response.content ?? {}))
    for (const code of Object.keys(media.examples ?? {})) codes.add(code);
  return [...codes].map((c) => `<code>${escapeHtml(c)}</code>`).join(', ') || '—';
}

function operationHtml(doc: OpenApiDocument, method: string, path: string, op: OperationObject) {
  const id = `op-${op.operationId}`;
  const parts: string[] = [
    `<article class="op" aria-labelledby="${escapeHtml(id)}">`,
    `<h3 id="${escapeHtml(id)}">${inline(op.summary)}</h3>`,
    `<p class="endpoint"><span class="method method-${escapeHtml(method)}">${escapeHtml(method.toUpperCase())}</span> <code class="path">${escapeHtml(path)}</code></p>`,
  ];
  if (op.description) parts.push(`<p>${inline(op.description)}</p>`);
  parts.push(`<p><strong>Acceso:</strong> ${ACCESS_TEXT[op['x-access']] ?? ''}</p>`);
  const limit = op['x-body-limit'];
  if (limit !== undefined) {
    const size =
      limit >= 1024 * 1024
        ? `${Math.round(limit / 1024 / 1024)} MB`
        : `${Math.round(limit / 1024)} KB`;
    parts.push(`<p><strong>Cuerpo:</strong> hasta ${size}; uno mayor responde 413.</p>`);
  }

  if (op.parameters?.length) {
    parts.push('<h4>Parámetros</h4>');
    parts.push(
      table(
        `Parámetros de ${method.toUpperCase()} ${path}`,
        ['Nombre', 'Dónde', 'Tipo', 'Obligatorio', 'Descripción'],
        op.parameters.map((p) => [
          `<code>${escapeHtml(p.name)}</code>`,
          WHERE[p.in],
          typeLabel(p.schema),
          p.required ? 'Sí' : 'No',
          [
            inline(p.description),
            rules(p.schema),
            p.example ? `Ejemplo: <code>${escapeHtml(p.example)}</code>.` : '',
          ]
            .filter(Boolean)
            .join(' '),
        ]),
      ),
    );
  }

  if (op.requestBody) {
    parts.push('<h4>Cuerpo de la solicitud</h4>');
    if (op.requestBody.description) parts.push(`<p>${inline(op.requestBody.description)}</p>`);
    const byRef = new Map<string, string[]>();
    for (const [type, media] of Object.entries(op.requestBody.content)) {
      const name = refName(media.schema) ?? '';
      byRef.set(name, [...(byRef.get(name) ?? []), type]);
    }
    for (const [name, types] of byRef) {
      const schema = doc.components.schemas[name];
      parts.push(
        `<p>${types.map((t) => `<code>${escapeHtml(t)}</code>`).join(' o ')}: ${schemaLink(name)}${
          schema?.description ? ` — ${inline(text(schema.description))}` : ''
        }</p>`,
      );
      if (schema) parts.push(fieldsTable(`Campos de ${name}`, schema));
    }
  }

  parts.push('<h4>Respuestas</h4>');
  parts.push(
    table(
      `Respuestas de ${method.toUpperCase()} ${path}`,
      ['Código', 'Descripción', 'Cuerpo', 'Códigos de error'],
      Object.entries(op.responses).map(([status, value]) => {
        const response = resolveResponse(doc, value);
        const headers = Object.entries(response.headers ?? {})
          .map(([h, v]) => ` Cabecera <code>${escapeHtml(h)}</code>: ${inline(v.description)}`)
          .join('');
        return [
          escapeHtml(status),
          `${inline(response.description)}${headers}`,
          bodyLabel(response.content),
          errorCodes(response),
        ];
      }),
    ),
  );

  for (const sample of op['x-codeSamples'] ?? []) {
    parts.push(`<h4>Ejemplo (${escapeHtml(sample.label)})</h4>`);
    // Focusable, so a keyboard can scroll a long line (WCAG scrollable-region-focusable).
    parts.push(`<pre tabindex="0"><code>${escapeHtml(sample.source)}</code></pre>`);
  }
  parts.push('</article>');
  return parts.join('\n');
}

const STYLE = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#0f172a;background:#f8fafc}
a{color:#3730a3}a:focus-visible,[tabindex]:focus-visible{outline:3px solid #4338ca;outline-offset:2px}
.skip{position:absolute;left:-9999px;top:0;background:#fff;padding:8px 12px}.skip:focus{left:8px;top:8px}
main{max-width:1040px;margin:0 auto;padding:24px 16px 64px}
h1{font-size:1.9rem;line-height:1.2;margin:0 0 8px}
h2{font-size:1.45rem;margin:40px 0 8px;padding-top:8px;border-top:2px solid #e2e8f0}
h3{font-size:1.15rem;margin:0 0 4px}h4{font-size:1rem;margin:18px 0 6px}
p,li{max-width:75ch}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em;background:#eef2ff;color:#1e1b4b;padding:1px 4px;border-radius:4px;overflow-wrap:break-word}
pre{background:#0f172a;color:#f1f5f9;padding:12px 14px;border-radius:8px;overflow-x:auto;max-width:100%}
pre code{background:none;color:inherit;padding:0;overflow-wrap:normal;white-space:pre}
.lead{color:#334155}
nav ul{padding-left:20px}nav li{margin:2px 0}
.op{background:#fff;border:1px solid #e2e8f0;border-radius:12px;padding:16px;margin:16px 0;min-width:0}
.endpoint{margin:4px 0 8px;display:flex;flex-wrap:wrap;gap:8px;align-items:center}
.path{font-size:.95rem;background:#f1f5f9;color:#0f172a;overflow-wrap:anywhere;word-break:break-word}
.method{display:inline-block;min-width:4.2em;text-align:center;font:700 .8rem/1.8 ui-monospace,Menlo,Consolas,monospace;color:#fff;border-radius:6px;padding:0 6px}
.method-get{background:#1d4ed8}.method-post{background:#047857}.method-patch{background:#92400e}.method-put{background:#6d28d9}.method-delete{background:#b91c1c}
.table-wrap{overflow-x:auto;max-width:100%;margin:6px 0 10px;border:1px solid #e2e8f0;border-radius:8px;background:#fff}
table{border-collapse:collapse;width:100%;min-width:40rem;font-size:.92rem}
tbody th code{white-space:nowrap;overflow-wrap:normal}
caption{text-align:left;font-size:.85rem;color:#475569;padding:6px 10px}
th,td{text-align:left;vertical-align:top;padding:6px 10px;border-top:1px solid #e2e8f0}
thead th{background:#f1f5f9;border-top:0;white-space:nowrap}
tbody th{font-weight:400}
.media{color:#475569;font-size:.85em}
@media (max-width:600px){main{padding:16px 12px 48px}h1{font-size:1.5rem}.op{padding:12px}}
`;

/** The whole page. `title` is "Documentación de la API · <app name>". */
export function renderDocsPage(doc: OpenApiDocument, options: { appName: string }): string {
  const title = `Documentación de la API · ${options.appName}`;
  const introHeadings = markdownHeadings(doc.info.description);
  const byTag = new Map<string, { method: string; path: string; op: OperationObject }[]>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const tag = op.tags[0] ?? '';
      byTag.set(tag, [...(byTag.get(tag) ?? []), { method, path, op }]);
    }
  }
  const tags = doc.tags.filter((t) => byTag.has(t.name));

  const toc = `<nav aria-labelledby="indice"><h2 id="indice">Índice</h2><ul>
<li><a href="#introduccion">Introducción</a><ul>
${introHeadings.map((h) => `<li><a href="#intro-${escapeHtml(slug(h))}">${inline(h)}</a></li>`).join('\n')}
</ul></li>
${tags.map((t) => `<li><a href="#tag-${escapeHtml(slug(t.name))}">${escapeHtml(t.name)}</a> (${byTag.get(t.name)?.length ?? 0})</li>`).join('\n')}
<li><a href="#modelos">Modelos de datos</a></li>
</ul></nav>`;

  const sections = tags.map((t) => {
    const ops = byTag.get(t.name) ?? [];
    return `<section aria-labelledby="tag-${escapeHtml(slug(t.name))}">
<h2 id="tag-${escapeHtml(slug(t.name))}">${escapeHtml(t.name)}</h2>
<p>${inline(t.description)}</p>
${ops.map((o) => operationHtml(doc, o.method, o.path, o.op)).join('\n')}
</section>`;
  });

  const models = Object.entries(doc.components.schemas).map(
    ([name, schema]) => `<article class="op" aria-labelledby="schema-${escapeHtml(name)}">
<h3 id="schema-${escapeHtml(name)}">${escapeHtml(name)}</h3>
${schema.description ? `<p>${inline(text(schema.description))}</p>` : ''}
${fieldsTable(`Campos de ${name}`, schema)}
</article>`,
  );

  return `<!doctype html>
<html lang="es">
<head>
<meta charset="utf-8">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<a class="skip" href="#contenido">Saltar al contenido</a>
<main id="contenido">
<h1>${escapeHtml(title)}</h1>
<p class="lead">${escapeHtml(doc.info.title)}, versión ${escapeHtml(doc.info.version)}. El mismo contenido en OpenAPI ${escapeHtml(doc.openapi)}: <a href="/api/openapi.json">/api/openapi.json</a>.</p>
${toc}
<section aria-labelledby="introduccion">
<h2 id="introduccion">Introducción</h2>
${markdown(doc.info.description, 3, 'intro-')}
</section>
${sections.join('\n')}
<section aria-labelledby="modelos">
<h2 id="modelos">Modelos de datos</h2>
<p>Los esquemas de los cuerpos de solicitud y de respuesta, generados a partir de los esquemas zod del servidor.</p>
${models.join('\n')}
</section>
</main>
</body>
</html>`;
}

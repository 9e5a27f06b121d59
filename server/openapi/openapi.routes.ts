import { Hono } from 'hono';
import type { AppEnv } from '../lib/http';
import { buildOpenApiDocument, type DocumentOptions } from './document';
import { renderDocsPage } from './docs-page';

const CACHE_CONTROL = 'public, max-age=300';

/**
 * Mounted at /api: GET /api/openapi.json and GET /api/docs, both public. The document and the
 * page are built on the first request and kept for the life of the app.
 */
export function openapiRoutes(options: DocumentOptions) {
  let built: { json: string; html: string } | undefined;
  const get = () => {
    if (!built) {
      const doc = buildOpenApiDocument(options);
      built = { json: JSON.stringify(doc), html: renderDocsPage(doc, options) };
    }
    return built;
  };
  return new Hono<AppEnv>()
    .get('/openapi.json', (c) =>
      c.body(get().json, 200, {
        'Content-Type': 'application/json; charset=utf-8',
        'Cache-Control': CACHE_CONTROL,
      }),
    )
    .get('/docs', (c) => c.html(get().html, 200, { 'Cache-Control': CACHE_CONTROL }));
}

import { defineRoute } from '../lib/route';

const CACHE_CONTROL = 'public, max-age=300';

/** GET /api/openapi.json and GET /api/docs, both public, built once from the route list. */
export const openapiRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/openapi.json',
    operationId: 'getOpenApiDocument',
    tag: 'Documentación',
    summary: 'Documento OpenAPI 3.1 de la API',
    description:
      'Este documento en JSON, generado a partir de las definiciones de las rutas y de los esquemas zod que usa el servidor. Público; se puede guardar en caché 5 minutos.',
    access: 'public',
    responses: [
      {
        status: 200,
        description: 'El documento OpenAPI.',
        body: { media: ['application/json'], description: 'Documento OpenAPI 3.1.' },
      },
    ],
    handler: ({ c, deps }) =>
      c.body(deps.apiDocs().json, 200, {
        'Content-Type': 'application/json; charset=utf-8',
        'Cache-Control': CACHE_CONTROL,
      }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/docs',
    operationId: 'getApiDocsPage',
    tag: 'Documentación',
    summary: 'Documentación de la API como página',
    description: 'Esta misma documentación en HTML, para leerla en el navegador.',
    access: 'public',
    responses: [
      {
        status: 200,
        description: 'La página de documentación.',
        body: { media: ['text/html'], description: 'Página HTML en español.' },
      },
    ],
    handler: ({ c, deps }) => c.html(deps.apiDocs().html, 200, { 'Cache-Control': CACHE_CONTROL }),
  }),
];

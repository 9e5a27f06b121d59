import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { idParams } from '../../shared/schemas/query';
import { API_ROUTES } from '../routes';
import type { AppEnv } from './http';
import { defineRoute, mountRoutes, pathParamNamesOf, type RouteDeps } from './route';

const deps = {} as RouteDeps;
const ok = defineRoute({
  method: 'get',
  path: '/api/things/:id',
  operationId: 'getThing',
  tag: 'Catálogo',
  summary: 'x',
  access: 'public',
  params: idParams('Identificador.'),
  responses: [],
  handler: ({ c, params }) => c.json({ id: params.id }),
});

describe('route definitions', () => {
  it('refuses a route defined twice', () => {
    expect(() => mountRoutes(new Hono<AppEnv>(), [ok, ok], deps)).toThrow(/defined twice/);
  });

  it('refuses a path whose parameters the params schema does not declare exactly', () => {
    const missing = { ...ok, params: undefined };
    const extra = { ...ok, params: z.object({ id: z.string(), other: z.string() }) };
    expect(() => mountRoutes(new Hono<AppEnv>(), [missing], deps)).toThrow(/params schema/);
    expect(() => mountRoutes(new Hono<AppEnv>(), [extra], deps)).toThrow(/params schema/);
  });

  it('answers 404 for a path parameter the schema refuses, before the handler runs', async () => {
    const app = new Hono<AppEnv>();
    app.onError((err, c) => c.json({ name: err.name, message: err.message }, 404));
    mountRoutes(app, [ok], deps);
    expect((await app.request('/api/things/not-a-uuid')).status).toBe(404);
    const good = await app.request('/api/things/5f0c7a52-2d1e-4c8b-9a61-0d3f7e2b9c14');
    expect(await good.json()).toEqual({ id: '5f0c7a52-2d1e-4c8b-9a61-0d3f7e2b9c14' });
  });

  it('every API route is defined once, with unique operation ids and declared parameters', () => {
    const keys = API_ROUTES.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    const ids = API_ROUTES.map((r) => r.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const route of API_ROUTES) {
      const declared = route.params instanceof z.ZodObject ? Object.keys(route.params.shape) : [];
      expect(declared, route.operationId).toEqual(pathParamNamesOf(route.path));
      if (route.body) expect(route.method, route.operationId).not.toBe('get');
    }
  });
});

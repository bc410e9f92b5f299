import type { FastifyInstance } from 'fastify';

export interface RouteEntry {
  method: string;
  url: string;
  /** The route's JSON schemas of the query string and the body, when it has them (the fuzz test aims by them). */
  schema: { querystring?: unknown; body?: unknown };
}

const tables = new WeakMap<FastifyInstance, RouteEntry[]>();

/**
 * Records every route the server registers from here on, in any plugin scope, as Fastify adds it. The
 * fuzz test (tests/server/fuzz-routes.test.ts) walks this table, so a new route is fuzzed without
 * anyone listing it.
 */
export function recordRoutes(app: FastifyInstance): void {
  const table: RouteEntry[] = [];
  tables.set(app, table);
  app.addHook('onRoute', (route) => {
    const schema = (route.schema ?? {}) as { querystring?: unknown; body?: unknown };
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      table.push({ method, url: route.url, schema: { querystring: schema.querystring, body: schema.body } });
    }
  });
}

/** The routes `app` has registered, in order (HEAD routes Fastify adds for GET included). */
export function routeTable(app: FastifyInstance): readonly RouteEntry[] {
  return tables.get(app) ?? [];
}

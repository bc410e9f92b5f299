import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerMetrics } from './metrics';

/** The `route` label of a request that matched no route (the SPA fallback, a 404): one value for all of them. */
export const UNMATCHED_ROUTE = 'unmatched';
/** The `route` label of the client's built files (@fastify/static adds a route per file, named by its hash). */
export const CLIENT_FILE_ROUTE = 'client_file';

/**
 * The route pattern a request matched (`/v2/conversations/:id/messages`), never its raw URL: ids and hashed
 * file names would make a series each (docs/server.md, "Metrics").
 */
export function routeLabel(request: FastifyRequest): string {
  const route = request.routeOptions.url;
  if (route === undefined) return UNMATCHED_ROUTE;
  // @fastify/static puts the file it serves in the route's config.
  const config = request.routeOptions.config as { file?: unknown } | undefined;
  return config?.file !== undefined ? CLIENT_FILE_ROUTE : route;
}

/** Observes each answer's time, from arrival to the last byte handed to the socket, by method, route and status class. */
export function registerRequestDuration(app: FastifyInstance, histogram: ServerMetrics['httpSeconds']): void {
  app.addHook('onResponse', async (request, reply) => {
    histogram.observe(
      { method: request.method, route: routeLabel(request), status_class: `${Math.floor(reply.statusCode / 100)}xx` },
      reply.elapsedTime / 1000,
    );
  });
}

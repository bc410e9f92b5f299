import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ServerMetrics } from './metrics';

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * `GET /metrics` in Prometheus's text format, on the metrics listener only (server/ops/metricsListener.ts).
 * With METRICS_TOKEN set it wants `Authorization: Bearer <token>` (401 without); unset, anyone who reaches
 * the listener may read it, which is why it then listens on loopback only.
 */
export function registerMetricsRoute(app: FastifyInstance, metrics: ServerMetrics, token: string | undefined): void {
  app.get('/metrics', { config: { public: true } }, async (request, reply) => {
    if (token !== undefined) {
      const header = request.headers.authorization ?? '';
      const given = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
      if (!sameSecret(given, token)) {
        return reply.code(401).header('WWW-Authenticate', 'Bearer').send({ status: 'unauthorized' });
      }
    }
    const text = await metrics.registry.metrics();
    return reply.header('Cache-Control', 'no-store').type(metrics.registry.contentType).send(text);
  });
}

import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/** The routes a load balancer or Prometheus asks every few seconds (HAProxy's checks: ~170k lines a day). */
const PROBE_ROUTES = new Set(['/healthz', '/health', '/readyz', '/metrics']);

const isProbe = (request: FastifyRequest): boolean => {
  const route = request.routeOptions.url;
  return route !== undefined && PROBE_ROUTES.has(route);
};

/**
 * Fastify's request lines, with the probes' at debug level instead of info (docs/server.md, "Logs"): they
 * are there with LOG_LEVEL=debug and out of the way otherwise. An errored probe still logs as an error.
 */
export class ProbeLogController extends LogController {
  override incomingRequest(request: FastifyRequest, reply: FastifyReply, metadata?: Record<string, unknown>): void {
    if (!isProbe(request)) return super.incomingRequest(request, reply, metadata);
    if (!this.isLogDisabled(request)) request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply, metadata?: Record<string, unknown>): void {
    if (error || !isProbe(request)) return super.requestCompleted(error, request, reply, metadata);
    if (!this.isLogDisabled(request)) reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

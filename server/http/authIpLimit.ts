import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { ServerConfig } from '../config';
import type { ServerMetrics } from '../ops/metrics';
import { tooManyRequests } from './errors';

/** The public routes that start or finish a sign-in, as "METHOD route": what a password guesser calls. */
export const AUTH_IP_ROUTES: ReadonlySet<string> = new Set(['POST /v1/auth/pin', 'POST /v1/auth/pin/confirm']);

export const AUTH_IP_MESSAGE = 'Too many sign-in attempts from this address. Please wait a minute.';

/**
 * A limit per client address on the public sign-in routes (issue 21), beside the per-number PIN limits:
 * those stop guessing one number's PIN, this stops one address walking through many numbers. AUTH_IP_LIMIT
 * requests per AUTH_IP_WINDOW_MS, then 429 with Retry-After until the window ends. The address is the
 * socket's, or X-Forwarded-For's as far as TRUST_PROXY allows (behind HAProxy).
 *
 * The counts live in Redis when the node has one (REDIS_URL: every node counts the same address together),
 * else in this process. While Redis cannot be reached the limit is skipped rather than refusing sign-ins.
 */
export async function registerAuthIpLimit(app: FastifyInstance, config: ServerConfig, metrics: ServerMetrics, redis?: Redis): Promise<void> {
  if (config.authIpLimit <= 0) return;
  await app.register(rateLimit, {
    ...(redis ? { redis, nameSpace: 'messenger:auth-ip:', skipOnError: true } : {}),
    global: false,
    max: config.authIpLimit,
    timeWindow: config.authIpWindowMs,
    keyGenerator: (request) => request.ip,
    onExceeded: () => metrics.limitRefusals.inc({ limit: 'auth_ip' }),
    // Thrown, so the API's error handler answers it in the envelope, translated like every other message.
    errorResponseBuilder: (_request, context) =>
      tooManyRequests(AUTH_IP_MESSAGE, Math.max(1, Math.ceil(context.ttl / 1000)), 'sign_in_attempts_limited'),
  });
  const limit = app.rateLimit();
  app.addHook('onRequest', async (request, reply) => {
    if (!AUTH_IP_ROUTES.has(`${request.method} ${request.routeOptions.url}`)) return;
    await limit.call(app, request, reply);
  });
}

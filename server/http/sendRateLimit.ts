import type { FastifyInstance } from 'fastify';
import type { Clock } from '../clock';
import type { ServerConfig } from '../config';
import type { ServerMetrics } from '../ops/metrics';
import { tooManyRequests } from './errors';

/**
 * The calls that send something to other people (server/routes): messages and comments, channel posts
 * and comments, and message, post and comment reactions, added or taken back (each one is an event to
 * every member). As "METHOD route".
 */
export const SEND_ROUTES: ReadonlySet<string> = new Set([
  'POST /v2/conversations/:id/messages',
  'POST /v2/conversations/:id/messages/:msgId/reactions',
  'DELETE /v2/conversations/:id/messages/:msgId/reactions',
  'POST /v1/channels/:id/posts',
  'POST /v1/channels/:id/post_comments',
  'POST /v1/channels/:id/add_post_reaction',
  'POST /v1/channels/:id/delete_post_reaction',
  'POST /v1/channels/:id/add_comment_reaction',
  'POST /v1/channels/:id/delete_comment_reaction',
]);

export const SEND_RATE_MESSAGE = 'You are sending too fast. Please wait a moment.';

interface Bucket {
  tokens: number;
  at: number;
}

/** Buckets kept before full ones (users who stopped sending) are dropped. */
const PRUNE_ABOVE = 10_000;

/**
 * One token bucket per user: `limit` sends in hand, given back evenly at `limit` per `windowMs`. So a user
 * may send `limit` at once, and then keeps up one every windowMs / limit for as long as they like.
 */
export interface SendBucketStore {
  /** Takes a send for `userId`: 0 when it may go, else the milliseconds until it may. */
  take(userId: number, now: number): Promise<number> | number;
}

/** The buckets in this process: one node's. */
export class SendBuckets implements SendBucketStore {
  private readonly buckets = new Map<number, Bucket>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Takes a send for `userId`: 0 when it may go, else the milliseconds until it may. */
  take(userId: number, now: number): number {
    const perMs = this.limit / Math.max(1, this.windowMs);
    let bucket = this.buckets.get(userId);
    if (!bucket) {
      if (this.buckets.size >= PRUNE_ABOVE) this.prune(now, perMs);
      bucket = { tokens: this.limit, at: now };
      this.buckets.set(userId, bucket);
    }
    bucket.tokens = Math.min(this.limit, bucket.tokens + Math.max(0, now - bucket.at) * perMs);
    bucket.at = now;
    if (bucket.tokens < 1) return Math.ceil((1 - bucket.tokens) / perMs);
    bucket.tokens -= 1;
    return 0;
  }

  private prune(now: number, perMs: number): void {
    for (const [userId, bucket] of this.buckets) {
      if (bucket.tokens + (now - bucket.at) * perMs >= this.limit) this.buckets.delete(userId);
    }
  }
}

/**
 * Refuses a user's send past the rate (SEND_RATE_LIMIT per SEND_RATE_WINDOW_MS) with 429 and
 * `Retry-After` (whole seconds), before the body is read. Registered after authentication, which names
 * the user; a refused send stores nothing, so the client's retry with its Idempotency-Key is a first send.
 */
export function registerSendRateLimit(
  app: FastifyInstance,
  config: ServerConfig,
  clock: Clock,
  metrics: ServerMetrics,
  shared?: (limit: number, windowMs: number) => SendBucketStore,
): void {
  if (config.sendRateLimit <= 0) return;
  const buckets = shared?.(config.sendRateLimit, config.sendRateWindowMs) ?? new SendBuckets(config.sendRateLimit, config.sendRateWindowMs);
  app.addHook('onRequest', async (request) => {
    const user = request.authUser;
    if (!user || !SEND_ROUTES.has(`${request.method} ${request.routeOptions.url}`)) return;
    const waitMs = await buckets.take(user.id, clock.now());
    if (waitMs === 0) return;
    metrics.limitRefusals.inc({ limit: 'send_rate' });
    // Retry-After (whole seconds) and the body's `retry_after` are written by the error handler.
    throw tooManyRequests(SEND_RATE_MESSAGE, Math.max(1, Math.ceil(waitMs / 1000)), 'send_rate_limited');
  });
}

import type { Redis } from 'ioredis';
import { SendBuckets, type SendBucketStore } from './sendRateLimit';

/** The token bucket of SendBuckets as one atomic step in Redis: KEYS[1] the user's, ARGV limit, window, now. */
const TAKE_SCRIPT = `
local limit, window, now = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local perMs = limit / math.max(1, window)
local b = redis.call('HMGET', KEYS[1], 't', 'a')
local tokens = tonumber(b[1]) or limit
local at = tonumber(b[2]) or now
tokens = math.min(limit, tokens + math.max(0, now - at) * perMs)
local wait = 0
if tokens < 1 then wait = math.ceil((1 - tokens) / perMs) else tokens = tokens - 1 end
redis.call('HSET', KEYS[1], 't', tostring(tokens), 'a', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.max(1000, window * 2))
return wait
`;

/**
 * The send rate limit shared by every node (issue 21): each user's bucket lives in Redis, so a user whose
 * requests the balancer spreads over three nodes still gets SEND_RATE_LIMIT, not three times it. While
 * Redis cannot be reached each node counts on its own (a limit three times looser for that while, rather
 * than refusing every send).
 */
export class RedisSendBuckets implements SendBucketStore {
  private readonly fallback: SendBuckets;

  constructor(
    private readonly redis: Redis,
    private readonly limit: number,
    private readonly windowMs: number,
  ) {
    this.fallback = new SendBuckets(limit, windowMs);
  }

  async take(userId: number, now: number): Promise<number> {
    try {
      const wait = await this.redis.eval(TAKE_SCRIPT, 1, `messenger:send:${userId}`, String(this.limit), String(this.windowMs), String(now));
      return Number(wait);
    } catch {
      return this.fallback.take(userId, now);
    }
  }
}

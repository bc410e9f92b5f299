import type { Redis } from 'ioredis';

/**
 * Whether a user is online anywhere (issue 21): the hub announces `user_presence` when a user's first socket
 * opens and their last one closes, and with several nodes "first" and "last" are the cluster's, not the
 * node's.
 */
export interface PresenceCounter {
  /** A socket of the user opened on this node; true when it is the user's only one anywhere. */
  opened(userId: number): Promise<boolean>;
  /** A socket of the user closed on this node; true when the user has none left anywhere. */
  closed(userId: number): Promise<boolean>;
  /** Whether the user has a socket open anywhere now (a chat opened later asks, issue 23). */
  isOnline(userId: number): Promise<boolean>;
  close(): Promise<void>;
}

/** One node: its own counts are everybody's. */
export class LocalPresence implements PresenceCounter {
  private readonly counts = new Map<number, number>();

  async opened(userId: number): Promise<boolean> {
    const n = (this.counts.get(userId) ?? 0) + 1;
    this.counts.set(userId, n);
    return n === 1;
  }

  async closed(userId: number): Promise<boolean> {
    const n = (this.counts.get(userId) ?? 1) - 1;
    if (n <= 0) this.counts.delete(userId);
    else this.counts.set(userId, n);
    return n <= 0;
  }

  async isOnline(userId: number): Promise<boolean> {
    return this.counts.has(userId);
  }

  async close(): Promise<void> {}
}

const KEY = 'messenger:presence:';
const NODE_KEY = 'messenger:node:';
/** A node's liveness key lives this long and is renewed at a third of it: a killed node's sockets stop counting within it. */
export const NODE_TTL_MS = 15_000;

/**
 * Adds ARGV[2] to this node's count of the user's sockets (KEYS[1], field ARGV[1]), renews the node's
 * liveness key (ARGV[3] ms), and answers the count over the nodes still alive (their key `messenger:node:<id>` exists), dropping the fields of dead ones.
 */
const COUNT_SCRIPT = `
local key, node, delta = KEYS[1], ARGV[1], tonumber(ARGV[2])
-- The node running this is alive, whatever became of its last heartbeat.
redis.call('SET', '${NODE_KEY}' .. node, '1', 'PX', tonumber(ARGV[3]))
local mine = redis.call('HINCRBY', key, node, delta)
if mine <= 0 then redis.call('HDEL', key, node) end
local total = 0
local fields = redis.call('HGETALL', key)
for i = 1, #fields, 2 do
  if redis.call('EXISTS', '${NODE_KEY}' .. fields[i]) == 1 then
    total = total + tonumber(fields[i + 1])
  else
    redis.call('HDEL', key, fields[i])
  end
end
return total
`;

/**
 * Counts in Redis, per user and node. Each node keeps a liveness key; the counts of a node whose key
 * expired (it was killed) no longer count, so its users are not "online" for ever. When Redis cannot be
 * reached the node decides on its own counts: presence is a hint, and a wrong one is corrected by the next.
 */
export class RedisPresence implements PresenceCounter {
  private readonly local = new LocalPresence();
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    private readonly redis: Redis,
    private readonly nodeId: string,
  ) {
    this.beat();
    this.heartbeat = setInterval(() => this.beat(), NODE_TTL_MS / 3);
    this.heartbeat.unref();
  }

  async opened(userId: number): Promise<boolean> {
    const alone = await this.local.opened(userId);
    return this.count(userId, 1).then((total) => total === 1, () => alone);
  }

  async closed(userId: number): Promise<boolean> {
    const gone = await this.local.closed(userId);
    return this.count(userId, -1).then((total) => total <= 0, () => gone);
  }

  async isOnline(userId: number): Promise<boolean> {
    const here = await this.local.isOnline(userId);
    // A count that adds nothing answers the cluster's total (and drops dead nodes' fields on the way).
    return this.count(userId, 0).then((total) => total > 0, () => here);
  }

  /** This node's sockets stop counting at once (a drain, a stop), not when its key would expire. */
  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    await this.redis.del(`${NODE_KEY}${this.nodeId}`).catch(() => undefined);
  }

  private async count(userId: number, delta: number): Promise<number> {
    const total = await this.redis.eval(COUNT_SCRIPT, 1, `${KEY}${userId}`, this.nodeId, String(delta), String(NODE_TTL_MS));
    return Number(total);
  }

  private beat(): void {
    this.redis.set(`${NODE_KEY}${this.nodeId}`, '1', 'PX', NODE_TTL_MS).catch(() => undefined);
  }
}

import { Redis } from 'ioredis';
import type { BusNote, EventBus } from './bus';

export const BUS_CHANNEL = 'messenger:events';

interface Envelope {
  /** The node that published it: a node ignores its own notes (it delivered them itself). */
  from: string;
  note: BusNote;
}

export interface RedisBusLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/**
 * The bus over Redis pub/sub (REDIS_URL, issue 21). Two connections, as Redis wants: one subscribed, one
 * that publishes. Publishing does not queue while Redis is away (a note that cannot go is dropped: the
 * receivers' sweep finds its events in the database); the subscriber reconnects and subscribes again by
 * itself, and each return is announced, because notes published meanwhile were lost.
 */
export class RedisBus implements EventBus {
  readonly shared = true;
  /**
   * The connection that publishes; the node's other Redis commands (limits, presence) use it too. It does
   * not queue while Redis is away: a command fails at once and its caller falls back.
   */
  readonly client: Redis;
  private readonly subscriber: Redis;
  private readonly handlers: ((note: BusNote) => void)[] = [];
  private readonly reconnectHandlers: (() => void)[] = [];
  private wasReady = false;

  constructor(
    url: string,
    private readonly nodeId: string,
    private readonly log: RedisBusLog,
    private readonly onPublishFailed: () => void = () => undefined,
  ) {
    const options = { enableOfflineQueue: false, maxRetriesPerRequest: 1, retryStrategy: (times: number) => Math.min(times * 200, 2_000) };
    this.client = new Redis(url, { ...options, connectionName: `messenger-${nodeId}-pub` });
    // The subscriber keeps its queue: SUBSCRIBE sent before it connected goes out once it has.
    this.subscriber = new Redis(url, { connectionName: `messenger-${nodeId}-sub`, retryStrategy: options.retryStrategy });
    for (const client of [this.client, this.subscriber]) {
      // Without a listener ioredis prints every failed reconnect; the log gets one line per outage instead.
      client.on('error', () => undefined);
    }
    this.subscriber.on('ready', () => {
      if (this.wasReady) {
        this.log.info({}, 'bus back: sweeping for what it missed');
        for (const handler of this.reconnectHandlers) handler();
      }
      this.wasReady = true;
    });
    this.subscriber.on('end', () => this.log.warn({}, 'bus connection ended'));
    this.subscriber.on('message', (_channel: string, text: string) => this.receive(text));
    void this.subscriber.subscribe(BUS_CHANNEL).catch((error: unknown) => {
      this.log.warn({ err: String(error) }, 'bus subscribe failed; it is retried on reconnect');
    });
  }

  publish(note: BusNote): void {
    const text = JSON.stringify({ from: this.nodeId, note } satisfies Envelope);
    this.client.publish(BUS_CHANNEL, text).catch(() => this.onPublishFailed());
  }

  onNote(handler: (note: BusNote) => void): void {
    this.handlers.push(handler);
  }

  onReconnect(handler: () => void): void {
    this.reconnectHandlers.push(handler);
  }

  /**
   * Resolves when both connections are up, or after `timeoutMs` (a node may start while Redis is away: it
   * serves, reports the bus not ready, and catches up by the sweep once it is back).
   */
  async connected(timeoutMs: number): Promise<boolean> {
    const up = (client: Redis) =>
      client.status === 'ready' ? Promise.resolve() : new Promise<void>((resolve) => client.once('ready', () => resolve()));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    const result = await Promise.race([Promise.all([up(this.client), up(this.subscriber)]).then(() => true), timeout]);
    clearTimeout(timer);
    return result;
  }

  async check(): Promise<void> {
    await Promise.all([this.client.ping(), this.subscriber.status === 'ready' ? Promise.resolve() : Promise.reject(new Error(this.subscriber.status))]);
  }

  async close(): Promise<void> {
    this.client.disconnect();
    this.subscriber.disconnect();
  }

  private receive(text: string): void {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(text) as Envelope;
    } catch {
      return;
    }
    if (envelope.from === this.nodeId) return;
    for (const handler of this.handlers) handler(envelope.note);
  }
}

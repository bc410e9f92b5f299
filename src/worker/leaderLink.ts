import { Observable, type Subscriber } from 'rxjs';
import type { BuildStamp } from '../engine/api';
import type { EngineClock } from '../engine/clock';
import { engineError } from '../engine/errors';
import type { EngineByName } from './currentEngine';
import { type ChannelLike, type OpenChannel, post } from './channel';
import { asLinkReply, type LinkReply, type LinkRequest, linkChannelName, randomId } from './linkProtocol';
import { ANSWER_TIMEOUT_MS, HEARTBEAT_INTERVAL_MS, workerLockName } from './liveness';
import { type Locks, whenReleased } from './locks';
import { StreamDecoder } from './streamDecoder';
import type { CommandName, QueryName } from './names';

export interface LeaderLinkOptions {
  leaderId: string;
  /** This worker's build: a leader of another build turns the link away (the tabs reload). */
  build: BuildStamp;
  /** The channel every engine worker listens on (LEADER_CHANNEL): the hello goes there. */
  leaderChannel: ChannelLike;
  openChannel: OpenChannel;
  /** The Web Lock this worker holds for its life, so the leader can tell a throttled follower from a dead one. */
  lock: string | null;
  /** Where the leader's own life lock is watched: its release is the leader's death, noticed at once. */
  locks: Locks | null;
  clock: EngineClock;
  /** The leader stopped answering: this link is closed, find the leader again. */
  onLost: () => void;
  /** The leader hands over to another build (null: unknown), or its storage was upgraded: the tabs should reload. */
  onReload: (into: BuildStamp | null) => void;
}

interface PendingCall {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  name: string;
}

/** How often the hello is repeated until the leader welcomes this link. */
const HELLO_RETRY_MS = 500;

/**
 * The follower's end of the leader link (leader-election fallback): this worker reaches the leader's engine
 * by name, its requests and subscriptions going over this worker's own link channel to the leader's
 * LeaderLinkServer. The leader's life lock freed tells at once that the leader died; a heartbeat keeps this
 * follower known to the leader and tells it when the leader hangs. In both cases in-flight commands fail with
 * a network EngineError (status 0), and subscriptions simply stop: CurrentEngine re-subscribes them on the
 * next leader.
 */
export class LeaderLink implements EngineByName {
  readonly leaderId: string;
  private readonly linkId = randomId();
  private readonly channel: ChannelLike;
  private readonly calls = new Map<number, PendingCall>();
  private readonly subscribers = new Map<number, { subscriber: Subscriber<unknown>; decoder: StreamDecoder }>();
  private queue: LinkRequest[] = [];
  private welcomed = false;
  private closed = false;
  private nextId = 1;
  private lastHeard: number;
  private timer: unknown = null;
  private readonly watch = new AbortController();

  constructor(private readonly options: LeaderLinkOptions) {
    this.leaderId = options.leaderId;
    this.lastHeard = options.clock.now();
    this.channel = options.openChannel(linkChannelName(this.linkId));
    this.channel.addEventListener('message', (event) => this.receive(event.data));
    this.sayHello();
    this.tick();
    // The leader holds its life lock from before it announced itself, so this waits for its death.
    if (options.locks) whenReleased(options.locks, workerLockName(this.leaderId), this.watch.signal, () => this.lose());
  }

  get isClosed(): boolean {
    return this.closed;
  }

  query(name: QueryName, args: readonly unknown[]): Observable<unknown> {
    return new Observable<unknown>((subscriber) => {
      if (this.closed) return undefined;
      const id = this.nextId++;
      this.subscribers.set(id, { subscriber, decoder: new StreamDecoder() });
      this.send({ t: 'sub', id, name, args: [...args] });
      return () => {
        if (this.subscribers.delete(id) && !this.closed) this.send({ t: 'unsub', id });
      };
    });
  }

  invoke(name: CommandName, args: readonly unknown[]): Promise<unknown> {
    if (this.closed) return Promise.reject(lostError(name));
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.calls.set(id, { resolve, reject, name });
      this.send({ t: 'call', id, name, args: [...args] });
    });
  }

  /** Lets go of the link: pending commands fail, subscriptions go quiet. */
  close(): void {
    if (this.closed) return;
    if (this.welcomed) post(this.channel, { t: 'bye' }, () => undefined);
    this.closed = true;
    this.watch.abort();
    if (this.timer !== null) this.options.clock.clearTimeout(this.timer);
    this.timer = null;
    for (const { reject, name } of this.calls.values()) reject(lostError(name));
    this.calls.clear();
    this.subscribers.clear();
    this.queue = [];
    this.channel.close();
  }

  /** The leader is gone (dead, or silent past the timeout). */
  private lose(): void {
    if (this.closed) return;
    this.close();
    this.options.onLost();
  }

  private sayHello(): void {
    post(
      this.options.leaderChannel,
      { t: 'hello', leaderId: this.leaderId, linkId: this.linkId, lock: this.options.lock, build: this.options.build },
      () => undefined,
    );
  }

  /** One timer for the whole link: hello until welcomed, then heartbeats; silence past the timeout is a lost leader. */
  private tick(): void {
    if (this.closed) return;
    const { clock } = this.options;
    if (clock.now() - this.lastHeard > ANSWER_TIMEOUT_MS) {
      this.lose();
      return;
    }
    if (this.welcomed) this.send({ t: 'beat' });
    else this.sayHello();
    this.timer = clock.setTimeout(() => this.tick(), this.welcomed ? HEARTBEAT_INTERVAL_MS : HELLO_RETRY_MS);
  }

  private send(request: LinkRequest): void {
    if (!this.welcomed) {
      if (request.t !== 'beat') this.queue.push(request);
      return;
    }
    post(this.channel, request, (error) => this.refuse(request, error));
  }

  /** A request that could not be cloned fails on its own; the link stays up. */
  private refuse(request: LinkRequest, error: unknown): void {
    if (request.t === 'call') {
      const call = this.calls.get(request.id);
      this.calls.delete(request.id);
      call?.reject(error);
    } else if (request.t === 'sub') {
      const entry = this.subscribers.get(request.id);
      this.subscribers.delete(request.id);
      entry?.subscriber.error(error);
    }
  }

  private receive(data: unknown): void {
    const reply = asLinkReply(data);
    if (!reply || this.closed) return;
    this.lastHeard = this.options.clock.now();
    this.handle(reply);
  }

  private handle(reply: LinkReply): void {
    switch (reply.t) {
      case 'welcome': {
        if (this.welcomed) return;
        this.welcomed = true;
        const queued = this.queue;
        this.queue = [];
        for (const request of queued) this.send(request);
        return;
      }
      case 'beatAck':
        if (reply.reload) this.options.onReload(null);
        return;
      case 'reload':
        this.options.onReload(reply.build);
        return;
      case 'result': {
        const call = this.calls.get(reply.id);
        if (!call) return;
        this.calls.delete(reply.id);
        if (reply.ok) call.resolve(reply.value);
        else call.reject(reply.error);
        return;
      }
      case 'next': {
        const entry = this.subscribers.get(reply.id);
        if (!entry) return;
        let value: unknown;
        try {
          value = entry.decoder.decode(reply.value);
        } catch (error) {
          this.subscribers.delete(reply.id);
          entry.subscriber.error(error);
          return;
        }
        entry.subscriber.next(value);
        return;
      }
      case 'error': {
        const entry = this.subscribers.get(reply.id);
        this.subscribers.delete(reply.id);
        entry?.subscriber.error(reply.error);
        return;
      }
      case 'complete': {
        const entry = this.subscribers.get(reply.id);
        this.subscribers.delete(reply.id);
        entry?.subscriber.complete();
        return;
      }
    }
  }
}

/** A command whose leader went away mid-call: the network-kind failure (status 0), so it may be retried. */
const lostError = (call: string) => engineError(call, 0, null, 'The connection to the engine was lost');

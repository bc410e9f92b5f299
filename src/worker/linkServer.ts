import type { BuildStamp } from '../engine/api';
import type { EngineClock } from '../engine/clock';
import type { EngineBackend } from './backend';
import { type ChannelLike, type OpenChannel, post } from './channel';
import { ClientHost } from './clientHost';
import { asLeaderMessage, asLinkRequest, type LinkReply, type LinkRequest, linkChannelName } from './linkProtocol';
import type { ClientRegistry } from './liveness';
import { isEventQuery, isQueryName } from './names';
import { COALESCE_MS, StreamSenders } from './streamSender';

export interface LinkServerOptions {
  leaderId: string;
  /** The leader's build: workers of the same build follow, others ask it to yield or reload (engineHost.ts). */
  build: BuildStamp;
  backend: EngineBackend;
  leaderChannel: ChannelLike;
  openChannel: OpenChannel;
  registry: ClientRegistry;
  clock: EngineClock;
  reloadRequested: () => boolean;
}

/**
 * The leader's side of the fallback: it answers "who leads?", welcomes each follower on that follower's
 * link channel, and serves it through a ClientHost like a SharedWorker serves a port, so a follower that
 * dies (its heartbeat stops and its worker's lock is free) is dropped and its tabs closed in the engine.
 */
export class LinkServer {
  private readonly links = new Map<string, { channel: ChannelLike; host: ClientHost }>();
  private stopped = false;
  /** Set once the leader hands over: where its followers go, and new ones are sent there too. */
  private reloadInto: { build: BuildStamp | null } | null = null;

  constructor(private readonly options: LinkServerOptions) {
    options.leaderChannel.addEventListener('message', (event) => this.onLeaderMessage(event.data));
  }

  /** A message of the leader channel that came before this server listened (EngineHost loads it on a hello). */
  receive(data: unknown): void {
    this.onLeaderMessage(data);
  }

  /** Tells every engine worker that this one leads now. */
  announce(): void {
    const { leaderId, build } = this.options;
    post(this.options.leaderChannel, { t: 'leader', leaderId, build }, () => undefined);
  }

  /**
   * Tells every follower now that its tabs should reload into `build` (without waiting for its next
   * heartbeat); from now on a follower that says hello is told the same instead of being served.
   */
  pushReload(build: BuildStamp | null): void {
    this.reloadInto = { build };
    for (const { channel } of this.links.values()) this.reply(channel, { t: 'reload', build });
  }

  get followerCount(): number {
    return this.links.size;
  }

  stop(): void {
    this.stopped = true;
    for (const { host } of [...this.links.values()]) host.drop();
  }

  private onLeaderMessage(data: unknown): void {
    if (this.stopped) return;
    const message = asLeaderMessage(data);
    if (!message) return;
    if (message.t === 'whoLeads') {
      // A leader on its way out is nobody's to follow.
      if (!this.reloadInto) this.announce();
    } else if (message.t === 'hello' && message.leaderId === this.options.leaderId) {
      if (message.build?.id !== this.options.build.id || this.reloadInto) this.turnAway(message.linkId);
      else this.accept(message.linkId, message.lock);
    }
  }

  /**
   * A follower of another build (one from before the lease follows any leader), or one that comes while
   * this leader hands over, is not served: it is told to reload, in words every build understands.
   */
  private turnAway(linkId: string): void {
    const channel = this.options.openChannel(linkChannelName(linkId));
    this.reply(channel, { t: 'beatAck', reload: true });
    this.reply(channel, { t: 'reload', build: this.reloadInto?.build ?? null });
    channel.close();
  }

  private accept(linkId: string, lock: string | null): void {
    const known = this.links.get(linkId);
    if (known) {
      // A repeated hello: our welcome crossed it.
      this.reply(known.channel, { t: 'welcome' });
      return;
    }
    const { backend, clock, registry, openChannel } = this.options;
    const channel = openChannel(linkChannelName(linkId));
    const unsubscribes = new Map<number, () => void>();
    const senders = new StreamSenders((run) => {
      clock.setTimeout(run, COALESCE_MS);
    });
    const host = new ClientHost(backend, () => clock.now(), () => {
      this.links.delete(linkId);
      registry.remove(host);
      unsubscribes.clear();
      channel.close();
    });
    host.beat(lock);
    this.links.set(linkId, { channel, host });
    registry.add(host);
    channel.addEventListener('message', (event) => {
      const request = asLinkRequest(event.data);
      if (request && !host.isDropped) this.serve(channel, host, senders, unsubscribes, request);
    });
    this.reply(channel, { t: 'welcome' });
  }

  private serve(
    channel: ChannelLike,
    host: ClientHost,
    senders: StreamSenders,
    unsubscribes: Map<number, () => void>,
    request: LinkRequest,
  ): void {
    switch (request.t) {
      case 'bye':
        host.drop();
        return;
      case 'beat':
        host.beat(null);
        this.reply(channel, { t: 'beatAck', reload: this.options.reloadRequested() });
        return;
      case 'call':
        // Values still pending go first: the follower that awaited the command sees the state it left.
        host.invoke(request.name, request.args).then(
          (value) => {
            senders.flush();
            this.reply(channel, { t: 'result', id: request.id, ok: true, value });
          },
          (error: unknown) => {
            senders.flush();
            this.reply(channel, { t: 'result', id: request.id, ok: false, error });
          },
        );
        return;
      case 'sub': {
        const { id } = request;
        let released = false;
        // Encoded and coalesced (streamSender.ts); a value that cannot be cloned ends the subscription there.
        const sender = senders.open(
          (wire) => this.reply(channel, { t: 'next', id, value: wire }),
          isQueryName(request.name) && isEventQuery(request.name),
        );
        try {
          const unsubscribe = host.subscribe(request.name, request.args, {
            next: (value) => sender.next(value),
            error: (error) => {
              sender.before();
              this.reply(channel, { t: 'error', id, error });
            },
            complete: () => {
              sender.before();
              this.reply(channel, { t: 'complete', id });
            },
            release: () => {
              released = true;
              sender.close();
              unsubscribes.delete(id);
            },
          });
          if (!released) unsubscribes.set(id, unsubscribe);
        } catch (error) {
          this.reply(channel, { t: 'error', id, error });
        }
        return;
      }
      case 'unsub':
        unsubscribes.get(request.id)?.();
        return;
    }
  }

  private reply(channel: ChannelLike, reply: LinkReply): void {
    post(channel, reply, (error) => {
      // A value that cannot be cloned: the follower gets the failure instead of waiting forever.
      const ignore = () => undefined;
      if (reply.t === 'result') post(channel, { t: 'result', id: reply.id, ok: false, error: String(error) }, ignore);
      else if (reply.t === 'next') post(channel, { t: 'error', id: reply.id, error: String(error) }, ignore);
    });
  }
}

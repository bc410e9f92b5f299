import type { BuildStamp } from '../engine/api';
import type { EngineClock } from '../engine/clock';
import { type ChannelLike, type OpenChannel, post } from './channel';
import { ClientServer, type WorkerLifecycle } from './clientServer';
import type { EngineByName } from './currentEngine';
import { asLeaderMessage, asLinkRequest, type LinkReply, type LinkRequest, linkChannelName } from './linkProtocol';
import type { ClientRegistry } from './liveness';
import { COALESCE_MS } from './streamSender';

export interface LeaderLinkServerOptions {
  leaderId: string;
  /** The leader's build: workers of the same build follow, others ask it to yield or reload (engineHost.ts). */
  build: BuildStamp;
  /** The engine the followers reach (the leader's CurrentEngine, its own engine while it leads). */
  engine: EngineByName;
  leaderChannel: ChannelLike;
  openChannel: OpenChannel;
  registry: ClientRegistry;
  clock: EngineClock;
  /** The leader worker's lifecycle: a follower's heartbeat answer says whether its tabs should reload. */
  lifecycle: WorkerLifecycle;
}

/**
 * The leader's end of the leader links (leader-election fallback): it answers "who leads?", welcomes each
 * follower on that follower's link channel, and serves it through a ClientServer, as a worker serves a tab's
 * port, so a follower that dies (its heartbeat stops and its worker's lock is free) is dropped and its tabs
 * closed in the engine.
 */
export class LeaderLinkServer {
  private readonly links = new Map<string, { channel: ChannelLike; server: ClientServer }>();
  private stopped = false;
  /** Set once the leader hands over: where its followers go, and new ones are sent there too. */
  private reloadInto: { build: BuildStamp | null } | null = null;

  constructor(private readonly options: LeaderLinkServerOptions) {
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
    for (const { server } of [...this.links.values()]) server.drop();
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
    const { engine, lifecycle, clock, registry, openChannel } = this.options;
    const channel = openChannel(linkChannelName(linkId));
    const unsubscribes = new Map<number, () => void>();
    const server: ClientServer = new ClientServer({
      engine,
      lifecycle,
      now: () => clock.now(),
      schedule: (run) => {
        clock.setTimeout(run, COALESCE_MS);
      },
      onDrop: () => {
        this.links.delete(linkId);
        registry.remove(server);
        unsubscribes.clear();
        channel.close();
      },
    });
    server.beat(lock);
    this.links.set(linkId, { channel, server });
    registry.add(server);
    channel.addEventListener('message', (event) => {
      const request = asLinkRequest(event.data);
      if (request && !server.isDropped) this.serve(channel, server, unsubscribes, request);
    });
    this.reply(channel, { t: 'welcome' });
  }

  /** One request of a follower, passed to its ClientServer; what comes back goes on the link channel. */
  private serve(channel: ChannelLike, server: ClientServer, unsubscribes: Map<number, () => void>, request: LinkRequest): void {
    switch (request.t) {
      case 'bye':
        server.drop();
        return;
      case 'beat':
        server.beat(null);
        this.reply(channel, { t: 'beatAck', reload: this.options.lifecycle.reloadRequested });
        return;
      case 'call':
        server.invoke(request.name, request.args).then(
          (value) => this.reply(channel, { t: 'result', id: request.id, ok: true, value }),
          (error: unknown) => this.reply(channel, { t: 'result', id: request.id, ok: false, error }),
        );
        return;
      case 'sub': {
        const { id } = request;
        let ended = false;
        const end = () => {
          ended = true;
          unsubscribes.delete(id);
        };
        try {
          // A value that cannot be cloned ends the subscription there (reply).
          const unsubscribe = server.subscribe(request.name, request.args, {
            next: (wire) => this.reply(channel, { t: 'next', id, value: wire }),
            error: (error) => {
              end();
              this.reply(channel, { t: 'error', id, error });
            },
            complete: () => {
              end();
              this.reply(channel, { t: 'complete', id });
            },
          });
          if (!ended) unsubscribes.set(id, unsubscribe);
        } catch (error) {
          this.reply(channel, { t: 'error', id, error });
        }
        return;
      }
      case 'unsub':
        unsubscribes.get(request.id)?.();
        unsubscribes.delete(request.id);
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

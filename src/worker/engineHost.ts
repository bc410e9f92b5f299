import type { BuildStamp, EngineApi } from '../engine/api';
import type { EngineClock } from '../engine/clock';
import { type EngineBackend, engineBackend } from './backend';
import { type ChannelLike, type OpenChannel, post } from './channel';
import { asLeaderMessage, LEASE_LOCK, type LeaderMessage } from './linkProtocol';
import type { LinkServer } from './linkServer';
import { ClientRegistry, workerLockName } from './liveness';
import { holdForLife, type Locks } from './locks';
import type { RemoteBackend } from './remoteBackend';
import { SwitchingBackend } from './switchingBackend';

/** The engine this worker runs while it holds the lease. */
export interface RunningEngine extends EngineApi {
  /** Stops the socket, the outbox and the timers, and writes what is pending (resolves once nothing sends). */
  stop(): Promise<void>;
}

export interface EngineHostOptions {
  /** This worker's id: its life lock is `workerLockName(workerId)`. */
  workerId: string;
  build: BuildStamp;
  /** Web Locks, or null where the API is missing: then this worker runs its own engine, as it cannot elect. */
  locks: Locks | null;
  leaderChannel: ChannelLike;
  openChannel: OpenChannel;
  clock: EngineClock;
  /** Opens the store and starts the engine (startEngine.ts); called only while this worker holds the lease. */
  startEngine: (onVersionChange: () => void) => Promise<RunningEngine>;
  /** How many tabs this worker serves itself right now (its ports, or its one tab). */
  localClients: () => number;
  /** Hands over stop waiting for tabs that are slow to reload after this long. */
  handoverGraceMs?: number;
  log: (message: string, detail?: unknown) => void;
}

/** What the tabs' side of a worker (portRemote.ts) asks of its host. */
export interface WorkerLifecycle {
  /**
   * A tab connected; `fresh` when its page has just loaded (not a reconnect). Resolves with the name of the
   * Web Lock this worker holds for its life (null without Web Locks): the tab waits on it to learn at once
   * that the worker died.
   */
  attach(fresh: boolean): Promise<string | null>;
  /** True once this worker's tabs should reload (another build took the engine, or storage was upgraded). */
  readonly reloadRequested: boolean;
  /** Resolves when `reloadRequested` becomes true, with the build the tabs should land on (null: unknown). */
  whenReloadRequested(): Promise<BuildStamp | null>;
}

/** Tabs still open on a worker that hands over get this long to reload before the engine stops anyway. */
export const HANDOVER_GRACE_MS = 3_000;
const HANDOVER_POLL_MS = 50;
/** A worker whose engine failed to start lets go of the lease and asks for it again after this long. */
const RESTART_DELAY_MS = 1_000;

/**
 * 'idle': no tab yet; 'electing': waiting for the lease, following a leader of this build if there is one;
 * 'leading': holds the lease and runs the engine; 'handingOver': leading, but another build asked for the
 * engine; 'superseded': another build has the engine, this worker's tabs reload.
 */
type Role = 'idle' | 'electing' | 'leading' | 'handingOver' | 'superseded';

const sameBuild = (a: BuildStamp | null, b: BuildStamp): boolean => a !== null && a.id === b.id;

/**
 * One engine per browser profile, whatever the build and however the tabs reach it (issue 14). Every engine
 * worker (the SharedWorker, or each tab's dedicated worker in the fallback) has one EngineHost. Only the
 * holder of the lease (the Web Lock LEASE_LOCK) runs an engine, so two engines never send from the same
 * outbox; the others follow it over a BroadcastChannel link when it is of their build.
 *
 * When two builds meet (a deploy: old tabs open, a new page loads), the build of the page that loaded last
 * takes the engine: a page load shows what the server serves now. A worker that a freshly loaded page
 * attached to ("claimed") asks a leader of another build to yield; the leader tells its tabs to reload,
 * gives them HANDOVER_GRACE_MS to go (their drafts are saved meanwhile), stops its engine (no socket, no
 * send in flight) and only then lets go of the lease, which the claimant was waiting for. A worker that
 * meets a leader of another build without such a claim (its tabs only reconnected) reloads its tabs instead.
 *
 * The worker holds its own life lock from its first moment; its tabs and followers wait on it, so its death
 * wakes them at once, and the next worker in the lease's queue starts the engine from the shared store.
 */
export class EngineHost implements WorkerLifecycle {
  readonly backend = new SwitchingBackend();
  private readonly lifeLock: Promise<string | null>;
  private role: Role = 'idle';
  /** A page of this build loaded and attached here: its build should have the engine. */
  private claimed = false;
  private lease: AbortController | null = null;
  private releaseLease: (() => void) | null = null;
  private remote: RemoteBackend | null = null;
  /** The leader a follow() is loading the link code for; any other change of course cancels it. */
  private following: { leaderId: string } | null = null;
  private server: LinkServer | null = null;
  /** The LinkServer's chunk loading, for the hellos in `waitingHellos` (see serveFollowers). */
  private serverLoad: Promise<void> | null = null;
  private waitingHellos: unknown[] = [];
  /** The engine this worker runs, as a backend, while it leads. */
  private local: EngineBackend | null = null;
  private registry: ClientRegistry | null = null;
  private engine: RunningEngine | null = null;
  private reload = false;
  private reloadInto: BuildStamp | null = null;
  private reloadWaiters: ((into: BuildStamp | null) => void)[] = [];

  constructor(private readonly options: EngineHostOptions) {
    const { locks, workerId } = options;
    const name = workerLockName(workerId);
    this.lifeLock = locks ? holdForLife(locks, name).then(() => name) : Promise.resolve(null);
    options.leaderChannel.addEventListener('message', (event) => this.onLeaderMessage(event.data));
  }

  get reloadRequested(): boolean {
    return this.reload;
  }

  whenReloadRequested(): Promise<BuildStamp | null> {
    if (this.reload) return Promise.resolve(this.reloadInto);
    return new Promise((resolve) => this.reloadWaiters.push(resolve));
  }

  attach(fresh: boolean): Promise<string | null> {
    if (fresh) this.claimed = true;
    // A page of this build loaded after its worker stood aside: the server serves this build again.
    if (this.role === 'idle' || (fresh && this.role === 'superseded')) this.elect();
    return this.lifeLock;
  }

  /** For diagnostics and tests. */
  get state(): Role {
    return this.role;
  }

  private elect(): void {
    this.role = 'electing';
    this.following = null;
    this.setReload(false);
    const { locks } = this.options;
    if (!locks) {
      // No safe election without Web Locks: this worker runs its own engine (one socket per worker).
      this.options.log('Web Locks are unavailable: this worker runs its own engine');
      void this.lead();
      return;
    }
    const lease = new AbortController();
    this.lease = lease;
    locks
      .request(LEASE_LOCK, { signal: lease.signal }, async () => {
        if (this.lease !== lease) return;
        await this.lead();
      })
      .catch(() => undefined);
    this.post({ t: 'whoLeads' });
  }

  /** Holds the lease: runs the engine and serves followers until it hands over (the promise settles then). */
  private async lead(): Promise<void> {
    const { options } = this;
    this.role = 'leading';
    this.following = null;
    this.remote?.close();
    this.remote = null;
    // Calls made while the engine starts wait for it rather than fail on the old leader.
    this.backend.use(null);
    let engine: RunningEngine;
    try {
      engine = await options.startEngine(() => this.versionChanged());
    } catch (error) {
      // The lease is let go when this returns; ask for it again, so the tabs are not left without an engine.
      options.log('the engine did not start; trying again', error);
      this.role = 'idle';
      options.clock.setTimeout(() => {
        if (this.role === 'idle') this.elect();
      }, RESTART_DELAY_MS);
      return;
    }
    if (this.role !== 'leading') {
      // Stood down while starting (the store was upgraded): nothing of this engine may outlive the lease.
      await engine.stop().catch((error: unknown) => options.log('stopping the engine failed', error));
      return;
    }
    this.engine = engine;
    const local = engineBackend(engine);
    this.backend.use(local);
    this.local = local;
    // Followers are served by a LinkServer, a chunk of its own loaded when the first one says hello: a
    // worker with no followers (a SharedWorker, the usual case) never loads it (issue 11).
    this.announce();
    await new Promise<void>((resolve) => {
      this.releaseLease = resolve;
    });
  }

  private onLeaderMessage(data: unknown): void {
    const message = asLeaderMessage(data);
    if (!message) return;
    if (message.t === 'leader') this.onLeader(message.leaderId, message.build);
    else if (message.t === 'yield' && message.leaderId === this.options.workerId) this.onYield(message.build);
    // Once the engine runs (lead() announces it then) and until there is a LinkServer (it answers these
    // itself), the leader answers for it.
    else if (this.role === 'leading' && this.local && !this.server) this.onFollowerMessage(message, data);
  }

  private onFollowerMessage(message: LeaderMessage, data: unknown): void {
    if (message.t === 'whoLeads') this.announce();
    else if (message.t === 'hello' && message.leaderId === this.options.workerId) this.serveFollowers(data);
  }

  /** Tells every engine worker that this one leads now. */
  private announce(): void {
    this.post({ t: 'leader', leaderId: this.options.workerId, build: this.options.build });
  }

  /** Loads the LinkServer for a follower's hello; it gets the hellos that came meanwhile. */
  private serveFollowers(hello: unknown): void {
    this.waitingHellos.push(hello);
    if (this.serverLoad) return;
    const load = import('./linkServer').then(
      ({ LinkServer: Server }) => {
        const backend = this.local;
        if (this.serverLoad !== load) return;
        if (this.role !== 'leading' || !backend) {
          this.serverLoad = null;
          this.waitingHellos = [];
          return;
        }
        const { options } = this;
        this.registry = new ClientRegistry(options.clock);
        const server = new Server({
          leaderId: options.workerId,
          build: options.build,
          backend,
          leaderChannel: options.leaderChannel,
          openChannel: options.openChannel,
          registry: this.registry,
          clock: options.clock,
          reloadRequested: () => this.reload,
        });
        this.server = server;
        for (const waiting of this.waitingHellos.splice(0)) server.receive(waiting);
      },
      (error: unknown) => {
        // Not loaded (a newer deploy replaced the chunk): the follower's next hello tries again.
        if (this.serverLoad === load) this.serverLoad = null;
        this.waitingHellos = [];
        this.options.log("the followers' link could not be loaded", error);
      },
    );
    this.serverLoad = load;
  }

  private onLeader(leaderId: string, build: BuildStamp | null): void {
    if (this.role !== 'electing' || leaderId === this.options.workerId) return;
    if (sameBuild(build, this.options.build)) this.follow(leaderId);
    else if (this.claimed) this.post({ t: 'yield', leaderId, build: this.options.build });
    else this.supersede(build);
  }

  private onYield(build: BuildStamp): void {
    if (this.role !== 'leading' || sameBuild(build, this.options.build)) return;
    void this.handOver(build);
  }

  /**
   * Links to the leader. The link's code is a chunk of its own, loaded here: a worker that leads (the usual
   * case, and all a tab on /login needs) never loads it (issue 11). Calls wait meanwhile (backend: null).
   */
  private follow(leaderId: string): void {
    if (this.remote && !this.remote.isClosed && this.remote.leaderId === leaderId) return;
    if (this.following?.leaderId === leaderId) return;
    this.remote?.close();
    this.remote = null;
    this.backend.use(null);
    const attempt = { leaderId };
    this.following = attempt;
    import('./remoteBackend').then(
      ({ RemoteBackend: Remote }) => {
        if (this.following !== attempt || this.role !== 'electing') return;
        this.following = null;
        this.linkTo(leaderId, Remote);
      },
      (error: unknown) => {
        if (this.following !== attempt) return;
        // Not loaded (a newer deploy replaced the chunk): ask again in a while; the leader's answer retries.
        this.following = null;
        this.options.log('the link to the leader could not be loaded', error);
        this.options.clock.setTimeout(() => {
          if (this.role === 'electing' && !this.remote) this.post({ t: 'whoLeads' });
        }, RESTART_DELAY_MS);
      },
    );
  }

  private linkTo(leaderId: string, Remote: typeof RemoteBackend): void {
    const { options } = this;
    const link: RemoteBackend = new Remote({
      leaderId,
      build: options.build,
      leaderChannel: options.leaderChannel,
      openChannel: options.openChannel,
      lock: options.locks ? workerLockName(options.workerId) : null,
      locks: options.locks,
      clock: options.clock,
      onLost: () => {
        if (this.remote !== link) return;
        // Commands wait for the next leader (maybe this worker: its lease request is still queued).
        this.remote = null;
        this.backend.use(null);
        this.post({ t: 'whoLeads' });
      },
      onReload: (into) => {
        if (this.remote === link) this.supersede(into);
      },
    });
    this.remote = link;
    this.backend.use(link);
  }

  /** Another build has the engine: this worker runs none and waits for none; its tabs reload into that build. */
  private supersede(into: BuildStamp | null): void {
    this.role = 'superseded';
    this.following = null;
    this.lease?.abort();
    this.lease = null;
    this.remote?.close();
    this.remote = null;
    this.backend.use(null);
    this.setReload(true, into);
  }

  private async handOver(to: BuildStamp): Promise<void> {
    const { options } = this;
    this.role = 'handingOver';
    this.setReload(true, to);
    this.server?.pushReload(to);
    // The tabs keep a working engine while they reload, so what they save on the way out is kept.
    const until = options.clock.now() + (options.handoverGraceMs ?? HANDOVER_GRACE_MS);
    while (options.clock.now() < until && options.localClients() + (this.server?.followerCount ?? 0) > 0) {
      await new Promise<void>((resolve) => options.clock.setTimeout(resolve, HANDOVER_POLL_MS));
    }
    await this.stopLeading();
  }

  /** The store was upgraded by a newer app: startEngine stopped the engine; the tabs reload into the new one. */
  private versionChanged(): void {
    this.server?.pushReload(null);
    this.setReload(true, null);
    void this.stopLeading();
  }

  private async stopLeading(): Promise<void> {
    this.role = 'superseded';
    this.server?.stop();
    this.server = null;
    this.serverLoad = null;
    this.waitingHellos = [];
    this.local = null;
    this.registry?.stop();
    this.registry = null;
    this.backend.use(null);
    const engine = this.engine;
    this.engine = null;
    await engine?.stop().catch((error: unknown) => this.options.log('stopping the engine failed', error));
    // Only now, with nothing left that sends, may the next engine start.
    this.lease = null;
    this.releaseLease?.();
    this.releaseLease = null;
  }

  private setReload(on: boolean, into: BuildStamp | null = null): void {
    this.reload = on;
    this.reloadInto = into;
    if (!on) return;
    for (const resolve of this.reloadWaiters.splice(0)) resolve(into);
  }

  private post(message: unknown): void {
    post(this.options.leaderChannel, message, () => undefined);
  }
}

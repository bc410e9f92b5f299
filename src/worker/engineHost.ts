import type { BuildStamp, EngineApi } from '../engine/api';
import type { EngineClock } from '../engine/clock';
import { type ChannelLike, type OpenChannel, post } from './channel';
import type { WorkerLifecycle } from './clientServer';
import { CurrentEngine, ownByName } from './currentEngine';
import type { LeaderLink } from './leaderLink';
import type { LeaderLinkServer } from './leaderLinkServer';
import { asLeaderMessage, LEASE_LOCK, type LeaderMessage } from './linkProtocol';
import { ClientRegistry, workerLockName } from './liveness';
import { holdForLife, type Locks } from './locks';
import { ReconnectBackoff } from './reconnectBackoff';

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

/** Tabs still open on a worker that hands over get this long to reload before the engine stops anyway. */
export const HANDOVER_GRACE_MS = 3_000;
const HANDOVER_POLL_MS = 50;
/** A worker whose engine failed to start lets go of the lease and asks for it again after this long. */
const RESTART_DELAY_MS = 1_000;

/** How a leader serves its followers: nobody yet, the LeaderLinkServer's chunk loading (with the hellos that came meanwhile), or serving. */
type Followers =
  | { state: 'none' }
  | { state: 'loading'; load: Promise<void>; hellos: unknown[] }
  | { state: 'serving'; server: LeaderLinkServer; registry: ClientRegistry };

/** What a worker has while it holds the lease (leading, and handing over). */
interface Lead {
  /** The running engine; null while it starts. */
  engine: RunningEngine | null;
  followers: Followers;
  /** Lets go of the lease (lead() returns); only once the engine has stopped. */
  release: () => void;
}

/** The leader this worker follows: its link, or null while the link's code loads. */
interface Followed {
  leaderId: string;
  link: LeaderLink | null;
}

/**
 * The worker's role, each with only what that role has. 'idle': no tab yet; 'electing': waiting for the
 * lease (`lease` aborts the request), following a leader of this build if there is one; 'leading': holds
 * the lease and runs the engine; 'handingOver': leading, but another build asked for the engine (`into`);
 * 'superseded': another build has the engine (`into`; null: unknown), this worker's tabs reload.
 */
type Role =
  | { name: 'idle' }
  | { name: 'electing'; lease: AbortController | null; leader: Followed | null }
  | { name: 'leading'; lead: Lead }
  | { name: 'handingOver'; lead: Lead; into: BuildStamp | null }
  | { name: 'superseded'; into: BuildStamp | null };

export type RoleName = Role['name'];

const sameBuild = (a: BuildStamp | null, b: BuildStamp): boolean => a !== null && a.id === b.id;

/** The follower server of a lead, once it serves. */
const serverOf = (lead: Lead): LeaderLinkServer | null => (lead.followers.state === 'serving' ? lead.followers.server : null);

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
  /** The engine this worker's clients reach now: its own, the leader's, or none yet (then calls wait). */
  readonly backend = new CurrentEngine();
  private readonly lifeLock: Promise<string | null>;
  private role: Role = { name: 'idle' };
  /** A page of this build loaded and attached here: its build should have the engine (whatever the role). */
  private claimed = false;
  private reloadWaiters: ((into: BuildStamp | null) => void)[] = [];
  /** Engines that fail to start again and again are retried more and more slowly (reconnectBackoff.ts). */
  private readonly restarts: ReconnectBackoff;

  constructor(private readonly options: EngineHostOptions) {
    const { locks, workerId } = options;
    this.restarts = new ReconnectBackoff(options.clock);
    const name = workerLockName(workerId);
    this.lifeLock = locks ? holdForLife(locks, name).then(() => name) : Promise.resolve(null);
    options.leaderChannel.addEventListener('message', (event) => this.onLeaderMessage(event.data));
  }

  /** A worker that hands over or was superseded asks its tabs to reload; no other role does. */
  get reloadRequested(): boolean {
    return this.role.name === 'handingOver' || this.role.name === 'superseded';
  }

  whenReloadRequested(): Promise<BuildStamp | null> {
    const { role } = this;
    if (role.name === 'handingOver' || role.name === 'superseded') return Promise.resolve(role.into);
    return new Promise((resolve) => this.reloadWaiters.push(resolve));
  }

  attach(fresh: boolean): Promise<string | null> {
    if (fresh) this.claimed = true;
    // A page of this build loaded after its worker stood aside: the server serves this build again.
    if (this.role.name === 'idle' || (fresh && this.role.name === 'superseded')) this.elect();
    return this.lifeLock;
  }

  /** For diagnostics and tests. */
  get state(): RoleName {
    return this.role.name;
  }

  /** Takes a role; one that asks the tabs to reload tells whoever waits for that. */
  private become(role: Role): void {
    this.role = role;
    if (role.name !== 'handingOver' && role.name !== 'superseded') return;
    for (const resolve of this.reloadWaiters.splice(0)) resolve(role.into);
  }

  /** The lead of this worker while it leads or hands over. */
  private currentLead(): Lead | null {
    const { role } = this;
    return role.name === 'leading' || role.name === 'handingOver' ? role.lead : null;
  }

  private elect(): void {
    const { locks } = this.options;
    const electing: Role & { name: 'electing' } = { name: 'electing', lease: null, leader: null };
    this.become(electing);
    if (!locks) {
      // No safe election without Web Locks: this worker runs its own engine (one socket per worker).
      this.options.log('Web Locks are unavailable: this worker runs its own engine');
      void this.lead();
      return;
    }
    const lease = new AbortController();
    electing.lease = lease;
    locks
      .request(LEASE_LOCK, { signal: lease.signal }, async () => {
        // A request this worker withdrew, or one of an earlier election, starts nothing.
        if (this.role.name !== 'electing' || this.role.lease !== lease) return;
        await this.lead();
      })
      .catch(() => undefined);
    this.post({ t: 'whoLeads' });
  }

  /** Holds the lease: runs the engine and serves followers until it hands over (the promise settles then). */
  private async lead(): Promise<void> {
    const { options } = this;
    if (this.role.name === 'electing') this.role.leader?.link?.close();
    let release = () => undefined as void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const lead: Lead = { engine: null, followers: { state: 'none' }, release };
    this.become({ name: 'leading', lead });
    // Calls made while the engine starts wait for it rather than fail on the old leader.
    this.backend.clear();
    let engine: RunningEngine;
    try {
      engine = await options.startEngine(() => this.versionChanged(lead));
    } catch (error) {
      // The lease is let go when this returns; ask for it again, so the tabs are not left without an engine.
      options.log('the engine did not start; trying again', error);
      this.become({ name: 'idle' });
      options.clock.setTimeout(
        () => {
          if (this.role.name === 'idle') this.elect();
        },
        Math.max(RESTART_DELAY_MS, this.restarts.next()),
      );
      return;
    }
    if (this.role.name !== 'leading' || this.role.lead !== lead) {
      // Stood down while starting (the store was upgraded): nothing of this engine may outlive the lease.
      await engine.stop().catch((error: unknown) => options.log('stopping the engine failed', error));
      return;
    }
    lead.engine = engine;
    this.backend.useOwn(engine);
    // Followers are served by a LeaderLinkServer, a chunk of its own loaded when the first one says hello: a
    // worker with no followers (a SharedWorker, the usual case) never loads it (issue 11).
    this.announce();
    await released;
  }

  private onLeaderMessage(data: unknown): void {
    const message = asLeaderMessage(data);
    if (!message) return;
    if (message.t === 'leader') this.onLeader(message.leaderId, message.build);
    else if (message.t === 'yield' && message.leaderId === this.options.workerId) this.onYield(message.build);
    // Once the engine runs (lead() announces it then) and until there is a LeaderLinkServer (it answers these
    // itself), the leader answers for it.
    else if (this.role.name === 'leading' && this.role.lead.engine && this.role.lead.followers.state !== 'serving') {
      this.onFollowerMessage(this.role.lead, message, data);
    }
  }

  private onFollowerMessage(lead: Lead, message: LeaderMessage, data: unknown): void {
    if (message.t === 'whoLeads') this.announce();
    else if (message.t === 'hello' && message.leaderId === this.options.workerId) this.serveFollowers(lead, data);
  }

  /** Tells every engine worker that this one leads now. */
  private announce(): void {
    this.post({ t: 'leader', leaderId: this.options.workerId, build: this.options.build });
  }

  /** Loads the LeaderLinkServer for a follower's hello; it gets the hellos that came meanwhile. */
  private serveFollowers(lead: Lead, hello: unknown): void {
    if (lead.followers.state === 'loading') {
      lead.followers.hellos.push(hello);
      return;
    }
    const load: Promise<void> = import('./leaderLinkServer').then(
      ({ LeaderLinkServer: Server }) => {
        const { followers } = lead;
        if (followers.state !== 'loading' || followers.load !== load) return;
        if (this.role.name !== 'leading' || this.role.lead !== lead || !lead.engine) {
          lead.followers = { state: 'none' };
          return;
        }
        const { options } = this;
        const registry = new ClientRegistry(options.clock);
        const server = new Server({
          leaderId: options.workerId,
          build: options.build,
          engine: ownByName(lead.engine),
          leaderChannel: options.leaderChannel,
          openChannel: options.openChannel,
          registry,
          clock: options.clock,
          lifecycle: this,
        });
        lead.followers = { state: 'serving', server, registry };
        for (const waiting of followers.hellos) server.receive(waiting);
      },
      (error: unknown) => {
        // Not loaded (a newer deploy replaced the chunk): the follower's next hello tries again.
        if (lead.followers.state === 'loading' && lead.followers.load === load) lead.followers = { state: 'none' };
        this.options.log("the followers' link could not be loaded", error);
      },
    );
    lead.followers = { state: 'loading', load, hellos: [hello] };
  }

  private onLeader(leaderId: string, build: BuildStamp | null): void {
    if (this.role.name !== 'electing' || leaderId === this.options.workerId) return;
    if (sameBuild(build, this.options.build)) this.follow(this.role, leaderId);
    else if (this.claimed) this.post({ t: 'yield', leaderId, build: this.options.build });
    else this.supersede(build);
  }

  private onYield(build: BuildStamp): void {
    if (this.role.name !== 'leading' || sameBuild(build, this.options.build)) return;
    void this.handOver(this.role.lead, build);
  }

  /**
   * Links to the leader. The link's code is a chunk of its own, loaded here: a worker that leads (the usual
   * case, and all a tab on /login needs) never loads it (issue 11). Calls wait meanwhile (backend: null).
   */
  private follow(electing: Role & { name: 'electing' }, leaderId: string): void {
    const { leader } = electing;
    if (leader?.leaderId === leaderId && (leader.link === null || !leader.link.isClosed)) return;
    leader?.link?.close();
    this.backend.clear();
    const attempt: Followed = { leaderId, link: null };
    electing.leader = attempt;
    const stillWanted = () => this.role === electing && electing.leader === attempt;
    import('./leaderLink').then(
      ({ LeaderLink: Remote }) => {
        if (stillWanted()) this.linkTo(electing, leaderId, Remote);
      },
      (error: unknown) => {
        if (!stillWanted()) return;
        // Not loaded (a newer deploy replaced the chunk): ask again in a while; the leader's answer retries.
        electing.leader = null;
        this.options.log('the link to the leader could not be loaded', error);
        this.options.clock.setTimeout(() => {
          if (this.role === electing && !electing.leader?.link) this.post({ t: 'whoLeads' });
        }, RESTART_DELAY_MS);
      },
    );
  }

  private linkTo(electing: Role & { name: 'electing' }, leaderId: string, Remote: typeof LeaderLink): void {
    const { options } = this;
    const linked = () => this.role === electing && electing.leader?.link === link;
    const link: LeaderLink = new Remote({
      leaderId,
      build: options.build,
      leaderChannel: options.leaderChannel,
      openChannel: options.openChannel,
      lock: options.locks ? workerLockName(options.workerId) : null,
      locks: options.locks,
      clock: options.clock,
      onLost: () => {
        if (!linked()) return;
        // Commands wait for the next leader (maybe this worker: its lease request is still queued).
        electing.leader = null;
        this.backend.clear();
        this.post({ t: 'whoLeads' });
      },
      onReload: (into) => {
        if (linked()) this.supersede(into);
      },
    });
    electing.leader = { leaderId, link };
    this.backend.useLeader(link);
  }

  /** Another build has the engine: this worker runs none and waits for none; its tabs reload into that build. */
  private supersede(into: BuildStamp | null): void {
    const { role } = this;
    if (role.name === 'electing') {
      role.lease?.abort();
      role.leader?.link?.close();
    }
    this.become({ name: 'superseded', into });
    this.backend.clear();
  }

  private async handOver(lead: Lead, to: BuildStamp): Promise<void> {
    const { options } = this;
    this.become({ name: 'handingOver', lead, into: to });
    serverOf(lead)?.pushReload(to);
    // The tabs keep a working engine while they reload, so what they save on the way out is kept.
    const until = options.clock.now() + (options.handoverGraceMs ?? HANDOVER_GRACE_MS);
    while (options.clock.now() < until && options.localClients() + (serverOf(lead)?.followerCount ?? 0) > 0) {
      await new Promise<void>((resolve) => options.clock.setTimeout(resolve, HANDOVER_POLL_MS));
    }
    await this.stopLeading(lead, to);
  }

  /** The store was upgraded by a newer app: startEngine stopped the engine; the tabs reload into the new one. */
  private versionChanged(lead: Lead): void {
    if (this.currentLead() !== lead) return;
    serverOf(lead)?.pushReload(null);
    void this.stopLeading(lead, null);
  }

  private async stopLeading(lead: Lead, into: BuildStamp | null): Promise<void> {
    // Called twice for one lead (the store upgraded while it hands over): the second only finds it stopped.
    const held = this.currentLead() === lead;
    if (held) this.become({ name: 'superseded', into });
    // The followers go first, while their tabs can still be closed in this engine.
    if (lead.followers.state === 'serving') {
      lead.followers.server.stop();
      lead.followers.registry.stop();
    }
    lead.followers = { state: 'none' };
    if (held) this.backend.clear();
    const { engine } = lead;
    lead.engine = null;
    await engine?.stop().catch((error: unknown) => this.options.log('stopping the engine failed', error));
    // Only now, with nothing left that sends, may the next engine start.
    lead.release();
  }

  private post(message: unknown): void {
    post(this.options.leaderChannel, message, () => undefined);
  }
}

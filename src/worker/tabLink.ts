import * as Comlink from 'comlink';
import { BehaviorSubject, filter, firstValueFrom } from 'rxjs';
import type { BuildStamp, EngineMode } from '../engine/api';
import { type EngineClock, realClock } from '../engine/clock';
import { engineError } from '../engine/errors';
import { newEngineSharedWorker, ownEngineTab, takeEarlyEngineWorker } from './earlyWorker';
import { ANSWER_TIMEOUT_MS, HEARTBEAT_INTERVAL_MS } from './liveness';
import { type Locks, whenReleased } from './locks';
import type { Log } from './rateLimitedLog';
import { ReconnectBackoff } from './reconnectBackoff';
import type { HeartbeatAnswer, WorkerPortApi } from './clientServer';

/** One connection of this tab to its engine worker. */
export interface Link {
  remote: Comlink.Remote<WorkerPortApi>;
  /** Rejects when this link is replaced or closed, so calls in flight on it do not wait forever. */
  lost: Promise<never>;
}

export interface Transport {
  remote: Comlink.Remote<WorkerPortApi>;
  /** Lets go of the worker side (releases the Comlink proxy: the worker drops this client). */
  release(): void;
}

/** A transport of this link, with the wait on its worker's life lock (aborted when it is let go). */
interface Opened extends Transport {
  watch: AbortController;
}

export interface TabLinkOptions {
  /** Another build took the engine (`into`; null: unknown), or upgraded its storage: the tab reloads. */
  onReloadRequested: (into: BuildStamp | null) => void;
  /** Web Locks, to learn of the worker's death at once; null leaves it to the heartbeat. */
  locks: Locks | null;
  /** Whether this page load claims the engine for its build (reloadMarker.ts); reconnects never do. */
  claims: boolean;
  /** Where the link says what happened to it (rate-limited: a worker that keeps dying must not flood it). */
  log: Log;
  /** Opens a connection to the engine worker; by default the one of `mode` (tests pass their own). */
  open?: () => Transport;
  /** The reconnects' time and timers (tests pass a manual one). */
  clock?: EngineClock;
}

/** Whether this browser has SharedWorker (an init script may delete it to force the fallback). */
export const engineMode = (): EngineMode =>
  typeof (globalThis as { SharedWorker?: unknown }).SharedWorker === 'function' ? 'shared-worker' : 'leader-election';

function releaseRemote(remote: Comlink.Remote<WorkerPortApi>): void {
  try {
    remote[Comlink.releaseProxy]();
  } catch {
    // Already released.
  }
}

/** The profile's one engine; a new port to it each time. */
function openSharedWorker(): Transport {
  const worker = takeEarlyEngineWorker() ?? newEngineSharedWorker();
  const remote = Comlink.wrap<WorkerPortApi>(worker.port);
  return { remote, release: () => releaseRemote(remote) };
}

/** This tab's own worker (the fallback): it leads or forwards to the leader. */
function openDedicatedWorker(): Transport {
  return dedicatedTransport(
    new Worker(new URL('./dedicatedWorker.ts', import.meta.url), {
      type: 'module',
      name: 'messenger-engine',
    }),
  );
}

/**
 * The tabs benchmark's baseline, in bench builds only (`VITE_BENCH`, `?bench=engine-per-tab`): a worker of
 * this tab that runs an engine and socket of its own, without an election (dedicatedWorker.ts reads the name).
 */
function openOwnEngineWorker(): Transport {
  return dedicatedTransport(
    new Worker(new URL('./dedicatedWorker.ts', import.meta.url), {
      type: 'module',
      name: 'messenger-engine-own',
    }),
  );
}

function dedicatedTransport(worker: Worker): Transport {
  const remote = Comlink.wrap<WorkerPortApi>(worker);
  return {
    remote,
    release: () => {
      releaseRemote(remote);
      // A leader's worker ending frees the leader lock at once, so the next tab takes over sooner.
      setTimeout(() => worker.terminate(), 100);
    },
  };
}

/**
 * This tab's connection to the engine worker, kept alive. Each new connection first `attach`es (telling the
 * worker whether this page has just loaded, which decides between two builds, engineHost.ts) and learns the
 * Web Lock the worker holds for its life: that lock freed means the worker died (a crash, the browser's
 * clean-up), and a new connection is opened at once; `link` then changes to it and every query re-subscribes
 * through it. The heartbeat stays as the safety net for a worker that hangs without dying: a beat
 * unanswered for ANSWER_TIMEOUT_MS reconnects too. On `pagehide` the proxies are released (design.md §5);
 * a page restored from the back-forward cache connects again.
 */
export class TabLink {
  /** The current link; null while the page is suspended. */
  readonly link = new BehaviorSubject<Link | null>(null);
  private transport: Opened | null = null;
  private loseCurrent: ((reason: unknown) => void) | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private reloadAsked = false;
  private connections = 0;
  /** Suspended for the back-forward cache (pagehide) until `resume`. */
  private suspended = false;
  /** Reconnects in a row back off (reconnectBackoff.ts). */
  private readonly backoff: ReconnectBackoff;
  private readonly clock: EngineClock;
  /** The reconnect waiting for its turn, if any. */
  private reconnectTimer: unknown = null;
  private readonly open: () => Transport;

  constructor(
    readonly mode: EngineMode,
    private readonly tabId: string,
    private readonly options: TabLinkOptions,
  ) {
    this.open = options.open ?? (ownEngineTab() ? openOwnEngineWorker : mode === 'shared-worker' ? openSharedWorker : openDedicatedWorker);
    this.clock = options.clock ?? realClock;
    this.backoff = new ReconnectBackoff(this.clock);
  }

  start(): void {
    this.connect();
    this.timer = setInterval(() => void this.beat(), HEARTBEAT_INTERVAL_MS);
  }

  /** The current link, once there is one (commands wait while the page is suspended). */
  current(): Promise<Link> {
    return firstValueFrom(this.link.pipe(filter((l): l is Link => l !== null)));
  }

  /**
   * The page is going away (or into the back-forward cache): subscriptions end now, and unless the page
   * may come back, the worker proxy is released, which drops this client in the worker.
   */
  suspend(persisted: boolean): void {
    this.suspended = true;
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    if (this.reconnectTimer !== null) this.clock.clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    this.setLink(null);
    if (!persisted) this.letGo();
  }

  /** The page came back from the back-forward cache: reuse the connection if it still answers. */
  resume(): void {
    if (this.timer !== null) return;
    this.suspended = false;
    if (this.transport) this.setLink(this.transport.remote);
    else this.connect();
    this.timer = setInterval(() => void this.beat(), HEARTBEAT_INTERVAL_MS);
    void this.beat();
  }

  private connect(): void {
    const previous = this.transport;
    const opened: Opened = { ...this.open(), watch: new AbortController() };
    this.transport = opened;
    this.setLink(opened.remote);
    if (previous) this.release(previous);
    this.watch(opened, this.connections++ === 0 && this.options.claims);
    void this.beat();
  }

  /** Attaches on a new connection, then waits for the worker's death and for a reload request. */
  private watch(opened: Opened, fresh: boolean): void {
    const { remote, watch } = opened;
    remote.attach(fresh).then(
      (lifeLock) => {
        const { locks } = this.options;
        if (lifeLock === null || !locks || watch.signal.aborted) return;
        whenReleased(locks, lifeLock, watch.signal, () => this.workerDied(opened));
      },
      () => undefined,
    );
    remote.reloadRequest().then(
      (into) => {
        if (opened === this.transport) this.reloadRequested(into);
      },
      () => undefined,
    );
  }

  private workerDied(opened: Opened): void {
    if (opened !== this.transport) return;
    this.options.log('the engine worker is gone; reconnecting');
    if (!this.suspended) {
      this.reconnect();
      return;
    }
    // Suspended (back-forward cache): connect when the page comes back, not to the dead worker.
    this.letGo();
  }

  /**
   * Connects again: at once after a good connection, later and later while new ones keep being lost
   * (ReconnectBackoff). Meanwhile the dead connection is let go and calls wait for the next one.
   */
  private reconnect(): void {
    const delay = this.backoff.next();
    if (delay === 0) {
      this.connect();
      return;
    }
    this.letGo();
    this.setLink(null);
    if (this.reconnectTimer !== null) this.clock.clearTimeout(this.reconnectTimer);
    this.reconnectTimer = this.clock.setTimeout(() => {
      this.reconnectTimer = null;
      if (!this.suspended) this.connect();
    }, delay);
  }

  private letGo(): void {
    if (this.transport) this.release(this.transport);
    this.transport = null;
  }

  private release(opened: Opened): void {
    opened.watch.abort();
    opened.release();
  }

  private reloadRequested(into: BuildStamp | null): void {
    if (this.reloadAsked) return;
    this.reloadAsked = true;
    this.options.onReloadRequested(into);
  }

  private setLink(remote: Comlink.Remote<WorkerPortApi> | null): void {
    this.loseCurrent?.(engineError('engine', 0, null, 'The connection to the engine was lost'));
    this.loseCurrent = null;
    if (!remote) {
      this.link.next(null);
      return;
    }
    const lost = new Promise<never>((_, reject) => {
      this.loseCurrent = reject;
    });
    lost.catch(() => undefined);
    this.link.next({ remote, lost });
  }

  private async beat(): Promise<void> {
    const transport = this.transport;
    if (!transport || this.link.value === null) return;
    let answer: HeartbeatAnswer | 'timeout';
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      answer = await Promise.race([
        transport.remote.heartbeat(this.tabId),
        new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), ANSWER_TIMEOUT_MS);
        }),
      ]);
    } catch {
      answer = 'timeout';
    } finally {
      clearTimeout(timer);
    }
    if (transport !== this.transport || this.link.value === null) return;
    if (answer === 'timeout') {
      this.options.log('the engine worker stopped answering; reconnecting');
      this.reconnect();
    } else if (answer.reload) {
      this.reloadRequested(null);
    }
  }
}

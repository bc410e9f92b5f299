import type { EngineClock } from '../engine/clock';

/** How often a tab (or a follower's worker) tells its engine it is alive. */
export const HEARTBEAT_INTERVAL_MS = 5_000;
/** A client silent this long is dead, unless it still holds its liveness lock (see ClientRegistry). */
export const SILENT_AFTER_MS = 3 * HEARTBEAT_INTERVAL_MS;
/** A client that hears nothing back from its engine this long reconnects. */
export const ANSWER_TIMEOUT_MS = 2 * HEARTBEAT_INTERVAL_MS;

/** The Web Lock a tab holds for its whole life: released by the browser the moment the tab is gone. */
export const tabLockName = (tabId: string): string => `messenger-tab:${tabId}`;
/** The Web Lock a dedicated engine worker holds for its whole life (leader-election fallback). */
export const workerLockName = (workerId: string): string => `messenger-worker:${workerId}`;

/** A client as the sweep sees it (a ClientServer). */
export interface LiveClient {
  /** When the client last showed it is alive. */
  readonly lastSeen: number;
  /** The Web Lock the client holds while it lives, if it said. */
  readonly livenessLock: string | null;
  readonly isDropped: boolean;
  drop(): void;
}

/** Names of the Web Locks held right now in this origin, or null where the Web Locks API is missing. */
export type HeldLocks = () => Promise<ReadonlySet<string> | null>;

export const webHeldLocks: HeldLocks = async () => {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  if (!locks) return null;
  const snapshot = await locks.query();
  return new Set((snapshot.held ?? []).map((l) => l.name ?? '').filter((n) => n !== ''));
};

/**
 * The heartbeat's other half (design.md §5): a MessagePort has no close event, so every few seconds the
 * engine's side drops clients that went silent. A hidden tab's timers may be throttled to one a minute
 * (Chrome's intensive throttling), so a silent client is only dropped when the Web Lock it holds for its
 * whole life is free, i.e. the tab or worker really is gone; without the Web Locks API silence alone decides.
 */
export class ClientRegistry {
  private readonly hosts = new Set<LiveClient>();
  private timer: unknown = null;
  private sweeping = false;

  constructor(
    private readonly clock: EngineClock,
    private readonly heldLocks: HeldLocks = webHeldLocks,
  ) {}

  add(host: LiveClient): void {
    this.hosts.add(host);
    this.schedule();
  }

  remove(host: LiveClient): void {
    this.hosts.delete(host);
  }

  get size(): number {
    return this.hosts.size;
  }

  /** Drops every silent client whose liveness lock is free. Runs by itself every HEARTBEAT_INTERVAL_MS. */
  async sweep(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      for (const host of [...this.hosts]) if (host.isDropped) this.hosts.delete(host);
      const now = this.clock.now();
      const silent = [...this.hosts].filter((h) => now - h.lastSeen > SILENT_AFTER_MS);
      if (silent.length === 0) return;
      const held = await this.heldLocks().catch(() => null);
      for (const host of silent) {
        if (held && host.livenessLock !== null && held.has(host.livenessLock)) continue;
        this.hosts.delete(host);
        host.drop();
      }
    } finally {
      this.sweeping = false;
    }
  }

  /** Stops the sweeps (tests, and a worker that stops serving). */
  stop(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    if (this.timer !== null) return;
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      void this.sweep().finally(() => {
        if (this.hosts.size > 0) this.schedule();
      });
    }, HEARTBEAT_INTERVAL_MS);
  }
}

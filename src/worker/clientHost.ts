import type { Subscription } from 'rxjs';
import type { EngineBackend } from './backend';
import { type CommandName, isCommandName, isQueryName } from './names';

/** Where a subscription's values go: a Comlink proxy of the tab's observer, or a BroadcastChannel link. */
export interface HostObserver {
  next(value: unknown): void;
  error(error: unknown): void;
  complete(): void;
  /** Lets go of what carries the observer (releases the Comlink proxy); called once, after its last call. */
  release(): void;
}

/**
 * One client of an engine: a tab's port to the SharedWorker, a tab's own dedicated worker, or a follower
 * tab's link to the leader. It keeps what the client has open (subscriptions, tab ids it reported), so
 * that when the client goes away or dies, everything of it is let go at once and the engine forgets its
 * tabs (design.md §5: a MessagePort has no close event; the heartbeat notices instead).
 */
export class ClientHost {
  private readonly subscriptions = new Map<number, { observer: HostObserver; subscription: Subscription | null }>();
  private readonly tabIds = new Set<string>();
  private nextId = 1;
  private dropped = false;
  /** When the client last showed it is alive (a heartbeat or any call). */
  lastSeen: number;
  /** A Web Lock the client holds while it lives: a silent client whose lock is held is alive but throttled. */
  livenessLock: string | null = null;

  constructor(
    private readonly backend: EngineBackend,
    private readonly now: () => number,
    private readonly onDrop: () => void = () => undefined,
  ) {
    this.lastSeen = now();
  }

  get isDropped(): boolean {
    return this.dropped;
  }

  /** Subscribes the observer to a query; returns the unsubscribe. */
  subscribe(query: unknown, args: unknown, observer: HostObserver): () => void {
    if (this.dropped) {
      observer.release();
      return () => undefined;
    }
    if (!isQueryName(query) || !Array.isArray(args)) {
      observer.release();
      throw new TypeError(`unknown engine query: ${String(query)}`);
    }
    this.lastSeen = this.now();
    const id = this.nextId++;
    const entry: { observer: HostObserver; subscription: Subscription | null } = { observer, subscription: null };
    this.subscriptions.set(id, entry);
    const finish = () => {
      if (this.subscriptions.delete(id)) observer.release();
    };
    entry.subscription = this.backend.query(query, args).subscribe({
      next: (value) => observer.next(value),
      error: (error: unknown) => {
        observer.error(error);
        finish();
      },
      complete: () => {
        observer.complete();
        finish();
      },
    });
    return () => {
      const live = this.subscriptions.get(id);
      if (!live) return;
      this.subscriptions.delete(id);
      live.subscription?.unsubscribe();
      observer.release();
    };
  }

  /** Runs a command; remembers which tab ids this client reported, to close them when it goes. */
  invoke(name: unknown, args: unknown): Promise<unknown> {
    if (!isCommandName(name) || !Array.isArray(args)) {
      return Promise.reject(new TypeError(`unknown engine command: ${String(name)}`));
    }
    if (this.dropped) return Promise.reject(new Error('this client was disconnected from the engine'));
    this.lastSeen = this.now();
    this.trackTabs(name, args);
    return this.backend.invoke(name, args);
  }

  /** The client is alive; `lock` names the Web Lock it holds while it lives. */
  beat(lock: string | null): void {
    this.lastSeen = this.now();
    if (lock !== null) this.livenessLock = lock;
  }

  /** The client is gone: its subscriptions end, its tabs are closed in the engine. Idempotent. */
  drop(): void {
    if (this.dropped) return;
    this.dropped = true;
    for (const { observer, subscription } of this.subscriptions.values()) {
      subscription?.unsubscribe();
      observer.release();
    }
    this.subscriptions.clear();
    for (const tabId of this.tabIds) void this.backend.invoke('closeTab', [tabId]).catch(() => undefined);
    this.tabIds.clear();
    this.onDrop();
  }

  /** How many subscriptions are open (diagnostics and tests). */
  get subscriptionCount(): number {
    return this.subscriptions.size;
  }

  private trackTabs(name: CommandName, args: readonly unknown[]): void {
    const tabId = args[0];
    if (typeof tabId !== 'string') return;
    if (name === 'setTabState') this.tabIds.add(tabId);
    else if (name === 'closeTab') this.tabIds.delete(tabId);
  }
}

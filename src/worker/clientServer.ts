import * as Comlink from 'comlink';
import type { Subscription } from 'rxjs';
import type { BuildStamp } from '../engine/api';
import type { EngineByName } from './currentEngine';
import { tabLockName } from './liveness';
import { type CommandName, isCommandName, isEventQuery, isQueryName, type QueryName } from './names';
import type { WireValue } from './streamCodec';
import { frameSchedule, type Schedule, StreamSenders } from './streamSender';

/**
 * A subscription's observer at the client's end, as the worker calls it: a Comlink proxy of a tab's observer
 * (each call is a message on a port of its own, answered once the tab ran it), or a leader link's replies.
 */
export interface ClientObserver {
  /** A value as streamCodec.ts encodes it (the client's StreamDecoder rebuilds it). */
  next(wire: WireValue): void | Promise<void>;
  error(error: unknown): void | Promise<void>;
  complete(): void | Promise<void>;
}

/** The observer as the tab passes it: wrapped with `Comlink.proxy`, so the worker gets a proxy of it. */
export type TabObserver = ClientObserver & Comlink.ProxyMarked;

export interface HeartbeatAnswer {
  /** Another build took the engine, or its storage was upgraded by a newer app: this tab should reload. */
  reload: boolean;
}

/**
 * What the worker end of a tab's port answers (design.md §5, the stream bridge); the tab holds it as
 * `Comlink.Remote<WorkerPortApi>` (tabLink.ts). `subscribe` turns a query into calls on the tab's proxied
 * observer and returns a proxied unsubscribe; `heartbeat` is the tab saying it is alive. `attach` is a tab's
 * first call on a new connection (engineHost.ts): it answers the Web Lock the worker holds for its life,
 * whose release tells the tab at once that the worker died; `reloadRequest` answers when the tab should reload.
 */
export interface WorkerPortApi {
  subscribe(query: QueryName, args: unknown[], observer: TabObserver): (() => void) & Comlink.ProxyMarked;
  invoke(name: CommandName, args: unknown[]): Promise<unknown>;
  heartbeat(tabId: string): HeartbeatAnswer;
  attach(fresh: boolean): Promise<string | null>;
  /** Resolves when the tab should reload, with the build it should land on (null: unknown). */
  reloadRequest(): Promise<BuildStamp | null>;
}

/** What the worker end of a client's link (ClientServer) asks of its worker. */
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

export interface ClientServerOptions {
  /** The engine this worker's clients reach (EngineHost's CurrentEngine: it waits while there is none). */
  engine: EngineByName;
  lifecycle: WorkerLifecycle;
  now: () => number;
  /** When later values of a subscription go out (streamSender.ts); a frame's time by default. */
  schedule?: Schedule;
  /** The client was dropped (gone, silent, or its proxy released). */
  onDrop?: () => void;
}

interface Open {
  observer: ClientObserver;
  sender: ReturnType<StreamSenders['open']>;
  subscription: Subscription | null;
  /** Settles the wait for this subscription's values in flight: a tab that let go is not waited for. */
  ended: () => void;
}

const noop = () => undefined;

/** Calls the client's observer; a call on a released proxy throws or rejects, and neither may reach the engine. */
function safely(call: () => void | Promise<void>): void {
  try {
    void call()?.catch(noop);
  } catch {
    // The proxy was released: the client is gone.
  }
}

/** Lets go of a Comlink proxy of the tab's observer; a leader link's observer has nothing to release. */
function release(observer: ClientObserver): void {
  try {
    (observer as Partial<Comlink.Remote<ClientObserver>>)[Comlink.releaseProxy]?.();
  } catch {
    // Already released.
  }
}

/**
 * The worker end of one client's link, between it and the engine: a tab's port (exposed with Comlink, so it
 * is WorkerPortApi) or a follower's leader link (LeaderLinkServer passes the requests on). It checks each name
 * against the API table's lists (names.ts), calls the engine, keeps what the client has open (subscriptions,
 * the tab ids it reported) and sends each subscription's values encoded and coalesced (streamSender.ts).
 * When the client goes away or dies everything of it is let go at once and the engine forgets its tabs
 * (design.md §5: a MessagePort has no close event; the heartbeat notices instead). Its own state is in
 * #private fields, out of reach of a path Comlink follows.
 */
export class ClientServer implements WorkerPortApi {
  readonly #options: ClientServerOptions;
  readonly #subscriptions = new Map<number, Open>();
  readonly #tabIds = new Set<string>();
  readonly #senders: StreamSenders;
  /** Values sent to a tab and not yet taken by it: a command answers only once they are. */
  readonly #inFlight = new Set<Promise<void>>();
  #nextId = 1;
  #dropped = false;
  /** When the client last showed it is alive (a heartbeat or any call). */
  lastSeen: number;
  /** A Web Lock the client holds while it lives: a silent client whose lock is held is alive but throttled. */
  livenessLock: string | null = null;

  constructor(options: ClientServerOptions) {
    this.#options = options;
    this.#senders = new StreamSenders(options.schedule ?? frameSchedule);
    this.lastSeen = options.now();
  }

  get isDropped(): boolean {
    return this.#dropped;
  }

  /** How many subscriptions are open (diagnostics and tests). */
  get subscriptionCount(): number {
    return this.#subscriptions.size;
  }

  /**
   * Subscribes the client's observer to a query (name and arguments as they crossed: checked here); returns the unsubscribe, as a Comlink proxy whose release
   * (the tab let go of it) unsubscribes too, so nothing outlives its proxy.
   */
  subscribe(query: unknown, args: unknown, observer: ClientObserver): (() => void) & Comlink.ProxyMarked {
    if (this.#dropped) {
      release(observer);
      return unsubscribeProxy(noop);
    }
    if (!isQueryName(query) || !Array.isArray(args)) {
      release(observer);
      throw new TypeError(`unknown engine query: ${String(query)}`);
    }
    this.lastSeen = this.#options.now();
    const id = this.#nextId++;
    // The settlers of this subscription's values in flight: its end settles them all (a tab that let go is
    // not waited for). Not `Promise.race` with a promise of the end: every race left a reaction on it for as
    // long as the subscription lived, one per value sent, so a reader scrolling a long chat grew the worker's
    // heap by every window value it was ever sent (issue 24's 30,000-message scroll).
    const settlers = new Set<() => void>();
    // Values go out encoded and coalesced. Over Comlink each observer has a port of its own, so nothing
    // orders its values against a command's result on the main port: the calls in flight are kept, and a
    // command answers once the tab took them (see #delivered). A leader link posts on one channel at once.
    const sender = this.#senders.open((wire) => {
      const call = observer.next(wire);
      if (!call) return undefined;
      let settle = noop as () => void;
      const tracked = new Promise<void>((resolve) => (settle = resolve));
      const done = () => {
        settlers.delete(done);
        this.#inFlight.delete(tracked);
        settle();
      };
      settlers.add(done);
      this.#inFlight.add(tracked);
      call.then(done, done);
      return call;
    }, isEventQuery(query));
    const ended = () => {
      for (const done of [...settlers]) done();
    };
    const open: Open = { observer, sender, subscription: null, ended };
    this.#subscriptions.set(id, open);
    open.subscription = this.#options.engine.query(query, args).subscribe({
      next: (value) => {
        try {
          sender.next(value);
        } catch {
          // The proxy was released: the tab is gone.
        }
      },
      error: (error: unknown) => {
        sender.before();
        safely(() => observer.error(error));
        this.#close(id, false);
      },
      complete: () => {
        sender.before();
        safely(() => observer.complete());
        this.#close(id, false);
      },
    });
    return unsubscribeProxy(() => this.#close(id, true));
  }

  /** Runs a command; remembers which tab ids this client reported, to close them when it goes. */
  invoke(name: unknown, args: unknown): Promise<unknown> {
    let answer: Promise<unknown>;
    if (!isCommandName(name) || !Array.isArray(args)) {
      answer = Promise.reject(new TypeError(`unknown engine command: ${String(name)}`));
    } else if (this.#dropped) {
      answer = Promise.reject(new Error('this client was disconnected from the engine'));
    } else {
      this.lastSeen = this.#options.now();
      this.#trackTabs(name, args);
      answer = this.#options.engine.invoke(name, args);
    }
    // Values still pending go first: a client that awaited a command sees the state the command left.
    return answer.then(
      async (value) => {
        await this.#delivered();
        return value;
      },
      async (error: unknown) => {
        await this.#delivered();
        throw error;
      },
    );
  }

  heartbeat(tabId: string): HeartbeatAnswer {
    this.beat(typeof tabId === 'string' && tabId !== '' ? tabLockName(tabId) : null);
    return { reload: this.#options.lifecycle.reloadRequested };
  }

  attach(fresh: boolean): Promise<string | null> {
    return this.#options.lifecycle.attach(fresh === true);
  }

  reloadRequest(): Promise<BuildStamp | null> {
    return this.#options.lifecycle.whenReloadRequested();
  }

  /** The client is alive; `lock` names the Web Lock it holds while it lives. */
  beat(lock: string | null): void {
    this.lastSeen = this.#options.now();
    if (lock !== null) this.livenessLock = lock;
  }

  /** The client is gone: its subscriptions end, its tabs are closed in the engine. Idempotent. */
  drop(): void {
    if (this.#dropped) return;
    this.#dropped = true;
    for (const id of [...this.#subscriptions.keys()]) this.#close(id, true);
    const { engine, onDrop } = this.#options;
    for (const tabId of this.#tabIds) void engine.invoke('closeTab', [tabId]).catch(noop);
    this.#tabIds.clear();
    onDrop?.();
  }

  /** The tab released its proxy of this object (its `pagehide`): the client is gone. */
  [Comlink.finalizer](): void {
    this.drop();
  }

  /** Ends a subscription once: unsubscribed from the engine (unless the engine ended it), its observer let go. */
  #close(id: number, unsubscribe: boolean): void {
    const open = this.#subscriptions.get(id);
    if (!open) return;
    this.#subscriptions.delete(id);
    if (unsubscribe) open.subscription?.unsubscribe();
    open.sender.close();
    open.ended();
    release(open.observer);
  }

  async #delivered(): Promise<void> {
    this.#senders.flush();
    while (this.#inFlight.size > 0) await Promise.all([...this.#inFlight]);
  }

  #trackTabs(name: CommandName, args: readonly unknown[]): void {
    const tabId = args[0];
    if (typeof tabId !== 'string') return;
    if (name === 'setTabState') this.#tabIds.add(tabId);
    else if (name === 'closeTab') this.#tabIds.delete(tabId);
  }
}

function unsubscribeProxy(unsubscribe: () => void): (() => void) & Comlink.ProxyMarked {
  return Comlink.proxy(Object.assign(() => unsubscribe(), { [Comlink.finalizer]: unsubscribe }));
}

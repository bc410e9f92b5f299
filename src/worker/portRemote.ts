import * as Comlink from 'comlink';
import type { BuildStamp } from '../engine/api';
import type { ClientHost } from './clientHost';
import type { WorkerLifecycle } from './engineHost';
import { tabLockName } from './liveness';
import { type CommandName, isEventQuery, isQueryName, type QueryName } from './names';
import { StreamSenders } from './streamSender';

/** The tab's observer as the worker calls it (through a Comlink proxy). */
export interface BridgeObserver {
  /** A value as streamCodec.ts encodes it (the tab's StreamDecoder rebuilds it). */
  next(value: unknown): void;
  error(error: unknown): void;
  complete(): void;
}

const noop = () => undefined;

/** The observer as the tab passes it: wrapped with `Comlink.proxy`, so the worker gets a proxy of it. */
export type TabObserver = BridgeObserver & Comlink.ProxyMarked;

export interface HeartbeatAnswer {
  /** Another build took the engine, or its storage was upgraded by a newer app: this tab should reload. */
  reload: boolean;
}

/**
 * What a worker exposes with Comlink on each tab's port (design.md §5, the stream bridge): `subscribe`
 * turns a query into calls on the tab's proxied observer and returns a proxied unsubscribe; commands
 * pass straight through `invoke`; `heartbeat` is the tab saying it is alive. `attach` is a tab's first call
 * on a new connection (engineHost.ts): it answers the Web Lock the worker holds for its life, whose
 * release tells the tab at once that the worker died; `reloadRequest` answers when the tab should reload.
 */
export interface EngineRemote {
  subscribe(query: QueryName, args: unknown[], observer: TabObserver): (() => void) & Comlink.ProxyMarked;
  invoke(name: CommandName, args: unknown[]): Promise<unknown>;
  heartbeat(tabId: string): HeartbeatAnswer;
  attach(fresh: boolean): Promise<string | null>;
  /** Resolves when the tab should reload, with the build it should land on (null: unknown). */
  reloadRequest(): Promise<BuildStamp | null>;
}

/**
 * The object exposed on one port. Releasing its proxy (the tab's `pagehide`) runs the Comlink finalizer,
 * which drops the client; releasing an unsubscribe proxy unsubscribes too, so nothing outlives its proxy.
 */
export function createPortRemote(host: ClientHost, lifecycle: WorkerLifecycle): EngineRemote {
  // Values go out encoded and coalesced (streamSender.ts). Each observer is a Comlink proxy with a port
  // of its own, so nothing orders its values against a command's result on the main port: a command
  // answers only once the tab has taken every value sent before (each call on the proxy is answered
  // after the tab's observer ran). A tab that awaited a command sees the state the command left.
  const senders = new StreamSenders();
  const inFlight = new Set<Promise<void>>();
  const delivered = async () => {
    senders.flush();
    while (inFlight.size > 0) await Promise.all([...inFlight]);
  };
  const settled = <T>(promise: Promise<T>): Promise<T> =>
    promise.then(
      async (value) => {
        await delivered();
        return value;
      },
      async (error: unknown) => {
        await delivered();
        throw error;
      },
    );
  const remote = {
    subscribe(query: QueryName, args: unknown[], observer: TabObserver) {
      // What arrives is a Comlink proxy of the tab's observer: every call on it is a message to the tab.
      const tab = observer as unknown as Comlink.Remote<BridgeObserver>;
      // A call on a proxy whose port is gone throws or never answers; neither may reach the engine.
      const safely = (send: () => Promise<void>) => {
        try {
          void send().catch(() => undefined);
        } catch {
          // The proxy was released: the tab is gone.
        }
      };
      // Settles when the subscription ends: a value in flight to a tab that let go is not waited for.
      let ended = () => undefined as void;
      const end = new Promise<void>((resolve) => (ended = resolve));
      const sender = senders.open((wire) => {
        const call = tab.next(wire);
        const tracked = Promise.race([call.then(noop, noop), end]);
        inFlight.add(tracked);
        void tracked.then(() => inFlight.delete(tracked));
        return call;
      }, isQueryName(query) && isEventQuery(query));
      const unsubscribe = host.subscribe(query, args, {
        next: (value) => {
          try {
            sender.next(value);
          } catch {
            // The proxy was released: the tab is gone.
          }
        },
        error: (error) => {
          sender.before();
          safely(() => tab.error(error));
        },
        complete: () => {
          sender.before();
          safely(() => tab.complete());
        },
        release: () => {
          sender.close();
          ended();
          try {
            tab[Comlink.releaseProxy]();
          } catch {
            // Already released.
          }
        },
      });
      return Comlink.proxy(Object.assign(() => unsubscribe(), { [Comlink.finalizer]: unsubscribe }));
    },
    invoke(name: CommandName, args: unknown[]) {
      return settled(host.invoke(name, args));
    },
    heartbeat(tabId: string): HeartbeatAnswer {
      host.beat(typeof tabId === 'string' && tabId !== '' ? tabLockName(tabId) : null);
      return { reload: lifecycle.reloadRequested };
    },
    attach(fresh: boolean) {
      return lifecycle.attach(fresh === true);
    },
    reloadRequest() {
      return lifecycle.whenReloadRequested();
    },
    [Comlink.finalizer]: () => host.drop(),
  };
  return remote;
}

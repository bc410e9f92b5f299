import * as Comlink from 'comlink';
import type { ClientHost } from './clientHost';
import { tabLockName } from './liveness';
import type { CommandName, QueryName } from './names';

/** The tab's observer as the worker calls it (through a Comlink proxy). */
export interface BridgeObserver {
  next(value: unknown): void;
  error(error: unknown): void;
  complete(): void;
}

/** The observer as the tab passes it: wrapped with `Comlink.proxy`, so the worker gets a proxy of it. */
export type TabObserver = BridgeObserver & Comlink.ProxyMarked;

export interface HeartbeatAnswer {
  /** The engine's database was upgraded by a newer version of the app: this tab should reload. */
  reload: boolean;
}

/**
 * What a worker exposes with Comlink on each tab's port (design.md §5, the stream bridge): `subscribe`
 * turns a query into calls on the tab's proxied observer and returns a proxied unsubscribe; commands
 * pass straight through `invoke`; `heartbeat` is the tab saying it is alive.
 */
export interface EngineRemote {
  subscribe(query: QueryName, args: unknown[], observer: TabObserver): (() => void) & Comlink.ProxyMarked;
  invoke(name: CommandName, args: unknown[]): Promise<unknown>;
  heartbeat(tabId: string): HeartbeatAnswer;
}

/**
 * The object exposed on one port. Releasing its proxy (the tab's `pagehide`) runs the Comlink finalizer,
 * which drops the client; releasing an unsubscribe proxy unsubscribes too, so nothing outlives its proxy.
 */
export function createPortRemote(host: ClientHost, reloadRequested: () => boolean): EngineRemote {
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
      const unsubscribe = host.subscribe(query, args, {
        next: (value) => safely(() => tab.next(value)),
        error: (error) => safely(() => tab.error(error)),
        complete: () => safely(() => tab.complete()),
        release: () => {
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
      return host.invoke(name, args);
    },
    heartbeat(tabId: string): HeartbeatAnswer {
      host.beat(typeof tabId === 'string' && tabId !== '' ? tabLockName(tabId) : null);
      return { reload: reloadRequested() };
    },
    [Comlink.finalizer]: () => host.drop(),
  };
  return remote;
}

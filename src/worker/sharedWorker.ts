/**
 * The SharedWorker entry (design.md §1, §5): one engine for every tab of the browser profile, exposed with
 * Comlink on each tab's port: a ClientServer per port. Built by Vite from `new SharedWorker(new URL(...))` in earlyWorker.ts. Its
 * EngineHost runs the engine while it holds the lease, and stands aside for a page of a newer deploy.
 */
import * as Comlink from 'comlink';
import { realClock } from '../engine/clock';
import { ClientServer } from './clientServer';
import { ClientRegistry } from './liveness';
import { browserEngineHost } from './startEngine';

interface ConnectEvent extends Event {
  readonly ports: readonly MessagePort[];
}

const registry = new ClientRegistry(realClock);
const host = browserEngineHost(() => registry.size);

globalThis.addEventListener('connect', (event) => {
  const port = (event as ConnectEvent).ports[0];
  if (!port) return;
  const client: ClientServer = new ClientServer({
    engine: host.backend,
    lifecycle: host,
    now: () => realClock.now(),
    onDrop: () => {
      registry.remove(client);
      // The tab's later calls go nowhere; its heartbeat times out and it connects again if it is alive.
      port.close();
    },
  });
  registry.add(client);
  Comlink.expose(client, port);
});

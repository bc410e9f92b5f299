/**
 * The SharedWorker entry (design.md §1, §5): one engine for every tab of the browser profile, exposed with
 * Comlink on each tab's port. Built by Vite from `new SharedWorker(new URL(...))` in tabLink.ts.
 */
import * as Comlink from 'comlink';
import { realClock } from '../engine/clock';
import { engineBackend } from './backend';
import { ClientHost } from './clientHost';
import { ClientRegistry } from './liveness';
import { createPortRemote } from './portRemote';
import { startEngine } from './startEngine';
import { SwitchingBackend } from './switchingBackend';

interface ConnectEvent extends Event {
  readonly ports: readonly MessagePort[];
}

let reloadRequested = false;
// Tabs may connect before the engine has read its store: their calls wait for it.
const backend = new SwitchingBackend();
const registry = new ClientRegistry(realClock);

void startEngine(() => {
  reloadRequested = true;
}).then((engine) => backend.use(engineBackend(engine)));

globalThis.addEventListener('connect', (event) => {
  const port = (event as ConnectEvent).ports[0];
  if (!port) return;
  const host = new ClientHost(backend, () => realClock.now(), () => {
    registry.remove(host);
    // The tab's later calls go nowhere; its heartbeat times out and it connects again if it is alive.
    port.close();
  });
  registry.add(host);
  Comlink.expose(
    createPortRemote(host, () => reloadRequested),
    port,
  );
});

/**
 * The fallback where SharedWorker does not exist (Chrome on Android before 148, some webviews): every tab
 * starts this dedicated worker, and the workers elect a leader with the Web Locks API (engineHost.ts, the
 * same election as the SharedWorker's). Only the leader starts an engine (so there is one socket); the
 * others forward their tab's calls to it over a BroadcastChannel link. When the leader's worker dies its
 * locks are freed, the next worker in line starts its engine from the shared IndexedDB and announces
 * itself, and the followers switch to it.
 *
 * The tab sees the same Comlink interface as with the SharedWorker (WorkerPortApi, clientServer.ts).
 */
import * as Comlink from 'comlink';
import { realClock } from '../engine/clock';
import { ClientServer } from './clientServer';
import { browserEngineHost } from './startEngine';

// This worker's one client is the tab that started it; when the tab goes, so does the worker. In bench builds
// a worker opened for `?bench=engine-per-tab` (tabLink.ts) runs its own engine without an election.
const ownEngine = Boolean(import.meta.env.VITE_BENCH) && (globalThis as { name?: string }).name === 'messenger-engine-own';
const host = browserEngineHost(() => 1, { elect: !ownEngine });
const tab = new ClientServer({ engine: host.backend, lifecycle: host, now: () => realClock.now() });
Comlink.expose(tab, globalThis as unknown as Comlink.Endpoint);

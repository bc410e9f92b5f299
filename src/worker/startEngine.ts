import { realClock } from '../engine/clock';
import { Engine } from '../engine/engine';
import { IdbStorage } from '../engine/storage/idbStorage';
import { ReopeningStorage } from '../engine/storage/reopeningStorage';
import { type EngineStorage, MemoryStorage } from '../engine/storage/storage';
import type { SessionView } from '../engine/api';
import { activate, BUILD_REPORTING, holdEarlyErrors, reportError, reportingEnabled, reportSession } from '../reporting/reporter';
import { BUILD } from './build';
import { openBroadcastChannel } from './channel';
import { EngineHost } from './engineHost';
import { LEADER_CHANNEL, randomId } from './linkProtocol';
import { webLocks } from './locks';
import { rateLimitedLog } from './rateLimitedLog';

/** How the worker's engine gets its store and is made; tests replace them. */
export interface EngineStartDeps {
  /**
   * Opens the store; `onVersionChange` runs when the store closed itself for a newer version's upgrade,
   * `onLost` when the browser deleted it under the engine (Clear site data).
   */
  openStorage: (onVersionChange: () => void, onLost?: () => void) => Promise<EngineStorage>;
  createEngine: (storage: EngineStorage) => Engine;
  log: (message: string, detail?: unknown) => void;
}

/** The worker's console: each message a few times a minute at most (docs/ui.md, "Site data cleared"). */
const warn = rateLimitedLog((message, ...detail) => console.warn(message, ...detail), realClock);

const browserDeps: EngineStartDeps = {
  async openStorage(onVersionChange, onLost) {
    try {
      return await IdbStorage.open({ onVersionChange, ...(onLost ? { onLost } : {}) });
    } catch (error) {
      // Private modes of some browsers refuse IndexedDB: the app still works, it just forgets on close.
      console.warn('IndexedDB is unavailable; the engine keeps its data in memory only', error);
      return new MemoryStorage();
    }
  },
  createEngine: (storage) => new Engine({ storage, apiBase: globalThis.location.origin, log: (message, detail) => warn(message, detail ?? '') }),
  log: (message, detail) => {
    warn(message, detail ?? '');
    // An error the engine caught and logged is still a bug worth knowing about.
    if (detail instanceof Error) reportError(detail);
  },
};

/**
 * Creates and starts this worker's engine: IndexedDB storage and the page's origin as the API. Only the
 * worker that owns the socket calls this (the SharedWorker, or the leader in the fallback).
 *
 * `onVersionChange`: a newer version of the app upgraded the database; this engine's connection closed
 * itself so the upgrade is not blocked, and the tabs should reload into the new version. The engine is
 * stopped first: with nothing saved any more, a socket, outbox or receipts still running would act on
 * events and sends that the reloaded tabs never see (a receipt sent but not recorded, an event id lost).
 */
export async function startEngine(onVersionChange: () => void, deps: Partial<EngineStartDeps> = {}): Promise<Engine> {
  const { openStorage, createEngine, log } = { ...browserDeps, ...deps };
  let engine: Engine | null = null;
  let closed = false;
  const stop = (running: Engine) => running.stop().catch((error: unknown) => log('stopping the engine failed', error));
  const versionChanged = () => {
    if (closed) return;
    closed = true;
    if (engine) void stop(engine);
    onVersionChange();
  };
  // A database deleted under the engine is replaced by an empty one, and the session ends with it.
  const storage = await ReopeningStorage.open((onLost) => openStorage(versionChanged, onLost));
  const created = (engine = createEngine(storage));
  storage.whenReplaced(() => {
    created.storeCleared().catch((error: unknown) => log('ending the session of the cleared store failed', error));
  });
  // Whatever failed to load is fetched again from the server; the tabs still get a working engine.
  const unclean = (error: unknown) => log('the engine did not start cleanly', error);
  try {
    // The tabs are served once the session is known; the signed-in parts load behind it (issue 11).
    await created.open();
    void created.whenStarted().catch(unclean);
  } catch (error) {
    unclean(error);
  }
  // Closed while opening: stopped again, for whatever it started after the stop above.
  if (closed) await stop(created);
  return created;
}

/**
 * This worker's EngineHost in the browser (the SharedWorker, or a tab's dedicated worker): Web Locks, the
 * leader channel, this build, and startEngine. `localClients` counts the tabs it serves itself. `elect:
 * false` (the tabs benchmark's baseline only) runs an engine without the lease, as where Web Locks are missing.
 */
export function browserEngineHost(localClients: () => number, options: { elect?: boolean } = {}): EngineHost {
  const host = new EngineHost({
    workerId: randomId(),
    build: BUILD,
    locks: options.elect === false ? null : webLocks(),
    leaderChannel: openBroadcastChannel(LEADER_CHANNEL),
    openChannel: openBroadcastChannel,
    clock: realClock,
    startEngine: (onVersionChange) => startEngine(onVersionChange),
    localClients,
    log: browserDeps.log,
  });
  startEngineReporting(host);
  setTimeout(buildIntlTables, 0);
  return host;
}

/**
 * Builds V8's tables of ICU's locales, which the first Intl formatter of a process builds (some 40 ms on a
 * slow machine, in one piece) and every later one reuses. This worker runs in the process of the tab that
 * started it, and that tab's chats list formats its times with Intl.DateTimeFormat: built here, on the
 * worker's thread while its engine waits for its lock and store, they cost the tab's main thread nothing.
 */
function buildIntlTables(): void {
  try {
    new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' }).format(0);
  } catch {
    // Only ever a head start.
  }
}

/**
 * Error reporting in this engine worker (issue 9): its unhandled errors and rejections (the SDK catches
 * them once loaded; until then they are held), tagged with the engine's session. Off without a DSN.
 */
export function startEngineReporting(host: EngineHost): void {
  if (!reportingEnabled(BUILD_REPORTING)) return;
  const stopHolding = holdEarlyErrors(globalThis);
  host.backend.query('session', []).subscribe((value) => {
    const session = value as SessionView;
    reportSession(session.status === 'unauthenticated' ? null : { userId: session.userId, countryCode: session.countryCode });
  });
  void import('../reporting/sentryEngine').then(({ startEngineSentry }) => {
    activate(startEngineSentry(BUILD_REPORTING));
    stopHolding();
  });
}

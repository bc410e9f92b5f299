/**
 * The engine's SharedWorker, started by the page's first module (src/boot.ts, first in index.html) before
 * the app's own code runs: the worker then opens its store while the page starts React and its screens,
 * instead of after (issue 11, cold start). The app's first connection takes it (tabLink.ts); later
 * connections make new ones. Its name and URL are the app's own, so it is the same worker either way.
 */
const KEY = '__messengerEarlyEngineWorker';

type WithEarly = typeof globalThis & { [KEY]?: SharedWorker };

/** The engine's SharedWorker with a new port (the one every tab of the profile shares). */
export function newEngineSharedWorker(): SharedWorker {
  return new SharedWorker(new URL('./sharedWorker.ts', import.meta.url), { type: 'module', name: 'messenger-engine' });
}

/**
 * A tab of the tabs benchmark's baseline (bench builds only, `?bench=engine-per-tab`): it runs an engine of
 * its own in a dedicated worker instead of the SharedWorker.
 */
export const ownEngineTab = (): boolean =>
  Boolean(import.meta.env.VITE_BENCH) && new URLSearchParams(location.search).get('bench') === 'engine-per-tab';

/** Starts the worker now, where the app will use one (not in the fallback nor the benchmark's own-engine tabs). */
export function startEngineWorkerEarly(): void {
  const g = globalThis as WithEarly;
  if (typeof g.SharedWorker !== 'function' || ownEngineTab()) return;
  try {
    g[KEY] = newEngineSharedWorker();
  } catch {
    // The app makes its own.
  }
}

/** The worker started early, once: the first connection's. */
export function takeEarlyEngineWorker(): SharedWorker | null {
  const g = globalThis as WithEarly;
  const worker = g[KEY] ?? null;
  delete g[KEY];
  return worker;
}

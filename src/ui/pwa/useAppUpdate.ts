import { useEffect, useState } from 'react';
import { combineLatest } from 'rxjs';
import { useEngine } from '../hooks/EngineContext';
import { saveThenReload } from '../hooks/saveBeforeReload';
import { watchForNewBuild } from './newBuild';
import { registerAppServiceWorker } from './serviceWorker';
import { hasUnsentInput } from './unsentInput';

/** How often an open tab asks the server for a new service worker, besides each return of the connection. */
const UPDATE_CHECK_MS = 30 * 60_000;

/**
 * The service worker and the app's updates (issue 13; docs/ui.md "Offline and installation"): registers
 * the worker, checks for a new one whenever the engine's connection comes back (a deploy restarts the
 * server) and every half hour, and when one of another build has taken over, reloads the tab by itself if
 * no tab has unsent input, else returns true so the main screen offers "A new version is available —
 * Reload" (with the new build's id). A reload (noted with `noteReloadInto`, so a page of the old build that
 * still loads, in a rolling deploy, does not take the engine back) loads the new build, whose engine takes over and asks every
 * other tab of the old build to reload too (src/worker/README.md): the two update mechanisms end in one.
 */
export function useAppUpdate(): string | null {
  const engine = useEngine();
  const [available, setAvailable] = useState<string | null>(null);

  useEffect(() => {
    // `npm run dev` and the browser tests serve no service worker (vite-plugin-pwa writes it at build time).
    if (import.meta.env.DEV === true) return;
    let registration: ServiceWorkerRegistration | null = null;
    let stopWatching = () => {};
    let gone = false;
    const update = () => void registration?.update().catch(() => undefined);
    void registerAppServiceWorker().then((r) => {
      if (gone || !r) return;
      registration = r;
      stopWatching = watchForNewBuild(r, engine.build.id, setAvailable);
    });
    let wasOnline: boolean | null = null;
    const connection = engine.connection().subscribe((state) => {
      const online = state === 'online';
      if (online && wasOnline === false) update();
      wasOnline = online;
    });
    const timer = setInterval(update, UPDATE_CHECK_MS);
    return () => {
      gone = true;
      stopWatching();
      connection.unsubscribe();
      clearInterval(timer);
    };
  }, [engine]);

  useEffect(() => {
    if (available === null) return;
    let reloading = false;
    const input = combineLatest({ outbox: engine.outbox(), drafts: engine.drafts(), formDrafts: engine.formDrafts() });
    const subscription = input.subscribe((unsent) => {
      if (reloading || hasUnsentInput(unsent)) return;
      reloading = true;
      // A tab that reloaded into the new build this often within a minute and still got the old one (a
      // rolling deploy) waits for the reader's Reload instead.
      if (engine.noteReloadInto(available)) void saveThenReload();
    });
    return () => subscription.unsubscribe();
  }, [engine, available]);

  return available;
}


import { precachedShellBuilds } from './shellBuild';

/**
 * Calls `onNewBuild` with the new build's id when the service worker updates, while this tab is open, to a shell of another build
 * than the tab's (a deploy, or a rollback). Its update installs and activates at once (`autoUpdate`:
 * skipWaiting, clientsClaim), and only a change seen here counts: at start-up the worker may still hold the
 * build before the one this page got from the network, and the page must not reload for that.
 */
export function watchForNewBuild(
  registration: ServiceWorkerRegistration,
  build: string,
  onNewBuild: (into: string) => void,
  readShells: () => Promise<string[]> = precachedShellBuilds,
): () => void {
  let stopped = false;
  const check = () => {
    void readShells().then(
      (builds) => {
        const into = builds.find((b) => b !== build);
        if (!stopped && into !== undefined) onNewBuild(into);
      },
      (error: unknown) => console.warn('could not read the precached app shell', error),
    );
  };
  const onUpdateFound = () => {
    const installing = registration.installing;
    if (!installing) return;
    installing.addEventListener('statechange', () => {
      if (installing.state === 'activated') check();
    });
  };
  registration.addEventListener('updatefound', onUpdateFound);
  return () => {
    stopped = true;
    registration.removeEventListener('updatefound', onUpdateFound);
  };
}

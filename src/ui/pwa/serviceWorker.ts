/**
 * Registers the app's service worker (vite-plugin-pwa's Workbox `sw.js`, issue 13) once the page has
 * loaded, so its precaching never competes with the first paint. Plain `navigator.serviceWorker`, not
 * workbox-window: the main screen registers it, and no byte of it weighs on /login. Null where the browser
 * has no service workers (or refuses them: a private window, a blocked profile).
 */
export async function registerAppServiceWorker(win: Window = window): Promise<ServiceWorkerRegistration | null> {
  const container = win.navigator.serviceWorker as ServiceWorkerContainer | undefined;
  if (!container) return null;
  if (win.document.readyState !== 'complete') {
    await new Promise<void>((resolve) => win.addEventListener('load', () => resolve(), { once: true }));
  }
  try {
    return await container.register('/sw.js', { scope: '/' });
  } catch (error) {
    console.warn('the service worker could not be registered; the app will not open offline', error);
    return null;
  }
}

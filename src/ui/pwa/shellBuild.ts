/** The build an app shell (index.html) names: vite.config.ts puts it in `<meta name="messenger-build">`. */
export function buildOfShell(html: string): string | null {
  return /<meta\s+name="messenger-build"\s+content="([^"]*)"/.exec(html)?.[1] ?? null;
}

/**
 * The builds of the app shells the service worker precached (Workbox keeps `/index.html?__WB_REVISION__=…`
 * in its `workbox-precache-…` cache): one, once the latest service worker has activated.
 */
export async function precachedShellBuilds(storage: CacheStorage = caches): Promise<string[]> {
  const builds: string[] = [];
  for (const name of await storage.keys()) {
    if (!name.startsWith('workbox-precache')) continue;
    const cache = await storage.open(name);
    for (const request of await cache.keys()) {
      if (new URL(request.url).pathname !== '/index.html') continue;
      const response = await cache.match(request);
      const build = response ? buildOfShell(await response.text()) : null;
      if (build !== null) builds.push(build);
    }
  }
  return builds;
}

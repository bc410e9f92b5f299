import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { connectSrcPlugin } from './scripts/vite-connect-src.ts';
import { precompress } from './scripts/precompress.ts';
import { engineReferencePlugin } from './scripts/vite-engine-reference.ts';

/** Where `npm run dev` finds the API server it proxies to (scripts/dev.ts starts one). */
const apiTarget = process.env.API_TARGET ?? 'http://localhost:8080';

/**
 * This build's stamp (src/worker/build.ts): engines of different builds never run side by side (issue 14).
 * MESSENGER_BUILD_ID and MESSENGER_BUILD_TIME (ms) set it by hand, for tests that deploy two builds.
 */
const buildTime = Number(process.env.MESSENGER_BUILD_TIME ?? Date.now());
const build = { id: process.env.MESSENGER_BUILD_ID ?? buildTime.toString(36), time: buildTime };

/** React, the router, i18next and Comlink (not RxJS, whose operators most screens load only with their chunks). */
const VENDOR =
  /node_modules[\\/](react|react-dom|scheduler|@tanstack[\\/](react-router|router-core|history|store|react-store)|i18next|react-i18next|use-sync-external-store|comlink)[\\/]/;

/**
 * V8's explicit compile hint (`//# allFunctionsCalledOnLoad` as a script's first line; Chrome 136 and later,
 * a comment elsewhere) on the chunks every start runs most of: the libraries, the entry and the main screen.
 * V8 then compiles all their functions while it streams them, off the page's thread, and keeps them in the
 * script's code cache. Without it each function is compiled on the page's thread when first called, which
 * was about a quarter of a signed-in start's main-thread time (measured with the Lighthouse benchmark's
 * /inbox). The source map gains the empty first line.
 */
const HINTED_CHUNKS = new Set(['vendor', 'index', 'main']);
const compileHints = (): Plugin => ({
  name: 'messenger-compile-hints',
  apply: 'build',
  enforce: 'post',
  // After Vite's own, which put the preload helper's list of files first in the chunks that import others.
  generateBundle: {
    order: 'post',
    handler(_options, bundle) {
      for (const file of Object.values(bundle)) {
        if (file.type !== 'chunk' || !HINTED_CHUNKS.has(file.name)) continue;
        file.code = `//# allFunctionsCalledOnLoad\n${file.code}`;
        const map = bundle[`${file.fileName}.map`];
        if (map?.type === 'asset' && typeof map.source === 'string') {
          const json = JSON.parse(map.source) as { mappings: string };
          json.mappings = `;${json.mappings}`;
          map.source = JSON.stringify(json);
        } else if (file.map) {
          file.map.mappings = `;${file.map.mappings}`;
        }
      }
    },
  },
});

/** The app's theme colour (src/ui/styles.css `--accent`): the installed app's title bar and splash screen. */
const THEME = '#0b6e4f';

/**
 * The app shell names its build (`<meta name="messenger-build">`) and the theme colour: a tab compares the
 * shell its service worker precached with its own build (src/ui/pwa/shellBuild.ts).
 */
const shellMeta = (): Plugin => ({
  name: 'messenger-shell-meta',
  transformIndexHtml: () => [
    { tag: 'meta', attrs: { name: 'messenger-build', content: build.id }, injectTo: 'head' },
    { tag: 'meta', attrs: { name: 'theme-color', content: THEME }, injectTo: 'head' },
  ],
});

/**
 * The offline shell and installation (issue 13, docs/ui.md "Offline and installation"): Workbox precaches
 * the built app; navigations go to the network first, so a deploy's new page still loads at once and
 * takes the engine (the build of the page loaded last, src/worker/README.md), and fall back to the
 * precached shell when the server cannot be reached. The API, websocket and /files/ never touch a cache.
 * Registered by the main screen (src/ui/pwa/), never by /login's eager code.
 */
const pwa = VitePWA({
  registerType: 'autoUpdate',
  injectRegister: false,
  // The icons are precached with the rest of the build (globPatterns), once.
  includeManifestIcons: false,
  manifest: {
    name: 'Messenger',
    short_name: 'Messenger',
    description: 'Chats, groups and communities, signed in to with your phone number.',
    lang: 'en',
    start_url: '/inbox',
    scope: '/',
    display: 'standalone',
    theme_color: THEME,
    background_color: '#ffffff',
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
      { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  workbox: {
    // Hashed scripts and styles (both languages' texts, the engine worker's chunks), the shell, the icons;
    // not the source maps nor Vite's manifest.
    globPatterns: ['**/*.{js,css,html,png,svg,webmanifest}'],
    // The worker's Sentry chunk and the largest screens sit well under it; a bigger file is a mistake to see.
    maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
    cleanupOutdatedCaches: true,
    // A new build's worker takes over at once, in every tab: the tabs then move to that build together
    // (src/ui/pwa/useAppUpdate.ts), and an offline reload opens the build the server served last.
    skipWaiting: true,
    clientsClaim: true,
    // `/` too goes to the network first (not to the precached index.html).
    directoryIndex: null,
    navigateFallback: null,
    runtimeCaching: [
      {
        // Paths the server owns (API, files, websocket, CSP reports) never get the shell. The function is
        // copied into the service worker as source, so it refers to nothing outside itself.
        urlPattern: ({ request, url }) =>
          request.mode === 'navigate' && !/^\/(?:v1|v2|files|ws|csp-report)(?:\/|$)/.test(url.pathname),
        handler: 'NetworkOnly',
        options: { precacheFallback: { fallbackURL: '/index.html' } },
      },
    ],
  },
});

export default defineConfig({
  // connect-src.json: the origins the build calls (DSN, QA preset), for the server's CSP (issue 20).
  // precompress: .br and .gz beside every text file, once the build (service worker included) is written.
  plugins: [react(), shellMeta(), compileHints(), pwa, connectSrcPlugin(), engineReferencePlugin(), precompress()],
  define: { __MESSENGER_BUILD__: JSON.stringify(build) },
  // RxJS's ES2015 build (classes, no tslib helpers) rather than its ES5 one: smaller in the tab and the worker.
  resolve: { conditions: [...defaultClientConditions, 'es2015'] },
  build: {
    outDir: 'dist',
    sourcemap: true,
    // `.vite/manifest.json`: which chunk each screen loads, for the size report (scripts/build-report.ts).
    manifest: true,
    // Every browser the app supports preloads modules itself (issue 11: the polyfill is weight on /login).
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // The libraries every screen needs from the first paint, in one chunk: gzip does better on one file
        // than on the four the splitting made of them (issue 11). A language's texts are chunks of their own
        // by their modules (src/ui/localeGroups/).
        codeSplitting: { groups: [{ name: 'vendor', test: VENDOR }] },
      },
    },
  },
  // ES workers can split: the engine worker loads its error reporting SDK as a chunk of its own, after start-up.
  worker: { format: 'es' },
  server: {
    proxy: {
      '/v1': apiTarget,
      '/v2': apiTarget,
      '/files': apiTarget,
      '/ws': { target: apiTarget.replace(/^http/, 'ws'), ws: true },
    },
  },
});

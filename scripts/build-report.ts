/**
 * The gzipped JavaScript each route of a client build loads (issue 11), printed after `vite build` by
 * `npm run build` and by `npm start` when it builds: `tsx scripts/build-report.ts [dist]`.
 *
 * A route loads the entry chunk, its screens' chunks (src/ui/routing/chunks/), one language's texts and, for
 * all of them, the engine's SharedWorker; each with the chunks it imports statically, read from Vite's
 * `.vite/manifest.json` (the worker's, which the manifest does not follow, from its own import statements).
 * What loads later on demand (another screen, the other language, the Sentry SDK) is not counted.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

/** One chunk of Vite's build manifest (the fields this report reads). */
export interface ManifestChunk {
  file: string;
  name?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  /** Emitted files the chunk refers to: the entry's worker scripts among them. */
  assets?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

export type TextGroupName = 'login' | 'app';

/** A route (or a view of one) and what it loads beyond the entry. */
export interface RouteLoad {
  route: string;
  /** Modules of src/ui/routing/chunks/, by name. */
  chunks: string[];
  /** The groups of texts it needs (src/ui/textGroups.ts). */
  texts: TextGroupName[];
}

export const ROUTES: RouteLoad[] = [
  { route: '/login', chunks: ['login'], texts: ['login'] },
  { route: '/satir', chunks: ['satir'], texts: ['login'] },
  { route: '/debug', chunks: ['debug'], texts: ['login', 'app'] },
  { route: '/inbox', chunks: ['main'], texts: ['login', 'app'] },
  { route: '/inbox/{id}', chunks: ['main', 'chat'], texts: ['login', 'app'] },
  { route: '/inbox/{id} + chat settings', chunks: ['main', 'chat', 'chatSettings'], texts: ['login', 'app'] },
  { route: '/settings', chunks: ['main', 'settings'], texts: ['login', 'app'] },
  { route: '/explore', chunks: ['main', 'explore'], texts: ['login', 'app'] },
];

/** The modules of src/ui/routing/chunks/: one chunk per screen or view. */
export const SCREENS = ['login', 'satir', 'main', 'chat', 'chatSettings', 'settings', 'explore', 'debug'];

/** The views MainScreen loads inside itself (routing/lazyViews.tsx). */
const MAIN_VIEWS = ['chat', 'chatSettings', 'settings', 'explore'];

export const chunkKey = (name: string): string => `src/ui/routing/chunks/${name}.ts`;

/** The manifest key of a language's group of texts (its chunk is named `locale-sv`, `locale-sv-app`). */
function textsKey(manifest: Manifest, language: string, group: TextGroupName): string {
  const name = group === 'login' ? `locale-${language}` : `locale-${language}-${group}`;
  const key = Object.keys(manifest).find((k) => manifest[k]?.name === name);
  if (!key) throw new Error(`the build has no ${name} chunk`);
  return key;
}

/** The files that load with these manifest entries before they run: each, and what it imports statically. */
export function staticFiles(manifest: Manifest, keys: readonly string[]): string[] {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`the manifest has no ${key}`);
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return [...files];
}

const entryKey = (manifest: Manifest): string => {
  const key = Object.keys(manifest).find((k) => manifest[k]?.isEntry);
  if (!key) throw new Error('the manifest has no entry');
  return key;
};

/** The page's files for a route, in one language. */
export function routeFiles(manifest: Manifest, load: RouteLoad, language: string): string[] {
  const keys = [entryKey(manifest), ...load.chunks.map(chunkKey), ...load.texts.map((g) => textsKey(manifest, language, g))];
  return staticFiles(manifest, keys);
}

/** The chunks an ES module imports statically (`import … from "./x.js"`, `import "./x.js"`), not `import()`. */
export function staticImportsOf(code: string): string[] {
  return [...code.matchAll(/\bimport\s*(?:[^"'`()]*?\bfrom\s*)?["'](\.\/[^"']+\.js)["']/g)].map((m) => m[1] ?? '');
}

/** The SharedWorker's files: its script (listed with the entry's assets) and its static imports. */
export function workerFiles(manifest: Manifest, read: (file: string) => string): string[] {
  const script = manifest[entryKey(manifest)]?.assets?.find((file) => /(^|\/)sharedWorker-[\w-]+\.js$/.test(file));
  if (!script) throw new Error('the entry lists no sharedWorker script');
  const files = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const imported of staticImportsOf(read(file))) visit(path.posix.join(path.posix.dirname(file), imported));
  };
  visit(script);
  return [...files];
}

export interface RouteSize {
  route: string;
  /** Gzipped bytes of the page's JavaScript, of the worker's, and both. */
  page: number;
  worker: number;
  total: number;
}

/** Each route's gzipped JavaScript in one language; `sizeOf` gives a file's gzipped bytes. */
export function routeSizes(
  manifest: Manifest,
  worker: readonly string[],
  sizeOf: (file: string) => number,
  language: string,
  routes: readonly RouteLoad[] = ROUTES,
): RouteSize[] {
  const sum = (files: readonly string[]) => files.reduce((total, file) => total + sizeOf(file), 0);
  const workerBytes = sum(worker);
  return routes.map((load) => {
    const page = sum(routeFiles(manifest, load, language));
    return { route: load.route, page, worker: workerBytes, total: page + workerBytes };
  });
}

export const kib = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;

/**
 * The most the gzipped JavaScript of /login (page and worker, either language) may weigh, held by
 * tests/e2e/code-splitting.test.ts and the bundle benchmark: design.md §4 (160 KiB, room for the libraries it
 * names; issue 11 brought the build from 203.5 to 149.4 KiB against the earlier 150).
 */
export const LOGIN_BUDGET_KIB = 160;

/**
 * The table's verdict on /login: its heavier language against the budget, so whoever builds sees how much
 * room is left (or how far over it went) without reading the test that holds it.
 */
export function loginBudgetLine(english: readonly RouteSize[], swedish: readonly RouteSize[]): string {
  const login = [...english, ...swedish].filter((row) => row.route === '/login');
  if (login.length === 0) return '  /login budget: no /login route in the report';
  const heaviest = Math.max(...login.map((row) => row.total));
  const within = heaviest / 1024 <= LOGIN_BUDGET_KIB;
  const verdict = within ? `${kib(LOGIN_BUDGET_KIB * 1024 - heaviest)} to spare` : `OVER by ${kib(heaviest - LOGIN_BUDGET_KIB * 1024)}`;
  return `  /login budget (page + worker, heavier language): ${kib(heaviest)} of ${LOGIN_BUDGET_KIB} KiB, ${verdict}`;
}

/** A file's gzipped bytes, at the level the bundle benchmark (tests/bench/bundle.ts) weighs with. */
export const gzippedSize = (bytes: Uint8Array): number => gzipSync(bytes, { level: 9 }).length;

/** The report's lines for the build in `dir`. */
export function buildReport(dir: string): string[] {
  const manifest = JSON.parse(readFileSync(path.join(dir, '.vite/manifest.json'), 'utf8')) as Manifest;
  const gzipped = new Map<string, number>();
  const sizeOf = (file: string) => {
    let size = gzipped.get(file);
    if (size === undefined) gzipped.set(file, (size = gzippedSize(readFileSync(path.join(dir, file)))));
    return size;
  };
  const worker = workerFiles(manifest, (file) => readFileSync(path.join(dir, file), 'utf8'));
  const english = routeSizes(manifest, worker, sizeOf, 'en');
  const swedish = routeSizes(manifest, worker, sizeOf, 'sv');
  const width = Math.max(...english.map((row) => row.route.length));
  const cell = (text: string) => text.padStart(11);
  const lines = [
    'Gzipped JavaScript each route loads (page: entry, screen chunks, texts; worker: the engine SharedWorker):',
    `  ${'route'.padEnd(width)}${cell('page')}${cell('worker')}${cell('total')}${cell('total (sv)')}`,
  ];
  english.forEach((row, i) => {
    const sv = swedish[i]?.total ?? 0;
    lines.push(`  ${row.route.padEnd(width)}${cell(kib(row.page))}${cell(kib(row.worker))}${cell(kib(row.total))}${cell(kib(sv))}`);
  });
  lines.push(loginBudgetLine(english, swedish));
  // A view of the main screen loads after it: count what it adds to the entry and the main screen.
  const entry = new Set(staticFiles(manifest, [entryKey(manifest)]));
  const main = new Set(staticFiles(manifest, [entryKey(manifest), chunkKey('main')]));
  const own = SCREENS.map((name) => {
    const before = MAIN_VIEWS.includes(name) ? main : entry;
    const files = staticFiles(manifest, [chunkKey(name)]).filter((file) => !before.has(file));
    return `${name} ${kib(files.reduce((total, file) => total + sizeOf(file), 0))}`;
  });
  lines.push(`  each screen's own chunks (a view's beyond the main screen's): ${own.join(', ')}`);
  const sw = serviceWorkerFiles(dir);
  if (sw.length > 0) {
    const size = sw.reduce((total, file) => total + sizeOf(file), 0);
    lines.push(`  service worker (not counted above; the browser loads it after the page): ${sw.join(', ')} ${kib(size)}`);
  }
  return lines;
}

/**
 * The service worker's scripts (issue 13: vite-plugin-pwa's `sw.js` and its Workbox runtime), which no page
 * loads: the browser fetches them after the main screen registers the worker. Reported on a line of their own.
 */
export function serviceWorkerFiles(dir: string): string[] {
  if (!existsSync(path.join(dir, 'sw.js'))) return [];
  const runtime = readdirSync(dir).filter((file) => /^workbox-[\w-]+\.js$/.test(file));
  return ['sw.js', ...runtime];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = path.resolve(process.argv[2] ?? 'dist');
  if (!existsSync(path.join(dir, '.vite/manifest.json'))) {
    console.error(`No build in ${dir} (run vite build first)`);
    process.exit(1);
  }
  console.log(buildReport(dir).join('\n'));
}

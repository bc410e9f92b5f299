import { describe, expect, it } from 'vitest';
import {
  LOGIN_BUDGET_KIB,
  loginBudgetLine,
  type Manifest,
  routeFiles,
  routeSizes,
  staticFiles,
  staticImportsOf,
  workerFiles,
} from '../../scripts/build-report';

/**
 * A small build as Vite's manifest describes it: the entry imports a shared chunk statically and loads the
 * screens and the texts on demand; the login and satir screens share a chunk; the chat view imports the main
 * screen's chunk; the worker script is one of the entry's assets.
 */
const manifest: Manifest = {
  'index.html': {
    file: 'assets/index.js',
    isEntry: true,
    imports: ['_react.js'],
    dynamicImports: [
      'src/ui/routing/chunks/login.ts',
      'src/ui/routing/chunks/satir.ts',
      'src/ui/routing/chunks/main.ts',
      '_locale-en.js',
      '_locale-sv.js',
      '_locale-en-app.js',
      'src/reporting/sentryTab.ts',
    ],
    assets: ['assets/dedicatedWorker.js', 'assets/sharedWorker-Ab_1.js'],
  },
  '_react.js': { file: 'assets/react.js' },
  '_LoginScreen.js': { file: 'assets/LoginScreen.js', imports: ['_react.js', 'index.html'] },
  'src/ui/routing/chunks/login.ts': { file: 'assets/login.js', imports: ['_LoginScreen.js'] },
  'src/ui/routing/chunks/satir.ts': { file: 'assets/satir.js', imports: ['_LoginScreen.js', '_react.js'] },
  'src/ui/routing/chunks/main.ts': {
    file: 'assets/main.js',
    imports: ['index.html', '_react.js'],
    dynamicImports: ['src/ui/routing/chunks/chat.ts'],
  },
  'src/ui/routing/chunks/chat.ts': { file: 'assets/chat.js', imports: ['src/ui/routing/chunks/main.ts', 'index.html'] },
  '_locale-en.js': { file: 'assets/locale-en.js', name: 'locale-en', imports: ['_react.js'] },
  '_locale-sv.js': { file: 'assets/locale-sv.js', name: 'locale-sv', imports: ['_react.js'] },
  '_locale-en-app.js': { file: 'assets/locale-en-app.js', name: 'locale-en-app' },
  'src/reporting/sentryTab.ts': { file: 'assets/sentryTab.js', imports: ['_react.js'] },
};

/** Made-up gzipped sizes, each a different power of two, so every sum names its files. */
const SIZES: Record<string, number> = {
  'assets/index.js': 1,
  'assets/react.js': 2,
  'assets/LoginScreen.js': 4,
  'assets/login.js': 8,
  'assets/satir.js': 16,
  'assets/main.js': 32,
  'assets/chat.js': 64,
  'assets/locale-en.js': 128,
  'assets/locale-sv.js': 256,
  'assets/locale-en-app.js': 512,
  'assets/sentryTab.js': 1024,
  'assets/sharedWorker-Ab_1.js': 2048,
  'assets/engine-part.js': 4096,
  'assets/sentryEngine.js': 8192,
};
const sizeOf = (file: string) => {
  const size = SIZES[file];
  if (size === undefined) throw new Error(`no size for ${file}`);
  return size;
};

/** The worker's code: one static import (minified and not), and the Sentry SDK as a dynamic one. */
const WORKER_CODE: Record<string, string> = {
  'assets/sharedWorker-Ab_1.js':
    'import{a as e,b as t}from"./engine-part.js";const n=1;import(`./sentryEngine.js`).then(({s:e})=>e());',
  'assets/engine-part.js': "import './sharedWorker-Ab_1.js';\nexport const a = 1, b = 2;",
};
const readWorker = (file: string) => WORKER_CODE[file] ?? '';

describe('the build report', () => {
  it('follows static imports, each file once, and never a dynamic import', () => {
    expect(staticFiles(manifest, ['src/ui/routing/chunks/satir.ts']).sort()).toEqual(
      ['assets/LoginScreen.js', 'assets/index.js', 'assets/react.js', 'assets/satir.js'].sort(),
    );
    // The entry's dynamic imports (screens, texts, Sentry) are not part of it.
    expect(staticFiles(manifest, ['index.html']).sort()).toEqual(['assets/index.js', 'assets/react.js']);
  });

  it("counts a route's page: the entry, its screens' chunks and its language's texts", () => {
    const login = { route: '/login', chunks: ['login'], texts: ['login' as const] };
    expect(routeFiles(manifest, login, 'en').sort()).toEqual(
      ['assets/LoginScreen.js', 'assets/index.js', 'assets/locale-en.js', 'assets/login.js', 'assets/react.js'].sort(),
    );
    expect(routeFiles(manifest, login, 'sv')).toContain('assets/locale-sv.js');
    expect(routeFiles(manifest, login, 'sv')).not.toContain('assets/locale-en.js');
  });

  it('finds the SharedWorker among the entry\'s assets and follows its static imports only', () => {
    expect(staticImportsOf(WORKER_CODE['assets/sharedWorker-Ab_1.js'] ?? '')).toEqual(['./engine-part.js']);
    expect(workerFiles(manifest, readWorker)).toEqual(['assets/sharedWorker-Ab_1.js', 'assets/engine-part.js']);
  });

  it('sums each route\'s gzipped bytes, the worker apart and in the total', () => {
    const worker = workerFiles(manifest, readWorker);
    const rows = routeSizes(manifest, worker, sizeOf, 'en', [
      { route: '/login', chunks: ['login'], texts: ['login'] },
      { route: '/inbox/{id}', chunks: ['main', 'chat'], texts: ['login', 'app'] },
    ]);
    expect(rows).toEqual([
      // index 1 + react 2 + LoginScreen 4 + login 8 + locale-en 128; worker: script 2048 + engine-part 4096.
      { route: '/login', page: 143, worker: 6144, total: 6287 },
      // index 1 + react 2 + main 32 + chat 64 + locale-en 128 + locale-en-app 512.
      { route: '/inbox/{id}', page: 739, worker: 6144, total: 6883 },
    ]);
  });

  it('fails loudly when the build lacks what a route needs', () => {
    expect(() => routeFiles(manifest, { route: '/debug', chunks: ['debug'], texts: ['login'] }, 'en')).toThrow(
      /no src\/ui\/routing\/chunks\/debug\.ts/,
    );
    expect(() => routeFiles(manifest, { route: '/login', chunks: ['login'], texts: ['app'] }, 'sv')).toThrow(
      /no locale-sv-app chunk/,
    );
  });

  it('states the /login budget of 160 KiB (design.md §4) and the heavier language against it', () => {
    expect(LOGIN_BUDGET_KIB).toBe(160);
    const row = (route: string, kib: number) => ({ route, page: kib * 1024 - 1024, worker: 1024, total: kib * 1024 });
    expect(loginBudgetLine([row('/login', 150), row('/inbox', 300)], [row('/login', 151.5), row('/inbox', 301)])).toBe(
      '  /login budget (page + worker, heavier language): 151.5 KiB of 160 KiB, 8.5 KiB to spare',
    );
    expect(loginBudgetLine([row('/login', 161)], [row('/login', 160)])).toBe(
      '  /login budget (page + worker, heavier language): 161.0 KiB of 160 KiB, OVER by 1.0 KiB',
    );
  });
});

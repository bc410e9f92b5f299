import { rmSync } from 'node:fs';
import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright';
import { launchChromium } from '../support/browser';
import { buildClientInTemp } from '../support/buildClient';
import { startTestServer, type TestServer } from '../support/server';

/**
 * The built app for the browser benchmarks: the production build (what `npm start` serves: the bundle is
 * weighed on it) and the bench build (`VITE_BENCH=1`: the same app plus the hooks only benchmarks use, the
 * row render counter and `?bench=engine-per-tab`). Each is built once per run, into a temporary folder.
 */
export class ClientBuilds {
  private readonly dirs = new Map<'production' | 'bench', string>();

  /**
   * `given`: builds made elsewhere, used as they are (the e2e tests' production build, say);
   * BENCH_CLIENT_DIR_PRODUCTION and BENCH_CLIENT_DIR_BENCH do the same (another checkout's, to compare).
   */
  constructor(private readonly given: Partial<Record<'production' | 'bench', string>> = {}) {}

  dir(kind: 'production' | 'bench'): string {
    const given = this.given[kind] ?? process.env[kind === 'bench' ? 'BENCH_CLIENT_DIR_BENCH' : 'BENCH_CLIENT_DIR_PRODUCTION'];
    if (given) return given;
    let dir = this.dirs.get(kind);
    if (!dir) {
      dir = buildClientInTemp(`messenger-bench-${kind}-`, kind === 'bench' ? { VITE_BENCH: '1' } : {});
      this.dirs.set(kind, dir);
    }
    return dir;
  }

  dispose(): void {
    for (const dir of this.dirs.values()) rmSync(dir, { recursive: true, force: true });
    this.dirs.clear();
  }
}

export interface AppEnv {
  s: TestServer;
  browser: Browser;
}

/** A real server serving `clientDir` and a headless Chromium, for the length of `run`. */
export async function withApp<T>(clientDir: string, run: (env: AppEnv) => Promise<T>): Promise<T> {
  const s = await startTestServer({ clientDir });
  try {
    const browser = await launchChromium();
    try {
      return await run({ s, browser });
    } finally {
      await browser.close();
    }
  } finally {
    await s.close();
  }
}

/**
 * A fresh browser profile. `npm run bench` runs under tsx, whose esbuild keeps function names by wrapping
 * them in a `__name` helper, which the functions given to `page.evaluate` then need in the page too.
 */
export async function newProfile(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  await context.addInitScript('globalThis.__name = (fn) => fn');
  return context;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns something other than undefined, or throws after `timeoutMs`. */
export async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 20_000, everyMs = 50): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { newProfile, until, withApp } from './app';
import { LOGIN_BUDGET_KIB } from '../../scripts/build-report';
import { BrowserTargets } from './cdp';
import { type Figure, figure, repeat } from './harness';
import type { Sizes } from './sizes';

/**
 * Issue 11: the gzipped JavaScript a first visit to `/login` loads, tab and engine worker together, weighed
 * from the built files of the production build. Which files count is what Chromium fetched: the tab's and
 * the worker's resource timing after the login form shows and the network is idle, plus the worker's own
 * script. Baseline: the gzipped JavaScript of the whole build (everything any route could load), so the
 * ratio is the share of the app a visitor who only signs in pays for.
 */

const KIB = 1024;
const gzipped = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.js'))
    .map((f) => path.join(dir, f))
    .filter((f) => statSync(f).isFile());
}

export interface LoginLoad {
  /** Paths of the JS files fetched, by where they ran. */
  page: string[];
  worker: string[];
}

async function loginLoad(clientDir: string): Promise<LoginLoad> {
  return withApp(clientDir, async ({ s, browser }) => {
    const context = await newProfile(browser);
    const targets = await BrowserTargets.open(browser);
    try {
      const page = await context.newPage();
      await page.goto(`${s.url}/login`);
      await page.locator('input[type="tel"]').waitFor({ state: 'visible', timeout: 20_000 });
      // Whatever loads after the first paint (a language's texts, reporting) counts too: wait until the tab
      // and its workers have fetched nothing new for a second.
      const scripts = (entries: string[]) => entries.map((u) => new URL(u).pathname).filter((p) => p.endsWith('.js'));
      const fetched = async () => {
        const pageScripts = scripts(await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name)));
        const worker: string[] = [];
        for (const t of await targets.list(s.url)) {
          if (t.type === 'page') continue;
          worker.push(new URL(t.url).pathname);
          worker.push(...scripts(await targets.evaluate<string[]>(t.targetId, "performance.getEntriesByType('resource').map((e) => e.name)")));
        }
        return { pageScripts, worker };
      };
      let last = '';
      let since = Date.now();
      const { pageScripts, worker } = await until('the login page to stop loading', async () => {
        const now = await fetched();
        const key = JSON.stringify(now);
        if (key !== last) {
          last = key;
          since = Date.now();
          return undefined;
        }
        return Date.now() - since >= 1_000 && now.worker.length > 0 ? now : undefined;
      }, 20_000, 200);
      return { page: [...new Set(pageScripts)], worker: [...new Set(worker)] };
    } finally {
      await targets.close();
      await context.close();
    }
  });
}

export async function bundleBench(sizes: Sizes, clientDir: string, log: (line: string) => void): Promise<Figure[]> {
  const sizeOf = (paths: string[]) => paths.reduce((sum, p) => sum + gzipped(path.join(clientDir, p)), 0);
  const total = jsFiles(clientDir).reduce((sum, f) => sum + gzipped(f), 0);
  const loads = await repeat(sizes.runs, () => loginLoad(clientDir));
  const last = loads[loads.length - 1] as LoginLoad;
  const pageKiB = sizeOf(last.page) / KIB;
  const workerKiB = sizeOf(last.worker) / KIB;
  log(`bundle: /login loads ${last.page.length} files in the tab (${pageKiB.toFixed(1)} KiB), ${last.worker.length} in the worker (${workerKiB.toFixed(1)} KiB)`);
  const names = [...last.page, ...last.worker].map((p) => path.basename(p)).join(', ');
  return [
    figure({
      benchmark: 'bundle',
      name: 'gzipped JS /login loads (page + worker)',
      unit: 'KiB',
      runs: loads.map((l) => sizeOf([...new Set([...l.page, ...l.worker])]) / KIB),
      baseline: { name: 'the gzipped JS of the whole build (every chunk and worker)', runs: loads.map(() => total / KIB) },
      target: { of: 'value', op: '<=', bound: LOGIN_BUDGET_KIB },
      note: `tab ${pageKiB.toFixed(1)} KiB + worker ${workerKiB.toFixed(1)} KiB: ${names}`,
    }),
  ];
}

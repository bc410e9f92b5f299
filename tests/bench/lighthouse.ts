import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, request as httpRequest, type Server } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import lighthouse, { type Flags, type Result } from 'lighthouse';
import { WebSocket } from 'ws';
import { gzippedSize, type Manifest, ROUTES, routeSizes, workerFiles } from '../../scripts/build-report';
import { DEMO_USERS } from '../../server/seed/demo';
import { CHROMIUM_ARGS, chromiumPath } from '../support/chromium';
import { startTestServer, TEST_PIN, type TestServer } from '../support/server';
import { sleep, until } from './app';
import { type Figure, figure, median } from './harness';
import type { Sizes } from './sizes';

/**
 * Issue 20: Lighthouse 12 (the last that runs on Node 20), its mobile preset (the default config: a Moto G
 * Power's screen, slow 4G and a 4× slower CPU, simulated), on the production build served by a real server on
 * loopback: a first visit to `/login` and to `/satir`, and `/inbox` signed in (Anna of the demo world, the
 * page from the service worker's precache, as a returning user gets it). Targets: performance ≥ 0.95,
 * accessibility and best practices 1. Beside each score, its baseline: the same page sent uncompressed (the
 * same server behind a proxy that drops the request's Accept-Encoding: what every visitor got before). And
 * the bytes on the wire of each load (Lighthouse's total byte weight: the transfer size of every response of
 * the page's load, headers included; the engine's SharedWorker fetches its own scripts, which Lighthouse does
 * not see, so the note gives their size) beside what the build report counts for the route
 * (scripts/build-report.ts: the gzipped JavaScript of the page and the engine worker, gzip -9 of each file).
 *
 * Chromium is Debian's (CHROMIUM_PATH), headless, started here with a DevTools port Lighthouse attaches to;
 * the sign-in runs in the same profile over the DevTools protocol, so the service worker, IndexedDB and the
 * session are those Lighthouse's own tab then finds.
 */

type PageName = Sizes['lighthousePages'][number];
const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
type Category = (typeof CATEGORIES)[number];

interface Run {
  scores: Record<Category, number>;
  /** Bytes on the wire of the load (Lighthouse's total-byte-weight). */
  bytes: number;
  /** Milliseconds of the simulated load. */
  metrics: { fcp: number; lcp: number; tbt: number; cls: number };
  /** Audits of the category below a full score, with what they found. */
  failing: Record<Category, string[]>;
  /** Performance audits that see savings left (unused JavaScript, main-thread work…), with their figure. */
  opportunities: Opportunity[];
  /** Lighthouse's measure of how fast this machine ran at the time (higher is faster). */
  benchmarkIndex: number;
  /** Runs Lighthouse failed to record and ran again before this one. */
  retried: number;
}

const KIB = 1024;

/** A headless Chromium with a DevTools port, in a profile of its own, started and stopped here. */
class DebuggableChromium {
  private constructor(
    private readonly child: ChildProcess,
    private readonly profile: string,
    readonly port: number,
  ) {}

  static async start(): Promise<DebuggableChromium> {
    const executable = chromiumPath();
    if (!executable) throw new Error('no Chromium: install Debian’s chromium or set CHROMIUM_PATH');
    const profile = mkdtempSync(path.join(tmpdir(), 'messenger-lighthouse-'));
    const args = [...CHROMIUM_ARGS, '--headless', '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'];
    // A process group of its own: stop() ends Chromium's helpers with it, not only the browser process.
    const child = spawn(executable, args, { stdio: 'ignore', detached: true });
    const portFile = path.join(profile, 'DevToolsActivePort');
    try {
      const port = await until('Chromium’s DevTools port', async () => {
        if (child.exitCode !== null) throw new Error(`Chromium exited with ${child.exitCode}`);
        return existsSync(portFile) ? Number(readFileSync(portFile, 'utf8').split('\n')[0]) || undefined : undefined;
      });
      return new DebuggableChromium(child, profile, port);
    } catch (error) {
      child.kill('SIGKILL');
      rmSync(profile, { recursive: true, force: true });
      throw error;
    }
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null) {
      const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
      this.signal('SIGTERM');
      await Promise.race([exited, sleep(5_000)]);
    }
    // The helpers (GPU, network, crashpad) can outlive the browser and write into the profile as it goes.
    this.signal('SIGKILL');
    try {
      rmSync(this.profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    } catch (error) {
      // A profile left in the temporary directory is no reason to fail the figures it measured.
      console.warn(`lighthouse: could not remove ${this.profile}: ${String(error)}`);
    }
  }

  /** Signals the browser's whole process group (it leads one: started detached). */
  private signal(name: NodeJS.Signals): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, name);
    } catch {
      // The group is gone already.
    }
  }
}

/** The DevTools protocol over the browser's websocket, flattened sessions: just what the sign-in needs. */
class Cdp {
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (raw) => {
      const message = JSON.parse(raw.toString()) as { id?: number; result?: unknown; error?: { message: string } };
      if (message.id === undefined) return;
      const waiter = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error) waiter?.reject(new Error(message.error.message));
      else waiter?.resolve(message.result);
    });
  }

  static async open(port: number): Promise<Cdp> {
    const version = (await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()) as { webSocketDebuggerUrl: string };
    const ws = new WebSocket(version.webSocketDebuggerUrl);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return new Cdp(ws);
  }

  send<T = unknown>(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<T> {
    const id = ++this.nextId;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${method} got no answer in 30 s`));
      }, 30_000);
      this.pending.set(id, {
        resolve: (v) => {
          clearTimeout(timer);
          resolve(v as T);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      this.ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });
  }

  /** Evaluates an expression in a page session (promises awaited) and returns its value. */
  async evaluate<T>(sessionId: string, expression: string): Promise<T> {
    const { result, exceptionDetails } = await this.send<{
      result: { value?: T };
      exceptionDetails?: { text: string; exception?: { description?: string } };
    }>('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true }, sessionId);
    if (exceptionDetails) throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text);
    return result.value as T;
  }

  close(): void {
    this.ws.close();
  }
}

/**
 * Signs Anna in through the app in a tab of the profile, opens /inbox and waits until its chats show and
 * the service worker controls it with the build precached; then closes the tab.
 */
async function signIn(port: number, base: string): Promise<void> {
  const anna = DEMO_USERS.find((u) => u.nickname === 'Anna');
  if (!anna) throw new Error('the demo world has no Anna');
  const cdp = await Cdp.open(port);
  try {
    const { targetId } = await cdp.send<{ targetId: string }>('Target.createTarget', { url: `${base}/login` });
    const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
    const poll = (what: string, expression: string) =>
      until(what, async () => ((await cdp.evaluate<boolean>(sessionId, expression).catch(() => false)) ? true : undefined), 30_000, 100);
    await poll('the engine in the login page', "typeof window.engine === 'object' && window.engine !== null");
    await cdp.evaluate(sessionId, `window.engine.requestPin(${JSON.stringify(anna.phone)}).then(() => window.engine.confirmPin(${JSON.stringify(anna.phone)}, ${JSON.stringify(TEST_PIN)})).then(() => true)`);
    await cdp.send('Page.navigate', { url: `${base}/inbox` }, sessionId);
    await poll('the chats list', "document.querySelector('.inbox-row') !== null");
    await poll('the service worker to control /inbox', "navigator.serviceWorker.controller?.state === 'activated'");
    await cdp.send('Target.closeTarget', { targetId });
  } finally {
    cdp.close();
  }
}

/**
 * A proxy in front of the server that drops each request's Accept-Encoding, so everything comes back plain:
 * the baseline. The websocket's upgrade goes through as bytes.
 */
async function plainProxy(targetPort: number): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request: IncomingMessage, response) => {
    const headers = { ...request.headers };
    delete headers['accept-encoding'];
    const upstream = httpRequest(
      { host: '127.0.0.1', port: targetPort, method: request.method, path: request.url, headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
  server.on('upgrade', (request: IncomingMessage, socket, head) => {
    const upstream = connect(targetPort, '127.0.0.1', () => {
      const lines = [`${request.method} ${request.url} HTTP/1.1`];
      for (let i = 0; i < request.rawHeaders.length; i += 2) lines.push(`${request.rawHeaders[i]}: ${request.rawHeaders[i + 1]}`);
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      upstream.write(head);
      socket.pipe(upstream).pipe(socket);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What a failing audit found, briefly: its id, and how many items (elements, requests) it lists. */
function auditText(lhr: Result, id: string): string {
  const audit = lhr.audits[id];
  const details = audit?.details as { items?: unknown[] } | undefined;
  const items = details?.items?.length;
  return `${id}${items ? ` (${items})` : ''}`;
}

interface Opportunity {
  id: string;
  numeric: number;
  /** What Lighthouse says of it ("Potential savings of 43 KiB", "3.2 s"). */
  display: string;
}

/** Audits with savings left (`metricSavings`) that Lighthouse flags. */
function opportunities(lhr: Result): Opportunity[] {
  return Object.entries(lhr.audits)
    .filter(([, audit]) => audit.scoreDisplayMode === 'metricSavings' && audit.score !== null && audit.score < 0.9)
    .map(([id, audit]) => ({ id, numeric: audit.numericValue ?? 0, display: audit.displayValue ?? '' }));
}

/** Each audit flagged in any run once, with what it said in its median run: "id (3.2 s)". */
function flagged(runs: readonly Run[]): string[] {
  const byId = new Map<string, Opportunity[]>();
  for (const o of runs.flatMap((r) => r.opportunities)) byId.set(o.id, [...(byId.get(o.id) ?? []), o]);
  return [...byId].map(([id, seen]) => {
    const middle = [...seen].sort((a, b) => a.numeric - b.numeric)[Math.floor(seen.length / 2)];
    const runsText = seen.length < runs.length ? `, in ${seen.length} of ${runs.length} runs` : '';
    return middle?.display ? `${id} (${middle.display}${runsText})` : `${id}${runsText ? ` (${runsText.slice(2)})` : ''}`;
  });
}

function failingAudits(lhr: Result, category: Category): string[] {
  const refs = lhr.categories[category]?.auditRefs ?? [];
  return refs
    .filter((ref) => ref.weight > 0)
    .filter((ref) => {
      const audit = lhr.audits[ref.id];
      return audit !== undefined && audit.score !== null && audit.score < 1 && audit.scoreDisplayMode !== 'informative';
    })
    .map((ref) => auditText(lhr, ref.id));
}

async function runLighthouse(port: number, url: string, signedIn: boolean): Promise<Run> {
  const flags: Flags = {
    port,
    hostname: '127.0.0.1',
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...CATEGORIES],
    // Signed in, the visit keeps the profile's storage: the session, IndexedDB and the service worker.
    disableStorageReset: signedIn,
  };
  // Lighthouse now and then fails to record a load's trace (NO_NAVSTART, "Please run Lighthouse again"):
  // such a run is run again, at most twice, and counted.
  let lhr: Result | undefined;
  let retried = 0;
  for (;;) {
    const result = await lighthouse(url, flags);
    const error = result ? result.lhr.runtimeError : { code: 'NO_RESULT', message: 'Lighthouse returned nothing' };
    if (!error && result) {
      lhr = result.lhr;
      break;
    }
    if (retried === 2) throw new Error(`Lighthouse on ${url}: ${error?.code} ${error?.message}`);
    retried += 1;
  }
  const score = (category: Category) => lhr.categories[category]?.score ?? Number.NaN;
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  return {
    scores: { performance: score('performance'), accessibility: score('accessibility'), 'best-practices': score('best-practices') },
    bytes: numeric('total-byte-weight'),
    metrics: {
      fcp: numeric('first-contentful-paint'),
      lcp: numeric('largest-contentful-paint'),
      tbt: numeric('total-blocking-time'),
      cls: numeric('cumulative-layout-shift'),
    },
    failing: {
      performance: failingAudits(lhr, 'performance'),
      accessibility: failingAudits(lhr, 'accessibility'),
      'best-practices': failingAudits(lhr, 'best-practices'),
    },
    opportunities: opportunities(lhr),
    benchmarkIndex: lhr.environment.benchmarkIndex,
    retried,
  };
}

interface Budget {
  /** The build report's gzipped JavaScript of the route: page + engine worker (the budget), and the page's part. */
  total: number;
  page: number;
  /** The engine worker's scripts as they travel (their .br copies): the worker fetches them, Lighthouse does not count them. */
  workerWire: number;
}

/** What the build report counts for each page (English texts), and the worker's share. */
function budgets(clientDir: string): Record<PageName, Budget> {
  const manifest = JSON.parse(readFileSync(path.join(clientDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  const worker = workerFiles(manifest, (file) => readFileSync(path.join(clientDir, file), 'utf8'));
  const sizes = routeSizes(manifest, worker, (file) => gzippedSize(readFileSync(path.join(clientDir, file))), 'en', ROUTES);
  const workerWire = worker.reduce((sum, file) => {
    const copy = path.join(clientDir, `${file}.br`);
    return sum + (existsSync(copy) ? statSync(copy).size : statSync(path.join(clientDir, file)).size);
  }, 0);
  const budget = (route: string): Budget => {
    const row = sizes.find((r) => r.route === route);
    if (!row) throw new Error(`the build report has no ${route}`);
    return { total: row.total, page: row.page, workerWire };
  };
  return { '/login': budget('/login'), '/satir': budget('/satir'), '/inbox': budget('/inbox') };
}

/** Each page's runs, compressed (as served) and plain (the baseline), in one profile. */
async function measure(
  sizes: Sizes,
  s: TestServer,
  log: (line: string) => void,
): Promise<{ served: Record<PageName, Run[]>; plain: Record<PageName, Run[]> }> {
  const served: Record<PageName, Run[]> = { '/login': [], '/satir': [], '/inbox': [] };
  const plain: Record<PageName, Run[]> = { '/login': [], '/satir': [], '/inbox': [] };
  const proxy = await plainProxy(Number(new URL(s.url).port));
  const chromium = await DebuggableChromium.start();
  try {
    // First visits, before anyone signs in on either origin: Lighthouse clears the origin's storage first.
    const firstVisits = sizes.lighthousePages.filter((page) => page !== '/inbox');
    for (let i = 0; i < sizes.runs && firstVisits.length > 0; i++) {
      for (const page of firstVisits) {
        served[page].push(await runLighthouse(chromium.port, `${s.url}${page}`, false));
        plain[page].push(await runLighthouse(chromium.port, `${proxy.url}${page}`, false));
      }
      log(`lighthouse: first visits, run ${i + 1} of ${sizes.runs}`);
    }
    if (!sizes.lighthousePages.includes('/inbox')) return { served, plain };
    // Signed in on both origins (each has its own session and service worker), then /inbox from them.
    await signIn(chromium.port, s.url);
    await signIn(chromium.port, proxy.url);
    for (let i = 0; i < sizes.runs; i++) {
      served['/inbox'].push(await runLighthouse(chromium.port, `${s.url}/inbox`, true));
      plain['/inbox'].push(await runLighthouse(chromium.port, `${proxy.url}/inbox`, true));
      log(`lighthouse: signed in, run ${i + 1} of ${sizes.runs}`);
    }
  } finally {
    await chromium.stop();
    await proxy.close();
  }
  return { served, plain };
}

const retriedText = (runs: readonly Run[]) => {
  const retried = runs.reduce((sum, r) => sum + r.retried, 0);
  return retried ? `; ${retried} Lighthouse runs failed to record the load and were run again` : '';
};
const fmtMs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const kib = (bytes: number) => `${(bytes / KIB).toFixed(1)} KiB`;

export async function lighthouseBench(sizes: Sizes, clientDir: string, log: (line: string) => void): Promise<Figure[]> {
  const budget = budgets(clientDir);
  const s = await startTestServer({ clientDir, seedDemo: true });
  let runs: Awaited<ReturnType<typeof measure>>;
  try {
    runs = await measure(sizes, s, log);
  } finally {
    await s.close();
  }
  const figures: Figure[] = [];
  for (const page of sizes.lighthousePages) {
    const served = runs.served[page];
    const plain = runs.plain[page];
    const metric = (list: Run[], key: keyof Run['metrics']) => median(list.map((r) => r.metrics[key]));
    const listed = (lists: string[][]) => [...new Set(lists.flat())];
    const failing = (category: Category) => {
      const seen = listed(served.map((r) => r.failing[category]));
      return seen.length ? `failing audits: ${seen.join(', ')}` : 'every audit passes';
    };
    const left = flagged(served);
    const what = page === '/inbox' ? '/inbox signed in (service worker)' : `${page}, first visit`;
    const { total, page: pageBytes, workerWire } = budget[page];
    figures.push(
      figure({
        benchmark: 'lighthouse',
        name: `Lighthouse performance, ${what}, mobile`,
        unit: '',
        runs: served.map((r) => r.scores.performance),
        baseline: { name: 'the same page sent uncompressed (a proxy drops Accept-Encoding)', runs: plain.map((r) => r.scores.performance) },
        target: { of: 'value', op: '>=', bound: 0.95 },
        note:
          `FCP ${fmtMs(metric(served, 'fcp'))}, LCP ${fmtMs(metric(served, 'lcp'))}, TBT ${metric(served, 'tbt').toFixed(0)} ms, ` +
          `CLS ${metric(served, 'cls').toFixed(3)} (uncompressed: FCP ${fmtMs(metric(plain, 'fcp'))}, LCP ${fmtMs(metric(plain, 'lcp'))}, ` +
          `TBT ${metric(plain, 'tbt').toFixed(0)} ms); ${failing('performance')}; ` +
          `savings Lighthouse still sees: ${left.length ? left.join(', ') : 'none'}; ` +
          `Lighthouse's benchmark index of the machine ${median(served.map((r) => r.benchmarkIndex)).toFixed(0)}` +
          retriedText([...served, ...plain]),
      }),
      figure({
        benchmark: 'lighthouse',
        name: `Lighthouse accessibility, ${what}`,
        unit: '',
        runs: served.map((r) => r.scores.accessibility),
        target: { of: 'value', op: '>=', bound: 1 },
        note: failing('accessibility'),
      }),
      figure({
        benchmark: 'lighthouse',
        name: `Lighthouse best practices, ${what}`,
        unit: '',
        runs: served.map((r) => r.scores['best-practices']),
        target: { of: 'value', op: '>=', bound: 1 },
        note: failing('best-practices'),
      }),
      figure({
        benchmark: 'lighthouse',
        name: `bytes on the wire, ${what}`,
        unit: 'KiB',
        runs: served.map((r) => r.bytes / KIB),
        baseline: { name: `the gzipped JS the build report counts for ${page} (page + engine worker)`, runs: served.map(() => total / KIB) },
        note:
          `Lighthouse's total byte weight: every response of the page's load (headers included), scripts, styles, page, ` +
          `manifest, icons; uncompressed the same load is ${kib(median(plain.map((r) => r.bytes)))}. Of the budget, the page's ` +
          `JS is ${kib(pageBytes)}; the engine worker fetches its own scripts (${kib(workerWire)} as brotli), which Lighthouse ` +
          `does not count` +
          (page === '/inbox' ? '; signed in, the page and its scripts come from the service worker’s precache' : ''),
      }),
    );
  }
  return figures;
}

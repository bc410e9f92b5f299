import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { ClientBuilds } from './app';
import { bundleBench } from './bundle';
import { burstBench } from './burst';
import { heapBench, rendersBench, wheelBench } from './chat';
import { coldStartBench } from './coldStart';
import { driftBench } from './drift';
import { fanoutBench, fanoutClusterBench } from './fanout';
import { type Figure, formatTable, type Results } from './harness';
import { recoveryFigures } from './engineRecovery';
import { lighthouseBench } from './lighthouse';
import { groupBench } from './millionGroup';
import { exportBench } from './exportChat';
import { searchBench } from './search';
import { searchBrowserBench } from './searchBrowser';
import { searchRemovalBench } from './searchRemoval';
import { searchScaleBench } from './searchScale';
import { searchTypingBench } from './searchTyping';
import { listBench, serverBench } from './serverBench';
import type { Sizes } from './sizes';
import { tabsBench } from './tabs';

export interface BenchContext {
  sizes: Sizes;
  builds: ClientBuilds;
  log: (line: string) => void;
}

interface Benchmark {
  name: string;
  run(ctx: BenchContext): Promise<Figure[]>;
}

/** Every benchmark of `npm run bench`, in the order they run. */
export const BENCHMARKS: readonly Benchmark[] = [
  { name: 'server', run: ({ sizes, log }) => serverBench(sizes, log) },
  { name: 'list', run: ({ sizes }) => listBench(sizes) },
  { name: 'bundle', run: ({ sizes, builds, log }) => bundleBench(sizes, builds.dir('production'), log) },
  { name: 'renders', run: ({ sizes, builds, log }) => rendersBench(sizes, builds.dir('bench'), log) },
  { name: 'wheel', run: ({ sizes, builds }) => wheelBench(sizes, builds.dir('bench')) },
  { name: 'drift', run: ({ sizes, builds, log }) => driftBench(sizes, builds.dir('bench'), log) },
  { name: 'heap', run: ({ sizes, builds }) => heapBench(sizes, builds.dir('bench')) },
  { name: 'group', run: ({ sizes, builds, log }) => groupBench(sizes, builds.dir('bench'), log) },
  { name: 'tabs', run: ({ sizes, builds, log }) => tabsBench(sizes, builds.dir('bench'), log) },
  { name: 'cold-start', run: ({ sizes, builds, log }) => coldStartBench(sizes, builds.dir('production'), log) },
  { name: 'burst', run: ({ sizes, builds, log }) => burstBench(sizes, builds.dir('production'), log) },
  { name: 'fan-out', run: ({ sizes, log }) => fanoutBench(sizes, log) },
  { name: 'fan-out-cluster', run: ({ sizes, log }) => fanoutClusterBench(sizes, log) },
  { name: 'recovery', run: ({ sizes, builds }) => recoveryFigures(sizes, builds.dir('production')) },
  {
    name: 'search',
    run: async ({ sizes, builds }) => [...(await searchBench(sizes)), ...(await searchTypingBench(sizes, builds.dir('production')))],
  },
  { name: 'search-scale', run: ({ sizes, log }) => searchScaleBench(sizes, log) },
  { name: 'search-removal', run: ({ sizes, log }) => searchRemovalBench(sizes, log) },
  { name: 'search-browser', run: ({ sizes, builds, log }) => searchBrowserBench(sizes, builds.dir('production'), log) },
  { name: 'export', run: ({ sizes, builds }) => exportBench(sizes, builds.dir('production')) },
  { name: 'lighthouse', run: ({ sizes, builds, log }) => lighthouseBench(sizes, builds.dir('production'), log) },
];

/** Runs the benchmarks named in `only` (all when empty); a benchmark that throws is reported, the rest run. */
export async function runBenchmarks(options: { sizes: Sizes; only?: readonly string[]; log?: (line: string) => void }): Promise<{
  results: Results;
  table: string;
}> {
  const log = options.log ?? ((line: string) => console.log(line));
  const only = options.only?.filter(Boolean) ?? [];
  const unknown = only.filter((name) => !BENCHMARKS.some((b) => b.name === name));
  if (unknown.length) throw new Error(`unknown benchmark ${unknown.join(', ')}; known: ${BENCHMARKS.map((b) => b.name).join(', ')}`);
  const started = new Date();
  const t0 = performance.now();
  const builds = new ClientBuilds();
  const figures: Figure[] = [];
  const errors: Results['errors'] = [];
  try {
    for (const benchmark of BENCHMARKS) {
      if (only.length && !only.includes(benchmark.name)) continue;
      const t1 = performance.now();
      log(`${benchmark.name}: running`);
      try {
        figures.push(...(await benchmark.run({ sizes: options.sizes, builds, log })));
      } catch (error) {
        const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
        errors.push({ benchmark: benchmark.name, message });
        log(`${benchmark.name}: FAILED TO RUN: ${message}`);
      }
      log(`${benchmark.name}: ${((performance.now() - t1) / 1000).toFixed(1)} s`);
    }
  } finally {
    builds.dispose();
  }
  const results: Results = {
    startedAt: started.toISOString(),
    finishedAt: new Date().toISOString(),
    seconds: Math.round((performance.now() - t0) / 100) / 10,
    sizes: { ...options.sizes },
    machine: { cpus: cpus().length, node: process.version, platform: process.platform },
    figures,
    errors,
  };
  let table = formatTable(figures);
  if (errors.length) table += `\n\nBenchmarks that failed to run: ${errors.map((e) => e.benchmark).join(', ')}`;
  return { results, table };
}

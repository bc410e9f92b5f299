import path from 'node:path';
import { writeResults } from './harness';
import { fullSizes } from './sizes';
import { runBenchmarks } from './suite';

/**
 * `npm run bench`: every benchmark (tests/bench/suite.ts), each figure the median of BENCH_RUNS (≥ 5) runs
 * beside a baseline measured in the same run. Prints one table and writes the same figures as JSON under
 * `bench-results/` (ignored by git). Exits 1 when a target is missed or a benchmark fails to run.
 * `BENCH_ONLY=chat,tabs` runs some of them; the README lists the sizes' variables.
 */
async function main(): Promise<void> {
  const only = (process.env.BENCH_ONLY ?? '').split(',').map((s) => s.trim());
  const { results, table } = await runBenchmarks({ sizes: fullSizes(), only });
  console.log(`\n${table}\n`);
  const file = writeResults(path.resolve(import.meta.dirname, '../../bench-results'), results, table);
  console.log(`Figures written to ${path.relative(process.cwd(), file)} (and bench-results/latest.json); ${results.seconds} s in all.`);
  const failed = results.figures.some((f) => f.pass === false) || results.errors.length > 0;
  process.exit(failed ? 1 : 0);
}

void main();

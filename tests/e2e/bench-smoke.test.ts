import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ClientBuilds } from '../bench/app';
import { type Figure, formatTable, writeResults } from '../bench/harness';
import { SMOKE } from '../bench/sizes';
import { BENCHMARKS } from '../bench/suite';
import { CLIENT_DIR } from '../support/tabs';

/**
 * `npm run bench` at a tiny size (tests/bench/sizes.ts SMOKE), so no benchmark rots: each still runs and
 * produces finite figures, and they make one table and one JSON file. Targets are not asserted here: a
 * speed target is the benchmark's verdict on a quiet machine, not a test's on a busy one.
 */

describe('the benchmarks, at a tiny size', () => {
  // The production build is the one the e2e tests serve; the bench build (VITE_BENCH) is made once here.
  const builds = new ClientBuilds({ production: CLIENT_DIR });
  const figures: Figure[] = [];
  afterAll(() => builds.dispose());

  for (const benchmark of BENCHMARKS) {
    it(`${benchmark.name} produces its figures`, { timeout: 180_000 }, async () => {
      const got = await benchmark.run({ sizes: SMOKE, builds, log: () => undefined });
      expect(got.length).toBeGreaterThan(0);
      for (const f of got) {
        expect(f.benchmark).toBe(benchmark.name);
        expect(Number.isFinite(f.value), `${f.name}: ${f.value}`).toBe(true);
        if (f.baseline) expect(Number.isFinite(f.baseline.value), `${f.name}, baseline: ${f.baseline.value}`).toBe(true);
        expect(f.runs.length).toBeGreaterThanOrEqual(1);
      }
      figures.push(...got);
    });
  }

  it('has a baseline where every tab runs its own engine and socket (?bench=engine-per-tab, bench builds)', () => {
    const sockets = figures.filter((f) => f.benchmark === 'tabs' && f.name.startsWith('websockets'));
    expect(sockets.map((f) => [f.name, f.baseline?.value])).toEqual(
      SMOKE.tabs.map((n) => [expect.stringContaining(`, ${n} tab`), n]),
    );
  });

  it('prints them as one table and writes the same figures as JSON', () => {
    expect(figures.length).toBeGreaterThan(BENCHMARKS.length);
    const table = formatTable(figures);
    for (const f of figures) expect(table).toContain(f.name);
    const dir = mkdtempSync(path.join(tmpdir(), 'messenger-bench-results-'));
    try {
      const now = new Date().toISOString();
      const results = { startedAt: now, finishedAt: now, seconds: 0, sizes: { ...SMOKE }, machine: { cpus: 1, node: '', platform: '' }, figures, errors: [] };
      writeResults(dir, results, table);
      const written = JSON.parse(readFileSync(path.join(dir, 'latest.json'), 'utf8')) as { figures: Figure[] };
      expect(written.figures.map((f) => f.name)).toEqual(figures.map((f) => f.name));
      expect(readFileSync(path.join(dir, 'latest.txt'), 'utf8')).toContain(table);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The harness every benchmark reports through: one figure type, the median-of-N runner, the table and the
 * JSON file. A figure is the median of its runs, printed beside a baseline measured in the same run on the
 * same machine, with the ratio between them; its target bounds either the figure itself (counts, sizes,
 * milliseconds the issue names) or the ratio (what depends on how fast the machine is).
 */

export interface Target {
  /** What the bound applies to. */
  of: 'value' | 'ratio';
  op: '<=' | '>=';
  bound: number;
}

export interface Baseline {
  name: string;
  value: number;
  runs: number[];
}

export interface Figure {
  /** The benchmark it belongs to (`BENCH_ONLY` picks benchmarks by this name). */
  benchmark: string;
  name: string;
  unit: string;
  /** The median of `runs`. */
  value: number;
  runs: number[];
  baseline: Baseline | null;
  /** value / baseline.value. */
  ratio: number | null;
  target: Target | null;
  /** null: a figure printed for reading, with no target. */
  pass: boolean | null;
  /** What the figure and its baseline are, and anything else worth printing with it. */
  note: string;
}

export function median(values: readonly number[]): number {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** The q-quantile (0..1) of samples, nearest rank. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}

/** Runs `fn` `runs` times, one after the other, and returns what each run measured. */
export async function repeat<T>(runs: number, fn: (run: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let i = 0; i < runs; i++) results.push(await fn(i));
  return results;
}

export interface FigureInput {
  benchmark: string;
  name: string;
  unit: string;
  runs: readonly number[];
  baseline?: { name: string; runs: readonly number[] };
  target?: Target;
  note?: string;
}

export function figure(input: FigureInput): Figure {
  const value = median(input.runs);
  const baseline = input.baseline
    ? { name: input.baseline.name, value: median(input.baseline.runs), runs: [...input.baseline.runs] }
    : null;
  // A baseline of 0 (a drift where nothing moves) has no ratio to speak of.
  const ratio = baseline && baseline.value !== 0 ? value / baseline.value : null;
  const target = input.target ?? null;
  let pass: boolean | null = null;
  if (target) {
    const measured = target.of === 'value' ? value : ratio;
    pass = measured !== null && Number.isFinite(measured) && (target.op === '<=' ? measured <= target.bound : measured >= target.bound);
  }
  return {
    benchmark: input.benchmark,
    name: input.name,
    unit: input.unit,
    value,
    runs: [...input.runs],
    baseline,
    ratio,
    target,
    pass,
    note: input.note ?? '',
  };
}

/** A number as the table prints it: three significant digits, no exponent for everyday sizes. */
export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const abs = Math.abs(n);
  if (Number.isInteger(n)) return n.toLocaleString('en-US');
  if (abs >= 1000) return Math.round(n).toLocaleString('en-US');
  if (abs >= 100) return n.toFixed(0);
  if (abs >= 10) return n.toFixed(1);
  if (abs >= 0.01) return n.toFixed(2);
  return n.toPrecision(2);
}

const withUnit = (n: number, unit: string) => (unit ? `${formatNumber(n)} ${unit}` : formatNumber(n));

function targetText(f: Figure): string {
  if (!f.target) return '';
  const op = f.target.op === '<=' ? '≤' : '≥';
  return f.target.of === 'ratio' ? `ratio ${op} ${f.target.bound}` : `${op} ${withUnit(f.target.bound, f.unit)}`;
}

const resultText = (f: Figure) => (f.pass === null ? '' : f.pass ? 'pass' : 'FAIL');

/**
 * The table: one line per figure (benchmark, figure, value, baseline, ratio, target, pass/fail), then
 * numbered notes saying what each baseline is.
 */
export function formatTable(figures: readonly Figure[]): string {
  const header = ['#', 'benchmark', 'figure', 'value', 'baseline', 'ratio', 'target', 'result'];
  const rows = figures.map((f, i) => [
    String(i + 1),
    f.benchmark,
    f.name,
    withUnit(f.value, f.unit),
    f.baseline ? withUnit(f.baseline.value, f.unit) : '',
    f.ratio === null ? '' : formatNumber(f.ratio),
    targetText(f),
    resultText(f),
  ]);
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] as string).length)));
  // Numbers read best right-aligned; words left-aligned.
  const right = new Set([0, 3, 4, 5]);
  const line = (cells: string[]) =>
    cells.map((cell, c) => (right.has(c) ? cell.padStart(widths[c] as number) : cell.padEnd(widths[c] as number))).join('  ').trimEnd();
  const out = [line(header), widths.map((w) => '-'.repeat(w)).join('  ')];
  for (const r of rows) out.push(line(r));
  const failed = figures.filter((f) => f.pass === false).length;
  const checked = figures.filter((f) => f.pass !== null).length;
  out.push('', `${checked - failed} of ${checked} targets met${failed ? `, ${failed} missed` : ''}.`, '');
  figures.forEach((f, i) => {
    const parts: string[] = [];
    if (f.baseline) parts.push(`baseline: ${f.baseline.name}`);
    if (f.note) parts.push(f.note);
    parts.push(`runs: ${f.runs.map(formatNumber).join(', ')}`);
    out.push(`${i + 1}. ${parts.join('; ')}`);
  });
  return out.join('\n');
}

export interface Results {
  startedAt: string;
  finishedAt: string;
  seconds: number;
  /** What the run was: the sizes it used. */
  sizes: Record<string, unknown>;
  machine: { cpus: number; node: string; platform: string };
  figures: Figure[];
  /** Benchmarks that threw: the run goes on without them and fails at the end. */
  errors: { benchmark: string; message: string }[];
}

/** Writes the results as JSON (a dated file and `latest.json`) and the table as text under `dir`. */
export function writeResults(dir: string, results: Results, table: string): string {
  mkdirSync(dir, { recursive: true });
  const json = JSON.stringify(results, null, 2);
  const stamp = results.startedAt.replace(/[:.]/g, '-');
  const file = path.join(dir, `bench-${stamp}.json`);
  writeFileSync(file, json);
  writeFileSync(path.join(dir, 'latest.json'), json);
  writeFileSync(path.join(dir, 'latest.txt'), table + '\n');
  return file;
}

import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * What one fault scenario did (issue 12, "the browser client under faults"). Every scenario records its counts
 * here; the run ends with one table of them all (`faultTable`). Vitest runs each file in its own worker, so the
 * tally is a file of JSON lines, not a module-level array.
 */
export interface FaultRecord {
  /** Short name of the scenario, as the table shows it. */
  scenario: string;
  /** Faults injected: server kills, cut answers, stalled sockets, closed tabs, quota refusals, … */
  faults: number;
  /** Messages (or receipts) the scenario sent. */
  sent: number;
  /** Of those, never delivered. Must be 0. */
  lost: number;
  /** Of those, delivered or shown more than once. Must be 0. */
  duplicated: number;
  /** Hostile requests or frames tried (fuzzing, foreign origins, …). */
  attacks?: number;
  /** Of those, let in (accepted, or a 5xx, or state changed by a refused request). Must be 0. */
  letIn?: number;
  /** Anything worth a line under the table (the reconnect spread, timings). */
  note?: string;
}

/** The file this run's records go to: one per `npm run test:faults` / `npm test` run (set by the global setup). */
export function tallyFile(): string {
  return process.env.FAULT_TALLY_FILE ?? path.join(tmpdir(), 'messenger-fault-tally.jsonl');
}

export function resetTally(): void {
  rmSync(tallyFile(), { force: true });
}

export function record(entry: FaultRecord): void {
  const file = tallyFile();
  mkdirSync(path.dirname(file), { recursive: true });
  appendFileSync(file, `${JSON.stringify(entry)}\n`);
}

export function readTally(): FaultRecord[] {
  const file = tallyFile();
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as FaultRecord);
}

/** One table: faults injected, messages sent, lost, duplicated, attacks tried, let in; a total row last. */
export function faultTable(records: readonly FaultRecord[]): string {
  const rows = records.map((r) => [r.scenario, r.faults, r.sent, r.lost, r.duplicated, r.attacks ?? 0, r.letIn ?? 0]);
  const sum = (i: number) => rows.reduce((total, row) => total + (row[i] as number), 0);
  const total = ['total', sum(1), sum(2), sum(3), sum(4), sum(5), sum(6)];
  const header = ['scenario', 'faults injected', 'messages sent', 'lost', 'duplicated', 'attacks tried', 'let in'];
  const all = [header, ...rows, total].map((row) => row.map(String));
  const widths = header.map((_, i) => Math.max(...all.map((row) => (row[i] as string).length)));
  const line = (row: string[]) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] as number) : cell.padStart(widths[i] as number))).join('  ');
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  const notes = records.filter((r) => r.note).map((r) => `- ${r.scenario}: ${r.note}`);
  return [line(header), rule, ...all.slice(1, -1).map(line), rule, line(all[all.length - 1] as string[]), ...(notes.length ? ['', ...notes] : [])].join('\n');
}

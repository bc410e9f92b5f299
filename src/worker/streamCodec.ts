/**
 * How the values of one subscription cross a port or a link (design.md §5, the stream bridge) without
 * cloning the whole list each time. Engine queries reuse the object of every row that did not change
 * (the conversation list, a chat's messages), so the worker sends, per array, only the rows it has not
 * sent in the previous value and, for the others, their place in that previous value. The tab rebuilds
 * the array from its own copy of the previous value: an unchanged row keeps its object in the tab too,
 * so a virtualised list re-renders only the rows that changed.
 *
 * Arrays are handled at the top (a list) and one level down (an object whose properties are arrays, as
 * a message window); anything else crosses whole. The encoder and the decoder of a subscription see the
 * same values in the same order (a port and a link keep order), so their "previous value" agrees.
 * The decoder is streamDecoder.ts: a worker that leads never needs it (issue 11).
 */

/**
 * One array relative to the previous one, as runs: `runs` holds pairs (start, count), each `count` rows
 * taken from the previous array from index `start` on, or, with start -1, the next `count` fresh rows.
 * A row that moved to the top of a 5,000-row list is three runs.
 */
export interface RowsDelta {
  /** The length of the previous array: a decoder whose previous value differs refuses the delta. */
  from: number;
  runs: number[];
  fresh: unknown[];
}

export type WireValue =
  | { $bridge: 'value'; value: unknown }
  | { $bridge: 'rows'; rows: RowsDelta }
  | { $bridge: 'object'; plain: Record<string, unknown>; rows: Record<string, RowsDelta> };

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

/** The rows of `next` against `prev`, or null when none is kept (the array then crosses whole). */
function rowsDelta(prev: readonly unknown[], next: readonly unknown[]): RowsDelta | null {
  const index = new Map<unknown, number>();
  prev.forEach((row, i) => {
    if (typeof row === 'object' && row !== null && !index.has(row)) index.set(row, i);
  });
  if (index.size === 0) return null;
  const runs: number[] = [];
  const fresh: unknown[] = [];
  let kept = 0;
  for (const row of next) {
    const at = index.get(row) ?? -1;
    if (at < 0) fresh.push(row);
    else kept++;
    const last = runs.length - 2;
    const start = runs[last];
    const count = runs[last + 1];
    // Extends the last run when this row continues it (the next fresh row, or the next previous row).
    if (start !== undefined && count !== undefined && (at < 0 ? start === -1 : start >= 0 && start + count === at)) {
      runs[last + 1] = count + 1;
    } else runs.push(at, 1);
  }
  return kept === 0 ? null : { from: prev.length, runs, fresh };
}

/** The worker's half for one subscription. */
export class StreamEncoder {
  private previous: unknown = undefined;
  private hasPrevious = false;

  encode(value: unknown): WireValue {
    const prev = this.previous;
    const had = this.hasPrevious;
    this.previous = value;
    this.hasPrevious = true;
    if (!had || prev === undefined) return { $bridge: 'value', value };
    if (Array.isArray(value) && Array.isArray(prev)) {
      const rows = rowsDelta(prev, value);
      return rows ? { $bridge: 'rows', rows } : { $bridge: 'value', value };
    }
    if (isPlainObject(value) && isPlainObject(prev)) {
      const plain: Record<string, unknown> = {};
      const rows: Record<string, RowsDelta> = {};
      let any = false;
      for (const [key, v] of Object.entries(value)) {
        const before = prev[key];
        const delta = Array.isArray(v) && Array.isArray(before) ? rowsDelta(before, v) : null;
        // The key stays in `plain` (as null) so that the rebuilt object keeps the order of its keys.
        plain[key] = delta ? null : v;
        if (delta) {
          rows[key] = delta;
          any = true;
        }
      }
      return any ? { $bridge: 'object', plain, rows } : { $bridge: 'value', value };
    }
    return { $bridge: 'value', value };
  }

  /** A value did not reach the other side: the next one crosses whole. */
  reset(): void {
    this.previous = undefined;
    this.hasPrevious = false;
  }
}

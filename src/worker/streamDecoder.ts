import { isPlainObject, type RowsDelta } from './streamCodec';

/*
 * The decoding half of streamCodec.ts, a module of its own: the tab needs it, and a worker only when it
 * follows another (leaderLink.ts, a chunk loaded then), so a leading worker's start-up chunk goes without.
 */

function applyRows(prev: unknown, delta: RowsDelta): unknown[] {
  if (!Array.isArray(prev) || prev.length !== delta.from) {
    throw new Error('stream bridge: a row delta that does not match the previous value');
  }
  const result: unknown[] = [];
  let f = 0;
  for (let r = 0; r + 1 < delta.runs.length; r += 2) {
    const start = delta.runs[r] as number;
    const count = delta.runs[r + 1] as number;
    if (start < 0) {
      for (let i = 0; i < count; i++) result.push(delta.fresh[f++]);
    } else {
      if (start + count > prev.length) throw new Error('stream bridge: a row delta out of range');
      for (let i = 0; i < count; i++) result.push(prev[start + i]);
    }
  }
  return result;
}

/** The tab's half for one subscription. Anything that is not a WireValue is taken as the value itself. */
export class StreamDecoder {
  private previous: unknown = undefined;

  decode(wire: unknown): unknown {
    const value = this.read(wire);
    this.previous = value;
    return value;
  }

  private read(wire: unknown): unknown {
    if (!isPlainObject(wire)) return wire;
    switch (wire.$bridge) {
      case 'value':
        return wire.value;
      case 'rows':
        return applyRows(this.previous, wire.rows as RowsDelta);
      case 'object': {
        const prev = isPlainObject(this.previous) ? this.previous : {};
        const result: Record<string, unknown> = { ...(wire.plain as Record<string, unknown>) };
        for (const [key, delta] of Object.entries(wire.rows as Record<string, RowsDelta>)) {
          result[key] = applyRows(prev[key], delta);
        }
        return result;
      }
      default:
        return wire;
    }
  }
}

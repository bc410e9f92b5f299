import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ClientServer } from '../../../src/worker/clientServer';
import type { EngineByName } from '../../../src/worker/currentEngine';
import { quietLifecycle } from './quietLifecycle';

/** `gc()` without `--expose-gc` on the command line: the heap measured is what is kept. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

const MB = 1024 * 1024;

describe('a long-lived subscription in the worker', () => {
  it('keeps nothing per value the tab took: 200,000 values of one subscription leave the heap as it was', async () => {
    const gc = collector();
    const values = new Subject<unknown>();
    const engine: EngineByName = { query: () => values, invoke: () => Promise.resolve(undefined) };
    // Every later value goes out at once (no frame's wait), so each is a call to the tab of its own.
    const host = new ClientServer({ engine, lifecycle: quietLifecycle, now: () => 0, schedule: (run) => run() });
    let taken = 0;
    const unsubscribe = host.subscribe('session', [], {
      next: () => {
        taken += 1;
        return Promise.resolve();
      },
      error: () => undefined,
      complete: () => undefined,
    });
    const send = async (count: number) => {
      for (let i = 0; i < count; i++) {
        values.next({ n: i });
        // The tab's answers settle now and then, as they would between frames.
        if (i % 1000 === 999) await new Promise((resolve) => setImmediate(resolve));
      }
      await new Promise((resolve) => setImmediate(resolve));
    };
    await send(10_000);
    gc();
    const before = process.memoryUsage().heapUsed;
    await send(200_000);
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    expect(taken).toBe(210_000);
    // Before the fix each value left a promise reaction on the subscription's end (~120 bytes: ~23 MB here).
    expect(grown / MB).toBeLessThan(4);
    unsubscribe();
  });
});

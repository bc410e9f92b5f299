import { describe, expect, it } from 'vitest';
import { BatchedWriter, PERSIST_DELAY_MS, PERSIST_STREAM_DELAY_MS } from '../../../src/engine/storage/batchedWriter';
import { MemoryStorage } from '../../../src/engine/storage/storage';
import { manualClock } from '../worker/manualClock';

/** A writer whose owner's state is one value, written under the key 'v' of `meta` when it changed. */
function setup() {
  const storage = new MemoryStorage();
  const { clock, advance } = manualClock();
  const state = { value: 0, written: 0 };
  const writer = new BatchedWriter({
    storage,
    clock,
    log: () => undefined,
    failure: 'failed',
    collect: () => {
      const value = state.value;
      if (value === state.written) return { ops: [] };
      return { ops: [{ store: 'meta', type: 'put', key: 'v', value }], written: () => (state.written = value) };
    },
  });
  return { storage, advance, state, writer, stored: () => storage.get<number>('meta', 'v') };
}

describe('the batched writer', () => {
  it('writes a burst of changes once, after the delay', async () => {
    const t = setup();
    t.state.value = 1;
    t.writer.schedule();
    t.state.value = 2;
    t.writer.schedule();
    expect(await t.stored()).toBeUndefined();
    await t.advance(PERSIST_DELAY_MS);
    // The timer alone wrote it.
    await expect.poll(() => t.stored()).toBe(2);
  });

  it('gathers a stream of changes that goes on for longer: a second of them is a handful of writes', async () => {
    const t = setup();
    // A change every 10 ms for a second (1,000 messages within a second arrive in slices like this).
    for (let ms = 0; ms < 1_000; ms += 10) {
      t.state.value += 1;
      t.writer.schedule();
      await t.advance(10);
    }
    await t.advance(PERSIST_STREAM_DELAY_MS);
    await expect.poll(() => t.stored()).toBe(t.state.value);
    // Three writes at the short delay start the stream; then one every PERSIST_STREAM_DELAY_MS.
    expect(t.storage.batches).toBeLessThanOrEqual(3 + Math.ceil(1_000 / PERSIST_STREAM_DELAY_MS));
    expect(t.storage.batches).toBeGreaterThanOrEqual(3);

    // After a pause a single change is written at the short delay again.
    await t.advance(1_000);
    const before = t.storage.batches;
    t.state.value += 1;
    t.writer.schedule();
    await t.advance(PERSIST_DELAY_MS);
    await expect.poll(() => t.stored()).toBe(t.state.value);
    expect(t.storage.batches).toBe(before + 1);
  });

  it('once stopped, schedules nothing by itself (another engine may own the store), but flush still writes', async () => {
    const t = setup();
    t.writer.stop();
    // A late answer changes the stopped engine's state: nothing is written by a timer.
    t.state.value = 7;
    t.writer.schedule();
    await t.advance(10 * PERSIST_DELAY_MS);
    expect(await t.stored()).toBeUndefined();
    // Its owner's last flush (Engine.stop) writes what changed, scheduled or not.
    await t.writer.flush();
    expect(await t.stored()).toBe(7);
  });
});

import { performance } from 'node:perf_hooks';
import { dropSlice, dropStart, type IndexPosition, TRIM_START, trimSlice } from '../../src/engine/search/indexRemoval';
import { applyChanges, REMOVAL_SLICE, SEARCH } from '../../src/engine/search/indexWriter';
import { PendingChanges } from '../../src/engine/search/pendingChanges';
import { PostingIndex, POSTINGS } from '../../src/engine/search/postingIndex';
import { queryDocs } from '../../src/engine/search/searchQuery';
import { IdbStorage } from '../../src/engine/storage/idbStorage';
import { eachMessage } from './corpus';
import { withFakeIndexedDb } from './fakeIndexedDb';
import { type Figure, figure, median } from './harness';
import type { Sizes } from './sizes';

/**
 * Issue 24's removals: a chat of 100,000 messages left (`BENCH_SEARCH_REMOVAL_MESSAGES`) and trimmed to its
 * latest 1,000, in Node over fake-indexeddb, on the search corpus. The engine takes them out 2,000 a
 * transaction (indexRemoval.ts); the baseline, in the same run, is the same drop in one transaction, as the
 * engine did before. Figures for reading: fake-indexeddb is not Chromium's IndexedDB, but the two ways are
 * measured on the same one. (The heap is not a figure: sampled, it is mostly garbage; with the heap limited to
 * 300 MB the one transaction ran out of memory, the slices did not: docs/search.md.)
 */

const CHAT = 1;
const OTHER = 2;
/** The chat that stays: one message in 100 of the corpus, so queries have something to find while the drop runs. */
const otherOf = (i: number) => (i % 100 === 0 ? OTHER : CHAT);

interface Opened {
  storage: IdbStorage;
  index: PostingIndex;
}

let databases = 0;

/** A new database holding `count` messages of the corpus, 99 in 100 in one chat, indexed as the engine does. */
async function built(count: number): Promise<Opened> {
  const storage = await IdbStorage.open({ name: `search-removal-${++databases}` });
  const index = await PostingIndex.open(storage);
  let changes = new PendingChanges();
  const write = async (taken: PendingChanges) => {
    await storage.transact([SEARCH, POSTINGS], 'readwrite', (tx) => applyChanges(tx, index, taken, Infinity));
  };
  let i = 0;
  for (const doc of eachMessage(count)) {
    const chat = otherOf(i++);
    changes.put({ ...doc, conversationId: chat, group: `chat:${chat}` });
    if (changes.puts.size === REMOVAL_SLICE) {
      await write(changes);
      changes = new PendingChanges();
    }
  }
  if (!changes.empty) await write(changes);
  return { storage, index };
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await work();
  return performance.now() - t0;
}

const percentile95 = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil(xs.length * 0.95) - 1)] ?? 0;

/** The drop in one transaction, as before slices: its time. */
async function dropWhole(count: number): Promise<number> {
  const { storage, index } = await built(count);
  try {
    await storage.transact([POSTINGS], 'readwrite', async (tx) => index.startDrop(tx, CHAT));
    return await timed(() => storage.transact([SEARCH, POSTINGS], 'readwrite', (tx) => dropSlice(tx, index, CHAT, dropStart(CHAT), count)));
  } finally {
    storage.close();
  }
}

/** The drop a slice at a time, a two-word query of the other chat between slices. */
async function dropSliced(count: number) {
  const { storage, index } = await built(count);
  try {
    await storage.transact([POSTINGS], 'readwrite', async (tx) => index.startDrop(tx, CHAT));
    const slices: number[] = [];
    const queries: number[] = [];
    const ms = await timed(async () => {
      let at: IndexPosition | null = dropStart(CHAT);
      while (at) {
        const from: IndexPosition = at;
        const t0 = performance.now();
        at = await storage.transact([SEARCH, POSTINGS], 'readwrite', (tx) => dropSlice(tx, index, CHAT, from, REMOVAL_SLICE));
        slices.push(performance.now() - t0);
        const q0 = performance.now();
        await queryDocs(storage, index, 'ka fe', 50);
        queries.push(performance.now() - q0);
      }
      index.dropEnded(CHAT);
    });
    return { slices, queries, ms };
  } finally {
    storage.close();
  }
}

/** The trim to the latest 1,000 of every chat, a slice at a time. */
async function trimSliced(count: number) {
  const { storage, index } = await built(count);
  try {
    const slices: number[] = [];
    const ms = await timed(async () => {
      let at: IndexPosition | null = TRIM_START;
      while (at) {
        const from: IndexPosition = at;
        const t0 = performance.now();
        at = (await storage.transact([SEARCH, POSTINGS], 'readwrite', (tx) => trimSlice(tx, index, 1000, from, REMOVAL_SLICE))).next;
        slices.push(performance.now() - t0);
      }
    });
    return { slices, ms };
  } finally {
    storage.close();
  }
}

export async function searchRemovalBench(sizes: Sizes, log: (line: string) => void): Promise<Figure[]> {
  const count = sizes.searchRemovalMessages;
  return withFakeIndexedDb(async () => {
    const whole = await dropWhole(count);
    log(`search-removal: one transaction ${Math.round(whole)} ms`);
    const drop = await dropSliced(count);
    log(`search-removal: ${drop.slices.length} slices, ${Math.round(drop.ms)} ms`);
    const trim = await trimSliced(count);
    const f = (name: string, unit: string, runs: readonly number[], baseRuns: readonly number[] | null, note: string) =>
      figure({
        benchmark: 'search-removal',
        name: `search-removal: ${name}, ${count} messages`,
        unit,
        runs,
        ...(baseRuns ? { baseline: { name: 'the chat\'s messages out in one transaction (before)', runs: baseRuns } } : {}),
        note,
      });
    return [
      f('longest transaction of leaving a chat', 'ms', [Math.max(...drop.slices)], [whole], `for reading: slices of ${REMOVAL_SLICE} (median ${Math.round(median(drop.slices))} ms); every query and write waits behind the transaction`),
      f('leaving a chat, in all', 'ms', [drop.ms], [whole], `for reading: ${drop.slices.length} slices, with a query between each two`),
      f('p95 of a two-word query between the slices of leaving a chat', 'ms', [percentile95(drop.queries)], null, 'for reading: the chat being left is out of the answer through its marks (its documents still in the lists)'),
      f('longest transaction of trimming a chat to its latest 1,000', 'ms', [Math.max(...trim.slices)], [whole], `for reading: ${trim.slices.length} slices (median ${Math.round(median(trim.slices))} ms), ${Math.round(trim.ms)} ms in all`),
    ];
  });
}

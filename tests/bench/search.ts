import { performance } from 'node:perf_hooks';
import type { SearchDoc } from '../../src/engine/search/documents';
import { messages, queries } from './corpus';
import { SearchIndex } from '../../src/engine/search/searchIndex';
import { buildSnippet } from '../../src/engine/search/snippet';
import { type Figure, figure, median, repeat } from './harness';
import type { Sizes } from './sizes';

/**
 * Issue 13's worker figures: the engine's own index code (src/engine/search) in Node over generated
 * messages, as the worker holds them. Time to first results is a two-word query (the last word typed part
 * way) with its 50 hits' snippets; its baseline is the same over a small index. The main-thread half of the
 * target (long tasks while typing in the chats-list search box) needs Chromium and is not measured here.
 */

// The corpus moved to corpus.ts (shared with search-scale); kept importable from here for searchTyping and export.
export { messages, queries };

function built(docs: readonly SearchDoc[]): { index: SearchIndex; ms: number } {
  const index = new SearchIndex();
  const t0 = performance.now();
  for (const doc of docs) index.upsert(doc);
  return { index, ms: performance.now() - t0 };
}

const QUERIES = queries(20);
/** The worst case: two of the 20 most common words, which match a large part of everything. */
const COMMON_QUERIES = queries(20, 0, 20);

/** The median time of the queries above, each answered with its 50 hits' snippets, after a warm-up. */
function queryMs(index: SearchIndex, list = QUERIES): number {
  const answer = (q: string) => index.search(q, { limit: 50 }).map((h) => buildSnippet(h.doc.text, h.terms));
  for (const q of list) answer(q);
  const times = list.map((q) => {
    const t0 = performance.now();
    answer(q);
    return performance.now() - t0;
  });
  return median(times);
}

export async function searchBench(sizes: Sizes): Promise<Figure[]> {
  const big = messages(sizes.searchMessages);
  const small = messages(sizes.searchBaselineMessages);
  const incoming = messages(1000, 2).map((d) => ({ ...d, key: `m:${d.id + 10_000_000}`, id: d.id + 10_000_000 }));
  const runs = await repeat(sizes.runs, async () => {
    const bigIndex = built(big);
    const smallIndex = built(small);
    const first = queryMs(bigIndex.index);
    const baseline = queryMs(smallIndex.index);
    const common = queryMs(bigIndex.index, COMMON_QUERIES);
    const commonBaseline = queryMs(smallIndex.index, COMMON_QUERIES);
    const t0 = performance.now();
    for (const doc of incoming) bigIndex.index.upsert(doc);
    const indexing = performance.now() - t0;
    return { first, baseline, common, commonBaseline, build: bigIndex.ms, buildSmall: smallIndex.ms, indexing };
  });
  return [
    figure({
      benchmark: 'search',
      name: `search: first results of a two-word query, ${sizes.searchMessages} messages (worker)`,
      unit: 'ms',
      runs: runs.map((r) => r.first),
      baseline: { name: `the same, ${sizes.searchBaselineMessages} messages`, runs: runs.map((r) => r.baseline) },
      target: { of: 'value', op: '<=', bound: 50 },
      note: 'the engine index (MiniSearch) in Node: the median of 20 two-word queries (Zipf text of a 20,000-word vocabulary), the last word a 3-letter prefix, with 50 hits and snippets',
    }),
    figure({
      benchmark: 'search',
      name: `search: the same with two of the 20 most common words, ${sizes.searchMessages} messages (worker)`,
      unit: 'ms',
      runs: runs.map((r) => r.common),
      baseline: { name: `the same, ${sizes.searchBaselineMessages} messages`, runs: runs.map((r) => r.commonBaseline) },
      note: 'for reading: the worst case, words found in a large part of all messages',
    }),
    figure({
      benchmark: 'search',
      name: `search: indexing 1,000 incoming messages into ${sizes.searchMessages} (worker)`,
      unit: 'ms',
      runs: runs.map((r) => r.indexing),
      note: 'for reading: worker time, one message at a time as the socket brings them',
    }),
    figure({
      benchmark: 'search',
      name: `search: rebuilding the index of ${sizes.searchMessages} messages at start (worker)`,
      unit: 'ms',
      runs: runs.map((r) => r.build),
      baseline: { name: `the same, ${sizes.searchBaselineMessages} messages`, runs: runs.map((r) => r.buildSmall) },
      note: 'for reading: done in slices of 2,000, the worker answering between them (complete: false meanwhile)',
    }),
  ];
}

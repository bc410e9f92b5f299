import type { IndexKey, StoreTx } from '../storage/storage';
import { chatOf, groupOf, type StoredDoc } from './documents';
import { SEARCH } from './indexWriter';
import { BUILT_KEY, type PostingIndex } from './postingIndex';

/** Where the build starts: before every document in the store's `time` index. */
export const BUILD_START: IndexKey = [];

/**
 * One slice of the one-time build (issue 24): the next `count` stored documents oldest first (the `time`
 * index, so their numbers follow time) that have no number yet are indexed and stored with it. Returns
 * where the next slice starts, or null when this was the last (then the build is marked done).
 */
export async function buildSlice(tx: StoreTx, index: PostingIndex, after: IndexKey, count: number): Promise<IndexKey | null> {
  const keys = await tx.indexKeys(SEARCH, 'time', after, [[]], count);
  const read = await Promise.all(keys.map((key) => tx.get<StoredDoc>(SEARCH, key)));
  const docs = read.filter((d): d is StoredDoc => d !== undefined && typeof d.text === 'string');
  // One indexed since the build began (it arrived or changed meanwhile) has its number already; one of a chat
  // being dropped is left to the drop.
  const fresh = docs.filter((d) => !index.holds(d.docNo) && !index.isDropped(chatOf(d), d.docNo));
  const numbers = await index.add(
    tx,
    fresh.map((d) => ({ key: d.key, chat: chatOf(d), text: d.text })),
  );
  fresh.forEach((d, i) => tx.put(SEARCH, d.key, { ...d, group: groupOf(d), docNo: numbers[i] }));
  const last = read[read.length - 1];
  if (keys.length < count || !last) {
    tx.put('meta', BUILT_KEY, true);
    return null;
  }
  // Just after the last one: the index's keys end with the document key, so a key plus NUL is the next.
  return [last.createdAt, last.id, `${last.key}\u0000`];
}

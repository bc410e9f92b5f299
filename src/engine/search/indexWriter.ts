import type { StoreTx } from '../storage/storage';
import { chatOf, groupOf, groupRange, sameDoc, type SearchDoc, type StoredDoc } from './documents';
import type { PendingChanges } from './pendingChanges';
import type { PostingIndex } from './postingIndex';

/** The store of the documents (their text, for hits and snippets; their number in the index). */
export const SEARCH = 'search';

/** Documents a removal takes in one transaction (a chat left, history trimmed): the worker answers between. */
export const REMOVAL_SLICE = 2000;

const indexed = (doc: SearchDoc) => ({ key: doc.key, chat: chatOf(doc), text: doc.text });

/** What a write did: whether answers changed, and whether a chat it grew still holds more than is kept. */
export interface Applied {
  changed: boolean;
  untrimmed: boolean;
}

/**
 * Writes the changes into the documents and the index, in the caller's transaction (over `search` and
 * `postings`), so the two never disagree. A chat left is only marked here (it leaves every answer at once);
 * its documents go in slices (indexRemoval.ts), as do more than a slice of a chat's history to trim.
 */
export async function applyChanges(tx: StoreTx, index: PostingIndex, changes: PendingChanges, kept: number): Promise<Applied> {
  const removed = new Set(changes.drops);
  for (const stid of changes.stids) for (const key of await tx.indexKeys(SEARCH, 'stid', stid, stid)) removed.add(key);
  for (const group of changes.groups) index.startDrop(tx, groupRange(group).lower[0]);
  const puts = new Map<string, SearchDoc>();
  for (const [channelId, communityId] of changes.channels) {
    for (const doc of await docsOf(tx, `chat:${channelId}`)) {
      // One going in this write stays gone (a delete of it came with the channel), as does one of a chat
      // being dropped (it would come back as a post, numbered above the mark).
      if (doc.kind !== 'message' || removed.has(doc.key) || index.isDropped(chatOf(doc), doc.docNo)) continue;
      const post = { ...doc, kind: 'post' as const, conversationId: null, channelId, communityId };
      puts.set(doc.key, { ...post, group: groupOf(post) });
    }
  }
  // What came after a delete of its stid or chat (pendingChanges keeps only the later) stays.
  for (const [key, doc] of changes.puts) {
    puts.set(key, doc);
    removed.delete(key);
  }
  const droppedAny = await removeDocs(tx, index, [...removed]);
  const groups = await putDocs(tx, index, [...puts.values()]);
  let trimmed = false;
  let untrimmed = false;
  if (kept !== Infinity) {
    for (const group of groups) {
      const trim = await trimGroup(tx, index, group, kept, REMOVAL_SLICE);
      trimmed ||= trim.removed > 0;
      untrimmed ||= trim.left > 0;
    }
  }
  return { changed: changes.groups.size > 0 || droppedAny || groups.size > 0 || trimmed, untrimmed };
}

async function docsOf(tx: StoreTx, group: string): Promise<StoredDoc[]> {
  const { index: by, lower, upper } = groupRange(group);
  const keys = await tx.indexKeys(SEARCH, by, lower, upper);
  const docs = await Promise.all(keys.map((key) => tx.get<StoredDoc>(SEARCH, key)));
  return docs.filter((d): d is StoredDoc => d !== undefined);
}

/** Takes documents out of the store and the index; returns whether any was there. */
export async function removeDocs(tx: StoreTx, index: PostingIndex, keys: readonly string[]): Promise<boolean> {
  const docs = await Promise.all(keys.map((key) => tx.get<StoredDoc>(SEARCH, key)));
  const found = docs.filter((d): d is StoredDoc => d !== undefined);
  await removeStored(tx, index, found);
  return found.length > 0;
}

/** Takes documents read in this transaction out of the store and the index. */
export async function removeStored(tx: StoreTx, index: PostingIndex, docs: readonly StoredDoc[]): Promise<void> {
  await index.remove(
    tx,
    docs.filter((d) => index.holds(d.docNo)).map((d) => ({ docNo: d.docNo as number, text: d.text })),
  );
  for (const doc of docs) tx.delete(SEARCH, doc.key);
}

/**
 * Adds or replaces documents: an edit keeps its number (its place in time), only its changed words move;
 * a new one is numbered after all. Returns the groups that changed.
 */
async function putDocs(tx: StoreTx, index: PostingIndex, docs: readonly SearchDoc[]): Promise<Set<string>> {
  const olds = await Promise.all(docs.map((doc) => tx.get<StoredDoc>(SEARCH, doc.key)));
  const fresh: SearchDoc[] = [];
  const groups = new Set<string>();
  for (const [i, doc] of docs.entries()) {
    const old = olds[i];
    // Of a chat being dropped (left, then joined again): the old one goes now, and this one is numbered anew,
    // above the drop's mark, so the drop leaves it.
    if (old !== undefined && index.isDropped(chatOf(old), old.docNo)) {
      await removeStored(tx, index, [old]);
      fresh.push(doc);
      continue;
    }
    // Stored by an older build and not changed: the one-time build numbers it in its place in time. Numbered
    // now (the restored state's messages come through here at every start), the newest messages would rank
    // below the older history the build numbers after them, for good.
    if (old !== undefined && !index.holds(old.docNo) && sameDoc(old, doc)) continue;
    if (old === undefined || !index.holds(old.docNo)) {
      // Never indexed (new, or stored before the index and not yet reached by its one-time build).
      fresh.push(doc);
      continue;
    }
    if (sameDoc(old, doc)) continue;
    await index.replace(tx, old.docNo, old.text, doc.text, chatOf(doc));
    tx.put(SEARCH, doc.key, { ...doc, docNo: old.docNo });
    groups.add(doc.group);
  }
  const numbers = await index.add(tx, fresh.map(indexed));
  fresh.forEach((doc, i) => {
    tx.put(SEARCH, doc.key, { ...doc, docNo: numbers[i] });
    groups.add(doc.group);
  });
  return groups;
}

/**
 * Keeps a chat's latest `kept` documents (by time, then id), taking at most `max` of the oldest of the rest:
 * how many went and about how many are left to go. `excess`, what a slice before counted, saves counting a
 * large chat again at every slice; it may be more than is there now (deletes, a drop meanwhile), so the
 * oldest `kept` more keys are read with the ones to take and the latest `kept` of them always stay.
 */
export async function trimGroup(
  tx: StoreTx,
  index: PostingIndex,
  group: string,
  kept: number,
  max: number,
  excess?: number,
): Promise<{ removed: number; left: number }> {
  const { index: by, lower, upper } = groupRange(group);
  const over = excess ?? (await tx.indexCount(SEARCH, by, lower, upper)) - kept;
  if (over <= 0) return { removed: 0, left: 0 };
  const asked = Math.min(over, max) + kept;
  const keys = await tx.indexKeys(SEARCH, by, lower, upper, asked);
  const gone = keys.slice(0, Math.max(0, keys.length - kept));
  await removeDocs(tx, index, gone);
  // Fewer than asked: the chat is down to `kept`.
  return { removed: gone.length, left: keys.length < asked ? 0 : over - gone.length };
}

import type { IndexKey, StoreTx } from '../storage/storage';
import { chatOf, groupOf, groupRange, sameDoc, type SearchDoc, type StoredDoc } from './documents';
import type { PendingChanges } from './pendingChanges';
import type { PostingIndex } from './postingIndex';

/** The store of the documents (their text, for hits and snippets; their number in the index). */
export const SEARCH = 'search';

const indexed = (doc: SearchDoc) => ({ key: doc.key, chat: chatOf(doc), text: doc.text });

/**
 * Writes the changes into the documents and the index, in the caller's transaction (over `search` and
 * `postings`), so the two never disagree. Returns whether anything changed.
 */
export async function applyChanges(tx: StoreTx, index: PostingIndex, changes: PendingChanges, kept: number): Promise<boolean> {
  const removed = new Set(changes.drops);
  for (const stid of changes.stids) for (const key of await tx.indexKeys(SEARCH, 'stid', stid, stid)) removed.add(key);
  for (const group of changes.groups) {
    const { index: by, lower, upper } = groupRange(group);
    for (const key of await tx.indexKeys(SEARCH, by, lower, upper)) removed.add(key);
  }
  const puts = new Map<string, SearchDoc>();
  for (const [channelId, communityId] of changes.channels) {
    for (const doc of await docsOf(tx, `chat:${channelId}`)) {
      // One going in this write stays gone (a delete of it came with the channel).
      if (doc.kind !== 'message' || removed.has(doc.key)) continue;
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
  if (kept !== Infinity) for (const group of groups) trimmed = (await trimGroup(tx, index, group, kept)) || trimmed;
  return droppedAny || groups.size > 0 || trimmed;
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
  await index.remove(
    tx,
    found.filter((d) => index.holds(d.docNo)).map((d) => ({ docNo: d.docNo as number, text: d.text })),
  );
  for (const doc of found) tx.delete(SEARCH, doc.key);
  return found.length > 0;
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

/** Keeps a chat's latest `kept` documents (by time, then id); returns whether any went. */
async function trimGroup(tx: StoreTx, index: PostingIndex, group: string, kept: number): Promise<boolean> {
  const { index: by, lower, upper } = groupRange(group);
  const count = await tx.indexCount(SEARCH, by, lower, upper);
  if (count <= kept) return false;
  return removeDocs(tx, index, await tx.indexKeys(SEARCH, by, lower, upper, count - kept));
}

/** A smaller choice of what is kept trims every chat and channel: each group found through the indexes. */
export async function trimAll(tx: StoreTx, index: PostingIndex, kept: number): Promise<boolean> {
  let trimmed = false;
  for (const by of ['chat', 'channel'] as const) {
    let after: IndexKey = [];
    for (;;) {
      const [key] = await tx.indexKeys(SEARCH, by, after, [[]], 1);
      const doc = key === undefined ? undefined : await tx.get<StoredDoc>(SEARCH, key);
      if (!doc) break;
      // groupOf, not doc.group: a document stored by version 5 has no group.
      const group = groupOf(doc);
      trimmed = (await trimGroup(tx, index, group, kept)) || trimmed;
      after = groupRange(group).upper;
    }
  }
  return trimmed;
}

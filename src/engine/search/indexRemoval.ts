import type { IndexKey, StoreTx } from '../storage/storage';
import { groupOf, groupRange, type StoredDoc } from './documents';
import { removeStored, SEARCH, trimGroup } from './indexWriter';
import type { PostingIndex } from './postingIndex';

/**
 * Removals too big for one transaction (issue 24: a chat of 1,000,000 messages left, or trimmed to its latest
 * 1,000), done a slice at a time like the one-time build: for 100,000 documents in Node one transaction took
 * 25–34 s, every query waited for it, and with the heap limited to 300 MB it ran out of memory.
 */

/** Where a removal goes on: a position in the store's `chat` or `channel` index (IndexKey order). */
export interface IndexPosition {
  by: 'chat' | 'channel';
  after: IndexKey;
  /** A trim: what `group` (the one found first from `after`, if still there) has still to lose, as counted. */
  excess?: number;
  group?: string;
}

/** Chats (groups) a trim slice looks at at most: each costs a count and a read. */
const GROUPS_A_SLICE = 100;

/** Where a drop of `chat` starts: its messages, then its posts and comments (a channel has the same id). */
export const dropStart = (chat: number): IndexPosition => ({ by: 'chat', after: [chat] });

/**
 * One slice of dropping a chat (PostingIndex.startDrop marked it): up to `count` of its documents from `from`
 * on, those the drop takes (numbered before its mark); ones indexed since it (the chat joined again) stay.
 * Returns where the next slice goes on, or null when this was the last (its mark is then deleted; the
 * caller forgets it once the transaction is in: `PostingIndex.dropEnded`).
 */
export async function dropSlice(tx: StoreTx, index: PostingIndex, chat: number, from: IndexPosition, count: number): Promise<IndexPosition | null> {
  let at = from;
  let budget = count;
  for (;;) {
    const keys = await tx.indexKeys(SEARCH, at.by, at.after, [chat, []], budget);
    const docs = (await Promise.all(keys.map((key) => tx.get<StoredDoc>(SEARCH, key)))).filter((d): d is StoredDoc => d !== undefined);
    await removeStored(
      tx,
      index,
      docs.filter((d) => index.isDropped(chat, d.docNo)),
    );
    const last = docs[docs.length - 1];
    // From the last one on (what went is gone; a post and a comment may share its time and id).
    if (keys.length === budget && last) return { by: at.by, after: [chat, last.createdAt, last.id] };
    budget -= keys.length;
    if (at.by === 'channel') break;
    at = { by: 'channel', after: [chat] };
  }
  index.endDrop(tx, chat);
  return null;
}

/** Where a trim of every chat and channel starts. */
export const TRIM_START: IndexPosition = { by: 'chat', after: [] };

/**
 * One slice of trimming every chat and channel to its latest `kept`: at most `count` documents go, from the
 * group at `from` on. Returns where the next slice goes on (null when every group is within `kept`) and
 * whether any document went.
 */
export async function trimSlice(
  tx: StoreTx,
  index: PostingIndex,
  kept: number,
  from: IndexPosition,
  count: number,
): Promise<{ next: IndexPosition | null; removed: boolean }> {
  let { by, after } = from;
  let budget = count;
  let removed = false;
  for (let groups = 0; groups < GROUPS_A_SLICE; groups++) {
    const [key] = await tx.indexKeys(SEARCH, by, after, [[]], 1);
    const doc = key === undefined ? undefined : await tx.get<StoredDoc>(SEARCH, key);
    if (!doc) {
      if (by === 'channel') return { next: null, removed };
      by = 'channel';
      after = [];
      continue;
    }
    // groupOf, not doc.group: a document stored by version 5 has no group.
    const group = groupOf(doc);
    const trim = await trimGroup(tx, index, group, kept, budget, groups === 0 && from.group === group ? from.excess : undefined);
    removed ||= trim.removed > 0;
    budget -= trim.removed;
    // The same group again while it has more to go; else the next one.
    if (trim.left > 0) return { next: { by, after: groupRange(group).lower, excess: trim.left, group }, removed };
    after = groupRange(group).upper;
    if (budget === 0) break;
  }
  return { next: { by, after }, removed };
}

import type { Channel, Community, Conversation, Message, Participant } from '../../protocol/entities';
import type { EngineState, MessageWindow, ReceiptMarks, UnreadRecord } from '../state/types';
import { getMessage, indexMessages, pruneSentReceipts } from '../state';
import { initialState } from '../state/types';
import type { EngineStorage, StorageOp, StoreName } from './storage';

/** Only the latest messages of each conversation are cached across reloads; older pages reload from the server. */
export const CACHED_MESSAGES_PER_CONVERSATION = 50;

interface Meta {
  selfId: number | null;
  lastEventId: number;
  epoch: string;
}

/**
 * The communities' record: key 'state' of the `communities` store, in the shape the communities store of
 * builds before issue 22 wrote (`listIds` is the state's `communityIds`), so this build reads what they left,
 * and an older build taken back to (a rollback) reads what this one wrote. The search and the comment threads
 * are not kept: they reload when shown.
 */
export const COMMUNITIES_KEY = 'state';

interface StoredCommunities {
  communities: Readonly<Record<number, Community>>;
  listIds: readonly number[] | null;
  channels: Readonly<Record<number, Channel>>;
  channelIds: Readonly<Record<number, readonly number[]>>;
  participants: Readonly<Record<number, Participant>>;
}

const sameCommunities = (a: EngineState, b: EngineState) =>
  a.communities === b.communities &&
  a.communityIds === b.communityIds &&
  a.channels === b.channels &&
  a.channelIds === b.channelIds &&
  a.participants === b.participants;

const noCommunities = (s: EngineState) =>
  s.communityIds === null &&
  [s.communities, s.channels, s.channelIds, s.participants].every((record) => Object.keys(record).length === 0);

/** The communities' record when it changed: one record, as they change rarely and are few. */
function communityOps(prev: EngineState, next: EngineState): StorageOp[] {
  if (sameCommunities(prev, next) || (noCommunities(prev) && noCommunities(next))) return [];
  // Nothing to keep (a sign-out, a new account): no record, rather than an empty one.
  if (noCommunities(next)) return [{ store: 'communities', type: 'delete', key: COMMUNITIES_KEY }];
  const value: StoredCommunities = {
    communities: next.communities,
    listIds: next.communityIds,
    channels: next.channels,
    channelIds: next.channelIds,
    participants: next.participants,
  };
  return [{ store: 'communities', type: 'put', key: COMMUNITIES_KEY, value }];
}

function diffRecord<V>(store: StoreName, prev: Readonly<Record<number, V>>, next: Readonly<Record<number, V>>): StorageOp[] {
  if (prev === next) return [];
  const ops: StorageOp[] = [];
  for (const [key, value] of Object.entries(next)) {
    if ((prev as Record<string, V>)[key] !== value) ops.push({ store, type: 'put', key, value });
  }
  for (const key of Object.keys(prev)) {
    if (!(key in next)) ops.push({ store, type: 'delete', key });
  }
  return ops;
}

/** Trims each window to its latest messages, so the cache stays small however far back the user scrolled. */
function cachedWindows(windows: Readonly<Record<number, MessageWindow>>): Record<number, MessageWindow> {
  const result: Record<number, MessageWindow> = {};
  for (const [id, w] of Object.entries(windows)) {
    const trimmed = w.ids.length > CACHED_MESSAGES_PER_CONVERSATION;
    result[Number(id)] = trimmed
      ? { ids: w.ids.slice(-CACHED_MESSAGES_PER_CONVERSATION), hasOlder: true }
      : { ids: [...w.ids], hasOlder: w.hasOlder };
  }
  return result;
}

/**
 * The storage writes that take `prev` to `next`. Slices are compared by reference (the reducer returns the
 * same object for what it did not touch), so a burst of events becomes one small batch. The event id
 * changes with every event, so it lives in a small record of its own; windows and receipt keys are
 * written only when they change.
 */
export function persistOps(prev: EngineState, next: EngineState): StorageOp[] {
  if (prev === next) return [];
  const ops: StorageOp[] = [
    ...diffRecord('conversations', prev.conversations, next.conversations),
    ...diffRecord('unread', prev.unread, next.unread),
    ...diffRecord('receipts', prev.receipts, next.receipts),
    ...communityOps(prev, next),
  ];
  if (prev.messages !== next.messages || prev.windows !== next.windows) {
    const nextCached = cachedWindows(next.windows);
    const prevCached = cachedWindows(prev.windows);
    for (const [cid, w] of Object.entries(nextCached)) {
      const conversationId = Number(cid);
      if (next.messages[conversationId] === prev.messages[conversationId] && next.windows[conversationId] === prev.windows[conversationId]) {
        continue;
      }
      const before = new Set(prevCached[conversationId]?.ids ?? []);
      for (const id of w.ids) {
        const message = getMessage(next, conversationId, id);
        if (message && (!before.has(id) || getMessage(prev, conversationId, id) !== message)) {
          ops.push({ store: 'messages', type: 'put', key: String(id), value: message });
        }
      }
    }
    for (const [cid, w] of Object.entries(prevCached)) {
      const keep = new Set(nextCached[Number(cid)]?.ids ?? []);
      for (const id of w.ids) if (!keep.has(id)) ops.push({ store: 'messages', type: 'delete', key: String(id) });
    }
  }
  if (prev.windows !== next.windows) {
    ops.push({ store: 'meta', type: 'put', key: 'windows', value: cachedWindows(next.windows) });
  }
  if (prev.sentReceipts !== next.sentReceipts) {
    ops.push({ store: 'meta', type: 'put', key: 'sentReceipts', value: { ...next.sentReceipts } });
  }
  if (prev.selfId !== next.selfId || prev.lastEventId !== next.lastEventId || prev.epoch !== next.epoch) {
    const meta: Meta = { selfId: next.selfId, lastEventId: next.lastEventId, epoch: next.epoch };
    ops.push({ store: 'meta', type: 'put', key: 'state', value: meta });
  }
  return ops;
}

/** The state as it was last persisted: what a reload shows before the network answers. */
export async function loadState(storage: EngineStorage): Promise<EngineState> {
  const [meta, kept] = await Promise.all([
    storage.get<Meta>('meta', 'state'),
    storage.get<Partial<StoredCommunities>>('communities', COMMUNITIES_KEY),
  ]);
  // Kept apart from `meta`, so they are read whether or not the rest of the state was written yet.
  const communities: Partial<EngineState> = kept
    ? {
        communities: kept.communities ?? {},
        communityIds: kept.listIds ?? null,
        channels: kept.channels ?? {},
        channelIds: kept.channelIds ?? {},
        participants: kept.participants ?? {},
      }
    : {};
  if (!meta) return { ...initialState(), ...communities };
  const byId = <V>(rows: { key: string; value: V }[]) =>
    Object.fromEntries(rows.map((r) => [Number(r.key), r.value])) as Record<number, V>;
  const [conversations, messages, unread, receipts, storedWindows, sentReceipts] = await Promise.all([
    storage.getAll<Conversation>('conversations'),
    storage.getAll<Message>('messages'),
    storage.getAll<UnreadRecord>('unread'),
    storage.getAll<ReceiptMarks>('receipts'),
    storage.get<Record<number, MessageWindow>>('meta', 'windows'),
    storage.get<Record<string, true>>('meta', 'sentReceipts'),
  ]);
  const stored = new Set(messages.map((m) => Number(m.key)));
  // A window only lists messages that made it to storage.
  const windows: Record<number, MessageWindow> = {};
  for (const [id, w] of Object.entries(storedWindows ?? {})) {
    windows[Number(id)] = { ids: w.ids.filter((m) => stored.has(m)), hasOlder: w.hasOlder };
  }
  const unreadRecords = byId(unread);
  return {
    ...initialState(),
    selfId: meta.selfId,
    lastEventId: meta.lastEventId,
    epoch: meta.epoch,
    sentReceipts: pruneSentReceipts(sentReceipts ?? {}, unreadRecords),
    conversations: byId(conversations),
    messages: indexMessages(messages.map((m) => m.value)),
    windows,
    unread: unreadRecords,
    receipts: byId(receipts),
    ...communities,
  };
}

/** The meta records of the state, deleted at sign-out (meta also holds what outlives a session). */
export const STATE_META_KEYS: readonly string[] = ['state', 'windows', 'sentReceipts', 'pendingReceipts'];

/** The stores of the state, its search index and its trimmed history, cleared at sign-out (`meta` records go on their own). */
export const STATE_STORES: readonly StoreName[] = [
  'conversations',
  'messages',
  'unread',
  'receipts',
  'communities',
  'history',
  'search',
  'postings',
];

/** Spec §4: what sign-out clears, the stored session and everything of the account's state. */
export function signOutOps(): StorageOp[] {
  return [
    { store: 'session', type: 'clear' },
    ...STATE_STORES.map((store): StorageOp => ({ store, type: 'clear' })),
    // meta also holds the host overrides of the debug screen and the language, which outlive a session.
    ...STATE_META_KEYS.map((key): StorageOp => ({ store: 'meta', type: 'delete', key })),
  ];
}

import { describe, expect, it } from 'vitest';
import type { MessageSearchView } from '../../../src/engine/api';
import { BUILD_SLICE, MessageSearch, SEARCH_RETRY_MS, SEARCH_SETTLE_MS, SEARCH_STREAM_DELAY_MS, SEARCH_WRITE_DELAY_MS } from '../../../src/engine/search/messageSearch';
import { LiveState } from '../../../src/engine/state/liveState';
import { MemoryStorage } from '../../../src/engine/storage/storage';
import { messageDoc } from '../../../src/engine/search/documents';
import type { Channel, Comment } from '../../../src/protocol/entities';
import { SEARCH_RERUN_MS } from '../../../src/engine/search/watchedQuery';
import { REMOVAL_SLICE } from '../../../src/engine/search/indexWriter';
import { frame, listed, message, SELF } from './state.fixtures';
import { ManualEngineClock } from './support/fakeEngine';

/** The real state and index on a hand-moved clock and a Map store: the search as the engine wires it. */
function parts(storage: MemoryStorage, clock: ManualEngineClock) {
  const state = new LiveState({
    storage,
    clock,
    log: () => undefined,
    openConversations: () => new Set(),
    extraOps: () => ({ ops: [] }),
    onEffect: () => undefined,
  });
  const search = new MessageSearch({ storage, clock, log: () => undefined, state });
  return { state, search };
}

/** A new engine's search over a store an older build left (documents without numbers), signed in, before its build. */
async function startedOn(storage: MemoryStorage) {
  const clock = new ManualEngineClock();
  const { state, search } = parts(storage, clock);
  await search.load();
  state.dispatch({ type: 'signedIn', selfId: SELF });
  expect(await search.view('stored')).toMatchObject({ complete: false, hits: [] });
  return { clock, state, search };
}

async function setup(storage = new MemoryStorage(), clock = new ManualEngineClock()) {
  const { state, search } = parts(storage, clock);
  await search.load();
  state.dispatch({ type: 'signedIn', selfId: SELF });
  state.dispatch({ type: 'conversationsLoaded', conversations: [listed(10, null), listed(11, null)] });
  /** The hits once what was dispatched so far is in the index. */
  const view = async (query: string, options: { conversationId?: number; limit?: number } = {}) => {
    await search.settled();
    return search.view(query, options);
  };
  const ids = async (query: string, conversationId?: number) =>
    (await view(query, conversationId === undefined ? {} : { conversationId })).hits.map((h) => h.id);
  return { storage, clock, state, search, ids, view };
}

const page = (conversationId: number, ...texts: [number, string][]) => ({
  type: 'messagesLoaded' as const,
  conversationId,
  messages: texts.map(([id, text]) => message(id, { conversation_id: conversationId, message: text })),
  older: false,
  pageSize: 50,
});

/**
 * A Map store whose next `failures` transactions that `fails` picks are refused (an aborted transaction, a
 * full disk, a store being closed); the rest go through.
 */
class FailingStorage extends MemoryStorage {
  failures = 0;
  constructor(private readonly fails: (stores: readonly string[], mode: string) => boolean) {
    super();
  }

  override transact<T>(...args: Parameters<MemoryStorage['transact']>): Promise<T> {
    if (this.failures > 0 && this.fails(args[0], args[1])) {
      this.failures -= 1;
      return Promise.reject(new Error('QuotaExceededError'));
    }
    return super.transact(...(args as [never, never, never]));
  }
}

/** Documents as the MiniSearch build (version 5) stored them: no number and no `group`. */
async function storedByVersion5(storage: MemoryStorage, docs: { id: number; chat: number; text: string }[]) {
  await storage.writeBatch(
    docs.map(({ id, chat, text }) => {
      const { group: _group, ...doc } = messageDoc(message(id, { conversation_id: chat, message: text }), undefined)!;
      return { store: 'search' as const, type: 'put' as const, key: doc.key, value: doc };
    }),
  );
}

async function built(search: MessageSearch, clock: ManualEngineClock) {
  await expect
    .poll(async () => {
      await clock.advance(SEARCH_WRITE_DELAY_MS);
      return (await search.view('x')).complete;
    })
    .toBe(true);
}

/** A new engine's search over `storage`, signed in with chats 10 and 11, having just left 11. */
async function startedAndLeft11(storage: MemoryStorage) {
  const clock = new ManualEngineClock();
  const { state, search } = parts(storage, clock);
  await search.load();
  state.dispatch({ type: 'signedIn', selfId: SELF });
  state.dispatch({ type: 'conversationsLoaded', conversations: [listed(10, null), listed(11, null)] });
  state.dispatch(frame('conversation_removed_user', { conversation_id: 11, user_id: SELF }));
  await search.settled();
  return { clock, search };
}

describe('message search over the engine state', () => {
  it('indexes loaded and incoming messages, with the chat, the sender and a marked snippet', async () => {
    const { state, ids, view } = await setup();
    state.dispatch(page(10, [1, 'Vi ses på Kafé Ängeln'], [2, 'ok']));
    state.dispatch(frame('conversation_message', { conversation_id: 11, message: message(5, { conversation_id: 11, message: 'kafe again' }) }));
    expect((await ids('kafe')).sort()).toEqual([1, 5]);
    expect(await ids('kafe', 11)).toEqual([5]);
    const [hit] = (await view('angeln')).hits;
    expect(hit).toMatchObject({ kind: 'message', conversationId: 10, id: 1, title: 'chat 10', senderName: 'user 2', channelId: null });
    expect(hit?.snippet).toEqual([
      { text: 'Vi ses på Kafé ', match: false },
      { text: 'Ängeln', match: true },
    ]);
  });

  it('marks the user’s own messages and comments, so their rows say "You" (issue 23)', async () => {
    const { state, view } = await setup();
    state.dispatch({
      type: 'messagesLoaded',
      conversationId: 10,
      messages: [message(1, { conversation_id: 10, message: 'mine here' }), message(2, { conversation_id: 10, user_id: SELF, message: 'mine too' })],
      older: false,
      pageSize: 50,
    });
    const comment = { comment_id: 99, post_id: 20, parent_comment_id: null, channel_id: 50, user_id: SELF, message: 'mine as well' };
    state.dispatch({
      type: 'commentAdded',
      comment: { ...comment, created_at: '1700000000', reactions: [], replies_count: 0, client_id: null },
      participants: [],
    });
    const fromSelf = Object.fromEntries((await view('mine')).hits.map((h) => [`${h.kind} ${h.id}`, h.fromSelf]));
    expect(fromSelf).toEqual({ 'message 1': false, 'message 2': true, 'comment 99': true });
  });

  it('re-indexes an edited message: it is found by its new words only', async () => {
    const { state, ids } = await setup();
    state.dispatch(page(10, [1, 'lunch at noon']));
    state.dispatch(frame('conversation_message_edited', { conversation_id: 10, message: message(1, { message: 'lunch at midnight', edited_at: 1 }) }));
    expect(await ids('noon')).toEqual([]);
    expect(await ids('midnight')).toEqual([1]);
  });

  it('drops deleted and hidden messages at once, by id or stid, and a chat the user left', async () => {
    const { state, ids } = await setup();
    state.dispatch(page(10, [1, 'secret one'], [2, 'secret two'], [3, 'secret three']));
    state.dispatch(page(11, [7, 'secret seven']));
    state.dispatch(frame('conversation_message_delete', { conversation_id: 10, message_ids: [1], message_stids: [], hidden: false }));
    expect((await ids('secret')).sort()).toEqual([2, 3, 7]);
    state.dispatch(frame('conversation_message_delete', { conversation_id: 10, message_ids: [], message_stids: ['s2'], hidden: true }));
    expect((await ids('secret')).sort()).toEqual([3, 7]);
    // hideMessages and deleteMessages answer with the ids, and dispatch this.
    state.dispatch({ type: 'messagesDeleted', conversationId: 10, messageIds: [3], hidden: false });
    expect(await ids('secret')).toEqual([7]);
    state.dispatch(frame('conversation_removed_user', { conversation_id: 11, user_id: SELF }));
    expect(await ids('secret')).toEqual([]);
  });

  it('drops a message that comes back as a tombstone (deleted for everybody while this device was away)', async () => {
    const { state, storage, ids } = await setup();
    state.dispatch(page(10, [1, 'secret one'], [2, 'secret two']));
    state.dispatch(page(11, [7, 'secret seven']));
    expect((await ids('secret')).sort()).toEqual([1, 2, 7]);
    // A sync reloads the chat: the server's page holds the tombstone where the message was.
    state.dispatch({ ...page(10, [1, 'secret one']), messages: [message(1, { conversation_id: 10, message: 'secret one' }), message(2, { conversation_id: 10, message: '', deleted: true })] });
    // And the list's last message of the other chat, deleted too.
    state.dispatch({ type: 'conversationLoaded', conversation: listed(11, message(7, { conversation_id: 11, message: '', deleted: true })) });
    expect(await ids('secret')).toEqual([1]);
    expect((await storage.getAll('search')).map((r) => r.key)).toEqual(['m:1']);
  });

  it('answers every query after what the state already shows: a delete or an edit is never found a moment later', async () => {
    const { state, search, ids } = await setup();
    state.dispatch(page(10, [1, 'zebra crossing'], [2, 'meet at the harbour']));
    expect(await ids('zebra')).toEqual([1]);
    state.dispatch({ type: 'messagesDeleted', conversationId: 10, messageIds: [1], hidden: false });
    state.dispatch(frame('conversation_message_edited', { conversation_id: 10, message: message(2, { message: 'meet at the lighthouse', edited_at: 1 }) }));
    // No wait for the writes: the query itself waits for them.
    expect((await search.view('zebra')).hits).toEqual([]);
    expect((await search.view('harbour')).hits).toEqual([]);
    expect((await search.view('lighthouse')).hits.map((h) => h.id)).toEqual([2]);
  });

  it('keeps what left the state window: trimmed history is still found', async () => {
    const { state, ids } = await setup();
    state.dispatch(page(10, [1, 'old words here']));
    state.dispatch(page(10, [9, 'newer page']));
    expect(await ids('old')).toEqual([1]);
  });

  it('indexes posts of a channel and comments, named by the channel and participants', async () => {
    const { state, view } = await setup();
    const channel = { id: 50, stid: 'ch50', name: 'Nyheter', community_id: 4 } as Channel;
    state.dispatch({ type: 'channelLoaded', channel });
    state.dispatch({ ...page(50, [20, 'Sekolah dibuka besok']), participants: [{ user_id: 3, name: 'Bob', avatar: '' }] });
    const comment: Comment = {
      comment_id: 99,
      post_id: 20,
      parent_comment_id: null,
      channel_id: 50,
      user_id: 3,
      message: 'besok pagi?',
      created_at: '1700000000',
      reactions: [],
      replies_count: 0,
      client_id: null,
    };
    state.dispatch({ type: 'commentAdded', comment, participants: [] });
    const hits = (await view('besok')).hits;
    expect(hits.map((h) => [h.kind, h.id, h.channelId, h.communityId, h.postId, h.title])).toEqual(
      expect.arrayContaining([
        ['post', 20, 50, 4, null, 'Nyheter'],
        ['comment', 99, 50, 4, 20, 'Nyheter'],
      ]),
    );
    expect(hits.find((h) => h.kind === 'comment')?.senderName).toBe('Bob');
  });

  it('drops a post deleted for everybody and its loaded comments', async () => {
    const { state, ids } = await setup();
    const channel = { id: 50, stid: 'ch50', name: 'Nyheter', community_id: 4 } as Channel;
    state.dispatch({ type: 'channelLoaded', channel });
    state.dispatch({ ...page(50, [20, 'Sekolah dibuka besok'], [21, 'besok libur']), participants: [] });
    const comment: Comment = {
      comment_id: 99,
      post_id: 20,
      parent_comment_id: null,
      channel_id: 50,
      user_id: 3,
      message: 'besok pagi?',
      created_at: '1700000000',
      reactions: [],
      replies_count: 0,
      client_id: null,
    };
    state.dispatch({ type: 'commentAdded', comment, participants: [] });
    expect((await ids('besok')).sort()).toEqual([20, 21, 99]);
    state.dispatch(frame('conversation_message_delete', { conversation_id: 50, message_ids: [20], message_stids: [], hidden: false }));
    expect(await ids('besok')).toEqual([21]);
  });

  it('finds a post seen before its channel was known as a post of that channel, once the channel is', async () => {
    const { state, ids, view } = await setup();
    state.dispatch(page(51, [30, 'Rapat guru hari Senin']));
    expect((await view('rapat')).hits.map((h) => [h.kind, h.conversationId, h.channelId])).toEqual([['message', 51, null]]);
    const channel = { id: 51, stid: 'ch51', name: 'Guru', community_id: 4 } as Channel;
    state.dispatch({ type: 'channelLoaded', channel });
    expect((await view('rapat')).hits.map((h) => [h.kind, h.conversationId, h.channelId, h.communityId, h.title])).toEqual([
      ['post', null, 51, 4, 'Guru'],
    ]);
    // Searching "in this channel" finds it there.
    expect(await ids('rapat', 51)).toEqual([30]);
  });

  it('re-emits a watched query once the index changed, a burst of changes once', async () => {
    const { state, clock, search } = await setup();
    const seen: MessageSearchView[] = [];
    const sub = search.search('hello').subscribe((v) => seen.push(v));
    await expect.poll(() => seen.map((v) => v.hits.length)).toEqual([0]);
    state.dispatch(page(10, [1, 'hello there']));
    state.dispatch(frame('conversation_message', { conversation_id: 10, message: message(2, { message: 'hello again' }) }));
    await search.settled();
    expect(seen).toHaveLength(1);
    await clock.advance(SEARCH_SETTLE_MS);
    await expect.poll(() => seen.map((v) => v.hits.map((h) => h.id))).toEqual([[], [2, 1]]);
    // A change that leaves the hits as they were is not emitted.
    state.dispatch(frame('conversation_message', { conversation_id: 10, message: message(3, { message: 'unrelated' }) }));
    await search.settled();
    await clock.advance(SEARCH_SETTLE_MS);
    await search.view('hello');
    expect(seen).toHaveLength(2);
    sub.unsubscribe();
  });

  it('writes a stream of messages a few times, not once each: 250 ms gathered, then a second while it goes on', async () => {
    const { state, clock, search, storage } = await setup();
    const before = storage.transactions;
    const incoming = (id: number) => state.dispatch(frame('conversation_message', { conversation_id: 10, message: message(id, { message: `stream ${id}` }) }));
    incoming(1);
    await clock.advance(SEARCH_WRITE_DELAY_MS);
    await search.settled();
    expect(storage.transactions - before).toBe(1);
    for (let id = 2; id <= 20; id++) {
      incoming(id);
      await clock.advance(50);
    }
    // A message every 50 ms for 950 ms right after a write: gathered a second, not 250 ms.
    expect(storage.transactions - before).toBe(1);
    await clock.advance(SEARCH_STREAM_DELAY_MS);
    await search.settled();
    expect(storage.transactions - before).toBe(2);
    expect((await search.view('stream', { limit: 500 })).hits).toHaveLength(20);
  });

  it('refuses bad input with the spec text', async () => {
    const { search } = await setup();
    const error = await new Promise((resolve) => search.search('x', { limit: -1 }).subscribe({ error: resolve }));
    expect(error).toMatchObject({ name: 'EngineError', message: 'Invalid parameters provided' });
    await expect(search.historyKept.set('some' as never)).rejects.toMatchObject({ message: 'Invalid parameters provided' });
  });
});

describe('the stored index', () => {
  it('is kept: the next start answers at once, with no rebuild', async () => {
    const first = await setup();
    first.state.dispatch(page(10, [1, 'persisted café'], [2, 'gone soon']));
    first.state.dispatch({ type: 'messagesDeleted', conversationId: 10, messageIds: [2], hidden: false });
    await first.search.stop();
    await first.state.flush();
    expect((await first.storage.getAll('search')).map((r) => r.key)).toEqual(['m:1']);

    const clock = new ManualEngineClock();
    const { search: second } = parts(first.storage, clock);
    await second.load();
    // No timer turn: nothing is built, the kept index answers.
    expect(await second.view('cafe')).toMatchObject({ complete: true, hits: [{ id: 1 }] });
  });

  it('indexes the documents an older build stored once, oldest first, in slices (complete once built)', async () => {
    const storage = new MemoryStorage();
    // As the MiniSearch build kept them: no number, no group, never indexed in the store.
    const old = (id: number, text: string, createdAt: number) => ({
      key: `m:${id}`, kind: 'message', conversationId: 10, channelId: null, communityId: null, postId: null,
      id, stid: `s${id}`, userId: 2, text, createdAt,
    });
    const count = BUILD_SLICE + 5;
    await storage.writeBatch(
      Array.from({ length: count }, (_, i) => ({ store: 'search' as const, type: 'put' as const, key: `m:${i + 1}`, value: old(i + 1, `stored word${i + 1} end`, 1000 + i) })),
    );
    const { clock, state, search } = await startedOn(storage);
    await clock.advance(1);
    await search.settled();
    // The first slice is in: the store's oldest documents.
    expect(await search.view('word1 end')).toMatchObject({ complete: false, hits: [{ id: 1 }] });
    await expect
      .poll(async () => {
        await clock.advance(1);
        return search.view('stored', { limit: 3 });
      })
      .toMatchObject({ complete: true, hits: [{ id: count }, { id: count - 1 }, { id: count - 2 }] });
    expect(await storage.get('search', 'm:1')).toMatchObject({ group: 'chat:10', docNo: 0 });
    expect(await storage.get('meta', 'searchPostingsBuilt')).toBe(true);
    // A deleted one is found by its stid through the store's index.
    state.dispatch(frame('conversation_message_delete', { conversation_id: 10, message_ids: [], message_stids: ['s7'], hidden: true }));
    await search.settled();
    expect((await search.view('word7 end')).hits).toEqual([]);
    expect((await search.view('word8 end')).hits).toMatchObject([{ id: 8 }]);
  });

  it('keeps a post deleted in the write that makes its channel known deleted', async () => {
    const { state, ids } = await setup();
    state.dispatch(page(51, [30, 'Rapat satu'], [31, 'Rapat dua']));
    expect((await ids('rapat')).sort()).toEqual([30, 31]);
    state.dispatch({ type: 'channelLoaded', channel: { id: 51, stid: 'ch51', name: 'Guru', community_id: 4 } as Channel });
    state.dispatch(frame('conversation_message_delete', { conversation_id: 51, message_ids: [30], message_stids: [], hidden: false }));
    expect(await ids('rapat')).toEqual([31]);
  });


  it('drops the documents of a chat left before the one-time build reached them', async () => {
    const storage = new MemoryStorage();
    await storedByVersion5(storage, [
      { id: 1, chat: 10, text: 'secret ten' },
      { id: 2, chat: 11, text: 'secret eleven' },
    ]);
    const { clock, search } = await startedAndLeft11(storage);
    expect(await storage.get('search', 'm:2')).toBeUndefined();
    await built(search, clock);
    expect((await search.view('secret')).hits.map((h) => h.id)).toEqual([1]);
  });

  it('ranks the restored newest messages above older history the one-time build numbers after them', async () => {
    const storage = new MemoryStorage();
    const count = BUILD_SLICE + 10;
    await storedByVersion5(
      storage,
      Array.from({ length: count }, (_, i) => ({ id: i + 1, chat: 10, text: `hello ${i + 1}` })),
    );
    const clock = new ManualEngineClock();
    const { state, search } = parts(storage, clock);
    await search.load();
    state.dispatch({ type: 'signedIn', selfId: SELF });
    // The restored state's window: the chat's newest, as stored.
    state.dispatch(page(10, [count - 1, `hello ${count - 1}`], [count, `hello ${count}`]));
    await search.settled();
    await built(search, clock);
    expect((await search.view('hello', { limit: 3 })).hits.map((h) => h.id)).toEqual([count, count - 1, count - 2]);
  });

  it('takes what comes during the build, and a sign-out during it leaves nothing', async () => {
    const first = await setup();
    first.state.dispatch(page(10, [1, 'stored alpha'], [2, 'stored beta']));
    await first.search.stop();
    // As an older build left them: not indexed.
    await first.storage.writeBatch([
      { store: 'meta', type: 'delete', key: 'searchPostingsBuilt' },
      { store: 'postings', type: 'clear' },
      ...(await first.storage.getAll<Record<string, unknown>>('search')).map(({ key, value }) => {
        const { docNo: _docNo, ...doc } = value;
        return { store: 'search' as const, type: 'put' as const, key, value: doc };
      }),
    ]);
    const clock = new ManualEngineClock();
    const { state, search } = parts(first.storage, clock);
    await search.load();
    state.dispatch({ type: 'signedIn', selfId: SELF });
    state.dispatch(frame('conversation_message_delete', { conversation_id: 10, message_ids: [2], message_stids: [], hidden: true }));
    state.dispatch(frame('conversation_message', { conversation_id: 10, message: message(3, { message: 'stored gamma' }) }));
    await expect
      .poll(async () => {
        await clock.advance(SEARCH_WRITE_DELAY_MS);
        return search.view('stored');
      })
      .toMatchObject({ complete: true, hits: [{ id: 3 }, { id: 1 }] });

    state.dispatch({ type: 'signedOut' });
    await search.settled();
    expect(await search.view('stored')).toMatchObject({ hits: [] });
    expect(await first.storage.getAll('postings')).toEqual([]);
  });

  it('builds again an index of the format before the word starts’ lists, and finds by short prefixes after', async () => {
    const first = await setup();
    first.state.dispatch(page(10, [1, 'lunch at noon'], [2, 'lunar eclipse tonight']));
    await first.search.stop();
    // The earlier format's index: its meta had the next number only (no word starts' lists).
    const meta = await first.storage.get<{ next: number }>('postings', 'meta');
    await first.storage.writeBatch([{ store: 'postings', type: 'put', key: 'meta', value: { next: meta?.next } }]);
    const clock = new ManualEngineClock();
    const { state, search } = parts(first.storage, clock);
    await search.load();
    state.dispatch({ type: 'signedIn', selfId: SELF });
    expect(await search.view('lun')).toMatchObject({ complete: false });
    await expect
      .poll(async () => {
        await clock.advance(1);
        return search.view('lun');
      })
      .toMatchObject({ complete: true, hits: [{ id: 2 }, { id: 1 }] });
    expect(await first.storage.get('postings', 'meta')).toMatchObject({ format: 3 });
    expect(await first.storage.get('meta', 'searchPostingsBuilt')).toBe(true);
    state.dispatch(frame('conversation_message_delete', { conversation_id: 10, message_ids: [1], message_stids: [], hidden: true }));
    await search.settled();
    expect((await search.view('lu')).hits.map((h) => h.id)).toEqual([2]);
  });

  it('keeps the changes of a write that failed, and writes them with the next', async () => {
    /** A store whose next search write fails (an aborted transaction). */
    const storage = new FailingStorage((_, mode) => mode === 'readwrite');
    const { state, search, ids } = await setup(storage);
    storage.failures = 1;
    state.dispatch(page(10, [1, 'first try']));
    await search.settled();
    expect(await storage.getAll('search')).toEqual([]);
    // The next write (here the query's own) brings them.
    state.dispatch(page(10, [2, 'second try']));
    expect(await ids('try')).toEqual([2, 1]);
    expect(await storage.getAll('search')).toHaveLength(2);
    await search.stop();
  });

  it('tries a failed write again after a while, with no later change to carry it', async () => {
    const storage = new FailingStorage((_, mode) => mode === 'readwrite');
    const { clock, state, search } = await setup(storage);
    storage.failures = 2;
    state.dispatch(page(10, [1, 'kept through a full disk']));
    await search.settled();
    expect(await storage.getAll('search')).toEqual([]);
    // No change comes to carry them: a timer does (not `settled()`, which would write them itself). The first
    // retry fails too, and the next waits twice as long.
    await clock.advance(SEARCH_RETRY_MS);
    await expect.poll(() => storage.failures).toBe(0);
    await clock.advance(SEARCH_RETRY_MS);
    expect(await storage.getAll('search')).toEqual([]);
    await clock.advance(SEARCH_RETRY_MS);
    await expect.poll(() => storage.getAll('search')).toHaveLength(1);
    expect((await search.view('disk')).hits.map((h) => h.id)).toEqual([1]);
    await search.stop();
  });

  it('tries a failed slice of the one-time build again, and says it is not complete meanwhile', async () => {
    /** Fails the build's slice (the only write over the documents, the index and `meta` together). */
    const storage = new FailingStorage((stores, mode) => mode === 'readwrite' && stores.includes('meta') && stores.includes('search'));
    storage.failures = 1;
    await storage.writeBatch([
      { store: 'search', type: 'put', key: 'm:1', value: { key: 'm:1', kind: 'message', conversationId: 10, channelId: null, communityId: null, postId: null, id: 1, stid: 's1', userId: 2, text: 'stored before', createdAt: 1000 } },
    ]);
    const { clock, search } = await startedOn(storage);
    await clock.advance(1);
    await search.settled();
    expect(storage.failures).toBe(0);
    // Not given up: the history is not all in, and the search says so.
    await clock.advance(1);
    expect(await search.view('stored')).toMatchObject({ complete: false, hits: [] });
    await clock.advance(SEARCH_RETRY_MS);
    await search.settled();
    await expect.poll(() => search.view('stored')).toMatchObject({ complete: true, hits: [{ id: 1 }] });
    await search.stop();
  });

  it('keeps a watched query going through a read that failed: it runs again a while after', async () => {
    const storage = new FailingStorage((stores, mode) => mode === 'readonly' && stores.includes('postings'));
    const { clock, state, search } = await setup(storage);
    state.dispatch(page(10, [1, 'found after all']));
    await search.settled();
    storage.failures = 1;
    const seen: MessageSearchView[] = [];
    let failed: unknown = null;
    const sub = search.search('after').subscribe({ next: (v) => seen.push(v), error: (e: unknown) => (failed = e) });
    await expect.poll(() => storage.failures).toBe(0);
    expect(seen).toEqual([]);
    await clock.advance(SEARCH_RERUN_MS);
    await expect.poll(() => seen.map((v) => v.hits.map((h) => h.id))).toEqual([[1]]);
    expect(failed).toBeNull();
    sub.unsubscribe();
    await search.stop();
  });

  it('is cleared with the rest of the user data at sign-out', async () => {
    const { state, search, storage, ids } = await setup();
    state.dispatch(page(10, [1, 'private words']));
    await search.settled();
    expect(await storage.getAll('search')).toHaveLength(1);
    state.dispatch({ type: 'signedOut' });
    await search.settled();
    expect(await storage.getAll('postings')).toEqual([]);
    expect(await ids('private')).toEqual([]);
    expect(await storage.getAll('search')).toHaveLength(0);
  });

  it('keeps the latest 1,000 of each chat when the device keeps that much, the index and the store together', async () => {
    const { state, search, storage, ids, view } = await setup();
    const many: [number, string][] = Array.from({ length: 1005 }, (_, i) => [i + 1, `word w${i + 1}x`]);
    state.dispatch(page(10, ...many));
    await state.flush();
    expect((await view('word', { limit: 500 })).hits).toHaveLength(500);
    await search.historyKept.set('latest-1000');
    await state.flush();
    expect(await ids('w1x')).toEqual([]);
    expect(await ids('w5x')).toEqual([]);
    expect(await ids('w6x')).toEqual([6]);
    expect(await ids('w1005x')).toEqual([1005]);
    expect(await storage.getAll('search')).toHaveLength(1000);
    expect(await storage.get('meta', 'historyKept')).toBe('latest-1000');
    // New messages keep it at 1,000.
    state.dispatch(frame('conversation_message', { conversation_id: 10, message: message(2000, { message: 'word newest' }) }));
    await state.flush();
    expect(await ids('w6x')).toEqual([]);
    expect(await ids('newest')).toEqual([2000]);
    expect(await storage.getAll('search')).toHaveLength(1000);
  });
});

describe('removals too big for one transaction (issue 24: a chat of 1,000,000 left or trimmed)', () => {
  const MANY = REMOVAL_SLICE + 500;
  /** Chat 10 with `count` messages, `secret w<id>x`, and chat 11 with one, id 9000. */
  async function bigChat(count = MANY, storage = new MemoryStorage()) {
    const parts = await setup(storage);
    parts.state.dispatch(page(10, ...Array.from({ length: count }, (_, i): [number, string] => [i + 1, `secret w${i + 1}x`])));
    parts.state.dispatch(page(11, [9000, 'secret eleven']));
    await parts.search.settled();
    return parts;
  }
  const inChat = async (storage: MemoryStorage, chat: number) =>
    (await storage.getAll<{ conversationId: number | null }>('search')).filter((d) => d.value.conversationId === chat).length;
  /** Timer turns until `done` holds: the slices after the first. */
  const sliced = (clock: ManualEngineClock, done: () => Promise<boolean>) =>
    expect
      .poll(async () => {
        await clock.advance(1);
        return done();
      })
      .toBe(true);

  it('takes a chat left out of every answer at once, and its documents out a slice at a time', async () => {
    const { state, storage, clock, ids } = await bigChat();
    expect(await ids('secret')).toContain(9000);
    expect(await ids(`w${MANY}x`)).toEqual([MANY]);

    state.dispatch(frame('conversation_removed_user', { conversation_id: 10, user_id: SELF }));
    expect(await ids('secret')).toEqual([9000]);
    expect(await ids('w7x', 10)).toEqual([]);
    // One slice went with the write: the rest waits for timer turns, the mark kept for a restart.
    expect(await inChat(storage, 10)).toBe(MANY - REMOVAL_SLICE);
    expect(await storage.get('postings', 'd|a')).toMatchObject({ chat: 10 });

    await sliced(clock, async () => (await storage.get('postings', 'd|a')) === undefined);
    expect(await inChat(storage, 10)).toBe(0);
    // Out of the lists too: with the mark gone, nothing of the chat is found.
    expect(await ids('secret')).toEqual([9000]);
    expect(await ids('w2400x')).toEqual([]);
    const keys = (await storage.getAll('postings')).map((r) => r.key);
    expect(keys.filter((k) => /^c\|[^|]+\|a$/.test(k))).toEqual([]);
  });

  it('tries a slice of a drop that failed again later, and the chat stays out of answers meanwhile', async () => {
    const storage = new FailingStorage((_, mode) => mode === 'readwrite');
    const { state, clock, ids } = await bigChat(MANY, storage);
    state.dispatch(frame('conversation_removed_user', { conversation_id: 10, user_id: SELF }));
    expect(await ids('secret')).toEqual([9000]);
    expect(await inChat(storage, 10)).toBe(MANY - REMOVAL_SLICE);
    storage.failures = 1;
    await clock.advance(1);
    expect(storage.failures).toBe(0);
    expect(await inChat(storage, 10)).toBe(MANY - REMOVAL_SLICE);
    expect(await ids('secret')).toEqual([9000]);
    await clock.advance(SEARCH_RETRY_MS);
    await expect.poll(async () => inChat(storage, 10)).toBe(0);
    expect(await storage.get('postings', 'd|a')).toBeUndefined();
  });

  it('goes on with a drop a stopped engine left half done, the chat out of answers from the start', async () => {
    const first = await bigChat();
    first.state.dispatch(frame('conversation_removed_user', { conversation_id: 10, user_id: SELF }));
    // Stopped before a slice: only the mark is written.
    await first.search.stop();
    expect(await inChat(first.storage, 10)).toBe(MANY);
    expect(await first.storage.get('postings', 'd|a')).toMatchObject({ chat: 10 });

    const clock = new ManualEngineClock();
    const { state, search } = parts(first.storage, clock);
    await search.load();
    state.dispatch({ type: 'signedIn', selfId: SELF });
    expect((await search.view('secret')).hits.map((h) => h.id)).toEqual([9000]);
    await sliced(clock, async () => (await first.storage.get('postings', 'd|a')) === undefined);
    expect(await inChat(first.storage, 10)).toBe(0);
    expect((await search.view('secret')).hits.map((h) => h.id)).toEqual([9000]);
  });

  it('keeps what comes of a chat joined again while it is being dropped', async () => {
    const { state, storage, clock, ids } = await bigChat();
    state.dispatch(frame('conversation_removed_user', { conversation_id: 10, user_id: SELF }));
    expect(await ids('secret')).toEqual([9000]);
    // Added again: an old message not yet dropped comes again, and a new one.
    state.dispatch(frame('conversation_message', { conversation_id: 10, message: message(MANY - 1, { conversation_id: 10, message: `secret w${MANY - 1}x` }) }));
    state.dispatch(frame('conversation_message', { conversation_id: 10, message: message(MANY + 1, { conversation_id: 10, message: 'secret again' }) }));
    expect(await ids('secret')).toEqual([9000, MANY + 1, MANY - 1].sort((a, b) => b - a));
    await sliced(clock, async () => (await storage.get('postings', 'd|a')) === undefined);
    expect(await ids('secret')).toEqual([9000, MANY + 1, MANY - 1].sort((a, b) => b - a));
    expect(await inChat(storage, 10)).toBe(2);
  });

  it('never trims a chat below what is kept when a chat before it was dropped between the slices', async () => {
    // More than a slice is left to trim of chat 10 after the first: its count is remembered, not read again.
    const count = 1000 + 2 * REMOVAL_SLICE + 300;
    const { state, search, storage, clock } = await bigChat(count);
    state.dispatch(page(11, ...Array.from({ length: 500 }, (_, i): [number, string] => [9001 + i, `eleven ${i}`])));
    await search.historyKept.set('latest-1000');
    await search.settled();
    expect(await inChat(storage, 10)).toBe(count - REMOVAL_SLICE);
    // Left before the trim's next slice: the drop goes first, and the trim then finds chat 11 where 10 was.
    state.dispatch(frame('conversation_removed_user', { conversation_id: 10, user_id: SELF }));
    await sliced(clock, async () => (await storage.get('postings', 'd|a')) === undefined && (await inChat(storage, 10)) === 0);
    for (let i = 0; i < 5; i++) await clock.advance(1);
    expect(await inChat(storage, 11)).toBe(501);
  });

  it('does not bring back a dropped chat’s messages as posts when its channel is known only then', async () => {
    const { state, storage, clock, ids } = await setup();
    state.dispatch(page(51, [30, 'rapat satu'], [31, 'rapat dua']));
    expect((await ids('rapat')).sort()).toEqual([30, 31]);
    state.dispatch(frame('conversation_removed_user', { conversation_id: 51, user_id: SELF }));
    state.dispatch({ type: 'channelLoaded', channel: { id: 51, stid: 'ch51', name: 'Guru', community_id: 4 } as Channel });
    expect(await ids('rapat')).toEqual([]);
    await sliced(clock, async () => (await storage.get('postings', 'd|1f')) === undefined);
    expect(await ids('rapat')).toEqual([]);
  });

  it('leaves a dropped chat’s documents to the drop when the one-time build meets them', async () => {
    const storage = new MemoryStorage();
    await storedByVersion5(storage, [
      ...Array.from({ length: MANY }, (_, i) => ({ id: i + 1, chat: 11, text: `secret eleven ${i + 1}` })),
      { id: 9000, chat: 10, text: 'secret ten' },
    ]);
    const { clock, search } = await startedAndLeft11(storage);
    await built(search, clock);
    await sliced(clock, async () => (await storage.get('postings', 'd|b')) === undefined);
    expect(await inChat(storage, 11)).toBe(0);
    expect((await search.view('secret')).hits.map((h) => h.id)).toEqual([9000]);
  });

  it('leaves trimming to the trim while it runs: a message that comes meanwhile is written without one', async () => {
    const count = 1000 + 2 * REMOVAL_SLICE + 300;
    const { state, search, storage, clock } = await bigChat(count);
    await search.historyKept.set('latest-1000');
    await search.settled();
    expect(await inChat(storage, 10)).toBe(count - REMOVAL_SLICE);
    state.dispatch(frame('conversation_message', { conversation_id: 10, message: message(count + 1, { message: 'secret newest' }) }));
    await search.settled();
    expect(await inChat(storage, 10)).toBe(count - REMOVAL_SLICE + 1);
    await sliced(clock, async () => (await inChat(storage, 10)) <= 1001);
  });

  it('trims to the latest 1,000 a slice at a time, also at a start that finds a chat over it', async () => {
    const count = 1000 + REMOVAL_SLICE + 300;
    const { state, search, storage, clock, ids } = await bigChat(count);
    await search.historyKept.set('latest-1000');
    await search.settled();
    expect(await inChat(storage, 10)).toBe(count - REMOVAL_SLICE);
    // The newest 100 deleted meanwhile: the trim keeps 1,000 of what is left, not 900.
    state.dispatch({ type: 'messagesDeleted', conversationId: 10, messageIds: Array.from({ length: 100 }, (_, i) => count - i), hidden: true });
    await search.settled();
    await sliced(clock, async () => (await inChat(storage, 10)) === 1000);
    expect(await ids(`w${count - 1100}x`)).toEqual([]);
    expect(await ids(`w${count - 1099}x`)).toEqual([count - 1099]);
    expect(await inChat(storage, 11)).toBe(1);

    // Chosen on a device whose engine stopped before trimming: the next start trims.
    const again = await bigChat(count);
    await again.storage.writeBatch([{ store: 'meta', type: 'put', key: 'historyKept', value: 'latest-1000' }]);
    await again.search.stop();
    const next = new ManualEngineClock();
    const restarted = parts(again.storage, next);
    await restarted.search.load();
    await sliced(next, async () => (await inChat(again.storage, 10)) === 1000);
  });
});


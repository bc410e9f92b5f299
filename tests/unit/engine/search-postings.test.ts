import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { BLOCK_SIZE, matchedTerms, PostingIndex, POSTINGS } from '../../../src/engine/search/postingIndex';
import { IdbStorage } from '../../../src/engine/storage/idbStorage';

// fake-indexeddb: the real IndexedDB API (key ranges, transactions, typed arrays cloned) in Node, through
// the engine's own IndexedDB adapter.
let storage: IdbStorage | undefined;
let n = 0;

/** The index with the calls of one transaction each, as the tests use it. */
class Index {
  constructor(
    readonly inner: PostingIndex,
    private readonly at: IdbStorage,
  ) {}
  get numbered() {
    return this.inner.numbered;
  }
  add(docs: { key: string; text: string; chat?: number }[]) {
    return this.at.transact([POSTINGS], 'readwrite', (tx) => this.inner.add(tx, docs.map((d) => ({ chat: 1, ...d }))));
  }
  remove(docs: { docNo: number; text: string }[]) {
    return this.at.transact([POSTINGS], 'readwrite', (tx) => this.inner.remove(tx, docs));
  }
  replace(docNo: number, before: string, after: string, chat = 1) {
    return this.at.transact([POSTINGS], 'readwrite', (tx) => this.inner.replace(tx, docNo, before, after, chat));
  }
  startDrop(chat: number) {
    return this.at.transact([POSTINGS], 'readwrite', async (tx) => this.inner.startDrop(tx, chat));
  }
  search(query: string, limit: number, chat?: number) {
    return this.at.transact([POSTINGS], 'readonly', (tx) => this.inner.search(tx, query, limit, chat));
  }
}

async function opened(): Promise<{ index: Index; reopen: () => Promise<Index> }> {
  const at = await IdbStorage.open({ name: `postings-${++n}` });
  storage = at;
  return { index: new Index(await PostingIndex.open(at), at), reopen: async () => new Index(await PostingIndex.open(at), at) };
}

afterEach(async () => {
  await storage?.close();
  storage = undefined;
});

const keys = async (index: Index, query: string, limit = 50, chat?: number) => (await index.search(query, limit, chat)).map((h) => h.key);

/** Counts the index's single-record reads whose key starts with `prefix` (IndexedDB's get, through the adapter). */
function spyOnGets(prefix: string): { reads: number; restore: () => void } {
  const spy = { reads: 0, restore: () => {} };
  const get = IDBObjectStore.prototype.get;
  IDBObjectStore.prototype.get = function (this: IDBObjectStore, query: IDBValidKey | IDBKeyRange) {
    if (this.name === POSTINGS && typeof query === 'string' && query.startsWith(prefix)) spy.reads += 1;
    return get.call(this, query);
  };
  spy.restore = () => {
    IDBObjectStore.prototype.get = get;
  };
  return spy;
}

/** Counts the records the index's key-range reads return (IndexedDB's getAll, through the adapter). */
function spyOnRanges(): { records: number; restore: () => void } {
  const spy = { records: 0, restore: () => {} };
  const getAll = IDBObjectStore.prototype.getAll;
  IDBObjectStore.prototype.getAll = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['getAll']>) {
    const request = getAll.apply(this, args);
    request.addEventListener('success', () => {
      if (this.name === POSTINGS) spy.records += (request.result as unknown[]).length;
    });
    return request;
  };
  spy.restore = () => {
    IDBObjectStore.prototype.getAll = getAll;
  };
  return spy;
}

describe('the inverted index in IndexedDB (issue 24)', () => {
  it('folds case and diacritics both ways (en, sv, id), the last word a prefix, every word needed', async () => {
    const { index } = await opened();
    await index.add([
      { key: 'm:1', text: 'Kafé på Södermalm' },
      { key: 'm:2', text: 'kafe di Jakarta, enak sekali' },
      { key: 'm:3', text: 'Coffee at the harbour' },
      { key: 'm:4', text: 'Smörgås och kaffe' },
    ]);
    expect(await keys(index, 'kafe')).toEqual(['m:2', 'm:1']);
    expect(await keys(index, 'KAFÉ')).toEqual(['m:2', 'm:1']);
    expect(await keys(index, 'sodermalm')).toEqual(['m:1']);
    expect(await keys(index, 'smorgas kaf')).toEqual(['m:4']);
    expect(await keys(index, 'kaf')).toEqual(['m:4', 'm:2', 'm:1']);
    // Only the last word is a prefix; every word must match.
    expect(await keys(index, 'kaf sekali')).toEqual([]);
    expect(await keys(index, 'coffee har')).toEqual(['m:3']);
    expect(await keys(index, 'coffee jak')).toEqual([]);
    expect(await keys(index, '  ,, ')).toEqual([]);
  });

  it('answers newest first and stops at the limit', async () => {
    const { index } = await opened();
    await index.add(Array.from({ length: 120 }, (_, i) => ({ key: `m:${i}`, text: `hello number ${i}` })));
    expect(await keys(index, 'hello num', 3)).toEqual(['m:119', 'm:118', 'm:117']);
    expect(await index.search('hello', 50)).toHaveLength(50);
  });

  it('removes a deleted document at once and re-indexes an edit in its place', async () => {
    const { index } = await opened();
    const [a, b] = await index.add([
      { key: 'm:1', text: 'meeting at noon' },
      { key: 'm:2', text: 'meeting moved' },
    ]);
    await index.remove([{ docNo: b as number, text: 'meeting moved' }]);
    expect(await keys(index, 'meeting')).toEqual(['m:1']);
    await index.replace(a as number, 'meeting at noon', 'lunch at noon');
    expect(await keys(index, 'meeting')).toEqual([]);
    expect(await keys(index, 'lun')).toEqual(['m:1']);
    expect(await keys(index, 'noon')).toEqual(['m:1']);
  });

  it('is kept: a reopened index answers without a rebuild', async () => {
    const { index, reopen } = await opened();
    await index.add([{ key: 'c:7', text: 'Selamat pagi semua' }]);
    const again = await reopen();
    expect(again.numbered).toBe(1);
    expect(await keys(again, 'selamat pag')).toEqual(['c:7']);
    await again.add([{ key: 'm:8', text: 'pagi!' }]);
    expect(await keys(again, 'pagi')).toEqual(['m:8', 'c:7']);
  });

  it('reads older blocks until the limit is reached', async () => {
    const { index } = await opened();
    const docs = Array.from({ length: BLOCK_SIZE + 10 }, (_, i) => ({ key: `m:${i}`, text: i % 1000 === 0 ? `rare word ${i}` : 'filler text' }));
    await index.add(docs);
    const found = await keys(index, 'rare wor', 100);
    expect(found).toHaveLength(66);
    expect(found[0]).toBe('m:65000');
    expect(found[found.length - 1]).toBe('m:0');
  });

  it('answers a chat’s own search with that chat’s newest matches only', async () => {
    const { index } = await opened();
    await index.add(Array.from({ length: 200 }, (_, i) => ({ key: `m:${i}`, chat: i % 10 === 3 ? 3 : 1, text: `hello ${i}` })));
    expect(await keys(index, 'hel', 3, 3)).toEqual(['m:193', 'm:183', 'm:173']);
    expect(await keys(index, 'hello', 50, 3)).toHaveLength(20);
    expect(await keys(index, 'hello', 50, 4)).toEqual([]);
  });

  it('answers a chat’s own search of a common word from the chat’s list: a quiet chat’s few, not every match', async () => {
    const { index } = await opened();
    // A quiet chat's five messages, the oldest, then 20,000 of a busy chat with the same common word.
    await index.add(Array.from({ length: 5 }, (_, i) => ({ key: `q:${i}`, chat: 3, text: `hello from the quiet chat ${i}` })));
    await index.add(Array.from({ length: 20_000 }, (_, i) => ({ key: `m:${i}`, chat: 1, text: `hello ${i}` })));
    const refs = spyOnGets('r|');
    expect(await keys(index, 'hel', 50, 3)).toEqual(['q:4', 'q:3', 'q:2', 'q:1', 'q:0']);
    // The numbers' keys are read for the five hits only: one page, not the twenty of every match.
    expect(refs.reads).toBe(1);
    refs.reads = 0;
    expect(await keys(index, 'hello qui', 50, 3)).toHaveLength(5);
    expect(refs.reads).toBe(1);
    refs.restore();
    expect(await keys(index, 'hello', 2, 1)).toEqual(['m:19999', 'm:19998']);
    expect(await keys(index, 'hello', 50, 7)).toEqual([]);
  });

  it('leaves a chat being dropped out of every answer at once, still answering the limit from the others', async () => {
    const { index, reopen } = await opened();
    // The other chat's matches are the older: a filter of the hits afterwards would leave fewer than asked.
    await index.add(Array.from({ length: 100 }, (_, i) => ({ key: `o:${i}`, chat: 1, text: `apple ${i}` })));
    await index.add(Array.from({ length: 100 }, (_, i) => ({ key: `d:${i}`, chat: 2, text: `apple ${i}` })));
    await index.startDrop(2);
    await index.add([{ key: 'd:new', chat: 2, text: 'apple again' }]);
    expect(await keys(index, 'app', 5)).toEqual(['d:new', 'o:99', 'o:98', 'o:97', 'o:96']);
    expect(await keys(index, 'apple 5', 50, 2)).toEqual([]);
    // The mark is kept: a reopened index leaves them out too, before any of them is taken out of the lists.
    const again = await reopen();
    expect(again.inner.dropped).toEqual([{ chat: 2, below: 200 }]);
    expect(await keys(again, 'apple', 3)).toEqual(['d:new', 'o:99', 'o:98']);
  });

  it('keeps the chats’ lists right through deletes and an edit that moves a document', async () => {
    const { index } = await opened();
    const [a, b] = await index.add([
      { key: 'm:1', chat: 1, text: 'see you at the harbour' },
      { key: 'm:2', chat: 1, text: 'the harbour is closed' },
    ]);
    // A message that became a post of another chat (a channel) keeps its number and moves with its words.
    await index.replace(a as number, 'see you at the harbour', 'see you at the harbour', 5);
    expect(await keys(index, 'harb', 50, 5)).toEqual(['m:1']);
    expect(await keys(index, 'harb', 50, 1)).toEqual(['m:2']);
    await index.remove([{ docNo: b as number, text: 'the harbour is closed' }]);
    expect(await keys(index, 'harb', 50, 1)).toEqual([]);
    expect(await keys(index, 'harb')).toEqual(['m:1']);
    // Removed twice (a delete event replayed): nothing else changes.
    await index.remove([{ docNo: b as number, text: 'the harbour is closed' }]);
    expect(await keys(index, 'harb', 50, 5)).toEqual(['m:1']);
  });

  it('answers a prefix of one to three letters from the word starts’ lists: one record a block, not every word', async () => {
    const { index } = await opened();
    // 300 words starting with "lun" (as many as a syllable starts in a chat's vocabulary), each in a message.
    await index.add(Array.from({ length: 300 }, (_, i) => ({ key: `m:${i}`, text: `pasta lun${i.toString(36)}ch` })));
    await index.add([{ key: 'm:lu', text: 'pasta lu' }, { key: 'm:other', text: 'pasta dinner' }]);
    const read = spyOnRanges();
    expect(await keys(index, 'pasta lun', 400)).toHaveLength(300);
    expect(read.records).toBe(1);
    expect(await keys(index, 'pasta lu', 400)).toHaveLength(301);
    expect(await keys(index, 'pasta l', 400)).toHaveLength(301);
    expect(await keys(index, 'pasta lun1', 400)).toHaveLength(37); // lun1ch, lun10ch … lun1zch
    expect(await keys(index, 'pasta d')).toEqual(['m:other']);
    // Four letters or more: the words' own lists, exactly.
    read.records = 0;
    expect(await keys(index, 'pasta lun1cc')).toEqual(['m:48']);
    expect(read.records).toBe(1);
    expect(await keys(index, 'pasta lun1c')).toEqual(['m:48', 'm:1']);
    read.restore();
  });

  it('keeps the word starts’ lists right through deletes and edits', async () => {
    const { index } = await opened();
    const [a, b] = await index.add([
      { key: 'm:1', text: 'lunch and lunges' },
      { key: 'm:2', text: 'lunar eclipse' },
    ]);
    await index.replace(a as number, 'lunch and lunges', 'dinner and lunges');
    expect(await keys(index, 'lun')).toEqual(['m:2', 'm:1']);
    await index.replace(a as number, 'dinner and lunges', 'dinner and squats');
    expect(await keys(index, 'lun')).toEqual(['m:2']);
    expect(await keys(index, 'din')).toEqual(['m:1']);
    await index.remove([{ docNo: b as number, text: 'lunar eclipse' }]);
    expect(await keys(index, 'lu')).toEqual([]);
    expect(await keys(index, 'e')).toEqual([]);
  });

  it('drops an index of the format before the chats’ lists (format 2): the build indexes it again', async () => {
    const { index, reopen } = await opened();
    await index.add([{ key: 'm:1', text: 'old lunch' }]);
    await storage!.transact([POSTINGS, 'meta'], 'readwrite', async (tx) => {
      tx.put(POSTINGS, 'meta', { next: 1, since: 0, format: 2 });
      tx.put('meta', 'searchPostingsBuilt', true);
    });
    const again = await reopen();
    expect(await storage!.get('meta', 'searchPostingsBuilt')).toBeUndefined();
    expect(again.inner.holds(0)).toBe(false);
    expect(await keys(again, 'old')).toEqual([]);
    const [docNo] = await again.add([{ key: 'm:1', text: 'old lunch' }]);
    expect(docNo).toBe(BLOCK_SIZE);
    expect(await keys(again, 'old lun', 50, 1)).toEqual(['m:1']);
  });

  it('drops an index of the format before the word starts’ lists, and numbers again after its numbers', async () => {
    const { index, reopen } = await opened();
    await index.add([{ key: 'm:1', text: 'old lunch' }]);
    // As the earlier format kept it: the next number only, no format; the one-time build marked done.
    await storage!.transact([POSTINGS, 'meta'], 'readwrite', async (tx) => {
      tx.put(POSTINGS, 'meta', { next: 70_000 });
      tx.put('meta', 'searchPostingsBuilt', true);
    });
    const again = await reopen();
    expect(await storage!.get('meta', 'searchPostingsBuilt')).toBeUndefined();
    expect(await keys(again, 'old')).toEqual([]);
    // A document numbered by the dropped index is not in this one: the build indexes it again.
    expect(again.inner.holds(0)).toBe(false);
    expect(again.numbered).toBe(0);
    const [docNo] = await again.add([{ key: 'm:1', text: 'old lunch' }]);
    expect(docNo).toBe(2 * BLOCK_SIZE);
    expect(again.inner.holds(docNo)).toBe(true);
    expect(await keys(again, 'old lun')).toEqual(['m:1']);
    expect(await keys(await reopen(), 'old lun')).toEqual(['m:1']);
  });

  it('names the words that matched, for the snippet', () => {
    expect(matchedTerms('Kafé och kaffe, inte te', 'te kaf')).toEqual(['kafe', 'kaffe', 'te']);
  });
});

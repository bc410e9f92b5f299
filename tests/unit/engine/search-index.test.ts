import { describe, expect, it } from 'vitest';
import type { SearchDoc } from '../../../src/engine/search/documents';
import { SearchIndex } from '../../../src/engine/search/searchIndex';

const doc = (id: number, text: string, overrides: Partial<SearchDoc> = {}): SearchDoc => ({
  key: `m:${id}`,
  kind: 'message',
  conversationId: 10,
  channelId: null,
  communityId: null,
  postId: null,
  id,
  stid: `s${id}`,
  userId: 2,
  text,
  createdAt: 1_700_000_000_000 + id * 60_000,
  ...overrides,
});

const ids = (index: SearchIndex, query: string, conversationId?: number) =>
  index.search(query, { limit: 50, ...(conversationId === undefined ? {} : { conversationId }) }).map((h) => h.doc.id);

function indexOf(...docs: SearchDoc[]): SearchIndex {
  const index = new SearchIndex();
  for (const d of docs) index.upsert(d);
  return index;
}

describe('the search index', () => {
  it('finds words whatever their case and diacritics, both ways', () => {
    const index = indexOf(doc(1, 'Vi ses på Kafé Ängeln'), doc(2, 'kafe ANGELN i kväll'), doc(3, 'Sampai jumpa di kafe'));
    expect(ids(index, 'kafe').sort()).toEqual([1, 2, 3]);
    expect(ids(index, 'KAFÉ').sort()).toEqual([1, 2, 3]);
    expect(ids(index, 'ängeln').sort()).toEqual([1, 2]);
    expect(ids(index, 'angeln').sort()).toEqual([1, 2]);
    expect(ids(index, 'kvall')).toEqual([2]);
    expect(ids(index, 'JUMPA')).toEqual([3]);
  });

  it('takes the last word of the query as the start of a word, the others whole', () => {
    const index = indexOf(doc(1, 'smörgåstårta till festen'), doc(2, 'smör och bröd'));
    expect(ids(index, 'smo').sort()).toEqual([1, 2]);
    expect(ids(index, 'smorgas')).toEqual([1]);
    // "smo" is not the last word: it must be a whole word.
    expect(ids(index, 'smo fest')).toEqual([]);
    expect(ids(index, 'till fest')).toEqual([1]);
  });

  it('wants every word of the query', () => {
    const index = indexOf(doc(1, 'lunch at the café'), doc(2, 'lunch tomorrow'), doc(3, 'the café is closed'));
    expect(ids(index, 'lunch cafe')).toEqual([1]);
    expect(ids(index, 'cafe lunch')).toEqual([1]);
  });

  it('ranks by score, then the newest first among equal matches', () => {
    const index = indexOf(
      doc(1, 'meeting'),
      doc(2, 'meeting'),
      doc(3, 'a long message that only mentions the meeting once among very many other words here'),
      doc(4, 'meeting'),
    );
    expect(ids(index, 'meeting')).toEqual([4, 2, 1, 3]);
  });

  it('limits the hits and filters by chat', () => {
    const index = indexOf(doc(1, 'hello'), doc(2, 'hello', { conversationId: 11 }), doc(3, 'hello'));
    expect(index.search('hello', { limit: 2 }).map((h) => h.doc.id)).toEqual([3, 2]);
    expect(ids(index, 'hello', 11)).toEqual([2]);
  });

  it('finds an edited document by its new words only, and a removed one no more', () => {
    const index = indexOf(doc(1, 'see you at noon'), doc(2, 'noon it is'));
    index.upsert(doc(1, 'see you at midnight'));
    expect(ids(index, 'noon')).toEqual([2]);
    expect(ids(index, 'midnight')).toEqual([1]);
    index.remove('m:2');
    expect(ids(index, 'noon')).toEqual([]);
  });

  it('an empty query, or one of punctuation only, finds nothing', () => {
    const index = indexOf(doc(1, 'anything'));
    expect(ids(index, '')).toEqual([]);
    expect(ids(index, '  ?! ')).toEqual([]);
  });

  it('trims a chat to its latest documents, and removes a whole chat', () => {
    const index = indexOf(doc(1, 'word'), doc(2, 'word'), doc(3, 'word'), doc(4, 'word', { conversationId: 11 }));
    expect(index.trimGroup('chat:10', 2).sort()).toEqual(['m:1']);
    expect(ids(index, 'word').sort()).toEqual([2, 3, 4]);
    expect(index.removeGroup('chat:10').sort()).toEqual(['m:2', 'm:3']);
    expect(ids(index, 'word')).toEqual([4]);
  });
});

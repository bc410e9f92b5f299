import type * as FlexModule from 'flexsearch';
import { type IDBPDatabase, openDB } from 'idb';
import type { SearchDoc } from '../../src/engine/search/documents';
import { fold, words } from '../../src/engine/search/fold';
import { PostingIndex, POSTINGS } from '../../src/engine/search/postingIndex';
import { IdbStorage } from '../../src/engine/storage/idbStorage';

/**
 * The indexes issue 24 compares, each persisted in IndexedDB (fake-indexeddb in Node, see
 * fakeIndexedDb.ts) and each asked the same queries over the same generated messages. A candidate is built
 * once, then opened as the worker would at start (no rebuild), queried, and fed incoming messages.
 */
export interface Candidate {
  readonly name: string;
  /** Starts a build: the messages come a slice at a time, then `end`. */
  build(): Promise<{ add(slice: readonly SearchDoc[]): Promise<void>; end(): Promise<void> }>;
  /** Opens what `build` kept, as a new worker would. */
  open(): Promise<OpenedIndex>;
  /** The databases it keeps (for their size), and lets them go. */
  databases(): Promise<string[]>;
}

export interface OpenedIndex {
  /** The keys of the first `limit` hits. */
  search(query: string, limit: number): Promise<string[]>;
  /** Incoming messages, as one batch. */
  add(docs: readonly SearchDoc[]): Promise<void>;
  close(): void;
}

/** The engine's own store (IdbStorage: the postings store among the others), as the worker opens it. */
const openStore = (name: string) => IdbStorage.open({ name });
const indexed = (docs: readonly SearchDoc[]) => docs.map((d) => ({ key: d.key, text: d.text, chat: d.conversationId ?? d.channelId ?? 0 }));

/** (a) The inverted index of our own (src/engine/search/postingIndex.ts). */
export function postingCandidate(name: string): Candidate {
  const addTo = (storage: IdbStorage, index: PostingIndex, docs: readonly SearchDoc[]) =>
    storage.transact([POSTINGS], 'readwrite', (tx) => index.add(tx, indexed(docs)));
  return {
    name: 'own inverted index',
    async build() {
      const storage = await openStore(name);
      const index = await PostingIndex.open(storage);
      return { add: async (slice) => void (await addTo(storage, index, slice)), end: () => storage.close() };
    },
    async open() {
      const storage = await openStore(name);
      const index = await PostingIndex.open(storage);
      return {
        search: async (query, limit) =>
          (await storage.transact([POSTINGS], 'readonly', (tx) => index.search(tx, query, limit))).map((h) => h.key),
        add: async (docs) => void (await addTo(storage, index, docs)),
        close: () => void storage.close(),
      };
    },
    databases: async () => [name],
  };
}

type Flex = typeof FlexModule;
type FlexIndex = InstanceType<Flex['Index']>;

/** Folded before FlexSearch sees it: the index then holds exactly the words the engine's rules make. */
const folded = (text: string) => words(text).map(fold).filter(Boolean).join(' ');

/**
 * (b) FlexSearch 0.8 with its IndexedDB storage: `forward` tokenizing (every start of every word is a key,
 * for the prefix), the exact charset (the text comes folded), ids the messages' ids.
 */
export function flexCandidate(name: string): Candidate {
  // Imported only here, under the fake globals: it reads `window.indexedDB` when loaded.
  const load = (): Promise<Flex> => import('flexsearch');
  const create = (flex: Flex): FlexIndex => new flex.Index({ tokenize: 'forward', encoder: flex.Charset.Exact, resolution: 1, fastupdate: false });
  const idOf = (key: string) => Number(key.slice(2));
  let before: string[] = [];
  return {
    name: 'FlexSearch (IndexedDB)',
    async build() {
      const flex = await load();
      before = (await indexedDB.databases()).map((d) => d.name ?? '');
      const index = create(flex);
      const db = new flex.IndexedDB(name);
      await index.mount(db);
      return {
        async add(slice) {
          for (const doc of slice) index.add(idOf(doc.key), folded(doc.text));
          await index.commit();
        },
        end: () => db.close(),
      };
    },
    async open() {
      const flex = await load();
      const index = create(flex);
      const db = new flex.IndexedDB(name);
      await index.mount(db);
      return {
        search: async (query, limit) => ((await index.search(folded(query), { limit })) as number[]).map((id) => `m:${id}`),
        add: async (docs) => {
          for (const doc of docs) index.add(idOf(doc.key), folded(doc.text));
          await index.commit();
        },
        close: () => db.close(),
      };
    },
    databases: async () => (await indexedDB.databases()).map((d) => d.name ?? '').filter((n) => n && !before.includes(n)),
  };
}

/** Messages per record of the benchmark's text store. */
const TEXT_PAGE = 64;
const pageOf = (key: string) => Math.floor((Number(key.slice(2)) - 1) / TEXT_PAGE);

/**
 * The messages' texts, for the hits' snippets. The engine's `search` store keeps one record per message;
 * fake-indexeddb fills 1,000,000 records at ~3,000 a second, so here a record holds 64 texts and a query
 * still makes one read per hit, as the engine would.
 */
export async function docStore(name: string): Promise<{
  put(docs: readonly SearchDoc[]): Promise<void>;
  texts(keys: readonly string[]): Promise<string[]>;
  close(): void;
}> {
  const db: IDBPDatabase<unknown> = await openDB(name, 1, { upgrade: (d) => void d.createObjectStore('search') });
  return {
    async put(docs) {
      const pages = new Map<number, Record<string, string>>();
      for (const d of docs) {
        const page = pageOf(d.key);
        let texts = pages.get(page);
        if (!texts) pages.set(page, (texts = {}));
        texts[d.key] = d.text;
      }
      const tx = db.transaction('search', 'readwrite');
      const stored = (await Promise.all([...pages.keys()].map((p) => tx.store.get(p)))) as (Record<string, string> | undefined)[];
      await Promise.all([...[...pages].map(([p, texts], i) => tx.store.put({ ...stored[i], ...texts }, p)), tx.done]);
    },
    async texts(keys) {
      const tx = db.transaction('search', 'readonly');
      const pages = (await Promise.all(keys.map((k) => tx.store.get(pageOf(k))))) as (Record<string, string> | undefined)[];
      return keys.map((k, i) => pages[i]?.[k] ?? '');
    },
    close: () => db.close(),
  };
}

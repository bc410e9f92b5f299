import type { EngineStorage, StoreTx } from '../storage/storage';
import { fold, words } from './fold';

/**
 * An inverted index kept in IndexedDB (issue 24), for 1,000,000 messages: the worker holds one counter,
 * not the index, so it opens at once and its heap does not grow with the history.
 *
 * Every document gets a number in the order it is indexed (the newest is the highest). Numbers fall into
 * blocks of 65,536; a block's posting list for a folded word is one record, `p|<block>|<word>`, the
 * document numbers within the block as a sorted Uint16Array. Since a block's words are neighbouring keys,
 * the last word of a query (typed part way) is one key range, `p|<block>|<prefix>` to `…\uffff`: no term
 * dictionary is needed. A query reads the newest block first and goes back only while it has fewer than
 * its limit of hits (then up to 16 older blocks a round), so two common words stop in the first block and
 * rare ones read one small record per block in a few rounds. `r|<page>` records give each number's document key
 * (null once removed) and chat: a hit's key, and the chat a removal or an edit takes the number out of.
 *
 * A prefix of up to three letters is as wide as a syllable ("lun", "kan"): hundreds of words a block, which
 * made such a query read ~7,000 records at 1,000,000 messages (~100 ms in Chromium). So each block also keeps,
 * per word start of up to three letters, the union of its words' lists, `x|<block>|<start>`: a typed word of
 * three letters is one record a block, of one or two a short range of them, of four or more the narrower range
 * of whole words.
 *
 * A chat's own search ("in this chat") would otherwise filter every match of a block by its `r|` record: for a
 * common word in a quiet chat, every number of every block. So each block also keeps a list per chat or
 * channel, `c|<block>|<chat>`, intersected like one more whole word: such a search reads one more small record
 * a block and stops, as any search does, at its limit.
 *
 * A chat the user left (or that was deleted) may hold 1,000,000 documents: taking them out of every list is
 * minutes of work, too much for one transaction. So the chat is first marked as dropped, `d|<chat>` with the
 * first number it keeps (`below`: documents indexed since, a chat joined again, stay): from that write on every
 * answer leaves out its numbers below that, through its chat lists, and the documents go in slices
 * (indexRemoval.ts) until the mark is taken away. The marks are read at open, so a restart goes on.
 *
 * Every method works in a transaction of the caller's (`EngineStorage.transact`), so the search's documents
 * and their postings change together.
 */

export const BLOCK_SIZE = 65_536;
/** Document keys per `r|` record. */
export const REF_PAGE = 1024;

/** The store the index is kept in. */
export const POSTINGS = 'postings';
/** The `meta` record that says the stored documents were indexed once: no start builds them again. */
export const BUILT_KEY = 'searchPostingsBuilt';

const META_KEY = 'meta';
const blockId = (block: number) => block.toString(36).padStart(4, '0');
const postingKey = (block: number, term: string) => `p|${blockId(block)}|${term}`;
const startKey = (block: number, start: string) => `x|${blockId(block)}|${start}`;
const chatKey = (block: number, chat: number) => `c|${blockId(block)}|${chat.toString(36)}`;
const refKey = (page: number) => `r|${page}`;
const dropKey = (chat: number) => `d|${chat.toString(36)}`;
const DROP_RANGE = ['d|', 'd|\uffff'] as const;

/** Older blocks a query reads in one round once the newest had too few hits. */
const OLDER_BLOCKS_A_ROUND = 16;
/** Letters (code points) of the word starts kept as lists of their own. */
const START_LETTERS = 3;
/** The count `matchesIn` marks a dropped chat's number with: above any query's number of lists. */
const EXCLUDED = 0xffff;
/** What the stored index is made of; an index of another format is dropped and built again (`open`). */
const FORMAT = 3;

/** The first `START_LETTERS` code points of a word (all of a shorter one). */
function wordStart(term: string): string {
  let end = 0;
  let letters = 0;
  for (const ch of term) {
    if (++letters > START_LETTERS) break;
    end += ch.length;
  }
  return term.slice(0, end);
}

/** The records a document's number is in within its block: each word's list, each word start's and its chat's. */
function recordKeys(block: number, text: string, chat: number): Set<string> {
  const keys = new Set<string>([chatKey(block, chat)]);
  for (const term of foldedTerms(text)) {
    keys.add(postingKey(block, term));
    keys.add(startKey(block, wordStart(term)));
  }
  return keys;
}

interface Meta {
  /** The number the next document gets. */
  next: number;
  /** The first number of this format: documents numbered below it (by an index dropped since) are not in it. */
  since: number;
  format: number;
}

/** A page of numbers' documents: the key (null once removed) and chat of each. */
interface RefPage {
  keys: (string | null)[];
  chats: number[];
}

/** A document to index: its key (as the `search` store has it), its chat or channel, and its text. */
export interface IndexedText {
  key: string;
  chat: number;
  text: string;
}

export interface PostingHit {
  docNo: number;
  key: string;
}

/** A chat being dropped: its documents numbered below `below` (and those not numbered) are gone from answers. */
export interface DroppedChat {
  chat: number;
  below: number;
}

/** The distinct folded words of a text. */
export function foldedTerms(text: string): string[] {
  const terms = new Set<string>();
  for (const word of words(text)) {
    const term = fold(word);
    if (term) terms.add(term);
  }
  return [...terms];
}

/** The folded words of a document that a query matched: its whole words, and the last one as a prefix. */
export function matchedTerms(text: string, query: string): string[] {
  const asked = words(query).map(fold).filter(Boolean);
  const prefix = asked[asked.length - 1];
  if (prefix === undefined) return [];
  const whole = new Set(asked.slice(0, -1));
  return foldedTerms(text).filter((t) => whole.has(t) || t.startsWith(prefix));
}

/** Adds `id` to a sorted posting list (ids are mostly the highest yet: appended). */
function withId(list: Uint16Array | undefined, id: number): Uint16Array {
  if (!list) return Uint16Array.of(id);
  let at = list.length;
  while (at > 0 && (list[at - 1] as number) > id) at--;
  if (at > 0 && list[at - 1] === id) return list;
  const next = new Uint16Array(list.length + 1);
  next.set(list.subarray(0, at));
  next[at] = id;
  next.set(list.subarray(at), at + 1);
  return next;
}

function withoutIds(list: Uint16Array, ids: ReadonlySet<number>): Uint16Array {
  const kept = list.filter((id) => !ids.has(id));
  return kept.length === list.length ? list : kept;
}

const readPages = (tx: StoreTx, pages: readonly number[]) =>
  Promise.all(pages.map((p) => tx.get<RefPage>(POSTINGS, refKey(p))));

export class PostingIndex {
  /** Per-block match counts, reused by every query (one block at a time). */
  private readonly counts = new Uint16Array(BLOCK_SIZE);

  /** The chats being dropped, by chat: the first number each keeps. */
  private dropping: Map<number, number>;

  private constructor(
    private meta: Meta,
    dropped: readonly DroppedChat[],
  ) {
    this.dropping = new Map(dropped.map((d) => [d.chat, d.below]));
  }

  /**
   * Opens the index kept in the `postings` store: one small read. An index of an earlier format (before the
   * word starts' or the chats' lists) is dropped, and the one-time build's mark with it, so the build indexes every stored
   * document again, numbered after the old numbers (a document's old number then says it is not indexed).
   */
  static async open(storage: EngineStorage): Promise<PostingIndex> {
    const { meta, dropped } = await PostingIndex.read(storage);
    if (meta.format === FORMAT) return new PostingIndex(meta, dropped);
    const since = Math.ceil(meta.next / BLOCK_SIZE) * BLOCK_SIZE;
    const fresh: Meta = { next: since, since, format: FORMAT };
    // A chat being dropped stays so: the build must not index what is left of it.
    const kept = dropped.map((d) => ({ chat: d.chat, below: since }));
    await storage.transact([POSTINGS, 'meta'], 'readwrite', async (tx) => {
      tx.clear(POSTINGS);
      tx.put(POSTINGS, META_KEY, fresh);
      for (const d of kept) tx.put(POSTINGS, dropKey(d.chat), d);
      tx.delete('meta', BUILT_KEY);
    });
    return new PostingIndex(fresh, kept);
  }

  private static async read(storage: EngineStorage): Promise<{ meta: Meta; dropped: DroppedChat[] }> {
    const [meta, dropped] = await storage.transact([POSTINGS], 'readonly', (tx) =>
      Promise.all([tx.get<Partial<Meta>>(POSTINGS, META_KEY), tx.getRange<DroppedChat>(POSTINGS, ...DROP_RANGE)]),
    );
    if (!meta) return { meta: { next: 0, since: 0, format: FORMAT }, dropped };
    return { meta: { next: meta.next ?? 0, since: meta.since ?? 0, format: meta.format ?? 1 }, dropped };
  }

  /** Reads the numbering and the drops again: a write transaction of the caller's failed after the index counted on it. */
  async reload(storage: EngineStorage): Promise<void> {
    const { meta, dropped } = await PostingIndex.read(storage);
    this.meta = meta;
    this.dropping = new Map(dropped.map((d) => [d.chat, d.below]));
  }

  /**
   * A chat leaves every answer from this write on (the user left it, or it was deleted): what is indexed of it
   * now is marked, to be taken out in slices (`endDrop` once they are through). Dropped again while being
   * dropped, the mark moves up to what was indexed since.
   */
  startDrop(tx: StoreTx, chat: number): void {
    const dropped: DroppedChat = { chat, below: this.meta.next };
    this.dropping.set(chat, dropped.below);
    tx.put(POSTINGS, dropKey(chat), dropped);
  }

  /**
   * Every document of a dropped chat is out of the lists: its mark goes with this transaction. Answers go on
   * leaving the chat out until `dropEnded` (after the commit: a transaction that failed leaves it marked).
   */
  endDrop(tx: StoreTx, chat: number): void {
    tx.delete(POSTINGS, dropKey(chat));
  }

  /** The transaction of `endDrop` is in. */
  dropEnded(chat: number): void {
    this.dropping.delete(chat);
  }

  /** The chats being dropped. */
  get dropped(): DroppedChat[] {
    return [...this.dropping].map(([chat, below]) => ({ chat, below }));
  }

  /** Whether a document of `chat` with this stored number is one a drop takes: numbered before it, or never. */
  isDropped(chat: number, docNo: number | undefined): boolean {
    const below = this.dropping.get(chat);
    return below !== undefined && (!this.holds(docNo) || docNo < below);
  }

  /** Documents indexed so far, removed ones included (their numbers are not reused). */
  get numbered(): number {
    return this.meta.next - this.meta.since;
  }

  /** Whether a document's stored number is one of this index's (not absent, nor from an index dropped since). */
  holds(docNo: number | undefined): docNo is number {
    return docNo !== undefined && docNo >= this.meta.since && docNo < this.meta.next;
  }

  /** Everything goes (sign-out): numbering starts again. */
  clear(tx: StoreTx): void {
    tx.clear(POSTINGS);
    this.meta = { next: 0, since: 0, format: FORMAT };
    this.dropping.clear();
  }

  /**
   * Indexes new documents, numbered after every one before (so newer than all). Returns their numbers, for
   * `remove` and `replace`.
   */
  async add(tx: StoreTx, docs: readonly IndexedText[]): Promise<number[]> {
    const numbers: number[] = [];
    for (let i = 0; i < docs.length; ) {
      const block = Math.floor(this.meta.next / BLOCK_SIZE);
      const room = (block + 1) * BLOCK_SIZE - this.meta.next;
      const slice = docs.slice(i, i + room);
      numbers.push(...(await this.addToBlock(tx, slice)));
      i += slice.length;
    }
    return numbers;
  }

  private async addToBlock(tx: StoreTx, docs: readonly IndexedText[]): Promise<number[]> {
    const first = this.meta.next;
    const block = Math.floor(first / BLOCK_SIZE);
    const added = new Map<string, number[]>();
    const refs = new Map<number, { at: number; doc: IndexedText }[]>();
    docs.forEach((doc, i) => {
      const docNo = first + i;
      for (const key of recordKeys(block, doc.text, doc.chat)) {
        let ids = added.get(key);
        if (!ids) added.set(key, (ids = []));
        ids.push(docNo - block * BLOCK_SIZE);
      }
      const page = Math.floor(docNo / REF_PAGE);
      let onPage = refs.get(page);
      if (!onPage) refs.set(page, (onPage = []));
      onPage.push({ at: docNo % REF_PAGE, doc });
    });
    const next: Meta = { ...this.meta, next: first + docs.length };
    // Counted at once: the next call in this transaction numbers after these (a failed one reloads it).
    this.meta = next;
    const postingKeys = [...added.keys()];
    const pages = [...refs.keys()];
    // A block begun here has no lists yet: nothing to read (the bulk build of a history writes each once).
    const fresh = first % BLOCK_SIZE === 0;
    const [lists, pageRecords] = await Promise.all([
      Promise.all(postingKeys.map((k) => (fresh ? undefined : tx.get<Uint16Array>(POSTINGS, k)))),
      readPages(tx, pages),
    ]);
    postingKeys.forEach((key, i) => {
      const ids = added.get(key) as number[];
      const old = lists[i];
      // New numbers are above every stored one: the list grows at its end.
      const list = new Uint16Array((old?.length ?? 0) + ids.length);
      if (old) list.set(old);
      list.set(ids, old?.length ?? 0);
      tx.put(POSTINGS, key, list);
    });
    pages.forEach((page, i) => {
      const record = pageRecords[i] ?? { keys: [], chats: [] };
      for (const { at, doc } of refs.get(page) ?? []) {
        record.keys[at] = doc.key;
        record.chats[at] = doc.chat;
      }
      tx.put(POSTINGS, refKey(page), record);
    });
    tx.put(POSTINGS, META_KEY, next);
    return docs.map((_, i) => first + i);
  }

  /** Takes documents out of the index at once (deleted, hidden, trimmed): `text` is what was indexed. */
  async remove(tx: StoreTx, docs: readonly { docNo: number; text: string }[]): Promise<void> {
    await this.change(
      tx,
      docs.map((d) => ({ docNo: d.docNo, before: d.text, after: null, chat: null })),
    );
  }

  /** An edit (or a message that became a post): it keeps its number (its place in time), its words change. */
  async replace(tx: StoreTx, docNo: number, before: string, after: string, chat: number): Promise<void> {
    await this.change(tx, [{ docNo, before, after, chat }]);
  }

  private async change(
    tx: StoreTx,
    changes: readonly { docNo: number; before: string; after: string | null; chat: number | null }[],
  ): Promise<void> {
    const held = changes.filter((c) => this.holds(c.docNo));
    if (held.length === 0) return;
    // The chat a number is in now comes from its `r|` record: a removal does not name it, an edit may move it.
    const pages = [...new Set(held.map((c) => Math.floor(c.docNo / REF_PAGE)))];
    const pageRecords = await readPages(tx, pages);
    const byPage = new Map(pages.map((p, i) => [p, pageRecords[i]]));
    // Only the pages a change touched are written back (a removal replayed changes nothing).
    const touched = new Set<number>();
    const ops = new Map<string, { add: number[]; drop: number[] }>();
    const op = (key: string) => {
      let o = ops.get(key);
      if (!o) ops.set(key, (o = { add: [], drop: [] }));
      return o;
    };
    for (const { docNo, before, after, chat } of held) {
      const block = Math.floor(docNo / BLOCK_SIZE);
      const local = docNo - block * BLOCK_SIZE;
      const page = Math.floor(docNo / REF_PAGE);
      const record = byPage.get(page);
      const at = docNo % REF_PAGE;
      // A number whose record is gone or already removed is in no list any more.
      if (!record || record.keys[at] == null) continue;
      const was = record.chats[at] ?? 0;
      const old = recordKeys(block, before, was);
      const now = after === null || chat === null ? new Set<string>() : recordKeys(block, after, chat);
      for (const k of old) if (!now.has(k)) op(k).drop.push(local);
      for (const k of now) if (!old.has(k)) op(k).add.push(local);
      if (chat === null) record.keys[at] = null;
      else record.chats[at] = chat;
      touched.add(page);
    }
    const keys = [...ops.keys()];
    const lists = await Promise.all(keys.map((k) => tx.get<Uint16Array>(POSTINGS, k)));
    keys.forEach((key, i) => {
      const { add, drop } = ops.get(key) as { add: number[]; drop: number[] };
      let list = lists[i];
      // All of a list's drops in one pass: trimming a long history drops thousands from one list.
      if (list && drop.length > 0) list = withoutIds(list, new Set(drop));
      for (const id of add) list = withId(list, id);
      if (list && list.length > 0) tx.put(POSTINGS, key, list);
      else tx.delete(POSTINGS, key);
    });
    for (const page of touched) tx.put(POSTINGS, refKey(page), byPage.get(page));
  }

  /**
   * The newest `limit` documents that have every word of the query, the last one as the start of a word
   * (it is being typed), the others whole; only those of `chat` when it is given.
   */
  async search(tx: StoreTx, query: string, limit: number, chat?: number): Promise<PostingHit[]> {
    const asked = words(query).map(fold).filter(Boolean);
    const prefix = asked[asked.length - 1];
    if (prefix === undefined || limit <= 0) return [];
    const whole = [...new Set(asked.slice(0, -1))];
    const hits: PostingHit[] = [];
    // A short prefix reads the word starts' lists (see the class comment), a longer one the words'.
    const prefixKey = wordStart(prefix) === prefix ? startKey : postingKey;
    // Newest block first (common words stop there); while hits are missing, up to OLDER_BLOCKS_A_ROUND older
    // blocks at once, their reads in one go: two rounds at 1,000,000 messages. Each round waits for IndexedDB
    // twice (the lists, then the keys of the hits), which in Chromium costs more than reading a few blocks more.
    const oldest = Math.floor(this.meta.since / BLOCK_SIZE);
    let block = Math.floor((this.meta.next - 1) / BLOCK_SIZE);
    const dropped = this.dropped;
    for (let round = 1; block >= oldest && hits.length < limit; round = OLDER_BLOCKS_A_ROUND) {
      const blocks = Array.from({ length: Math.min(round, block - oldest + 1) }, (_, i) => block - i);
      block -= blocks.length;
      const read = await Promise.all(
        blocks.map((b) =>
          Promise.all([
            Promise.all([
              ...whole.map((t) => tx.get<Uint16Array>(POSTINGS, postingKey(b, t))),
              // A chat's own search: its list is one more that every hit must be in.
              ...(chat === undefined ? [] : [tx.get<Uint16Array>(POSTINGS, chatKey(b, chat))]),
            ]),
            tx.getRange<Uint16Array>(POSTINGS, prefixKey(b, prefix), `${prefixKey(b, prefix)}\uffff`),
            // A chat being dropped: its numbers below its mark are left out (the block's part of them).
            Promise.all(
              dropped
                .filter((d) => d.below > b * BLOCK_SIZE)
                .map(async (d) => ({ list: await tx.get<Uint16Array>(POSTINGS, chatKey(b, d.chat)), below: d.below - b * BLOCK_SIZE })),
            ),
          ]),
        ),
      );
      const candidates: number[] = [];
      read.forEach(([lists, prefixed, excluded], i) => {
        const want = limit - hits.length - candidates.length;
        if (want <= 0 || prefixed.length === 0 || lists.some((l) => !l)) return;
        const b = blocks[i] as number;
        for (const local of this.matchesIn(lists as Uint16Array[], prefixed, want, excluded)) candidates.push(b * BLOCK_SIZE + local);
      });
      for (const hit of await this.refsOf(tx, candidates)) {
        if (hits.length >= limit) break;
        if (chat === undefined || hit.chat === chat) hits.push({ docNo: hit.docNo, key: hit.key });
      }
    }
    return hits;
  }

  /**
   * Intersects one block's lists (each whole word and the chat's, and any word with the prefix), newest first,
   * leaving out the numbers of dropped chats below their marks (`excluded`, in the block's numbering).
   */
  private matchesIn(
    wholeLists: Uint16Array[],
    prefixed: Uint16Array[],
    limit: number,
    excluded: readonly { list: Uint16Array | undefined; below: number }[] = [],
  ): number[] {
    const counts = this.counts;
    counts.fill(0);
    // A count no list reaches (a query has far fewer words than 65,535): an excluded number never matches.
    for (const { list, below } of excluded) {
      for (let j = 0; list && j < list.length && (list[j] as number) < below; j++) counts[list[j] as number] = EXCLUDED;
    }
    // Smallest first: every later list only raises what all before it had.
    const sorted = [...wholeLists].sort((a, b) => a.length - b.length);
    sorted.forEach((list, i) => {
      for (let j = 0; j < list.length; j++) {
        const id = list[j] as number;
        if (counts[id] === i) counts[id] = i + 1;
      }
    });
    const need = sorted.length + 1;
    let top = -1;
    for (const list of prefixed) {
      for (let j = 0; j < list.length; j++) {
        const id = list[j] as number;
        // Two words with the prefix in one document count once.
        if (counts[id] === need - 1) {
          counts[id] = need;
          if (id > top) top = id;
        }
      }
    }
    const out: number[] = [];
    for (let id = top; id >= 0 && out.length < limit; id--) if (counts[id] === need) out.push(id);
    return out;
  }

  /** The keys and chats of numbers, in their order; removed ones are left out. */
  private async refsOf(tx: StoreTx, docNos: readonly number[]): Promise<(PostingHit & { chat: number })[]> {
    if (docNos.length === 0) return [];
    const pages = [...new Set(docNos.map((n) => Math.floor(n / REF_PAGE)))];
    const records = await readPages(tx, pages);
    const byPage = new Map(pages.map((p, i) => [p, records[i]]));
    const out: (PostingHit & { chat: number })[] = [];
    for (const docNo of docNos) {
      const record = byPage.get(Math.floor(docNo / REF_PAGE));
      const key = record?.keys[docNo % REF_PAGE];
      if (key) out.push({ docNo, key, chat: record.chats[docNo % REF_PAGE] ?? 0 });
    }
    return out;
  }
}

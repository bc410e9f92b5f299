import MiniSearch from 'minisearch';
import { groupOf, type SearchDoc } from './documents';
import { fold, words } from './fold';

/** One ranked match: the document, its score, and the folded words of it that matched. */
export interface RawHit {
  doc: SearchDoc;
  score: number;
  terms: readonly string[];
}

export interface SearchOptions {
  /** Only this chat's messages (or this channel's posts and comments). */
  conversationId?: number;
  limit: number;
}

/**
 * Scores this close count as equal, so that among equally good matches the newest comes first (BM25 makes
 * near-ties of everything that differs only in length).
 */
const SCORE_STEP = 0.1;

/**
 * The full-text index (MiniSearch, issue 13) over the documents the engine keeps, with the documents
 * themselves by key and by chat or channel (for results and for trimming history).
 */
export class SearchIndex {
  private mini = SearchIndex.empty();
  private readonly docs = new Map<string, SearchDoc>();
  private readonly groups = new Map<string, Set<string>>();

  private static empty(): MiniSearch<SearchDoc> {
    return new MiniSearch<SearchDoc>({
      idField: 'key',
      fields: ['text'],
      storeFields: [],
      tokenize: words,
      processTerm: (term) => fold(term) || null,
      // Discarded documents (edits, deletes) are cleaned out of the tree in the background by MiniSearch.
      autoVacuum: { minDirtCount: 200, minDirtFactor: 0.1, batchSize: 500, batchWait: 10 },
    });
  }

  get size(): number {
    return this.docs.size;
  }

  get(key: string): SearchDoc | undefined {
    return this.docs.get(key);
  }

  /** Keeps a document without indexing it yet (a stored one, before the build reaches it). */
  remember(doc: SearchDoc): void {
    this.docs.set(doc.key, doc);
    this.group(doc).add(doc.key);
  }

  /** Adds a remembered document to the tree (the build's step); no-op when it is gone or already there. */
  indexRemembered(key: string): void {
    const doc = this.docs.get(key);
    if (doc && !this.mini.has(key)) this.mini.add(doc);
  }

  /** Adds or replaces a document; the tree is touched only when its text changed. */
  upsert(doc: SearchDoc): void {
    const old = this.docs.get(doc.key);
    if (old && groupOf(old) !== groupOf(doc)) this.groups.get(groupOf(old))?.delete(doc.key);
    this.remember(doc);
    if (!this.mini.has(doc.key)) this.mini.add(doc);
    else if (old?.text !== doc.text) this.mini.replace(doc);
  }

  remove(key: string): boolean {
    const doc = this.docs.get(key);
    if (!doc) return false;
    this.docs.delete(key);
    this.groups.get(groupOf(doc))?.delete(key);
    if (this.mini.has(key)) this.mini.discard(key);
    return true;
  }

  /** Every document of a chat (or channel) the user no longer has. */
  removeGroup(group: string): string[] {
    const keys = [...(this.groups.get(group) ?? [])];
    for (const key of keys) this.remove(key);
    this.groups.delete(group);
    return keys;
  }

  /** Keeps the latest `keep` documents of the group (by time, then id); returns the keys removed. */
  trimGroup(group: string, keep: number): string[] {
    const keys = this.groups.get(group);
    if (!keys || keys.size <= keep) return [];
    const docs = [...keys].map((k) => this.docs.get(k)).filter((d): d is SearchDoc => d !== undefined);
    docs.sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
    const removed = docs.slice(keep).map((d) => d.key);
    for (const key of removed) this.remove(key);
    return removed;
  }

  /** The documents of a chat (`chat:<id>`) or channel (`channel:<id>`). */
  docsOf(group: string): SearchDoc[] {
    return [...(this.groups.get(group) ?? [])].map((k) => this.docs.get(k)).filter((d): d is SearchDoc => d !== undefined);
  }

  groupNames(): string[] {
    return [...this.groups.keys()];
  }

  clear(): void {
    this.mini = SearchIndex.empty();
    this.docs.clear();
    this.groups.clear();
  }

  /** Every word of the query must match; the last one may be the start of a word (it is still being typed). */
  search(query: string, options: SearchOptions): RawHit[] {
    if (words(query).every((w) => fold(w) === '')) return [];
    const { conversationId } = options;
    const results = this.mini.search(query, {
      combineWith: 'AND',
      prefix: (_term, index, terms) => index === terms.length - 1,
      ...(conversationId !== undefined
        ? {
            filter: (r) => {
              const doc = this.docs.get(r.id as string);
              return doc !== undefined && (doc.conversationId === conversationId || doc.channelId === conversationId);
            },
          }
        : {}),
    });
    const hits: RawHit[] = [];
    for (const r of results) {
      const doc = this.docs.get(r.id as string);
      if (doc) hits.push({ doc, score: r.score, terms: r.terms });
    }
    const step = (score: number) => Math.round(score / SCORE_STEP);
    hits.sort((a, b) => step(b.score) - step(a.score) || b.doc.createdAt - a.doc.createdAt || b.doc.id - a.doc.id);
    return hits.slice(0, options.limit);
  }

  private group(doc: SearchDoc): Set<string> {
    const name = groupOf(doc);
    let set = this.groups.get(name);
    if (!set) this.groups.set(name, (set = new Set()));
    return set;
  }
}

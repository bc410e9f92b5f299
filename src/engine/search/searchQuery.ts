import type { EngineStorage } from '../storage/storage';
import type { StoredDoc } from './documents';
import { SEARCH } from './indexWriter';
import { POSTINGS, type PostingIndex } from './postingIndex';

/**
 * The documents of a query's hits, newest first: the index's newest matches (by when they were indexed),
 * each read from the `search` store by key, in one read transaction with the index's own reads.
 */
export async function queryDocs(storage: EngineStorage, index: PostingIndex, query: string, limit: number, chat?: number): Promise<StoredDoc[]> {
  const docs = await storage.transact([SEARCH, POSTINGS], 'readonly', async (tx) => {
    const hits = await index.search(tx, query, limit, chat);
    const read = await Promise.all(hits.map((h) => tx.get<StoredDoc>(SEARCH, h.key)));
    // A number whose document has another (replaced meanwhile) is not this hit.
    return read.filter((d, i): d is StoredDoc => d !== undefined && d.docNo === hits[i]?.docNo);
  });
  return docs.sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
}

import type { IndexKey, StoreName, StoreTx, TxMode } from './storage';

type Indexes = Partial<Record<StoreName, Record<string, string | readonly string[]>>>;

const rank = (key: IndexKey) => (typeof key === 'number' ? 0 : typeof key === 'string' ? 1 : 2);

/** IndexedDB's order of keys (indexedDB.cmp), for the Map store's indexes and ranges. */
export function compareKeys(a: IndexKey, b: IndexKey): number {
  const byType = rank(a) - rank(b);
  if (byType !== 0) return byType;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const c = compareKeys(a[i] as IndexKey, b[i] as IndexKey);
      if (c !== 0) return c;
    }
    return a.length - b.length;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

const validKey = (v: unknown): v is IndexKey => typeof v === 'string' || (typeof v === 'number' && !Number.isNaN(v));

/** A record's key in an index, or undefined where IndexedDB would leave the record out (a null field). */
function indexKeyOf(value: unknown, path: string | readonly string[]): IndexKey | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const field = (name: string) => (value as Record<string, unknown>)[name];
  if (typeof path === 'string') {
    const v = field(path);
    return validKey(v) ? v : undefined;
  }
  const parts = path.map(field);
  return parts.every(validKey) ? (parts as IndexKey[]) : undefined;
}

/**
 * A transaction over Map stores: writes apply at once (later reads see them, as in IndexedDB) and are undone
 * if `work` fails, so a failed read-modify-write leaves nothing half done. Values are cloned both ways.
 */
export async function memoryTransact<T>(
  storeOf: (name: StoreName) => Map<string, unknown>,
  mode: TxMode,
  work: (tx: StoreTx) => Promise<T>,
  indexes: Indexes,
): Promise<T> {
  const undo: (() => void)[] = [];
  const writable = () => {
    if (mode !== 'readwrite') throw new Error('a read-only transaction cannot write');
  };
  const sortedKeys = (store: StoreName) => [...storeOf(store).keys()].sort();
  const indexed = (store: StoreName, index: string, lower: IndexKey, upper: IndexKey) => {
    const path = indexes[store]?.[index];
    if (path === undefined) throw new Error(`no index ${index} on ${store}`);
    const rows: { key: string; at: IndexKey }[] = [];
    for (const [key, value] of storeOf(store)) {
      const at = indexKeyOf(value, path);
      if (at !== undefined && compareKeys(at, lower) >= 0 && compareKeys(at, upper) <= 0) rows.push({ key, at });
    }
    return rows.sort((a, b) => compareKeys(a.at, b.at) || compareKeys(a.key, b.key));
  };
  const tx: StoreTx = {
    get: async <V>(store: StoreName, key: string) => {
      const value = storeOf(store).get(key);
      return value === undefined ? undefined : (structuredClone(value) as V);
    },
    getRange: async <V>(store: StoreName, lower: string, upper: string) => {
      const s = storeOf(store);
      return sortedKeys(store)
        .filter((k) => k >= lower && k <= upper)
        .map((k) => structuredClone(s.get(k)) as V);
    },
    getPage: async <V>(store: StoreName, after: string | null, count: number) => {
      const s = storeOf(store);
      return sortedKeys(store)
        .filter((k) => after === null || k > after)
        .slice(0, count)
        .map((key) => ({ key, value: structuredClone(s.get(key)) as V }));
    },
    indexKeys: async (store, index, lower, upper, limit) =>
      indexed(store, index, lower, upper)
        .slice(0, limit ?? Infinity)
        .map((r) => r.key),
    indexCount: async (store, index, lower, upper) => indexed(store, index, lower, upper).length,
    put: (store, key, value) => {
      writable();
      const s = storeOf(store);
      const had = s.has(key);
      const old = s.get(key);
      s.set(key, structuredClone(value));
      undo.push(() => (had ? s.set(key, old) : s.delete(key)));
    },
    delete: (store, key) => {
      writable();
      const s = storeOf(store);
      if (!s.has(key)) return;
      const old = s.get(key);
      s.delete(key);
      undo.push(() => s.set(key, old));
    },
    clear: (store) => {
      writable();
      const s = storeOf(store);
      const old = new Map(s);
      s.clear();
      undo.push(() => {
        s.clear();
        for (const [k, v] of old) s.set(k, v);
      });
    },
  };
  try {
    return await work(tx);
  } catch (error) {
    for (const step of undo.reverse()) step();
    throw error;
  }
}

import * as fake from 'fake-indexeddb';

/**
 * IndexedDB in Node for the search-scale benchmark: fake-indexeddb's globals are put in place only while
 * `fn` runs, so the other benchmarks of the same process (engines that fall back to memory without
 * IndexedDB) see none of it. FlexSearch reads `window.indexedDB` once, when first imported; the factory is
 * the same object every time, so a later run still finds its databases.
 */
const GLOBALS = ['IDBCursor', 'IDBCursorWithValue', 'IDBDatabase', 'IDBFactory', 'IDBIndex', 'IDBKeyRange', 'IDBObjectStore', 'IDBOpenDBRequest', 'IDBRequest', 'IDBTransaction', 'IDBVersionChangeEvent'] as const;

export async function withFakeIndexedDb<T>(fn: () => Promise<T>): Promise<T> {
  const g = globalThis as Record<string, unknown>;
  const values: Record<string, unknown> = { indexedDB: fake.indexedDB, window: globalThis, navigator: {} };
  for (const name of GLOBALS) values[name] = fake[name];
  const saved = Object.keys(values).map((name) => [name, Object.getOwnPropertyDescriptor(g, name)] as const);
  for (const [name, value] of Object.entries(values)) Object.defineProperty(g, name, { value, configurable: true, writable: true });
  try {
    return await fn();
  } finally {
    for (const [name, descriptor] of saved) {
      if (descriptor) Object.defineProperty(g, name, descriptor);
      else delete g[name];
    }
  }
}

/** Approximate bytes of what a database stores: keys and values, strings at one byte a character. */
export async function storedBytes(name: string): Promise<number> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = fake.indexedDB.open(name);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error(`cannot open ${name}`));
  });
  let total = 0;
  try {
    for (const store of [...db.objectStoreNames]) {
      const tx = db.transaction(store, 'readonly');
      const [keys, values] = await Promise.all([request<IDBValidKey[]>(tx.objectStore(store).getAllKeys()), request<unknown[]>(tx.objectStore(store).getAll())]);
      for (const key of keys) total += sizeOf(key);
      for (const value of values) total += sizeOf(value);
    }
  } finally {
    db.close();
  }
  return total;
}

function request<T>(r: IDBRequest): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result as T);
    r.onerror = () => reject(r.error ?? new Error('request failed'));
  });
}

function sizeOf(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (typeof value === 'number') return 8;
  if (typeof value === 'boolean' || value === null || value === undefined) return 1;
  if (ArrayBuffer.isView(value)) return value.byteLength;
  if (value instanceof ArrayBuffer) return value.byteLength;
  if (Array.isArray(value)) return value.reduce((sum: number, v) => sum + sizeOf(v), 0);
  if (value instanceof Map) return [...value].reduce((sum: number, [k, v]) => sum + sizeOf(k) + sizeOf(v), 0);
  if (value instanceof Set) return [...value].reduce((sum: number, v) => sum + sizeOf(v), 0);
  if (typeof value === 'object') return Object.entries(value).reduce((sum, [k, v]) => sum + k.length + sizeOf(v), 0);
  return 0;
}

export async function deleteDatabase(name: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const r = fake.indexedDB.deleteDatabase(name);
    r.onsuccess = () => resolve();
    r.onerror = () => reject(r.error ?? new Error(`cannot delete ${name}`));
  });
}

export async function databaseNames(): Promise<string[]> {
  return (await fake.indexedDB.databases()).map((d) => d.name ?? '').filter(Boolean);
}

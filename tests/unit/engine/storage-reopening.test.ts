import { describe, expect, it } from 'vitest';
import { ReopeningStorage, STORE_CLEARED } from '../../../src/engine/storage/reopeningStorage';
import { type EngineStorage, MemoryStorage } from '../../../src/engine/storage/storage';

/** A memory store that can be made to refuse as IndexedDB does on a connection the browser is closing. */
class ClosingStorage extends MemoryStorage {
  refusal: Error | null = null;
  closed = false;

  override async writeBatch(...args: Parameters<EngineStorage['writeBatch']>): Promise<void> {
    if (this.refusal) throw this.refusal;
    return super.writeBatch(...args);
  }

  override async close(): Promise<void> {
    this.closed = true;
  }
}

async function reopening() {
  const stores: ClosingStorage[] = [];
  const lost: (() => void)[] = [];
  let replaced = 0;
  const storage = await ReopeningStorage.open(async (onLost) => {
    lost.push(onLost);
    const store = new ClosingStorage();
    stores.push(store);
    return store;
  });
  storage.whenReplaced(() => (replaced += 1));
  return { storage, stores, lost, replaced: () => replaced };
}

const put = (key: string) => [{ store: 'drafts', type: 'put', key, value: key }] as const;

describe('ReopeningStorage (a database the browser deletes under the engine)', () => {
  it("a refusal of a closing connection fails in the engine's words and opens a fresh store", async () => {
    const { storage, stores, replaced } = await reopening();
    stores[0]!.refusal = new DOMException("Failed to execute 'transaction' on 'IDBDatabase': The database connection is closing.", 'InvalidStateError');
    const failure = await storage.writeBatch(put('a')).catch((error: unknown) => error);
    expect(failure).toMatchObject({ name: 'EngineError', message: STORE_CLEARED });
    expect(String((failure as Error).message)).not.toContain('IDBDatabase');
    await expect.poll(replaced).toBe(1);
    expect(stores).toHaveLength(2);
    expect(stores[0]!.closed).toBe(true);
    await storage.writeBatch(put('b'));
    expect(await stores[1]!.get('drafts', 'b')).toBe('b');
  });

  it('calls made while the new store opens wait for it; other refusals pass through as they are', async () => {
    const { storage, stores, lost, replaced } = await reopening();
    lost[0]!();
    const waiting = storage.writeBatch(put('during'));
    await waiting;
    expect(await stores[1]!.get('drafts', 'during')).toBe('during');
    expect(await stores[0]!.get('drafts', 'during')).toBeUndefined();
    expect(replaced()).toBe(1);

    const quota = new DOMException('full', 'QuotaExceededError');
    stores[1]!.refusal = quota;
    await expect(storage.writeBatch(put('c'))).rejects.toBe(quota);
    expect(stores).toHaveLength(2);
  });

  it('a loss reported again, or by a store already replaced, opens nothing more', async () => {
    const { stores, lost, replaced } = await reopening();
    lost[0]!();
    lost[0]!();
    await expect.poll(replaced).toBe(1);
    lost[0]!();
    await Promise.resolve();
    expect(stores).toHaveLength(2);
    lost[1]!();
    await expect.poll(replaced).toBe(2);
    expect(stores).toHaveLength(3);
  });
});

import { describe, expect, it } from 'vitest';
import { IdbStorage, SCHEMA_VERSION } from '../../src/engine/storage/idbStorage';
import { runStorageAdapterTests } from '../unit/engine/storage-acceptance';

let counter = 0;
const freshName = () => `engine-test-${Date.now()}-${counter++}`;

runStorageAdapterTests('IndexedDB', () => IdbStorage.open({ name: freshName() }));

describe('IndexedDB upgrades', () => {
  it('an older connection closes itself for a newer version and asks its tab to reload', async () => {
    const name = freshName();
    let asked = 0;
    const old = await IdbStorage.open({ name, version: 1, onVersionChange: () => asked++ });
    await old.writeBatch([{ store: 'meta', type: 'put', key: 'k', value: 'kept' }]);
    const newer = await IdbStorage.open({ name, version: 2 });
    expect(asked).toBe(1);
    expect(await newer.get('meta', 'k')).toBe('kept');
    await newer.close();
  });

  it('a deleteDatabase from elsewhere closes the connection and reports the store lost, not an upgrade', async () => {
    const name = freshName();
    let lost = 0;
    let upgrades = 0;
    const store = await IdbStorage.open({ name, onLost: () => lost++, onVersionChange: () => upgrades++ });
    await store.writeBatch([{ store: 'session', type: 'put', key: 'auth', value: { token: 't' } }]);
    // Not blocked: the connection lets go at once, so the delete goes through.
    await new Promise<void>((resolve, reject) => {
      const request = indexedDB.deleteDatabase(name);
      request.onsuccess = () => resolve();
      request.onerror = () => reject(request.error ?? new Error('delete failed'));
      request.onblocked = () => reject(new Error('the engine blocked the delete'));
    });
    expect(lost).toBe(1);
    expect(upgrades).toBe(0);
    // What a reopen finds: an empty database.
    const fresh = await IdbStorage.open({ name });
    expect(await fresh.get('session', 'auth')).toBeUndefined();
    await fresh.close();
  });

  it('a database of version 1 gains the stores added since (attachment bytes, communities), its data kept', async () => {
    const name = freshName();
    // Version 1 as the first release made it: no files or communities store.
    await new Promise<void>((resolve, reject) => {
      const request = indexedDB.open(name, 1);
      request.onupgradeneeded = () => {
        request.result.createObjectStore('outbox').put({ localId: 'out_1' }, 'out_1');
        request.result.createObjectStore('meta');
      };
      request.onsuccess = () => {
        request.result.close();
        resolve();
      };
      request.onerror = () => reject(request.error ?? new Error('open failed'));
    });
    expect(SCHEMA_VERSION).toBe(6);
    const upgraded = await IdbStorage.open({ name });
    expect(await upgraded.get('outbox', 'out_1')).toEqual({ localId: 'out_1' });
    await upgraded.writeBatch([
      { store: 'files', type: 'put', key: 'out_1', value: new Blob(['x']) },
      { store: 'communities', type: 'put', key: 'state', value: { communities: {} } },
      { store: 'history', type: 'put', key: '7:older:1', value: [] },
      { store: 'search', type: 'put', key: 'm:1', value: { key: 'm:1', text: 'hej' } },
      { store: 'postings', type: 'put', key: 'meta', value: { next: 1 } },
    ]);
    expect(await upgraded.get('files', 'out_1')).toBeInstanceOf(Blob);
    await upgraded.close();
  });

  it('an engine of a build from before the lease (version 2) is stopped by a newer build opening the store', async () => {
    const name = freshName();
    let asked = 0;
    const old = await IdbStorage.open({ name, version: 2, onVersionChange: () => asked++ });
    const current = await IdbStorage.open({ name });
    expect(asked).toBe(1);
    await old.close();
    await current.close();
  });

  it('a version 5 store (search documents, no postings) gains the postings and the documents’ indexes, its documents kept', async () => {
    const name = freshName();
    // As version 5 wrote it: no `group`, no number in an index.
    const doc = { key: 'm:1', kind: 'message', conversationId: 1, channelId: null, stid: 's1', createdAt: 5, id: 1, text: 'hej' };
    // The search store as version 5 made it: no indexes, no postings store.
    await new Promise<void>((resolve, reject) => {
      const request = indexedDB.open(name, 5);
      request.onupgradeneeded = () => {
        request.result.createObjectStore('search').put(doc, 'm:1');
        request.result.createObjectStore('meta');
      };
      request.onsuccess = () => {
        request.result.close();
        resolve();
      };
      request.onerror = () => reject(request.error ?? new Error('open failed'));
    });
    const upgraded = await IdbStorage.open({ name });
    expect(await upgraded.get('search', 'm:1')).toEqual(doc);
    expect(await upgraded.transact(['search'], 'readonly', (tx) => tx.indexKeys('search', 'stid', 's1', 's1'))).toEqual(['m:1']);
    // Found as its chat's before any build rewrote it (leaving the chat drops it at once).
    expect(await upgraded.transact(['search'], 'readonly', (tx) => tx.indexKeys('search', 'chat', [1], [1, []]))).toEqual(['m:1']);
    await upgraded.writeBatch([{ store: 'postings', type: 'put', key: 'meta', value: { next: 0 } }]);
    await upgraded.close();
  });

  it('an older build does not downgrade a newer store: its open is refused and the store stays as it was', async () => {
    const name = freshName();
    const current = await IdbStorage.open({ name });
    await current.writeBatch([{ store: 'postings', type: 'put', key: 'meta', value: { next: 3 } }]);
    await current.close();
    await expect(IdbStorage.open({ name, version: 5 })).rejects.toMatchObject({ name: 'VersionError' });
    const again = await IdbStorage.open({ name });
    expect(await again.get('postings', 'meta')).toEqual({ next: 3 });
    await again.close();
  });
});

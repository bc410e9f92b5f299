import { describe, expect, it } from 'vitest';
import { IdbStorage } from '../../src/engine/storage/idbStorage';
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
});

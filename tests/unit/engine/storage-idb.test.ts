import 'fake-indexeddb/auto';
import { IdbStorage } from '../../../src/engine/storage/idbStorage';
import { runStorageAdapterTests } from './storage-acceptance';

// The IndexedDB adapter in Node, over fake-indexeddb (the browser project runs it in Chromium too).
let n = 0;
runStorageAdapterTests('IndexedDB (fake-indexeddb)', () => IdbStorage.open({ name: `storage-idb-${++n}` }));

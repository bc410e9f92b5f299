import { MemoryStorage } from '../../../src/engine/storage/storage';
import { runStorageAdapterTests } from './storage-acceptance';

runStorageAdapterTests('memory', async () => new MemoryStorage());

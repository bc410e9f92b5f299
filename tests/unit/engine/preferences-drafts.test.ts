import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { Preferences } from '../../../src/engine/preferences/preferences';
import { MemoryStorage, type StorageOp } from '../../../src/engine/storage/storage';

/** IndexedDB's writes take a while: each batch here waits for the test to let it through, in order. */
class SlowStorage extends MemoryStorage {
  private readonly waiting: (() => void)[] = [];

  override async writeBatch(ops: readonly StorageOp[]): Promise<void> {
    await new Promise<void>((resolve) => this.waiting.push(resolve));
    return super.writeBatch(ops);
  }

  /** Lets every write waiting now (and those they queue) finish. */
  async drain(): Promise<void> {
    for (let i = 0; i < 20; i++) {
      this.waiting.splice(0).forEach((go) => go());
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }
}

async function loaded(): Promise<{ storage: SlowStorage; preferences: Preferences }> {
  const storage = new SlowStorage();
  const preferences = new Preferences(storage);
  const loading = preferences.load();
  await storage.drain();
  await loading;
  return { storage, preferences };
}

describe('message drafts', () => {
  it('a draft still being written when the message is sent does not come back after the clearing', async () => {
    const { storage, preferences } = await loaded();

    const saved = preferences.setDraft(12, 'hello');
    const cleared = preferences.setDraft(12, '');
    await storage.drain();
    await Promise.all([saved, cleared]);

    expect(await firstValueFrom(preferences.drafts())).toEqual({});
    expect(await storage.getAll('drafts')).toEqual([]);
  });

  it('writes of different chats at the same time keep each other', async () => {
    const { storage, preferences } = await loaded();

    const writes = [preferences.setDraft(1, 'one'), preferences.setDraft(2, 'two')];
    await storage.drain();
    await Promise.all(writes);

    expect(await firstValueFrom(preferences.drafts())).toEqual({ 1: 'one', 2: 'two' });
  });

  it('has a Client-Token before anything is loaded, and keeps it when storing it fails', async () => {
    const storage = new MemoryStorage();
    storage.writeBatch = () => Promise.reject(new Error('disk full'));
    const preferences = new Preferences(storage);
    const before = preferences.clientToken;
    expect(before).toMatch(/^[0-9a-f]{32}$/);
    await preferences.load();
    expect(preferences.clientToken).toBe(before);
  });
});

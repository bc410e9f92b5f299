import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { Outbox } from '../../../src/engine/messages/outbox';
import { Preferences } from '../../../src/engine/preferences/preferences';
import type { RestClient } from '../../../src/engine/rest';
import type { SendMessageInput } from '../../../src/engine/contract/restInputs';
import type { StorageStatus } from '../../../src/engine/api';
import { QuotaWatchStorage } from '../../../src/engine/storage/quotaWatch';
import { MemoryStorage, type StorageOp } from '../../../src/engine/storage/storage';
import type { Message } from '../../../src/protocol/entities';
import { manualClock } from '../worker/manualClock';

/** A store that refuses every write that adds data while `full`, as IndexedDB does over its quota. */
class FullStorage extends MemoryStorage {
  full = true;

  override async writeBatch(ops: readonly StorageOp[]): Promise<void> {
    if (this.full && ops.some((op) => op.type === 'put')) throw new DOMException('over quota', 'QuotaExceededError');
    return super.writeBatch(ops);
  }
}

/** A store whose every write fails for some reason other than space (an aborted transaction, say). */
class FailingStorage extends MemoryStorage {
  override writeBatch(): Promise<void> {
    return Promise.reject(new Error('aborted'));
  }
}

const statuses = (storage: QuotaWatchStorage) => {
  const seen: StorageStatus[] = [];
  storage.status.subscribe((s) => seen.push(s));
  return seen;
};

describe('a full store (issue 12: IndexedDB over its quota)', () => {
  it('is reported full by the write it refuses, and ok again once a write that adds data fits', async () => {
    const inner = new FullStorage();
    const storage = new QuotaWatchStorage(inner);
    const seen = statuses(storage);
    await expect(storage.writeBatch([{ store: 'meta', type: 'put', key: 'a', value: 1 }])).rejects.toMatchObject({
      name: 'QuotaExceededError',
    });
    // A delete fits on a full store; it does not show that there is room.
    await storage.writeBatch([{ store: 'meta', type: 'delete', key: 'a' }]);
    expect(seen).toEqual(['ok', 'full']);
    inner.full = false;
    await storage.writeBatch([{ store: 'meta', type: 'put', key: 'a', value: 1 }]);
    expect(seen).toEqual(['ok', 'full', 'ok']);
  });

  it('does not count other failures as a full store', async () => {
    const failing = new FailingStorage();
    const storage = new QuotaWatchStorage(failing);
    const seen = statuses(storage);
    await expect(storage.writeBatch([{ store: 'meta', type: 'put', key: 'a', value: 1 }])).rejects.toThrow('aborted');
    expect(seen).toEqual(['ok']);
  });

  it('still sends what is typed, file and all, from memory, once each', async () => {
    const storage = new QuotaWatchStorage(new FullStorage());
    const seen = statuses(storage);
    const sends: SendMessageInput[] = [];
    const uploads: Blob[] = [];
    const stored: Message[] = [];
    const uploaded = { id: 'f1.png', url: '/files/f1.png', thumbnail: '', name: 'a.png', size: 8, mime: 'image/png', type: 'image' };
    const rest = {
      uploadFile: (file: Blob) => {
        uploads.push(file);
        return Promise.resolve({ file: uploaded });
      },
      sendMessage: (conversationId: number, input: SendMessageInput) => {
        sends.push(input);
        return Promise.resolve({
          message: { id: sends.length, conversation_id: conversationId, client_id: input.clientId, user_id: 5, message: input.message },
        });
      },
    } as unknown as RestClient;
    const outbox = new Outbox({ storage, rest: () => rest, clock: manualClock().clock, userId: () => 5, onStored: (m) => stored.push(m) });
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], 'a.png', { type: 'image/png' });

    await outbox.add({ conversationId: 9, text: 'typed on a full disk', quotedMessageId: null });
    await outbox.add({ conversationId: 9, text: 'with a picture', quotedMessageId: null, file });
    await expect.poll(() => stored.map((m) => m.message)).toEqual(['typed on a full disk', 'with a picture']);
    expect(sends.map((s) => s.message)).toEqual(['typed on a full disk', 'with a picture']);
    expect(uploads).toEqual([file]);
    expect(sends[1]?.attachment).toEqual({ type: 'image', fileId: 'f1.png' });
    expect(await firstValueFrom(outbox.entries)).toEqual([]);
    expect(seen).toEqual(['ok', 'full']);
  });

  it('still refuses a send when the store fails for another reason', async () => {
    const failing = new FailingStorage();
    const rest = { sendMessage: () => Promise.reject(new Error('not sent')) } as unknown as RestClient;
    const outbox = new Outbox({ storage: failing, rest: () => rest, clock: manualClock().clock, userId: () => 5, onStored: () => undefined });
    await expect(outbox.add({ conversationId: 9, text: 'hello', quotedMessageId: null })).rejects.toThrow('aborted');
    expect(outbox.current).toEqual([]);
  });

  it('keeps the language, drafts and settings the user chooses, in memory, for as long as the engine runs', async () => {
    const preferences = new Preferences(new QuotaWatchStorage(new FullStorage()));
    await preferences.load();
    await preferences.setLanguage('sv');
    await preferences.setDraft(9, 'half a thought');
    const settings = await preferences.updateSettings({ incomingMessagesSound: false });
    expect(await firstValueFrom(preferences.language())).toBe('sv');
    expect(await firstValueFrom(preferences.drafts())).toEqual({ 9: 'half a thought' });
    expect(settings.incomingMessagesSound).toBe(false);
    expect((await firstValueFrom(preferences.settings())).incomingMessagesSound).toBe(false);
  });
});

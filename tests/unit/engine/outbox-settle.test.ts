import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { Outbox } from '../../../src/engine/messages/outbox';
import type { RestClient } from '../../../src/engine/rest';
import { MemoryStorage } from '../../../src/engine/storage/storage';
import type { Message } from '../../../src/protocol/entities';
import { manualClock } from '../worker/manualClock';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

describe('an attachment send settled by its socket echo', () => {
  it('goes away when the echo (empty text, same client_id) arrives before the answer, file bytes too', async () => {
    const storage = new MemoryStorage();
    const never = new Promise<never>(() => undefined);
    const uploaded = { id: 'f1.png', url: '/files/f1.png', thumbnail: '', name: 'a.png', size: 12, mime: 'image/png', type: 'image' };
    const rest = {
      uploadFile: () => Promise.resolve({ file: uploaded }),
      sendMessage: () => never,
    } as unknown as RestClient;
    const outbox = new Outbox({
      storage,
      rest: () => rest,
      clock: manualClock().clock,
      userId: () => 5,
      onStored: () => undefined,
    });
    const file = new File([PNG], 'a.png', { type: 'image/png' });
    const entry = await outbox.add({ conversationId: 9, text: '', quotedMessageId: null, file });
    await expect.poll(() => outbox.current[0]?.attachment?.uploaded?.id).toBe('f1.png');
    const echo = { id: 100, conversation_id: 9, client_id: entry.clientId, user_id: 5, message: '' } as Message;
    await outbox.settle(echo);
    expect(await firstValueFrom(outbox.entries)).toEqual([]);
    expect(await storage.get('files', entry.localId)).toBeUndefined();
    outbox.stop();
  });
});

describe('a send the server answered', () => {
  it('leaves the outbox stream before its storage write finishes, so the message never shows twice', async () => {
    const storage = new MemoryStorage();
    const stored: Message = { id: 200, conversation_id: 9, client_id: 1, user_id: 5, message: 'hi' } as Message;
    const rest = { sendMessage: () => Promise.resolve({ message: stored }) } as unknown as RestClient;
    let inOutboxWhenStored: boolean | null = null;
    const outbox: Outbox = new Outbox({
      storage,
      rest: () => rest,
      clock: manualClock().clock,
      userId: () => 5,
      onStored: () => undefined,
    });
    // Hold the delete write back: the entry must already be gone from the stream meanwhile.
    let release: () => void = () => undefined;
    const write = storage.writeBatch.bind(storage);
    storage.writeBatch = (ops) =>
      ops.some((op) => op.type === 'delete')
        ? new Promise<void>((resolve) => {
            inOutboxWhenStored = outbox.current.length > 0;
            release = () => void write(ops).then(resolve);
          })
        : write(ops);
    await outbox.add({ conversationId: 9, text: 'hi', quotedMessageId: null });
    await expect.poll(() => inOutboxWhenStored).not.toBeNull();
    expect(inOutboxWhenStored).toBe(false);
    release();
    await expect.poll(async () => (await storage.getAll('outbox')).length).toBe(0);
    outbox.stop();
  });
});

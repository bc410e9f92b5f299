import { describe, expect, it } from 'vitest';
import { PERSIST_DELAY_MS, PERSIST_RETRY_MS } from '../../../src/engine/storage/batchedWriter';
import { RECEIPT_RETRY_MS } from '../../../src/engine/messages/receiptSender';
import { MemoryStorage, type StorageOp } from '../../../src/engine/storage/storage';
import { incoming, ManualEngineClock, signedInEngine } from './support/fakeEngine';

/** A store whose next `failures` transactions abort, as an IndexedDB transaction can. */
class FlakyStorage extends MemoryStorage {
  failures = 0;
  failed: StorageOp[][] = [];

  override async writeBatch(ops: readonly StorageOp[]): Promise<void> {
    if (this.failures > 0 && ops.length > 0) {
      this.failures -= 1;
      this.failed.push([...ops]);
      throw new DOMException('The transaction was aborted', 'AbortError');
    }
    return super.writeBatch(ops);
  }
}

interface StoredMeta {
  lastEventId: number;
}

/** Chat 7 loaded but open in no tab: a message coming in leaves an unread record and a delivered receipt to send. */
async function engineWithHiddenChat(storage: FlakyStorage, clock: ManualEngineClock, failReceipts = 0) {
  const { engine, socket } = await signedInEngine(storage, [], clock, failReceipts);
  await engine.openConversation(7);
  socket.push({ action: 'socket_loaded', data: { need_sync: false, last_message_id: 0, epoch: 'e1' } });
  await clock.advance(PERSIST_DELAY_MS);
  await engine.flush();
  return { engine, socket };
}

describe('a storage write that fails', () => {
  it('is carried by the next write: the last event id, the message, its unread record and the pending receipt', async () => {
    const clock = new ManualEngineClock();
    const storage = new FlakyStorage();
    const { engine, socket } = await engineWithHiddenChat(storage, clock, 1);

    storage.failures = 1;
    socket.push({ action: 'conversation_message', id: 5, data: { conversation_id: 7, message: incoming(101) } });
    await clock.advance(PERSIST_DELAY_MS);
    expect(storage.failed).toHaveLength(1);
    expect((await storage.get<StoredMeta>('meta', 'state'))?.lastEventId).not.toBe(5);

    // The next event (the user's own message: no receipt, no unread change) writes from what storage
    // really holds, so its batch brings everything the lost one had.
    socket.push({ action: 'conversation_message', id: 6, data: { conversation_id: 7, message: { ...incoming(102), user_id: 1 } } });
    await clock.advance(PERSIST_DELAY_MS);
    await engine.flush();
    expect((await storage.get<StoredMeta>('meta', 'state'))?.lastEventId).toBe(6);
    expect(await storage.get('messages', '101')).toMatchObject({ message: 'hi 101' });
    expect(await storage.get('messages', '102')).toMatchObject({ message: 'hi 102' });
    expect(await storage.get('unread', '7')).toMatchObject({ lastReceivedMessageId: 101 });
    // The delivered receipt of 101 (its first send failed: the transport fails one receipt call) still waits.
    expect(await storage.get('meta', 'pendingReceipts')).toEqual([
      expect.objectContaining({ conversationId: 7, messageId: 101, kind: 'delivered' }),
    ]);
    await engine.stop();
  });

  it('is tried again by itself when nothing else changes', async () => {
    const clock = new ManualEngineClock();
    const storage = new FlakyStorage();
    const { engine, socket } = await engineWithHiddenChat(storage, clock);

    storage.failures = 1;
    socket.push({ action: 'conversation_message', id: 5, data: { conversation_id: 7, message: incoming(101) } });
    await clock.advance(PERSIST_DELAY_MS);
    expect(storage.failed).toHaveLength(1);

    expect((await storage.get<StoredMeta>('meta', 'state'))?.lastEventId).not.toBe(5);
    await clock.advance(PERSIST_RETRY_MS);
    expect((await storage.get<StoredMeta>('meta', 'state'))?.lastEventId).toBe(5);
    expect(await storage.get('unread', '7')).toMatchObject({ lastReceivedMessageId: 101 });
    await engine.stop();
  });

  it('leaves the receipt queue to be written again when its write failed', async () => {
    const clock = new ManualEngineClock();
    const storage = new FlakyStorage();
    const { engine, socket } = await engineWithHiddenChat(storage, clock, 1);
    socket.push({ action: 'conversation_message', id: 5, data: { conversation_id: 7, message: incoming(101) } });
    await clock.advance(PERSIST_DELAY_MS);
    await engine.flush();
    expect(await storage.get('meta', 'pendingReceipts')).toHaveLength(1);

    // The retried receipt goes through; the write of the emptied queue aborts.
    storage.failures = 1;
    await clock.advance(RECEIPT_RETRY_MS);
    await clock.advance(PERSIST_DELAY_MS);
    expect(storage.failed).toEqual([[{ store: 'meta', type: 'put', key: 'pendingReceipts', value: [] }]]);

    socket.push({ action: 'conversation_message', id: 6, data: { conversation_id: 7, message: { ...incoming(102), user_id: 1 } } });
    await clock.advance(PERSIST_DELAY_MS);
    await engine.flush();
    expect((await storage.get<StoredMeta>('meta', 'state'))?.lastEventId).toBe(6);
    expect(await storage.get('meta', 'pendingReceipts')).toEqual([]);
    await engine.stop();
  });
});

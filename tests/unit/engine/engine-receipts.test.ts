import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { PERSIST_DELAY_MS } from '../../../src/engine/storage/batchedWriter';
import { RECEIPT_RETRY_MS } from '../../../src/engine/messages/receiptSender';
import { MemoryStorage } from '../../../src/engine/storage/storage';
import { incoming, ManualEngineClock, signedInEngine } from './support/fakeEngine';

const receiptCalls = (calls: string[]) => calls.filter((c) => c.startsWith('POST /v1/conversations/7/messages/'));

/** Signed in, chat 7 open in a visible and focused tab, and message 100 just came into it by socket. */
async function openChatWithIncoming() {
  const clock = new ManualEngineClock();
  const calls: string[] = [];
  const { engine, socket } = await signedInEngine(new MemoryStorage(), calls, clock);
  engine.setTabState('tab', { visible: true, focused: true, openConversationId: 7 });
  await engine.openConversation(7);
  socket.push({ action: 'socket_loaded', data: { need_sync: false, last_message_id: 0, epoch: 'e1' } });
  socket.push({ action: 'conversation_message', id: 1, data: { conversation_id: 7, message: incoming(100) } });
  return { clock, calls, engine, socket };
}

describe('receipts, driven by an injected clock', () => {
  it('sends delivered at once and read 500 ms later for a message in an open chat, each once', async () => {
    const { clock, calls, engine, socket } = await openChatWithIncoming();
    await clock.advance(0);
    expect(receiptCalls(calls)).toEqual(['POST /v1/conversations/7/messages/100 read=false']);
    await clock.advance(499);
    expect(receiptCalls(calls)).toHaveLength(1);
    await clock.advance(1);
    expect(receiptCalls(calls)).toEqual([
      'POST /v1/conversations/7/messages/100 read=false',
      'POST /v1/conversations/7/messages/100 read=true',
    ]);
    // The same event again (a replay) and the message seen on screen send nothing more.
    socket.push({ action: 'conversation_message', id: 1, data: { conversation_id: 7, message: incoming(100) } });
    engine.markVisible(7, 100);
    await clock.advance(1000);
    expect(receiptCalls(calls)).toHaveLength(2);
    await engine.stop();
  });

  it('does not send the delayed read when the chat closed within the 500 ms: the message stays unread until seen', async () => {
    const { clock, calls, engine } = await openChatWithIncoming();
    await clock.advance(200);
    engine.setTabState('tab', { visible: true, focused: true, openConversationId: null });
    await clock.advance(1000);
    expect(receiptCalls(calls)).toEqual(['POST /v1/conversations/7/messages/100 read=false']);
    expect((await firstValueFrom(engine.conversation(7)))?.unreadCount).toBe(1);

    // Opened again: read now, once.
    engine.setTabState('tab', { visible: true, focused: true, openConversationId: 7 });
    await clock.advance(0);
    expect(receiptCalls(calls)).toEqual([
      'POST /v1/conversations/7/messages/100 read=false',
      'POST /v1/conversations/7/messages/100 read=true',
    ]);
    expect((await firstValueFrom(engine.conversation(7)))?.unreadCount).toBe(0);
    await clock.advance(1000);
    expect(receiptCalls(calls)).toHaveLength(2);
    await engine.stop();
  });

  it('sends only delivered for a closed chat, and read once when the message is seen — never again after a reload', async () => {
    const clock = new ManualEngineClock();
    const calls: string[] = [];
    const storage = new MemoryStorage();
    const { engine, socket } = await signedInEngine(storage, calls, clock);
    await engine.openConversation(7);
    socket.push({ action: 'conversation_message', id: 1, data: { conversation_id: 7, message: incoming(101) } });
    await clock.advance(1000);
    expect(receiptCalls(calls)).toEqual(['POST /v1/conversations/7/messages/101 read=false']);
    engine.markVisible(7, 101);
    await clock.advance(PERSIST_DELAY_MS);
    await engine.stop();
    expect(receiptCalls(calls)).toHaveLength(2);

    const again = await signedInEngine(storage, calls, clock);
    // A new event id (a replay after a lost last event id, say): only the stored receipt marks stop a second send.
    again.socket.push({ action: 'conversation_message', id: 2, data: { conversation_id: 7, message: incoming(101) } });
    again.engine.markVisible(7, 101);
    await clock.advance(1000);
    expect(receiptCalls(calls)).toHaveLength(2);
    await again.engine.stop();
  });

  it('keeps a receipt whose call failed and sends it later, also after a restart', async () => {
    const clock = new ManualEngineClock();
    const calls: string[] = [];
    const storage = new MemoryStorage();
    const { engine, socket } = await signedInEngine(storage, calls, clock, 1);
    await engine.openConversation(7);
    socket.push({ action: 'conversation_message', id: 1, data: { conversation_id: 7, message: incoming(300) } });
    await clock.advance(PERSIST_DELAY_MS);
    await engine.stop();
    // The first try failed; the receipt waits in storage with the state that planned it.
    expect(receiptCalls(calls)).toEqual(['POST /v1/conversations/7/messages/300 read=false']);
    expect(await storage.get('meta', 'pendingReceipts')).toHaveLength(1);

    const again = await signedInEngine(storage, calls, clock);
    await clock.advance(RECEIPT_RETRY_MS);
    expect(receiptCalls(calls)).toEqual([
      'POST /v1/conversations/7/messages/300 read=false',
      'POST /v1/conversations/7/messages/300 read=false',
    ]);
    await clock.advance(PERSIST_DELAY_MS);
    await again.engine.flush();
    expect(await storage.get('meta', 'pendingReceipts')).toEqual([]);
    await again.engine.stop();
  });

  it('writes a burst of events in one storage transaction', async () => {
    const clock = new ManualEngineClock();
    const storage = new MemoryStorage();
    const { engine, socket } = await signedInEngine(storage, [], clock);
    await engine.openConversation(7);
    await clock.advance(PERSIST_DELAY_MS);
    // What came before the burst is written (the communities store's first record too): the burst is counted alone.
    await engine.flush();
    const before = storage.batches;
    const searchBefore = storage.transactions;
    for (let i = 0; i < 20; i++) {
      socket.push({ action: 'conversation_message', id: i + 1, data: { conversation_id: 7, message: incoming(200 + i) } });
    }
    await clock.advance(PERSIST_DELAY_MS);
    await engine.flush();
    expect(storage.batches - before).toBe(1);
    // The search index's documents and postings: one transaction of their own for the burst.
    expect(storage.transactions - searchBefore).toBe(1);
    expect(await storage.get('messages', '219')).toMatchObject({ message: 'hi 219' });
    await engine.stop();
  });
});

import { describe, expect, it } from 'vitest';
import { PERSIST_DELAY_MS } from '../../../src/engine/storage/batchedWriter';
import { MemoryStorage } from '../../../src/engine/storage/storage';
import { EDIT_WINDOW_MS } from '../../../src/protocol/constants';
import { incoming, ManualEngineClock, signedInEngine } from './support/fakeEngine';

/** The signed-in user (id 1) in chat 7: an own message created at `createdAtMs`. */
const own = (id: number, createdAtMs: number) => ({ ...incoming(id), user_id: 1, created_at: String(Math.floor(createdAtMs / 1000)) });

describe('the engine on an injected clock', () => {
  it('offers an own message for editing for 45 minutes, and the Up arrow picks the latest own editable one', async () => {
    const clock = new ManualEngineClock();
    const { engine, socket } = await signedInEngine(new MemoryStorage(), [], clock);
    await engine.openConversation(7);
    // created_at has whole seconds: the window counts from the second the server names.
    const start = Math.floor(clock.now() / 1000) * 1000;
    socket.push({ action: 'conversation_message', id: 1, data: { conversation_id: 7, message: own(100, start) } });
    await clock.advance(60_000);
    socket.push({ action: 'conversation_message', id: 2, data: { conversation_id: 7, message: own(101, clock.now()) } });
    socket.push({ action: 'conversation_message', id: 3, data: { conversation_id: 7, message: incoming(102) } });

    expect(await engine.canEdit(100)).toBe(true);
    expect(await engine.canEdit(102)).toBe(false);
    expect(await engine.editTarget(7)).toBe(101);

    // 45:00 after 100 was written it still counts; a second later it does not, while 101 still does.
    await clock.advance(start + EDIT_WINDOW_MS - clock.now());
    expect(await engine.canEdit(100)).toBe(true);
    await clock.advance(1_000);
    expect(await engine.canEdit(100)).toBe(false);
    expect(await engine.editTarget(7)).toBe(101);

    await clock.advance(60_000);
    expect(await engine.canEdit(101)).toBe(false);
    expect(await engine.editTarget(7)).toBeNull();
    await engine.stop();
  });

  it('restores the stored last event id after a restart and sends it when it connects', async () => {
    const clock = new ManualEngineClock();
    const storage = new MemoryStorage();
    const first = await signedInEngine(storage, [], clock);
    expect(first.socket.urls[0]).toContain('last_message_id=0');
    first.socket.push({ action: 'socket_loaded', data: { need_sync: false, last_message_id: 0, epoch: 'e1' } });
    first.socket.push({ action: 'conversation_message', id: 41, data: { conversation_id: 7, message: incoming(100) } });
    first.socket.push({ action: 'conversation_message', id: 42, data: { conversation_id: 7, message: incoming(101) } });
    await clock.advance(PERSIST_DELAY_MS);
    await first.engine.stop();

    const again = await signedInEngine(storage, [], clock);
    expect(again.socket.urls).toHaveLength(1);
    const url = new URL(again.socket.urls[0]!);
    expect(url.searchParams.get('last_message_id')).toBe('42');
    expect(url.searchParams.get('epoch')).toBe('e1');
    await again.engine.stop();
  });
});

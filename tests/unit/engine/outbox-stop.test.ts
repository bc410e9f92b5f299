import { describe, expect, it } from 'vitest';
import { engineError } from '../../../src/engine/errors';
import type { OutboxEntry } from '../../../src/engine/api';
import { Outbox } from '../../../src/engine/messages/outbox';
import type { RestClient } from '../../../src/engine/rest';
import type { SendMessageInput } from '../../../src/engine/contract/restInputs';
import { MemoryStorage } from '../../../src/engine/storage/storage';
import { manualClock } from '../worker/manualClock';

describe('stopping the outbox (issue 14: another engine takes the outbox over)', () => {
  it('aborts the send in flight and resolves only when nothing of it sends or writes any more', async () => {
    const storage = new MemoryStorage();
    const { clock, advance } = manualClock();
    const sends: SendMessageInput[] = [];
    // A server that never answers: only the abort ends the call, as fetch does with a signal.
    const rest = {
      sendMessage: (_id: number, input: SendMessageInput) => {
        sends.push(input);
        return new Promise((_, reject) => {
          input.signal?.addEventListener('abort', () => reject(engineError('sendMessage', 0, null, 'Failed to send message')));
        });
      },
    } as unknown as RestClient;
    const outbox = new Outbox({ storage, rest: () => rest, clock, userId: () => 5, onStored: () => undefined });
    const entry = await outbox.add({ conversationId: 9, text: 'in flight', quotedMessageId: null });
    await expect.poll(() => sends.length).toBe(1);
    expect(sends[0]?.signal?.aborted).toBe(false);

    let writes = 0;
    const write = storage.writeBatch.bind(storage);
    storage.writeBatch = (ops) => {
      writes++;
      return write(ops);
    };
    await outbox.stop();
    expect(sends[0]?.signal?.aborted).toBe(true);
    // Kept for the next engine exactly as it was: no failed attempt counted, no retry scheduled.
    expect(writes).toBe(0);
    expect(await storage.get<OutboxEntry>('outbox', entry.localId)).toMatchObject({ status: 'pending', attempts: 0 });
    await advance(60_000);
    outbox.kick();
    expect(sends.length).toBe(1);
    expect(writes).toBe(0);
  });

  it('waits for an answer that arrived to be written before it resolves', async () => {
    const storage = new MemoryStorage();
    let answer: ((value: unknown) => void) | null = null;
    const rest = {
      sendMessage: () => new Promise((resolve) => (answer = resolve)),
    } as unknown as RestClient;
    const outbox = new Outbox({ storage, rest: () => rest, clock: manualClock().clock, userId: () => 5, onStored: () => undefined });
    await outbox.add({ conversationId: 9, text: 'answered', quotedMessageId: null });
    await expect.poll(() => answer).not.toBeNull();
    // A slow store: the removal is still being written when `stop` is called.
    const write = storage.writeBatch.bind(storage);
    storage.writeBatch = (ops) => new Promise((resolve) => setTimeout(resolve, 50)).then(() => write(ops));
    // The answer wins the race with the abort (the server had it): its removal is written before `stop` ends.
    answer!({ message: { id: 1, conversation_id: 9, client_id: 1, user_id: 5, message: 'answered' } });
    await outbox.stop();
    expect(await storage.getAll('outbox')).toEqual([]);
  });

  it('sends nothing after a stop that came while an upload was being recorded', async () => {
    const storage = new MemoryStorage();
    const uploaded = { id: 'f1.png', url: '/files/f1.png', thumbnail: '', name: 'a.png', size: 12, mime: 'image/png', type: 'image' };
    let sends = 0;
    const rest = {
      uploadFile: () => Promise.resolve({ file: uploaded }),
      sendMessage: () => {
        sends++;
        return new Promise(() => undefined);
      },
    } as unknown as RestClient;
    const outbox = new Outbox({ storage, rest: () => rest, clock: manualClock().clock, userId: () => 5, onStored: () => undefined });
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], 'a.png', { type: 'image/png' });
    // The upload's result is being written when the stop comes: the send would follow it.
    let recording = false;
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const write = storage.writeBatch.bind(storage);
    storage.writeBatch = async (ops) => {
      if (ops.some((op) => op.type === 'put' && (op.value as OutboxEntry | undefined)?.attachment?.uploaded)) {
        recording = true;
        await held;
      }
      return write(ops);
    };
    await outbox.add({ conversationId: 9, text: '', quotedMessageId: null, file });
    await expect.poll(() => recording).toBe(true);
    const stopped = outbox.stop();
    release();
    await stopped;
    expect(sends).toBe(0);
    // The file's id is kept for the next engine: it sends the message without uploading again.
    expect((await storage.getAll<OutboxEntry>('outbox'))[0]?.value.attachment?.uploaded?.id).toBe('f1.png');
  });
});

import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { OutboxEntry, SendInput } from '../../../src/engine/api';
import type { Engine } from '../../../src/engine/engine';
import { fetchTransport, type HttpTransport } from '../../../src/engine/rest';
import { FILE_TOO_LARGE, FILE_TYPE_NOT_SUPPORTED } from '../../../src/engine/rules';
import { MemoryStorage } from '../../../src/engine/storage/storage';
import { sql } from '../../../server/db/store';
import { nextPhone, useTestServer } from '../../support/server';
import { refusal, signIn, until, useEngines } from './support/liveEngines';

/** The first bytes of a PNG: what the server reads the type from (docs/server.md "Uploads"). */
const PNG = Uint8Array.from(Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da636460f85f0f0002870180eb47ba920000000049454e44ae426082', 'hex'));
const png = (name = 'dot.png') => new File([PNG], name, { type: 'image/png' });

/**
 * The real transport with a switchboard: counts uploads and sends, can refuse the network to either, and
 * reports upload progress in quarters before the real upload (Node has no XHR, so fetch reports once).
 */
class Switchboard implements HttpTransport {
  uploads = 0;
  sends = 0;
  failUploads = false;
  failSends = false;

  request: HttpTransport['request'] = (request) => {
    if (request.method === 'POST' && /\/v2\/conversations\/\d+\/messages$/.test(request.url)) {
      this.sends += 1;
      if (this.failSends) return Promise.reject(new TypeError('network down'));
    }
    return fetchTransport.request(request);
  };

  upload: HttpTransport['upload'] = (request) => {
    this.uploads += 1;
    if (this.failUploads) return Promise.reject(new TypeError('network down'));
    for (const part of [1, 2, 3]) request.onProgress?.(part * 25, 100);
    return fetchTransport.upload(request);
  };
}

const s = useTestServer();
const { startEngine } = useEngines(s);

async function signedInWithChat(engine: Engine): Promise<number> {
  await signIn(engine, 'Sender');
  const { conversation } = await engine.call('createConversation', { members: [{ name: 'Friend', value: nextPhone() }] });
  await engine.openConversation(conversation.id);
  return conversation.id;
}

function storedAttachments(conversationId: number): Promise<{ message: string; attachment: string | null }[]> {
  return s.server.ctx.db.all<{ message: string; attachment: string | null }>(
    sql`SELECT message, attachment FROM messages WHERE conversation_id = ${conversationId} AND type = ${'text'}`,
  );
}

describe('attachments in the outbox', () => {
  it('uploads first with its progress shown, then sends the message with the file, once', async () => {
    const transport = new Switchboard();
    const storage = new MemoryStorage();
    const engine = await startEngine({ transport, storage });
    const conversationId = await signedInWithChat(engine);
    const seen: OutboxEntry[][] = [];
    const subscription = engine.outbox().subscribe((entries) => seen.push([...entries]));

    const entry = await engine.sendMessage(conversationId, { text: '', file: png() });
    expect(entry.attachment).toEqual({ name: 'dot.png', mime: 'image/png', size: PNG.length, kind: 'image', progress: 0, uploaded: null });
    // The bytes are kept apart until the send is done.
    expect(await storage.get('outbox', entry.localId)).toMatchObject({ attachment: { name: 'dot.png' } });

    const view = await until(engine.messages(conversationId), (w) => w.messages.some((m) => m.attachment?.type === 'image'));
    await until(engine.outbox(), (o) => o.length === 0);
    subscription.unsubscribe();

    const sent = view.messages.find((m) => m.attachment?.type === 'image');
    expect(sent).toMatchObject({ message: '', attachment: { type: 'image', mime: 'image/png', name: 'dot.png' } });
    expect(await storedAttachments(conversationId)).toHaveLength(1);
    expect(transport.uploads).toBe(1);
    // Progress as reported (the throttle lets the first step and the end through at once), never backwards.
    const progress = seen.flatMap((list) => list.map((e) => e.attachment?.progress ?? -1));
    expect(progress[0]).toBe(0);
    expect(progress).toContain(0.25);
    expect(progress).toContain(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(await storage.get('files', entry.localId)).toBeUndefined();
  });

  it('sends text and a file together, and refuses an empty send, a wrong type and a file over 50 MB', async () => {
    const engine = await startEngine({ transport: new Switchboard() });
    const conversationId = await signedInWithChat(engine);
    const text = new File(['hello'], 'notes.txt', { type: 'text/plain' });
    expect(await refusal(engine.sendMessage(conversationId, { text: 'see this', file: text }))).toBe(FILE_TYPE_NOT_SUPPORTED);
    const huge = new File([new Uint8Array(52_428_801)], 'huge.png', { type: 'image/png' });
    expect(await refusal(engine.sendMessage(conversationId, { text: '', file: huge }))).toBe(FILE_TOO_LARGE);
    // Issue 23: nothing to send says so (the catalogue's text, translated by the UI), not "Failed to send message".
    expect(await refusal(engine.sendMessage(conversationId, { text: '   ' }))).toBe('Invalid message provided');
    expect(await refusal(engine.sendMessage(conversationId, { text: '' }))).toBe('Invalid message provided');
    expect(await refusal(engine.sendMessage(conversationId, {} as SendInput))).toBe('Invalid message provided');
    expect(await firstValueFrom(engine.outbox())).toEqual([]);

    await engine.sendMessage(conversationId, { text: 'with a picture', file: png('cat.jpg.png') });
    const view = await until(engine.messages(conversationId), (w) => w.messages.some((m) => m.message === 'with a picture'));
    expect(view.messages.find((m) => m.message === 'with a picture')?.attachment).toMatchObject({ type: 'image' });
    await until(engine.outbox(), (o) => o.length === 0);
  });

  it('retries an upload that found no network, and marks one the server refused as failed with its message', async () => {
    const transport = new Switchboard();
    const engine = await startEngine({ transport });
    const conversationId = await signedInWithChat(engine);

    transport.failUploads = true;
    const entry = await engine.sendMessage(conversationId, { text: 'offline upload', file: png() });
    await until(engine.outbox(), (o) => o[0]?.attempts === 1);
    expect((await firstValueFrom(engine.outbox()))[0]).toMatchObject({ status: 'pending', attachment: { uploaded: null } });
    transport.failUploads = false;
    await until(engine.outbox(), (o) => o.length === 0);
    expect((await storedAttachments(conversationId)).filter((m) => m.message === 'offline upload')).toHaveLength(1);
    expect(entry.status).toBe('pending');

    // Declared a PNG, but its bytes are not one: the server refuses it (415) and says why.
    const fake = new File(['definitely not a picture'], 'fake.png', { type: 'image/png' });
    const refused = await engine.sendMessage(conversationId, { text: '', file: fake });
    const failed = await until(engine.outbox(), (o) => o.some((e) => e.localId === refused.localId && e.status === 'failed'));
    expect(failed.find((e) => e.localId === refused.localId)?.error).toMatchObject({
      status: 415,
      message: FILE_TYPE_NOT_SUPPORTED,
      call: 'uploadFile',
    });
    await engine.discardSend(refused.localId);
    expect(await firstValueFrom(engine.outbox())).toEqual([]);
  });

  it('after a restart only sends a file that was already uploaded, and forgets its bytes on discard', async () => {
    const storage = new MemoryStorage();
    const transport = new Switchboard();
    const first = await startEngine({ transport, storage });
    const conversationId = await signedInWithChat(first);

    transport.failSends = true;
    const entry = await first.sendMessage(conversationId, { text: 'uploaded once', file: png() });
    await until(first.outbox(), (o) => o[0]?.attachment?.uploaded !== null && o[0]?.attempts === 1);
    await first.stop();
    expect(await storage.get<OutboxEntry>('outbox', entry.localId)).toMatchObject({ attachment: { progress: 1 } });
    expect(transport.uploads).toBe(1);

    transport.failSends = false;
    const second = await startEngine({ transport, storage });
    await until(second.outbox(), (o) => o.length === 0);
    expect(transport.uploads).toBe(1);
    expect((await storedAttachments(conversationId)).filter((m) => m.message === 'uploaded once')).toHaveLength(1);
    expect(await storage.get('files', entry.localId)).toBeUndefined();

    transport.failUploads = true;
    const dropped = await second.sendMessage(conversationId, { text: '', file: png() });
    expect(await storage.get('files', dropped.localId)).toBeInstanceOf(Blob);
    await second.discardSend(dropped.localId);
    expect(await storage.get('files', dropped.localId)).toBeUndefined();
    expect(await storage.get('outbox', dropped.localId)).toBeUndefined();
  });

  it('loads an entry stored before attachments existed as one without a file', async () => {
    const storage = new MemoryStorage();
    const engine = await startEngine({ transport: new Switchboard(), storage });
    const conversationId = await signedInWithChat(engine);
    const session = await firstValueFrom(engine.session());
    const userId = session.status === 'ready' ? session.userId : 0;
    await engine.stop();
    const old = {
      localId: 'out_old_1',
      userId,
      conversationId,
      clientId: 7,
      text: 'from an older version',
      quotedMessageId: null,
      createdAt: 1,
      status: 'failed',
      error: null,
      attempts: 1,
    };
    await storage.writeBatch([{ store: 'outbox', type: 'put', key: old.localId, value: old }]);
    const again = await startEngine({ transport: new Switchboard(), storage });
    expect((await firstValueFrom(again.outbox()))[0]).toMatchObject({ localId: 'out_old_1', attachment: null });
  });
});

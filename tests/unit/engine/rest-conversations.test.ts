import { beforeAll, describe, expect, it } from 'vitest';
import type { RestClient } from '../../../src/engine/rest';
import { signUp, type TestServer, type TestUser, useTestServer } from '../../support/server';
import { restClient } from './support/liveEngines';

/** A whole 1×1 PNG: the server reads the type from its first bytes and keeps only pictures it can read (docs/server.md). */
const PNG = new Uint8Array(Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da636460f85f0f0002870180eb47ba920000000049454e44ae426082', 'hex'));

const clientOf = (s: TestServer, user: TestUser): RestClient => restClient(s.url, user.token, `install-${user.id}`);

describe('REST conversations and messages against the reference server', () => {
  const s = useTestServer();
  let alice: TestUser;
  let bob: TestUser;
  let carl: TestUser;
  let a: RestClient;
  let b: RestClient;

  beforeAll(async () => {
    [alice, bob, carl] = await Promise.all([signUp(s.url, 'Alice'), signUp(s.url, 'Bob'), signUp(s.url, 'Carl')]);
    a = clientOf(s, alice);
    b = clientOf(s, bob);
  });

  it('creates a one-to-one chat, sends, pages with Before, edits, reacts, receipts, deletes and hides', async () => {
    const created = await a.createConversation({ members: [{ name: 'Bob', value: bob.phone }] });
    expect(created.created).toBe(true);
    expect(created.conversation.is_group).toBe(false);
    const id = created.conversation.id;
    expect((await a.createConversation({ members: [{ name: 'Bob', value: bob.phone }] })).created).toBe(false);

    const sent = [];
    for (let i = 1; i <= 25; i++) sent.push((await a.sendMessage(id, { clientId: i, message: `m${i}` })).message);
    const latest = (await b.getMessages(id)).messages;
    expect(latest.map((m) => m.message)).toEqual(sent.slice(5).map((m) => m.message));
    const older = (await b.getMessages(id, { before: latest[0]?.id ?? 0 })).messages;
    expect(older.map((m) => m.message)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
    expect((await b.getMessages(id, { count: 3 })).messages.map((m) => m.message)).toEqual(['m23', 'm24', 'm25']);

    // A retry with the same client_id and Idempotency-Key answers the stored message.
    const once = await a.sendMessage(id, { clientId: 77, message: 'once', idempotencyKey: 'outbox-1' });
    const again = await a.sendMessage(id, { clientId: 77, message: 'once', idempotencyKey: 'outbox-1' });
    expect(again.message.id).toBe(once.message.id);

    const edited = await a.editMessage(id, once.message.id, 'once, edited');
    expect(edited.message).toMatchObject({ message: 'once, edited' });
    expect(edited.message.edited_at).toBeGreaterThan(0);

    await b.sendReceipt(id, once.message.id, 'delivered');
    const read = await b.sendReceipt(id, once.message.id, 'read');
    expect(read.dlrs.map((d) => d.type)).toContain('read');
    const dlrs = await a.getDlrs(id);
    expect(dlrs.dlrs).toContainEqual(expect.objectContaining({ message_id: once.message.id, user_id: bob.id, type: 'read' }));

    const reacted = await b.addReaction(id, once.message.id, '👍');
    expect(reacted.message.reactions).toEqual([
      { reaction: '👍', users: [expect.objectContaining({ user_id: bob.id })] },
    ]);
    expect((await b.removeReaction(id, once.message.stid, '👍')).message.reactions).toEqual([]);

    const deleted = await a.deleteMessages(id, [once.message.id]);
    expect(deleted).toEqual({ message_ids: [once.message.id], warnings: [] });
    const notMine = await b.deleteMessages(id, [sent[0]?.id ?? 0]).catch((e: unknown) => e);
    expect(notMine).toMatchObject({ name: 'EngineError', status: 403, fallback: 'Failed to delete messages' });

    const hidden = await b.hideMessages(id, [sent[0]?.id ?? 0]);
    expect(hidden.message_ids).toEqual([sent[0]?.id]);
    expect((await b.getMessages(id, { count: 100 })).messages.map((m) => m.message)).not.toContain('m1');
    expect((await a.getMessages(id, { count: 100 })).messages.map((m) => m.message)).toContain('m1');

    const list = await b.getConversations();
    expect(list.conversations.map((c) => c.conversation.id)).toContain(id);
    expect((await b.getConversation(created.conversation.stid, { messageCount: 2 })).conversation.messages).toHaveLength(2);
  });

  it('uploads an image with progress and sends it', async () => {
    const { conversation } = await a.createConversation({ members: [{ name: 'Bob', value: bob.phone }] });
    const progress: [number, number][] = [];
    const { file } = await a.uploadFile(new Blob([PNG], { type: 'image/png' }), {
      fileName: 'dot.png',
      onProgress: (loaded, total) => progress.push([loaded, total]),
    });
    expect(file).toMatchObject({ type: 'image', mime: 'image/png', name: 'dot.png', size: expect.any(Number) });
    expect(progress.at(-1)?.[0]).toBe(progress.at(-1)?.[1]);

    const { message } = await a.sendMessage(conversation.id, { clientId: 9, attachment: { type: 'image', fileId: file.id } });
    expect(message.attachment).toMatchObject({ type: 'image', url: file.url });
    const served = await fetch(s.url + file.url);
    expect(served.status).toBe(200);

    const refused = await a.uploadFile(new Blob(['<html></html>']), { fileName: 'x.png' }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 415, message: 'File type not supported. Please select an image or video file.' });
  });

  it('creates a group and changes its settings, mute, delivery and members', async () => {
    const { conversation: group } = await a.createConversation({
      name: 'Fika club',
      description: 'Kanelbullar',
      forceGroup: true,
      settings: { showNumbersToAll: true },
      members: [
        { name: 'Bob', value: bob.phone },
        { name: '', value: '' },
      ],
    });
    expect(group).toMatchObject({ is_group: true, name: 'Fika club', member_count: 2 });
    expect(group.settings.show_numbers_to_all).toBe('1');

    const { image } = await a.uploadImage(new Blob([PNG], { type: 'image/png' }));
    const renamed = await a.updateConversation(group.id, { name: 'Fika club 2', imageId: image.id });
    expect(renamed.conversation.name).toBe('Fika club 2');
    expect(renamed.conversation.image.meta.is_default).toBe(false);

    expect((await b.setMute(group.id, { type: '8h', timeZone: 'Europe/Stockholm' })).mute).toMatchObject({ type: '8h', muted: true });
    expect((await b.setMute(group.id, { type: 'unmute' })).mute).toBeNull();
    const delivery = await b.setDeliverySettings(group.id, { mode: 'smart', smartModeOptions: { intervalMinutes: 15 } });
    expect(delivery.delivery_settings).toEqual({ mode: 'smart', smart_mode_options: { interval_minutes: 15 } });

    const added = await b.addMembers(group.id, [{ name: 'Carl', value: carl.phone }]);
    expect(added.added_user_ids).toEqual([carl.id]);
    const promoted = await a.setAdmin(group.id, carl.id, true);
    expect(promoted.conversation.admins).toContain(carl.id);
    await a.setAdmin(group.id, carl.id, false);

    const removed = await a.removeMember(group.id, carl.id);
    expect(removed).toMatchObject({ user_id: carl.id, conversation: { member_count: 2 } });
    const left = await b.leaveConversation(group.id, bob.id);
    expect(left).toMatchObject({ user_id: bob.id, conversation: null });
    await expect(b.getConversation(group.id)).rejects.toMatchObject({ status: expect.any(Number), call: 'getConversation' });

    expect(await a.deleteConversation(group.id)).toEqual({ conversation_id: group.id });
    await expect(a.deleteConversation(group.id)).rejects.toMatchObject({ status: 404, fallback: 'Failed to delete group' });
  });

  it('profile pictures go through uploadImage and updateMe', async () => {
    const { image } = await b.uploadImage(new Blob([PNG], { type: 'image/png' }), { fileName: 'me.png' });
    const { account } = await b.updateMe({ imageId: image.id });
    expect(account.image.meta.is_default).toBe(false);
  });
});

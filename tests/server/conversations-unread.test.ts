import { describe, expect, it } from 'vitest';
import type { Conversation } from '../../src/protocol/entities';
import { call, TestSocket, type TestUser, useTestServer, useUsers } from '../support/server';
import { createGroup, type Form, memberForm, waitFor } from './conversations-support';
import { sent } from './messages-support';

/**
 * Issue 10, "Unread counts": system events (renames, descriptions, pictures, members added or removed)
 * do not count toward `unread_message_count` / `is_unread`; messages do. The list, the single
 * conversation and the snapshots in socket events all count alike (the engine counts the same way:
 * tests/unit/engine/unread-events.test.ts).
 */
const s = useTestServer();
const [alice, bob, carol] = useUsers(s, 'Alice', 'Bob', 'Carol');

const PNG = Uint8Array.from(Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da636460f85f0f0002870180eb47ba920000000049454e44ae426082', 'hex'));
async function uploadAvatar(user: TestUser): Promise<number> {
  const form = new FormData();
  form.append('image', new Blob([PNG], { type: 'image/png' }), 'a.png');
  return (await call<{ image: { id: number } }>(s.url, 'POST', '/v1/images', { token: user.token, body: form })).data.image.id;
}

const edit = (user: TestUser, id: number, form: Form) =>
  call<{ conversation: Conversation }>(s.url, 'PUT', `/v2/conversations/${id}`, { token: user.token, form });
const add = (user: TestUser, id: number, people: TestUser[]) =>
  call(s.url, 'POST', `/v2/conversations/${id}/users`, { token: user.token, form: memberForm(people) });
const remove = (user: TestUser, id: number, target: TestUser) =>
  call(s.url, 'DELETE', `/v1/conversations/${id}/users/${target.id}`, { token: user.token });
const setAdmin = (user: TestUser, id: number, target: TestUser, isAdmin: boolean) =>
  call(s.url, 'PUT', `/v1/conversations/${id}/users/${target.id}`, { token: user.token, form: { is_admin: isAdmin ? 1 : 0 } });
const readReceipt = (user: TestUser, id: number, messageId: number) =>
  call(s.url, 'POST', `/v1/conversations/${id}/messages/${messageId}`, { token: user.token, form: { read: 'true' } });

/** The counts as `user` sees conversation `id`: in the list and on its own. */
async function counts(user: TestUser, id: number) {
  const list = await call<{ conversations: { conversation: Conversation }[] }>(s.url, 'GET', '/v2/conversations', {
    token: user.token,
  });
  const listed = list.data.conversations.find((e) => e.conversation.id === id)?.conversation;
  const single = (await call<{ conversation: Conversation }>(s.url, 'GET', `/v2/conversations/${id}`, { token: user.token })).data
    .conversation;
  expect(listed?.unread_message_count).toBe(single.unread_message_count);
  expect(listed?.is_unread).toBe(single.is_unread);
  return { count: single.unread_message_count, isUnread: single.is_unread, last: single.last_message };
}

/** Every kind of change that posts a system event, made by Alice. */
async function changeEverything(id: number) {
  expect((await edit(alice, id, { name: 'Renamed' })).status).toBe(200);
  expect((await edit(alice, id, { description: 'About us' })).status).toBe(200);
  expect((await edit(alice, id, { image_id: await uploadAvatar(alice) })).status).toBe(200);
  expect((await add(alice, id, [carol])).status).toBe(200);
  expect((await remove(alice, id, carol)).status).toBe(200);
  expect((await setAdmin(alice, id, bob, true)).status).toBe(200);
  expect((await setAdmin(alice, id, bob, false)).status).toBe(200);
}

describe('unread counts leave system events out', () => {
  it('events from someone else count nothing, in the list and on the conversation', async () => {
    const g = await createGroup(s.url, alice, [bob], { name: 'Events only' });
    await changeEverything(g.id);
    const bobs = await counts(bob, g.id);
    expect(bobs.last?.type).toBe('system');
    expect(bobs).toMatchObject({ count: 0, isUnread: false });
  });

  it('messages count, events between and after them do not', async () => {
    const g = await createGroup(s.url, alice, [bob], { name: 'Mixed' });
    await sent(s, alice, g.id, 'one');
    await changeEverything(g.id);
    await sent(s, alice, g.id, 'two');
    await edit(alice, g.id, { name: 'Renamed again' });
    expect(await counts(bob, g.id)).toMatchObject({ count: 2, isUnread: true });
    // The maker of the changes has nothing unread either.
    expect(await counts(alice, g.id)).toMatchObject({ count: 0, isUnread: false });
  });

  it('reading the last message reads the chat although events came after it', async () => {
    const g = await createGroup(s.url, alice, [bob], { name: 'Read past' });
    const message = await sent(s, alice, g.id, 'read me');
    await edit(alice, g.id, { name: 'Later name' });
    expect(await counts(bob, g.id)).toMatchObject({ count: 1, isUnread: true });
    expect((await readReceipt(bob, g.id, message)).status).toBe(200);
    expect(await counts(bob, g.id)).toMatchObject({ count: 0, isUnread: false });
  });

  it('a read receipt for a trailing event reads the messages before it', async () => {
    const g = await createGroup(s.url, alice, [bob], { name: 'Read the event' });
    await sent(s, alice, g.id, 'before the rename');
    const renamed = (await edit(alice, g.id, { name: 'Newest' })).data.conversation.last_message;
    expect(renamed?.type).toBe('system');
    expect((await readReceipt(bob, g.id, renamed?.id ?? 0)).status).toBe(200);
    expect(await counts(bob, g.id)).toMatchObject({ count: 0, isUnread: false });
  });

  it('the conversation snapshots of socket events count alike', async () => {
    const g = await createGroup(s.url, alice, [bob], { name: 'Live' });
    await sent(s, alice, g.id, 'unread one');
    const sock = new TestSocket(s.url, bob.token);
    await sock.loaded();
    const editFrame = waitFor(sock, 'conversation_edit', g.id);
    await edit(alice, g.id, { name: 'Live renamed' });
    expect((await editFrame).data.conversation).toMatchObject({ unread_message_count: 1, is_unread: true });
    const addFrame = waitFor(sock, 'conversation_add_user', g.id);
    await add(alice, g.id, [carol]);
    expect((await addFrame).data.conversation).toMatchObject({ unread_message_count: 1, is_unread: true });
    sock.close();
  });
});

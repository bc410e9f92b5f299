import { expect } from 'vitest';
import type { Conversation } from '../../src/protocol/entities';
import type { EventFrame, ServerFrame } from '../../src/protocol/socket';
import { call, nextPhone, type TestSocket, type TestUser } from '../support/server';

export type Form = Record<string, string | number | boolean>;

/** `member[i][...]` fields naming each user by phone number (the default type). */
export function memberForm(people: (TestUser | string)[], start = 0): Form {
  const form: Form = {};
  people.forEach((p, i) => {
    form[`member[${start + i}][name]`] = `Person ${start + i}`;
    form[`member[${start + i}][value]`] = typeof p === 'string' ? p : p.phone;
  });
  return form;
}

export async function createGroup(base: string, owner: TestUser, members: (TestUser | string)[], extra: Form = {}) {
  const res = await call<{ conversation: Conversation; created: boolean }>(base, 'POST', '/v2/conversations', {
    token: owner.token,
    form: { name: 'Test group', force_group: 1, ...memberForm(members), ...extra },
  });
  return res.data.conversation;
}

export async function getConversation(base: string, user: TestUser, id: number | string) {
  return (await call<{ conversation: Conversation }>(base, 'GET', `/v2/conversations/${id}`, { token: user.token })).data
    .conversation;
}

export const memberIdsOf = (c: Conversation) => c.users.map((u) => u.user.id).sort((a, b) => a - b);

export function isEvent(f: ServerFrame): f is EventFrame {
  return f.action !== 'ping' && f.action !== 'socket_loaded';
}

/** Frames of `action` about conversation `id`. */
export function framesAbout<A extends EventFrame['action']>(
  sock: TestSocket,
  action: A,
  id: number,
): Extract<EventFrame, { action: A }>[] {
  return sock.frames.filter(
    (f): f is Extract<EventFrame, { action: A }> =>
      isEvent(f) && f.action === action && (f.data as { conversation_id?: number }).conversation_id === id,
  );
}

export function waitFor<A extends EventFrame['action']>(sock: TestSocket, action: A, id: number) {
  return sock.next(
    (f) => isEvent(f) && f.action === action && (f.data as { conversation_id?: number }).conversation_id === id,
  ) as Promise<Extract<EventFrame, { action: A }>>;
}

const sentinels = new Map<string, { id: number; round: number }>();

/**
 * Proves an outsider's socket got nothing about conversation `id`: a server writes a user's frames in
 * order, so once a later frame of their own has arrived (an edit of their own group), any earlier one
 * about `id` would have too.
 */
export async function expectNothingAbout(base: string, outsider: TestUser, sock: TestSocket, id: number) {
  let sentinel = sentinels.get(outsider.token);
  if (!sentinel) {
    sentinel = { id: (await createGroup(base, outsider, [nextPhone()], { name: 'Sentinel' })).id, round: 0 };
    sentinels.set(outsider.token, sentinel);
  }
  sentinel.round += 1;
  const name = `Sentinel ${sentinel.round}`;
  await call(base, 'PUT', `/v2/conversations/${sentinel.id}`, { token: outsider.token, form: { name } }).then((r) => r.data);
  await sock.next((f) => isEvent(f) && f.action === 'conversation_edit' && f.data.conversation.name === name);
  expect(sentinel.id).not.toBe(id);
  const mentions = new RegExp(`"conversation_id":${id}[,}]`);
  const leaked = sock.frames.filter((f) => isEvent(f) && mentions.test(JSON.stringify(f.data)));
  expect(leaked).toEqual([]);
}

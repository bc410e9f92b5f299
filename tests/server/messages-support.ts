import type { MessageAnswer } from '../../src/protocol/api';
import type { EventAction, EventFrame, EventPayloads, ServerFrame } from '../../src/protocol/socket';
import type { Query } from '../../server/db/store';
import { type ConversationFixture, insertConversation } from '../support/fixtures';
import { call, signUp, startTestServer, type TestServer, TestSocket, type TestUser } from '../support/server';

/** Helpers shared by the messages*.test.ts files. */

export async function users(s: TestServer, ...names: string[]): Promise<TestUser[]> {
  const out: TestUser[] = [];
  for (const name of names) out.push(await signUp(s.url, name));
  return out;
}

export async function conversation(s: TestServer, f: ConversationFixture): Promise<number> {
  return (await insertConversation(s.server.ctx.db, { now: s.server.ctx.clock.now(), ...f })).id;
}

/** A server with a 50-message chat between Anna and Bo (`ids`, oldest first), for the paging tests. */
export interface PagedChat {
  s: TestServer;
  anna: TestUser;
  bo: TestUser;
  id: number;
  ids: number[];
}

export async function pagedChat(): Promise<PagedChat> {
  const s = await startTestServer();
  const [anna, bo] = (await users(s, 'Anna', 'Bo')) as [TestUser, TestUser];
  const id = await conversation(s, { members: [anna.id, bo.id] });
  // A neighbouring conversation interleaves its ids with ours; they must never leak into our pages.
  const other = await conversation(s, { members: [anna.id, bo.id] });
  const ids: number[] = [];
  for (let i = 1; i <= 50; i++) {
    ids.push(await sent(s, i % 2 ? anna : bo, id, `message ${i}`));
    if (i % 10 === 0) await sent(s, anna, other, `elsewhere ${i}`);
  }
  return { s, anna, bo, id, ids };
}

let clientIds = 0;
/** A client_id that differs between calls (1..10000), so sends are not taken for retries by accident. */
export const freshClientId = () => (clientIds++ % 10_000) + 1;

export async function send(
  s: TestServer,
  user: TestUser,
  conversationId: number,
  text: string,
  extra: Record<string, unknown> = {},
) {
  return call<MessageAnswer>(s.url, 'POST', `/v2/conversations/${conversationId}/messages`, {
    token: user.token,
    json: { client_id: freshClientId(), message: text, ...extra },
  });
}

/** Sends and returns the stored message's id, failing loudly when the send was refused. */
export async function sent(s: TestServer, user: TestUser, conversationId: number, text: string, extra = {}) {
  return (await send(s, user, conversationId, text, extra)).data.message.id;
}

/** The `n` a counting statement answers, e.g. count(s, sql`SELECT COUNT(*) AS n FROM messages WHERE id = ${id}`). */
export async function count(s: TestServer, query: Query<{ n: number }>): Promise<number> {
  return (await s.server.ctx.db.get(query))!.n;
}

export async function socket(s: TestServer, user: TestUser): Promise<TestSocket> {
  const sock = new TestSocket(s.url, user.token);
  await sock.loaded();
  return sock;
}

let marks = 0;
/**
 * Waits until every socket has received everything the server sent it so far: an ephemeral marker frame
 * goes to each user after all earlier frames on the same connection, so once it arrives, an event that
 * has not arrived was never sent.
 */
export async function settle(s: TestServer, ...pairs: [TestSocket, TestUser][]): Promise<void> {
  const tag = `settle-${++marks}`;
  s.server.ctx.events.ephemeral(
    pairs.map(([, u]) => u.id),
    'user_presence',
    { user_id: 0, online: true, last_seen: tag },
  );
  await Promise.all(
    pairs.map(([sock]) => sock.next((f) => f.action === 'user_presence' && f.data.last_seen === tag)),
  );
}

/** The payloads of one action a socket has received, in order. */
export function received<A extends EventAction>(sock: TestSocket, action: A): EventPayloads[A][] {
  return sock.frames
    .filter((f: ServerFrame): f is Extract<EventFrame, { action: A }> => f.action === action)
    .map((f) => f.data as EventPayloads[A]);
}

/** A whole 1×1 PNG: the server reads every picture it keeps (docs/server.md "Uploads"). */
export const PNG_BYTES = Uint8Array.from(Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da636460f85f0f0002870180eb47ba920000000049454e44ae426082', 'hex'));

export async function uploadPng(s: Pick<TestServer, 'url'>, user: TestUser): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([PNG_BYTES], { type: 'image/png' }), 'dot.png');
  const answer = await call<{ file: { id: string } }>(s.url, 'POST', '/v2/filestorage/file', {
    token: user.token,
    body: form,
  });
  return answer.data.file.id;
}

/** The state-changing actions a socket received (presence, including settle's markers, left out). */
export function actionsOf(sock: TestSocket): string[] {
  return sock.actions().filter((a) => a !== 'user_presence');
}

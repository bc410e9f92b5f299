import { performance } from 'node:perf_hooks';
import { deserialize, serialize } from 'node:v8';
import { filter, firstValueFrom } from 'rxjs';
import { type Store, sql } from '../../server/db/store';
import { Engine } from '../../src/engine/engine';
import type { SocketLike } from '../../src/engine/socket';
import type { ConversationListItem } from '../../src/engine/api';
import { MemoryStorage } from '../../src/engine/storage/storage';
import { StreamDecoder } from '../../src/worker/streamDecoder';
import { StreamSenders } from '../../src/worker/streamSender';
import { newStid } from '../../server/domain/ids';
import { insertConversation } from '../support/fixtures';
import { call, signUp, TEST_PIN } from '../support/server';

/**
 * The engine's side of a big conversation list (issue 4: 5,000 chats), in Node against the real server:
 * a fresh engine (a reload with an empty cache) refreshes the list, and the list query's values go
 * through the stream bridge's encoder and a structured clone (node:v8 serialize, what postMessage does)
 * and back through the decoder, as they would to a tab.
 */

/** A socket that never opens: the figures are the list's, not the socket's sync. */
const silentSocket = (): SocketLike => ({ send: () => undefined, close: () => undefined, onopen: null, onmessage: null, onclose: null, onerror: null });

export interface ListUser {
  phone: string;
  token: string;
  chats: number;
}

/** A new user with `chats` group chats (with one other new user), inserted straight into the database. */
export async function userWithChats(base: string, db: Store, chats: number): Promise<ListUser> {
  const me = await signUp(base, `Busy ${chats}`);
  const friend = await signUp(base, `Friend ${chats}`);
  const start = Date.now() - 10_000_000;
  await db.transaction(async () => {
    for (let i = 0; i < chats; i++) {
      await insertConversation(db, { members: [me.id, friend.id], name: `Chat ${i}`, isGroup: true, now: start - i * 1000 });
    }
  });
  return { phone: me.phone, token: me.token, chats };
}

export interface ListLoad {
  /** From the refresh call to the first list value holding every chat, as the tab receives it. */
  ms: number;
  /** Values of the list query that crossed to the tab during the load (the engine's and the bridge's coalescing). */
  emissions: number;
  /** Bytes of the structured clones that crossed for them. */
  bytes: number;
}

/** A signed-in engine's storage, so that each load starts like a reload with nothing cached but the session. */
async function sessionStorage(base: string, user: ListUser): Promise<MemoryStorage> {
  const storage = new MemoryStorage();
  const engine = new Engine({ storage, apiBase: base, socketFactory: silentSocket, log: () => undefined });
  await engine.start();
  await engine.requestPin(user.phone);
  await engine.confirmPin(user.phone, TEST_PIN);
  await engine.stop();
  // Keep the session only: the state stores and their meta records go.
  const keep = await storage.getAll('session');
  const fresh = new MemoryStorage();
  await fresh.writeBatch(keep.map(({ key, value }) => ({ store: 'session', type: 'put', key, value })));
  return fresh;
}

/** One load of the list by a fresh engine, through the bridge. */
export async function loadList(base: string, user: ListUser, session: MemoryStorage): Promise<ListLoad> {
  const storage = new MemoryStorage();
  await storage.writeBatch((await session.getAll('session')).map(({ key, value }) => ({ store: 'session', type: 'put', key, value })));
  const engine = new Engine({ storage, apiBase: base, socketFactory: silentSocket, log: () => undefined });
  let emissions = 0;
  let bytes = 0;
  let done: (() => void) | null = null;
  const full = new Promise<void>((resolve) => (done = resolve));
  const decoder = new StreamDecoder();
  const senders = new StreamSenders();
  const sender = senders.open((wire) => {
    const clone = serialize(wire);
    emissions++;
    bytes += clone.length;
    const list = decoder.decode(deserialize(clone)) as ConversationListItem[];
    if (list.length >= user.chats) done?.();
  });
  const subscription = engine.conversations().subscribe((list) => sender.next(list));
  const t0 = performance.now();
  await engine.start();
  await full;
  const ms = performance.now() - t0;
  // Whatever else the load makes the engine emit crosses within the bridge's coalescing window.
  await engine.flush();
  await new Promise((r) => setTimeout(r, 100));
  subscription.unsubscribe();
  sender.close();
  await engine.stop();
  // The first value (the empty list before the answer) is not part of the load.
  return { ms, emissions: emissions - 1, bytes };
}

/** Messages sent by oneChange: each a new one (the same text and client_id again would be a retry). */
let messagesSent = 0;

/** Bytes crossing for a change of one chat in the list, against the bytes of the whole list. */
export async function oneChange(base: string, user: ListUser, session: MemoryStorage): Promise<{ changeBytes: number; fullBytes: number }> {
  const storage = new MemoryStorage();
  await storage.writeBatch((await session.getAll('session')).map(({ key, value }) => ({ store: 'session', type: 'put', key, value })));
  const engine = new Engine({ storage, apiBase: base, socketFactory: silentSocket, log: () => undefined });
  const sizes: number[] = [];
  const senders = new StreamSenders();
  const sender = senders.open((wire) => void sizes.push(serialize(wire).length));
  const subscription = engine.conversations().subscribe((list) => sender.next(list));
  await engine.start();
  const list = await firstValueFrom(engine.conversations().pipe(filter((l) => l.length >= user.chats)));
  senders.flush();
  const fullBytes = serialize(list).length;
  // A new message in the oldest chat: it changes and moves to the top.
  const target = list[list.length - 1]?.conversation.id as number;
  const sent = await call(base, 'POST', `/v2/conversations/${target}/messages`, { token: user.token, json: { message: `Hello ${++messagesSent}`, client_id: 1 + (messagesSent % 9999) } });
  if (sent.status >= 300) throw new Error(`the bench could not send a message: ${sent.status}`);
  const before = sizes.length;
  await engine.refreshConversations();
  senders.flush();
  if (sizes.length === before) throw new Error('the list did not change');
  const changeBytes = sizes.slice(before).reduce((a, b) => a + b, 0);
  subscription.unsubscribe();
  await engine.stop();
  return { changeBytes, fullBytes };
}

/** A new user in one group of `members` people (the others inserted straight into the database). */
export async function userInBigGroup(base: string, db: Store, members: number): Promise<ListUser> {
  const me = await signUp(base, `Member of ${members}`);
  const now = Date.now();
  await db.transaction(async () => {
    const ids = [me.id];
    for (let i = 1; i < members; i++) {
      const phone = `+4679${String(now % 1e5).padStart(5, '0')}${String(i).padStart(4, '0')}`;
      const row = await db.get<{ id: number }>(
        sql`INSERT INTO users (stid, phone_nr, country_code, nickname, created_at)
            VALUES (${newStid('u')}, ${phone}, '46', ${`Member ${i}`}, ${now}) RETURNING id`,
      );
      ids.push(row!.id);
    }
    await insertConversation(db, { members: ids, name: `Group of ${members}`, isGroup: true, now });
  });
  return { phone: me.phone, token: me.token, chats: 1 };
}

/**
 * Bytes crossing to a tab when a message arrives in a big group: for the chats list's row, against the
 * bytes of the group with its members (what the one-conversation query carries).
 */
export async function bigGroupChange(
  base: string,
  user: ListUser,
  session: MemoryStorage,
): Promise<{ rowBytes: number; conversationBytes: number }> {
  const change = await oneChange(base, user, session);
  const storage = new MemoryStorage();
  await storage.writeBatch((await session.getAll('session')).map(({ key, value }) => ({ store: 'session', type: 'put', key, value })));
  const engine = new Engine({ storage, apiBase: base, socketFactory: silentSocket, log: () => undefined });
  await engine.start();
  const [row] = await firstValueFrom(engine.conversations().pipe(filter((l) => l.length >= 1)));
  const whole = await firstValueFrom(engine.conversation(row?.conversation.id as number));
  await engine.stop();
  return { rowBytes: change.changeBytes, conversationBytes: serialize(whole).length };
}

export { sessionStorage };

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Conversation } from '../../src/protocol/entities';
import { sql } from '../../server/db/store';
import { newStid } from '../../server/domain/ids';
import type { ConversationRow } from '../../server/domain/rows';
import { serializeConversation } from '../../server/domain/serialize';
import { DEMO_USERS } from '../../server/seed/demo';
import { generateBigGroup, generateConversations } from '../../server/seed/history';
import { insertConversation } from '../support/fixtures';
import { call, startTestServer, TEST_PIN, type TestServer } from '../support/server';

/**
 * The list answer is built set-based (server/domain/conversationList.ts); it must be exactly what the
 * per-conversation serializer gives for each conversation, in the list's order, whatever the conversation
 * holds: hidden messages, broadcast replies, reactions, pictures, big member lists, unread messages.
 */
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seedDemo: true });
});
afterAll(() => s.close());

const userId = async (phone: string) =>
  (await s.server.ctx.db.get<{ id: number }>(sql`SELECT id FROM users WHERE phone_nr = ${phone}`))!.id;

/** The list as the route built it before: one serializer call per conversation. */
async function perConversation(viewerId: number, count: number): Promise<Conversation[]> {
  const rows = await s.server.ctx.db.all<ConversationRow>(
    sql`SELECT c.* FROM conversations c
        JOIN conversation_members cm ON cm.conversation_id = c.id AND cm.user_id = ${viewerId}
        ORDER BY CASE WHEN c.last_message_at > 0 THEN c.last_message_at ELSE c.created_at END DESC, c.id DESC`,
  );
  const out: Conversation[] = [];
  for (const row of rows) out.push(await serializeConversation(s.server.ctx.db, row, viewerId, count));
  return out;
}

async function listed(phone: string, count: number): Promise<Conversation[]> {
  await call(s.url, 'POST', '/v1/auth/pin', { form: { phone_nr: phone } });
  const { token } = (
    await call<{ token: string }>(s.url, 'POST', '/v1/auth/pin/confirm', { form: { phone_nr: phone, pin: TEST_PIN } })
  ).data;
  const answer = await call<{ conversations: { conversation: Conversation }[] }>(s.url, 'GET', '/v2/conversations', {
    token,
    headers: { 'Message-Count': String(count) },
  });
  return answer.data.conversations.map((e) => e.conversation);
}

describe('GET /v2/conversations built set-based', () => {
  it('equals the per-conversation answers for every demo user and message count', async () => {
    const db = s.server.ctx.db;
    const anna = await userId(DEMO_USERS[0].phone);
    const erik = await userId(DEMO_USERS[1].phone);
    const now = Date.now();
    await generateBigGroup(db, anna, 2_000, now);
    await generateConversations(db, anna, 30, now);
    // A group of 600 (past the member list limit) with a picture on some members and the conversation.
    const file = (await db.get<{ id: number }>(
      sql`INSERT INTO files (name, owner_id, purpose, mime, kind, size, original_name, created_at)
          VALUES ('pic.png', ${anna}, 'avatar', 'image/png', 'image', 1, 'pic.png', ${now}) RETURNING id`,
    ))!.id;
    const many: number[] = [];
    // One transaction: not a commit per user.
    await db.transaction(async () => {
      for (let i = 0; i < 600; i++) {
        const row = await db.get<{ id: number }>(
          sql`INSERT INTO users (stid, phone_nr, country_code, nickname, image_file_id, created_at)
              VALUES (${newStid('u')}, ${`+4676800${String(i).padStart(4, '0')}`}, '46', ${`Crowd ${i}`}, ${i % 3 === 0 ? file : null}, ${now})
              RETURNING id`,
        );
        many.push(row!.id);
      }
    });
    const crowd = await insertConversation(db, { members: [erik, ...many, anna], admins: [erik, many[5] as number], name: 'Crowd', isGroup: true, now });
    await db.run(sql`UPDATE conversations SET image_file_id = ${file} WHERE id = ${crowd.id}`);
    // Messages: one Anna hid, a broadcast reply only admins see, unread ones from others, and before
    // them a system event (a rename by Erik), which is not counted as unread (issue 10).
    const renamed = JSON.stringify({ type: 'event', event_type: 'conversation_renamed', event: { name: 'Crowd' } });
    await db.run(
      sql`INSERT INTO messages (stid, conversation_id, user_id, type, message, attachment, created_at, updated_at)
          VALUES (${newStid('msg')}, ${crowd.id}, ${erik}, 'system', '', ${renamed}, ${now}, ${now})`,
    );
    const say = async (author: number, text: string, audience: string | null = null) =>
      (await db.get<{ id: number }>(
        sql`INSERT INTO messages (stid, conversation_id, user_id, message, audience, created_at, updated_at)
            VALUES (${newStid('msg')}, ${crowd.id}, ${author}, ${text}, ${audience}, ${now}, ${now}) RETURNING id`,
      ))!.id;
    await say(erik, 'one');
    const hidden = await say(many[1] as number, 'hidden by Anna');
    await say(many[2] as number, 'to the admins only', 'admins');
    await db.run(sql`INSERT INTO hidden_messages (user_id, message_id) VALUES (${anna}, ${hidden})`);
    await db.run(sql`UPDATE conversations SET last_message_at = ${now} WHERE id = ${crowd.id}`);

    for (const user of DEMO_USERS) {
      for (const count of [0, 1, 3]) {
        const expected = await perConversation(await userId(user.phone), count);
        expect(await listed(user.phone, count)).toEqual(expected);
      }
    }
    const annaList = await listed(DEMO_USERS[0].phone, 1);
    const crowdEntry = annaList.find((c) => c.id === crowd.id);
    expect(crowdEntry).toMatchObject({ member_count: 602, name: 'Crowd' });
    expect(crowdEntry?.users).toHaveLength(500);
    expect(annaList.length).toBeGreaterThan(30);
    // Erik, an admin of the crowd, sees the reply to the admins.
    const erikCrowd = (await listed(DEMO_USERS[1].phone, 3)).find((c) => c.id === crowd.id);
    expect(erikCrowd?.messages.map((m) => m.message)).toEqual(['one', 'hidden by Anna', 'to the admins only']);
    expect(crowdEntry?.last_message?.message).toBe('one');
    // Anna has read nothing: Erik's 'one' counts, his rename before it does not.
    expect(crowdEntry).toMatchObject({ unread_message_count: 1, is_unread: true });
  });
});

import { randomBytes } from 'node:crypto';
import { list, type Store, sql } from '../db/store';
import { newStid } from '../domain/ids';
import { DEMO_USERS } from './demoUsers';
import { DAY, MIN } from './time';
import { seededRandom } from './random';
import { insertRows, type SeedValue } from './writer';

/** Rows per transaction: large enough that commits (fsync with synchronous=FULL) are rare. */
const BATCH = 5_000;
/** Rows per INSERT statement (eight values a message: about a thousand parameters, far below both limits). */
const ROWS = 128;
/**
 * A big group's messages: 20,000 a transaction and 512 an INSERT (4,096 parameters, well below both limits), so a
 * 1,000,000-message group (issue 24) is 50 commits and about 2,000 statements.
 */
const MESSAGE_BATCH = 20_000;
const MESSAGE_ROWS = 512;

const LINES = [
  'Good morning everyone!',
  'Did anyone see the match yesterday?',
  'I will be there in ten minutes.',
  'Can someone share the address again?',
  'Haha, that is brilliant 😂',
  'Let me check my calendar and get back to you.',
  'Thanks for organising this!',
  'Has anyone tried the new ramen place?',
  'Selamat pagi semuanya!',
  'Siap, nanti saya kabari lagi.',
  'Mantap, terima kasih banyak 🙏',
  'Hej! Ses vi på fredag?',
  'Tack för idag, det var jättekul.',
  'Photos from the weekend are in the shared album.',
  'Running late, start without me.',
  'Does Sunday afternoon work for everybody?',
  'I can bring snacks.',
  'Who is driving?',
  'Sounds good to me 👍',
  'Reminder: the deadline is on Friday.',
];
const REACTIONS = ['👍', '❤️', '😂', '🔥', '🙏'];
const NAMES = ['Linnea', 'Oskar', 'Maja', 'Johan', 'Elsa', 'Rizky', 'Ayu', 'Fajar', 'Wulan', 'Yusuf'];

/**
 * `count` ids for new rows of `table`, ascending, that no row has had: the seed writes them explicitly, so its
 * statements need no RETURNING and a message can quote one written in the same statement. Call it inside the
 * transaction that inserts them. On PostgreSQL they come from the table's sequence (so the sequence has moved
 * past them, and rows the server inserts meanwhile cannot take them); on SQLite, after the highest id the
 * table ever handed out (AUTOINCREMENT's sqlite_sequence, which then follows the explicit ids by itself).
 */
async function newIds(db: Store, table: 'users' | 'conversations' | 'messages', count: number): Promise<number[]> {
  if (count === 0) return [];
  if (db.dialect === 'postgres') {
    const rows = await db.all<{ id: number }>(
      sql`SELECT nextval(pg_get_serial_sequence(${table}, 'id')) AS id
          FROM generate_series(1, CAST(${count} AS INTEGER))`,
    );
    return rows.map((r) => r.id).sort((a, b) => a - b);
  }
  const highest = await db.get<{ id: number | null }>(sql`SELECT MAX(id) AS id FROM ${sql.table(table)}`);
  const handedOut = await db.get<{ seq: number }>(sql`SELECT seq FROM sqlite_sequence WHERE name = ${table}`);
  const top = Math.max(highest?.id ?? 0, handedOut?.seq ?? 0);
  return Array.from({ length: count }, (_, i) => top + 1 + i);
}

/** Makes `count` more users with generated Swedish numbers (+46769…), unique across runs. */
async function makeUsers(db: Store, count: number, now: number): Promise<number[]> {
  const prefix = '+46769';
  const highest = (
    await db.get<{ phone: string | null }>(
      sql`SELECT MAX(phone_nr) AS phone FROM users WHERE phone_nr LIKE ${`${prefix}%`}`,
    )
  )?.phone;
  let next = highest ? Number(highest.slice(prefix.length)) + 1 : 1;
  if (next + count > 1_000_000) throw new Error('The generated phone number range (+46769…) is used up.');
  const ids = await newIds(db, 'users', count);
  const rows: SeedValue[][] = [];
  for (let i = 0; i < count; i++, next++) {
    const phone = prefix + String(next).padStart(6, '0');
    const nickname = `${NAMES[next % NAMES.length]} ${next}`;
    rows.push([ids[i] as number, newStid('u'), phone, '46', nickname, now - 60 * DAY]);
  }
  await insertRows(db, sql`users (id, stid, phone_nr, country_code, nickname, created_at)`, rows, ROWS);
  return ids;
}

/**
 * `count` stids as newStid makes them, from one draw of random bytes: one draw a message was a fifth of a big
 * group's generation.
 */
function stids(prefix: string, count: number): string[] {
  const bytes = randomBytes(9 * count);
  return Array.from({ length: count }, (_, i) => `${prefix}_${bytes.subarray(9 * i, 9 * i + 9).toString('base64url')}`);
}

export interface BigGroupResult {
  conversationId: number;
  stid: string;
  messages: number;
  members: number;
}

/**
 * "Big group": the user and up to four demo users (generated people when the demo world is missing) with
 * `count` messages spread over the last weeks, a reply every 25th and a reaction every 40th message.
 * The user leaves the latest 20 messages of others unread.
 */
export async function generateBigGroup(db: Store, userId: number, count: number, now: number): Promise<BigGroupResult> {
  const rand = seededRandom(count);
  const { conversationId, stid, members, spacing, start } = await db.transaction(async () => {
    const found = await db.all<{ id: number; phone_nr: string }>(
      sql`SELECT id, phone_nr FROM users WHERE phone_nr IN ${list(DEMO_USERS.map((u) => u.phone))}`,
    );
    const byPhone = new Map(found.map((r) => [r.phone_nr, r.id]));
    const demoIds = DEMO_USERS.map((u) => byPhone.get(u.phone)).filter(
      (id): id is number => id !== undefined && id !== userId,
    );
    const others = demoIds.slice(0, 4);
    if (others.length < 2) others.push(...(await makeUsers(db, 4 - others.length, now)));
    const members = [userId, ...others];
    const spacing = Math.max(1_000, Math.min(5 * MIN, Math.floor((30 * DAY) / count)));
    const start = now - MIN - spacing * count;
    const stid = newStid('c');
    const conversation = await db.get<{ id: number }>(
      sql`INSERT INTO conversations (stid, name, description, is_group, owner_id, created_at)
          VALUES (${stid}, 'Big group', ${`${count} generated messages, for benchmarks.`}, 1, ${userId}, ${start - MIN})
          RETURNING id`,
    );
    const conversationId = conversation!.id;
    await insertRows(
      db,
      sql`conversation_members (conversation_id, user_id, is_admin, is_owner, joined_at)`,
      members.map((id, i) => [conversationId, id, i === 0 ? 1 : 0, i === 0 ? 1 : 0, start - MIN]),
    );
    return { conversationId, stid, members, spacing, start };
  });

  const ids: number[] = [];
  const authors: number[] = [];
  for (let from = 0; from < count; from += MESSAGE_BATCH) {
    const to = Math.min(count, from + MESSAGE_BATCH);
    // The outer lists grow only after the batch commits: a transaction PostgreSQL runs again must not add twice.
    const batch = await db.transaction(async () => {
      const batchIds = await newIds(db, 'messages', to - from);
      const batchStids = stids('msg', to - from);
      const idAt = (i: number) => (i >= from ? batchIds[i - from] : ids[i]);
      const batchAuthors: number[] = [];
      const rows: SeedValue[][] = [];
      const reactions: SeedValue[][] = [];
      for (let i = from; i < to; i++) {
        const id = idAt(i) as number;
        const at = start + i * spacing;
        const author = members[Math.floor(rand() * members.length)] as number;
        const quoted = i > 0 && i % 25 === 0 ? idAt(Math.max(0, i - 1 - Math.floor(rand() * 20))) : undefined;
        const text = `#${i + 1} ${LINES[Math.floor(rand() * LINES.length)]}`;
        rows.push([id, batchStids[i - from] as string, conversationId, author, text, quoted ?? null, at, at]);
        batchAuthors.push(author);
        if (i % 40 === 39) {
          const reactor = members[(members.indexOf(author) + 1) % members.length] as number;
          reactions.push([id, reactor, REACTIONS[Math.floor(rand() * REACTIONS.length)] as string, at + 30_000]);
        }
      }
      await insertRows(
        db,
        sql`messages (id, stid, conversation_id, user_id, message, quoted_id, created_at, updated_at)`,
        rows,
        MESSAGE_ROWS,
      );
      await insertRows(
        db,
        sql`reactions (message_id, user_id, reaction, set_at)`,
        reactions,
        ROWS,
        sql`ON CONFLICT DO NOTHING`,
      );
      return { batchIds, batchAuthors };
    });
    ids.push(...batch.batchIds);
    authors.push(...batch.batchAuthors);
  }

  await db.transaction(async () => {
    const lastId = ids[ids.length - 1] ?? null;
    await db.run(
      sql`UPDATE conversations SET last_message_id = ${lastId},
            last_message_at = ${lastId === null ? 0 : start + (count - 1) * spacing}
          WHERE id = ${conversationId}`,
    );
    // Every member has read everything, but for the user below.
    await db.run(
      sql`UPDATE conversation_members SET last_read_message_id = ${lastId ?? 0}
          WHERE conversation_id = ${conversationId}`,
    );
    // The user's last read: 20 messages of others back, never before their own latest message.
    let othersSeen = 0;
    let readUpTo = 0;
    for (let i = ids.length - 1; i >= 0; i--) {
      if (authors[i] === userId) {
        readUpTo = ids[i] as number;
        break;
      }
      othersSeen += 1;
      if (othersSeen > 20) {
        readUpTo = ids[i] as number;
        break;
      }
    }
    await db.run(
      sql`UPDATE conversation_members SET last_read_message_id = ${readUpTo}
          WHERE conversation_id = ${conversationId} AND user_id = ${userId}`,
    );
  });
  return { conversationId, stid, messages: count, members: members.length };
}

/**
 * `count` more one-to-one chats for the user, each with a new person and one to three messages, the most
 * recent chat a minute ago and the others further back. Every seventh chat is left unread.
 */
export async function generateConversations(
  db: Store,
  userId: number,
  count: number,
  now: number,
): Promise<{ conversations: number; messages: number }> {
  const rand = seededRandom(count + 7);
  const spacing = Math.max(MIN, Math.min(DAY, Math.floor((90 * DAY) / Math.max(1, count))));
  let messages = 0;
  for (let from = 0; from < count; from += BATCH) {
    const to = Math.min(count, from + BATCH);
    messages += await db.transaction(async () => {
      const people = await makeUsers(db, to - from, now);
      const conversationIds = await newIds(db, 'conversations', to - from);
      const chats: { id: number; other: number; lastAt: number; createdAt: number; said: SeedValue[][] }[] = [];
      for (let i = from; i < to; i++) {
        const id = conversationIds[i - from] as number;
        const other = people[i - from] as number;
        const lastAt = now - MIN - i * spacing;
        const n = 1 + Math.floor(rand() * 3);
        const said: SeedValue[][] = [];
        for (let k = n - 1; k >= 0; k--) {
          // Turns alternate and the other person has the last word, so an unread chat has something unread.
          const author = k % 2 === 0 ? other : userId;
          const at = lastAt - k * 10 * MIN;
          said.push([newStid('msg'), id, author, LINES[Math.floor(rand() * LINES.length)] as string, at, at]);
        }
        chats.push({ id, other, lastAt, createdAt: lastAt - n * 10 * MIN, said });
      }
      const messageIds = await newIds(db, 'messages', chats.reduce((sum, c) => sum + c.said.length, 0));
      const conversationRows: SeedValue[][] = [];
      const messageRows: SeedValue[][] = [];
      const memberRows: SeedValue[][] = [];
      chats.forEach((c, j) => {
        const own = c.said.map((row) => {
          const messageId = messageIds[messageRows.length] as number;
          messageRows.push([messageId, ...row]);
          return messageId;
        });
        const lastId = own[own.length - 1] as number;
        const previousId = own[own.length - 2] ?? 0;
        conversationRows.push([c.id, newStid('c'), 0, c.other, c.createdAt, lastId, c.lastAt]);
        memberRows.push([c.id, c.other, c.createdAt, lastId]);
        memberRows.push([c.id, userId, c.createdAt, (from + j) % 7 === 3 ? previousId : lastId]);
      });
      await insertRows(
        db,
        sql`conversations (id, stid, is_group, owner_id, created_at, last_message_id, last_message_at)`,
        conversationRows,
        ROWS,
      );
      await insertRows(
        db,
        sql`messages (id, stid, conversation_id, user_id, message, created_at, updated_at)`,
        messageRows,
        ROWS,
      );
      await insertRows(
        db,
        sql`conversation_members (conversation_id, user_id, joined_at, last_read_message_id)`,
        memberRows,
        ROWS,
      );
      // Counted once the batch commits: a transaction PostgreSQL runs again must not count twice.
      return messageRows.length;
    });
  }
  return { conversations: count, messages };
}

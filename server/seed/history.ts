import type { Db } from '../db/database';
import { newStid } from '../domain/ids';
import { DEMO_USERS } from './demoUsers';
import { DAY, MIN } from './time';
import { seededRandom } from './random';

/** Rows per transaction: large enough that commits (fsync with synchronous=FULL) are rare. */
const BATCH = 5_000;

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

/** Makes `count` more users with generated Swedish numbers (+46769…), unique across runs. */
function makeUsers(db: Db, count: number, now: number): number[] {
  const prefix = '+46769';
  const highest = db
    .prepare<[string], { phone: string | null }>('SELECT MAX(phone_nr) AS phone FROM users WHERE phone_nr LIKE ?')
    .get(`${prefix}%`)?.phone;
  let next = highest ? Number(highest.slice(prefix.length)) + 1 : 1;
  if (next + count > 1_000_000) throw new Error('The generated phone number range (+46769…) is used up.');
  const insert = db.prepare(
    'INSERT INTO users (stid, phone_nr, country_code, nickname, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  const ids: number[] = [];
  for (let i = 0; i < count; i++, next++) {
    const phone = prefix + String(next).padStart(6, '0');
    const nickname = `${NAMES[next % NAMES.length]} ${next}`;
    ids.push(Number(insert.run(newStid('u'), phone, '46', nickname, now - 60 * DAY).lastInsertRowid));
  }
  return ids;
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
export function generateBigGroup(db: Db, userId: number, count: number, now: number): BigGroupResult {
  const rand = seededRandom(count);
  const setup = db.transaction(() => {
    const demoIds = DEMO_USERS.map(
      (u) => db.prepare<[string], { id: number }>('SELECT id FROM users WHERE phone_nr = ?').get(u.phone)?.id,
    ).filter((id): id is number => id !== undefined && id !== userId);
    const others = demoIds.slice(0, 4);
    if (others.length < 2) others.push(...makeUsers(db, 4 - others.length, now));
    const members = [userId, ...others];
    const spacing = Math.max(1_000, Math.min(5 * MIN, Math.floor((30 * DAY) / count)));
    const start = now - MIN - spacing * count;
    const stid = newStid('c');
    const conversationId = Number(
      db
        .prepare(
          `INSERT INTO conversations (stid, name, description, is_group, owner_id, created_at)
           VALUES (?, 'Big group', ?, 1, ?, ?)`,
        )
        .run(stid, `${count} generated messages, for benchmarks.`, userId, start - MIN).lastInsertRowid,
    );
    const member = db.prepare(
      `INSERT INTO conversation_members (conversation_id, user_id, is_admin, is_owner, joined_at)
       VALUES (?, ?, ?, ?, ?)`,
    );
    members.forEach((id, i) => member.run(conversationId, id, i === 0 ? 1 : 0, i === 0 ? 1 : 0, start - MIN));
    return { conversationId, stid, members, spacing, start };
  });
  const { conversationId, stid, members, spacing, start } = setup();

  const insertMessage = db.prepare(
    `INSERT INTO messages (stid, conversation_id, user_id, message, quoted_id, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertReaction = db.prepare(
    'INSERT OR IGNORE INTO reactions (message_id, user_id, reaction, set_at) VALUES (?, ?, ?, ?)',
  );
  const ids: number[] = [];
  const authors: number[] = [];
  const batch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const at = start + i * spacing;
      const author = members[Math.floor(rand() * members.length)] as number;
      const quoted = i > 0 && i % 25 === 0 ? ids[Math.max(0, i - 1 - Math.floor(rand() * 20))] : undefined;
      const text = `#${i + 1} ${LINES[Math.floor(rand() * LINES.length)]}`;
      const id = Number(insertMessage.run(newStid('msg'), conversationId, author, text, quoted ?? null, at, at).lastInsertRowid);
      ids.push(id);
      authors.push(author);
      if (i % 40 === 39) {
        const reactor = members[(members.indexOf(author) + 1) % members.length] as number;
        insertReaction.run(id, reactor, REACTIONS[Math.floor(rand() * REACTIONS.length)], at + 30_000);
      }
    }
  });
  for (let from = 0; from < count; from += BATCH) batch(from, Math.min(count, from + BATCH));

  db.transaction(() => {
    const lastId = ids[ids.length - 1] ?? null;
    db.prepare('UPDATE conversations SET last_message_id = ?, last_message_at = ? WHERE id = ?').run(
      lastId,
      lastId === null ? 0 : start + (count - 1) * spacing,
      conversationId,
    );
    const setRead = db.prepare(
      'UPDATE conversation_members SET last_read_message_id = ? WHERE conversation_id = ? AND user_id = ?',
    );
    for (const m of members) setRead.run(lastId ?? 0, conversationId, m);
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
    setRead.run(readUpTo, conversationId, userId);
  })();
  return { conversationId, stid, messages: count, members: members.length };
}

/**
 * `count` more one-to-one chats for the user, each with a new person and one to three messages, the most
 * recent chat a minute ago and the others further back. Every seventh chat is left unread.
 */
export function generateConversations(db: Db, userId: number, count: number, now: number): { conversations: number; messages: number } {
  const rand = seededRandom(count + 7);
  const insertConversation = db.prepare(
    'INSERT INTO conversations (stid, is_group, owner_id, created_at) VALUES (?, 0, ?, ?)',
  );
  const insertMember = db.prepare(
    `INSERT INTO conversation_members (conversation_id, user_id, joined_at, last_read_message_id) VALUES (?, ?, ?, 0)`,
  );
  const insertMessage = db.prepare(
    'INSERT INTO messages (stid, conversation_id, user_id, message, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const finish = db.prepare('UPDATE conversations SET last_message_id = ?, last_message_at = ? WHERE id = ?');
  const setRead = db.prepare(
    'UPDATE conversation_members SET last_read_message_id = ? WHERE conversation_id = ? AND user_id = ?',
  );
  const spacing = Math.max(MIN, Math.min(DAY, Math.floor((90 * DAY) / Math.max(1, count))));
  let messages = 0;
  const batch = db.transaction((from: number, to: number) => {
    const people = makeUsers(db, to - from, now);
    for (let i = from; i < to; i++) {
      const other = people[i - from] as number;
      const lastAt = now - MIN - i * spacing;
      const n = 1 + Math.floor(rand() * 3);
      const createdAt = lastAt - n * 10 * MIN;
      const id = Number(insertConversation.run(newStid('c'), other, createdAt).lastInsertRowid);
      insertMember.run(id, other, createdAt);
      insertMember.run(id, userId, createdAt);
      let lastId = 0;
      let previousId = 0;
      for (let k = n - 1; k >= 0; k--) {
        // Turns alternate and the other person has the last word, so an unread chat has something unread.
        const author = k % 2 === 0 ? other : userId;
        const at = lastAt - k * 10 * MIN;
        previousId = lastId;
        lastId = Number(
          insertMessage.run(newStid('msg'), id, author, LINES[Math.floor(rand() * LINES.length)], at, at).lastInsertRowid,
        );
        messages += 1;
      }
      finish.run(lastId, lastAt, id);
      setRead.run(lastId, id, other);
      setRead.run(i % 7 === 3 ? previousId : lastId, id, userId);
    }
  });
  for (let from = 0; from < count; from += BATCH) batch(from, Math.min(count, from + BATCH));
  return { conversations: count, messages };
}

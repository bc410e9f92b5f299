import path from 'node:path';
import { type Store, list, sql } from '../db/store';
import { DirectoryStorage } from '../files/storage';
import { DEMO_BOT, DEMO_USERS } from '../seed/demoUsers';
import { type AdminIo, UsageError, storeLocation, withStore } from './command';

export const DEMO_HELP = `npm run admin -- demo remove [--yes]

Removes the demo world the server seeded into a new database (README "Logging in to the demo"): its users
(the README's numbers and the bot +4600000000), the chats and communities only they are in, everything
they wrote, reacted, uploaded and were sent. Without --yes it only says what it would remove.

A chat or community a real user is in stays, without the demo users: their messages, comments (with the
replies under them), reactions, receipts and memberships go, and a demo owner leaves it without an owner.
The real users' own messages stay. Open apps see the change at their next reload or sync.`;

/** What a removal takes away (or would). */
export interface DemoRemoval {
  users: number;
  conversations: number;
  communities: number;
  messages: number;
  files: number;
}

const ids = (rows: { id: number }[]) => rows.map((r) => Number(r.id));

/**
 * Removes the demo world in one transaction, or, with `dryRun`, counts what it would remove. The demo is
 * known by its bot (+4600000000): a number no country accepts, so only the seed can have made it. Without
 * the bot the demo was never seeded (SEED_DEMO=0), and the README's numbers, if present, are real people.
 * Answers null then. Files' bytes are removed after the commit (`removeBytes`).
 */
export async function removeDemoWorld(
  db: Store,
  options: { dryRun: boolean; removeBytes: (name: string) => Promise<void> },
): Promise<DemoRemoval | null> {
  const phones = [...DEMO_USERS.map((u) => u.phone), DEMO_BOT.phone];
  const names: string[] = [];
  const removal = await db.transaction(async () => {
    const bot = await db.get<{ id: number }>(sql`SELECT id FROM users WHERE phone_nr = ${DEMO_BOT.phone}`);
    if (!bot) return null;
    const demo = ids(await db.all<{ id: number }>(sql`SELECT id FROM users WHERE phone_nr IN ${list(phones)}`));
    const D = list(demo);
    // Chats and communities the demo made or is in, with no member outside it: removed whole.
    const conversations = ids(
      await db.all<{ id: number }>(
        sql`SELECT c.id FROM conversations c WHERE c.community_id IS NULL
              AND (c.owner_id IN ${D} OR EXISTS (SELECT 1 FROM conversation_members m WHERE m.conversation_id = c.id AND m.user_id IN ${D}))
              AND NOT EXISTS (SELECT 1 FROM conversation_members m WHERE m.conversation_id = c.id AND m.user_id NOT IN ${D})`,
      ),
    );
    const communities = ids(
      await db.all<{ id: number }>(
        sql`SELECT c.id FROM communities c
            WHERE (c.owner_id IN ${D} OR EXISTS (SELECT 1 FROM community_members m WHERE m.community_id = c.id AND m.user_id IN ${D}))
              AND NOT EXISTS (SELECT 1 FROM community_members m WHERE m.community_id = c.id AND m.user_id NOT IN ${D})`,
      ),
    );
    const inRemovedChats = conversations.length ? sql`conversation_id IN ${list(conversations)}` : sql`1 = 0`;
    const inRemovedCommunities = communities.length
      ? sql`conversation_id IN (SELECT id FROM conversations WHERE community_id IN ${list(communities)})`
      : sql`1 = 0`;
    const messages = await db.get<{ n: number }>(
      sql`SELECT COUNT(*) AS n FROM messages WHERE user_id IN ${D} OR ${inRemovedChats} OR ${inRemovedCommunities}`,
    );
    const files = await db.all<{ id: number; name: string }>(sql`SELECT id, name FROM files WHERE owner_id IN ${D}`);
    const counted: DemoRemoval = {
      users: demo.length,
      conversations: conversations.length,
      communities: communities.length,
      messages: Number(messages?.n ?? 0),
      files: files.length,
    };
    if (options.dryRun) return counted;

    // Whole chats and communities first: their members, messages, reactions, receipts and comments cascade.
    if (communities.length) await db.run(sql`DELETE FROM communities WHERE id IN ${list(communities)}`);
    if (conversations.length) await db.run(sql`DELETE FROM conversations WHERE id IN ${list(conversations)}`);
    // What the demo left in chats that stay. Deleting a message or comment cascades to its reactions,
    // receipts and the comments under it.
    const touched = ids(
      await db.all<{ id: number }>(
        sql`SELECT DISTINCT conversation_id AS id FROM messages WHERE user_id IN ${D}
            UNION SELECT DISTINCT conversation_id AS id FROM conversation_members WHERE user_id IN ${D}
            UNION SELECT DISTINCT channel_id AS id FROM comments WHERE user_id IN ${D}`,
      ),
    );
    await db.run(sql`DELETE FROM comments WHERE user_id IN ${D}`);
    await db.run(sql`DELETE FROM messages WHERE user_id IN ${D}`);
    await db.run(sql`DELETE FROM reactions WHERE user_id IN ${D}`);
    await db.run(sql`DELETE FROM comment_reactions WHERE user_id IN ${D}`);
    await db.run(sql`DELETE FROM receipts WHERE user_id IN ${D}`);
    await db.run(sql`DELETE FROM hidden_messages WHERE user_id IN ${D}`);
    await db.run(sql`DELETE FROM conversation_members WHERE user_id IN ${D}`);
    await db.run(sql`DELETE FROM community_members WHERE user_id IN ${D}`);
    await db.run(sql`UPDATE conversations SET owner_id = NULL WHERE owner_id IN ${D}`);
    await db.run(sql`UPDATE communities SET owner_id = NULL WHERE owner_id IN ${D}`);
    if (touched.length) {
      // A kept chat's last message and its posts' comment counts, as the seed settles them (server/seed/writer.ts).
      await db.run(
        sql`UPDATE conversations SET
              last_message_id = (SELECT MAX(m.id) FROM messages m WHERE m.conversation_id = conversations.id AND m.audience IS NULL),
              last_message_at = COALESCE((SELECT MAX(m.created_at) FROM messages m
                WHERE m.conversation_id = conversations.id AND m.audience IS NULL), 0)
            WHERE id IN ${list(touched)}`,
      );
      await db.run(
        sql`UPDATE messages SET comments_count = (SELECT COUNT(*) FROM comments c WHERE c.post_id = messages.id)
            WHERE conversation_id IN ${list(touched)} AND comments_count > 0`,
      );
    }
    if (files.length) {
      const F = list(ids(files));
      await db.run(sql`UPDATE conversations SET image_file_id = NULL WHERE image_file_id IN ${F}`);
      await db.run(sql`UPDATE communities SET avatar_file_id = NULL WHERE avatar_file_id IN ${F}`);
      await db.run(sql`UPDATE users SET image_file_id = NULL WHERE image_file_id IN ${F}`);
      await db.run(sql`DELETE FROM files WHERE id IN ${F}`);
      names.push(...files.map((f) => f.name));
    }
    await db.run(sql`DELETE FROM events WHERE user_id IN ${D}`);
    await db.run(sql`DELETE FROM event_payloads WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.payload_id = event_payloads.id)`);
    await db.run(sql`DELETE FROM pins WHERE phone_nr IN ${list(phones)}`);
    await db.run(sql`DELETE FROM pin_failures WHERE phone_nr IN ${list(phones)}`);
    await db.run(sql`DELETE FROM pin_requests WHERE phone_nr IN ${list(phones)}`);
    // Tokens and event counters cascade.
    await db.run(sql`DELETE FROM users WHERE id IN ${D}`);
    return counted;
  });
  for (const name of names) await options.removeBytes(name);
  return removal;
}

const summary = (r: DemoRemoval) =>
  `${r.users} users, ${r.conversations} chats, ${r.communities} communities, ${r.messages} messages, ${r.files} files`;

export async function demoCommand(args: readonly string[], io: AdminIo): Promise<void> {
  const [command, ...rest] = args;
  if (command !== 'remove') throw new UsageError(command ? `Unknown demo command "${command}"` : 'Which demo command?');
  const unknown = rest.filter((a) => a !== '--yes');
  if (unknown.length) throw new UsageError(`demo remove does not take ${unknown.join(' ')}`);
  const dryRun = !rest.includes('--yes');
  const storage = new DirectoryStorage(path.join(storeLocation(io.env).dataDir, 'files'));
  await withStore(io.env, async (db) => {
    const removal = await removeDemoWorld(db, { dryRun, removeBytes: (name) => storage.remove(name) });
    if (!removal) {
      io.out(`There is no demo world here (its bot ${DEMO_BOT.phone} is not in the database): nothing was removed.`);
      return;
    }
    if (dryRun) {
      io.out(`Would remove ${summary(removal)}. Nothing was changed: run again with --yes to remove them.`);
      return;
    }
    io.out(`Removed the demo world: ${summary(removal)}.`);
  });
}

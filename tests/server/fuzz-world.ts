import type { ServerContext } from '../../server/context';
import { sql } from '../../server/db/store';
import { findConversation, loadMember } from '../../server/domain/access';
import { addComment } from '../../server/domain/comments';
import { newStid } from '../../server/domain/ids';
import { sendMessage } from '../../server/domain/messages';
import type { ConversationRow, MemberRow } from '../../server/domain/rows';
import { newToken } from '../../server/http/auth';
import { insertSession } from '../../server/domain/sessions';
import { insertCommunity, insertCommunityChannels, insertConversation } from '../support/fixtures';
import type { FuzzPool } from './fuzz-support';

/**
 * A small world for the fuzz tests, made straight in the database through the server's own domain code
 * (no HTTP, so it takes a millisecond): each route is fuzzed in a fresh one, so a route that leaves or
 * deletes (which a fuzzed request may well do) cannot spoil the requests of the routes after it.
 */
export interface FuzzWorld {
  member: { id: number; token: string };
  outsider: { id: number; token: string };
  pool: FuzzPool;
}

let people = 0;

async function person(ctx: ServerContext, nickname: string): Promise<{ id: number; token: string; phone: string }> {
  const now = ctx.clock.now();
  people += 1;
  // Valid Indonesian mobile numbers (communities are open in Indonesia), one per person of the run.
  const phone = `+6281${String(process.pid % 1000).padStart(3, '0')}${String(people).padStart(5, '0')}`;
  const { id } = (await ctx.db.get<{ id: number }>(
    sql`INSERT INTO users (stid, phone_nr, country_code, nickname, created_at)
        VALUES (${newStid('u')}, ${phone}, ${'62'}, ${nickname}, ${now}) RETURNING id`,
  ))!;
  const token = newToken();
  await insertSession(ctx.db, { token, userId: id, now });
  return { id, token, phone };
}

async function membership(
  ctx: ServerContext,
  conversationId: number,
  userId: number,
): Promise<{ conversation: ConversationRow; member: MemberRow }> {
  const conversation = (await findConversation(ctx.db, String(conversationId))) as ConversationRow;
  return { conversation, member: (await loadMember(ctx.db, conversationId, userId)) as MemberRow };
}

/** A fresh world; `files` are names of stored files a path may name. */
export function seedFuzzWorld(ctx: ServerContext, files: readonly string[]): Promise<FuzzWorld> {
  // One transaction: the server's database syncs every commit to disk.
  return ctx.db.transaction(() => seed(ctx, files));
}

async function seed(ctx: ServerContext, files: readonly string[]): Promise<FuzzWorld> {
  const { db } = ctx;
  const owner = await person(ctx, 'Owner');
  const member = await person(ctx, 'Member');
  const outsider = await person(ctx, 'Outsider');
  const community = await insertCommunity(db, { name: 'Fuzz makers', ownerId: owner.id, members: [member.id] });
  const { announcements, general, readOnly } = await insertCommunityChannels(db, {
    communityId: community.id,
    ownerId: owner.id,
    members: [owner.id, member.id],
  });
  const secret = await insertCommunity(db, { name: 'Fuzz secret', ownerId: owner.id });
  await db.run(sql`UPDATE communities SET is_private = 1 WHERE id = ${secret.id}`);
  const hidden = await insertConversation(db, {
    name: 'Hidden',
    members: [owner.id],
    admins: [owner.id],
    isGroup: true,
    groupType: 'feed',
    communityId: secret.id,
    announcements: true,
  });
  const group = await insertConversation(db, { members: [member.id, owner.id], admins: [member.id], isGroup: true, name: 'Fuzz' });

  const send = async (conversationId: number, userId: number, text: string) => {
    const input = { clientId: null, text, attachment: null, quotedId: null, idempotencyKey: null };
    return (await sendMessage(ctx, { ...(await membership(ctx, conversationId, userId)), ...input })).message;
  };
  const message = await send(group.id, owner.id, 'Fuzz me');
  const postId = (await send(general.id, owner.id, 'Fuzz post')).id;
  const { conversation: generalRow, member: commenter } = await membership(ctx, general.id, member.id);
  const { comment } = await addComment(ctx, {
    channel: generalRow,
    member: commenter,
    postId,
    parentCommentId: null,
    text: 'Fuzz comment',
    clientId: null,
    idempotencyKey: null,
  });

  const ids = (...rows: { id: number; stid: string }[]) => rows.flatMap((r) => [String(r.id), r.stid]);
  return {
    member,
    outsider,
    pool: {
      params: {
        conversations: [...ids(group), String(general.id), String(hidden.id)],
        channels: [...ids(general), String(announcements.id), String(readOnly.id), String(hidden.id)],
        communities: [...ids(community), String(secret.id)],
        users: [member.id, owner.id, outsider.id].map(String),
        messages: [String(message.id), message.stid, String(postId)],
        files: [...files, 'ffffffffffffffffffffffffffffffff.png'],
      },
      numbers: [group.id, general.id, message.id, postId, comment.comment_id, member.id, owner.id, 1, 0],
      texts: [
        ...['Hello', '👍', 'smart', 'all', '1h', 'forever', 'unmute', 'true', '1', 'Europe/Stockholm', '1234', 'image'],
        outsider.phone,
        ...files,
      ],
    },
  };
}

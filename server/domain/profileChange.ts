import type { ServerContext } from '../context';
import { sql } from '../db/store';
import { memberIds } from './access';
import { emitConversationEdit } from './conversationEvents';
import type { ConversationRow, UserRow } from './rows';

/**
 * Tells the people who share a normal chat (one-to-one or group, not a community channel) with a user
 * that the user's nickname or picture changed. Call inside the transaction that made the change.
 *
 * Every such chat's other members get `conversation_edit`, whose snapshot carries the new name and picture
 * (a one-to-one chat is named after the user). Nothing is posted (issue 23): a rename once posted a
 * `user_renamed` message in every group the user shared, the demo chat included, which moved them all to
 * the top of everyone's list; as in WhatsApp and Telegram, names now change in place. Clients still read
 * `user_renamed` messages posted before.
 *
 * The user's own connections get nothing; the account is the answer of their call.
 */
export async function announceProfileChange(ctx: ServerContext, before: UserRow, after: UserRow): Promise<void> {
  const renamed = before.nickname !== after.nickname;
  const newPicture = before.image_file_id !== after.image_file_id;
  if (!renamed && !newPicture) return;
  const { db } = ctx;
  const conversations = await db.all<Pick<ConversationRow, 'id'>>(
    sql`SELECT c.id FROM conversations c
        JOIN conversation_members cm ON cm.conversation_id = c.id AND cm.user_id = ${after.id}
        WHERE c.group_type = 'normal' AND c.community_id IS NULL ORDER BY c.id`,
  );
  await ctx.events.transaction(async () => {
    for (const c of conversations) {
      const others = (await memberIds(db, c.id)).filter((id) => id !== after.id);
      await emitConversationEdit(ctx, c.id, others);
    }
  });
}

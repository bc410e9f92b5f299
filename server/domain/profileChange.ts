import type { ServerContext } from '../context';
import { sql } from '../db/store';
import { memberIds } from './access';
import { emitConversationEdit, postChangeEvent } from './conversationEvents';
import type { ConversationRow, UserRow } from './rows';

/**
 * Tells the people who share a normal chat (one-to-one or group, not a community channel) with a user
 * that the user's nickname or picture changed. Call inside the transaction that made the change.
 *
 * - A nickname change from a non-empty one posts one `user_renamed` system message in each group
 *   (`event: {user_id, old_nickname, new_nickname}`); members update their member lists from it. A
 *   first nickname (registration) posts nothing.
 * - The other side of each one-to-one chat gets `conversation_edit` on any nickname or picture change:
 *   the chat is named after the user.
 * - A picture change sends `conversation_edit` to the other members of each group.
 *
 * The user's own connections get the system messages only; the account is the answer of their call.
 */
export async function announceProfileChange(ctx: ServerContext, before: UserRow, after: UserRow): Promise<void> {
  const renamed = before.nickname !== after.nickname;
  const newPicture = before.image_file_id !== after.image_file_id;
  if (!renamed && !newPicture) return;
  const { db } = ctx;
  const conversations = await db.all<Pick<ConversationRow, 'id' | 'is_group'>>(
    sql`SELECT c.id, c.is_group FROM conversations c
        JOIN conversation_members cm ON cm.conversation_id = c.id AND cm.user_id = ${after.id}
        WHERE c.group_type = 'normal' AND c.community_id IS NULL ORDER BY c.id`,
  );
  await ctx.events.transaction(async () => {
    for (const c of conversations) {
      const group = c.is_group === 1;
      if (group && renamed && before.nickname !== '') {
        await postChangeEvent(ctx, c.id, after.id, 'user_renamed', {
          user_id: after.id,
          old_nickname: before.nickname,
          new_nickname: after.nickname,
        });
      }
      if (!group || newPicture) {
        const others = (await memberIds(db, c.id)).filter((id) => id !== after.id);
        await emitConversationEdit(ctx, c.id, others);
      }
    }
  });
}

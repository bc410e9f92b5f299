import type { Store } from '../db/store';
import { forbidden } from '../http/errors';
import { isCommunityAdmin } from './access';
import type { ConversationRow, MemberRow } from './rows';

/**
 * Who may post in a conversation (spec §6). Throws a 403 with the spec's message when the caller may not.
 * Broadcast groups are one-way: a non-broadcaster may only reply (quote), and such a reply is seen by the
 * sender and the broadcasters alone; the caller learns this through `audience`.
 */
export async function checkCanSend(
  db: Store,
  conversation: ConversationRow,
  member: MemberRow,
  options: { quoted: boolean },
): Promise<{ audience: 'admins' | null }> {
  if (conversation.is_demo === 1) throw forbidden('This is a demo chat', 'demo_chat');
  const communityAdmin = await isCommunityAdmin(db, conversation.community_id, member.user_id);
  const admin = member.is_admin === 1 || communityAdmin;
  if (conversation.is_community_announcements === 1) {
    // Spec §6: only admins who also hold the create_posts permission.
    if (!(admin && member.can_create_posts === 1)) {
      throw forbidden('Only community admins can send announcements.');
    }
    return { audience: null };
  }
  if (conversation.group_type !== 'normal') {
    if (conversation.read_only === 1 && !admin) throw forbidden('Only community admins can send messages.');
    if (options.quoted && !admin) throw forbidden('Only community admins can reply in channels.');
    return { audience: null };
  }
  if (conversation.reply_to === 1 && !admin) {
    if (!options.quoted) throw forbidden('Only broadcasters can send messages in a broadcast group.');
    return { audience: 'admins' };
  }
  return { audience: null };
}

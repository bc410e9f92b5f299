import type { ServerContext } from '../context';
import { badRequest, forbidden } from '../http/errors';
import { communityMembership, isCommunityAdminRow, loadMember, memberIds } from './access';
import { type ChannelContext, announcementsChannel, communityChannels } from './communityAccess';
import type { CommunityRow, ConversationRow } from './rows';

/**
 * Puts the user in a channel. Community admins join as channel admins, so the conversation answers tell
 * the client they may post where others may not. A joiner starts with everything already read: the
 * history of a channel is not news to them. Returns whether they were not in it before.
 */
function addToChannel(ctx: ServerContext, channel: ConversationRow, userId: number, communityAdmin: boolean): boolean {
  const flag = communityAdmin ? 1 : 0;
  const inserted = ctx.db
    .prepare(
      `INSERT OR IGNORE INTO conversation_members
         (conversation_id, user_id, is_admin, is_owner, can_create_posts, joined_at, last_read_message_id)
       VALUES (?, ?, ?, 0, ?, ?, COALESCE((SELECT last_message_id FROM conversations WHERE id = ?), 0))`,
    )
    .run(channel.id, userId, flag, flag, ctx.clock.now(), channel.id);
  if (inserted.changes === 0) return false;
  ctx.events.emit([userId], 'inbox_channel_added', { conversation_id: channel.id, community_id: channel.community_id });
  return true;
}

/** Removes the user from a channel and tells them and everybody still in it. */
function removeFromChannel(ctx: ServerContext, channel: ConversationRow, userId: number): void {
  const removed = ctx.db
    .prepare('DELETE FROM conversation_members WHERE conversation_id = ? AND user_id = ?')
    .run(channel.id, userId);
  if (removed.changes === 0) return;
  ctx.events.emit([userId, ...memberIds(ctx.db, channel.id)], 'conversation_removed_user', {
    conversation_id: channel.id,
    user_id: userId,
  });
}

/** Joins a public community and its announcements channel (idempotent). */
export function joinCommunity(ctx: ServerContext, community: CommunityRow, userId: number): void {
  const existing = communityMembership(ctx.db, community.id, userId);
  if (!existing && community.is_private === 1) {
    throw forbidden('This community is private. Only invited members can join.');
  }
  ctx.events.transaction(() => {
    ctx.db
      .prepare(
        `INSERT OR IGNORE INTO community_members (community_id, user_id, is_admin, is_owner, joined_at)
         VALUES (?, ?, 0, 0, ?)`,
      )
      .run(community.id, userId, ctx.clock.now());
    const announcements = announcementsChannel(ctx.db, community.id);
    if (announcements) addToChannel(ctx, announcements, userId, isCommunityAdminRow(existing));
  });
}

/** Leaves a community and every one of its channels. Community admins cannot leave (spec §6). */
export function leaveCommunity(ctx: ServerContext, community: CommunityRow, userId: number): void {
  const membership = communityMembership(ctx.db, community.id, userId);
  if (!membership) throw badRequest('You are not a member of this community');
  if (isCommunityAdminRow(membership)) throw forbidden('Community admins cannot leave the community');
  ctx.events.transaction(() => {
    for (const channel of communityChannels(ctx.db, community.id)) removeFromChannel(ctx, channel, userId);
    ctx.db.prepare('DELETE FROM community_members WHERE community_id = ? AND user_id = ?').run(community.id, userId);
  });
}

/** Joins a channel of a community the user is in (idempotent). */
export function joinChannel(ctx: ServerContext, { channel, community }: ChannelContext, userId: number): void {
  const membership = communityMembership(ctx.db, community.id, userId);
  if (!membership) throw forbidden('Join the community before joining its channels');
  ctx.events.transaction(() => {
    addToChannel(ctx, channel, userId, isCommunityAdminRow(membership));
  });
}

/** Leaves a channel; leaving the announcements channel means leaving the community (spec §4). */
export function leaveChannel(ctx: ServerContext, { channel, community }: ChannelContext, userId: number): void {
  if (channel.is_community_announcements === 1) {
    leaveCommunity(ctx, community, userId);
    return;
  }
  if (!loadMember(ctx.db, channel.id, userId)) throw badRequest('You are not a member of this channel');
  ctx.events.transaction(() => removeFromChannel(ctx, channel, userId));
}

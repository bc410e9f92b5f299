import type { ServerContext } from '../context';
import { sql } from '../db/store';
import { badRequest, forbidden } from '../http/errors';
import { communityMembership, isCommunityAdminRow, loadMember, memberIds } from './access';
import { type ChannelContext, announcementsChannel, communityChannels } from './communityAccess';
import type { CommunityRow, ConversationRow } from './rows';

/**
 * Puts the user in a channel. Community admins join as channel admins, so the conversation answers tell
 * the client they may post where others may not. A joiner starts with everything already read: the
 * history of a channel is not news to them. Returns whether they were not in it before.
 */
async function addToChannel(
  ctx: ServerContext,
  channel: ConversationRow,
  userId: number,
  communityAdmin: boolean,
): Promise<boolean> {
  const flag = communityAdmin ? 1 : 0;
  const inserted = await ctx.db.run(
    sql`INSERT INTO conversation_members
          (conversation_id, user_id, is_admin, is_owner, can_create_posts, joined_at, last_read_message_id)
        VALUES (${channel.id}, ${userId}, ${flag}, 0, ${flag}, ${ctx.clock.now()},
          COALESCE((SELECT last_message_id FROM conversations WHERE id = ${channel.id}), 0))
        ON CONFLICT (conversation_id, user_id) DO NOTHING`,
  );
  if (inserted === 0) return false;
  await ctx.events.emit([userId], 'inbox_channel_added', { conversation_id: channel.id, community_id: channel.community_id });
  return true;
}

/** Removes the user from a channel and tells them and everybody still in it. */
async function removeFromChannel(ctx: ServerContext, channel: ConversationRow, userId: number): Promise<void> {
  const removed = await ctx.db.run(
    sql`DELETE FROM conversation_members WHERE conversation_id = ${channel.id} AND user_id = ${userId}`,
  );
  if (removed === 0) return;
  await ctx.events.emit([userId, ...(await memberIds(ctx.db, channel.id))], 'conversation_removed_user', {
    conversation_id: channel.id,
    user_id: userId,
  });
}

/** Joins a public community and its announcements channel (idempotent). */
export async function joinCommunity(ctx: ServerContext, community: CommunityRow, userId: number): Promise<void> {
  const existing = await communityMembership(ctx.db, community.id, userId);
  if (!existing && community.is_private === 1) {
    throw forbidden('This community is private. Only invited members can join.');
  }
  await ctx.events.transaction(async () => {
    await ctx.db.run(
      sql`INSERT INTO community_members (community_id, user_id, is_admin, is_owner, joined_at)
          VALUES (${community.id}, ${userId}, 0, 0, ${ctx.clock.now()})
          ON CONFLICT (community_id, user_id) DO NOTHING`,
    );
    const announcements = await announcementsChannel(ctx.db, community.id);
    if (announcements) await addToChannel(ctx, announcements, userId, isCommunityAdminRow(existing));
  });
}

/** Leaves a community and every one of its channels. Community admins cannot leave (spec §6). */
export async function leaveCommunity(ctx: ServerContext, community: CommunityRow, userId: number): Promise<void> {
  const membership = await communityMembership(ctx.db, community.id, userId);
  if (!membership) throw badRequest('You are not a member of this community');
  if (isCommunityAdminRow(membership)) throw forbidden('Community admins cannot leave the community');
  await ctx.events.transaction(async () => {
    for (const channel of await communityChannels(ctx.db, community.id)) await removeFromChannel(ctx, channel, userId);
    await ctx.db.run(sql`DELETE FROM community_members WHERE community_id = ${community.id} AND user_id = ${userId}`);
  });
}

/** Joins a channel of a community the user is in (idempotent). */
export async function joinChannel(ctx: ServerContext, { channel, community }: ChannelContext, userId: number): Promise<void> {
  const membership = await communityMembership(ctx.db, community.id, userId);
  if (!membership) throw forbidden('Join the community before joining its channels');
  await ctx.events.transaction(async () => {
    await addToChannel(ctx, channel, userId, isCommunityAdminRow(membership));
  });
}

/** Leaves a channel; leaving the announcements channel means leaving the community (spec §4). */
export async function leaveChannel(ctx: ServerContext, { channel, community }: ChannelContext, userId: number): Promise<void> {
  if (channel.is_community_announcements === 1) {
    await leaveCommunity(ctx, community, userId);
    return;
  }
  if (!(await loadMember(ctx.db, channel.id, userId))) throw badRequest('You are not a member of this channel');
  await ctx.events.transaction(() => removeFromChannel(ctx, channel, userId));
}

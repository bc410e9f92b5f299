import type { Channel, Community } from '../../src/protocol/entities';
import { type Store, sql } from '../db/store';
import { communityMembership, isCommunityAdminRow, loadMember } from './access';
import { announcementsChannel } from './communityAccess';
import { epochSeconds } from './ids';
import type { CommunityRow, ConversationRow } from './rows';
import { imageMeta } from './serialize';

/** A community as `viewerId` sees it: whether they are in it and whether they administer it. */
export async function serializeCommunity(db: Store, row: CommunityRow, viewerId: number): Promise<Community> {
  const avatar = await imageMeta(db, row.avatar_file_id);
  const membership = await communityMembership(db, row.id, viewerId);
  const announcements = await announcementsChannel(db, row.id);
  const membersCount =
    (await db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM community_members WHERE community_id = ${row.id}`))?.n ?? 0;
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    avatar: avatar.is_default ? null : { url: avatar.url },
    avatar_thumbnail_url: avatar.thumbnail,
    members_count: membersCount,
    is_private: row.is_private === 1,
    is_member: membership !== undefined,
    announcements_channel_stid: announcements?.stid ?? '',
    announcements_channel_id: announcements?.id ?? 0,
    member: membership ? { user_id: viewerId, is_admin: isCommunityAdminRow(membership) } : null,
  };
}

export async function serializeChannel(db: Store, row: ConversationRow, viewerId: number): Promise<Channel> {
  const logo = await imageMeta(db, row.image_file_id);
  const membersCount =
    (await db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM conversation_members WHERE conversation_id = ${row.id}`))?.n ??
    0;
  const member = await loadMember(db, row.id, viewerId);
  return {
    id: row.id,
    stid: row.stid,
    name: row.name,
    logo: logo.is_default ? null : { url: logo.url, thumbnail: logo.thumbnail },
    description: row.description,
    created_at: epochSeconds(row.created_at),
    members_count: membersCount,
    is_community_announcements: row.is_community_announcements === 1,
    community_id: row.community_id ?? 0,
    is_member: member !== undefined,
    read_only: row.read_only === 1,
    disable_comments: row.disable_comments === 1,
  };
}

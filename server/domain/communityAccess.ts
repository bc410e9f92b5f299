import { COMMUNITY_COUNTRIES } from '../../src/protocol/constants';
import { type Store, sql } from '../db/store';
import type { AuthUser } from '../http/auth';
import { badRequest, forbidden, notFound } from '../http/errors';
import { communityMembership, loadMember } from './access';
import { findByIdOrStid } from './ids';
import type { CommunityRow, ConversationRow, MemberRow } from './rows';

/** The spec §5 text for any malformed community or channel input. */
export const INVALID_PARAMETERS = 'Invalid parameters provided';
export const COMMUNITY_NOT_FOUND = 'Community not found';
export const CHANNEL_NOT_FOUND = 'No channel data available';

/** Spec §9 country gating: communities exist only for users of the listed countries. */
export function requireCommunityCountry(user: AuthUser): void {
  if (!COMMUNITY_COUNTRIES.includes(user.country_code)) {
    throw forbidden('Communities are not available in your country');
  }
}

/**
 * Whether the viewer may see the community at all: it belongs to their country, and it is public or
 * they are in it. Everything else answers like an id that does not exist.
 */
export async function canSeeCommunity(db: Store, community: CommunityRow, viewer: AuthUser): Promise<boolean> {
  if (community.country_code !== viewer.country_code) return false;
  return community.is_private === 0 || (await communityMembership(db, community.id, viewer.id)) !== undefined;
}

/**
 * A community of the viewer's country, private or not. Only the join call uses it, so that asking to
 * join a private community is refused as such (403) rather than as unknown.
 */
export async function findCommunityOfCountry(db: Store, raw: string, viewer: AuthUser): Promise<CommunityRow> {
  const row = await findByIdOrStid<CommunityRow>(db, 'communities', raw);
  if (row === null) throw badRequest(INVALID_PARAMETERS);
  if (!row || row.country_code !== viewer.country_code) throw notFound(COMMUNITY_NOT_FOUND);
  return row;
}

export async function findVisibleCommunity(db: Store, raw: string, viewer: AuthUser): Promise<CommunityRow> {
  const row = await findCommunityOfCountry(db, raw, viewer);
  if (!(await canSeeCommunity(db, row, viewer))) throw notFound(COMMUNITY_NOT_FOUND);
  return row;
}

export interface ChannelContext {
  channel: ConversationRow;
  community: CommunityRow;
}

/** A channel (or announcements feed) of a community the viewer may see; 404 otherwise. */
export async function findVisibleChannel(db: Store, raw: string, viewer: AuthUser): Promise<ChannelContext> {
  const channel = await findByIdOrStid<ConversationRow>(db, 'conversations', raw);
  if (channel === null) throw badRequest(INVALID_PARAMETERS);
  if (!channel || channel.community_id == null || channel.group_type === 'normal') throw notFound(CHANNEL_NOT_FOUND);
  const community = await db.get<CommunityRow>(sql`SELECT * FROM communities WHERE id = ${channel.community_id}`);
  if (!community || !(await canSeeCommunity(db, community, viewer))) throw notFound(CHANNEL_NOT_FOUND);
  return { channel, community };
}

/**
 * The caller's membership of a channel they can see. Reading and writing posts, comments and reactions
 * needs it; a visible channel the caller has not joined answers 403 with no data.
 */
export async function requireChannelMember(db: Store, channel: ConversationRow, userId: number): Promise<MemberRow> {
  const member = await loadMember(db, channel.id, userId);
  if (!member) throw forbidden('You are not a member of this channel');
  return member;
}

export function announcementsChannel(db: Store, communityId: number): Promise<ConversationRow | undefined> {
  return db.get<ConversationRow>(
    sql`SELECT * FROM conversations WHERE community_id = ${communityId} AND is_community_announcements = 1 ORDER BY id LIMIT 1`,
  );
}

/** The community's channels, announcements first. */
export function communityChannels(db: Store, communityId: number): Promise<ConversationRow[]> {
  return db.all<ConversationRow>(
    sql`SELECT * FROM conversations WHERE community_id = ${communityId} AND group_type != 'normal'
        ORDER BY is_community_announcements DESC, id`,
  );
}

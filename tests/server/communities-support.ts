import { sql } from '../../server/db/store';
import { insertCommunity, insertCommunityChannels, insertConversation } from '../support/fixtures';
import { call, signUp, type TestServer, type TestUser } from '../support/server';

export interface CommunityWorld {
  owner: TestUser;
  admin: TestUser;
  member: TestUser;
  /** Indonesian, signed in, in no community. */
  outsider: TestUser;
  /** Swedish: communities are off for them (spec §9). */
  swede: TestUser;
  community: { id: number; stid: string };
  announcements: { id: number; stid: string };
  general: { id: number; stid: string };
  readOnly: { id: number; stid: string };
  /** A private community with its own announcements channel; only `owner` is in it. */
  secret: { id: number; stid: string };
  secretAnnouncements: { id: number; stid: string };
}

/**
 * A fresh public community ("Jakarta Makers") with an announcements feed, an open channel and a
 * read-only channel, where owner, admin and member are in all three; plus a private community.
 */
export async function makeWorld(s: TestServer, tag: string): Promise<CommunityWorld> {
  const db = s.server.ctx.db;
  const [owner, admin, member, outsider, swede] = await Promise.all([
    signUp(s.url, `Owner ${tag}`, '62'),
    signUp(s.url, `Admin ${tag}`, '62'),
    signUp(s.url, `Member ${tag}`, '62'),
    signUp(s.url, `Outsider ${tag}`, '62'),
    signUp(s.url, `Swede ${tag}`, '46'),
  ]);
  const everyone = [owner.id, admin.id, member.id];
  const community = await insertCommunity(db, {
    name: `Jakarta Makers ${tag}`,
    ownerId: owner.id,
    admins: [admin.id],
    members: [member.id],
  });
  // The owner may post announcements; the community admin is an admin without create_posts.
  const { announcements, general, readOnly } = await insertCommunityChannels(db, {
    communityId: community.id,
    ownerId: owner.id,
    members: everyone,
  });
  const secret = await insertCommunity(db, { name: `Secret Club ${tag}`, ownerId: owner.id });
  await db.run(sql`UPDATE communities SET is_private = 1, description = ${'Invitation only'} WHERE id = ${secret.id}`);
  const secretAnnouncements = await insertConversation(db, {
    name: 'Secret announcements',
    members: [owner.id],
    admins: [owner.id],
    isGroup: true,
    groupType: 'feed',
    communityId: secret.id,
    announcements: true,
  });
  return {
    ...{ owner, admin, member, outsider, swede },
    ...{ community, announcements, general, readOnly, secret, secretAnnouncements },
  };
}

/** Creates a post through the API and returns its id. */
export async function post(s: TestServer, token: string, channelId: number, message: string): Promise<number> {
  const r = await call<{ post: { id: number } }>(s.url, 'POST', `/v1/channels/${channelId}/posts`, {
    token,
    json: { message },
  });
  return r.data.post.id;
}

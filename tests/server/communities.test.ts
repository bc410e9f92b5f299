import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ChannelsAnswer,
  CommunitiesAnswer,
  CommunityAnswer,
  CommunitySearchAnswer,
} from '../../src/protocol/api';
import { sql } from '../../server/db/store';
import { insertCommunity } from '../support/fixtures';
import { call, signUp, startTestServer, type TestServer, TestSocket } from '../support/server';
import { makeWorld } from './communities-support';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

describe('community list, search and details', () => {
  it('lists public communities and private ones only to their members', async () => {
    const w = await makeWorld(s, 'list');
    const mine = await call<CommunitiesAnswer>(s.url, 'GET', '/v1/communities', { token: w.owner.token });
    const names = mine.data.communities.map((c) => c.name);
    expect(names).toContain('Jakarta Makers list');
    expect(names).toContain('Secret Club list');
    const makers = mine.data.communities.find((c) => c.id === w.community.id);
    expect(makers).toMatchObject({
      name: 'Jakarta Makers list',
      members_count: 3,
      is_private: false,
      is_member: true,
      announcements_channel_id: w.announcements.id,
      announcements_channel_stid: w.announcements.stid,
      member: { user_id: w.owner.id, is_admin: true },
      avatar: null,
    });

    const theirs = await call<CommunitiesAnswer>(s.url, 'GET', '/v1/communities', { token: w.outsider.token });
    const seen = theirs.data.communities.filter((c) => c.name.endsWith(' list'));
    expect(seen.map((c) => c.name)).toEqual(['Jakarta Makers list']);
    expect(seen[0]).toMatchObject({ is_member: false, member: null });

    const joined = await call<CommunitiesAnswer>(s.url, 'GET', '/v1/communities?only_joined=true', {
      token: w.member.token,
    });
    expect(joined.data.communities.map((c) => c.id)).toEqual([w.community.id]);
    expect(joined.data.communities[0]?.member).toEqual({ user_id: w.member.id, is_admin: false });
    const none = await call<CommunitiesAnswer>(s.url, 'GET', '/v1/communities?only_joined=true', {
      token: w.outsider.token,
    });
    expect(none.data.communities).toEqual([]);
    const all = await call<CommunitiesAnswer>(s.url, 'GET', '/v1/communities?only_joined=false', {
      token: w.outsider.token,
    });
    expect(all.data.communities.some((c) => c.id === w.community.id)).toBe(true);
  });

  it('lists communities by lower-cased name in code-point order, the same on SQLite and PostgreSQL', async () => {
    const user = await signUp(s.url, 'Sorter', '62');
    // SQLite's lower() folds ASCII only and PostgreSQL orders by its collation; the list must not depend on either.
    for (const name of ['Émile ord', 'zeta ord', '_under ord', 'éclair ord', 'Alpha ord']) {
      await insertCommunity(s.server.ctx.db, { name, ownerId: user.id });
    }
    const r = await call<CommunitiesAnswer>(s.url, 'GET', '/v1/communities?only_joined=true', { token: user.token });
    expect(r.data.communities.map((c) => c.name)).toEqual([
      '_under ord',
      'Alpha ord',
      'zeta ord',
      'éclair ord',
      'Émile ord',
    ]);
  });

  it('searches names and descriptions case-insensitively; a blank query finds nothing', async () => {
    const w = await makeWorld(s, 'srch');
    const hit = await call<CommunitySearchAnswer>(s.url, 'POST', '/v1/communities/search', {
      token: w.outsider.token,
      json: { query: 'jakarta MAKERS srch' },
    });
    expect(hit.data.search_results.map((c) => c.id)).toEqual([w.community.id]);

    // The private community matches its description only for a member.
    const byDescription = { query: 'invitation ONLY' };
    const ownerHit = await call<CommunitySearchAnswer>(s.url, 'POST', '/v1/communities/search', {
      token: w.owner.token,
      json: byDescription,
    });
    expect(ownerHit.data.search_results.map((c) => c.id)).toContain(w.secret.id);
    const outsiderHit = await call<CommunitySearchAnswer>(s.url, 'POST', '/v1/communities/search', {
      token: w.outsider.token,
      json: byDescription,
    });
    expect(outsiderHit.data.search_results.map((c) => c.id)).not.toContain(w.secret.id);

    for (const query of ['', '   ']) {
      const empty = await call<CommunitySearchAnswer>(s.url, 'POST', '/v1/communities/search', {
        token: w.owner.token,
        json: { query },
      });
      expect(empty.body).toEqual({ success: true, data: { search_results: [] } });
    }
  });

  it('shows a community by id or stid, and hides private ones from non-members', async () => {
    const w = await makeWorld(s, 'get');
    const byId = await call<CommunityAnswer>(s.url, 'GET', `/v1/communities/${w.community.id}`, {
      token: w.outsider.token,
    });
    expect(byId.data.community).toMatchObject({ id: w.community.id, is_member: false, members_count: 3 });
    const byStid = await call<CommunityAnswer>(s.url, 'GET', `/v1/communities/${w.community.stid}`, {
      token: w.member.token,
    });
    expect(byStid.data.community).toMatchObject({ id: w.community.id, is_member: true });

    const hidden = await call(s.url, 'GET', `/v1/communities/${w.secret.id}`, { token: w.outsider.token });
    expect(hidden.body).toEqual({ success: false, status: 404, message: 'Community not found' });
    const unknown = await call(s.url, 'GET', '/v1/communities/999999', { token: w.outsider.token });
    expect(unknown.body).toEqual({ success: false, status: 404, message: 'Community not found' });
    const own = await call<CommunityAnswer>(s.url, 'GET', `/v1/communities/${w.secret.id}`, { token: w.owner.token });
    expect(own.data.community).toMatchObject({ is_private: true, is_member: true });
  });

  it('lists a community’s channels, announcements first, with is_member per caller', async () => {
    const w = await makeWorld(s, 'chs');
    const forMember = await call<ChannelsAnswer>(s.url, 'GET', `/v1/communities/${w.community.id}/channels`, {
      token: w.member.token,
    });
    expect(forMember.data.channels.map((c) => c.name)).toEqual(['Announcements', 'General', 'Rules']);
    expect(forMember.data.channels[0]).toMatchObject({
      id: w.announcements.id,
      stid: w.announcements.stid,
      is_community_announcements: true,
      community_id: w.community.id,
      members_count: 3,
      is_member: true,
      read_only: false,
    });
    expect(forMember.data.channels[2]).toMatchObject({ name: 'Rules', read_only: true });

    // A public community's channel list may be browsed before joining.
    const browse = await call<ChannelsAnswer>(s.url, 'GET', `/v1/communities/${w.community.stid}/channels`, {
      token: w.outsider.token,
    });
    expect(browse.data.channels.every((c) => !c.is_member)).toBe(true);
    expect(browse.data.channels).toHaveLength(3);

    const secret = await call(s.url, 'GET', `/v1/communities/${w.secret.id}/channels`, { token: w.outsider.token });
    expect(secret.body).toEqual({ success: false, status: 404, message: 'Community not found' });
  });
});

describe('joining and leaving a community', () => {
  it('joins a public community and its announcements channel, telling the joiner only', async () => {
    const w = await makeWorld(s, 'join');
    const joiner = new TestSocket(s.url, w.outsider.token);
    const bystander = new TestSocket(s.url, w.member.token);
    await Promise.all([joiner.loaded(), bystander.loaded()]);

    const joined = await call<CommunityAnswer>(s.url, 'POST', `/v1/communities/${w.community.id}/join`, {
      token: w.outsider.token,
    });
    expect(joined.data.community).toMatchObject({ is_member: true, members_count: 4, member: { is_admin: false } });
    const added = await joiner.next((f) => f.action === 'inbox_channel_added');
    expect(added).toMatchObject({ data: { conversation_id: w.announcements.id, community_id: w.community.id } });

    const channels = await call<ChannelsAnswer>(s.url, 'GET', `/v1/communities/${w.community.id}/channels`, {
      token: w.outsider.token,
    });
    expect(channels.data.channels.map((c) => [c.name, c.is_member])).toEqual([
      ['Announcements', true],
      ['General', false],
      ['Rules', false],
    ]);

    // Joining again changes nothing and tells nobody again.
    await call(s.url, 'POST', `/v1/communities/${w.community.stid}/join`, { token: w.outsider.token }).then((r) => r.data);
    // A later event to the same user proves no second inbox_channel_added was queued before it.
    await call(s.url, 'POST', `/v1/channels/${w.general.id}/join`, { token: w.outsider.token }).then((r) => r.data);
    await joiner.next((f) => f.action === 'inbox_channel_added' && f.data.conversation_id === w.general.id);
    expect(joiner.actions()).toEqual(['inbox_channel_added', 'inbox_channel_added']);
    expect(bystander.actions()).toEqual([]);
    joiner.close();
    bystander.close();
  });

  it('refuses to join a private community', async () => {
    const w = await makeWorld(s, 'priv');
    const refused = await call(s.url, 'POST', `/v1/communities/${w.secret.id}/join`, { token: w.outsider.token });
    expect(refused.body).toEqual({
      success: false,
      status: 403,
      message: 'This community is private. Only invited members can join.',
    });
    const count = (await s.server.ctx.db.get<{ n: number }>(
      sql`SELECT COUNT(*) AS n FROM community_members WHERE community_id = ${w.secret.id}`,
    ))!;
    expect(count.n).toBe(1);
    // Its channels stay out of reach too.
    const channel = await call(s.url, 'GET', `/v1/channels/${w.secretAnnouncements.id}`, { token: w.outsider.token });
    expect(channel.body).toEqual({ success: false, status: 404, message: 'No channel data available' });
    const unknown = await call(s.url, 'POST', '/v1/communities/999999/join', { token: w.outsider.token });
    expect(unknown.body).toEqual({ success: false, status: 404, message: 'Community not found' });
  });

  it('leaves the community and all its channels, telling the leaver and the remaining members', async () => {
    const w = await makeWorld(s, 'leave');
    const leaver = new TestSocket(s.url, w.member.token);
    const stayer = new TestSocket(s.url, w.owner.token);
    const outsider = new TestSocket(s.url, w.outsider.token);
    await Promise.all([leaver.loaded(), stayer.loaded(), outsider.loaded()]);

    const left = await call<CommunityAnswer>(s.url, 'POST', `/v1/communities/${w.community.id}/leave`, {
      token: w.member.token,
    });
    expect(left.data.community).toMatchObject({ is_member: false, member: null, members_count: 2 });
    for (const channel of [w.announcements, w.general, w.readOnly]) {
      const expected = { conversation_id: channel.id, user_id: w.member.id };
      await leaver.next((f) => f.action === 'conversation_removed_user' && f.data.conversation_id === channel.id);
      const seen = await stayer.next(
        (f) => f.action === 'conversation_removed_user' && f.data.conversation_id === channel.id,
      );
      expect(seen).toMatchObject({ data: expected });
    }
    const memberships = (await s.server.ctx.db.get<{ n: number }>(
      sql`SELECT COUNT(*) AS n FROM conversation_members cm JOIN conversations c ON c.id = cm.conversation_id
          WHERE c.community_id = ${w.community.id} AND cm.user_id = ${w.member.id}`,
    ))!;
    expect(memberships.n).toBe(0);
    expect(outsider.actions()).toEqual([]);

    const again = await call(s.url, 'POST', `/v1/communities/${w.community.id}/leave`, { token: w.member.token });
    expect(again.status).toBe(400);
    leaver.close();
    stayer.close();
    outsider.close();
  });

  it('does not let a community admin or owner leave', async () => {
    const w = await makeWorld(s, 'adm');
    for (const user of [w.admin, w.owner]) {
      const r = await call(s.url, 'POST', `/v1/communities/${w.community.id}/leave`, { token: user.token });
      expect(r.body).toEqual({ success: false, status: 403, message: 'Community admins cannot leave the community' });
    }
    const stillIn = await call<CommunityAnswer>(s.url, 'GET', `/v1/communities/${w.community.id}`, {
      token: w.admin.token,
    });
    expect(stillIn.data.community).toMatchObject({ is_member: true, members_count: 3 });
  });
});

describe('gating and bad input', () => {
  it('answers 401 without a token on every community route', async () => {
    const w = await makeWorld(s, 'auth');
    const routes: [string, string][] = [
      ['GET', '/v1/communities'],
      ['POST', '/v1/communities/search'],
      ['GET', `/v1/communities/${w.community.id}`],
      ['POST', `/v1/communities/${w.community.id}/join`],
      ['POST', `/v1/communities/${w.community.id}/leave`],
      ['GET', `/v1/communities/${w.community.id}/channels`],
      ['GET', `/v1/channels/${w.general.id}`],
      ['POST', `/v1/channels/${w.general.id}/join`],
      ['POST', `/v1/channels/${w.general.id}/leave`],
      ['GET', `/v1/channels/${w.general.id}/posts`],
      ['POST', `/v1/channels/${w.general.id}/posts`],
      ['GET', `/v1/channels/${w.general.id}/post_comments?post_id=1`],
      ['POST', `/v1/channels/${w.general.id}/post_comments`],
      ['POST', `/v1/channels/${w.general.id}/add_post_reaction`],
      ['POST', `/v1/channels/${w.general.id}/delete_post_reaction`],
      ['POST', `/v1/channels/${w.general.id}/add_comment_reaction`],
      ['POST', `/v1/channels/${w.general.id}/delete_comment_reaction`],
    ];
    for (const [method, route] of routes) {
      const r = await call(s.url, method, route, method === 'POST' ? { json: {} } : {});
      expect([route, r.status]).toEqual([route, 401]);
      const swede = await call(s.url, method, route, { token: w.swede.token, ...(method === 'POST' ? { json: {} } : {}) });
      expect([route, swede.body]).toEqual([
        route,
        { success: false, status: 403, message: 'Communities are not available in your country' },
      ]);
    }
  });

  it('refuses a Swedish user even for a community that exists, and changes nothing', async () => {
    const w = await makeWorld(s, 'se');
    const join = await call(s.url, 'POST', `/v1/communities/${w.community.id}/join`, { token: w.swede.token });
    expect(join.status).toBe(403);
    const count = (await s.server.ctx.db.get<{ n: number }>(
      sql`SELECT COUNT(*) AS n FROM community_members WHERE user_id = ${w.swede.id}`,
    ))!;
    expect(count.n).toBe(0);
  });

  it('answers bad ids, bad query strings and bad search bodies with 400', async () => {
    const w = await makeWorld(s, 'bad');
    const invalid = { success: false, status: 400, message: 'Invalid parameters provided' };
    const t = { token: w.member.token };
    expect((await call(s.url, 'GET', '/v1/communities/not%20an%20id', t)).body).toEqual(invalid);
    expect((await call(s.url, 'POST', '/v1/communities/-1/join', t)).body).toEqual(invalid);
    expect((await call(s.url, 'GET', '/v1/communities?only_joined=maybe', t)).body).toEqual(invalid);
    expect((await call(s.url, 'POST', '/v1/communities/search', { ...t, json: {} })).body).toEqual(invalid);
    expect((await call(s.url, 'POST', '/v1/communities/search', { ...t, json: { query: ['x'] } })).body).toEqual(invalid);
    expect((await call(s.url, 'POST', '/v1/communities/search', { ...t, json: { query: 'x'.repeat(201) } })).body).toEqual(
      invalid,
    );
    const malformed = await call(s.url, 'POST', '/v1/communities/search', {
      ...t,
      body: '{"query":',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    const noBody = await call(s.url, 'POST', '/v1/communities/search', t);
    expect(noBody.status).toBe(400);
  });
});

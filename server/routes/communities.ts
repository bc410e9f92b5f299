import type { FastifyInstance } from 'fastify';
import type { ChannelsAnswer, CommunitiesAnswer, CommunityAnswer, CommunitySearchAnswer } from '../../src/protocol/api';
import type { Community } from '../../src/protocol/entities';
import type { ServerContext } from '../context';
import { sql } from '../db/store';
import {
  communityChannels,
  findCommunityOfCountry,
  findVisibleCommunity,
  requireCommunityCountry,
} from '../domain/communityAccess';
import { joinCommunity, leaveCommunity } from '../domain/communityMembers';
import { serializeChannel, serializeCommunity } from '../domain/communitySerialize';
import type { CommunityRow } from '../domain/rows';
import { type AuthUser, me } from '../http/auth';
import { ok } from '../http/reply';
import { registerChannelPostRoutes } from './channelPosts';
import { registerChannelReactionRoutes } from './channelReactions';
import { registerChannelRoutes } from './channels';
import { idParams, rejectInvalid } from './communitySchemas';

export const SEARCH_QUERY_MAX = 200;
export const SEARCH_RESULTS_MAX = 50;

/**
 * Communities and channels (spec §7). Every route of this scope is refused, after authentication, to
 * users of countries without communities (spec §9).
 */
export function registerCommunityRoutes(app: FastifyInstance, ctx: ServerContext): void {
  void app.register(async (scope) => {
    scope.addHook('onRequest', async (request) => requireCommunityCountry(me(request)));
    registerCommunityOnlyRoutes(scope, ctx);
    registerChannelRoutes(scope, ctx);
    registerChannelPostRoutes(scope, ctx);
    registerChannelReactionRoutes(scope, ctx);
  });
}

async function visibleCommunities(ctx: ServerContext, viewer: AuthUser, onlyJoined: boolean): Promise<CommunityRow[]> {
  const joined = sql`EXISTS (SELECT 1 FROM community_members cm
                             WHERE cm.community_id = c.id AND cm.user_id = ${viewer.id})`;
  const visible = onlyJoined ? joined : sql`(c.is_private = 0 OR ${joined})`;
  const rows = await ctx.db.all<CommunityRow>(
    sql`SELECT c.* FROM communities c WHERE c.country_code = ${viewer.country_code} AND ${visible}`,
  );
  // Sorted here, not by ORDER BY: PostgreSQL orders text by its database's collation and SQLite by code
  // point, so the same communities came back in different orders from the two stores.
  const key = (row: CommunityRow) => row.name.toLowerCase();
  return rows.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id - b.id));
}

function registerCommunityOnlyRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { db } = ctx;
  // Reads outside a transaction: one row's reads need not wait for the previous row's.
  const serializeAll = (rows: CommunityRow[], viewerId: number): Promise<Community[]> =>
    Promise.all(rows.map((row) => serializeCommunity(db, row, viewerId)));

  app.get<{ Querystring: { only_joined?: boolean } }>(
    '/v1/communities',
    {
      attachValidation: true,
      schema: { querystring: { type: 'object', properties: { only_joined: { type: 'boolean' } } } },
    },
    async (request) => {
      rejectInvalid(request);
      const viewer = me(request);
      const rows = await visibleCommunities(ctx, viewer, request.query.only_joined === true);
      return ok<CommunitiesAnswer>({ communities: await serializeAll(rows, viewer.id) });
    },
  );

  app.post<{ Body: { query: string } }>(
    '/v1/communities/search',
    {
      attachValidation: true,
      schema: {
        body: {
          type: 'object',
          required: ['query'],
          properties: { query: { type: 'string', maxLength: SEARCH_QUERY_MAX } },
        },
      },
    },
    async (request) => {
      rejectInvalid(request);
      const viewer = me(request);
      const needle = request.body.query.trim().toLocaleLowerCase();
      if (needle === '') return ok<CommunitySearchAnswer>({ search_results: [] });
      // In JS rather than SQL LIKE: SQLite lowercases ASCII only, and names are not all ASCII.
      const rows = (await visibleCommunities(ctx, viewer, false))
        .filter((c) => `${c.name}\n${c.description}`.toLocaleLowerCase().includes(needle))
        .slice(0, SEARCH_RESULTS_MAX);
      return ok<CommunitySearchAnswer>({ search_results: await serializeAll(rows, viewer.id) });
    },
  );

  app.get<{ Params: { id: string } }>(
    '/v1/communities/:id',
    { attachValidation: true, schema: { params: idParams } },
    async (request) => {
      rejectInvalid(request);
      const viewer = me(request);
      const community = await findVisibleCommunity(db, request.params.id, viewer);
      return ok<CommunityAnswer>({ community: await serializeCommunity(db, community, viewer.id) });
    },
  );

  app.post<{ Params: { id: string } }>(
    '/v1/communities/:id/join',
    { attachValidation: true, schema: { params: idParams } },
    async (request) => {
      rejectInvalid(request);
      const viewer = me(request);
      const community = await findCommunityOfCountry(db, request.params.id, viewer);
      await joinCommunity(ctx, community, viewer.id);
      return ok<CommunityAnswer>({ community: await serializeCommunity(db, community, viewer.id) });
    },
  );

  app.post<{ Params: { id: string } }>(
    '/v1/communities/:id/leave',
    { attachValidation: true, schema: { params: idParams } },
    async (request) => {
      rejectInvalid(request);
      const viewer = me(request);
      const community = await findVisibleCommunity(db, request.params.id, viewer);
      await leaveCommunity(ctx, community, viewer.id);
      return ok<CommunityAnswer>({ community: await serializeCommunity(db, community, viewer.id) });
    },
  );

  app.get<{ Params: { id: string } }>(
    '/v1/communities/:id/channels',
    { attachValidation: true, schema: { params: idParams } },
    async (request) => {
      rejectInvalid(request);
      const viewer = me(request);
      const community = await findVisibleCommunity(db, request.params.id, viewer);
      const rows = await communityChannels(db, community.id);
      const channels = await Promise.all(rows.map((row) => serializeChannel(db, row, viewer.id)));
      return ok<ChannelsAnswer>({ channels });
    },
  );
}

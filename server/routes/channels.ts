import type { FastifyInstance } from 'fastify';
import type { ChannelAnswer } from '../../src/protocol/api';
import type { ServerContext } from '../context';
import { findVisibleChannel } from '../domain/communityAccess';
import { joinChannel, leaveChannel } from '../domain/communityMembers';
import { serializeChannel } from '../domain/communitySerialize';
import { me } from '../http/auth';
import { ok } from '../http/reply';
import { idParams, rejectInvalid } from './communitySchemas';

/** A channel's details, join and leave. Registered inside the country-gated community scope. */
export function registerChannelRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { db } = ctx;

  app.get<{ Params: { id: string } }>(
    '/v1/channels/:id',
    { attachValidation: true, schema: { params: idParams } },
    async (request) => {
      rejectInvalid(request);
      const viewer = me(request);
      const { channel } = await findVisibleChannel(db, request.params.id, viewer);
      return ok<ChannelAnswer>({ channel: await serializeChannel(db, channel, viewer.id) });
    },
  );

  app.post<{ Params: { id: string } }>(
    '/v1/channels/:id/join',
    { attachValidation: true, schema: { params: idParams } },
    async (request) => {
      rejectInvalid(request);
      const viewer = me(request);
      const found = await findVisibleChannel(db, request.params.id, viewer);
      await joinChannel(ctx, found, viewer.id);
      return ok<ChannelAnswer>({ channel: await serializeChannel(db, found.channel, viewer.id) });
    },
  );

  app.post<{ Params: { id: string } }>(
    '/v1/channels/:id/leave',
    { attachValidation: true, schema: { params: idParams } },
    async (request) => {
      rejectInvalid(request);
      const viewer = me(request);
      const found = await findVisibleChannel(db, request.params.id, viewer);
      await leaveChannel(ctx, found, viewer.id);
      return ok<ChannelAnswer>({ channel: await serializeChannel(db, found.channel, viewer.id) });
    },
  );
}

import type { FastifyInstance } from 'fastify';
import type { CommentAnswer, PostAnswer } from '../../src/protocol/api';
import type { ServerContext } from '../context';
import { INVALID_PARAMETERS, findVisibleChannel, requireChannelMember } from '../domain/communityAccess';
import { isValidReaction, REACTION_MAX_UNITS } from '../../src/protocol/reactions';
import { setCommentReaction } from '../domain/channelReactions';
import { POST_NOT_FOUND } from '../domain/comments';
import { setReaction } from '../domain/reactions';
import { me } from '../http/auth';
import { badRequest } from '../http/errors';
import { ok } from '../http/reply';
import { positiveId } from '../http/messageSchemas';
import { idParams, rejectInvalid } from './communitySchemas';

const reaction = { type: 'string', minLength: 1, maxLength: REACTION_MAX_UNITS } as const;

const postReactionBody = {
  type: 'object',
  required: ['post_id', 'reaction'],
  properties: { post_id: positiveId, reaction },
} as const;

const commentReactionBody = {
  type: 'object',
  required: ['post_id', 'comment_id', 'reaction'],
  properties: { post_id: positiveId, comment_id: positiveId, reaction },
} as const;

function validReaction(value: string): string {
  if (!isValidReaction(value)) throw badRequest(INVALID_PARAMETERS);
  return value;
}

/**
 * Post and comment reactions of a channel. The add and delete calls answer the post (or comment) with
 * its reactions after the change. Post reactions are message reactions (same rule, cap and event).
 */
export function registerChannelReactionRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { db } = ctx;

  for (const [path, on] of [
    ['/v1/channels/:id/add_post_reaction', true],
    ['/v1/channels/:id/delete_post_reaction', false],
  ] as const) {
    app.post<{ Params: { id: string }; Body: { post_id: number; reaction: string } }>(
      path,
      { attachValidation: true, schema: { params: idParams, body: postReactionBody } },
      async (request) => {
        rejectInvalid(request);
        const viewer = me(request);
        const emoji = validReaction(request.body.reaction);
        const { channel } = await findVisibleChannel(db, request.params.id, viewer);
        const member = await requireChannelMember(db, channel, viewer.id);
        const post = await setReaction(ctx, channel, member, request.body.post_id, emoji, on, POST_NOT_FOUND);
        return ok<PostAnswer>({ post });
      },
    );
  }

  for (const [path, on] of [
    ['/v1/channels/:id/add_comment_reaction', true],
    ['/v1/channels/:id/delete_comment_reaction', false],
  ] as const) {
    app.post<{ Params: { id: string }; Body: { post_id: number; comment_id: number; reaction: string } }>(
      path,
      { attachValidation: true, schema: { params: idParams, body: commentReactionBody } },
      async (request) => {
        rejectInvalid(request);
        const viewer = me(request);
        const emoji = validReaction(request.body.reaction);
        const { channel } = await findVisibleChannel(db, request.params.id, viewer);
        const member = await requireChannelMember(db, channel, viewer.id);
        const comment = await setCommentReaction(ctx, channel, member, {
          postId: request.body.post_id,
          commentId: request.body.comment_id,
          reaction: emoji,
          on,
        });
        return ok<CommentAnswer>({ comment });
      },
    );
  }
}

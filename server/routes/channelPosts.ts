import type { FastifyInstance } from 'fastify';
import type { CommentsAnswer, PostAnswer, PostCommentAnswer, PostsAnswer } from '../../src/protocol/api';
import { COMMENTS_PAGE_SIZE, POSTS_PAGE_SIZE } from '../../src/protocol/constants';
import type { ServerContext } from '../context';
import { checkPageQuery } from '../domain/channelPaging';
import { listComments, listPosts } from '../domain/channelPosts';
import { addComment } from '../domain/comments';
import { findVisibleChannel, requireChannelMember } from '../domain/communityAccess';
import { sendMessage } from '../domain/messages';
import { me } from '../http/auth';
import { badRequest } from '../http/errors';
import { ok } from '../http/reply';
import {
  idempotencyKey,
  type MessageContentBody,
  messageContentProperties,
  nullableId,
  positiveId,
} from '../http/messageSchemas';
import {
  type PageQuerystring,
  idParams,
  pageProperties,
  rejectInvalid,
  toPageQuery,
} from './communitySchemas';

/**
 * The create-post payload, which the spec does not show: the JSON of sending a message to
 * /v2/conversations/{id}/messages (message, client_id, attachment {type, files: [{id}]} with the `id` of
 * /v2/filestorage/file, quoted_message_id), except that client_id is optional. The same client_id rule
 * and Idempotency-Key header apply. The answer is the stored post.
 */
const postBody = { type: 'object', properties: messageContentProperties } as const;

interface CommentBody {
  post_id: number;
  message?: unknown;
  parent_comment_id?: number | null;
  /** Optional; with it the client_id rule of messages applies (a retry answers the stored comment). */
  client_id?: number;
}

const commentBody = {
  type: 'object',
  required: ['post_id'],
  properties: {
    post_id: positiveId,
    // Checked by the handler, so a bad message gets the spec's own text (§5), not the generic one.
    message: {},
    parent_comment_id: nullableId,
    client_id: messageContentProperties.client_id,
  },
} as const;

/** Posts and comments of a channel: reading and writing both need channel membership. */
export function registerChannelPostRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { db } = ctx;

  app.get<{ Params: { id: string }; Querystring: PageQuerystring }>(
    '/v1/channels/:id/posts',
    {
      attachValidation: true,
      schema: { params: idParams, querystring: { type: 'object', properties: pageProperties } },
    },
    async (request) => {
      rejectInvalid(request);
      const viewer = me(request);
      const { channel } = await findVisibleChannel(db, request.params.id, viewer);
      const member = await requireChannelMember(db, channel, viewer.id);
      const page = toPageQuery(request.query, POSTS_PAGE_SIZE);
      checkPageQuery(page);
      return ok<PostsAnswer>(await listPosts(ctx, channel, member, page));
    },
  );

  app.post<{ Params: { id: string }; Body: MessageContentBody }>(
    '/v1/channels/:id/posts',
    { attachValidation: true, schema: { params: idParams, body: postBody } },
    async (request) => {
      rejectInvalid(request);
      const viewer = me(request);
      const { channel } = await findVisibleChannel(db, request.params.id, viewer);
      const member = await requireChannelMember(db, channel, viewer.id);
      const body = request.body;
      const file = body.attachment?.files[0];
      const { message } = await sendMessage(ctx, {
        conversation: channel,
        member,
        clientId: body.client_id ?? null,
        text: body.message ?? '',
        attachment: body.attachment && file ? { type: body.attachment.type, fileId: file.id } : null,
        quotedId: body.quoted_message_id ?? null,
        idempotencyKey: idempotencyKey(request),
      });
      return ok<PostAnswer>({ post: message });
    },
  );

  app.get<{
    Params: { id: string };
    Querystring: PageQuerystring & { post_id: number; parent_comment_id?: number };
  }>(
    '/v1/channels/:id/post_comments',
    {
      attachValidation: true,
      schema: {
        params: idParams,
        querystring: {
          type: 'object',
          required: ['post_id'],
          properties: { ...pageProperties, post_id: positiveId, parent_comment_id: positiveId },
        },
      },
    },
    async (request) => {
      rejectInvalid(request);
      const viewer = me(request);
      const { channel } = await findVisibleChannel(db, request.params.id, viewer);
      const member = await requireChannelMember(db, channel, viewer.id);
      const page = toPageQuery(request.query, COMMENTS_PAGE_SIZE);
      checkPageQuery(page);
      const answer = await listComments(ctx, channel, member, {
        postId: request.query.post_id,
        parentCommentId: request.query.parent_comment_id,
        page,
      });
      return ok<CommentsAnswer>(answer);
    },
  );

  app.post<{ Params: { id: string }; Body: CommentBody }>(
    '/v1/channels/:id/post_comments',
    { attachValidation: true, schema: { params: idParams, body: commentBody } },
    async (request) => {
      rejectInvalid(request);
      const viewer = me(request);
      const { channel } = await findVisibleChannel(db, request.params.id, viewer);
      const member = await requireChannelMember(db, channel, viewer.id);
      const { message } = request.body;
      if (typeof message !== 'string') throw badRequest('Invalid message provided');
      const { comment, participants } = await addComment(ctx, {
        channel,
        member,
        postId: request.body.post_id,
        parentCommentId: request.body.parent_comment_id ?? null,
        text: message,
        clientId: request.body.client_id ?? null,
        idempotencyKey: idempotencyKey(request),
      });
      return ok<PostCommentAnswer>({ comment, participants });
    },
  );
}

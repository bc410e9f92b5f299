import type { FastifyInstance } from 'fastify';
import type {
  PostCommentAnswer,
  DlrsAnswer,
  MessageAnswer,
  MessagesAnswer,
  WarningsAnswer,
} from '../../src/protocol/api';
import { HEADER_AFTER, HEADER_BEFORE, HEADER_MESSAGE_COUNT, HEADER_SINCE } from '../../src/protocol/api';
import { MESSAGE_PAGE_MAX, MESSAGE_PAGE_SIZE } from '../../src/protocol/constants';
import type { ServerContext } from '../context';
import { sql } from '../db/store';
import { requireMembership } from '../domain/access';
import { addComment } from '../domain/comments';
import { parseIdOrStid } from '../domain/ids';
import { deleteForEverybody, hideForMe } from '../domain/message-delete';
import { editMessage } from '../domain/message-edit';
import { messagesPage, parseCursor } from '../domain/message-history';
import { messageCountHeader } from '../domain/conversationRules';
import { sendMessage } from '../domain/messages';
import { setReaction } from '../domain/reactions';
import { receiptsOnOwnMessages, recordReceipt } from '../domain/receipts';
import type { ConversationRow } from '../domain/rows';
import { me } from '../http/auth';
import { badRequest, notFound } from '../http/errors';
import { ok } from '../http/reply';
import {
  idempotencyKey,
  type MessageContentBody,
  messageContentProperties,
  nullableId,
  positiveId,
} from '../http/messageSchemas';

export const MESSAGE_IDS_MAX = 100;

interface ConversationParams {
  id: string;
}
interface MessageParams extends ConversationParams {
  msgId: string;
}

interface SendBody extends MessageContentBody {
  client_id: number;
  /** Makes the message a comment on that channel post; the answer names its author too. */
  post_id?: number | null;
}

const sendSchema = {
  type: 'object',
  required: ['client_id'],
  properties: { ...messageContentProperties, post_id: nullableId },
} as const;

const editSchema = {
  type: 'object',
  required: ['id', 'text'],
  properties: { id: positiveId, text: { type: 'string' } },
} as const;

const receiptSchema = {
  type: 'object',
  required: ['read'],
  properties: { read: { type: 'string', enum: ['true', 'false'] } },
} as const;

const reactionSchema = {
  type: 'object',
  required: ['reaction'],
  properties: { reaction: { type: 'string' } },
} as const;

const messageIdsSchema = {
  type: 'object',
  required: ['message_ids'],
  properties: { message_ids: { type: 'array', minItems: 1, maxItems: MESSAGE_IDS_MAX, items: positiveId } },
} as const;

/** A message id in a path: numeric, or the message's stid within this conversation. */
async function messageIdParam(ctx: ServerContext, conversation: ConversationRow, raw: string): Promise<number> {
  const key = parseIdOrStid(raw);
  if (!key) throw badRequest('Invalid message ID provided');
  if ('id' in key) return key.id;
  const row = await ctx.db.get<{ id: number }>(
    sql`SELECT id FROM messages WHERE stid = ${key.stid} AND conversation_id = ${conversation.id}`,
  );
  if (!row) throw notFound('Message not found');
  return row.id;
}

export function registerMessageRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { db } = ctx;

  app.get<{ Params: ConversationParams }>('/v2/conversations/:id/messages', async (request) => {
    const count = messageCountHeader(
      request.headers[HEADER_MESSAGE_COUNT.toLowerCase()],
      MESSAGE_PAGE_SIZE,
      1,
      MESSAGE_PAGE_MAX,
    );
    const headers = request.headers;
    const cursor = parseCursor(
      headers[HEADER_BEFORE.toLowerCase()],
      headers[HEADER_AFTER.toLowerCase()],
      headers[HEADER_SINCE.toLowerCase()],
    );
    const { conversation, member } = await requireMembership(db, request.params.id, me(request).id);
    return ok<MessagesAnswer>({ messages: await messagesPage(db, conversation, member, count, cursor) });
  });

  app.post<{ Params: ConversationParams; Body: SendBody }>(
    '/v2/conversations/:id/messages',
    { schema: { body: sendSchema } },
    async (request, reply) => {
      const body = request.body;
      const key = idempotencyKey(request);
      const { conversation, member } = await requireMembership(db, request.params.id, me(request).id);
      if (body.post_id != null) {
        if (body.attachment) throw badRequest('A comment cannot carry an attachment');
        if (body.quoted_message_id != null) throw badRequest('A comment cannot quote a message');
        const { comment, participants, created } = await addComment(ctx, {
          channel: conversation,
          member,
          postId: body.post_id,
          parentCommentId: null,
          text: body.message ?? '',
          clientId: body.client_id,
          idempotencyKey: key,
        });
        // As for messages: 201 for a new comment, 200 for a retry of one already stored.
        reply.status(created ? 201 : 200);
        return ok<PostCommentAnswer>({ comment, participants });
      }
      const file = body.attachment?.files[0];
      const { message, created } = await sendMessage(ctx, {
        conversation,
        member,
        clientId: body.client_id,
        text: body.message ?? '',
        attachment: body.attachment && file ? { type: body.attachment.type, fileId: file.id } : null,
        quotedId: body.quoted_message_id ?? null,
        idempotencyKey: key,
      });
      // 201 for a new message, 200 when this was a retry of one already stored.
      reply.status(created ? 201 : 200);
      return ok<MessageAnswer>({ message });
    },
  );

  app.post<{ Params: ConversationParams; Body: { id: number; text: string } }>(
    '/v2/conversations/:id/edit_message',
    { schema: { body: editSchema } },
    async (request) => {
      const { conversation, member } = await requireMembership(db, request.params.id, me(request).id);
      return ok<MessageAnswer>({
        message: await editMessage(ctx, conversation, member, request.body.id, request.body.text),
      });
    },
  );

  app.post<{ Params: MessageParams; Body: { read: 'true' | 'false' } }>(
    '/v1/conversations/:id/messages/:msgId',
    { schema: { body: receiptSchema } },
    async (request) => {
      const { conversation, member } = await requireMembership(db, request.params.id, me(request).id);
      const messageId = await messageIdParam(ctx, conversation, request.params.msgId);
      const read = request.body.read === 'true';
      return ok<DlrsAnswer>({ dlrs: await recordReceipt(ctx, conversation, member, messageId, read) });
    },
  );

  app.get<{ Params: ConversationParams }>('/v2/conversations/:id/dlrs', async (request) => {
    const { conversation, member } = await requireMembership(db, request.params.id, me(request).id);
    return ok<DlrsAnswer>({ dlrs: await receiptsOnOwnMessages(db, conversation, member) });
  });

  for (const method of ['POST', 'DELETE'] as const) {
    app.route<{ Params: MessageParams; Body: { reaction: string } }>({
      method,
      url: '/v2/conversations/:id/messages/:msgId/reactions',
      schema: { body: reactionSchema },
      // A missing or mistyped reaction gets the spec's text (§5), like an invalid emoji does.
      attachValidation: true,
      handler: async (request) => {
        const { conversation, member } = await requireMembership(db, request.params.id, me(request).id);
        if (request.validationError) throw badRequest('Invalid parameters provided');
        const messageId = await messageIdParam(ctx, conversation, request.params.msgId);
        const on = method === 'POST';
        const message = await setReaction(ctx, conversation, member, messageId, request.body.reaction, on);
        return ok<MessageAnswer>({ message });
      },
    });
  }

  app.post<{ Params: ConversationParams; Body: { message_ids: number[] } }>(
    '/v2/conversations/:id/delete/messages',
    { schema: { body: messageIdsSchema } },
    async (request) => {
      const { conversation, member } = await requireMembership(db, request.params.id, me(request).id);
      return ok<WarningsAnswer>(
        await deleteForEverybody(ctx, conversation, member, request.body.message_ids, request.log),
      );
    },
  );

  app.post<{ Params: ConversationParams; Body: { message_ids: number[] } }>(
    '/v2/conversations/:id/hide_messages',
    { schema: { body: messageIdsSchema } },
    async (request) => {
      const { conversation, member } = await requireMembership(db, request.params.id, me(request).id);
      return ok<WarningsAnswer>(await hideForMe(ctx, conversation, member, request.body.message_ids));
    },
  );
}

import type {
  DlrsAnswer,
  PresenceAnswer,
  MessageAnswer,
  MessagesAnswer,
  PostCommentAnswer,
  WarningsAnswer,
} from '../../protocol/api';
import { HEADER_AFTER, HEADER_BEFORE, HEADER_IDEMPOTENCY_KEY, HEADER_MESSAGE_COUNT, HEADER_SINCE } from '../../protocol/api';
import { MESSAGE_PAGE_SIZE } from '../../protocol/constants';
import { path, type RestCore } from './core';
import { INVALID_PARAMETERS } from './fallbacks';
import type { MessageCalls } from '../contract/restCalls';
import type { AttachmentInput, Id, MessagesPageInput, SendCommentMessageInput, SendMessageInput } from '../contract/restInputs';

/** The Idempotency-Key header when the caller has one (docs/server.md "The client_id rule"). */
export function idempotencyHeaders(key: string | undefined): Record<string, string> {
  return key ? { [HEADER_IDEMPOTENCY_KEY]: key } : {};
}

/** The wire shape of an attachment of spec §7: {type, files: [{id}]}. */
export function attachmentField(attachment: AttachmentInput | undefined) {
  return attachment ? { attachment: { type: attachment.type, files: [{ id: attachment.fileId }] } } : {};
}

/** Spec §7 "Messages": history, send, edit, receipts, reactions, delete and hide. */
export function messageCalls(core: RestCore): MessageCalls {
  const reaction = (call: 'addReaction' | 'removeReaction', id: Id, messageId: Id, emoji: string) => {
    if (emoji === '') return Promise.reject(core.refusal(call, INVALID_PARAMETERS));
    return core.send<MessageAnswer>({
      call,
      method: call === 'addReaction' ? 'POST' : 'DELETE',
      path: path`/v2/conversations/${id}/messages/${messageId}/reactions`,
      json: { reaction: emoji },
    });
  };

  return {
    /** GET /v2/conversations/{id}/messages: a page (Message-Count, default 20), older than Before, right after After or from Since (docs/server.md) if given; oldest first. */
    getMessages(id: Id, page: MessagesPageInput = {}): Promise<MessagesAnswer> {
      return core.send({
        call: 'getMessages',
        method: 'GET',
        path: path`/v2/conversations/${id}/messages`,
        headers: {
          [HEADER_MESSAGE_COUNT]: String(page.count ?? MESSAGE_PAGE_SIZE),
          ...(page.before !== undefined ? { [HEADER_BEFORE]: String(page.before) } : {}),
          ...(page.after !== undefined ? { [HEADER_AFTER]: String(page.after) } : {}),
          ...(page.since !== undefined ? { [HEADER_SINCE]: String(page.since) } : {}),
        },
      });
    },

    /** GET /v1/users/{id}/presence (our addition, docs/server.md): online now, or when last seen. */
    getPresence(userId: Id): Promise<PresenceAnswer> {
      return core.send({ call: 'getPresence', method: 'GET', path: path`/v1/users/${userId}/presence` });
    },

    /** POST /v2/conversations/{id}/messages (json). A resend with the same client_id and key answers the stored message. */
    sendMessage(id: Id, input: SendMessageInput): Promise<MessageAnswer> {
      return core.send({
        call: 'sendMessage',
        method: 'POST',
        path: path`/v2/conversations/${id}/messages`,
        headers: idempotencyHeaders(input.idempotencyKey),
        json: {
          client_id: input.clientId,
          ...(input.message !== undefined ? { message: input.message } : {}),
          ...attachmentField(input.attachment),
          ...(input.quotedMessageId !== undefined ? { quoted_message_id: input.quotedMessageId } : {}),
        },
        ...(input.signal ? { signal: input.signal } : {}),
      });
    },

    /** The same call with post_id (community channels): the text becomes a comment on that post. */
    sendMessageAsComment(id: Id, input: SendCommentMessageInput): Promise<PostCommentAnswer> {
      return core.send({
        call: 'sendMessageAsComment',
        method: 'POST',
        path: path`/v2/conversations/${id}/messages`,
        headers: idempotencyHeaders(input.idempotencyKey),
        json: { client_id: input.clientId, message: input.message, post_id: input.postId },
      });
    },

    /** POST /v2/conversations/{id}/edit_message (json id, text). */
    editMessage(id: Id, messageId: number, text: string): Promise<MessageAnswer> {
      return core.send({
        call: 'editMessage',
        method: 'POST',
        path: path`/v2/conversations/${id}/edit_message`,
        json: { id: messageId, text },
      });
    },

    /** POST /v1/conversations/{id}/messages/{msgId} (form read=true|false): a read or delivered receipt. */
    sendReceipt(id: Id, messageId: Id, kind: 'read' | 'delivered'): Promise<DlrsAnswer> {
      return core.send({
        call: 'sendReceipt',
        method: 'POST',
        path: path`/v1/conversations/${id}/messages/${messageId}`,
        form: { read: kind === 'read' ? 'true' : 'false' },
      });
    },

    /** GET /v2/conversations/{id}/dlrs: receipts on the caller's latest own messages. */
    getDlrs(id: Id): Promise<DlrsAnswer> {
      return core.send({ call: 'getDlrs', method: 'GET', path: path`/v2/conversations/${id}/dlrs` });
    },

    /** POST /v2/conversations/{id}/messages/{msgId}/reactions (json reaction). */
    addReaction(id: Id, messageId: Id, emoji: string): Promise<MessageAnswer> {
      return reaction('addReaction', id, messageId, emoji);
    },

    /** DELETE of the same path. */
    removeReaction(id: Id, messageId: Id, emoji: string): Promise<MessageAnswer> {
      return reaction('removeReaction', id, messageId, emoji);
    },

    /** POST /v2/conversations/{id}/delete/messages (json message_ids): delete for everybody; see `warnings`. */
    deleteMessages(id: Id, messageIds: readonly number[]): Promise<WarningsAnswer> {
      return core.send({
        call: 'deleteMessages',
        method: 'POST',
        path: path`/v2/conversations/${id}/delete/messages`,
        json: { message_ids: messageIds },
      });
    },

    /** POST /v2/conversations/{id}/hide_messages (json message_ids): delete for me; see `warnings`. */
    hideMessages(id: Id, messageIds: readonly number[]): Promise<WarningsAnswer> {
      return core.send({
        call: 'hideMessages',
        method: 'POST',
        path: path`/v2/conversations/${id}/hide_messages`,
        json: { message_ids: messageIds },
      });
    },
  };
}

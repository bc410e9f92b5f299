import type { CommentAnswer, CommentsAnswer, PostAnswer, PostCommentAnswer, PostsAnswer } from '../../protocol/api';
import { COMMENTS_PAGE_SIZE, POSTS_PAGE_SIZE } from '../../protocol/constants';
import { type ApiPath, path, type RestCore } from './core';
import { INVALID_PARAMETERS, type RestCallName } from './fallbacks';
import type { ChannelPostCalls } from '../contract/restCalls';
import type { CommentsPageInput, CreateCommentInput, CreatePostInput, Id, PageInput } from '../contract/restInputs';
import { attachmentField, idempotencyHeaders } from './messageCalls';

function pageQuery(page: PageInput, defaultLimit: number) {
  return { limit: page.limit ?? defaultLimit, before: page.before, after: page.after, around: page.around };
}

/** Spec §7 channel posts and comments, and their reactions. */
export function channelPostCalls(core: RestCore): ChannelPostCalls {
  const react = <T>(call: RestCallName, apiPath: ApiPath, body: Record<string, number | string>) => {
    // Spec §5: a community action needs its reaction parameters, else "Invalid parameters provided".
    if (body.reaction === '') return Promise.reject(core.refusal(call, INVALID_PARAMETERS));
    return core.send<T>({ call, method: 'POST', path: apiPath, json: body });
  };

  return {
    /** GET /v1/channels/{id}/posts: limit (20), at most one of before/after/around; oldest first. */
    getPosts(channelId: Id, page: PageInput = {}): Promise<PostsAnswer> {
      return core.send({
        call: 'getPosts',
        method: 'GET',
        path: path`/v1/channels/${channelId}/posts`,
        query: pageQuery(page, POSTS_PAGE_SIZE),
      });
    },

    /** POST /v1/channels/{id}/posts: the JSON of a message send. */
    createPost(channelId: Id, input: CreatePostInput): Promise<PostAnswer> {
      return core.send({
        call: 'createPost',
        method: 'POST',
        path: path`/v1/channels/${channelId}/posts`,
        headers: idempotencyHeaders(input.idempotencyKey),
        json: {
          ...(input.message !== undefined ? { message: input.message } : {}),
          ...(input.clientId !== undefined ? { client_id: input.clientId } : {}),
          ...attachmentField(input.attachment),
          ...(input.quotedMessageId !== undefined ? { quoted_message_id: input.quotedMessageId } : {}),
        },
      });
    },

    /** GET /v1/channels/{id}/post_comments: a post's comments (or a comment's replies), limit (50). */
    getComments(channelId: Id, page: CommentsPageInput): Promise<CommentsAnswer> {
      return core.send({
        call: 'getComments',
        method: 'GET',
        path: path`/v1/channels/${channelId}/post_comments`,
        query: { post_id: page.postId, parent_comment_id: page.parentCommentId, ...pageQuery(page, COMMENTS_PAGE_SIZE) },
      });
    },

    /** POST /v1/channels/{id}/post_comments (json post_id, message, parent_comment_id?, client_id?). */
    /** Answers the comment and its author (participants), as a message sent with post_id does. */
    createComment(channelId: Id, input: CreateCommentInput): Promise<PostCommentAnswer> {
      return core.send({
        call: 'createComment',
        method: 'POST',
        path: path`/v1/channels/${channelId}/post_comments`,
        headers: idempotencyHeaders(input.idempotencyKey),
        json: {
          post_id: input.postId,
          message: input.message,
          ...(input.parentCommentId !== undefined ? { parent_comment_id: input.parentCommentId } : {}),
          ...(input.clientId !== undefined ? { client_id: input.clientId } : {}),
        },
        ...(input.signal ? { signal: input.signal } : {}),
      });
    },

    /** POST /v1/channels/{id}/add_post_reaction (json post_id, reaction). */
    addPostReaction(channelId: Id, postId: number, reaction: string): Promise<PostAnswer> {
      return react('addPostReaction', path`/v1/channels/${channelId}/add_post_reaction`, { post_id: postId, reaction });
    },

    /** POST /v1/channels/{id}/delete_post_reaction. */
    removePostReaction(channelId: Id, postId: number, reaction: string): Promise<PostAnswer> {
      return react('removePostReaction', path`/v1/channels/${channelId}/delete_post_reaction`, { post_id: postId, reaction });
    },

    /** POST /v1/channels/{id}/add_comment_reaction (json post_id, comment_id, reaction). */
    addCommentReaction(channelId: Id, postId: number, commentId: number, reaction: string): Promise<CommentAnswer> {
      return react('addCommentReaction', path`/v1/channels/${channelId}/add_comment_reaction`, {
        post_id: postId,
        comment_id: commentId,
        reaction,
      });
    },

    /** POST /v1/channels/{id}/delete_comment_reaction. */
    removeCommentReaction(channelId: Id, postId: number, commentId: number, reaction: string): Promise<CommentAnswer> {
      return react('removeCommentReaction', path`/v1/channels/${channelId}/delete_comment_reaction`, {
        post_id: postId,
        comment_id: commentId,
        reaction,
      });
    },
  };
}

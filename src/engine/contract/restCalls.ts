/**
 * The REST calls of spec §7 as `engine.call(name, …args)` takes them (console scripting and calls without a
 * dedicated command), one method per call. Every method resolves with the envelope's `data` (the answer types
 * of src/protocol/api.ts) or rejects with an EngineError, never anything else. src/engine/rest/*Calls.ts
 * implement these interfaces (their return types say so), so a call's signature is written here once.
 */
import type {
  AccountAnswer,
  PresenceAnswer,
  AddedMembersAnswer,
  ChannelAnswer,
  ChannelsAnswer,
  CommentAnswer,
  CommentsAnswer,
  CommunitiesAnswer,
  CommunityAnswer,
  CommunitySearchAnswer,
  ConversationAnswer,
  ConversationsAnswer,
  CountriesAnswer,
  CreatedConversationAnswer,
  DeletedConversationAnswer,
  DeliverySettingsAnswer,
  DlrsAnswer,
  FileAnswer,
  ImageAnswer,
  MessageAnswer,
  MessagesAnswer,
  MuteAnswer,
  PinConfirmAnswer,
  PinRequestAnswer,
  PostAnswer,
  SessionsAnswer,
  SessionsEndedAnswer,
  PostCommentAnswer,
  PostsAnswer,
  RemovedMemberAnswer,
  WarningsAnswer,
} from '../../protocol/api';
import type {
  CommentsPageInput,
  CreateCommentInput,
  CreateConversationInput,
  CreatePostInput,
  DeliverySettingsInput,
  Id,
  MemberInput,
  MessagesPageInput,
  MuteInput,
  PageInput,
  SendCommentMessageInput,
  SendMessageInput,
  UpdateConversationInput,
  UpdateMeInput,
  UploadInput,
} from './restInputs';

/** Spec §7 "Authentication and profile" and "Files": what a visitor of /login may call. */
export interface AuthCalls {
  /** POST /v1/auth/pin. `apiBase`: a country's own http endpoint, when it has one. */
  requestPin(phone: string, options?: { apiBase?: string }): Promise<PinRequestAnswer>;
  /** POST /v1/auth/pin/confirm: the token, the user id and the endpoints to store. */
  confirmPin(phone: string, pin: string, options?: { apiBase?: string }): Promise<PinConfirmAnswer>;
  /** GET /v1/me. */
  getMe(): Promise<AccountAnswer>;
  /** PUT /v1/me (form): only the fields given change. */
  updateMe(fields: UpdateMeInput): Promise<AccountAnswer>;
  /** POST /v2/me/register (json): sets the first nickname. */
  register(name: string): Promise<AccountAnswer>;
  /** GET /v1/countries. */
  getCountries(): Promise<CountriesAnswer>;
  /** POST /v1/auth/logout with this token (the engine's is cleared by then): ends it on the server. */
  logout(token: string, options?: { signal?: AbortSignal }): Promise<SessionsEndedAnswer>;
  /** POST /v2/filestorage/file (multipart `file`): a message attachment; send its `file.id`. */
  uploadFile(file: Blob, options?: UploadInput): Promise<FileAnswer>;
  /** POST /v1/images (multipart `image`): an avatar; its `image.id` is the image_id of updateMe and updateConversation. */
  uploadImage(image: Blob, options?: UploadInput): Promise<ImageAnswer>;
}

/** Spec §7 "Conversations": the list, one conversation, create, settings, mute, delivery and members. */
export interface ConversationCalls {
  /** GET /v2/conversations with Message-Count latest messages each. */
  getConversations(options?: { messageCount?: number }): Promise<ConversationsAnswer>;
  /** GET /v2/conversations/{id} with Message-Count latest messages. */
  getConversation(id: Id, options?: { messageCount?: number }): Promise<ConversationAnswer>;
  /** POST /v2/conversations (form). An existing one-to-one chat comes back with `created: false`. */
  createConversation(input: CreateConversationInput): Promise<CreatedConversationAnswer>;
  /** PUT /v2/conversations/{id} (form): name, description, image_id (0 removes the picture). */
  updateConversation(id: Id, input: UpdateConversationInput): Promise<ConversationAnswer>;
  /** PUT /v2/conversations/{id}/mute (json). */
  setMute(id: Id, input: MuteInput): Promise<MuteAnswer>;
  /** POST /v2/conversations/{id}/delivery_settings (json). */
  setDeliverySettings(id: Id, input: DeliverySettingsInput): Promise<DeliverySettingsAnswer>;
  /** POST /v2/conversations/{id}/users (form member[i][...]). */
  addMembers(id: Id, members: readonly MemberInput[]): Promise<AddedMembersAnswer>;
  /** DELETE /v1/conversations/{id}/users/{userId}: an admin removes someone else. */
  removeMember(id: Id, userId: Id): Promise<RemovedMemberAnswer>;
  /** The same call on one's own id: leaving the group (its own spec §8 text). */
  leaveConversation(id: Id, selfId: Id): Promise<RemovedMemberAnswer>;
  /** PUT /v1/conversations/{id}/users/{userId} (form is_admin 1 or 0): promote or demote. */
  setAdmin(id: Id, userId: Id, isAdmin: boolean): Promise<ConversationAnswer>;
  /** DELETE /v1/conversations/{id}: delete the group. */
  deleteConversation(id: Id): Promise<DeletedConversationAnswer>;
}

/** Spec §7 "Messages": pages, send, edit, receipts, reactions, delete and hide. */
export interface MessageCalls {
  /** GET /v2/conversations/{id}/messages: a page (Message-Count, default 20), older than Before, right after After or from Since (docs/server.md) if given; oldest first. */
  getMessages(id: Id, page?: MessagesPageInput): Promise<MessagesAnswer>;
  /** GET /v1/users/{id}/presence (our addition, docs/server.md): online now, or when last seen. */
  getPresence(userId: Id): Promise<PresenceAnswer>;
  /** POST /v2/conversations/{id}/messages (json). A resend with the same client_id and key answers the stored message. */
  sendMessage(id: Id, input: SendMessageInput): Promise<MessageAnswer>;
  /** The same call with post_id (community channels): the text becomes a comment on that post. */
  sendMessageAsComment(id: Id, input: SendCommentMessageInput): Promise<PostCommentAnswer>;
  /** POST /v2/conversations/{id}/edit_message (json id, text). */
  editMessage(id: Id, messageId: number, text: string): Promise<MessageAnswer>;
  /** POST /v1/conversations/{id}/messages/{msgId} (form read=true|false): a read or delivered receipt. */
  sendReceipt(id: Id, messageId: Id, kind: 'read' | 'delivered'): Promise<DlrsAnswer>;
  /** GET /v2/conversations/{id}/dlrs: receipts on the caller's latest own messages. */
  getDlrs(id: Id): Promise<DlrsAnswer>;
  /** POST /v2/conversations/{id}/messages/{msgId}/reactions (json reaction). */
  addReaction(id: Id, messageId: Id, emoji: string): Promise<MessageAnswer>;
  /** DELETE of the same path. */
  removeReaction(id: Id, messageId: Id, emoji: string): Promise<MessageAnswer>;
  /** POST /v2/conversations/{id}/delete/messages (json message_ids): delete for everybody; see `warnings`. */
  deleteMessages(id: Id, messageIds: readonly number[]): Promise<WarningsAnswer>;
  /** POST /v2/conversations/{id}/hide_messages (json message_ids): delete for me; see `warnings`. */
  hideMessages(id: Id, messageIds: readonly number[]): Promise<WarningsAnswer>;
}

/** Spec §7 "Communities and channels": listing, search, details, joining and leaving. */
export interface CommunityCalls {
  /** GET /v1/communities, only those joined when `onlyJoined`. */
  getCommunities(options?: { onlyJoined?: boolean }): Promise<CommunitiesAnswer>;
  /** POST /v1/communities/search (json query); a blank query answers no results. */
  searchCommunities(query: string): Promise<CommunitySearchAnswer>;
  /** GET /v1/communities/{id}. */
  getCommunity(id: Id): Promise<CommunityAnswer>;
  /** POST /v1/communities/{id}/join: also joins its announcements channel. */
  joinCommunity(id: Id): Promise<CommunityAnswer>;
  /** POST /v1/communities/{id}/leave: leaves all its channels too. */
  leaveCommunity(id: Id): Promise<CommunityAnswer>;
  /** GET /v1/communities/{id}/channels. */
  getCommunityChannels(id: Id): Promise<ChannelsAnswer>;
  /** GET /v1/channels/{id}. */
  getChannel(id: Id): Promise<ChannelAnswer>;
  /** POST /v1/channels/{id}/join. */
  joinChannel(id: Id): Promise<ChannelAnswer>;
  /** POST /v1/channels/{id}/leave (of the announcements channel: leaves the community). */
  leaveChannel(id: Id): Promise<ChannelAnswer>;
}

/** Spec §7 channel posts and comments, with their reactions. */
export interface ChannelPostCalls {
  /** GET /v1/channels/{id}/posts: limit (20), at most one of before/after/around; oldest first. */
  getPosts(channelId: Id, page?: PageInput): Promise<PostsAnswer>;
  /** POST /v1/channels/{id}/posts: the JSON of a message send. */
  createPost(channelId: Id, input: CreatePostInput): Promise<PostAnswer>;
  /** GET /v1/channels/{id}/post_comments: a post's comments (or a comment's replies), limit (50). */
  getComments(channelId: Id, page: CommentsPageInput): Promise<CommentsAnswer>;
  /**
   * POST /v1/channels/{id}/post_comments (json post_id, message, parent_comment_id?, client_id?). Answers the
   * comment and its author (participants), as a message sent with post_id does.
   */
  createComment(channelId: Id, input: CreateCommentInput): Promise<PostCommentAnswer>;
  /** POST /v1/channels/{id}/add_post_reaction (json post_id, reaction). */
  addPostReaction(channelId: Id, postId: number, reaction: string): Promise<PostAnswer>;
  /** POST /v1/channels/{id}/delete_post_reaction. */
  removePostReaction(channelId: Id, postId: number, reaction: string): Promise<PostAnswer>;
  /** POST /v1/channels/{id}/add_comment_reaction (json post_id, comment_id, reaction). */
  addCommentReaction(channelId: Id, postId: number, commentId: number, reaction: string): Promise<CommentAnswer>;
  /** POST /v1/channels/{id}/delete_comment_reaction. */
  removeCommentReaction(channelId: Id, postId: number, commentId: number, reaction: string): Promise<CommentAnswer>;
}

/** What only a signed-in user calls (the engine adds these with its signed-in parts, issue 11). */
/** The account page's sessions (docs/ui.md "Sessions"): signed-in calls, so not in the worker /login starts. */
export interface SessionCalls {
  /** GET /v1/me/sessions: the user's sessions, the one asking marked `current`. */
  getSessions(): Promise<SessionsAnswer>;
  /** DELETE /v1/me/sessions/{id}: ends one of the user's sessions. */
  endSession(id: string): Promise<SessionsEndedAnswer>;
  /** DELETE /v1/me/sessions/others: ends every session of the user but the one asking. */
  endOtherSessions(): Promise<SessionsEndedAnswer>;
}

export type SignedInCalls = ConversationCalls & MessageCalls & CommunityCalls & ChannelPostCalls & SessionCalls;

/** Every REST call of spec §7 by name. */
export type RestCalls = AuthCalls & SignedInCalls;

/** The REST calls of spec §7 by name, for `call`. */
export type RestCallName = keyof RestCalls;

/**
 * What the engine (and a console caller of `engine.call`) passes to the REST client, in the engine's camelCase;
 * the call files (src/engine/rest/) turn these into the wire's field names (spec §7), so no other engine code
 * needs to know them. Part of the contract because `call` takes them.
 */
import type { DeliveryMode, MuteType } from '../../protocol/api';

/** A conversation, user, community or channel: its numeric id or its stid (docs/server.md "Ids in paths"). */
export type Id = number | string;

/** One member row of a create or add-members form (spec §7 member[i][...]). */
export interface MemberInput {
  name: string;
  /** The contact type: a phone number (the default, spec §9) or a user's stid. */
  type?: 'phone_nr' | 'stid';
  value: string;
  isAdmin?: boolean;
}

/** The group settings of spec §7 (settings[...]); each is sent only when given. */
export interface ConversationSettingsInput {
  replyTo?: boolean;
  showNumbersToAll?: boolean;
  userNotificationsToAll?: boolean;
  allInvite?: boolean;
}

export interface CreateConversationInput {
  name?: string;
  description?: string;
  broadcast?: boolean;
  forceGroup?: boolean;
  immutableSettings?: boolean;
  settings?: ConversationSettingsInput;
  suggestedGroupTag?: string;
  members: readonly MemberInput[];
}

export interface UpdateConversationInput {
  name?: string;
  description?: string;
  /** From uploadImage; 0 removes the picture. */
  imageId?: number;
}

export interface UpdateMeInput {
  nickname?: string;
  email?: string;
  /** From uploadImage; 0 removes the picture. */
  imageId?: number;
}

export interface MuteInput {
  type: MuteType | 'unmute';
  /** An IANA name; the server assumes UTC without one. */
  timeZone?: string;
}

export interface DeliverySettingsInput {
  mode: DeliveryMode;
  smartModeOptions?: { intervalMinutes: number };
}

/** An uploaded file sent with a message or post: the `file.id` of uploadFile and its kind. */
export interface AttachmentInput {
  type: 'image' | 'video';
  fileId: string;
}

export interface SendMessageInput {
  /** Random 1..10000 (spec §7); a retry reuses it. */
  clientId: number;
  message?: string;
  attachment?: AttachmentInput;
  quotedMessageId?: number;
  /** The outbox's unique local id: the server takes a resend with it for a retry, never a new message. */
  idempotencyKey?: string;
  /** Cancels the send (the engine is stopping); the outbox keeps the message for the next engine. */
  signal?: AbortSignal;
}

export interface SendCommentMessageInput {
  clientId: number;
  message: string;
  /** The channel post the text becomes a comment on. */
  postId: number;
  idempotencyKey?: string;
}

export interface CreatePostInput {
  message?: string;
  clientId?: number;
  attachment?: AttachmentInput;
  quotedMessageId?: number;
  idempotencyKey?: string;
}

export interface CreateCommentInput {
  postId: number;
  message: string;
  parentCommentId?: number;
  /** With it, a resend is a retry (docs/server.md "client_id rule"); without it every call is a new comment. */
  clientId?: number;
  idempotencyKey?: string;
  /** Cancels the call (the engine is stopping). */
  signal?: AbortSignal;
}

/** At most one of before, after and around (docs/server.md "Paging of posts and comments"). */
export interface PageInput {
  limit?: number;
  before?: number;
  after?: number;
  around?: number;
}

export interface CommentsPageInput extends PageInput {
  postId: number;
  parentCommentId?: number;
}

export interface MessagesPageInput {
  /** Page size, default 20 (spec §9). */
  count?: number;
  /** Only messages older than this id; the latest page without it. */
  before?: number;
  /** Only the messages right after this id (the reference server's `After`, docs/server.md); not with `before`. */
  after?: number;
  /**
   * From the first message sent at or after this time, epoch seconds (the reference server's `Since`,
   * docs/server.md, issue 24 "Go to date"); not with `before` or `after`.
   */
  since?: number;
}

export interface UploadInput {
  /** The name the server keeps; a File's own name by default. */
  fileName?: string;
  onProgress?: (loaded: number, total: number) => void;
  signal?: AbortSignal;
}


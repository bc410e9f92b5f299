import type {
  Channel,
  Comment,
  Community,
  Conversation,
  Country,
  Message,
  Participant,
  ReceiptStatus,
  UploadedFile,
  User,
} from './entities';

/** Answer bodies (the `data` of the envelope) of spec §7, by call. */
export interface PinRequestAnswer {
  status: 'sent';
}
export interface PinConfirmAnswer {
  token: string;
  user_id: number;
  endpoints: { http: string; ws: string };
}
/**
 * One of the user's sessions (GET /v1/me/sessions, docs/server.md "Sessions"): `id` is opaque (never the
 * token); `browser` and `os` are well-known names ('Chrome', 'Linux', …) or '' when unknown; times in epoch ms.
 */
export interface SessionEntry {
  id: string;
  browser: string;
  os: string;
  created_at: number;
  last_active_at: number;
  /** The session that asked. */
  current: boolean;
}
export interface SessionsAnswer {
  sessions: SessionEntry[];
}
/** DELETE /v1/me/sessions/{id} and /v1/me/sessions/others: how many sessions ended. */
export interface SessionsEndedAnswer {
  ended: number;
}
export interface AccountAnswer {
  account: User;
}
export interface CountriesAnswer {
  countries: Country[];
}
export interface FileAnswer {
  file: UploadedFile;
}
export interface ImageAnswer {
  image: { id: number; url: string; thumbnail: string };
}
export interface ConversationsAnswer {
  conversations: { conversation: Conversation }[];
}
export interface ConversationAnswer {
  conversation: Conversation;
}
/**
 * Our addition (issue 23, docs/server.md) `GET /v1/users/{id}/presence`: online now, and when the person's last
 * socket closed (epoch seconds, as `user_presence`'s `last_seen`), null when never.
 */
export interface PresenceAnswer {
  user_id: number;
  online: boolean;
  last_seen: string | null;
}
export interface MessagesAnswer {
  messages: Message[];
}
export interface MessageAnswer {
  message: Message;
}
export interface WarningsAnswer {
  message_ids: number[];
  warnings: { message_id: number; reason: string }[];
}
export interface DlrsAnswer {
  dlrs: ReceiptStatus[];
}
export interface CommunitiesAnswer {
  communities: Community[];
}
export interface CommunitySearchAnswer {
  search_results: Community[];
}
export interface CommunityAnswer {
  community: Community;
}
export interface ChannelsAnswer {
  channels: Channel[];
}
export interface ChannelAnswer {
  channel: Channel;
}
export interface PostsAnswer {
  posts: Message[];
  participants: Participant[];
}
export interface CommentsAnswer {
  comments: Comment[];
  participants: Participant[];
}
export interface CommentAnswer {
  comment: Comment;
}

export interface CreatedConversationAnswer extends ConversationAnswer {
  /** false when an existing one-to-one chat with the same person was returned. */
  created: boolean;
}
export interface AddedMembersAnswer extends ConversationAnswer {
  added_user_ids: number[];
}
export interface RemovedMemberAnswer {
  conversation_id: number;
  user_id: number;
  /** null after leaving: the caller no longer sees the conversation. */
  conversation: Conversation | null;
}
export interface DeletedConversationAnswer {
  conversation_id: number;
}

/** Mute `type` values (our ruling; spec §7 names only the call): durations, 'forever', or 'unmute'. */
export const MUTE_TYPES = ['1h', '8h', '1d', '1w', 'forever', 'unmute'] as const;
export type MuteType = Exclude<(typeof MUTE_TYPES)[number], 'unmute'>;
export interface MuteSetting {
  type: MuteType;
  time_zone: string;
  /** Epoch seconds as a string; null means until unmuted. */
  until: string | null;
  muted: boolean;
}
export interface MuteAnswer {
  /** null when the conversation is not muted. */
  mute: MuteSetting | null;
}

/** Delivery `mode` values (our ruling): every message, smart batching, silent, or no notifications. */
export const DELIVERY_MODES = ['all', 'smart', 'silent', 'none'] as const;
export type DeliveryMode = (typeof DELIVERY_MODES)[number];
export interface DeliverySettings {
  mode: DeliveryMode;
  smart_mode_options: { interval_minutes: number } | null;
}
export interface DeliverySettingsAnswer {
  delivery_settings: DeliverySettings;
}

export interface PostAnswer {
  post: Message;
}
/** The answer of a message sent with post_id: it became a comment on that post. */
export interface PostCommentAnswer extends CommentAnswer {
  participants: Participant[];
}

/** Request headers of spec §7. */
export const HEADER_AUTH_TOKEN = 'Auth-Token';
export const HEADER_CLIENT_TOKEN = 'Client-Token';
export const HEADER_CLIENT_VERSION = 'Client-Version';
export const HEADER_CLIENT_PROJECT = 'Client-Project';
export const HEADER_FEATURES = 'x-features';
export const HEADER_MESSAGE_COUNT = 'Message-Count';
export const HEADER_BEFORE = 'Before';
/** Our addition (issue 13, docs/server.md): the page of messages right after this id, oldest first. */
export const HEADER_AFTER = 'After';
/**
 * Our addition (issue 24, docs/server.md): the page of messages from the first one sent at or after this time
 * (epoch seconds, as the spec's times), oldest first: "Go to date".
 */
export const HEADER_SINCE = 'Since';
/** Our addition (design.md §4): the outbox's unique local id, so a retry is never taken for a new message. */
export const HEADER_IDEMPOTENCY_KEY = 'Idempotency-Key';

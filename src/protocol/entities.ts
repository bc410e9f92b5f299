/** Entities of spec §3 as they travel on the wire. Fields the spec names keep its names. */

export interface ImageMeta {
  url: string;
  thumbnail: string;
  is_default: boolean;
}

export interface User {
  id: number;
  stid: string;
  nickname: string;
  email: string;
  phone_nr: string;
  service_nr: string;
  msisdn: string;
  channel: string[];
  carrier: string;
  country_code: string;
  image: { meta: ImageMeta };
  avatar: string;
  is_admin: boolean;
  /** '0' means active. */
  deleted_at: string;
}

export interface MemberUser {
  id: number;
  user_id: number;
  stid: string;
  nickname: string;
  phone_nr: string;
  image: { meta: ImageMeta };
}

export interface ConversationUser {
  user: MemberUser;
  is_admin: boolean;
}

export type GroupType = 'normal' | 'channel' | 'feed';

export interface ConversationSettings {
  /** '1' means a broadcast group. */
  reply_to: '0' | '1';
  show_numbers_to_all: '0' | '1';
  user_notifications_to_all: '0' | '1';
  all_invite: '0' | '1';
}

export interface Conversation {
  id: number;
  stid: string;
  name: string;
  description: string;
  image: { meta: ImageMeta };
  avatar: { meta: ImageMeta };
  logo: { thumbnail: string; url: string } | null;
  is_group: boolean;
  group_type: GroupType;
  settings: ConversationSettings;
  users: ConversationUser[];
  member: {
    is_owner: boolean;
    is_admin: boolean;
    permissions: { create_posts: boolean };
    /**
     * The viewer's own mute of this chat (docs/server.md), or null: `until` in epoch seconds as a string,
     * null for "until unmuted". Muted while `until` is null or ahead of now.
     */
    mute: ConversationMute | null;
  };
  admins: number[];
  member_count: number;
  messages: Message[];
  last_message: Message | null;
  /** Epoch seconds as a string, like message created_at; '0' when the conversation is empty. */
  last_message_time: string;
  created_at: string;
  unread_message_count: number;
  is_unread: boolean;
  owner_stid: string;
  community_id: number | null;
  /** The community's name for its channels (docs/server.md: two communities' channels can share a name). */
  community_name: string | null;
  is_community_announcements: boolean;
  is_demo: boolean;
  disable_comments: boolean;
  read_only: boolean;
}

export interface ConversationMute {
  type: '1h' | '8h' | '1d' | '1w' | 'forever';
  time_zone: string;
  until: string | null;
}

export type AttachmentType = 'image' | 'video' | 'file' | 'audio' | 'sticker' | 'link' | 'event';

export type EventType =
  | 'conversation_renamed'
  | 'conversation_description_changed'
  | 'user_removed'
  | 'user_added'
  | 'user_renamed'
  | 'conversation_picture_change';

export interface FileInfo {
  url: string;
  mp3?: string;
  size: number;
  duration?: number;
  dimensions?: { width: number; height: number };
}

export interface Attachment {
  type: AttachmentType;
  url?: string;
  thumbnail?: string;
  name?: string;
  size?: number;
  duration?: number;
  mime?: string;
  file_info?: FileInfo;
  metadata?: { title?: string };
  event_type?: EventType;
  event?: {
    name?: string;
    description?: string;
    user_id?: number;
    /** user_added: everybody the one add call added (user_id is the first of them). */
    user_ids?: number[];
    old_nickname?: string;
    new_nickname?: string;
  };
}

export interface ReactionUser {
  user_id: number;
  set_at: string;
}

export interface Reaction {
  reaction: string;
  users: ReactionUser[];
}

export interface Message {
  id: number;
  stid: string;
  client_id: number | null;
  conversation_id: number;
  conversation_stid: string;
  user_id: number;
  message: string;
  rich_message: string | null;
  type: 'text' | 'system';
  /** Epoch seconds as a string (spec §3). */
  created_at: string;
  /** Epoch seconds; above 0 means edited. */
  edited_at: number;
  updated_at: number;
  attachment: Attachment | null;
  reactions: Reaction[];
  /** The quoted message's id, or null. */
  quoted: number | null;
  discussion: { comments_count: number } | null;
  pinned: boolean;
  /** Set on replies in a broadcast group, which only the sender and the broadcasters see. */
  audience?: 'admins';
  /**
   * Set (true) on a message deleted for everybody: a tombstone that keeps its id, stid, sender and time, with
   * no text, attachment, reactions or quote (docs/server.md "Delete for everybody"). Absent otherwise.
   */
  deleted?: true;
}

export interface Community {
  id: number;
  name: string;
  description: string;
  avatar: { url: string } | null;
  avatar_thumbnail_url: string;
  members_count: number;
  is_private: boolean;
  is_member: boolean;
  announcements_channel_stid: string;
  announcements_channel_id: number;
  member: { user_id: number; is_admin: boolean } | null;
}

export interface Channel {
  id: number;
  stid: string;
  name: string;
  /** `thumbnail` beside the spec's `url` (docs/server.md "Uploads"): what a list shows first. */
  logo: { url: string; thumbnail?: string } | null;
  description: string;
  created_at: string;
  members_count: number;
  is_community_announcements: boolean;
  community_id: number;
  is_member: boolean;
  read_only: boolean;
  disable_comments: boolean;
}

export interface Participant {
  user_id: number;
  name: string;
  avatar: string;
}

export interface Comment {
  comment_id: number;
  post_id: number;
  parent_comment_id: number | null;
  channel_id: number;
  user_id: number;
  message: string;
  created_at: string;
  reactions: Reaction[];
  replies_count: number;
  /** The sender's client_id (docs/server.md), so its own pending comment is matched to it; null without one. */
  client_id: number | null;
}

export interface Country {
  code: string;
  name: string;
  /** Dial code without the plus, e.g. '46'. */
  cc: string;
  validation: string;
  validation_abroad: string;
  /** [pattern, replacement] that formats a +cc number for display. */
  format_international: [string, string];
  endpoints: { http: string; ws: string };
  communities_enabled: boolean;
}

export interface UploadedFile {
  id: string;
  url: string;
  thumbnail: string;
  name: string;
  size: number;
  mime: string;
  type: 'image' | 'video';
}

export interface ReceiptStatus {
  message_id: number;
  user_id: number;
  type: 'delivered' | 'read';
  at: string;
}

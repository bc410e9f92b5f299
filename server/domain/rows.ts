/** Row shapes of the tables, as the domain code reads them from either store (SQLite or PostgreSQL). */
export interface UserRow {
  id: number;
  stid: string;
  phone_nr: string;
  country_code: string;
  nickname: string;
  email: string;
  image_file_id: number | null;
  created_at: number;
  deleted_at: string;
}

export interface ConversationRow {
  id: number;
  stid: string;
  name: string;
  description: string;
  image_file_id: number | null;
  is_group: number;
  group_type: 'normal' | 'channel' | 'feed';
  reply_to: number;
  show_numbers_to_all: number;
  user_notifications_to_all: number;
  all_invite: number;
  owner_id: number | null;
  community_id: number | null;
  is_community_announcements: number;
  is_demo: number;
  disable_comments: number;
  read_only: number;
  created_at: number;
  last_message_id: number | null;
  last_message_at: number;
}

export interface MemberRow {
  conversation_id: number;
  user_id: number;
  is_admin: number;
  is_owner: number;
  can_create_posts: number;
  joined_at: number;
  last_read_message_id: number;
  /** The member's mute as JSON ({type, time_zone, until: epoch ms | null}), or null. */
  mute: string | null;
  /** The name this member typed for the other person of a one-to-one chat they created, or null. */
  contact_name: string | null;
}

export interface MessageRow {
  id: number;
  stid: string;
  conversation_id: number;
  user_id: number;
  client_id: number | null;
  type: 'text' | 'system';
  message: string;
  attachment: string | null;
  quoted_id: number | null;
  audience: string | null;
  pinned: number;
  comments_count: number;
  created_at: number;
  edited_at: number;
  updated_at: number;
  /** When it was deleted for everybody (epoch ms): a tombstone, without text, attachment or quote. 0 while it stands. */
  deleted_at: number;
}

export interface CommunityRow {
  id: number;
  stid: string;
  name: string;
  description: string;
  avatar_file_id: number | null;
  is_private: number;
  country_code: string;
  owner_id: number | null;
  created_at: number;
}

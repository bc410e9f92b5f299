import type { Comment, Conversation, Message, Participant, Reaction } from './entities';

/** Frames from the server. Events that change state carry a per-user increasing `id` (design.md §4). */
export interface PingFrame {
  action: 'ping';
  interval: number;
}

export interface SocketLoadedFrame {
  action: 'socket_loaded';
  /**
   * `epoch` names the server's database: a client keeps it beside its last event id and sends it back as
   * the `epoch` query parameter, so ids from another database are never replayed against this one.
   */
  data: { need_sync: boolean; last_message_id: number; epoch: string };
}

/** `reactions_changed` for a message or a channel post: `reactions` is its full list after the change. */
export interface MessageReactionsChanged {
  conversation_id: number;
  message_id: number;
  message_stid: string;
  reactions: Reaction[];
  comment_id?: never;
  post_id?: never;
}

/**
 * `reactions_changed` for a comment on a channel post: `reactions` is the comment's full list. It names
 * no message, so a client keyed by message_stid cannot mistake it for the post's; tell the two apart by
 * `comment_id`.
 */
export interface CommentReactionsChanged {
  conversation_id: number;
  post_id: number;
  comment_id: number;
  reactions: Reaction[];
  message_id?: never;
  message_stid?: never;
}

export interface EventPayloads {
  conversation_message: { conversation_id: number; message: Message };
  conversation_edit: { conversation_id: number; conversation: Conversation };
  conversation_add_user: { conversation_id: number; user_ids: number[]; conversation: Conversation };
  deleted_conversation: { conversation_id: number };
  conversation_removed_user: { conversation_id: number; user_id: number };
  reactions_changed: MessageReactionsChanged | CommentReactionsChanged;
  conversation_message_delete: {
    conversation_id: number;
    message_ids: number[];
    message_stids: string[];
    /** true when the messages were hidden for this user only. */
    hidden: boolean;
  };
  conversation_message_edited: { conversation_id: number; message: Message };
  conversation_message_update: { conversation_id: number; message: Message };
  channel_post_comment_added: {
    channel_id: number;
    post_id: number;
    comment: Comment;
    participants: Participant[];
  };
  inbox_channel_added: { conversation_id: number; community_id: number | null };
  message_dlr2: {
    conversation_id: number;
    message_id: number;
    user_id: number;
    type: 'delivered' | 'read';
  };
  user_presence: { user_id: number; online: boolean; last_seen: string };
  self_dlr_sync: { conversation_id: number; message_id: number; type: 'delivered' | 'read' };
}

export type EventAction = keyof EventPayloads;

export type EventFrame = {
  [A in EventAction]: { action: A; id?: number; data: EventPayloads[A] };
}[EventAction];

export type ServerFrame = PingFrame | SocketLoadedFrame | EventFrame;

export interface PongFrame {
  action: 'pong';
}

export type ClientFrame = PongFrame;

/** Actions that are stored and replayed; presence is ephemeral and carries no id. */
export const REPLAYED_ACTIONS: readonly EventAction[] = [
  'conversation_message',
  'conversation_edit',
  'conversation_add_user',
  'deleted_conversation',
  'conversation_removed_user',
  'reactions_changed',
  'conversation_message_delete',
  'conversation_message_edited',
  'conversation_message_update',
  'channel_post_comment_added',
  'inbox_channel_added',
  'message_dlr2',
  'self_dlr_sync',
];

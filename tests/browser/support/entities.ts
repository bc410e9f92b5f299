import type { Conversation, ConversationUser, Message } from '../../../src/protocol/entities';

/** The two people of the browser tests' one-to-one chat: the signed-in user and the other one. */
export const SELF = 1;
export const OTHER = 2;

/** A default picture (no upload). */
export const defaultImage = { meta: { url: '', thumbnail: '', is_default: true } };

export function member(id: number, nickname: string, options: { isAdmin?: boolean; phone?: string } = {}): ConversationUser {
  return {
    user: { id, user_id: id, stid: `u${id}`, nickname, phone_nr: options.phone ?? '', image: defaultImage },
    is_admin: options.isAdmin ?? false,
  } as ConversationUser;
}

/** Conversation 10: a one-to-one chat of Anna (SELF) with Erik (OTHER), unless `patch` says otherwise. */
export function conversation(patch: Partial<Conversation> = {}): Conversation {
  return {
    id: 10,
    name: 'Erik',
    is_demo: false,
    is_group: false,
    group_type: 'normal',
    is_community_announcements: false,
    read_only: false,
    member_count: 2,
    settings: { reply_to: '0', show_numbers_to_all: '0', user_notifications_to_all: '0', all_invite: '1' },
    member: { is_admin: false, is_owner: false, permissions: { create_posts: false } },
    users: [member(SELF, 'Anna'), member(OTHER, 'Erik')],
    ...patch,
  } as Conversation;
}

/** Message 100 of conversation 10, Anna's 'hello' sent now, unless `patch` says otherwise. */
export function message(patch: Partial<Message> = {}): Message {
  return {
    id: 100,
    stid: 's100',
    client_id: null,
    conversation_id: 10,
    conversation_stid: 'c10',
    user_id: SELF,
    message: 'hello',
    rich_message: null,
    type: 'text',
    created_at: String(Math.floor(Date.now() / 1000)),
    edited_at: 0,
    updated_at: 0,
    attachment: null,
    reactions: [],
    quoted: null,
    discussion: null,
    pinned: false,
    ...patch,
  };
}

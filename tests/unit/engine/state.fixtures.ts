import type { Conversation, Message } from '../../../src/protocol/entities';
import type { EventAction, EventPayloads } from '../../../src/protocol/socket';
import { getMessage } from '../../../src/engine/state/messageStore';
import { reduce } from '../../../src/engine/state/reduce';
import { initialState } from '../../../src/engine/state/types';
import type { EngineEvent, EngineState, ReduceContext, ReduceResult } from '../../../src/engine/state/types';

/** Concrete wire objects for reducer tests: the signed-in user is 1, the others are 2 and 3. */
export const SELF = 1;
export const ALICE = 2;
export const BOB = 3;

/** Epoch seconds of message n: one minute apart from a fixed start. */
export const at = (n: number) => String(1_700_000_000 + n * 60);

export function message(id: number, overrides: Partial<Message> = {}): Message {
  const conversationId = overrides.conversation_id ?? 10;
  return {
    id,
    stid: `s${id}`,
    client_id: null,
    conversation_id: conversationId,
    conversation_stid: `c${conversationId}`,
    user_id: ALICE,
    message: `text ${id}`,
    rich_message: null,
    type: 'text',
    created_at: at(id),
    edited_at: 0,
    updated_at: 0,
    attachment: null,
    reactions: [],
    quoted: null,
    discussion: null,
    pinned: false,
    ...overrides,
  };
}

const image = { meta: { url: '', thumbnail: '', is_default: true } };

export function conversation(id: number, overrides: Partial<Conversation> = {}): Conversation {
  return {
    id,
    stid: `c${id}`,
    name: `chat ${id}`,
    description: '',
    image,
    avatar: image,
    logo: null,
    is_group: true,
    group_type: 'normal',
    settings: { reply_to: '0', show_numbers_to_all: '0', user_notifications_to_all: '0', all_invite: '1' },
    users: [SELF, ALICE, BOB].map((uid) => ({
      user: { id: uid, user_id: uid, stid: `u${uid}`, nickname: `user ${uid}`, phone_nr: '', image },
      is_admin: uid === SELF,
    })),
    member: { is_owner: true, is_admin: true, permissions: { create_posts: false }, mute: null },
    admins: [SELF],
    member_count: 3,
    messages: [],
    last_message: null,
    last_message_time: '0',
    created_at: at(0),
    unread_message_count: 0,
    is_unread: false,
    owner_stid: `u${SELF}`,
    community_id: null,
    community_name: null,
    is_community_announcements: false,
    is_demo: false,
    disable_comments: false,
    read_only: false,
    ...overrides,
  };
}

/** A conversation whose last message is `last`, as the server would list it. */
export function listed(id: number, last: Message | null, overrides: Partial<Conversation> = {}): Conversation {
  return conversation(id, {
    last_message: last,
    last_message_time: last ? last.created_at : '0',
    ...overrides,
  });
}

export function ctx(open: number[] = []): ReduceContext {
  return { openConversations: new Set(open), now: 1_700_100_000_000 };
}

export function frame<A extends EventAction>(action: A, data: EventPayloads[A], id?: number): EngineEvent {
  return { type: 'socket', frame: { action, data, ...(id === undefined ? {} : { id }) } as never };
}

/** Applies events in order, returning the final state and every effect. */
export function run(state: EngineState, events: EngineEvent[], context = ctx()): ReduceResult {
  let current = state;
  const effects: ReduceResult['effects'] = [];
  for (const event of events) {
    const result = reduce(current, event, context);
    current = result.state;
    effects.push(...result.effects);
  }
  return { state: current, effects };
}

/**
 * Signed in as SELF with conversation 10 listed and its latest page loaded: messages 1..3, all from
 * Alice and read (the server's count is 0), plus any other conversations given.
 */
export function loadedState(extra: Conversation[] = []): EngineState {
  const page = [message(1), message(2), message(3)];
  return run(initialState(), [
    { type: 'signedIn', selfId: SELF },
    { type: 'conversationsLoaded', conversations: [listed(10, page[2] ?? null), ...extra] },
    { type: 'messagesLoaded', conversationId: 10, messages: page, older: false, pageSize: 20 },
  ]).state;
}

/** A loaded message (of conversation 10 unless said). */
export const loadedMessage = (state: EngineState, id: number, conversationId = 10): Message | undefined =>
  getMessage(state, conversationId, id);

/**
 * As `loadedState`, but the server counts messages 1..3 as unread (nothing read yet, so no unread
 * record and no read point): every message still needs its read receipt.
 */
export function unreadState(extra: Conversation[] = []): EngineState {
  const page = [message(1), message(2), message(3)];
  return run(initialState(), [
    { type: 'signedIn', selfId: SELF },
    { type: 'conversationsLoaded', conversations: [listed(10, page[2] ?? null, { unread_message_count: 3, is_unread: true }), ...extra] },
    { type: 'messagesLoaded', conversationId: 10, messages: page, older: false, pageSize: 20 },
  ]).state;
}

import type {
  Channel,
  Comment,
  Community,
  Conversation,
  ConversationMute,
  Message,
  Participant,
  ReceiptStatus,
} from '../../protocol/entities';
import type { EventFrame } from '../../protocol/socket';
import type { EngineError, ReceiptMarks } from '../contract/types';

/** The contract's, as the state keeps them (contract/types.ts). */
export type { ReceiptMarks } from '../contract/types';

/**
 * The engine's shared state (design.md §3): what is the same in every tab. Normalised by id so a socket
 * event touches one entry and the UI re-renders only the rows whose data changed. Plain data only:
 * it crosses worker ports and is persisted.
 */
export interface EngineState {
  /** The signed-in user's id, or null when signed out. */
  selfId: number | null;
  /** Conversations by id, as the server last described them; `messages` is always [] here. */
  conversations: Readonly<Record<number, Conversation>>;
  /**
   * Loaded messages by conversation id, then message id: an event in one chat copies only that chat's
   * map, and a chat's observers can skip events elsewhere by comparing its map's identity. Read it
   * through the helpers of state/messageStore.ts (`allMessages`, `findMessage`, `getMessage`).
   */
  messages: Readonly<Record<number, ConversationMessages>>;
  /** The loaded run of each conversation's history: ascending message ids, and whether older ones exist. */
  windows: Readonly<Record<number, MessageWindow>>;
  /** Spec §3 unread records, by conversation id. */
  unread: Readonly<Record<number, UnreadRecord>>;
  /** Receipts other people sent for the signed-in user's messages, by message id. */
  receipts: Readonly<Record<number, ReceiptMarks>>;
  /**
   * Receipts this user has sent or scheduled, `${conversationId}:${messageId}:${kind}`: each is sent once,
   * ever. Only keys above the conversation's read point (`unread[c].lastReadMessageId`) are kept: a
   * message at or below it needs no receipt (state/receipts.ts `receiptSent`), so the map stays small.
   */
  sentReceipts: Readonly<Record<string, true>>;
  /** The last websocket event id applied, and the server database it came from (docs/server.md). */
  lastEventId: number;
  epoch: string;
  /** Online state of people the user shares a chat with, from `user_presence` (not replayed, not persisted). */
  presence: Readonly<Record<number, Presence>>;
  /** Counts socket (re)connections, each of which forgets `presence`: a server answer asked before one is stale. */
  presenceRound: number;
  /*
   * Communities (spec §3 "Communities store"). Posts are messages of their channel (`messages`, `windows`
   * above); what follows is the rest: communities, channels, post and comment authors, comment threads.
   */
  communities: Readonly<Record<number, Community>>;
  /** The community list as last refreshed (joined and not), in the server's order; null until loaded. */
  communityIds: readonly number[] | null;
  /** The explore search (spec §5: an empty query clears it); not persisted. */
  communitySearch: CommunitySearch | null;
  channels: Readonly<Record<number, Channel>>;
  /** Each community's channel ids as last loaded, in the server's order. */
  channelIds: Readonly<Record<number, readonly number[]>>;
  /** Authors of posts and comments, by user id (spec §3 participants). */
  participants: Readonly<Record<number, Participant>>;
  /** Loaded comment threads by `threadKey` (not persisted: they reload when shown). */
  commentThreads: Readonly<Record<string, CommentThread>>;
  /** Loaded comments by id (not persisted, like their threads). */
  comments: Readonly<Record<number, Comment>>;
}

export interface CommunitySearch {
  query: string;
  ids: readonly number[];
  status: 'loading' | 'loaded' | 'error';
  error: EngineError | null;
}

/** One loaded run of a post's comments (or a comment's replies): ascending comment ids. */
export interface CommentThread {
  ids: readonly number[];
  hasOlder: boolean;
}

/** A post's top-level comments are thread `${postId}:0`; a comment's replies `${postId}:${commentId}`. */
export const threadKey = (postId: number, parentCommentId: number | null | undefined): string =>
  `${postId}:${parentCommentId ?? 0}`;

/** One conversation's loaded messages by id. */
export type ConversationMessages = Readonly<Record<number, Message>>;

export interface Presence {
  online: boolean;
  /** Epoch seconds as the server sent it. */
  lastSeen: string;
}

export interface MessageWindow {
  ids: readonly number[];
  hasOlder: boolean;
}

/** Spec §3: a conversation is unread when lastReadMessageId < lastReceivedMessageId. */
export interface UnreadRecord {
  conversationId: number;
  lastReadMessageId: number;
  lastReceivedMessageId: number;
}

export type ReceiptKind = 'delivered' | 'read';

/** What the reducer needs to know about the world beyond the state: who is looking at what. */
export interface ReduceContext {
  /** Conversations open in a visible, focused tab (spec §4 "if that chat is open"). */
  openConversations: ReadonlySet<number>;
  /**
   * Conversations shown in a tab that reads them as seen (TabState `readsAsSeen`): while they have unread
   * messages, only `messageVisible` reads them (docs/ui.md, "Opening at the first unread message").
   */
  readAsSeen?: ReadonlySet<number>;
  now: number;
}

/** Inputs of the reducer: server events and the results of the engine's own calls. */
export type EngineEvent =
  | { type: 'socket'; frame: EventFrame }
  /** What `GET /v1/users/{id}/presence` said (issue 23): kept only where no `user_presence` came meanwhile. */
  | { type: 'presenceLoaded'; userId: number; online: boolean; lastSeen: string | null; round: number }
  /** An event this client cannot read (a newer server's action): only its id counts, so no gap is seen. */
  | { type: 'socketSkipped'; id: number }
  | { type: 'socketLoaded'; needSync: boolean; lastEventId: number; epoch: string }
  | { type: 'signedIn'; selfId: number }
  | { type: 'signedOut' }
  | { type: 'conversationsLoaded'; conversations: Conversation[] }
  | { type: 'conversationLoaded'; conversation: Conversation }
  /**
   * A page of history: `older` when it was loaded with Before (prepended; `before` is the window's first id
   * it was asked for, and a window that moved on drops it), else the latest page (replaces). A page of a
   * channel's posts brings their authors (`participants`).
   */
  | {
      type: 'messagesLoaded';
      conversationId: number;
      messages: Message[];
      older: boolean;
      pageSize: number;
      before?: number;
      participants?: readonly Participant[];
    }
  /** Messages that follow `after`, the last message of a window trimmed at its newer end (issue 11). */
  | { type: 'newerMessagesLoaded'; conversationId: number; messages: Message[]; after: number }
  /** The window keeps only its messages from `from` to `to`: the rest is far from every reader (issue 11). */
  | { type: 'windowTrimmed'; conversationId: number; from: number; to: number }
  /**
   * The chat was opened at a message (issue 13): the page around it (oldest first) becomes the window,
   * wherever the window was; `hasOlder` says whether history exists before the page.
   */
  | { type: 'windowMoved'; conversationId: number; messages: Message[]; hasOlder: boolean }
  /** The server's answer to our own send, edit or reaction: the message as stored. */
  | { type: 'messageStored'; message: Message }
  /**
   * Our own delete: `hidden` for delete for me (the messages go), else for everybody (each becomes its
   * tombstone, as `conversation_message_delete` says to the other members).
   */
  | { type: 'messagesDeleted'; conversationId: number; messageIds: number[]; hidden: boolean }
  | { type: 'conversationOpened'; conversationId: number }
  /** The UI saw at least half of a message (spec §4). */
  | { type: 'messageVisible'; conversationId: number; messageId: number }
  /** A delayed read receipt was dropped because its chat closed within the delay: the message is unread again. */
  | { type: 'readWithdrawn'; conversationId: number; messageId: number }
  /** The dlrs answer: receipts on the user's latest own messages of a chat (spec §7 GET …/dlrs). */
  | { type: 'receiptsLoaded'; receipts: ReceiptStatus[] }
  /** The user's own mute of a chat, as the server answered it (a conversation_edit brings it too). */
  | { type: 'muteChanged'; conversationId: number; mute: ConversationMute | null }
  /** The community list (GET /v1/communities): replaces the list's order. */
  | { type: 'communitiesLoaded'; communities: readonly Community[] }
  /** One community as the server described it (details, join, leave). */
  | { type: 'communityLoaded'; community: Community }
  /** A community's details and its channels, answered together (openCommunity). */
  | { type: 'communityOpened'; community: Community; channels: readonly Channel[] }
  | { type: 'communitySearchStarted'; query: string }
  /** The answer for `query`, results or why it failed; ignored when a newer search or a clear replaced it. */
  | { type: 'communitySearchAnswered'; query: string; results: readonly Community[] }
  | { type: 'communitySearchFailed'; query: string; error: EngineError | null }
  | { type: 'communitySearchCleared' }
  | { type: 'channelsLoaded'; communityId: number; channels: readonly Channel[] }
  /** One channel as the server described it (details, join, leave). */
  | { type: 'channelLoaded'; channel: Channel }
  /**
   * A page of a thread: the latest page (`older` false) replaces the thread, keeping comments that came by
   * socket after it; an older page goes before the loaded run. `hasOlder` says whether older ones exist.
   */
  | {
      type: 'commentsLoaded';
      postId: number;
      parentCommentId: number | null;
      comments: readonly Comment[];
      participants: readonly Participant[];
      hasOlder: boolean;
      older: boolean;
    }
  /** The outbox's answer to our own comment: into its thread, with its author (as its socket echo). */
  | { type: 'commentAdded'; comment: Comment; participants: readonly Participant[] }
  /** A comment as the server answered it (a reaction): replaces the loaded one. */
  | { type: 'commentStored'; comment: Comment };

/** What the reducer asks the engine to do; the reducer itself has no effects. */
export type EngineEffect =
  /** Send a receipt after `delayMs` (0 = now); the key is already in sentReceipts. */
  | { type: 'sendReceipt'; conversationId: number; messageId: number; kind: ReceiptKind; delayMs: number }
  | { type: 'refetchConversations' }
  | { type: 'refetchConversation'; conversationId: number }
  /** need_sync, or a gap in event ids: reload the list and every open conversation. */
  | { type: 'sync' }
  /** The signed-in user left or was removed: tabs showing this conversation go back to the list. */
  | { type: 'conversationGone'; conversationId: number }
  /** A new message from someone else arrived: the engine decides whether a notification is due. */
  | { type: 'incomingMessage'; conversationId: number; message: Message };

export interface ReduceResult {
  state: EngineState;
  effects: EngineEffect[];
}

export const READ_RECEIPT_DELAY_MS = 500;

export function initialState(): EngineState {
  return {
    selfId: null,
    conversations: {},
    messages: {},
    windows: {},
    unread: {},
    receipts: {},
    sentReceipts: {},
    lastEventId: 0,
    epoch: '',
    presence: {},
    presenceRound: 0,
    communities: {},
    communityIds: null,
    communitySearch: null,
    channels: {},
    channelIds: {},
    participants: {},
    commentThreads: {},
    comments: {},
  };
}

export const receiptKey = (conversationId: number, messageId: number, kind: ReceiptKind) =>
  `${conversationId}:${messageId}:${kind}`;

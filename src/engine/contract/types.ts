/**
 * The data the engine's contract carries (design.md §5): every type a tab, the browser console or a test sees
 * through EngineApi, declared here and imported by the engine's implementation, never the other way round.
 * This file imports protocol types only (a lint rule in eslint.config.js keeps it so), so the contract does
 * not depend on how the engine is built. src/engine/api.ts re-exports all of it.
 */
import type {
  Attachment,
  AttachmentType,
  Channel,
  Comment,
  Community,
  Conversation,
  Country,
  EventType,
  Message,
  Participant,
  UploadedFile,
} from '../../protocol/entities';
import type { RefusalCode } from '../../protocol/envelope';

/** The languages of spec §9. */
export type Language = 'en' | 'sv';

/**
 * The one error type of the engine (issue 3: "errors as a typed EngineError"). Plain data, not an Error
 * subclass: it crosses Comlink and postMessage, where a structured clone keeps a plain object whole but
 * turns an Error subclass into a bare Error and drops its extra fields.
 */
export interface EngineError {
  name: 'EngineError';
  /** The HTTP status of the refusal; 0 when there was no usable answer (network down, not JSON). */
  status: number;
  /** What the user is shown: the server's message, or `fallback` when the server gave none. */
  message: string;
  /** The spec §8 text of the call that failed, shown when the server's message is missing. */
  fallback: string;
  /** Which call failed, e.g. 'sendMessage' (a key of src/engine/rest/fallbacks.ts for REST calls). */
  call: string;
  /**
   * How long the server asked to be left alone before the next try, in ms: its `retry_after` (any refusal
   * that waits, e.g. a locked number), else a 429's `Retry-After`. The UI says it as a wait ("in 15 minutes").
   */
  retryAfterMs?: number;
  /**
   * The refusal's stable name, when the server gave one (docs/server.md "Refusal codes"): the UI words the
   * refusal from it in the app's language (src/ui/common/refusalText.ts) instead of showing `message`.
   */
  code?: RefusalCode;
}

/** Whether a rejection is the engine's: a tab tells a refusal it can show from a bug. */
export function isEngineError(value: unknown): value is EngineError {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    v.name === 'EngineError' &&
    typeof v.status === 'number' &&
    typeof v.message === 'string' &&
    typeof v.fallback === 'string' &&
    typeof v.call === 'string'
  );
}

// Session.

/**
 * Why the engine signed the user out by itself: the server refused the token (`sessionEnded`: it expired or
 * was ended elsewhere), or the browser deleted the engine's data under it (`dataCleared`). A logout has none.
 */
export type SignedOutReason = 'sessionEnded' | 'dataCleared';

/** Spec §4 session states. */
export type SessionView =
  | {
      status: 'unauthenticated';
      /** Set when the engine signed the user out by itself, until the next sign-in (docs/ui.md "Signed out"). */
      signedOut?: { reason: SignedOutReason; phone: string };
    }
  | { status: 'needsNickname'; userId: number; phone: string; countryCode: string }
  | {
      status: 'ready';
      userId: number;
      nickname: string;
      phone: string;
      countryCode: string;
      /** The user's own picture (its thumbnail), or null for the default avatar. */
      avatarUrl: string | null;
    };

/**
 * One of the user's sessions (sign-ins) as the account page lists them (docs/ui.md "Sessions"): `browser`
 * and `os` are well-known names ('Chrome', 'Linux', …) or '' when the server could not tell; times in epoch
 * ms; `current` is this browser's.
 */
export interface DeviceSession {
  id: string;
  browser: string;
  os: string;
  createdAt: number;
  lastActiveAt: number;
  current: boolean;
}

/** What `updateProfile` changes: a new nickname, a new picture, or null to remove the picture. */
export interface ProfileChanges {
  nickname?: string;
  image?: File | Blob | null;
}

/** The countries of the login screen (spec §3: fetched once, cached locally, refreshed in the background). */
export interface CountriesView {
  countries: readonly Country[];
  status: 'idle' | 'loading' | 'loaded' | 'error';
  /** Why the last load failed (spec §8 'Failed to load countries'), while no cached list exists. */
  error: EngineError | null;
}

/** Spec §4. 'closed' also covers the wait before a reconnect and the signed-out state. */
export type ConnectionState = 'connecting' | 'online' | 'closed';

/**
 * Whether the engine's store takes new data (issue 12): 'full' once a write was refused for want of space
 * (the browser's quota), 'ok' again once a write that adds data commits. Refused writes stay in memory:
 * the state retries them, the outbox sends without them.
 */
export type StorageStatus = 'ok' | 'full';

// Conversations and messages.

export interface LastMessagePreview {
  messageId: number;
  userId: number;
  fromSelf: boolean;
  /** The raw text; the UI words attachments and system events in the user's language. */
  text: string;
  type: Message['type'];
  attachmentType: AttachmentType | null;
  eventType: EventType | null;
  /** A system message's details (who was added, the new name…), for the same sentence as in the chat. */
  event: Attachment['event'] | null;
  /**
   * Nicknames of the people a system message names (its sender and the first person it is about), from
   * the member list: a group's row carries no member list (see `listConversation`). Empty for messages.
   */
  names: Readonly<Record<number, string>>;
  /**
   * The sender's nickname from the member list, for a group's "Erik: …" (issue 23); null for own messages,
   * system messages, one-to-one chats and channels, and a sender the list does not hold (past 500 members).
   */
  senderName: string | null;
  /** The signed-in user, whom an event may be about ("Erik added you"). */
  selfId: number | null;
  /** Epoch seconds as a string, as the server sends it. */
  createdAt: string;
  edited: boolean;
  /** Deleted for everybody: the row says "This message was deleted" (its text is gone). */
  deleted: boolean;
}

export interface ConversationListItem {
  /** In `conversations()` a group's `users` is empty (see `listConversation`); `conversation(id)` has them. */
  conversation: Conversation;
  unreadCount: number;
  isUnread: boolean;
  preview: LastMessagePreview | null;
  /** Epoch seconds the list is sorted by: the last message's time, else the creation time. */
  sortTime: number;
}

/** A conversation's loaded run of history, oldest first, for a (virtualised) message list. */
export interface MessageWindowView {
  messages: readonly Message[];
  /** Older messages exist on the server: the UI may ask for the next older page. */
  hasOlder: boolean;
  /**
   * Newer messages exist beyond the last loaded one: the window was trimmed at its newer end while the reader
   * was far up (issue 11), so its end is not the latest message and live messages do not join it until the
   * reader comes back down (or jumps to the latest). The engine always says; absent reads as false.
   */
  hasNewer?: boolean;
  /** Whether any page was loaded yet (an empty loaded chat and a chat not loaded yet look different). */
  loaded: boolean;
}

/** Where a reader is in a chat: the oldest and newest message ids on screen (issue 11). */
export interface MessageViewport {
  oldestId: number;
  newestId: number;
  /**
   * The list follows the latest messages (the reader is at its end): whatever arrives counts as on screen,
   * however far the tab's last report lags a burst, so the engine never trims the newer end under them.
   */
  following?: boolean;
}

/** Who marked one of the user's own messages delivered and who read it (user ids). */
export interface ReceiptMarks {
  delivered: readonly number[];
  read: readonly number[];
}

/** One conversation's receipt marks by message id, for the UI's delivered/read ticks. */
export type ReceiptMarksView = Readonly<Record<number, ReceiptMarks>>;

/**
 * Whether a person is online, as the server last said (`user_presence`, spec §4), and when they were last
 * seen (epoch seconds). The server says so when it changes only, so null means nothing was heard since
 * this engine connected.
 */
export interface PresenceView {
  online: boolean;
  lastSeen: number;
}

/**
 * What the user sends: text, and/or one image or video file (spec §5), optionally quoting a message.
 * Text may be empty when a file is given. A file that is not an accepted image or video, or is over 50 MB,
 * is refused with the spec's text (`attachmentProblem`), as is a send with neither text nor file.
 */
export interface SendInput {
  text: string;
  quotedMessageId?: number;
  file?: File;
}

/** A file a send carries (spec §5: one image or video); it is uploaded first, then the message is sent. */
export interface OutboxAttachment {
  name: string;
  mime: string;
  size: number;
  kind: 'image' | 'video';
  /** Upload progress, 0..1 (1 once uploaded). */
  progress: number;
  /** The server's answer to the upload, once it is done: a retry then only sends the message. */
  uploaded: UploadedFile | null;
}

/** What a comment entry comments on: a post of the entry's channel, or a comment's replies (issue 8). */
export interface CommentTarget {
  postId: number;
  parentCommentId: number | null;
}

export interface OutboxEntry {
  /** Unique per send; the Idempotency-Key, so a retry is never taken for a new message (design.md §4). */
  localId: string;
  /** Whose send this is: entries of another account are never sent. */
  userId: number;
  /** The chat, or for a comment the channel of its post. */
  conversationId: number;
  /** Set for a comment on a channel post (sent with the comments call); null for a message or post. */
  comment: CommentTarget | null;
  /** Drawn once (spec §7: random 1..10000) and reused by every retry. */
  clientId: number;
  text: string;
  quotedMessageId: number | null;
  /** The file, without its bytes (those are kept apart in storage until the send is done). */
  attachment: OutboxAttachment | null;
  /** Epoch ms when the user sent it; orders the outbox and the pending rows (one ms apart at least, so no two tie). */
  createdAt: number;
  status: 'pending' | 'failed';
  error: EngineError | null;
  attempts: number;
}

/** One hit of `searchMessages` (issue 13). */
export interface MessageSearchHit {
  kind: 'message' | 'post' | 'comment';
  /** The chat of a message; null for posts and comments. */
  conversationId: number | null;
  /** The channel (and community) of a post or comment; null for messages. */
  channelId: number | null;
  communityId: number | null;
  /** The post a comment belongs to; null otherwise. */
  postId: number | null;
  /** The message, post or comment id. */
  id: number;
  /** The chat's or channel's name, for the result row. */
  title: string;
  /** Sender's display name as the engine knows it (may be ''). */
  senderName: string;
  /** Sent by the signed-in user: the row names them "You", as the chats list's previews do (issue 23). */
  fromSelf: boolean;
  /** Epoch ms of the item. */
  createdAt: number;
  /** The text around the first match, split so that the matched words are marked: render `match` parts as <mark>. */
  snippet: readonly { text: string; match: boolean }[];
  /** Its rank among the hits, higher first (the newest match is the highest). */
  score: number;
}

export interface MessageSearchView {
  query: string;
  /** The newest matches, newest first; at most `limit` (default 50). */
  hits: readonly MessageSearchHit[];
  /** False while the index is still being built from what is stored. */
  complete: boolean;
}

/**
 * How much history this device keeps for search and offline reading (issue 13): the latest 1,000 items of
 * each chat or channel, or everything ever loaded (the default: what was seen can be found).
 */
export type HistoryKept = 'latest-1000' | 'everything';

/** The choices of `setHistoryKept`, in the order a settings screen offers them. */
export const HISTORY_KEPT_CHOICES: readonly HistoryKept[] = ['everything', 'latest-1000'];

// Communities, channels, posts and comments.

/** The explore list (spec §2 Communities screens): every community the user may see, joined or not. */
export interface CommunitiesView {
  /** As last refreshed, in the server's order. */
  communities: readonly Community[];
  /** The joined ones among them (`is_member`). */
  joined: readonly Community[];
  /** Whether the list was loaded once (an empty loaded list and one not loaded yet look different). */
  loaded: boolean;
  /** The current search, or null when there is none (spec §5: an empty query clears it). */
  search: CommunitySearchView | null;
}

export interface CommunitySearchView {
  query: string;
  results: readonly Community[];
  status: 'loading' | 'loaded' | 'error';
  /** Why the last search failed (status 'error'). */
  error: EngineError | null;
}

export interface ChannelsView {
  channels: readonly Channel[];
  loaded: boolean;
}

/** Author names and avatars of posts and comments, by user id. */
export type ParticipantsById = Readonly<Record<number, Participant>>;

/** A channel's loaded posts (paged, 20 per page, older pages on request). */
export interface PostsView {
  /** Oldest first. */
  posts: readonly Message[];
  participants: ParticipantsById;
  hasOlder: boolean;
  loaded: boolean;
}

/** A post's loaded comments, or a comment's replies (paged, 50 per page). */
export interface CommentsView {
  /** Oldest first. */
  comments: readonly Comment[];
  participants: ParticipantsById;
  hasOlder: boolean;
  loaded: boolean;
  /** The user's comments of this thread still in the outbox (pending, or failed: retry or discard), oldest first. */
  pending: readonly OutboxEntry[];
}

// Settings, drafts and tabs.

/** App settings (spec §3): four booleans, all on by default. */
export interface AppSettings {
  enterToSend: boolean;
  notificationsEnable: boolean;
  notificationsShowPreview: boolean;
  incomingMessagesSound: boolean;
}

/** The browser's Notification.permission, named here so the engine needs no DOM types. */
export type NotifyPermission = 'default' | 'denied' | 'granted';

/** One member row of a form draft (spec §3 "Member draft entry"). */
export interface FormDraftMember {
  id: string;
  name: string;
  phone: string;
}

/** What a new-chat or add-member form held when it was left (spec §2: kept locally). */
export interface FormDraft {
  /** The group or broadcast name, or the one-to-one contact's name. */
  name: string;
  phone?: string;
  members: FormDraftMember[];
}

/** Form drafts by form key ('newGroup', 'newBroadcast', 'newPrivate', `addMembers:${conversationId}`). */
export type FormDrafts = Readonly<Record<string, FormDraft>>;

export interface HostOverrides {
  apiBase: string | null;
  wsBase: string | null;
}

/** What one tab tells the engine about itself; the engine combines every tab's. */
export interface TabState {
  visible: boolean;
  focused: boolean;
  openConversationId: number | null;
  /**
   * The browser's languages as the tab sees them (`navigator.languages`): before the user chooses a
   * language, the engine asks the server for its texts in the one the tab shows (docs/ui.md "Refusals").
   */
  languages?: readonly string[];
  /**
   * The tab marks messages read as its reader sees them (`markVisible`; the app's tabs do): a chat it shows is
   * not read all at once while it has unread messages, by being shown, opened or sent a new message. The
   * reader's visible rows read it (docs/ui.md, "Opening at the first unread message").
   */
  readsAsSeen?: boolean;
}

/** How a chat is opened (`openConversation`). */
export interface OpenOptions {
  /**
   * Opens a chat with unread messages around the first of them (loading older pages, or the page around the
   * read point, when the latest page does not reach it) and answers where it is.
   */
  atUnread?: boolean;
}

/** Where a chat's unread messages began when it was opened, and how many there were (its unread count then). */
export interface FirstUnread {
  messageId: number;
  count: number;
}

/** A notification the engine asks exactly one tab to show (design.md §4). */
export interface NotificationRequest {
  conversationId: number;
  messageId: number;
  title: string;
  /** Empty when previews are off (spec §3 notificationsShowPreview). */
  body: string;
  /** A group's sender, for the UI's "Erik: …" in the user's language (issue 23); null elsewhere. */
  sender: string | null;
  playSound: boolean;
}

// How tabs share the engine.

/** How the engine is shared among tabs: one SharedWorker, or the leader-election fallback (design.md §2). */
export type EngineMode = 'shared-worker' | 'leader-election';

/**
 * A build of the app: its id, and when it was built (ms). One engine runs per browser profile whatever the
 * build; when tabs of two builds meet, the build of the page loaded last takes the engine (issue 14).
 */
export interface BuildStamp {
  id: string;
  time: number;
}

// What the console says about the API (`engine.help()`, issue 24).

/** One query or command of the contract as `engine.help()` lists it, read from src/engine/api.ts at build. */
export interface ApiHelpEntry {
  readonly name: string;
  /** As ApiKind in api.ts ('query', 'event', 'command', 'void'), or 'tab' for what belongs to the tab alone. */
  readonly kind: 'query' | 'event' | 'command' | 'void' | 'tab';
  /** How it is called, e.g. `sendMessage(conversationId: number, input: SendInput)`. */
  readonly call: string;
  /** What it answers, e.g. `Promise<OutboxEntry>`, `Observable<MessageWindowView>`. */
  readonly returns: string;
  /** The first sentence of its documentation. */
  readonly summary: string;
  /** Its whole documentation. */
  readonly doc: string;
}

// Exporting a chat (issue 24).

/** How `exportConversation` writes: 'html' (readable, the default) or 'json' (every field, for scripts); from 'device' (the default) or 'server'. */
export interface ExportOptions {
  format?: 'html' | 'json';
  /** 'device': the history this device keeps; 'server': the whole history, fetched page by page. */
  source?: 'device' | 'server';
}

/** Where a chat's export is: gathering messages, writing the file, or ended. */
export interface ExportProgress {
  conversationId: number;
  phase: 'collecting' | 'writing' | 'done' | 'cancelled' | 'failed';
  /** Messages gathered so far (the total once writing). */
  messages: number;
}

/** A finished export: the file (a Blob the tab can save) and what is in it. */
export interface ExportResult {
  fileName: string;
  blob: Blob;
  messages: number;
  format: 'html' | 'json';
}

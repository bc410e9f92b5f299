/**
 * THE contract between the UI and the engine (design.md §2, §5): the UI, the browser console
 * (`window.engine`) and the tests all use this interface. Commands return promises and reject with an
 * EngineError (the server's message, else the fallback text of spec §8); queries are observables.
 * Everything that crosses it is plain data, so it survives a worker port.
 */
import type { Observable } from 'rxjs';
import type { DeliveryMode, DeliverySettings, MuteType, WarningsAnswer } from '../protocol/api';
import type { Channel, Comment, Community, ConversationMute, Country, Message } from '../protocol/entities';
import type { ChannelsView, CommentsView, CommunitiesView, PostsView } from './community/views';
import type { EngineError } from './errors';
import type { FormDraft, FormDrafts } from './preferences/formDrafts';
import type { OutboxEntry } from './messages/outbox';
import type { ProfileChanges } from './session/session';
import type { RestClient } from './rest/client';
import type { AppSettings, NotifyPermission } from './rules';
import type { ConnectionState } from './socket/connection';
import type { StorageStatus } from './storage/quotaWatch';
import type { ConversationListItem } from './state/conversationList';
import type { MessageWindowView } from './state/messageWindow';
import type { ReceiptMarksView } from './state/receiptMarks';
import type { MessageViewport } from './conversations/history';
import type { HistoryKept } from './search/historyKept';

export type { EngineError } from './errors';
export { isEngineError } from './errors';
/** Pure permission rules (spec §4, §6), so the UI offers exactly the actions the engine and server allow. */
export { canDeleteForEverybody, canEdit, canHide, editDeadline } from './rules';
/** Spec §5 attachment rule (null, or the spec's error text), so the UI refuses a file the engine would refuse. */
export { attachmentKind, attachmentProblem, FILE_TOO_LARGE, FILE_TYPE_NOT_SUPPORTED } from './rules';
export type { FileFacts } from './rules';
/** Spec §5 nickname and avatar rules, so the UI refuses what the engine would (issue 9). */
export { avatarProblem, nicknameError } from './rules';
export type { AvatarProblem, NicknameProblem } from './rules';
/** Whether a chat is muted now (its `member.mute`), and the choices chat settings offer (issue 9). */
export { isMuted, MUTE_CHOICES, muteEndsAt } from './rules';
export type { MuteChoice } from './rules';
export type {
  ChannelsView,
  CommentsView,
  CommunitiesView,
  CommunitySearchView,
  ParticipantsById,
  PostsView,
} from './community/views';
export type { FormDraft, FormDraftMember, FormDrafts } from './preferences/formDrafts';
export type { OutboxAttachment, OutboxEntry } from './messages/outbox';
export type { ProfileChanges } from './session/session';
export type { AppSettings, NotifyPermission } from './rules';
export type { ConnectionState } from './socket/connection';
export type { StorageStatus } from './storage/quotaWatch';
export type { ConversationListItem, LastMessagePreview } from './state/conversationList';
export type { MessageWindowView } from './state/messageWindow';
export type { MessageViewport } from './conversations/history';
export type { ReceiptMarksView } from './state/receiptMarks';
export type { HistoryKept } from './search/historyKept';
/** The choices of `setHistoryKept`, in the order a settings screen offers them. */
export { HISTORY_KEPT_CHOICES } from './search/historyKept';

/** The languages of spec §9. */
export type Language = 'en' | 'sv';

/** Spec §4 session states. */
export type SessionView =
  | { status: 'unauthenticated' }
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

/** What one tab tells the engine about itself; the engine combines every tab's. */
export interface TabState {
  visible: boolean;
  focused: boolean;
  openConversationId: number | null;
}

/** A notification the engine asks exactly one tab to show (design.md §4). */
export interface NotificationRequest {
  conversationId: number;
  messageId: number;
  title: string;
  /** Empty when previews are off (spec §3 notificationsShowPreview). */
  body: string;
  playSound: boolean;
}

/** The countries of the login screen (spec §3: fetched once, cached locally, refreshed in the background). */
export interface CountriesView {
  countries: readonly Country[];
  status: 'idle' | 'loading' | 'loaded' | 'error';
  /** Why the last load failed (spec §8 'Failed to load countries'), while no cached list exists. */
  error: EngineError | null;
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

export interface HostOverrides {
  apiBase: string | null;
  wsBase: string | null;
}

/** The REST calls of spec §7 by name, for `call` (console scripting and calls without a dedicated command). */
export type RestCallName = {
  [K in keyof RestClient]: RestClient[K] extends (...args: never[]) => Promise<unknown> ? K : never;
}[keyof RestClient];

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
  /** Epoch ms of the item. */
  createdAt: number;
  /** The text around the first match, split so that the matched words are marked: render `match` parts as <mark>. */
  snippet: readonly { text: string; match: boolean }[];
  score: number;
}
export interface MessageSearchView {
  query: string;
  /** Best first; at most `limit` (default 50). */
  hits: readonly MessageSearchHit[];
  /** False while the index is still being built from what is stored. */
  complete: boolean;
}

export interface EngineApi {
  // Queries.
  session(): Observable<SessionView>;
  connection(): Observable<ConnectionState>;
  /**
   * Whether this device's store takes new data (issue 12): 'full' while the browser refuses writes for want
   * of space. Sending still works then, but what is new is not kept on the device: the UI says so.
   */
  storageStatus(): Observable<StorageStatus>;
  /** The chats list, newest first. Its group rows leave out the member list (`users` is empty). */
  conversations(): Observable<readonly ConversationListItem[]>;
  /** One conversation, with its whole member list. */
  conversation(conversationId: number): Observable<ConversationListItem | null>;
  messages(conversationId: number): Observable<MessageWindowView>;
  /**
   * Who marked the user's own messages of a chat delivered and read, by message id (message_dlr2, and
   * the dlrs answer fetched on open). A read of a later message reads the earlier ones too (docs/server.md).
   */
  receipts(conversationId: number): Observable<ReceiptMarksView>;
  outbox(): Observable<readonly OutboxEntry[]>;
  settings(): Observable<AppSettings>;
  /** Conversations the signed-in user left or was removed from: tabs showing one go back to the list. */
  removedConversations(): Observable<number>;
  /** Notifications this tab should show: each message's goes to exactly one tab. */
  notifications(tabId: string): Observable<NotificationRequest>;
  /** Unsent text per conversation, kept by the engine: it survives reloads and shows in every tab. */
  drafts(): Observable<Readonly<Record<number, string>>>;
  /**
   * Drafts of the new-chat and add-member forms (spec §2) by form key ('newGroup', 'newBroadcast',
   * 'newPrivate', `addMembers:${conversationId}`), the signed-in account's only; kept like `drafts`.
   */
  formDrafts(): Observable<FormDrafts>;
  /** The chosen language, or null when none was chosen (the UI then follows the browser, spec §9). */
  language(): Observable<Language | null>;
  /** The supported countries (empty until `loadCountries` ran once; the cache makes later starts instant). */
  countries(): Observable<CountriesView>;
  /** The explore list (after `refreshCommunities`, cached across reloads) and the current search. */
  communities(): Observable<CommunitiesView>;
  /** One community as last loaded (list, search, `openCommunity`, join or leave), or null. */
  community(communityId: number): Observable<Community | null>;
  /** A community's channels (after `openCommunity` or `loadChannels`). */
  channels(communityId: number): Observable<ChannelsView>;
  /** One channel as last loaded (a channel list, `loadChannel`, join or leave), or null. */
  channel(channelId: number): Observable<Channel | null>;
  /** A channel's posts, oldest first, with their authors (after `loadPosts`; live by socket). */
  posts(channelId: number): Observable<PostsView>;
  /** A post's comments, or a comment's replies with `parentCommentId` (after `loadComments`; live by socket). */
  comments(channelId: number, postId: number, parentCommentId?: number | null): Observable<CommentsView>;
  /** Full-text search of the messages, posts and comments stored on this device (issue 13); re-emits as they change. An empty query gives no hits. */
  searchMessages(query: string, options?: { conversationId?: number; limit?: number }): Observable<MessageSearchView>;
  /** How much history this device keeps for search and offline (issue 13): 'everything' ever loaded (the default) or the 'latest-1000' items of each chat. */
  historyKept(): Observable<HistoryKept>;

  // Session.
  requestPin(phone: string): Promise<void>;
  confirmPin(phone: string, pin: string): Promise<SessionView>;
  register(nickname: string): Promise<SessionView>;
  /**
   * Account editing (spec §2): a new nickname (trimmed, 1–50, as `nicknameError` checks) and/or picture (an
   * image of at most 3 MB, as `avatarProblem` checks; null removes it). Every tab shows it at once, contacts
   * live (docs/server.md). Bad input rejects with 'Invalid parameters provided' before anything is sent.
   */
  updateProfile(changes: ProfileChanges): Promise<SessionView>;
  /** Fetches the account again (the account page does on opening); rejects when the server cannot say. */
  refreshProfile(): Promise<SessionView>;
  logout(): Promise<void>;
  /** Loads the countries: the cached list at once (refreshed in the background), else from the server. */
  loadCountries(): Promise<Country[]>;

  // Conversations and messages.
  refreshConversations(): Promise<void>;
  /** Loads the latest page, marks the chat read (spec §4) and sends the read receipt for its last message. */
  openConversation(conversationId: number): Promise<void>;
  /**
   * Opens the chat at a message (a search hit, issue 13): unless the window holds it, the page around it
   * becomes the window (IndexedDB first, else the server), however far back it is; pages then load around
   * the reader as in any chat, newer ones by the reference server's `After` (docs/server.md) until the
   * window joins the latest message (`hasNewer` is true until then; `loadLatestMessages` jumps there). The
   * chat counts as opened (read, spec §4). Ids that are not positive integers reject with 'Invalid
   * parameters provided'.
   */
  openConversationAt(conversationId: number, messageId: number): Promise<void>;
  /**
   * Loads the next older page (20); resolves false when there is none. A prefetch of that page already on
   * its way (see `setViewport`) is shared, not asked for twice.
   */
  loadOlderMessages(conversationId: number): Promise<boolean>;
  /**
   * Where this tab's reader is in a chat: the oldest and newest message ids on screen, or null once the chat
   * is closed (issue 11). The engine keeps about five pages (100 messages) loaded beyond both edges of every
   * tab's viewport, 20 a request, from IndexedDB first (pages it trimmed before) and then the server, and
   * trims the window's messages more than 200 beyond them (in whole pages), so memory stays bounded however
   * far the reader goes. Trimmed at its newer end, the window's `hasNewer` is true and live messages wait
   * until the reader comes back down, or `loadLatestMessages`.
   */
  setViewport(tabId: string, conversationId: number, viewport: MessageViewport | null): void;
  /** Makes the latest page the window again (Jump to latest after the window was trimmed at its newer end). */
  loadLatestMessages(conversationId: number): Promise<void>;
  /** The UI saw at least half of this message (spec §4): a read receipt is due once. */
  markVisible(conversationId: number, messageId: number): void;
  /** Queues a message in the outbox (pending at once); a file is uploaded first, with its progress shown. */
  sendMessage(conversationId: number, input: SendInput): Promise<OutboxEntry>;
  retrySend(localId: string): Promise<void>;
  discardSend(localId: string): Promise<void>;
  editMessage(conversationId: number, messageId: number, text: string): Promise<Message>;
  deleteMessages(conversationId: number, messageIds: number[]): Promise<WarningsAnswer>;
  hideMessages(conversationId: number, messageIds: number[]): Promise<WarningsAnswer>;
  react(conversationId: number, messageId: number, emoji: string, on: boolean): Promise<Message>;
  /** Spec §4: own, not a system message, within 45 minutes. */
  canEdit(messageId: number): Promise<boolean>;
  /** The message the Up arrow edits in an empty input: the latest own editable one, or null. */
  editTarget(conversationId: number): Promise<number | null>;
  /**
   * Mutes a chat for the signed-in user ('8h', '1w', 'forever', or any server type), or unmutes it, in the
   * browser's time zone. A muted chat gives no notification and no sound; its unread badge shows muted. The
   * chat's `member.mute` changes at once here and in every tab, and on the user's other devices by socket.
   */
  muteConversation(conversationId: number, type: MuteType | 'unmute'): Promise<ConversationMute | null>;
  /** How the server delivers a chat's messages to this user's devices (spec §7 delivery_settings). */
  setDeliverySettings(conversationId: number, mode: DeliveryMode, intervalMinutes?: number): Promise<DeliverySettings>;

  // Communities, channels, posts and comments (spec §2 Communities screens, §6 rules enforced by the server).
  // Ids must be positive integers, else the call rejects with 'Invalid parameters provided' (spec §5).
  /** Loads the explore list: every community the user may see, joined or not. */
  refreshCommunities(): Promise<Community[]>;
  /** Searches by name or description; a blank query clears the search (spec §5) and resolves []. */
  searchCommunities(query: string): Promise<Community[]>;
  /** Loads a community's details and channels; an unknown or hidden one rejects with "Community not found". */
  openCommunity(communityId: number): Promise<Community>;
  /** Joins the community (and so its announcements channel). */
  joinCommunity(communityId: number): Promise<Community>;
  /** Leaves the community and all its channels (community admins cannot). */
  leaveCommunity(communityId: number): Promise<Community>;
  loadChannels(communityId: number): Promise<Channel[]>;
  /** One channel's details, by id or stid. */
  loadChannel(channelId: number | string): Promise<Channel>;
  joinChannel(channelId: number): Promise<Channel>;
  /** Leaving the announcements channel is leaving the community (spec §4). */
  leaveChannel(channelId: number): Promise<Channel>;
  /** Loads the latest page of posts (20). */
  loadPosts(channelId: number): Promise<void>;
  /** Loads the next older page of posts; resolves false when there is none. */
  loadOlderPosts(channelId: number): Promise<boolean>;
  /** Posts text and/or a file (uploaded first; the same rules as `sendMessage`). */
  createPost(channelId: number, input: SendInput): Promise<Message>;
  reactToPost(channelId: number, postId: number, emoji: string, on: boolean): Promise<Message>;
  /** Loads the latest page (50) of a post's comments, or of a comment's replies. */
  loadComments(channelId: number, postId: number, parentCommentId?: number | null): Promise<void>;
  /** Loads the next older page of comments; resolves false when there is none. */
  loadOlderComments(channelId: number, postId: number, parentCommentId?: number | null): Promise<boolean>;
  /**
   * Adds a comment (or a reply) through the outbox: it shows at once in the thread's `pending`, and is sent
   * exactly once (retried as messages are; a refused one is failed: `retrySend` or `discardSend`). Resolves
   * with the outbox entry; blank text rejects with 'Invalid message provided' (spec §5).
   */
  addComment(channelId: number, postId: number, text: string, parentCommentId?: number | null): Promise<OutboxEntry>;
  reactToComment(channelId: number, postId: number, commentId: number, emoji: string, on: boolean): Promise<Comment>;

  // Settings and tabs.
  /** Stores (or, for blank text, removes) the draft of a conversation. */
  setDraft(conversationId: number, text: string): Promise<void>;
  /** Stores the draft of a form (see `formDrafts`); null or a draft with nothing typed removes it. */
  setFormDraft(key: string, draft: FormDraft | null): Promise<void>;
  setLanguage(language: Language): Promise<void>;
  updateSettings(patch: Partial<AppSettings>): Promise<AppSettings>;
  /** Chooses how much history this device keeps; a smaller choice trims what is kept at once. Anything else is refused ('Invalid parameters provided'). */
  setHistoryKept(kept: HistoryKept): Promise<void>;
  setHostOverrides(overrides: HostOverrides): Promise<void>;
  setNotificationPermission(permission: NotifyPermission): void;
  setTabState(tabId: string, state: TabState): void;
  closeTab(tabId: string): void;

  /** Any REST call of spec §7 by name, e.g. `call('getCommunities', { onlyJoined: true })`. */
  call<K extends RestCallName>(name: K, ...args: Parameters<RestClient[K]>): ReturnType<RestClient[K]>;

  /**
   * The debug screen's engine crash test (spec §2): the engine throws an error that nothing catches, in its
   * own worker, so error reporting can be seen to work there (issue 9). It changes nothing else.
   */
  crashTest(): void;
}

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

/** The engine as one tab holds it (`window.engine`): EngineApi, plus what belongs to this tab only. */
export interface TabEngine extends EngineApi {
  /** This tab's id in the engine (for `notifications(tabId)`). */
  readonly tabId: string;
  readonly mode: EngineMode;
  /** The build this tab runs. */
  readonly build: BuildStamp;
  /** The chat this tab shows, or null: part of the TabState this tab reports (read receipts, notifications). */
  setOpenConversation(conversationId: number | null): void;
  /**
   * This tab is about to reload into build `buildId` (a service worker update, issue 13): the page that loads
   * takes the engine over only if it is that build, as after the engine's own reload requests. False when
   * this tab already reloaded that way too often within a minute.
   */
  noteReloadInto(buildId: string): boolean;
}

/**
 * THE contract between the UI and the engine (design.md §2, §5): the UI, the browser console (`window.engine`)
 * and the tests all use it. Every query and command is one line of `ENGINE_API` below, with its arguments and
 * result; everything else that lists them is derived from that table: the `EngineApi` type, the worker's name
 * lists (src/worker/names.ts), which methods of a part still loading answer with an Observable
 * (deferredPart.ts), how the engine routes each name to the part that answers it (serveApi.ts), and the
 * console lists of README.md and src/worker/README.md (tests/unit/engine/api-table.test.ts checks those).
 *
 * Commands return promises and reject with an EngineError (the server's message, else the fallback text of
 * spec §8); queries are observables. Everything that crosses it is plain data, so it survives a worker port.
 *
 * The contract imports nothing of the engine's implementation (eslint.config.js says so): its data types live
 * in contract/, and the only code it re-exports is the pure product rules of rules/, which import protocol
 * alone, so a tab offers exactly what the engine allows.
 */
import type { Observable } from 'rxjs';
import type { DeliveryMode, DeliverySettings, MuteType, WarningsAnswer } from '../protocol/api';
import type { Channel, Comment, Community, ConversationMute, Country, Message } from '../protocol/entities';
import type { RestCallName, RestCalls } from './contract/restCalls';
import type {
  ApiHelpEntry,
  AppSettings,
  BuildStamp,
  ChannelsView,
  CommentsView,
  CommunitiesView,
  ConnectionState,
  ConversationListItem,
  CountriesView,
  DeviceSession,
  EngineMode,
  ExportOptions,
  ExportProgress,
  ExportResult,
  FirstUnread,
  FormDraft,
  FormDrafts,
  HistoryKept,
  HostOverrides,
  Language,
  MessageSearchView,
  MessageViewport,
  MessageWindowView,
  NotificationRequest,
  NotifyPermission,
  OpenOptions,
  OutboxEntry,
  PostsView,
  PresenceView,
  ProfileChanges,
  ReceiptMarksView,
  SendInput,
  SessionView,
  StorageStatus,
  TabState,
} from './contract/types';

export * from './contract/types';
export type { RestCallName, RestCalls } from './contract/restCalls';
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
/** How search folds case and accents, so the chats list's name filter finds what message search would (issue 23). */
export { fold } from './rules';

/**
 * How a name is served. 'query': an Observable of the current state (a tab shares one subscription per
 * query and arguments, and a value may be merged with the next). 'event': an Observable of things that happen
 * once (never merged, never replayed to a later subscriber). 'command': a Promise. 'void': fire and forget,
 * the tab does not wait (a failure is logged).
 */
export type ApiKind = 'query' | 'event' | 'command' | 'void';

/**
 * Which part of the engine answers a name (src/engine/serveApi.ts maps each to its object): 'engine' is the
 * Engine itself, where an answer takes several parts. Part of the table so that a new command is written in
 * one line here and one method there, and nowhere in between.
 */
export type ApiArea =
  | 'engine'
  | 'session'
  | 'countries'
  | 'settings'
  | 'formDrafts'
  | 'notifications'
  | 'chats'
  | 'outbox'
  | 'communities'
  | 'exports';

/** One line of the table. `method` is never set: it carries the method's type, as the UI and the console call it. */
export interface ApiEntry<K extends ApiKind = ApiKind, F = unknown> {
  readonly kind: K;
  readonly area: ApiArea;
  readonly method?: F;
}

/** Any function: `never` as its arguments accepts every parameter list, generic ones included. */
type AnyFn = (...args: never) => unknown;
const query = <F extends (...args: never) => Observable<unknown>>(area: ApiArea): ApiEntry<'query', F> => ({ kind: 'query', area });
const event = <F extends (...args: never) => Observable<unknown>>(area: ApiArea): ApiEntry<'event', F> => ({ kind: 'event', area });
const command = <F extends (...args: never) => Promise<unknown>>(area: ApiArea): ApiEntry<'command', F> => ({ kind: 'command', area });
/** A fire-and-forget command; a method that returns anything but void is refused (its type becomes never). */
const fire = <F extends AnyFn>(area: ApiArea): ApiEntry<'void', [ReturnType<F>] extends [void] ? F : never> => ({ kind: 'void', area });

/** `call`'s type: generic in the call's name, so its arguments and answer are that call's. */
type CallMethod = <K extends RestCallName>(name: K, ...args: Parameters<RestCalls[K]>) => ReturnType<RestCalls[K]>;

/** Every query and command of the engine, once. The comment of a line is the method's documentation. */
export const ENGINE_API = {
  // Queries.
  /** Who is signed in: 'unauthenticated', 'needsNickname' (a new account after its PIN) or 'ready' with the account. */
  session: query<() => Observable<SessionView>>('session'),
  /** The socket's state: 'connecting', 'online' or 'closed'. */
  connection: query<() => Observable<ConnectionState>>('engine'),
  /**
   * Whether this device's store takes new data (issue 12): 'full' while the browser refuses writes for want
   * of space. Sending still works then, but what is new is not kept on the device: the UI says so.
   */
  storageStatus: query<() => Observable<StorageStatus>>('engine'),
  /** The chats list, newest first. Its group rows leave out the member list (`users` is empty). */
  conversations: query<() => Observable<readonly ConversationListItem[]>>('chats'),
  /** One conversation, with its whole member list. */
  conversation: query<(conversationId: number) => Observable<ConversationListItem | null>>('chats'),
  /** A chat's loaded window of messages, oldest first, with whether older and newer pages exist. */
  messages: query<(conversationId: number) => Observable<MessageWindowView>>('chats'),
  /**
   * Who marked the user's own messages of a chat delivered and read, by message id (message_dlr2, and
   * the dlrs answer fetched on open). A read of a later message reads the earlier ones too (docs/server.md).
   */
  receipts: query<(conversationId: number) => Observable<ReceiptMarksView>>('chats'),
  /**
   * Whether a person the user shares a chat with is online, and since when they were last seen (issue 23),
   * from the server's `user_presence`; null until the server said something of them (it tells changes only).
   */
  presence: query<(userId: number) => Observable<PresenceView | null>>('chats'),
  /** Messages, comments and files waiting to be sent, being sent or refused (spec §4 send states). */
  outbox: query<() => Observable<readonly OutboxEntry[]>>('engine'),
  /** The app's settings: Enter sends, notifications and their previews, the incoming-message sound. */
  settings: query<() => Observable<AppSettings>>('settings'),
  /** Conversations the signed-in user left or was removed from: tabs showing one go back to the list. */
  removedConversations: event<() => Observable<number>>('chats'),
  /** Notifications this tab should show: each message's goes to exactly one tab. */
  notifications: event<(tabId: string) => Observable<NotificationRequest>>('notifications'),
  /** Unsent text per conversation, kept by the engine: it survives reloads and shows in every tab. */
  drafts: query<() => Observable<Readonly<Record<number, string>>>>('settings'),
  /**
   * Drafts of the new-chat and add-member forms (spec §2) by form key ('newGroup', 'newBroadcast',
   * 'newPrivate', `addMembers:${conversationId}`), the signed-in account's only; kept like `drafts`.
   */
  formDrafts: query<() => Observable<FormDrafts>>('formDrafts'),
  /** The chosen language, or null when none was chosen (the UI then follows the browser, spec §9). */
  language: query<() => Observable<Language | null>>('settings'),
  /** The supported countries (empty until `loadCountries` ran once; the cache makes later starts instant). */
  countries: query<() => Observable<CountriesView>>('countries'),
  /** The explore list (after `refreshCommunities`, cached across reloads) and the current search. */
  communities: query<() => Observable<CommunitiesView>>('communities'),
  /** One community as last loaded (list, search, `openCommunity`, join or leave), or null. */
  community: query<(communityId: number) => Observable<Community | null>>('communities'),
  /** A community's channels (after `openCommunity` or `loadChannels`). */
  channels: query<(communityId: number) => Observable<ChannelsView>>('communities'),
  /** One channel as last loaded (a channel list, `loadChannel`, join or leave), or null. */
  channel: query<(channelId: number) => Observable<Channel | null>>('communities'),
  /** A channel's posts, oldest first, with their authors (after `loadPosts`; live by socket). */
  posts: query<(channelId: number) => Observable<PostsView>>('communities'),
  /** A post's comments, or a comment's replies with `parentCommentId` (after `loadComments`; live by socket). */
  comments: query<(channelId: number, postId: number, parentCommentId?: number | null) => Observable<CommentsView>>(
    'communities',
  ),
  /** Full-text search of the messages, posts and comments stored on this device (issue 13); re-emits as they change. An empty query gives no hits. */
  searchMessages: query<
    (query: string, options?: { conversationId?: number; limit?: number }) => Observable<MessageSearchView>
  >('engine'),
  /** How much history this device keeps for search and offline (issue 13): 'everything' ever loaded (the default) or the 'latest-1000' items of each chat. */
  historyKept: query<() => Observable<HistoryKept>>('engine'),

  // Session.
  /** Asks the server to send a PIN to the phone number (spec §2; at most 5 per number per 15 minutes). */
  requestPin: command<(phone: string) => Promise<void>>('session'),
  /** Signs in with the PIN that was sent; a new account then needs `register`. */
  confirmPin: command<(phone: string, pin: string) => Promise<SessionView>>('engine'),
  /** Names a new account (trimmed, 1–50 characters) after its first PIN. */
  register: command<(nickname: string) => Promise<SessionView>>('session'),
  /**
   * Account editing (spec §2): a new nickname (trimmed, 1–50, as `nicknameError` checks) and/or picture (an
   * image of at most 3 MB, as `avatarProblem` checks; null removes it). Every tab shows it at once, contacts
   * live (docs/server.md). Bad input rejects with 'Invalid parameters provided' before anything is sent.
   */
  updateProfile: command<(changes: ProfileChanges) => Promise<SessionView>>('session'),
  /** Fetches the account again (the account page does on opening); rejects when the server cannot say. */
  refreshProfile: command<() => Promise<SessionView>>('session'),
  /**
   * Signs out in every tab; the outbox, settings, countries and drafts kept on this device are cleared (spec §4).
   * The server is told first (its token ends there); offline it cannot be, and the token then ends when it
   * has gone unused for the server's idle time (docs/ui.md "Sessions").
   */
  logout: command<() => Promise<void>>('engine'),
  /** The user's sessions (sign-ins on other browsers and devices), this one marked `current` (docs/ui.md "Sessions"). */
  sessions: command<() => Promise<DeviceSession[]>>('session'),
  /** Ends another of the user's sessions by its id: that browser is signed out at once. */
  endSession: command<(id: string) => Promise<void>>('session'),
  /** Ends every session of the user but this browser's; resolves how many ended. */
  endOtherSessions: command<() => Promise<number>>('session'),
  /** Loads the countries: the cached list at once (refreshed in the background), else from the server. */
  loadCountries: command<() => Promise<Country[]>>('countries'),

  // Conversations and messages.
  /** Fetches the chats list from the server again (the socket keeps it live otherwise). */
  refreshConversations: command<() => Promise<void>>('chats'),
  /**
   * Loads the latest page, marks the chat read (spec §4) and sends the read receipt for its last message;
   * resolves null. With `{ atUnread: true }` a chat with unread messages opens around the first of them and
   * resolves where that is and how many were unread (null when none were). Shown in a tab that `readsAsSeen`
   * (the app's), a chat with unread messages is not read by opening: the messages its reader sees are
   * (`markVisible`; docs/ui.md, "Opening at the first unread message").
   */
  openConversation: command<(conversationId: number, options?: OpenOptions) => Promise<FirstUnread | null>>('chats'),
  /**
   * Opens the chat at a message (a search hit, issue 13): unless the window holds it, the page around it
   * becomes the window (IndexedDB first, else the server), however far back it is; pages then load around
   * the reader as in any chat, newer ones by the reference server's `After` (docs/server.md) until the
   * window joins the latest message (`hasNewer` is true until then; `loadLatestMessages` jumps there). The
   * chat counts as opened (read, spec §4). Ids that are not positive integers reject with 'Invalid
   * parameters provided'.
   */
  openConversationAt: command<(conversationId: number, messageId: number) => Promise<void>>('chats'),
  /**
   * "Go to date" (issue 24): the first message of a day (`'2026-03-03'`, in this browser's time zone) or, when
   * that day has none, of the next day that has one; null when no message came on or after it. Open it as a
   * search hit, with `openConversationAt`. Asks the server (its `Since`, docs/server.md); a day that is not
   * a calendar date rejects with 'Invalid parameters provided'.
   */
  findMessageAtDate: command<(conversationId: number, day: string) => Promise<number | null>>('chats'),
  /**
   * Loads the next older page (20); resolves false when there is none. A prefetch of that page already on
   * its way (see `setViewport`) is shared, not asked for twice.
   */
  loadOlderMessages: command<(conversationId: number) => Promise<boolean>>('chats'),
  /**
   * Where this tab's reader is in a chat: the oldest and newest message ids on screen, or null once the chat
   * is closed (issue 11). The engine keeps about five pages (100 messages) loaded beyond both edges of every
   * tab's viewport, 20 a request, from IndexedDB first (pages it trimmed before) and then the server, and
   * trims the window's messages more than 200 beyond them (in whole pages), so memory stays bounded however
   * far the reader goes. Trimmed at its newer end, the window's `hasNewer` is true and live messages wait
   * until the reader comes back down, or `loadLatestMessages`.
   */
  setViewport: fire<(tabId: string, conversationId: number, viewport: MessageViewport | null) => void>('chats'),
  /** Makes the latest page the window again (Jump to latest after the window was trimmed at its newer end). */
  loadLatestMessages: command<(conversationId: number) => Promise<void>>('chats'),
  /** The UI saw at least half of this message (spec §4): a read receipt is due once. */
  markVisible: fire<(conversationId: number, messageId: number) => void>('chats'),
  /** Queues a message in the outbox (pending at once); a file is uploaded first, with its progress shown. */
  sendMessage: command<(conversationId: number, input: SendInput) => Promise<OutboxEntry>>('engine'),
  /** Sends a failed outbox entry again. */
  retrySend: command<(localId: string) => Promise<void>>('outbox'),
  /** Removes a failed outbox entry without sending it. */
  discardSend: command<(localId: string) => Promise<void>>('outbox'),
  /** Changes the text of an own message (within 45 minutes, spec §4); every member sees it edited. */
  editMessage: command<(conversationId: number, messageId: number, text: string) => Promise<Message>>('chats'),
  /** Deletes messages for everybody (own ones, or any as a group admin; spec §4). */
  deleteMessages: command<(conversationId: number, messageIds: number[]) => Promise<WarningsAnswer>>('chats'),
  /** Hides messages for the signed-in user only. */
  hideMessages: command<(conversationId: number, messageIds: number[]) => Promise<WarningsAnswer>>('chats'),
  /** Adds (`on` true) or removes an emoji reaction to a message (at most 10 per user and message). */
  react: command<(conversationId: number, messageId: number, emoji: string, on: boolean) => Promise<Message>>('chats'),
  /**
   * Whether the signed-in user may edit a message: own, not a system message, within 45 minutes (spec §4).
   * Takes the message or its id (as loaded here: an unknown id is false); anything else rejects with 'Invalid
   * parameters provided'.
   */
  canEdit: command<(message: Message | number) => Promise<boolean>>('chats'),
  /** The message the Up arrow edits in an empty input: the latest own editable one, or null. */
  editTarget: command<(conversationId: number) => Promise<number | null>>('chats'),
  /**
   * Mutes a chat for the signed-in user ('8h', '1w', 'forever', or any server type), or unmutes it, in the
   * browser's time zone. A muted chat gives no notification and no sound; its unread badge shows muted. The
   * chat's `member.mute` changes at once here and in every tab, and on the user's other devices by socket.
   */
  muteConversation: command<(conversationId: number, type: MuteType | 'unmute') => Promise<ConversationMute | null>>(
    'chats',
  ),
  /** How the server delivers a chat's messages to this user's devices (spec §7 delivery_settings). */
  setDeliverySettings: command<
    (conversationId: number, mode: DeliveryMode, intervalMinutes?: number) => Promise<DeliverySettings>
  >('chats'),

  // Communities, channels, posts and comments (spec §2 Communities screens, §6 rules enforced by the server).
  // Ids must be positive integers, else the call rejects with 'Invalid parameters provided' (spec §5).
  /** Loads the explore list: every community the user may see, joined or not. */
  refreshCommunities: command<() => Promise<Community[]>>('communities'),
  /** Searches by name or description; a blank query clears the search (spec §5) and resolves []. */
  searchCommunities: command<(query: string) => Promise<Community[]>>('communities'),
  /** Loads a community's details and channels; an unknown or hidden one rejects with "Community not found". */
  openCommunity: command<(communityId: number) => Promise<Community>>('communities'),
  /** Joins the community (and so its announcements channel). */
  joinCommunity: command<(communityId: number) => Promise<Community>>('communities'),
  /** Leaves the community and all its channels (community admins cannot). */
  leaveCommunity: command<(communityId: number) => Promise<Community>>('communities'),
  /** Loads a community's channels into `channels`. */
  loadChannels: command<(communityId: number) => Promise<Channel[]>>('communities'),
  /** One channel's details, by id or stid. */
  loadChannel: command<(channelId: number | string) => Promise<Channel>>('communities'),
  /** Joins a channel of a community the user is a member of. */
  joinChannel: command<(channelId: number) => Promise<Channel>>('communities'),
  /** Leaving the announcements channel is leaving the community (spec §4). */
  leaveChannel: command<(channelId: number) => Promise<Channel>>('communities'),
  /** Loads the latest page of posts (20). */
  loadPosts: command<(channelId: number) => Promise<void>>('communities'),
  /** Loads the next older page of posts; resolves false when there is none. */
  loadOlderPosts: command<(channelId: number) => Promise<boolean>>('communities'),
  /** Posts text and/or a file (uploaded first; the same rules as `sendMessage`). */
  createPost: command<(channelId: number, input: SendInput) => Promise<Message>>('communities'),
  /** Adds (`on` true) or removes an emoji reaction to a channel post. */
  reactToPost: command<(channelId: number, postId: number, emoji: string, on: boolean) => Promise<Message>>('communities'),
  /** Loads the latest page (50) of a post's comments, or of a comment's replies. */
  loadComments: command<(channelId: number, postId: number, parentCommentId?: number | null) => Promise<void>>(
    'communities',
  ),
  /** Loads the next older page of comments; resolves false when there is none. */
  loadOlderComments: command<(channelId: number, postId: number, parentCommentId?: number | null) => Promise<boolean>>(
    'communities',
  ),
  /**
   * Adds a comment (or a reply) through the outbox: it shows at once in the thread's `pending`, and is sent
   * exactly once (retried as messages are; a refused one is failed: `retrySend` or `discardSend`). Resolves
   * with the outbox entry; blank text rejects with 'Invalid message provided' (spec §5).
   */
  addComment: command<
    (channelId: number, postId: number, text: string, parentCommentId?: number | null) => Promise<OutboxEntry>
  >('communities'),
  /** Adds (`on` true) or removes an emoji reaction to a comment. */
  reactToComment: command<
    (channelId: number, postId: number, commentId: number, emoji: string, on: boolean) => Promise<Comment>
  >('communities'),

  // Settings and tabs.
  /** Stores (or, for blank text, removes) the draft of a conversation. */
  setDraft: command<(conversationId: number, text: string) => Promise<void>>('settings'),
  /** Stores the draft of a form (see `formDrafts`); null or a draft with nothing typed removes it. */
  setFormDraft: command<(key: string, draft: FormDraft | null) => Promise<void>>('formDrafts'),
  /** Chooses the app's language ('en' or 'sv') for every tab; kept across reloads. */
  setLanguage: command<(language: Language) => Promise<void>>('settings'),
  /** Changes some settings and resolves with all of them. */
  updateSettings: command<(patch: Partial<AppSettings>) => Promise<AppSettings>>('settings'),
  /** Chooses how much history this device keeps; a smaller choice trims what is kept at once. Anything else is refused ('Invalid parameters provided'). */
  setHistoryKept: command<(kept: HistoryKept) => Promise<void>>('engine'),
  /** Points the engine at another API or socket host (for development and tests). */
  setHostOverrides: command<(overrides: HostOverrides) => Promise<void>>('settings'),
  /** What this tab learnt of the browser's notification permission (the tab reports it by itself). */
  setNotificationPermission: fire<(permission: NotifyPermission) => void>('notifications'),
  /** Whether a tab is visible and focused, and which chat it shows (the tab reports it by itself). */
  setTabState: fire<(tabId: string, state: TabState) => void>('engine'),
  /** A tab is going away: the engine stops counting it (the tab reports it by itself on pagehide). */
  closeTab: fire<(tabId: string) => void>('engine'),

  // Exporting a chat (issue 24).
  /**
   * Writes a chat's history as one file: 'html' (readable, self-contained: no script, nothing loaded from
   * anywhere, attachments as links; the default) or 'json' (every field of spec §3, for scripts), from what
   * this 'device' keeps (the default) or the whole history from the 'server'. Resolves with the file as a
   * Blob and its name; runs in the engine's worker, its progress in `exportProgress`; a new export of the
   * same chat, or `cancelExport`, cancels it ('Export cancelled').
   */
  exportConversation: command<(conversationId: number, options?: ExportOptions) => Promise<ExportResult>>('exports'),
  /** The export of a chat under way or last ended: its phase and how many messages it has gathered; null before any. */
  exportProgress: query<(conversationId: number) => Observable<ExportProgress | null>>('exports'),
  /** Stops a chat's export under way; its promise rejects with 'Export cancelled'. */
  cancelExport: command<(conversationId: number) => Promise<void>>('exports'),

  /** Any REST call of spec §7 by name, e.g. `call('getCommunities', { onlyJoined: true })`. */
  call: command<CallMethod>('engine'),

  /**
   * The debug screen's engine crash test (spec §2): the engine throws an error that nothing catches, in its
   * own worker, so error reporting can be seen to work there (issue 9). It changes nothing else.
   */
  crashTest: fire<() => void>('engine'),
} as const satisfies Record<string, ApiEntry>;

type Table = typeof ENGINE_API;
/** Every name of the table. */
export type ApiName = keyof Table;
/** The names of the table of the given kinds (or areas). */
export type ApiNameOfKind<K extends ApiKind> = { [N in ApiName]: Table[N]['kind'] extends K ? N : never }[ApiName];
export type ApiNameOfArea<A extends ApiArea> = { [N in ApiName]: Table[N]['area'] extends A ? N : never }[ApiName];

/** The engine as the UI, the console and the tests call it: each line of the table as a method. */
export type EngineApi = { [N in keyof Table]: NonNullable<Table[N]['method']> };

/** The kind of a name of the table (undefined for any other string: names from a port are not trusted). */
export function apiKind(name: unknown): ApiKind | undefined {
  return typeof name === 'string' && Object.hasOwn(ENGINE_API, name) ? ENGINE_API[name as ApiName].kind : undefined;
}

/** The names of the table of the given kinds, in the table's order. */
export function apiNames<K extends ApiKind>(...kinds: K[]): ApiNameOfKind<K>[] {
  return (Object.keys(ENGINE_API) as ApiName[]).filter((name): name is ApiNameOfKind<K> =>
    (kinds as ApiKind[]).includes(ENGINE_API[name].kind),
  );
}

/** Whether a name is a query (state or event): it answers with an Observable, not a Promise. */
export const isApiQuery = (name: unknown): boolean => {
  const kind = apiKind(name);
  return kind === 'query' || kind === 'event';
};

/** The engine as one tab holds it (`window.engine`): EngineApi, plus what belongs to this tab only. */
export interface TabEngine extends EngineApi {
  /** This tab's id in the engine (for `notifications(tabId)`). */
  readonly tabId: string;
  /** How this browser shares the engine among its tabs: 'shared-worker', or 'leader-election' where there is none. */
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
  /**
   * Lists every query and command of this API with its arguments and what it does, as a console table, and
   * resolves with the list; `help('sendMessage')` prints one name's whole documentation. Read at build time
   * from this file's table and comments (scripts/engine-reference.ts), so it cannot drift from them.
   */
  help(name?: string): Promise<readonly ApiHelpEntry[]>;
}

import type { Observable } from 'rxjs';
import type { EngineApi } from '../engine/api';

/**
 * The EngineApi methods by kind, as runtime lists: what crosses a port is a name and plain arguments, and
 * a host only ever calls a method whose name is on one of these lists. The type checks below fail the
 * build when api.ts gains, loses or changes a method and these lists are not updated with it.
 */

export const QUERY_NAMES = [
  'session',
  'connection',
  'storageStatus',
  'conversations',
  'conversation',
  'messages',
  'receipts',
  'outbox',
  'settings',
  'removedConversations',
  'notifications',
  'drafts',
  'formDrafts',
  'language',
  'countries',
  'communities',
  'community',
  'channels',
  'channel',
  'posts',
  'comments',
  'searchMessages',
  'historyKept',
] as const;

/**
 * Queries that emit events (each value happens once) rather than the current state: every value must
 * reach the tab, none may be merged with the next or replayed to a later subscriber (streamSender.ts,
 * bridge.ts).
 */
export const EVENT_QUERIES: readonly QueryName[] = ['removedConversations', 'notifications'];

export const isEventQuery = (name: QueryName): boolean => EVENT_QUERIES.includes(name);

export const COMMAND_NAMES = [
  'requestPin',
  'confirmPin',
  'register',
  'updateProfile',
  'refreshProfile',
  'logout',
  'loadCountries',
  'refreshConversations',
  'openConversation',
  'openConversationAt',
  'loadOlderMessages',
  'setViewport',
  'loadLatestMessages',
  'markVisible',
  'sendMessage',
  'retrySend',
  'discardSend',
  'editMessage',
  'deleteMessages',
  'hideMessages',
  'react',
  'canEdit',
  'editTarget',
  'muteConversation',
  'setDeliverySettings',
  'refreshCommunities',
  'searchCommunities',
  'openCommunity',
  'joinCommunity',
  'leaveCommunity',
  'loadChannels',
  'loadChannel',
  'joinChannel',
  'leaveChannel',
  'loadPosts',
  'loadOlderPosts',
  'createPost',
  'reactToPost',
  'loadComments',
  'loadOlderComments',
  'addComment',
  'reactToComment',
  'setDraft',
  'setFormDraft',
  'setLanguage',
  'updateSettings',
  'setHistoryKept',
  'setHostOverrides',
  'setNotificationPermission',
  'setTabState',
  'closeTab',
  'call',
  'crashTest',
] as const;

/** Commands that return nothing: the tab fires them and does not wait (errors are logged). */
export const VOID_COMMANDS = ['markVisible', 'setViewport', 'setNotificationPermission', 'setTabState', 'closeTab', 'crashTest'] as const;

export type QueryName = (typeof QUERY_NAMES)[number];
export type CommandName = (typeof COMMAND_NAMES)[number];

type QueryKeys = {
  [K in keyof EngineApi]: EngineApi[K] extends (...args: never[]) => Observable<unknown> ? K : never;
}[keyof EngineApi];
type VoidKeys = {
  [K in keyof EngineApi]: EngineApi[K] extends (...args: never[]) => infer R ? ([R] extends [void] ? K : never) : never;
}[keyof EngineApi];

/** Compile-time equality of two unions: `true` only when each is assignable to the other. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const check = <T extends true>(): T | undefined => undefined;
check<Same<QueryName, QueryKeys>>();
check<Same<CommandName, Exclude<keyof EngineApi, QueryKeys>>>();
check<Same<(typeof VOID_COMMANDS)[number], Exclude<VoidKeys, QueryKeys>>>();

const queries: ReadonlySet<string> = new Set(QUERY_NAMES);
const commands: ReadonlySet<string> = new Set(COMMAND_NAMES);

export const isQueryName = (name: unknown): name is QueryName => typeof name === 'string' && queries.has(name);
export const isCommandName = (name: unknown): name is CommandName => typeof name === 'string' && commands.has(name);

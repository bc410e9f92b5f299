/** The engine's pure state: the reducer, its types and the selectors over it. */
export * from './types';
export { reduce } from './reduce';
export * from './conversationList';
export * from './messageWindow';
export { isUnread, unreadCount } from './unread';

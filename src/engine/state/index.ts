/** The engine's pure state: the reducer, its types and the selectors over it. */
export * from './types';
export { reduce } from './reduce';
export * from './conversationList';
export * from './messageWindow';
export { unreadCount } from './unread';
export { receiptSent, pruneSentReceipts } from './receipts';
export {
  allMessages,
  conversationMessages,
  findMessage,
  getMessage,
  indexMessages,
  windowMessages,
} from './messageStore';
export { createReceiptMarksSelector } from './receiptMarks';

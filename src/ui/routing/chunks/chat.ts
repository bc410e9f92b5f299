/** The chat view's chunk (/inbox/{id}): the open chat, its list, composer and comments. */
export { ChatView, InvalidChatView } from '../../chat/ChatView';

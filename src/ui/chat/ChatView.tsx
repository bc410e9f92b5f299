/** Placeholder: the chat helper replaces it with the header, message list and input (issue 4). */
export function ChatView({ conversationId }: { conversationId: number }) {
  return <section data-conversation-id={conversationId} />;
}

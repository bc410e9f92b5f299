import { useParams } from '@tanstack/react-router';
import { ChatView } from '../chat/ChatView';

/** Placeholder: the inbox helper replaces it with the icon menu, the left panel views and the chat panel. */
export function MainScreen() {
  const params = useParams({ strict: false });
  const id = Number(params.conversationId);
  return <main>{Number.isInteger(id) && id > 0 ? <ChatView conversationId={id} /> : null}</main>;
}

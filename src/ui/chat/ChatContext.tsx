import { createContext, type ReactNode, useContext, useMemo, useRef, useState } from 'react';
import type { Conversation, Message } from '../../protocol/entities';

/**
 * What the parts of one open chat share in this tab (design.md §3: tab state stays in the tab): the
 * message being replied to or edited, the media shown in the viewer, and a way to scroll to a message
 * (a reply's quote). The list registers the scroller; the composer, the action menu and the viewer read
 * and set the rest.
 */
export interface ChatUi {
  conversation: Conversation;
  selfId: number;
  replyTo: Message | null;
  setReplyTo(message: Message | null): void;
  editing: Message | null;
  setEditing(message: Message | null): void;
  media: Message | null;
  openMedia(message: Message | null): void;
  /** The channel post whose comment thread is open (an overlay over the chat, not a route: design.md §4). */
  thread: Message | null;
  openThread(post: Message | null): void;
  scrollToMessage(messageId: number): void;
  registerScroller(scroll: ((messageId: number) => void) | null): void;
}

const ChatUiContext = createContext<ChatUi | null>(null);

export function ChatUiProvider(props: { conversation: Conversation; selfId: number; children: ReactNode }) {
  const { conversation, selfId, children } = props;
  const [replyTo, setReplyToState] = useState<Message | null>(null);
  const [editing, setEditingState] = useState<Message | null>(null);
  const [media, openMedia] = useState<Message | null>(null);
  const [thread, openThread] = useState<Message | null>(null);
  const scroller = useRef<((messageId: number) => void) | null>(null);
  const value = useMemo<ChatUi>(
    () => ({
      conversation,
      selfId,
      replyTo,
      // Replying and editing exclude each other: starting one ends the other.
      setReplyTo: (message) => {
        setEditingState(null);
        setReplyToState(message);
      },
      editing,
      setEditing: (message) => {
        setReplyToState(null);
        setEditingState(message);
      },
      media,
      openMedia,
      thread,
      openThread,
      scrollToMessage: (messageId) => scroller.current?.(messageId),
      registerScroller: (scroll) => {
        scroller.current = scroll;
      },
    }),
    [conversation, selfId, replyTo, editing, media, thread],
  );
  return <ChatUiContext.Provider value={value}>{children}</ChatUiContext.Provider>;
}

export function useChatUi(): ChatUi {
  const ui = useContext(ChatUiContext);
  if (!ui) throw new Error('useChatUi outside ChatUiProvider');
  return ui;
}

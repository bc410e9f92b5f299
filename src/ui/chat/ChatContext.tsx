import { createContext, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Conversation, Message } from '../../protocol/entities';
import { sameForRows } from './rowConversation';

/**
 * What every message row of one open chat reads (issue 11: one render per change). Its value stays the same
 * object while messages arrive: the conversation is the one last seen until something besides its last
 * message and unread counts changes (a member, a name, a role), compared by content, as each snapshot
 * arrives from the engine as a new copy; the functions never change. A row therefore re-renders only when
 * its own props do.
 */
export interface ChatRowUi {
  /** The chat, except that a new last message or unread count does not make a new object here. */
  conversation: Conversation;
  selfId: number;
  setReplyTo(message: Message | null): void;
  setEditing(message: Message | null): void;
  openMedia(message: Message | null): void;
  /** Opens the comment thread of a channel post (an overlay over the chat, not a route: design.md §4). */
  openThread(post: Message | null): void;
  scrollToMessage(messageId: number): void;
  registerScroller(scroll: ((messageId: number) => void) | null): void;
  /**
   * Puts a send's text back into the input, ahead of what is typed there (a failed send's Edit); false when
   * the chat shows no input to take it.
   */
  takeBack(text: string): boolean;
  registerComposer(put: ((text: string) => void) | null): void;
  /**
   * The message was deleted for everybody (its row became the placeholder): a reply to it or an edit of it
   * under way ends, and its media viewer or comment thread closes, as nothing of it is left to act on.
   */
  messageDeleted(messageId: number): void;
}

/**
 * What the parts of one open chat share in this tab (design.md §3: tab state stays in the tab): the
 * message being replied to or edited, the media shown in the viewer, and a way to scroll to a message
 * (a reply's quote). The list registers the scroller; the composer, the action menu and the viewer read
 * and set the rest. Its `conversation` is the latest one.
 */
export interface ChatUi extends ChatRowUi {
  replyTo: Message | null;
  editing: Message | null;
  media: Message | null;
  /** The channel post whose comment thread is open. */
  thread: Message | null;
}

/**
 * The translation the rows of one open chat use, taken once for the chat (issue 24). react-i18next's
 * `useTranslation` copies the i18next instance and subscribes to it at every mount: with one call per row
 * and per part of a row, a burst of arriving messages spent a sixth of the tab's time there. A new language
 * makes a new value, and every row renders again in it.
 */
export interface ChatTexts {
  t: ReturnType<typeof useTranslation>['t'];
  language: string;
}

const ChatTextsContext = createContext<ChatTexts | null>(null);
const ChatUiContext = createContext<ChatUi | null>(null);
const ChatRowContext = createContext<ChatRowUi | null>(null);

export function ChatUiProvider(props: { conversation: Conversation; selfId: number; children: ReactNode }) {
  const { conversation, selfId, children } = props;
  const [replyTo, setReplyToState] = useState<Message | null>(null);
  const [editing, setEditingState] = useState<Message | null>(null);
  const [media, setMedia] = useState<Message | null>(null);
  const [thread, setThread] = useState<Message | null>(null);
  const scroller = useRef<((messageId: number) => void) | null>(null);
  const composer = useRef<((text: string) => void) | null>(null);
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const texts = useMemo<ChatTexts>(() => ({ t, language }), [t, language]);
  const shown = useRef(conversation);
  if (!sameForRows(shown.current, conversation)) shown.current = conversation;
  const rowConversation = shown.current;

  // Replying and editing exclude each other: starting one ends the other.
  const setReplyTo = useCallback((message: Message | null) => {
    setEditingState(null);
    setReplyToState(message);
  }, []);
  const setEditing = useCallback((message: Message | null) => {
    setReplyToState(null);
    setEditingState(message);
  }, []);
  const openMedia = useCallback((message: Message | null) => setMedia(message), []);
  const openThread = useCallback((post: Message | null) => setThread(post), []);
  const scrollToMessage = useCallback((messageId: number) => scroller.current?.(messageId), []);
  const messageDeleted = useCallback((messageId: number) => {
    const unless = (m: Message | null) => (m?.id === messageId ? null : m);
    setReplyToState(unless);
    setEditingState(unless);
    setMedia(unless);
    setThread(unless);
  }, []);
  const registerScroller = useCallback((scroll: ((messageId: number) => void) | null) => {
    scroller.current = scroll;
  }, []);
  const takeBack = useCallback((text: string) => {
    const put = composer.current;
    put?.(text);
    return put !== null;
  }, []);
  const registerComposer = useCallback((put: ((text: string) => void) | null) => {
    composer.current = put;
  }, []);

  const row = useMemo<ChatRowUi>(
    () => ({
      conversation: rowConversation,
      selfId,
      setReplyTo,
      setEditing,
      openMedia,
      openThread,
      scrollToMessage,
      registerScroller,
      takeBack,
      registerComposer,
      messageDeleted,
    }),
    [
      rowConversation,
      selfId,
      setReplyTo,
      setEditing,
      openMedia,
      openThread,
      scrollToMessage,
      registerScroller,
      takeBack,
      registerComposer,
      messageDeleted,
    ],
  );
  const value = useMemo<ChatUi>(
    () => ({ ...row, conversation, replyTo, editing, media, thread }),
    [row, conversation, replyTo, editing, media, thread],
  );
  return (
    <ChatTextsContext.Provider value={texts}>
      <ChatRowContext.Provider value={row}>
        <ChatUiContext.Provider value={value}>{children}</ChatUiContext.Provider>
      </ChatRowContext.Provider>
    </ChatTextsContext.Provider>
  );
}

export function useChatUi(): ChatUi {
  const ui = useContext(ChatUiContext);
  if (!ui) throw new Error('useChatUi outside ChatUiProvider');
  return ui;
}

/** The stable part of the chat's context, for message rows and what they hold (see ChatRowUi). */
export function useChatRow(): ChatRowUi {
  const ui = useContext(ChatRowContext);
  if (!ui) throw new Error('useChatRow outside ChatUiProvider');
  return ui;
}

/** The chat's translation and language, for message rows and what they hold (see ChatTexts). */
export function useChatTexts(): ChatTexts {
  const texts = useContext(ChatTextsContext);
  if (!texts) throw new Error('useChatTexts outside ChatUiProvider');
  return texts;
}

import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConversationListItem } from '../../engine/api';
import { isEngineError } from '../../engine/api';
import { useEngine } from '../hooks/EngineContext';
import { useQuery } from '../hooks/useQuery';
import { useSession } from '../hooks/useSession';
import { PATHS } from '../routing/paths';
import { ChatUiProvider } from './ChatContext';
import { CommentThread } from './comments/CommentThread';
import { Composer } from './composer/Composer';
import { ChatHeader } from './header/ChatHeader';
import { MessageList } from './list/MessageList';
import { MediaViewer } from './media/MediaViewer';
import './chat.css';

/**
 * The chat view (spec §2): header, the message list, the input and the media viewer of one conversation.
 * Opening it loads the latest page, marks the chat read and tells the engine this tab shows it.
 * `onOpenSettings` is given by the screen that has a chat settings panel; without it there is no button.
 */
export function ChatView({ conversationId, onOpenSettings }: { conversationId: number; onOpenSettings?: () => void }) {
  const { t } = useTranslation();
  const engine = useEngine();
  const session = useSession();
  const item = useQuery<ConversationListItem | null | undefined>(
    (e) => e.conversation(conversationId),
    [conversationId],
    undefined,
  );
  const [openError, setOpenError] = useState<string | null>(null);
  const [opened, setOpened] = useState(false);

  useEffect(() => {
    engine.setOpenConversation(conversationId);
    return () => engine.setOpenConversation(null);
  }, [engine, conversationId]);

  useEffect(() => {
    let live = true;
    setOpenError(null);
    setOpened(false);
    engine
      .openConversation(conversationId)
      .catch((error: unknown) => {
        if (live) setOpenError(isEngineError(error) ? error.message : t('chat.loadFailed'));
      })
      .finally(() => {
        if (live) setOpened(true);
      });
    return () => {
      live = false;
    };
  }, [engine, conversationId, t]);

  // Spec §8: a chat load error shows a retry that reloads /inbox.
  const reloadInbox = () => window.location.assign(PATHS.inbox);

  const selfId = session?.status === 'ready' ? session.userId : null;
  if (openError && !item) {
    return (
      <section className="chat-view chat-view-message" aria-label={t('chat.label')} data-chat-view="error">
        <p role="alert">{openError}</p>
        <button type="button" onClick={reloadInbox}>
          {t('chat.retry')}
        </button>
        <Link to={PATHS.inbox}>{t('chat.header.back')}</Link>
      </section>
    );
  }
  if (!item || selfId === null) {
    return (
      <section
        className="chat-view chat-view-message"
        aria-label={t('chat.label')}
        aria-busy={item === null && opened ? undefined : true}
        data-chat-view={item === null && opened ? 'not-found' : 'loading'}
      >
        <p>{item === null && opened ? t('chat.notFound') : t('chat.loading')}</p>
        <Link to={PATHS.inbox}>{t('chat.header.back')}</Link>
      </section>
    );
  }
  const conversation = item.conversation;
  return (
    <ChatUiProvider key={conversationId} conversation={conversation} selfId={selfId}>
      <section
        className="chat-view"
        aria-label={conversation.name || t('chat.unnamed')}
        data-conversation-id={conversationId}
        data-chat-view="chat"
      >
        <ChatHeader conversation={conversation} selfId={selfId} {...(onOpenSettings ? { onOpenSettings } : {})} />
        {openError ? (
          <div className="chat-list-error" role="alert">
            <span>{openError}</span>
            <button type="button" onClick={reloadInbox}>
              {t('chat.retry')}
            </button>
          </div>
        ) : null}
        <MessageList key={conversationId} conversationId={conversationId} />
        <Composer />
        <MediaViewer />
        <CommentThread />
      </section>
    </ChatUiProvider>
  );
}

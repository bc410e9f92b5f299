import { Link, useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConversationListItem } from '../../engine/api';
import { useEngine } from '../hooks/EngineContext';
import { errorText } from '../common/errorText';
import { useQuery } from '../hooks/useQuery';
import { messageParamOf } from '../inbox/messageHit';
import { useSession } from '../hooks/useSession';
import { PATHS } from '../routing/paths';
import { ChatUiProvider } from './ChatContext';
import { CommentThread } from './comments/CommentThread';
import { Composer } from './composer/Composer';
import { ChatHeader } from './header/ChatHeader';
import { MessageList, type OpenTarget } from './list/MessageList';
import { MediaViewer } from './media/MediaViewer';
import { asSentence } from './sentence';
import { useChatOpening } from './useChatOpening';
import './chat.css';

/**
 * The chat view (spec §2): header, the message list, the input and the media viewer of one conversation.
 * Opening it loads the latest page (or the first unread message's, where the list opens then: docs/ui.md) and
 * tells the engine this tab shows it; its reader's visible messages read it. A URL with
 * `?message=` (a search hit, issue 13) opens it at that message instead; each visit to such a URL (the same
 * hit chosen again too) opens it there afresh.
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
  useEffect(() => {
    engine.setOpenConversation(conversationId);
    return () => engine.setOpenConversation(null);
  }, [engine, conversationId]);

  const targetId = useRouterState({ select: (s) => messageParamOf(s.location.search) });
  const visit = useRouterState({ select: (s) => s.location.state.__TSR_key ?? '' });
  /** This opening: the latest (null), or the message of this visit. */
  const opening = targetId === null ? null : `${targetId}:${visit}`;
  const { failure: openFailure, offline, opened, settled, retry, firstUnread } = useChatOpening(conversationId, targetId, opening);

  const target: OpenTarget | null = targetId === null ? null : { messageId: targetId, settled: settled === opening };

  // Offline with the chat known is no error (docs/ui.md "Offline and installation"): what is cached shows, the
  // rest comes when the socket is back. A chat this device knows nothing of still says it cannot load.
  const waiting = offline && !!item;
  const failure = waiting ? null : openFailure;
  const selfId = session?.status === 'ready' ? session.userId : null;
  // Spec §8: a chat that is not the user's (any more) says so and offers the chats list: a retry cannot help.
  if ((failure?.notFound && !item) || (item === null && opened && !failure)) {
    return <ChatUnavailable state="not-found" title={t('chat.notFound')} detail={t('chat.notFoundHint')} />;
  }
  // Spec §8: a chat that cannot load at all says so, why, and offers a retry that reloads /inbox.
  if (failure && !item) {
    return <ChatUnavailable state="error" title={t('chat.loadFailed')} detail={errorText(failure.error, t)} retry />;
  }
  if (!item || selfId === null) {
    return (
      <section className="chat-view chat-view-message" aria-label={t('chat.label')} aria-busy data-chat-view="loading">
        <p role="status">{t('chat.loading')}</p>
        <Link to={PATHS.inbox} className="mx-button">
          {t('chat.header.back')}
        </Link>
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
        {failure ? (
          // The chat is known (the list has it) but its messages did not load.
          <div className="chat-list-error" role="alert" data-chat-error="open">
            <p className="chat-list-error__text">
              <strong>{asSentence(failure.notFound ? t('chat.notFound') : t('chat.loadFailed'))}</strong>{' '}
              <span>{asSentence(errorText(failure.error, t))}</span>
            </p>
            {failure.notFound ? (
              <Link to={PATHS.inbox} className="mx-button">
                {t('chat.header.back')}
              </Link>
            ) : (
              <button type="button" className="mx-button mx-button--primary" onClick={retry}>
                {t('chat.retry')}
              </button>
            )}
          </div>
        ) : null}
        <MessageList
          key={`${conversationId}:${opening ?? ''}`}
          conversationId={conversationId}
          latest={conversation.last_message}
          failed={failure !== null}
          offline={waiting}
          target={target}
          firstUnread={targetId === null ? firstUnread : null}
          hadUnread={targetId === null && item.unreadCount > 0}
        />
        <Composer />
        <MediaViewer />
        <CommentThread />
      </section>
    </ChatUiProvider>
  );
}

/** Spec §8: a chat load error's retry reloads /inbox (the whole app starts again there). */
const reloadInbox = () => window.location.assign(PATHS.inbox);

/**
 * The chat panel of `/inbox/{id}` when that id is no conversation id at all (`/inbox/abc`): spec §8
 * 'Invalid conversation ID provided', and the way back to the chats list.
 */
export function InvalidChatView() {
  const { t } = useTranslation();
  return <ChatUnavailable state="invalid" title={t('failures.invalidConversationId')} detail={null} />;
}

/** A chat that cannot be shown: what happened, why, and what the user can do (the chats list, or a retry). */
function ChatUnavailable(props: { state: 'not-found' | 'error' | 'invalid'; title: string; detail: string | null; retry?: boolean }) {
  const { state, title, detail, retry } = props;
  const { t } = useTranslation();
  return (
    <section className="chat-view chat-view-message" aria-label={t('chat.label')} data-chat-view={state}>
      <div className="chat-state" role="alert">
        <p className="chat-state__title">{title}</p>
        {detail ? <p className="chat-state__detail">{detail}</p> : null}
      </div>
      <div className="chat-state__actions">
        {retry ? (
          <button type="button" className="mx-button mx-button--primary" onClick={reloadInbox}>
            {t('chat.retry')}
          </button>
        ) : null}
        <Link to={PATHS.inbox} className={retry ? 'mx-button' : 'mx-button mx-button--primary'}>
          {t('chat.header.back')}
        </Link>
      </div>
    </section>
  );
}

import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CommentsView, MessageWindowView } from '../../../engine/api';
import type { Comment, Message } from '../../../protocol/entities';
import { errorText } from '../../common/errorText';
import { Modal } from '../../common/Modal';
import { useEngine } from '../../hooks/EngineContext';
import { useQuery } from '../../hooks/useQuery';
import { useChatUi } from '../ChatContext';
import { memberName } from '../message/eventText';
import { MessageText } from '../message/MessageText';
import { CommentComposer } from './CommentComposer';
import { CommentList } from './CommentList';
import { excerpt } from './threadText';
import './comments.css';
import { RowBoundary } from '../../common/RowBoundary';

/** The open post's comment thread, or nothing (spec §2 comment thread overlay). */
export function CommentThread() {
  const { thread, openThread } = useChatUi();
  if (!thread) return null;
  return <ThreadDialog key={thread.id} post={thread} onClose={() => openThread(null)} />;
}

const EMPTY: CommentsView = { comments: [], participants: {}, hasOlder: false, loaded: false, pending: [] };

/** A failed load keeps the engine's error, put into words when shown (so it follows the language). */
type Load = { status: 'loading' } | { status: 'loaded' } | { status: 'error'; error: unknown };

/**
 * A modal dialog named after the post: the post at the top, its comments (50 a page, older ones as the
 * reader scrolls up, virtualised), each with its author, time, reactions and replies, and an input at the
 * bottom. New comments and reactions arrive live (the engine reduces the socket's events). Escape or a
 * press outside closes it, and focus goes back to the control that opened it.
 */
function ThreadDialog({ post: opened, onClose }: { post: Message; onClose: () => void }) {
  const { t } = useTranslation();
  const engine = useEngine();
  const { conversation, selfId } = useChatUi();
  const channelId = conversation.id;
  const postId = opened.id;
  const titleId = useId();
  // The post as the engine has it now (its reactions and comment count change while the thread is open).
  const window = useQuery<MessageWindowView | null>((e) => e.messages(channelId), [channelId], null);
  const post = window?.messages.find((m) => m.id === postId) ?? opened;
  const view = useQuery<CommentsView>((e) => e.comments(channelId, postId), [channelId, postId], EMPTY);
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [replyTo, setReplyTo] = useState<Comment | null>(null);
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const requested = useRef(new Set<number>()).current;
  // Focus goes back to the post's comments control as it is when the thread closes (the list may have
  // rendered it anew, or scrolled it away: then to the message list itself).
  const returnFocus = useMemo(
    () => ({
      get current(): HTMLElement | null {
        return (
          document.querySelector<HTMLElement>(`[data-message-id="${postId}"] .msg-comments`) ??
          document.querySelector<HTMLElement>('[data-chat-view="chat"] [role="log"]')
        );
      },
    }),
    [postId],
  );

  useEffect(() => {
    let live = true;
    setLoad({ status: 'loading' });
    engine.loadComments(channelId, postId).then(
      () => live && setLoad({ status: 'loaded' }),
      (error: unknown) => live && setLoad({ status: 'error', error }),
    );
    return () => {
      live = false;
    };
  }, [engine, channelId, postId, attempt]);

  const author = memberName(conversation, post.user_id) ?? t('comments.someone');
  const label = post.message ? t('comments.dialog', { excerpt: excerpt(post.message) }) : t('comments.dialogNoText', { author });
  const toggleReplies = useCallback((commentId: number, open?: boolean) => {
    setExpanded((current) => {
      const next = new Set(current);
      if (open ?? !next.has(commentId)) next.add(commentId);
      else next.delete(commentId);
      return next;
    });
  }, []);
  const startReply = useCallback(
    (comment: Comment) => {
      setReplyTo(comment);
      toggleReplies(comment.comment_id, true);
      inputRef.current?.focus();
    },
    [toggleReplies],
  );
  const names = useMemo(() => view.participants, [view.participants]);

  return (
    <Modal
      label={label}
      onClose={onClose}
      className="thread"
      dialogClassName="thread-dialog"
      initialFocus={inputRef}
      returnFocus={returnFocus}
    >
      <header className="thread__header">
        <h2 className="thread__title" id={titleId}>
          {t('comments.title')}
        </h2>
        <button type="button" className="mx-icon-button" onClick={onClose} aria-label={t('comments.close')}>
          <span aria-hidden="true">×</span>
        </button>
      </header>
      <article className="thread__post" aria-label={t('comments.post', { author })}>
        <span className="thread__post-author">{author}</span>
        {post.message ? (
          <RowBoundary kind="post" resetKey={post}>
            <MessageText text={post.message} />
          </RowBoundary>
        ) : null}
      </article>
      {load.status === 'error' ? (
        <div className="thread__state" role="alert">
          <p>{errorText(load.error, t)}</p>
          <button type="button" className="mx-button" onClick={() => setAttempt((n) => n + 1)}>
            {t('comments.retry')}
          </button>
        </div>
      ) : null}
      {load.status !== 'error' || view.loaded ? (
        <CommentList
          channelId={channelId}
          postId={postId}
          view={view}
          loading={load.status === 'loading' && !view.loaded}
          participants={names}
          expanded={expanded}
          onToggleReplies={toggleReplies}
          onReply={startReply}
          requested={requested}
        />
      ) : null}
      {conversation.disable_comments ? (
        <p className="thread__state">{t('comments.disabled')}</p>
      ) : (
        <CommentComposer
          ref={inputRef}
          channelId={channelId}
          postId={postId}
          replyTo={replyTo}
          replyName={replyTo && replyTo.user_id !== selfId ? names[replyTo.user_id]?.name || t('comments.someone') : null}
          onCancelReply={() => setReplyTo(null)}
          onSent={() => setReplyTo(null)}
        />
      )}
    </Modal>
  );
}

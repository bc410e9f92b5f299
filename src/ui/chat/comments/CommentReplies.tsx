import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CommentsView } from '../../../engine/api';
import type { Comment } from '../../../protocol/entities';
import { errorText } from '../../common/errorText';
import { useEngine } from '../../hooks/EngineContext';
import { useQuery } from '../../hooks/useQuery';
import { CommentItem } from './CommentItem';
import { PendingComment } from './PendingComment';
import { RowBoundary } from '../../common/RowBoundary';

const EMPTY: CommentsView = { comments: [], participants: {}, hasOlder: false, loaded: false, pending: [] };
const noToggle = () => undefined;

/** A comment's replies (its own thread in the engine, live like the post's), with earlier ones on request. */
export function CommentReplies(props: {
  channelId: number;
  postId: number;
  parent: Comment;
  parentName: string;
  now: Date;
  onReply: (comment: Comment) => void;
  /** The comments whose replies this thread has asked the engine for already. */
  requested: Set<number>;
}) {
  const { channelId, postId, parent, parentName, now, onReply, requested } = props;
  const { t } = useTranslation();
  const engine = useEngine();
  const parentId = parent.comment_id;
  const view = useQuery<CommentsView>((e) => e.comments(channelId, postId, parentId), [channelId, postId, parentId], EMPTY);
  const [failure, setFailure] = useState<{ error: unknown } | null>(null);
  const [attempt, setAttempt] = useState(0);

  // Asked for once per open thread: a row scrolled out of the virtualised list and back keeps what it had
  // (older pages too); new replies come live. A retry asks again.
  useEffect(() => {
    if (requested.has(parentId) && attempt === 0) return;
    requested.add(parentId);
    let live = true;
    setFailure(null);
    engine.loadComments(channelId, postId, parentId).catch((error: unknown) => live && setFailure({ error }));
    return () => {
      live = false;
    };
  }, [engine, channelId, postId, parentId, attempt, requested]);

  const older = () => void engine.loadOlderComments(channelId, postId, parentId).catch((error: unknown) => setFailure({ error }));
  return (
    <section className="comment__replies" aria-label={t('comments.repliesOf', { name: parentName })}>
      {view.hasOlder ? (
        <button type="button" className="mx-button mx-button--link" onClick={older}>
          {t('comments.showOlder')}
        </button>
      ) : null}
      {!view.loaded && failure === null ? <p className="thread__state">{t('comments.loading')}</p> : null}
      {failure ? (
        <p className="comment__error" role="alert">
          {errorText(failure.error, t)}{' '}
          <button type="button" className="mx-button mx-button--link" onClick={() => setAttempt((n) => n + 1)}>
            {t('comments.retry')}
          </button>
        </p>
      ) : null}
      {view.comments.map((reply) => (
        <RowBoundary key={reply.comment_id} kind="comment" resetKey={reply}>
          <CommentItem
            channelId={channelId}
            postId={postId}
            comment={reply}
            participants={view.participants}
            now={now}
            expanded={false}
            onToggleReplies={noToggle}
            onReply={onReply}
            parent={parent}
            requested={requested}
          />
        </RowBoundary>
      ))}
      {view.pending.map((entry) => (
        <RowBoundary key={entry.localId} kind="comment" resetKey={entry}>
          <PendingComment entry={entry} />
        </RowBoundary>
      ))}
    </section>
  );
}

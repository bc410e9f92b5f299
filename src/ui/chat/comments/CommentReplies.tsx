import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CommentsView } from '../../../engine/api';
import type { Comment } from '../../../protocol/entities';
import { errorText } from '../../common/errorText';
import { useEngine } from '../../hooks/EngineContext';
import { useQuery } from '../../hooks/useQuery';
import { CommentItem } from './CommentItem';
import { PendingComment } from './PendingComment';

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
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  // Asked for once per open thread: a row scrolled out of the virtualised list and back keeps what it had
  // (older pages too); new replies come live. A retry asks again.
  useEffect(() => {
    if (requested.has(parentId) && attempt === 0) return;
    requested.add(parentId);
    let live = true;
    setError(null);
    engine.loadComments(channelId, postId, parentId).catch((e: unknown) => live && setError(errorText(e, t)));
    return () => {
      live = false;
    };
  }, [engine, channelId, postId, parentId, attempt, requested, t]);

  const older = () => void engine.loadOlderComments(channelId, postId, parentId).catch((e: unknown) => setError(errorText(e, t)));
  return (
    <section className="comment__replies" aria-label={t('comments.repliesOf', { name: parentName })}>
      {view.hasOlder ? (
        <button type="button" className="mx-button mx-button--link" onClick={older}>
          {t('comments.showOlder')}
        </button>
      ) : null}
      {!view.loaded && error === null ? <p className="thread__state">{t('comments.loading')}</p> : null}
      {error ? (
        <p className="comment__error" role="alert">
          {error}{' '}
          <button type="button" className="mx-button mx-button--link" onClick={() => setAttempt((n) => n + 1)}>
            {t('comments.retry')}
          </button>
        </p>
      ) : null}
      {view.comments.map((reply) => (
        <CommentItem
          key={reply.comment_id}
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
      ))}
      {view.pending.map((entry) => (
        <PendingComment key={entry.localId} entry={entry} />
      ))}
    </section>
  );
}

import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ParticipantsById } from '../../../engine/api';
import type { Comment } from '../../../protocol/entities';
import { Avatar } from '../../common/Avatar';
import { fromEpochSeconds } from '../../common/time';
import { useChatUi } from '../ChatContext';
import { MessageText } from '../message/MessageText';
import { fullTime, messageTime } from '../message/messageTime';
import { CommentReactions } from './CommentReactions';
import { CommentReplies } from './CommentReplies';

export interface CommentItemProps {
  channelId: number;
  postId: number;
  comment: Comment;
  /** Authors by user id (the thread's `participants`). */
  participants: ParticipantsById;
  now: Date;
  /** Replies are shown (top-level comments only). */
  expanded: boolean;
  onToggleReplies: (commentId: number) => void;
  /** Reply to this comment; a reply's Reply answers its top-level comment (one level of replies). */
  onReply: (comment: Comment) => void;
  /** The comment a reply belongs to; null for a top-level comment. */
  parent?: Comment | null;
  /** The comments whose replies the thread has asked for (CommentReplies). */
  requested: Set<number>;
}

/** One comment: author and avatar, text, time, reactions, Reply, and (top level) its replies. */
export const CommentItem = memo(function CommentItem(props: CommentItemProps) {
  const { channelId, postId, comment, participants, now, expanded, onToggleReplies, onReply, parent = null, requested } = props;
  const { t, i18n } = useTranslation();
  const { selfId } = useChatUi();
  const author = participants[comment.user_id];
  const own = comment.user_id === selfId;
  const name = author?.name || t('comments.someone');
  const shown = own ? t('comments.you') : name;
  const date = fromEpochSeconds(comment.created_at);
  const topLevel = parent === null;
  return (
    <article
      className={`comment${own ? ' comment--own' : ''}${topLevel ? '' : ' comment--reply'}`}
      aria-label={own ? t('comments.ownComment') : t('comments.commentBy', { name })}
      data-comment-id={comment.comment_id}
    >
      <Avatar id={comment.user_id} name={name} imageUrl={author?.avatar || null} size={topLevel ? 32 : 28} />
      <div className="comment__body">
        <div className="comment__bubble">
          <span className="comment__author">{shown}</span>
          <MessageText text={comment.message} />
          <span className="comment__meta">
            <time dateTime={date.toISOString()} title={fullTime(date, i18n.language)}>
              {messageTime(date, now, i18n.language, t)}
            </time>
          </span>
        </div>
        <div className="comment__actions">
          <CommentReactions channelId={channelId} postId={postId} comment={comment} />
          <button
            type="button"
            className="mx-button mx-button--link"
            onClick={() => onReply(parent ?? comment)}
            aria-label={own ? t('comments.replyToOwn') : t('comments.replyTo', { name })}
          >
            {t('comments.reply')}
          </button>
          {topLevel && comment.replies_count > 0 ? (
            <button
              type="button"
              className="mx-button mx-button--link"
              aria-expanded={expanded}
              onClick={() => onToggleReplies(comment.comment_id)}
            >
              {expanded ? t('comments.hideReplies') : t('comments.showReplies', { count: comment.replies_count })}
            </button>
          ) : null}
        </div>
        {topLevel && expanded ? (
          <CommentReplies
            channelId={channelId}
            postId={postId}
            parent={comment}
            parentName={shown}
            now={now}
            onReply={onReply}
            requested={requested}
          />
        ) : null}
      </div>
    </article>
  );
});

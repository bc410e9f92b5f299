import type { Message } from '../../../protocol/entities';
import { CommentIcon } from '../../common/icons';
import { useChatRow, useChatTexts } from '../ChatContext';
import { commentsLabel } from './threadText';

/** Under a channel post: its comment count, opening the comment thread (issue 8). */
export function CommentsButton({ post }: { post: Message }) {
  const { t } = useChatTexts();
  const { openThread } = useChatRow();
  const count = post.discussion?.comments_count ?? 0;
  return (
    <button type="button" className="msg-comments" onClick={() => openThread(post)} aria-haspopup="dialog">
      <CommentIcon /> {commentsLabel(count, t)}
    </button>
  );
}

import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Comment } from '../../../protocol/entities';
import { errorText } from '../../common/errorText';
import { AddReactionIcon } from '../../common/icons';
import { useEngine } from '../../hooks/EngineContext';
import { useChatUi } from '../ChatContext';
import { CommentReactionPicker } from './CommentReactionPicker';

/**
 * A comment's reactions with their counts, pressed where the user reacted (a press toggles), and a button
 * offering the 10 quick reactions (CommentReactionPicker). Who reacted is not shown: comments belong to
 * channels (spec §6).
 */
export function CommentReactions({ channelId, postId, comment }: { channelId: number; postId: number; comment: Comment }) {
  const { t } = useTranslation();
  const engine = useEngine();
  const { selfId } = useChatUi();
  const [open, setOpen] = useState(false);
  const [failure, setFailure] = useState<{ error: unknown } | null>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();

  const react = (emoji: string, on: boolean) => {
    setFailure(null);
    setOpen(false);
    engine.reactToComment(channelId, postId, comment.comment_id, emoji, on).catch((error: unknown) => setFailure({ error }));
  };
  const reactions = comment.reactions.filter((r) => r.users.length > 0);
  const mine = (emoji: string) => reactions.some((r) => r.reaction === emoji && r.users.some((u) => u.user_id === selfId));

  return (
    <div className="comment__reactions">
      {reactions.length > 0 ? (
        <ul className="reaction-list" aria-label={t('comments.reactions')}>
          {reactions.map((r) => {
            const pressed = mine(r.reaction);
            return (
              <li key={r.reaction}>
                <button
                  type="button"
                  className={`reaction-chip${pressed ? ' reaction-chip-on' : ''}`}
                  aria-pressed={pressed}
                  aria-label={t('comments.reactionToggle', { emoji: r.reaction, count: r.users.length })}
                  onClick={() => react(r.reaction, !pressed)}
                >
                  <span aria-hidden="true">{r.reaction}</span>
                  <span aria-hidden="true" className="reaction-count">
                    {r.users.length}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      ) : null}
      <button
        ref={buttonRef}
        type="button"
        className="comment__add-reaction"
        aria-label={t('comments.addReaction')}
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((v) => !v)}
      >
        <AddReactionIcon />
      </button>
      {open ? (
        <CommentReactionPicker id={menuId} anchor={buttonRef} mine={mine} onChoose={react} onClose={() => setOpen(false)} />
      ) : null}
      {failure ? (
        <p className="comment__error" role="alert">
          {errorText(failure.error, t)}
        </p>
      ) : null}
    </div>
  );
}

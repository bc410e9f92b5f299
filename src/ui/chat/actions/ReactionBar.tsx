import { useEffect, useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type { Message, Reaction } from '../../../protocol/entities';
import { useEngine } from '../../hooks/EngineContext';
import { useChatRow, useChatTexts } from '../ChatContext';
import { reactionUserNames, showsReactionUsers } from './actionRules';
import { errorText } from '../../common/errorText';
import './actions.css';

/** Spec §9: the tooltip shows after 300 ms of hover and hides 100 ms after the pointer leaves. */
export const TOOLTIP_SHOW_MS = 300;
export const TOOLTIP_HIDE_MS = 100;

/** A message's reactions with their counts (spec §6): pressed where the user reacted; a press toggles. */
export function ReactionBar({ message }: { message: Message }) {
  const { t } = useChatTexts();
  const [problem, setProblem] = useState<string | null>(null);
  const reactions = message.reactions.filter((r) => r.users.length > 0);
  if (reactions.length === 0 && !problem) return null;
  return (
    <div className="reaction-bar">
      {reactions.length > 0 ? (
        <ul className="reaction-list" aria-label={t('chatActions.reactions.label')}>
          {reactions.map((reaction) => (
            <li key={reaction.reaction}>
              <ReactionChip message={message} reaction={reaction} onError={setProblem} />
            </li>
          ))}
        </ul>
      ) : null}
      {problem ? (
        <p role="alert" className="action-error">
          {problem}
        </p>
      ) : null}
    </div>
  );
}

interface TipPlace {
  bottom: number;
  left?: number;
  right?: number;
}

/**
 * Above the chip, growing away from the nearer window edge, so a reaction on the right (own messages)
 * keeps its tooltip in view. Fixed in the body: the list's rows clip and transform their content.
 */
function placeTip(button: HTMLElement): TipPlace {
  const rect = button.getBoundingClientRect();
  const bottom = window.innerHeight - rect.top + 6;
  return rect.left + rect.width / 2 > window.innerWidth / 2
    ? { bottom, right: Math.max(8, window.innerWidth - rect.right) }
    : { bottom, left: Math.max(8, rect.left) };
}

function ReactionChip(props: { message: Message; reaction: Reaction; onError: (text: string | null) => void }) {
  const { message, reaction, onError } = props;
  const { t } = useChatTexts();
  const engine = useEngine();
  const { conversation, selfId } = useChatRow();
  const [tip, setTip] = useState<TipPlace | null>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const tipId = useId();
  const pressed = reaction.users.some((u) => u.user_id === selfId);
  const count = reaction.users.length;
  const names = showsReactionUsers(conversation)
    ? reactionUserNames(
        reaction.users.map((u) => u.user_id),
        conversation,
        selfId,
        { self: t('chatActions.reactions.you'), unknown: t('chatActions.reactions.unknownUser') },
      )
    : null;

  const later = (show: boolean) => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(
      () => setTip(show && buttonRef.current ? placeTip(buttonRef.current) : null),
      show ? TOOLTIP_SHOW_MS : TOOLTIP_HIDE_MS,
    );
  };
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);

  const toggle = () => {
    onError(null);
    engine
      .react(conversation.id, message.id, reaction.reaction, !pressed)
      .catch((error: unknown) => onError(errorText(error, t)));
  };

  const shown = tip !== null && names !== null;
  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        className={`reaction-chip${pressed ? ' reaction-chip-on' : ''}`}
        aria-pressed={pressed}
        aria-label={t('chatActions.reactions.count', { emoji: reaction.reaction, count })}
        aria-describedby={shown ? tipId : undefined}
        onClick={toggle}
        onMouseEnter={() => later(true)}
        onMouseLeave={() => later(false)}
        onFocus={() => later(true)}
        onBlur={() => later(false)}
      >
        <span aria-hidden="true">{reaction.reaction}</span>
        <span aria-hidden="true" className="reaction-count">
          {count}
        </span>
      </button>
      {shown
        ? createPortal(
            <span role="tooltip" id={tipId} className="reaction-tooltip" style={tip}>
              {t('chatActions.reactions.reactedBy', { emoji: reaction.reaction, names: names.join(', ') })}
            </span>,
            document.body,
          )
        : null}
    </>
  );
}

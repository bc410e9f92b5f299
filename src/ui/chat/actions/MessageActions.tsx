import { useId, useRef, useState } from 'react';
import { canDeleteForEverybody, canEdit, canHide } from '../../../engine/api';
import type { Message } from '../../../protocol/entities';
import { useEngine } from '../../hooks/EngineContext';
import { useChatRow, useChatTexts } from '../ChatContext';
import { ActionMenu, type MenuAction, type MenuChoices } from './ActionMenu';
import { canReply } from './actionRules';
import { DeleteDialog } from './DeleteDialog';
import { useRevealed, useTouchReveal } from './touchReveal';
import { errorText } from '../../common/errorText';
import './actions.css';

/**
 * The "Message actions" button of one message, its menu (spec §2, §6: reply, react, edit, delete, copy)
 * and the delete dialog. What is offered follows the rules the engine and the server apply. With a mouse the
 * button shows while the message is hovered; on a touch screen a tap on the message reveals it and a long
 * press opens the menu (touchReveal.ts); with the keyboard it shows as it takes the focus.
 */
export function MessageActions({ message, label }: { message: Message; label?: string }) {
  const { t } = useChatTexts();
  const engine = useEngine();
  const { conversation, selfId, setReplyTo, setEditing } = useChatRow();
  const [menu, setMenu] = useState<MenuChoices | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const conversationId = conversation.id;

  const everybody = canDeleteForEverybody(message, conversation, selfId);
  const forMe = canHide(message);
  const system = message.type === 'system';

  const open = () => {
    setProblem(null);
    setNotice(null);
    const own = message.user_id === selfId && !system;
    setMenu({
      reply: !system && canReply(conversation),
      edit: canEdit(message, selfId, Date.now()) ? 'enabled' : own ? 'tooOld' : 'hidden',
      delete: everybody || forMe,
      copy: message.message.trim() !== '',
      reacted: new Set(
        message.reactions.filter((r) => r.users.some((u) => u.user_id === selfId)).map((r) => r.reaction),
      ),
    });
  };

  useTouchReveal(rootRef, message.id, () => {
    if (!menu) open();
  });
  const revealed = useRevealed(message.id);

  const attempt = (work: Promise<unknown>) => work.catch((error: unknown) => setProblem(errorText(error, t)));

  const choose = (action: MenuAction) => {
    setMenu(null);
    switch (action.kind) {
      case 'reply':
        setReplyTo(message);
        break;
      case 'edit':
        setEditing(message);
        break;
      case 'delete':
        setDeleting(true);
        break;
      case 'copy':
        void navigator.clipboard
          .writeText(message.message)
          .then(() => setNotice(t('chatActions.menu.copied')))
          .catch(() => setProblem(t('chatActions.menu.copyFailed')));
        break;
      case 'react':
        void attempt(engine.react(conversationId, message.id, action.emoji, action.on));
        break;
    }
  };

  return (
    <div
      ref={rootRef}
      className={`message-actions${revealed ? ' message-actions-revealed' : ''}`}
      data-actions-for={message.id}
    >
      <button
        ref={buttonRef}
        type="button"
        className="message-actions-button"
        aria-label={label ?? t('chatActions.menu.open')}
        aria-haspopup="menu"
        aria-expanded={menu !== null}
        aria-controls={menu ? menuId : undefined}
        onClick={(event) => {
          event.stopPropagation();
          if (menu) setMenu(null);
          else open();
        }}
      >
        <span aria-hidden="true">⋯</span>
      </button>
      {menu ? (
        <ActionMenu id={menuId} anchor={buttonRef} choices={menu} onChoose={choose} onClose={() => setMenu(null)} />
      ) : null}
      {deleting ? (
        <DeleteDialog
          forEverybody={everybody ? () => engine.deleteMessages(conversationId, [message.id]) : null}
          forMe={forMe ? () => engine.hideMessages(conversationId, [message.id]) : null}
          returnFocus={buttonRef}
          onClose={() => setDeleting(false)}
        />
      ) : null}
      {problem ? (
        <p role="alert" className="action-error message-actions-problem">
          {problem}
          <button
            type="button"
            className="action-inline-close"
            aria-label={t('chatActions.composer.dismissError')}
            onClick={() => setProblem(null)}
          >
            <span aria-hidden="true">✕</span>
          </button>
        </p>
      ) : null}
      {notice ? (
        <span role="status" className="visually-hidden">
          {notice}
        </span>
      ) : null}
    </div>
  );
}

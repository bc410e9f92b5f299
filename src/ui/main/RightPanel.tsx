import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConversationListItem } from '../../engine/api';
import { AddMember } from '../chatSettings/AddMember';
import { ChatSettings } from '../chatSettings/ChatSettings';
import { MuteControl } from '../chatSettings/MuteControl';
import { memberId, otherMember } from '../chatSettings/rules';
import { UserProfile } from '../chatSettings/UserProfile';
import { useQuery } from '../hooks/useQuery';
import { useSession } from '../hooks/useSession';
import type { RightPanelView } from './rightPanel';
import './rightPanel.css';

/**
 * The right panel (spec §2): chat settings of a group, the other person's profile for a one-to-one chat, a
 * member's profile, or add member. Everything comes from the engine's conversation, so the panel follows
 * conversation_edit / add_user / removed_user events by itself. It closes with its close button and with
 * Escape; focus moves into it when it opens and back to the opener when it closes.
 */
export function RightPanel(props: {
  conversationId: number;
  view: RightPanelView;
  onView: (view: RightPanelView) => void;
  onClose: () => void;
  /** The user left or deleted the group: the selection clears (spec §4). */
  onGone: () => void;
}) {
  const { conversationId, view, onView, onClose, onGone } = props;
  const { t } = useTranslation();
  const session = useSession();
  const item = useQuery<ConversationListItem | null | undefined>((e) => e.conversation(conversationId), [conversationId], undefined);
  const root = useRef<HTMLElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const titleId = useId();
  const selfId = session?.status === 'ready' ? session.userId : null;
  const conversation = item?.conversation ?? null;

  // Focus moves into the panel when it opens, and goes back to what opened it when it closes.
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    heading.current?.focus();
    return () => {
      const focus = document.activeElement;
      if (opener?.isConnected && (!focus || focus === document.body || root.current?.contains(focus))) opener.focus();
    };
  }, []);

  // A new view (profile, add member, back) moves focus to its heading, as a new page would.
  useEffect(() => {
    heading.current?.focus();
  }, [view.kind]);

  // Escape closes the panel while focus is in it (or nowhere); dialogs and editors inside stop it first.
  const close = useRef(onClose);
  useEffect(() => {
    close.current = onClose;
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      if (document.querySelector('dialog[open]')) return;
      const target = event.target instanceof Node ? event.target : null;
      if (target === document.body || target === document.documentElement || (target && root.current?.contains(target))) {
        close.current();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  // The conversation went away (left, deleted, removed): nothing to show.
  useEffect(() => {
    if (item === null) close.current();
  }, [item]);

  const oneToOne = conversation !== null && !conversation.is_group;
  const profileMember =
    conversation && selfId !== null
      ? view.kind === 'profile'
        ? (conversation.users.find((u) => memberId(u) === view.userId) ?? null)
        : oneToOne && view.kind === 'chatSettings'
          ? otherMember(conversation, selfId)
          : null
      : null;

  // A member who is no longer in the group has no profile here: back to the settings.
  useEffect(() => {
    if (conversation && view.kind === 'profile' && !profileMember) onView({ kind: 'chatSettings' });
  }, [conversation, view.kind, profileMember, onView]);

  const title =
    view.kind === 'addMember'
      ? t('chatSettings.add.title')
      : view.kind === 'profile' || oneToOne
        ? t('chatSettings.profile.title')
        : t('chatSettings.title');
  const back = view.kind !== 'chatSettings' && !oneToOne;

  let body = null;
  if (conversation && selfId !== null) {
    if (view.kind === 'addMember') {
      body = <AddMember conversation={conversation} onAdded={() => onView({ kind: 'chatSettings' })} />;
    } else if (profileMember) {
      body = (
        <>
          <UserProfile
            key={memberId(profileMember)}
            conversation={conversation}
            member={profileMember}
            selfId={selfId}
            onRemoved={() => onView({ kind: 'chatSettings' })}
          />
          {/* A one-to-one chat's settings are the other person's profile, and muting the chat. */}
          {oneToOne ? <MuteControl conversationId={conversation.id} mute={conversation.member?.mute} /> : null}
        </>
      );
    } else if (conversation.is_group) {
      body = (
        <ChatSettings
          conversation={conversation}
          selfId={selfId}
          onOpenProfile={(userId) => onView({ kind: 'profile', userId })}
          onAddMember={() => onView({ kind: 'addMember' })}
          onGone={onGone}
        />
      );
    }
  }

  return (
    <aside ref={root} className="right-panel" aria-labelledby={titleId} data-right-panel={view.kind}>
      <header className="right-panel__header">
        {back ? (
          <button
            type="button"
            className="mx-icon-button"
            onClick={() => onView({ kind: 'chatSettings' })}
            aria-label={t('chatSettings.panel.back')}
          >
            <span aria-hidden="true">←</span>
          </button>
        ) : null}
        <h2 id={titleId} ref={heading} tabIndex={-1} className="right-panel__title">
          {title}
        </h2>
        <button type="button" className="mx-icon-button" onClick={onClose} aria-label={t('chatSettings.panel.close')}>
          <span aria-hidden="true">✕</span>
        </button>
      </header>
      <div className="right-panel__body">
        {body ?? (
          <p className="cs-muted" aria-busy="true">
            {t('chatSettings.loading')}
          </p>
        )}
      </div>
    </aside>
  );
}

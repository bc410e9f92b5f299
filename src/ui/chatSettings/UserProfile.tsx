import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { Conversation, ConversationUser } from '../../protocol/entities';
import { Avatar } from '../common/Avatar';
import { usePresenceText } from '../common/usePresence';
import { useEngine } from '../hooks/EngineContext';
import { ConfirmDialog } from '../common/ConfirmDialog';
import './chatSettings.css';
import { RoleBadge } from './MemberRow';
import { displayName, isBroadcast, memberId, memberImage, selfIsAdmin } from './rules';
import { useConfirmed } from './useConfirmed';

type Pending = 'promote' | 'demote' | 'remove';
type Role = 'admin' | 'broadcaster';

/**
 * The confirmation's texts. Promoting and demoting speak the role's own words, the button's verb
 * included: "Make Anna a broadcaster?" confirmed by "Make broadcaster" in a broadcast group (spec §6).
 */
function confirmTexts(pending: Pending, role: Role, name: string, t: TFunction) {
  if (pending === 'remove') {
    return {
      title: t('chatSettings.profile.remove.title', { name }),
      text: t('chatSettings.profile.remove.text', { name }),
      confirmLabel: t('chatSettings.profile.remove.confirm'),
    };
  }
  return {
    title: t(`chatSettings.profile.${pending}.${role}.title`, { name }),
    text: t(`chatSettings.profile.${pending}.${role}.text`, { name }),
    confirmLabel: t(`chatSettings.profile.${pending}.${role}.confirm`),
  };
}

/**
 * A member's profile (spec §2): avatar, nickname, number and badge; in a group, an admin can promote or
 * demote them and remove them (never themselves, spec §6), each after a confirmation. Errors show inline
 * with the server's message or the spec §8 fallback. `onRemoved` runs when the person was removed.
 */
export function UserProfile(props: {
  conversation: Conversation;
  member: ConversationUser;
  selfId: number;
  onRemoved: () => void;
}) {
  const { conversation, member, selfId, onRemoved } = props;
  const { t } = useTranslation();
  const engine = useEngine();
  const userId = memberId(member);
  const name = displayName(member) || t('chatSettings.unknownMember');
  const manage = conversation.is_group && userId !== selfId && selfIsAdmin(conversation, selfId);
  const role: Role = isBroadcast(conversation) ? 'broadcaster' : 'admin';
  const presence = usePresenceText(userId === selfId ? null : userId);

  const { pending, ask, dialog } = useConfirmed<Pending>(async (what) => {
    if (what === 'remove') {
      await engine.call('removeMember', conversation.id, userId);
      return onRemoved;
    }
    await engine.call('setAdmin', conversation.id, userId, what === 'promote');
  });

  return (
    <div className="cs-profile">
      <div className="cs-identity">
        <div className="cs-avatar">
          <Avatar id={userId} name={name} imageUrl={memberImage(member)} size={96} />
        </div>
        <h3 className="cs-name__text">{name}</h3>
        {member.user.phone_nr ? (
          <p className="cs-profile__phone">
            <span className="visually-hidden">{t('chatSettings.profile.phone')}: </span>
            {member.user.phone_nr}
          </p>
        ) : null}
        {presence ? (
          <p className="cs-profile__presence" data-presence={presence}>
            {presence}
          </p>
        ) : null}
        {conversation.is_group && member.is_admin ? <RoleBadge conversation={conversation} /> : null}
      </div>
      {manage ? (
        <div className="cs-actions">
          <button
            type="button"
            className="mx-button"
            onClick={() => ask(member.is_admin ? 'demote' : 'promote')}
          >
            {member.is_admin ? t(`chatSettings.profile.demote.${role}.button`) : t(`chatSettings.profile.promote.${role}.button`)}
          </button>
          <button
            type="button"
            className="mx-button mx-button--danger"
            onClick={() => ask('remove')}
          >
            {t('chatSettings.profile.remove.button')}
          </button>
        </div>
      ) : null}
      {pending ? (
        <ConfirmDialog
          {...confirmTexts(pending, role, name, t)}
          danger={pending === 'remove'}
          {...dialog}
        />
      ) : null}
    </div>
  );
}

import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Conversation, ConversationUser } from '../../protocol/entities';
import { Avatar } from '../common/Avatar';
import { useEngine } from '../hooks/EngineContext';
import { ConfirmDialog } from './Dialog';
import './chatSettings.css';
import { errorText } from './errors';
import { RoleBadge } from './MemberRow';
import { displayName, isBroadcast, memberId, memberImage, selfIsAdmin } from './rules';

type Pending = 'promote' | 'demote' | 'remove' | null;

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
  const [pending, setPending] = useState<Pending>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const userId = memberId(member);
  const name = displayName(member) || t('chatSettings.unknownMember');
  const manage = conversation.is_group && userId !== selfId && selfIsAdmin(conversation, selfId);
  const role = isBroadcast(conversation) ? 'broadcaster' : 'admin';

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      if (pending === 'remove') {
        await engine.call('removeMember', conversation.id, userId);
        setPending(null);
        onRemoved();
        return;
      }
      await engine.call('setAdmin', conversation.id, userId, pending === 'promote');
      setPending(null);
    } catch (failure) {
      setError(errorText(failure, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="cs-profile">
      <div className="cs-identity">
        <div className="cs-avatar">
          <Avatar id={userId} name={name} imageUrl={memberImage(member)} size={96} />
        </div>
        <h3 className="cs-name__text">{name}</h3>
        {member.user.phone_nr ? (
          <p className="cs-profile__phone">
            <span className="cs-hidden">{t('chatSettings.profile.phone')}: </span>
            {member.user.phone_nr}
          </p>
        ) : null}
        {conversation.is_group && member.is_admin ? <RoleBadge conversation={conversation} /> : null}
      </div>
      {manage ? (
        <div className="cs-actions">
          <button
            type="button"
            className="mx-button"
            onClick={() => {
              setError(null);
              setPending(member.is_admin ? 'demote' : 'promote');
            }}
          >
            {t(member.is_admin ? `chatSettings.profile.demote.${role}` : `chatSettings.profile.promote.${role}`)}
          </button>
          <button
            type="button"
            className="mx-button mx-button--danger"
            onClick={() => {
              setError(null);
              setPending('remove');
            }}
          >
            {t('chatSettings.profile.remove.button')}
          </button>
        </div>
      ) : null}
      {pending ? (
        <ConfirmDialog
          title={t(`chatSettings.profile.${pending}.title`, { name })}
          text={t(`chatSettings.profile.${pending}.text`, { name })}
          confirmLabel={t(`chatSettings.profile.${pending}.confirm`)}
          danger={pending === 'remove'}
          busy={busy}
          error={error}
          onConfirm={() => void confirm()}
          onCancel={() => setPending(null)}
        />
      ) : null}
    </div>
  );
}

import { useTranslation } from 'react-i18next';
import type { Conversation } from '../../protocol/entities';
import { useEngine } from '../hooks/EngineContext';
import { AvatarEditor } from './AvatarEditor';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { ExportChat } from './ExportChat';
import './chatSettings.css';
import { MemberRow } from './MemberRow';
import { MuteControl } from './MuteControl';
import { NameEditor } from './NameEditor';
import { selfIsAdmin, sortedMembers } from './rules';
import { useConfirmed } from './useConfirmed';

type Pending = 'exit' | 'delete';

/**
 * Chat settings of a group (spec §2): picture and name (admins change them), member count, mute, the members
 * with their badges, add member (anyone, unless only admins may invite), exit group, and delete group
 * (admins), the last two after a confirmation. `onGone` runs once the user left or deleted the group.
 */
export function ChatSettings(props: {
  conversation: Conversation;
  selfId: number;
  onOpenProfile: (userId: number) => void;
  onAddMember: () => void;
  onGone: () => void;
}) {
  const { conversation, selfId, onOpenProfile, onAddMember, onGone } = props;
  const { t } = useTranslation();
  const engine = useEngine();
  const admin = selfIsAdmin(conversation, selfId);
  const { pending, ask, dialog } = useConfirmed<Pending>(async (what) => {
    if (what === 'delete') await engine.call('deleteConversation', conversation.id);
    else await engine.call('leaveConversation', conversation.id, selfId);
    return onGone;
  });
  const canInvite = admin || conversation.settings?.all_invite !== '0';
  const name = conversation.name || t('chatSettings.unnamed');

  return (
    <div className="cs-settings">
      <div className="cs-identity">
        <AvatarEditor conversation={conversation} canEdit={admin} />
        <NameEditor key={conversation.id} conversation={conversation} canEdit={admin} />
        <p className="cs-muted">{t('chatSettings.memberCount', { count: conversation.member_count })}</p>
      </div>

      <MuteControl conversationId={conversation.id} mute={conversation.member?.mute} />

      <section className="cs-section" aria-labelledby={`cs-members-${conversation.id}`}>
        <div className="cs-section__head">
          <h3 id={`cs-members-${conversation.id}`} className="cs-section__title">
            {t('chatSettings.members')}
          </h3>
          {canInvite ? (
            <button type="button" className="mx-button" onClick={onAddMember}>
              <span aria-hidden="true">+ </span>
              {t('chatSettings.addMember')}
            </button>
          ) : null}
        </div>
        <ul className="cs-members">
          {sortedMembers(conversation, selfId).map((member) => (
            <MemberRow
              key={member.user.user_id ?? member.user.id}
              conversation={conversation}
              member={member}
              selfId={selfId}
              onOpen={onOpenProfile}
            />
          ))}
        </ul>
      </section>

      <ExportChat conversationId={conversation.id} />

      <div className="cs-actions">
        <button type="button" className="mx-button mx-button--danger" onClick={() => ask('exit')}>
          {t('chatSettings.exit.button')}
        </button>
        {admin ? (
          <button type="button" className="mx-button mx-button--danger" onClick={() => ask('delete')}>
            {t('chatSettings.delete.button')}
          </button>
        ) : null}
      </div>

      {pending ? (
        <ConfirmDialog
          title={t(pending === 'delete' ? 'chatSettings.delete.title' : 'chatSettings.exit.title')}
          text={t(pending === 'delete' ? 'chatSettings.delete.text' : 'chatSettings.exit.text', { name })}
          confirmLabel={t(pending === 'delete' ? 'chatSettings.delete.confirm' : 'chatSettings.exit.confirm')}
          {...dialog}
        />
      ) : null}
    </div>
  );
}

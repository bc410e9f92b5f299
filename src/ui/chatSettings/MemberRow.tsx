import { useTranslation } from 'react-i18next';
import type { Conversation, ConversationUser } from '../../protocol/entities';
import { Avatar } from '../common/Avatar';
import { displayName, isBroadcast, memberId, memberImage } from './rules';

/** The admin badge: "Broadcaster" in broadcast groups (spec §2, §6). */
export function RoleBadge({ conversation }: { conversation: Conversation }) {
  const { t } = useTranslation();
  return (
    <span className="cs-badge">{t(isBroadcast(conversation) ? 'chatSettings.broadcaster' : 'chatSettings.admin')}</span>
  );
}

/** One person of the members list: avatar, nickname, number and badge; it opens their profile. */
export function MemberRow(props: {
  conversation: Conversation;
  member: ConversationUser;
  selfId: number;
  onOpen: (userId: number) => void;
}) {
  const { conversation, member, selfId, onOpen } = props;
  const { t } = useTranslation();
  const id = memberId(member);
  const name = displayName(member) || t('chatSettings.unknownMember');
  const phone = member.user.nickname ? member.user.phone_nr : '';
  const self = id === selfId;
  // The parts are separate boxes on screen; hidden commas keep them from being read as one word.
  const comma = <span className="visually-hidden">, </span>;
  return (
    <li>
      <button type="button" className="cs-member" onClick={() => onOpen(id)} data-user-id={id}>
        <Avatar id={id} name={name} imageUrl={memberImage(member)} size={40} />
        <span className="cs-member__text">
          <span className="cs-member__name">
            {name}
            {self ? <span className="cs-muted"> ({t('chatSettings.you')})</span> : null}
          </span>
          {phone ? (
            <span className="cs-member__phone">
              {comma}
              {phone}
            </span>
          ) : null}
        </span>
        {member.is_admin ? (
          <>
            {comma}
            <RoleBadge conversation={conversation} />
          </>
        ) : null}
      </button>
    </li>
  );
}

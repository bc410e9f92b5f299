import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import type { Conversation } from '../../../protocol/entities';
import { conversationAvatarId } from '../../common/avatarId';
import { Avatar } from '../../common/Avatar';
import { InfoIcon } from '../../common/icons';
import { usePresenceText } from '../../common/usePresence';
import { channelInfoPath, PATHS } from '../../routing/paths';
import { GoToDate } from './GoToDate';

/** Channels and community feeds look alike: orange-red avatar, channel info instead of chat settings (spec §2, §9). */
export const isChannel = (c: Conversation) => c.group_type === 'channel' || c.group_type === 'feed';

export function conversationImage(c: Conversation): string | null {
  const meta = c.avatar?.meta ?? c.image?.meta;
  return meta && !meta.is_default ? meta.thumbnail || meta.url : null;
}

/** Back, avatar, name, a status line and (for chats that have them) the settings button. */
export function ChatHeader(props: { conversation: Conversation; selfId: number; onOpenSettings?: () => void }) {
  const { conversation, selfId, onOpenSettings } = props;
  const { t } = useTranslation();
  const navigate = useNavigate();
  const name = conversation.name || t('chat.unnamed');
  const channel = isChannel(conversation);
  // A one-to-one chat says whether the other person is online (issue 23), else their number.
  const presence = usePresenceText(otherPersonOf(conversation, selfId));
  return (
    <header className="chat-header">
      <button
        type="button"
        className="chat-icon-button"
        onClick={() => void navigate({ to: PATHS.inbox })}
        aria-label={t('chat.header.back')}
      >
        <span aria-hidden="true">←</span>
      </button>
      <Avatar id={conversationAvatarId(conversation, selfId)} name={name} imageUrl={conversationImage(conversation)} channel={channel} size={40} />
      <div className="chat-header-text">
        <h2 className="chat-title">{name}</h2>
        <p className="chat-status" data-presence={presence === null ? undefined : presence}>
          {presence ?? statusLine(conversation, selfId, t)}
        </p>
      </div>
      <GoToDate conversationId={conversation.id} />
      {channel && conversation.community_id !== null ? (
        // A channel's settings are its channel info (join, leave, mute), under its community.
        <button
          type="button"
          className="chat-icon-button"
          onClick={() => void navigate({ to: channelInfoPath(conversation.community_id as number, conversation.id) })}
          aria-label={t('chat.header.channelInfo')}
        >
          <InfoIcon />
        </button>
      ) : null}
      {onOpenSettings && !channel ? (
        <button type="button" className="chat-icon-button" onClick={onOpenSettings} aria-label={t('chat.header.settings')}>
          <span aria-hidden="true">⚙</span>
        </button>
      ) : null}
    </header>
  );
}

/** The other person of a one-to-one chat, or null for groups, channels and the demo chat. */
function otherPersonOf(c: Conversation, selfId: number): number | null {
  if (c.is_group || c.is_demo || isChannel(c)) return null;
  const other = c.users.find((u) => (u.user.user_id ?? u.user.id) !== selfId);
  return other ? (other.user.user_id ?? other.user.id) : null;
}

function statusLine(c: Conversation, selfId: number, t: (key: string, options?: Record<string, unknown>) => string): string {
  const members = t('chat.header.members', { count: c.member_count });
  if (c.is_demo) return t('chat.header.demo');
  const community = c.community_name;
  if (c.group_type === 'feed') {
    return community ? t('chat.header.announcementsOf', { community, members }) : t('chat.header.announcements', { members });
  }
  if (c.group_type === 'channel') {
    return community ? t('chat.header.channelOf', { community, members }) : t('chat.header.channel', { members });
  }
  if (c.settings?.reply_to === '1') return t('chat.header.broadcast', { members });
  if (c.is_group) return members;
  // A one-to-one chat: the other person's number, as a phone-number messenger shows it.
  const other = c.users.find((u) => (u.user.user_id ?? u.user.id) !== selfId);
  return other?.user.phone_nr || t('chat.header.oneToOne');
}

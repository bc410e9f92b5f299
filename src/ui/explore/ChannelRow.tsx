import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import type { Channel } from '../../protocol/entities';
import { Avatar } from '../common/Avatar';
import { InfoIcon } from '../common/icons';

/**
 * A channel in a community's details: a joined one opens in the chat view (`/inbox/{id}`, design.md §4),
 * another opens its channel info, where it is joined; a joined one also has a link to its info (leave).
 */
export function ChannelRow({ channel, communityId }: { channel: Channel; communityId: number }) {
  const { t } = useTranslation();
  const marks = [
    channel.is_community_announcements ? t('explore.channel.announcements') : null,
    channel.read_only ? t('explore.channel.readOnly') : null,
    channel.is_member ? t('explore.channel.joined') : t('explore.channel.notJoined'),
  ].filter(Boolean);
  const body = (
    <>
      <Avatar id={channel.id} name={channel.name} imageUrl={channel.logo?.thumbnail || channel.logo?.url || null} channel size={40} />
      <span className="channel-row__main">
        <span className="channel-row__name">{channel.name}</span>
        <span className="visually-hidden">, </span>
        <span className="channel-row__meta">{marks.join(' · ')}</span>
      </span>
    </>
  );
  const info = { communityId: String(communityId), channelId: String(channel.id) };
  return (
    <div className="channel-row" data-channel-id={channel.id}>
      {channel.is_member ? (
        <Link to="/inbox/$conversationId" params={{ conversationId: String(channel.id) }} className="channel-row__link">
          {body}
        </Link>
      ) : (
        <Link to="/explore/$communityId/channels/$channelId" params={info} className="channel-row__link">
          {body}
        </Link>
      )}
      {channel.is_member ? (
        <Link
          to="/explore/$communityId/channels/$channelId"
          params={info}
          className="mx-icon-button channel-row__info"
          aria-label={t('explore.channel.info', { name: channel.name })}
        >
          <InfoIcon />
        </Link>
      ) : null}
    </div>
  );
}

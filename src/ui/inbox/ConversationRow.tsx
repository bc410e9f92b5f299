import { Link } from '@tanstack/react-router';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { type ConversationListItem, isMuted } from '../../engine/api';
import { Avatar } from '../common/Avatar';
import { conversationAvatarId } from '../common/avatarId';
import { MutedIcon } from '../common/icons';
import { draftLine, previewText, rowTime } from './preview';

export const ROW_HEIGHT = 72;

/**
 * A conversation in the chats list: a link to /inbox/{id}; the open one is marked by the router
 * (aria-current). Its name is its visible text, with hidden commas and the unread count in words. A muted
 * chat shows a struck bell after its name and a grey unread badge (issue 9); `now` ends a timed mute. Unsent
 * text shows as "Draft: …" in place of the last message (issue 23), and does not move the row.
 */
export const ConversationRow = memo(function ConversationRow({
  item,
  now,
  selected,
  selfId,
  draft,
}: {
  item: ConversationListItem;
  now: Date;
  selected: boolean;
  selfId: number | null;
  draft?: string;
}) {
  const { t, i18n } = useTranslation();
  const c = item.conversation;
  const name = c.name || t('inbox.unnamed');
  const preview = previewText(item.preview, t);
  const unsent = draftLine(draft);
  const time = item.preview ? rowTime(item.preview.createdAt, now, i18n.language, t) : '';
  const image = c.avatar?.meta && !c.avatar.meta.is_default ? c.avatar.meta.thumbnail || c.avatar.meta.url : null;
  const unread = item.unreadCount > 0 ? t('inbox.unreadCount', { count: item.unreadCount }) : '';
  // A conversation cached before mutes were part of it has no `member.mute`.
  const muted = isMuted(c.member?.mute, now.getTime());
  return (
    <Link
      to="/inbox/$conversationId"
      params={{ conversationId: String(c.id) }}
      className={`inbox-row${selected ? ' inbox-row--selected' : ''}${item.isUnread ? ' inbox-row--unread' : ''}`}
      activeOptions={{ exact: true }}
      data-conversation-id={c.id}
    >
      <Avatar id={conversationAvatarId(c, selfId)} name={name} imageUrl={image} channel={c.group_type === 'channel' || c.group_type === 'feed'} size={48} />
      <span className="inbox-row__main">
        <span className="inbox-row__top">
          <span className="inbox-row__name">{name}</span>
          {muted ? (
            <span className="inbox-row__muted" data-testid="muted-icon">
              <MutedIcon />
              <span className="visually-hidden">, {t('inbox.muted')}</span>
            </span>
          ) : null}
          {c.community_name ? (
            // Two communities' announcements channels share a name: the community tells them apart.
            <span className="inbox-row__community">
              <span className="visually-hidden">, </span>
              {c.community_name}
            </span>
          ) : null}
          {time ? <span className="visually-hidden">, </span> : null}
          <span className="inbox-row__time">{time}</span>
        </span>
        <span className="inbox-row__bottom">
          <span className="visually-hidden">, </span>
          {unsent ? (
            <span className="inbox-row__preview" data-testid="row-draft">
              <span className="inbox-row__draft">{t('inbox.draft')}</span> {unsent}
            </span>
          ) : (
            <span className="inbox-row__preview">{preview}</span>
          )}
          {item.unreadCount > 0 ? (
            <>
              <span
                className={`inbox-row__badge${muted ? ' inbox-row__badge--muted' : ''}`}
                data-testid="unread-badge"
                aria-hidden="true"
              >
                {item.unreadCount > 99 ? '99+' : item.unreadCount}
              </span>
              <span className="visually-hidden">, {unread}</span>
            </>
          ) : null}
        </span>
      </span>
    </Link>
  );
});

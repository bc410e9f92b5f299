import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import type { Community } from '../../protocol/entities';
import { Avatar } from '../common/Avatar';

/** A community in the explore list: a link to its details, named by its name (the rest is description). */
export function CommunityRow({ community }: { community: Community }) {
  const { t } = useTranslation();
  const meta = [
    t('explore.members', { count: community.members_count }),
    community.is_member ? t('explore.joined') : null,
    community.is_private ? t('explore.private') : null,
  ].filter(Boolean);
  return (
    <Link
      to="/explore/$communityId"
      params={{ communityId: String(community.id) }}
      className="community-row"
      data-community-id={community.id}
    >
      <Avatar id={community.id} name={community.name} imageUrl={community.avatar_thumbnail_url || null} size={48} />
      <span className="community-row__main">
        <span className="community-row__name">{community.name}</span>
        <span className="visually-hidden">, </span>
        <span className="community-row__meta">{meta.join(' · ')}</span>
        {community.description ? (
          <>
            <span className="visually-hidden">, </span>
            <span className="community-row__description">{community.description}</span>
          </>
        ) : null}
      </span>
    </Link>
  );
}

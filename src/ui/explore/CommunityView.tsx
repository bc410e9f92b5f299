import { Link } from '@tanstack/react-router';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ChannelsView, isEngineError } from '../../engine/api';
import type { Community } from '../../protocol/entities';
import { Avatar } from '../common/Avatar';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { errorText } from '../common/errorText';
import { LoadNotice } from './LoadNotice';
import { LinkedText } from '../common/LinkedText';
import { PanelHeader } from '../common/PanelHeader';
import { useEngine } from '../hooks/EngineContext';
import { useQuery } from '../hooks/useQuery';
import { PATHS } from '../routing/paths';
import { ChannelRow } from './ChannelRow';
import { orderChannels } from './channels';
import './explore.css';

type Load = { status: 'loading' } | { status: 'loaded' } | { status: 'error'; error: unknown };

/** An unknown community, one the user may not see (private, another country), or a bad id in the URL. */
const isNotFound = (error: unknown) => isEngineError(error) && (error.status === 404 || error.status === 403 || error.status === 400);

/**
 * Community details (spec §2), at `/explore/{communityId}`: avatar, name, description, members, its
 * channels (announcements first), Join for non-members and Leave for members who may leave (community
 * admins may not). An unknown or hidden id says "Community not found" with a way back to `/explore`.
 */
export function CommunityView({ communityId }: { communityId: number | null }) {
  if (communityId === null) return <NotFound />;
  return <CommunityDetails key={communityId} communityId={communityId} />;
}

function CommunityDetails({ communityId }: { communityId: number }) {
  const { t } = useTranslation();
  const engine = useEngine();
  const titleId = useId();
  const community = useQuery<Community | null>((e) => e.community(communityId), [communityId], null);
  const channels = useQuery<ChannelsView | null>((e) => e.channels(communityId), [communityId], null);
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    setLoad({ status: 'loading' });
    engine.openCommunity(communityId).then(
      () => live && setLoad({ status: 'loaded' }),
      (error: unknown) => live && setLoad({ status: 'error', error }),
    );
    return () => {
      live = false;
    };
  }, [engine, communityId, attempt]);

  if (load.status === 'error' && isNotFound(load.error)) return <NotFound />;
  if (!community) {
    return (
      <section className="explore" aria-labelledby={titleId} aria-busy={load.status === 'loading' || undefined}>
        <PanelHeader title={t('explore.title')} back={PATHS.explore} titleId={titleId} />
        <div className="explore__state" role={load.status === 'error' ? 'alert' : 'status'}>
          {load.status === 'error' ? (
            <>
              <p>{errorText(load.error, t)}</p>
              <button type="button" className="mx-button" onClick={() => setAttempt((n) => n + 1)}>
                {t('explore.retry')}
              </button>
            </>
          ) : (
            t('explore.community.loading')
          )}
        </div>
      </section>
    );
  }

  return (
    <section className="explore community" aria-labelledby={titleId} data-community-id={communityId}>
      <PanelHeader title={community.name} back={PATHS.explore} titleId={titleId} />
      <div className="explore__body">
        {load.status === 'error' ? <LoadNotice error={load.error} onRetry={() => setAttempt((n) => n + 1)} /> : null}
        <CommunityCard community={community} />
        <section className="community__channels" aria-labelledby={`${titleId}-channels`}>
          <h2 id={`${titleId}-channels`} className="explore__section-title">
            {t('explore.community.channels')}
          </h2>
          {channels === null || !channels.loaded ? (
            <p className="explore__state" role="status">
              {t('explore.community.channelsLoading')}
            </p>
          ) : channels.channels.length === 0 ? (
            <p className="explore__state">{t('explore.community.noChannels')}</p>
          ) : (
            <ul className="explore__list">
              {orderChannels(channels.channels).map((channel) => (
                <li key={channel.id}>
                  <ChannelRow channel={channel} communityId={communityId} />
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </section>
  );
}

/** The community itself: picture, name, description, members, and Join or Leave. */
function CommunityCard({ community }: { community: Community }) {
  const { t } = useTranslation();
  const engine = useEngine();
  const [busy, setBusy] = useState(false);
  // Errors as the engine gave them, put into words when shown (they follow the language).
  const [failure, setFailure] = useState<{ error: unknown } | null>(null);
  const [leaving, setLeaving] = useState<{ busy: boolean; failure: { error: unknown } | null } | null>(null);
  const admin = community.member?.is_admin === true;

  const join = () => {
    setBusy(true);
    setFailure(null);
    engine
      .joinCommunity(community.id)
      .catch((error: unknown) => setFailure({ error }))
      .finally(() => setBusy(false));
  };
  const leave = () => {
    setLeaving({ busy: true, failure: null });
    engine.leaveCommunity(community.id).then(
      () => setLeaving(null),
      (error: unknown) => setLeaving({ busy: false, failure: { error } }),
    );
  };

  return (
    <div className="community__card">
      <Avatar id={community.id} name={community.name} imageUrl={community.avatar_thumbnail_url || community.avatar?.url || null} size={72} />
      <p className="community__name">{community.name}</p>
      {community.description ? <LinkedText text={community.description} className="community__description" /> : null}
      <p className="community__meta">
        {[
          t('explore.members', { count: community.members_count }),
          community.is_member ? t('explore.joined') : null,
          community.is_private ? t('explore.private') : null,
        ]
          .filter(Boolean)
          .join(' · ')}
      </p>
      {!community.is_member ? (
        <button type="button" className="mx-button mx-button--primary" onClick={join} disabled={busy} aria-busy={busy || undefined}>
          {busy ? t('explore.community.joining') : t('explore.community.join')}
        </button>
      ) : admin ? (
        <p className="community__note">{t('explore.community.adminNote')}</p>
      ) : (
        <button type="button" className="mx-button mx-button--danger" onClick={() => setLeaving({ busy: false, failure: null })}>
          {t('explore.community.leave')}
        </button>
      )}
      {failure ? (
        <p className="explore__error" role="alert">
          {errorText(failure.error, t)}
        </p>
      ) : null}
      {leaving ? (
        <ConfirmDialog
          title={t('explore.community.leaveTitle', { name: community.name })}
          text={t('explore.community.leaveText')}
          confirmLabel={t('explore.community.leaveConfirm')}
          busy={leaving.busy}
          error={leaving.failure ? errorText(leaving.failure.error, t) : null}
          onConfirm={leave}
          onCancel={() => setLeaving(null)}
        />
      ) : null}
    </div>
  );
}

/** Spec §2: "Community not found" with a Go Back action (to the explore list). */
function NotFound() {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <section className="explore" aria-labelledby={titleId} data-community-state="not-found">
      <PanelHeader title={t('explore.title')} back={PATHS.explore} titleId={titleId} />
      <div className="explore__state" role="alert">
        <p className="explore__not-found">
          {t('explore.community.notFound')}
        </p>
        <p>{t('explore.community.notFoundHint')}</p>
        <Link to={PATHS.explore} className="mx-button">
          {t('explore.community.goBack')}
        </Link>
      </div>
    </section>
  );
}

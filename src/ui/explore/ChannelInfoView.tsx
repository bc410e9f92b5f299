import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Channel, Community } from '../../protocol/entities';
import type { ConversationListItem } from '../../engine/api';
import { MuteControl } from '../chatSettings/MuteControl';
import { Avatar } from '../common/Avatar';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { errorText } from '../common/errorText';
import { ChannelJoin } from './ChannelJoin';
import { LoadNotice } from './LoadNotice';
import { LinkedText } from '../common/LinkedText';
import { PanelHeader } from '../common/PanelHeader';
import { useEngine } from '../hooks/EngineContext';
import { useQuery } from '../hooks/useQuery';
import { channelInfoPath, communityPath, PATHS } from '../routing/paths';
import './explore.css';

/** Errors are kept as the engine gave them and put into words when shown, so they follow the language. */
type Load = { status: 'loading' } | { status: 'loaded' } | { status: 'error'; error: unknown };
type Failure = { error: unknown } | null;

/**
 * Channel info / join channel (spec §2), at `/explore/{communityId}/channels/{channelId}`: name, description,
 * who may post, and Join (ChannelJoin: Join community first for an outsider) or, for a joined channel, Open and
 * Leave, and mute; leaving the announcements channel leaves the community, and its confirmation says so (spec §4).
 * Spec §8's states: a channel part of the URL that is no channel id is "No channel selected", a community
 * part that is no id "Community ID not available", as is a channel the server describes without its
 * community (the engine refuses it); a channel answered without its details is "No channel data available".
 */
export function ChannelInfoView({ communityId, channelId }: { communityId: number | null; channelId: number | null }) {
  const { t } = useTranslation();
  const titleId = useId();
  if (communityId === null || channelId === null) {
    return (
      <section className="explore" aria-labelledby={titleId}>
        <PanelHeader title={t('explore.title')} back={communityId === null ? PATHS.explore : communityPath(communityId)} titleId={titleId} />
        <p className="explore__state" role="alert">
          {communityId === null ? t('failures.communityIdMissing') : t('failures.noChannelSelected')}
        </p>
      </section>
    );
  }
  return <ChannelInfo key={channelId} communityId={communityId} channelId={channelId} />;
}

function ChannelInfo({ communityId, channelId }: { communityId: number; channelId: number }) {
  const { t } = useTranslation();
  const engine = useEngine();
  const navigate = useNavigate();
  const titleId = useId();
  const channel = useQuery<Channel | null>((e) => e.channel(channelId), [channelId], null);
  const community = useQuery<Community | null>((e) => e.community(communityId), [communityId], null);
  // A joined channel is a chat of the user's too: its mute is the chat's (issue 9).
  const chat = useQuery<ConversationListItem | null>((e) => e.conversation(channelId), [channelId], null);
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [communitySettled, setCommunitySettled] = useState(false);
  const [leaving, setLeaving] = useState<{ busy: boolean; failure: Failure } | null>(null);

  useEffect(() => {
    let live = true;
    setLoad({ status: 'loading' });
    engine.loadChannel(channelId).then(
      () => live && setLoad({ status: 'loaded' }),
      (error: unknown) => live && setLoad({ status: 'error', error }),
    );
    return () => {
      live = false;
    };
  }, [engine, channelId, attempt]);
  // The community too (a deep link with nothing cached): its name, and whether the user belongs to it.
  useEffect(() => {
    let live = true;
    void engine
      .openCommunity(communityId)
      .catch(() => undefined)
      .finally(() => live && setCommunitySettled(true));
    return () => {
      live = false;
    };
  }, [engine, communityId]);

  // A channel of another community than the URL says: its info is under its own community.
  const elsewhere = load.status === 'loaded' && channel && channel.community_id !== communityId ? channel.community_id : null;
  useEffect(() => {
    if (elsewhere !== null) void navigate({ to: channelInfoPath(elsewhere, channelId), replace: true });
  }, [elsewhere, channelId, navigate]);

  const back = communityPath(communityId);
  if (!channel || channel.community_id !== communityId) {
    const failed = load.status === 'error';
    return (
      <section className="explore" aria-labelledby={titleId} aria-busy={!failed || undefined}>
        <PanelHeader title={t('explore.title')} back={back} titleId={titleId} />
        <div className="explore__state" role={failed ? 'alert' : 'status'}>
          {failed ? (
            <>
              <p>{errorText(load.error, t)}</p>
              <button type="button" className="mx-button" onClick={() => setAttempt((n) => n + 1)}>
                {t('explore.retry')}
              </button>
            </>
          ) : (
            t('explore.channel.loading')
          )}
        </div>
      </section>
    );
  }

  const leave = () => {
    setLeaving({ busy: true, failure: null });
    engine.leaveChannel(channel.id).then(
      () => {
        setLeaving(null);
        // Leaving the announcements channel left the community: its details say so (with Join).
        if (channel.is_community_announcements) void navigate({ to: back });
      },
      (error: unknown) => setLeaving({ busy: false, failure: { error } }),
    );
  };
  const communityName = community?.name ?? '';
  // Community admins cannot leave their community, which the announcements channel would mean (spec §6).
  const mayLeave = !(channel.is_community_announcements && community?.member?.is_admin === true);

  return (
    <section className="explore channel-info" aria-labelledby={titleId} data-channel-id={channel.id}>
      <PanelHeader title={channel.name} back={back} titleId={titleId} />
      <div className="explore__body">
        {/* The channel as known (cached, or from its community's list) while loading it failed: said above it. */}
        {load.status === 'error' ? <LoadNotice error={load.error} onRetry={() => setAttempt((n) => n + 1)} /> : null}
        <div className="community__card">
          <Avatar id={channel.id} name={channel.name} imageUrl={channel.logo?.thumbnail || channel.logo?.url || null} channel size={72} />
          <p className="community__name">{channel.name}</p>
          {communityName ? <p className="community__meta">{communityName}</p> : null}
          {channel.description ? <LinkedText text={channel.description} className="community__description" /> : null}
          <p className="community__meta">
            {[
              t('explore.members', { count: channel.members_count }),
              channel.is_member ? t('explore.channel.joined') : t('explore.channel.notJoined'),
            ].join(' · ')}
          </p>
          <p className="community__note">
            {channel.is_community_announcements
              ? t('explore.channel.announcementsNote')
              : channel.read_only
                ? t('explore.channel.whoPosts')
                : t('explore.channel.everyonePosts')}
          </p>
          {channel.is_member ? (
            <div className="community__actions">
              <Link to="/inbox/$conversationId" params={{ conversationId: String(channel.id) }} className="mx-button mx-button--primary">
                {t('explore.channel.open')}
              </Link>
              {mayLeave ? (
                <button type="button" className="mx-button mx-button--danger" onClick={() => setLeaving({ busy: false, failure: null })}>
                  {t('explore.channel.leave')}
                </button>
              ) : null}
            </div>
          ) : (
            <ChannelJoin channel={channel} community={community} communitySettled={communitySettled} />
          )}
        </div>
        {channel.is_member && chat ? <MuteControl conversationId={channel.id} mute={chat.conversation.member?.mute} /> : null}
      </div>
      {leaving ? (
        <ConfirmDialog
          title={t('explore.channel.leaveTitle', { name: channel.name })}
          text={
            channel.is_community_announcements
              ? t('explore.channel.leaveAnnouncementsText', { community: communityName })
              : t('explore.channel.leaveText')
          }
          confirmLabel={t('explore.channel.leaveConfirm')}
          busy={leaving.busy}
          error={leaving.failure ? errorText(leaving.failure.error, t) : null}
          onConfirm={leave}
          onCancel={() => setLeaving(null)}
        />
      ) : null}
    </section>
  );
}

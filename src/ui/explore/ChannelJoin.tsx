import { useNavigate } from '@tanstack/react-router';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Channel, Community } from '../../protocol/entities';
import { errorText } from '../common/errorText';
import { useEngine } from '../hooks/EngineContext';

/**
 * What a channel's info offers someone who has not joined the channel (issue 23). Only the community's
 * members may join its channels (the server refuses anyone else), so an outsider gets "Join community" with
 * a line saying why, and "Join channel" disabled until they are in; once the community is joined here,
 * focus moves on to "Join channel". While the community is still unknown Join waits for it; when it cannot
 * be fetched at all, Join is offered and the server decides. A joined channel opens in the chat view.
 */
export function ChannelJoin(props: { channel: Channel; community: Community | null; communitySettled: boolean }) {
  const { channel, community, communitySettled } = props;
  const { t } = useTranslation();
  const engine = useEngine();
  const navigate = useNavigate();
  const noteId = useId();
  const joinRef = useRef<HTMLButtonElement>(null);
  const [busy, setBusy] = useState<'channel' | 'community' | null>(null);
  // Errors as the engine gave them, put into words when shown (they follow the language).
  const [failure, setFailure] = useState<{ error: unknown } | null>(null);
  const [joinedHere, setJoinedHere] = useState(false);
  const member = community?.is_member === true;
  const outsider = community !== null && !community.is_member;
  const canJoin = member || (community === null && communitySettled);

  useEffect(() => {
    if (joinedHere && member) joinRef.current?.focus();
  }, [joinedHere, member]);

  const joinChannel = () => {
    setBusy('channel');
    setFailure(null);
    engine.joinChannel(channel.id).then(
      () => void navigate({ to: '/inbox/$conversationId', params: { conversationId: String(channel.id) } }),
      (error: unknown) => {
        setBusy(null);
        setFailure({ error });
      },
    );
  };
  const joinCommunity = (id: number) => {
    setBusy('community');
    setFailure(null);
    engine.joinCommunity(id).then(
      () => {
        setBusy(null);
        setJoinedHere(true);
      },
      (error: unknown) => {
        setBusy(null);
        setFailure({ error });
      },
    );
  };

  return (
    <>
      {outsider ? (
        <p className="community__note" id={noteId}>
          {t('explore.channel.joinCommunityFirst', { channel: channel.name, community: community.name })}
        </p>
      ) : null}
      <div className="community__actions">
        {outsider ? (
          <button
            type="button"
            className="mx-button mx-button--primary"
            onClick={() => joinCommunity(community.id)}
            disabled={busy !== null}
            aria-busy={busy === 'community' || undefined}
          >
            {busy === 'community' ? t('explore.community.joining') : t('explore.community.join')}
          </button>
        ) : null}
        <button
          ref={joinRef}
          type="button"
          className={outsider ? 'mx-button' : 'mx-button mx-button--primary'}
          onClick={joinChannel}
          disabled={!canJoin || busy !== null}
          aria-busy={busy === 'channel' || undefined}
          aria-describedby={outsider ? noteId : undefined}
        >
          {t('explore.channel.join')}
        </button>
      </div>
      {failure ? (
        <p className="explore__error" role="alert">
          {errorText(failure.error, t)}
        </p>
      ) : null}
    </>
  );
}

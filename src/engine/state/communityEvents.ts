import { commentAdded, commentsLoaded, commentStored } from './comments';
import {
  channelsLoaded,
  channelStored,
  communitiesLoaded,
  communityStored,
  participantsSeen,
  searchAnswered,
  searchCleared,
  searchStarted,
} from './communities';
import type { EngineEvent, EngineState } from './types';

export type CommunityEvent = Extract<
  EngineEvent,
  {
    type:
      | 'communitiesLoaded'
      | 'communityLoaded'
      | 'communityOpened'
      | 'communitySearchStarted'
      | 'communitySearchAnswered'
      | 'communitySearchFailed'
      | 'communitySearchCleared'
      | 'channelsLoaded'
      | 'channelLoaded'
      | 'commentsLoaded'
      | 'commentAdded'
      | 'commentStored';
  }
>;

/** The communities' events (spec §3): REST answers of the community commands; none has effects. */
export function reduceCommunity(state: EngineState, event: CommunityEvent): EngineState {
  switch (event.type) {
    case 'communitiesLoaded':
      return communitiesLoaded(state, event.communities);
    case 'communityLoaded':
      return communityStored(state, event.community);
    case 'communityOpened':
      return channelsLoaded(communityStored(state, event.community), event.community.id, event.channels);
    case 'communitySearchStarted':
      return searchStarted(state, event.query);
    case 'communitySearchAnswered':
      return searchAnswered(state, event.query, { results: event.results });
    case 'communitySearchFailed':
      return searchAnswered(state, event.query, { error: event.error });
    case 'communitySearchCleared':
      return searchCleared(state);
    case 'channelsLoaded':
      return channelsLoaded(state, event.communityId, event.channels);
    case 'channelLoaded':
      return channelStored(state, event.channel);
    case 'commentsLoaded': {
      const { postId, parentCommentId, comments, hasOlder, older } = event;
      return commentsLoaded(participantsSeen(state, event.participants), postId, parentCommentId, comments, hasOlder, older);
    }
    case 'commentAdded':
      return commentAdded(state, event.comment, event.participants);
    case 'commentStored':
      return commentStored(state, event.comment);
  }
}

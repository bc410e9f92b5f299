import type {
  ChannelAnswer,
  ChannelsAnswer,
  CommunitiesAnswer,
  CommunityAnswer,
  CommunitySearchAnswer,
} from '../../protocol/api';
import { path, type RestCore } from './core';
import type { CommunityCalls } from '../contract/restCalls';
import type { Id } from '../contract/restInputs';

/** Spec §7 "Communities and channels": listing, search, details, joining and leaving. */
export function communityCalls(core: RestCore): CommunityCalls {
  return {
    /** GET /v1/communities, only those joined when `onlyJoined`. */
    getCommunities(options: { onlyJoined?: boolean } = {}): Promise<CommunitiesAnswer> {
      return core.send({
        call: 'getCommunities',
        method: 'GET',
        path: path`/v1/communities`,
        query: { only_joined: options.onlyJoined },
      });
    },

    /** POST /v1/communities/search (json query); a blank query answers no results. */
    searchCommunities(query: string): Promise<CommunitySearchAnswer> {
      return core.send({ call: 'searchCommunities', method: 'POST', path: path`/v1/communities/search`, json: { query } });
    },

    /** GET /v1/communities/{id}. */
    getCommunity(id: Id): Promise<CommunityAnswer> {
      return core.send({ call: 'getCommunity', method: 'GET', path: path`/v1/communities/${id}` });
    },

    /** POST /v1/communities/{id}/join: also joins its announcements channel. */
    joinCommunity(id: Id): Promise<CommunityAnswer> {
      return core.send({ call: 'joinCommunity', method: 'POST', path: path`/v1/communities/${id}/join` });
    },

    /** POST /v1/communities/{id}/leave: leaves all its channels too. */
    leaveCommunity(id: Id): Promise<CommunityAnswer> {
      return core.send({ call: 'leaveCommunity', method: 'POST', path: path`/v1/communities/${id}/leave` });
    },

    /** GET /v1/communities/{id}/channels. */
    getCommunityChannels(id: Id): Promise<ChannelsAnswer> {
      return core.send({ call: 'getCommunityChannels', method: 'GET', path: path`/v1/communities/${id}/channels` });
    },

    /** GET /v1/channels/{id}. */
    getChannel(id: Id): Promise<ChannelAnswer> {
      return core.send({ call: 'getChannel', method: 'GET', path: path`/v1/channels/${id}` });
    },

    /** POST /v1/channels/{id}/join. */
    joinChannel(id: Id): Promise<ChannelAnswer> {
      return core.send({ call: 'joinChannel', method: 'POST', path: path`/v1/channels/${id}/join` });
    },

    /** POST /v1/channels/{id}/leave (of the announcements channel: leaves the community). */
    leaveChannel(id: Id): Promise<ChannelAnswer> {
      return core.send({ call: 'leaveChannel', method: 'POST', path: path`/v1/channels/${id}/leave` });
    },
  };
}

/** The communities chunk (/explore…): the list, a community, and a channel's info. */
export { ChannelInfoView } from '../../explore/ChannelInfoView';
export { CommunityView } from '../../explore/CommunityView';
export { ExploreView } from '../../explore/ExploreView';

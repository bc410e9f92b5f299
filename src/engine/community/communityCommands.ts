import type { Observable } from 'rxjs';
import type { Channel, Comment, Community, Message } from '../../protocol/entities';
import type { ChannelsView, CommentsView, CommunitiesView, EngineApi, OutboxEntry, PostsView, SendInput } from '../api';
import type { CommunityService } from './service';

/** The community part of EngineApi (spec §2 Communities screens, §6). */
type CommunityApi = Pick<
  EngineApi,
  | 'communities'
  | 'community'
  | 'channels'
  | 'channel'
  | 'posts'
  | 'comments'
  | 'refreshCommunities'
  | 'searchCommunities'
  | 'openCommunity'
  | 'joinCommunity'
  | 'leaveCommunity'
  | 'loadChannels'
  | 'loadChannel'
  | 'joinChannel'
  | 'leaveChannel'
  | 'loadPosts'
  | 'loadOlderPosts'
  | 'createPost'
  | 'reactToPost'
  | 'loadComments'
  | 'loadOlderComments'
  | 'addComment'
  | 'reactToComment'
>;

/**
 * The communities, channels, posts and comments of EngineApi, as the Engine inherits them: each is the
 * communities store's (community/service.ts), which the Engine creates and wires to its state.
 */
export abstract class CommunityCommands implements CommunityApi {
  protected abstract readonly communityStore: CommunityService;

  // Queries.

  communities(): Observable<CommunitiesView> {
    return this.communityStore.communities();
  }

  community(communityId: number): Observable<Community | null> {
    return this.communityStore.community(communityId);
  }

  channels(communityId: number): Observable<ChannelsView> {
    return this.communityStore.channels(communityId);
  }

  channel(channelId: number): Observable<Channel | null> {
    return this.communityStore.channel(channelId);
  }

  posts(channelId: number): Observable<PostsView> {
    return this.communityStore.posts(channelId);
  }

  /** Threads are kept by post id (posts are messages, whose ids are unique): the channel id is not needed. */
  comments(channelId: number, postId: number, parentCommentId: number | null = null): Observable<CommentsView> {
    void channelId;
    return this.communityStore.comments(postId, parentCommentId);
  }

  // Commands.

  refreshCommunities(): Promise<Community[]> {
    return this.communityStore.refreshCommunities();
  }

  searchCommunities(query: string): Promise<Community[]> {
    return this.communityStore.searchCommunities(query);
  }

  openCommunity(communityId: number): Promise<Community> {
    return this.communityStore.openCommunity(communityId);
  }

  joinCommunity(communityId: number): Promise<Community> {
    return this.communityStore.joinCommunity(communityId);
  }

  leaveCommunity(communityId: number): Promise<Community> {
    return this.communityStore.leaveCommunity(communityId);
  }

  loadChannels(communityId: number): Promise<Channel[]> {
    return this.communityStore.loadChannels(communityId);
  }

  loadChannel(channelId: number | string): Promise<Channel> {
    return this.communityStore.loadChannel(channelId);
  }

  joinChannel(channelId: number): Promise<Channel> {
    return this.communityStore.joinChannel(channelId);
  }

  leaveChannel(channelId: number): Promise<Channel> {
    return this.communityStore.leaveChannel(channelId);
  }

  loadPosts(channelId: number): Promise<void> {
    return this.communityStore.loadPosts(channelId);
  }

  loadOlderPosts(channelId: number): Promise<boolean> {
    return this.communityStore.loadOlderPosts(channelId);
  }

  createPost(channelId: number, input: SendInput): Promise<Message> {
    return this.communityStore.createPost(channelId, input);
  }

  reactToPost(channelId: number, postId: number, emoji: string, on: boolean): Promise<Message> {
    return this.communityStore.reactToPost(channelId, postId, emoji, on);
  }

  loadComments(channelId: number, postId: number, parentCommentId: number | null = null): Promise<void> {
    return this.communityStore.loadComments(channelId, postId, parentCommentId);
  }

  loadOlderComments(channelId: number, postId: number, parentCommentId: number | null = null): Promise<boolean> {
    return this.communityStore.loadOlderComments(channelId, postId, parentCommentId);
  }

  addComment(channelId: number, postId: number, text: string, parentCommentId: number | null = null): Promise<OutboxEntry> {
    return this.communityStore.addComment(channelId, postId, text, parentCommentId);
  }

  reactToComment(channelId: number, postId: number, commentId: number, emoji: string, on: boolean): Promise<Comment> {
    return this.communityStore.reactToComment(channelId, postId, commentId, emoji, on);
  }
}

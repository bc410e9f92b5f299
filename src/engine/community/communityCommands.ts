import { combineLatest, distinctUntilChanged, map, type Observable } from 'rxjs';
import { COMMENTS_PAGE_SIZE, POSTS_PAGE_SIZE } from '../../protocol/constants';
import type { Channel, Comment, Community, Message } from '../../protocol/entities';
import type { EngineClock } from '../clock';
import { type EngineError, engineError, isEngineError } from '../errors';
import { checkSend } from '../messages/outbox';
import type { RestClient } from '../rest';
import { INVALID_MESSAGE, INVALID_PARAMETERS, type RestCallName, UNEXPECTED } from '../rest/fallbacks';
import { attachmentKind } from '../rules/attachment';
import type {
  ChannelsView,
  CommentsView,
  CommentTarget,
  CommunitiesView,
  MessageWindowView,
  OutboxEntry,
  PostsView,
} from '../contract/types';
import { type EngineEvent, type EngineState, threadKey } from '../state/types';
import { createChannelsSelector, createCommentsSelector, createCommunitiesSelector, createPostsSelector } from './views';

/** Spec §8: a channel's details answered without the channel. */
export const NO_CHANNEL_DATA = 'No channel data available';
/** Spec §8: a channel's details without the community it belongs to (its info lives under that community). */
export const COMMUNITY_ID_MISSING = 'Community ID not available';

export interface CommunityDeps {
  rest: () => RestClient;
  clock: EngineClock;
  log: (message: string, detail?: unknown) => void;
  /** The engine's one state (state/liveState.ts): the answers go into it as events, the views read it. */
  state: {
    readonly value: EngineState;
    readonly state$: Observable<EngineState>;
    dispatch(event: EngineEvent): void;
  };
  messages: (channelId: number) => Observable<MessageWindowView>;
  /** The signed-in user's outbox: comments waiting to be sent show in their thread. */
  outbox: Observable<readonly OutboxEntry[]>;
  /** Puts a comment into the outbox (written before any network call, sent exactly once, like a message). */
  enqueueComment: (channelId: number, target: CommentTarget, text: string) => Promise<OutboxEntry>;
}

const refusal = (call: RestCallName, message: string): EngineError => engineError(call, 400, message, message);
const validId = (id: unknown): id is number => typeof id === 'number' && Number.isSafeInteger(id) && id > 0;

/** Refuses before any network call when an id is not a positive integer (spec §5 community actions). */
function requireIds(call: RestCallName, ...ids: unknown[]): void {
  if (!ids.every(validId)) throw refusal(call, INVALID_PARAMETERS);
}

/**
 * The community or channel of a success answer, when it is one (an object with a positive id: the REST
 * types say what the spec promises, not what arrives). Otherwise the answer is of no use and the call
 * fails like one without a usable answer (status 0) with `message`, by default spec §8's unexpected error
 * (of joining or leaving); nothing half made goes into the state.
 */
function answered<T extends { id: number }>(call: RestCallName, value: T | null | undefined, message: string = UNEXPECTED): T {
  if (typeof value === 'object' && value !== null && validId(value.id)) return value;
  throw engineError(call, 0, null, message);
}

const newKey = (clock: EngineClock) =>
  `cm_${clock.now().toString(36)}_${Math.floor(clock.random() * 2 ** 48).toString(36)}`;
const newClientId = (clock: EngineClock) => 1 + Math.floor(clock.random() * 10_000);

/**
 * Communities, channels, posts and comments (issue 3): commands, whose REST answers go into the engine's one
 * state as events (posts are messages of their channel), and the memoised views over that state. Nothing is
 * kept here: the state, its reducer and its writer are the engine's (state/).
 */
export class CommunityCommands {
  constructor(private readonly deps: CommunityDeps) {}

  private get state$(): Observable<EngineState> {
    return this.deps.state.state$;
  }

  private dispatch(event: EngineEvent): void {
    this.deps.state.dispatch(event);
  }

  // Queries.

  communities(): Observable<CommunitiesView> {
    return this.state$.pipe(map(createCommunitiesSelector()), distinctUntilChanged());
  }

  community(communityId: number): Observable<Community | null> {
    return this.state$.pipe(
      map((s) => s.communities[communityId] ?? null),
      distinctUntilChanged(),
    );
  }

  channels(communityId: number): Observable<ChannelsView> {
    return this.state$.pipe(map(createChannelsSelector(communityId)), distinctUntilChanged());
  }

  channel(channelId: number): Observable<Channel | null> {
    return this.state$.pipe(
      map((s) => s.channels[channelId] ?? null),
      distinctUntilChanged(),
    );
  }

  posts(channelId: number): Observable<PostsView> {
    const select = createPostsSelector();
    return combineLatest([this.state$, this.deps.messages(channelId)]).pipe(
      map(([s, window]) => select(s, window)),
      distinctUntilChanged(),
    );
  }

  /** Threads are kept by post id (posts are messages, whose ids are unique): the channel id is not needed. */
  comments(channelId: number, postId: number, parentCommentId: number | null = null): Observable<CommentsView> {
    void channelId;
    const select = createCommentsSelector(postId, parentCommentId);
    return combineLatest([this.state$, this.deps.outbox]).pipe(
      map(([s, outbox]) => select(s, outbox)),
      distinctUntilChanged(),
    );
  }

  // Communities.

  async refreshCommunities(): Promise<Community[]> {
    const { communities } = await this.deps.rest().getCommunities();
    this.dispatch({ type: 'communitiesLoaded', communities });
    return communities;
  }

  /** Spec §5: an empty (blank) query clears the search and asks nothing. */
  async searchCommunities(query: string): Promise<Community[]> {
    const text = query.trim();
    if (text === '') {
      this.dispatch({ type: 'communitySearchCleared' });
      return [];
    }
    this.dispatch({ type: 'communitySearchStarted', query: text });
    try {
      const { search_results: results } = await this.deps.rest().searchCommunities(text);
      this.dispatch({ type: 'communitySearchAnswered', query: text, results });
      return results;
    } catch (error) {
      this.dispatch({ type: 'communitySearchFailed', query: text, error: isEngineError(error) ? error : null });
      throw error;
    }
  }

  /** The community's details and its channels (a hidden or unknown one rejects with "Community not found"). */
  async openCommunity(communityId: number): Promise<Community> {
    const rest = this.deps.rest();
    const [{ community }, { channels }] = await Promise.all([
      rest.getCommunity(communityId),
      rest.getCommunityChannels(communityId),
    ]);
    this.dispatch({ type: 'communityOpened', community, channels });
    return community;
  }

  async joinCommunity(communityId: number): Promise<Community> {
    const community = answered('joinCommunity', (await this.deps.rest().joinCommunity(communityId))?.community);
    this.dispatch({ type: 'communityLoaded', community });
    // Joining joined its announcements channel: the loaded channel list says so too.
    this.reloadChannels(community.id);
    return community;
  }

  async leaveCommunity(communityId: number): Promise<Community> {
    const community = answered('leaveCommunity', (await this.deps.rest().leaveCommunity(communityId))?.community);
    this.dispatch({ type: 'communityLoaded', community });
    this.reloadChannels(community.id);
    return community;
  }

  // Channels.

  async loadChannels(communityId: number): Promise<Channel[]> {
    const { channels } = await this.deps.rest().getCommunityChannels(communityId);
    this.dispatch({ type: 'channelsLoaded', communityId, channels });
    return channels;
  }

  /**
   * One channel's details, by id or stid. An answer without the channel rejects with "No channel data
   * available", one without its community's id with "Community ID not available" (spec §8).
   */
  async loadChannel(channelId: number | string): Promise<Channel> {
    const channel = answered('getChannel', (await this.deps.rest().getChannel(channelId))?.channel, NO_CHANNEL_DATA);
    if (!validId(channel.community_id)) throw engineError('getChannel', 0, null, COMMUNITY_ID_MISSING);
    this.dispatch({ type: 'channelLoaded', channel });
    return channel;
  }

  async joinChannel(channelId: number): Promise<Channel> {
    const channel = answered('joinChannel', (await this.deps.rest().joinChannel(channelId))?.channel);
    this.dispatch({ type: 'channelLoaded', channel });
    return channel;
  }

  /** Spec §4: leaving the announcements channel is leaving the community, which is then reloaded. */
  async leaveChannel(channelId: number): Promise<Channel> {
    const channel = answered('leaveChannel', (await this.deps.rest().leaveChannel(channelId))?.channel);
    this.dispatch({ type: 'channelLoaded', channel });
    if (channel.is_community_announcements) {
      void this.deps
        .rest()
        .getCommunity(channel.community_id)
        .then(({ community }) => this.dispatch({ type: 'communityLoaded', community }))
        .catch((e: unknown) => this.deps.log('community refresh failed', e));
      this.reloadChannels(channel.community_id);
    }
    return channel;
  }

  // Posts.

  async loadPosts(channelId: number): Promise<void> {
    const { posts, participants } = await this.deps.rest().getPosts(channelId, { limit: POSTS_PAGE_SIZE });
    this.dispatch({ type: 'messagesLoaded', conversationId: channelId, messages: posts, older: false, pageSize: POSTS_PAGE_SIZE, participants });
  }

  async loadOlderPosts(channelId: number): Promise<boolean> {
    const window = this.deps.state.value.windows[channelId];
    const oldest = window?.ids[0];
    if (!window || oldest === undefined || !window.hasOlder) return false;
    const { posts, participants } = await this.deps.rest().getPosts(channelId, { limit: POSTS_PAGE_SIZE, before: oldest });
    this.dispatch({ type: 'messagesLoaded', conversationId: channelId, messages: posts, older: true, pageSize: POSTS_PAGE_SIZE, participants });
    return posts.length > 0;
  }

  /** A post with text and/or one image or video (spec §5 rules); a file is uploaded first. */
  async createPost(channelId: number, input: { text: string; file?: Blob & { name?: string }; quotedMessageId?: number }): Promise<Message> {
    const problem = checkSend(input.text, input.file);
    // Blank text says what is wrong ("Invalid message provided", as for a message or a comment), not the
    // generic "Failed to send message", which would blame the network (issue 23).
    if (problem) throw problem.call === 'sendMessage' ? refusal('createPost', INVALID_MESSAGE) : problem;
    const rest = this.deps.rest();
    let attachment: { type: 'image' | 'video'; fileId: string } | undefined;
    if (input.file) {
      const { file } = await rest.uploadFile(input.file, { fileName: input.file.name || 'upload' });
      attachment = { type: attachmentKind({ name: input.file.name ?? '', type: input.file.type, size: input.file.size }), fileId: file.id };
    }
    const { post } = await rest.createPost(channelId, {
      message: input.text,
      clientId: newClientId(this.deps.clock),
      idempotencyKey: newKey(this.deps.clock),
      ...(attachment ? { attachment } : {}),
      ...(input.quotedMessageId !== undefined ? { quotedMessageId: input.quotedMessageId } : {}),
    });
    this.dispatch({ type: 'messageStored', message: post });
    return post;
  }

  async reactToPost(channelId: number, postId: number, emoji: string, on: boolean): Promise<Message> {
    const call = on ? 'addPostReaction' : 'removePostReaction';
    requireIds(call, channelId, postId);
    const rest = this.deps.rest();
    const { post } = on
      ? await rest.addPostReaction(channelId, postId, emoji)
      : await rest.removePostReaction(channelId, postId, emoji);
    this.dispatch({ type: 'messageStored', message: post });
    return post;
  }

  // Comments.

  async loadComments(channelId: number, postId: number, parentCommentId: number | null = null): Promise<void> {
    requireIds('getComments', channelId, postId, ...(parentCommentId === null ? [] : [parentCommentId]));
    const { comments, participants } = await this.deps.rest().getComments(channelId, {
      postId,
      ...(parentCommentId !== null ? { parentCommentId } : {}),
      limit: COMMENTS_PAGE_SIZE,
    });
    const hasOlder = comments.length >= COMMENTS_PAGE_SIZE;
    this.dispatch({ type: 'commentsLoaded', postId, parentCommentId, comments, participants, hasOlder, older: false });
  }

  async loadOlderComments(channelId: number, postId: number, parentCommentId: number | null = null): Promise<boolean> {
    requireIds('getComments', channelId, postId, ...(parentCommentId === null ? [] : [parentCommentId]));
    const thread = this.deps.state.value.commentThreads[threadKey(postId, parentCommentId)];
    const oldest = thread?.ids[0];
    if (!thread || oldest === undefined || !thread.hasOlder) return false;
    const { comments, participants } = await this.deps.rest().getComments(channelId, {
      postId,
      ...(parentCommentId !== null ? { parentCommentId } : {}),
      limit: COMMENTS_PAGE_SIZE,
      before: oldest,
    });
    const hasOlder = comments.length >= COMMENTS_PAGE_SIZE;
    this.dispatch({ type: 'commentsLoaded', postId, parentCommentId, comments, participants, hasOlder, older: true });
    return comments.length > 0;
  }

  /**
   * Queues a comment (or a reply) in the outbox: it shows in its thread at once as pending, and is sent
   * with one client_id and Idempotency-Key until the server has it, exactly once (issue 8).
   */
  async addComment(channelId: number, postId: number, text: string, parentCommentId: number | null = null): Promise<OutboxEntry> {
    requireIds('createComment', channelId, postId, ...(parentCommentId === null ? [] : [parentCommentId]));
    if (typeof text !== 'string' || text.trim() === '') throw refusal('createComment', INVALID_MESSAGE);
    return this.deps.enqueueComment(channelId, { postId, parentCommentId }, text);
  }

  async reactToComment(channelId: number, postId: number, commentId: number, emoji: string, on: boolean): Promise<Comment> {
    const call = on ? 'addCommentReaction' : 'removeCommentReaction';
    requireIds(call, channelId, postId, commentId);
    const rest = this.deps.rest();
    const { comment } = on
      ? await rest.addCommentReaction(channelId, postId, commentId, emoji)
      : await rest.removeCommentReaction(channelId, postId, commentId, emoji);
    this.dispatch({ type: 'commentStored', comment });
    return comment;
  }

  // Internals.

  private reloadChannels(communityId: number): void {
    if (!(communityId in this.deps.state.value.channelIds)) return;
    void this.loadChannels(communityId).catch((e: unknown) => this.deps.log('channel list refresh failed', e));
  }
}

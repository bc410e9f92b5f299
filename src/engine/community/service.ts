import { BehaviorSubject, combineLatest, distinctUntilChanged, map, type Observable } from 'rxjs';
import { COMMENTS_PAGE_SIZE, POSTS_PAGE_SIZE } from '../../protocol/constants';
import type { Channel, Comment, Community, Message, Participant } from '../../protocol/entities';
import type { EventPayloads } from '../../protocol/socket';
import { BatchedWriter, type WriteBatch } from '../storage/batchedWriter';
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
import type { EngineEvent, EngineState } from '../state/types';
import type { EngineStorage } from '../storage/storage';
import {
  channelsLoaded,
  channelStored,
  commentAdded,
  commentsLoaded,
  commentStored,
  communitiesLoaded,
  communityStored,
  participantsSeen,
  reduceCommunityFrame,
  searchAnswered,
  searchCleared,
  searchStarted,
} from './reduce';
import { type CommunityState, initialCommunityState, type PersistedCommunityState, threadKey } from './types';
import { createChannelsSelector, createCommentsSelector, createCommunitiesSelector, createPostsSelector } from './views';

/** Spec §8: a channel's details answered without the channel. */
export const NO_CHANNEL_DATA = 'No channel data available';
/** Spec §8: a channel's details without the community it belongs to (its info lives under that community). */
export const COMMUNITY_ID_MISSING = 'Community ID not available';

const STORAGE_KEY = 'state';

export interface CommunityDeps {
  storage: EngineStorage;
  rest: () => RestClient;
  clock: EngineClock;
  log: (message: string, detail?: unknown) => void;
  /** The engine's message state: posts are messages of their channel. */
  state: () => EngineState;
  dispatch: (event: EngineEvent) => void;
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
 * (of joining or leaving); nothing half made goes into the store.
 */
function answered<T extends { id: number }>(call: RestCallName, value: T | null | undefined, message: string = UNEXPECTED): T {
  if (typeof value === 'object' && value !== null && validId(value.id)) return value;
  throw engineError(call, 0, null, message);
}

const newKey = (clock: EngineClock) =>
  `cm_${clock.now().toString(36)}_${Math.floor(clock.random() * 2 ** 48).toString(36)}`;
const newClientId = (clock: EngineClock) => 1 + Math.floor(clock.random() * 10_000);

/**
 * Communities, channels, posts and comments (issue 3): REST answers and socket events go into the
 * communities store (persisted, spec §3) or, for posts, into the engine's message state; the views are
 * memoised observables over them.
 */
export class CommunityService {
  readonly state$ = new BehaviorSubject<CommunityState>(initialCommunityState());
  private persisted: PersistedCommunityState | null = null;
  private readonly writer: BatchedWriter;

  constructor(private readonly deps: CommunityDeps) {
    this.writer = new BatchedWriter({ ...deps, failure: 'saving the communities failed', collect: () => this.changedOps() });
  }

  async load(): Promise<void> {
    const stored = await this.deps.storage.get<PersistedCommunityState>('communities', STORAGE_KEY);
    if (stored) {
      this.persisted = stored;
      this.state$.next({ ...initialCommunityState(), ...stored });
    }
  }

  /** Sign-out: nothing of one account's communities may show to the next (storage is cleared by the engine). */
  reset(): void {
    this.writer.cancel();
    this.persisted = null;
    this.state$.next(initialCommunityState());
  }

  flush(): Promise<void> {
    return this.writer.flush();
  }

  /** The engine stopped: a failed write is not retried by a timer any more (`flush` still writes). */
  stop(): void {
    this.writer.stop();
  }

  /** The socket actions of spec §4 this store keeps: new comments and comment reactions. */
  applyFrame(
    frame:
      | { action: 'channel_post_comment_added'; data: EventPayloads['channel_post_comment_added'] }
      | { action: 'reactions_changed'; data: EventPayloads['reactions_changed'] },
  ): void {
    this.update((s) => reduceCommunityFrame(s, frame));
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

  /** A comment the server stored (the outbox's answer): into its thread, with its author. */
  commentStored(comment: Comment, participants: readonly Participant[]): void {
    this.update((s) => commentAdded(s, comment, participants));
  }

  // Communities.

  async refreshCommunities(): Promise<Community[]> {
    const { communities } = await this.deps.rest().getCommunities();
    this.update((s) => communitiesLoaded(s, communities));
    return communities;
  }

  /** Spec §5: an empty (blank) query clears the search and asks nothing. */
  async searchCommunities(query: string): Promise<Community[]> {
    const text = query.trim();
    if (text === '') {
      this.update(searchCleared);
      return [];
    }
    this.update((s) => searchStarted(s, text));
    try {
      const { search_results: results } = await this.deps.rest().searchCommunities(text);
      this.update((s) => searchAnswered(s, text, { results }));
      return results;
    } catch (error) {
      this.update((s) => searchAnswered(s, text, { error: isEngineError(error) ? error : null }));
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
    this.update((s) => channelsLoaded(communityStored(s, community), community.id, channels));
    return community;
  }

  async joinCommunity(communityId: number): Promise<Community> {
    const community = answered('joinCommunity', (await this.deps.rest().joinCommunity(communityId))?.community);
    this.update((s) => communityStored(s, community));
    // Joining joined its announcements channel: the loaded channel list says so too.
    this.reloadChannels(community.id);
    return community;
  }

  async leaveCommunity(communityId: number): Promise<Community> {
    const community = answered('leaveCommunity', (await this.deps.rest().leaveCommunity(communityId))?.community);
    this.update((s) => communityStored(s, community));
    this.reloadChannels(community.id);
    return community;
  }

  // Channels.

  async loadChannels(communityId: number): Promise<Channel[]> {
    const { channels } = await this.deps.rest().getCommunityChannels(communityId);
    this.update((s) => channelsLoaded(s, communityId, channels));
    return channels;
  }

  /**
   * One channel's details, by id or stid. An answer without the channel rejects with "No channel data
   * available", one without its community's id with "Community ID not available" (spec §8).
   */
  async loadChannel(channelId: number | string): Promise<Channel> {
    const channel = answered('getChannel', (await this.deps.rest().getChannel(channelId))?.channel, NO_CHANNEL_DATA);
    if (!validId(channel.community_id)) throw engineError('getChannel', 0, null, COMMUNITY_ID_MISSING);
    this.update((s) => channelStored(s, channel));
    return channel;
  }

  async joinChannel(channelId: number): Promise<Channel> {
    const channel = answered('joinChannel', (await this.deps.rest().joinChannel(channelId))?.channel);
    this.update((s) => channelStored(s, channel));
    return channel;
  }

  /** Spec §4: leaving the announcements channel is leaving the community, which is then reloaded. */
  async leaveChannel(channelId: number): Promise<Channel> {
    const channel = answered('leaveChannel', (await this.deps.rest().leaveChannel(channelId))?.channel);
    this.update((s) => channelStored(s, channel));
    if (channel.is_community_announcements) {
      void this.deps
        .rest()
        .getCommunity(channel.community_id)
        .then(({ community }) => this.update((s) => communityStored(s, community)))
        .catch((e: unknown) => this.deps.log('community refresh failed', e));
      this.reloadChannels(channel.community_id);
    }
    return channel;
  }

  // Posts.

  async loadPosts(channelId: number): Promise<void> {
    const { posts, participants } = await this.deps.rest().getPosts(channelId, { limit: POSTS_PAGE_SIZE });
    this.update((s) => participantsSeen(s, participants));
    this.deps.dispatch({ type: 'messagesLoaded', conversationId: channelId, messages: posts, older: false, pageSize: POSTS_PAGE_SIZE });
  }

  async loadOlderPosts(channelId: number): Promise<boolean> {
    const window = this.deps.state().windows[channelId];
    const oldest = window?.ids[0];
    if (!window || oldest === undefined || !window.hasOlder) return false;
    const { posts, participants } = await this.deps.rest().getPosts(channelId, { limit: POSTS_PAGE_SIZE, before: oldest });
    this.update((s) => participantsSeen(s, participants));
    this.deps.dispatch({ type: 'messagesLoaded', conversationId: channelId, messages: posts, older: true, pageSize: POSTS_PAGE_SIZE });
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
    this.deps.dispatch({ type: 'messageStored', message: post });
    return post;
  }

  async reactToPost(channelId: number, postId: number, emoji: string, on: boolean): Promise<Message> {
    const call = on ? 'addPostReaction' : 'removePostReaction';
    requireIds(call, channelId, postId);
    const rest = this.deps.rest();
    const { post } = on
      ? await rest.addPostReaction(channelId, postId, emoji)
      : await rest.removePostReaction(channelId, postId, emoji);
    this.deps.dispatch({ type: 'messageStored', message: post });
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
    this.update((s) =>
      commentsLoaded(participantsSeen(s, participants), postId, parentCommentId, comments, comments.length >= COMMENTS_PAGE_SIZE, false),
    );
  }

  async loadOlderComments(channelId: number, postId: number, parentCommentId: number | null = null): Promise<boolean> {
    requireIds('getComments', channelId, postId, ...(parentCommentId === null ? [] : [parentCommentId]));
    const thread = this.state$.value.threads[threadKey(postId, parentCommentId)];
    const oldest = thread?.ids[0];
    if (!thread || oldest === undefined || !thread.hasOlder) return false;
    const { comments, participants } = await this.deps.rest().getComments(channelId, {
      postId,
      ...(parentCommentId !== null ? { parentCommentId } : {}),
      limit: COMMENTS_PAGE_SIZE,
      before: oldest,
    });
    this.update((s) =>
      commentsLoaded(participantsSeen(s, participants), postId, parentCommentId, comments, comments.length >= COMMENTS_PAGE_SIZE, true),
    );
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
    this.update((s) => commentStored(s, comment));
    return comment;
  }

  // Internals.

  private reloadChannels(communityId: number): void {
    if (!(communityId in this.state$.value.channelIds)) return;
    void this.loadChannels(communityId).catch((e: unknown) => this.deps.log('channel list refresh failed', e));
  }

  private update(change: (state: CommunityState) => CommunityState): void {
    const next = change(this.state$.value);
    if (next === this.state$.value) return;
    this.state$.next(next);
    this.writer.schedule();
  }

  /** The stored part of the state, when it changed since the last write that committed. */
  private changedOps(): WriteBatch {
    const s = this.state$.value;
    const next: PersistedCommunityState = {
      communities: s.communities,
      listIds: s.listIds,
      channels: s.channels,
      channelIds: s.channelIds,
      participants: s.participants,
    };
    const old = this.persisted;
    if (
      old &&
      old.communities === next.communities &&
      old.listIds === next.listIds &&
      old.channels === next.channels &&
      old.channelIds === next.channelIds &&
      old.participants === next.participants
    ) {
      return { ops: [] };
    }
    return {
      ops: [{ store: 'communities', type: 'put', key: STORAGE_KEY, value: next }],
      written: () => {
        this.persisted = next;
      },
    };
  }
}

import { combineLatest, filter, map, type Observable } from 'rxjs';
import type { OutboxEntry } from './contract/types';
import type { EngineClock } from './clock';
import { CommunityCommands } from './community/communityCommands';
import { ConversationCommands } from './conversations/conversationCommands';
import { Outbox } from './messages/outbox';
import { ReceiptSender } from './messages/receiptSender';
import { MessageSearch } from './search/messageSearch';
import type { Notifier } from './notifications/notifier';
import type { Preferences } from './preferences/preferences';
import type { RestClient } from './rest';
import type { Session } from './session/session';
import { SessionList } from './session/sessionList';
import { type SocketDelivery, SocketConnection, type SocketFactory } from './socket';
import { LiveState } from './state/liveState';
import type { EngineEffect } from './state/types';
import { loadState, signOutOps } from './storage/persistence';
import type { WriteBatch } from './storage/batchedWriter';
import type { ClosableStorage } from './storage/closableStorage';
import type { TabRegistry } from './tabs/tabs';

export { signedInCalls } from './rest/signedInCalls';

/** Some parts' writes in one batch (they go with the state's, in its transaction). */
function joinBatches(...batches: WriteBatch[]): WriteBatch {
  return {
    ops: batches.flatMap((b) => b.ops),
    written: () => {
      for (const b of batches) b.written?.();
    },
    failed: () => {
      for (const b of batches) b.failed?.();
    },
  };
}

/** What the signed-in parts use of the engine's core (engine.ts), which exists before anyone signs in. */
export interface SignedInCore {
  storage: ClosableStorage;
  rest: () => RestClient;
  clock: EngineClock;
  log: (message: string, detail?: unknown) => void;
  tabs: TabRegistry;
  session: Session;
  preferences: Preferences;
  notifier: Notifier;
  /** The socket's address, from the API base or the debug screen's override. */
  wsBase: () => string;
  socketFactory?: SocketFactory;
}

/**
 * The engine's parts only a signed-in user needs (issue 11): the state and its persistence, the chats, the
 * socket, the outbox, the receipts and the communities, wired to each other and to the core. This module is
 * a chunk of the engine worker of its own, loaded at sign-in (or when a stored session is restored), so the
 * worker a visitor of /login starts holds the session, the preferences and the REST client only.
 */
export class SignedInParts {
  readonly state: LiveState;
  readonly chats: ConversationCommands;
  readonly socket: SocketConnection;
  readonly outboxQueue: Outbox;
  readonly receiptSender: ReceiptSender;
  readonly communityCommands: CommunityCommands;
  /** The index of what this device holds, for `searchMessages` (issue 13). */
  readonly search: MessageSearch;
  /** The signed-in user's unsent messages (another user's, left by a sign-out, wait for them). */
  readonly outbox: Observable<readonly OutboxEntry[]>;
  /** The account page's list of the user's sessions. */
  readonly sessionList: SessionList;

  constructor(private readonly core: SignedInCore) {
    const { storage, rest, clock, log, tabs, session } = core;
    this.sessionList = new SessionList(rest);
    this.state = new LiveState({
      storage,
      clock,
      log,
      openConversations: () => tabs.openConversations(),
      readAsSeen: () => tabs.readAsSeen(),
      extraOps: () => joinBatches(this.receiptSender.takeOps(), this.chats.historyOps()),
      onEffect: (effect) => this.run(effect),
    });
    const dispatch = this.state.dispatch.bind(this.state);
    this.chats = new ConversationCommands({ rest, state: this.state, storage, tabs, clock, log });
    this.socket = new SocketConnection({
      params: () => ({
        wsBase: core.wsBase(),
        token: session.auth?.token ?? null,
        lastEventId: this.state.value.lastEventId,
        epoch: this.state.value.epoch || null,
      }),
      onFrame: (delivery) => this.receive(delivery),
      ...(core.socketFactory ? { factory: core.socketFactory } : {}),
      clock,
      // The engine's log, so a worker (or a test) that routes its messages sees the socket's too.
      logger: { warn: log },
      onHandshakeFailed: () => session.probe(),
      onSessionEnded: () => session.probe(true),
    });
    this.outboxQueue = new Outbox({
      storage,
      rest,
      clock,
      userId: () => session.auth?.userId ?? null,
      onStored: (message) => dispatch({ type: 'messageStored', message }),
      onCommentStored: (comment, participants) => dispatch({ type: 'commentAdded', comment, participants }),
      requireKnown: (conversationId) => this.chats.requireKnown('sendMessage', conversationId),
    });
    this.outbox = combineLatest([this.outboxQueue.entries, session.changes()]).pipe(
      map(([entries, auth]) => entries.filter((e) => e.userId === auth?.userId)),
    );
    this.receiptSender = new ReceiptSender({
      storage,
      rest,
      clock,
      signedIn: () => session.auth !== null,
      log,
      changed: () => this.state.schedulePersist(),
      isOpen: (conversationId) => tabs.openConversations().has(conversationId),
      withdrawn: ({ conversationId, messageId }) => dispatch({ type: 'readWithdrawn', conversationId, messageId }),
    });
    this.communityCommands = new CommunityCommands({
      rest,
      clock,
      log,
      state: this.state,
      messages: (channelId) => this.chats.messages(channelId),
      outbox: this.outbox,
      enqueueComment: (channelId, comment, text) =>
        this.outboxQueue.add({ conversationId: channelId, text, quotedMessageId: null, comment }),
    });
    this.search = new MessageSearch({ storage, clock, log, state: this.state });
    this.socket.state$.pipe(filter((s) => s === 'online')).subscribe(() => this.outboxQueue.kick());
  }

  /** Restores what the store holds of them: the state (communities included), the chats, the outbox, the receipts. */
  async load(): Promise<void> {
    const state = await loadState(this.core.storage);
    // Not waited for: the spill's index starts empty, so nothing reads the old pages, and IndexedDB runs the
    // clear before every later write transaction.
    void this.chats.start();
    // Before the state is restored: the index follows the state from there on.
    await this.search.load();
    this.state.restore(state);
    await this.outboxQueue.load();
    await this.receiptSender.load();
  }

  /** The signed-in user's engine goes online: the socket, and the chats refreshed in the background. */
  connect(): void {
    this.socket.start();
    this.chats.refreshInBackground();
  }

  /** Stops their timers, the socket and their writers, writing what is pending. */
  async stop(): Promise<void> {
    this.socket.stop();
    const stopped = Promise.all([this.outboxQueue.stop(), this.receiptSender.stop(), this.search.stop()]);
    this.state.stop();
    await stopped;
    await this.state.flush();
  }

  /** Spec §4: after the session was forgotten, what was the user's goes from memory and the store. */
  async signedOut(): Promise<void> {
    this.state.dispatch({ type: 'signedOut' });
    await this.state.flush();
    await this.receiptSender.clear();
    await this.core.storage.writeBatch(signOutOps());
    this.state.storageCleared();
  }

  /** A socket frame: into the state, and to the outbox when it is its own. */
  private receive(delivery: SocketDelivery): void {
    this.state.dispatch(delivery);
    if (delivery.type !== 'socket') return;
    const { frame } = delivery;
    if (frame.action === 'conversation_message') void this.outboxQueue.settle(frame.data.message);
    // After the state has the comment, so the pending one never leaves a gap (as with messages above).
    if (frame.action === 'channel_post_comment_added') void this.outboxQueue.settleComment(frame.data.comment);
  }

  /** What the reducer asked for besides the new state. */
  private run(effect: EngineEffect): void {
    switch (effect.type) {
      case 'sendReceipt':
        this.receiptSender.enqueue(
          { conversationId: effect.conversationId, messageId: effect.messageId, kind: effect.kind },
          effect.delayMs,
        );
        return;
      case 'refetchConversations':
        this.chats.refreshInBackground();
        return;
      case 'refetchConversation':
        this.chats.refetchConversation(effect.conversationId);
        return;
      case 'sync':
        void this.chats.resync();
        return;
      case 'conversationGone':
        this.chats.gone(effect.conversationId);
        return;
      case 'incomingMessage':
        this.core.notifier.incoming(effect.conversationId, effect.message);
        return;
    }
  }
}
